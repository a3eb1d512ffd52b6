"""Per-segment audio clean-up: trim the model's edge silence, then add a measured pause."""

from __future__ import annotations

import numpy as np

#: Pause after a sentence and after a clause split, in seconds.
SENTENCE_PAUSE_S = 0.25
CLAUSE_PAUSE_S = 0.08
#: Between stretches of mixed text read by two voices within one sentence.
SWITCH_PAUSE_S = 0.05
_FRAME_S = 0.01
_MARGIN_S = 0.03
_SILENCE_DB = -40.0


def trim_silence(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """Cut leading and trailing stretches quieter than -40 dB below the peak, keeping a margin."""
    start, end = speech_bounds(samples, sample_rate)
    return samples[start:end]


def speech_bounds(samples: np.ndarray, sample_rate: int) -> tuple[int, int]:
    """Where `trim_silence` cuts: the first and one past the last sample kept."""
    if len(samples) < max(1, int(sample_rate * _FRAME_S)):
        return 0, len(samples)
    rms = frame_rms(samples, sample_rate)
    return _loud_span(samples, sample_rate, rms, rms.max())


def frame_rms(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """RMS of each 10 ms frame (a partial last frame is left out)."""
    frame = max(1, int(sample_rate * _FRAME_S))
    count = len(samples) // frame
    frames = samples[: count * frame].reshape(count, frame)
    return np.sqrt(np.mean(frames.astype(np.float64) ** 2, axis=1))


def speech_start(samples: np.ndarray, sample_rate: int, peak_rms: float) -> int:
    """Where `trim_silence` would start the first part of a segment that arrives in pieces,
    `peak_rms` standing in for the whole segment's loudest frame."""
    return _loud_span(samples, sample_rate, frame_rms(samples, sample_rate), peak_rms)[0]


def speech_end(samples: np.ndarray, sample_rate: int, peak_rms: float) -> int:
    """Where `trim_silence` would end the last part of a segment that arrived in pieces:
    `peak_rms` is the loudest frame of the whole segment (`frame_rms`)."""
    return _loud_span(samples, sample_rate, frame_rms(samples, sample_rate), peak_rms)[1]


def _loud_span(samples: np.ndarray, sample_rate: int, rms: np.ndarray, peak_rms: float) -> tuple[int, int]:
    """From the first to past the last frame within 40 dB of `peak_rms`, with the margin on
    each side; (0, 0) where no frame is."""
    loud = np.flatnonzero(rms > peak_rms * 10 ** (_SILENCE_DB / 20))
    if len(loud) == 0:
        return 0, 0
    frame, margin = max(1, int(sample_rate * _FRAME_S)), int(sample_rate * _MARGIN_S)
    return max(0, loud[0] * frame - margin), min(len(samples), (loud[-1] + 1) * frame + margin)
