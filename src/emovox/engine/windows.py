"""Where a streamed segment's waveform is cut into windows, and how the windows are joined.

A backend that decodes in windows (`Frames`, from `Backend.prepare`) has run its text side
once; its waveform decoder then runs here, a window at a time, so the first audio of a
sentence waits for one short window instead of the whole sentence.

- Only the frames that hold speech, plus a margin, are decoded: the model's own leading and
  trailing silence would be trimmed anyway (audio/post.py keeps the same 30 ms).
- The first window is short (`FIRST_WINDOW_S`); each next one is `Frames.growth` times
  longer (2 unless the backend's decoder is fast enough for more), up to `MAX_WINDOW_S`, so
  each window is ready long before the audio before it has played and a step of one stream
  never holds up another's first audio for long. Where decoding is cheap (`Frames.cheap`),
  the rest of the segment after the first window is one piece: every piece costs the server
  a step.
- A boundary moves forward, by up to `CUT_SLACK_S`, to the first unvoiced frame: a join inside
  voicing is where two windows' small differences could be heard.
- Each window is decoded from one frame before its start; the overlap cross-fades the two
  windows over `CROSSFADE_S` just before the boundary.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from emovox.backends.base import Frames

FIRST_WINDOW_S = 0.25
MAX_WINDOW_S = 3.2
CUT_SLACK_S = 0.15
SPEECH_MARGIN_S = 0.03
CROSSFADE_S = 0.005


def decoded_range(frames: Frames, sample_rate: int) -> tuple[int, int]:
    """The [first, last) frames worth decoding: the speech and a margin on each side."""
    margin = int(np.ceil(SPEECH_MARGIN_S * sample_rate / frames.samples_per_frame))
    first, last = frames.speech
    if last <= first:  # no speech predicted: decode everything and let the trim decide
        return 0, frames.count
    return max(0, first - margin), min(frames.count, last + margin)


def windows(frames: Frames, sample_rate: int) -> list[tuple[int, int]]:
    """[start, end) frames of each window, in order, covering `decoded_range` exactly."""
    frame_s = frames.samples_per_frame / sample_rate
    first, last = decoded_range(frames, sample_rate)
    slack = int(round(CUT_SLACK_S / frame_s))
    size_s, bounds = FIRST_WINDOW_S, [first]
    while True:
        target = bounds[-1] + max(1, int(round(size_s / frame_s)))
        if target + slack >= last:
            break
        unvoiced = np.flatnonzero(~frames.voiced[target:target + slack])
        bounds.append(target + int(unvoiced[0]) if len(unvoiced) else target)
        if frames.cheap:
            break
        size_s = min(MAX_WINDOW_S, size_s * frames.growth)
    bounds.append(last)
    return list(zip(bounds[:-1], bounds[1:]))


def decoded(frames: Frames, sample_rate: int) -> Iterator[tuple[np.ndarray, bool]]:
    """(samples, whether they are the last) of `decoded_range`, window by window, joined by
    cross-fades: concatenated, the samples are exactly as long as the range."""
    per_frame = frames.samples_per_frame
    fade = min(per_frame, max(1, int(CROSSFADE_S * sample_rate)))
    ramp = np.linspace(0.0, 1.0, fade, dtype=np.float32)
    planned = windows(frames, sample_rate)
    held: np.ndarray | None = None
    for number, (start, end) in enumerate(planned):
        last = number == len(planned) - 1
        if held is None:
            samples = frames.decode(start, end)
        else:
            samples = frames.decode(start - 1, end)
            overlap = samples[per_frame - fade:per_frame]
            samples = np.concatenate([held * (1 - ramp) + overlap * ramp, samples[per_frame:]])
        if last:
            yield samples, True
        else:
            held = samples[-fade:]
            yield samples[:-fade], False


def join_snr_db(frames: Frames, sample_rate: int) -> float:
    """How far the joined windows are from one decode of the same range (SNR in dB; inf
    where they are the same samples): what windowing alone changes."""
    first, last = decoded_range(frames, sample_rate)
    whole = frames.decode(first, last)
    joined = np.concatenate([samples for samples, _ in decoded(frames, sample_rate)])
    error = float(np.sum((joined - whole) ** 2))
    return float("inf") if error == 0 else float(10 * np.log10(np.sum(whole ** 2) / error))
