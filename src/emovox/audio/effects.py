"""Signal-level prosody, for what a model cannot do inside itself.

- `reshape_pitch`: a new F0 contour by TD-PSOLA (audio/psola.py) over an autocorrelation
  F0 track (audio/pitch.py): level shift in semitones and range scaled around the
  utterance's median log-F0 (or the voice's own centre, so that `PitchShaper` can do the
  same on a stream, block by block).
- `shape_level`: gain in dB and a spectral tilt (a gentle shelf around 1 kHz), the
  voice-quality cue of tense (bright) or soft (dark) speech.
- `limit`: a soft limiter so loud emotions and hot models never clip.
"""

from __future__ import annotations

import numpy as np

from emovox.audio.pitch import MEDIAN_REACH, analyze_frames, median_smooth, track_f0
from emovox.audio.psola import Psola, psola
from emovox.types import Equalizer

_TILT_PIVOT_HZ = 1000.0
_LIMIT_KNEE = 0.8


#: Default search band for the F0 analysis that drives pitch changes, in Hz.
SPEECH_F0_BAND = (60.0, 400.0)
_HOP_S = 0.005


def reshape_pitch(samples: np.ndarray, sample_rate: int, pitch_st: float, pitch_range: float,
                  f0_band: tuple[float, float] = SPEECH_F0_BAND, keep_level: bool = True,
                  center_hz: float | None = None) -> np.ndarray:
    """Level shift in semitones and range scaled around `center_hz` (None: the utterance's
    median F0), by TD-PSOLA.

    `f0_band` bounds the F0 analysis to the voice's own range, so octave errors cannot
    become audible octave jumps."""
    if pitch_st == 0.0 and pitch_range == 1.0:
        return samples
    f0 = track_f0(samples, sample_rate, f0_band, _HOP_S)
    voiced = f0 > 0
    if voiced.sum() < 3:
        return samples
    center = np.median(np.log(f0[voiced])) if center_hz is None else np.log(center_hz)
    return psola(samples, sample_rate, f0, _target(f0, center, pitch_st, pitch_range), _HOP_S, keep_level)


def _target(f0: np.ndarray, log_center: float, pitch_st: float, pitch_range: float) -> np.ndarray:
    """The F0 track moved: its log scaled by `pitch_range` around `log_center`, raised `pitch_st`."""
    target = f0.copy()
    voiced = f0 > 0
    target[voiced] = np.exp(log_center + (np.log(f0[voiced]) - log_center) * pitch_range + pitch_st * np.log(2) / 12)
    return target


class PitchShaper:
    """`reshape_pitch` on a signal that arrives in blocks, around a fixed centre (a voice's
    own median F0: a stream cannot wait for the utterance's).

    Each block, the F0 track goes on from the last settled frame; a frame is settled once no
    later sample can reach its analysis window or its median filter, and settled frames never
    change (the TD-PSOLA marks placed on them stay). The voicing decision's loudest frame is
    the loudest so far, so against the whole-utterance track only frames near that threshold
    before the loudest speech can differ; the output lags the input by the track's reach and
    two pitch periods."""

    def __init__(self, sample_rate: int, pitch_st: float, pitch_range: float, center_hz: float,
                 f0_band: tuple[float, float] = SPEECH_F0_BAND, keep_level: bool = True) -> None:
        self._rate, self._band = sample_rate, f0_band
        self._moves = (float(np.log(center_hz)), pitch_st, pitch_range)
        self._psola = Psola(sample_rate, _HOP_S, 1.0 / f0_band[0], keep_level)
        self._samples = np.zeros(0, np.float32)
        self._f0 = np.zeros(0)
        self._loudest = 0.0
        # the analysis window's half-width (1.5 periods of the band's floor) and the median filter
        self._frames_behind = int(np.ceil(1.5 / f0_band[0] / _HOP_S)) + 1 + MEDIAN_REACH

    def process(self, block: np.ndarray, final: bool = False) -> np.ndarray:
        self._samples = np.concatenate([self._samples, np.asarray(block, dtype=np.float32)])
        first = max(0, len(self._f0) - MEDIAN_REACH)  # the filter's left neighbours, again
        frames = analyze_frames(self._samples, self._rate, self._band, _HOP_S, first)
        self._loudest = max(self._loudest, float(frames.energy.max(initial=0.0)))
        tracked = median_smooth(frames.voiced_f0(self._loudest))[len(self._f0) - first:]
        settled = len(tracked) if final else max(0, len(tracked) - self._frames_behind)
        self._f0 = np.concatenate([self._f0, tracked[:settled]])
        return self._psola.process(block, self._f0, _target(self._f0, *self._moves), final)


def shape_level(samples: np.ndarray, sample_rate: int, energy_db: float, tilt_db: float,
                equalizer: Equalizer | None = None) -> np.ndarray:
    """Gain plus tilt: +tilt_db/2 above the pivot, -tilt_db/2 below it, smoothly (in log f);
    and a cloned voice's equalizer in the same filter."""
    return LevelShaper(sample_rate, energy_db, tilt_db, equalizer).process(samples, final=True)


class LevelShaper:
    """`shape_level` on a signal that arrives in blocks: the same output, block by block.

    The tilt is a linear-phase FIR (`_TILT_TAPS` taps, the shelf's response windowed), so a
    block's output waits for half the filter's length of the next block; `final=True` flushes."""

    def __init__(self, sample_rate: int, energy_db: float, tilt_db: float,
                 equalizer: Equalizer | None = None) -> None:
        """`equalizer`: a cloned voice's finish (voices/finish.py), in the same filter as the tilt."""
        self._gain = np.float32(10 ** (energy_db / 20))
        self._taps = _shaping_filter(sample_rate, tilt_db, equalizer) if tilt_db or equalizer else None
        self._history = np.zeros((_TILT_TAPS - 1) // 2, dtype=np.float32)

    def process(self, block: np.ndarray, final: bool = False) -> np.ndarray:
        y = np.asarray(block, dtype=np.float32)
        if self._taps is not None:
            tail = np.zeros((_TILT_TAPS - 1) // 2, dtype=np.float32) if final else np.zeros(0, np.float32)
            buffered = np.concatenate([self._history, y, tail])
            y = np.convolve(buffered, self._taps, mode="valid").astype(np.float32) \
                if len(buffered) >= _TILT_TAPS else np.zeros(0, np.float32)
            self._history = buffered[max(0, len(buffered) - (_TILT_TAPS - 1)):] if len(buffered) >= _TILT_TAPS \
                else buffered
        return y * self._gain if self._gain != 1 else y


#: Length of the shaping filter: 10.6 ms at 24 kHz, fine enough for a shelf an octave wide
#: and a clone's equalizer (points 125 Hz apart, smoothed over 390 Hz).
_TILT_TAPS = 255


def _shaping_filter(sample_rate: int, tilt_db: float, equalizer: Equalizer | None = None) -> np.ndarray:
    size = 4096
    freqs = np.fft.rfftfreq(size, 1.0 / sample_rate)
    response_db = (tilt_db / 2) * np.tanh(np.log2(np.maximum(freqs, 50.0) / _TILT_PIVOT_HZ))
    if equalizer is not None:
        response_db = response_db + equalizer.gains_db(freqs)
    impulse = np.roll(np.fft.irfft(10 ** (response_db / 20), n=size), (_TILT_TAPS - 1) // 2)[:_TILT_TAPS]
    return (impulse * np.hanning(_TILT_TAPS + 2)[1:-1]).astype(np.float32)


def limit(samples: np.ndarray) -> np.ndarray:
    """Soft-knee limiter: untouched below 0.8, smoothly approaching 1.0 above it."""
    magnitude = np.abs(samples)
    if magnitude.max(initial=0.0) <= _LIMIT_KNEE:
        return samples
    headroom = 1.0 - _LIMIT_KNEE
    over = magnitude > _LIMIT_KNEE
    out = samples.copy()
    out[over] = np.sign(samples[over]) * (
        _LIMIT_KNEE + headroom * np.tanh((magnitude[over] - _LIMIT_KNEE) / headroom)
    )
    return out


def speech_level_db(samples: np.ndarray, sample_rate: int, frame_s: float = 0.02) -> float:
    """RMS level (dBFS) of the frames within 30 dB of the loudest: speech, not its pauses."""
    frame = max(1, int(sample_rate * frame_s))
    count = len(samples) // frame
    if count == 0:
        return -120.0
    rms = np.sqrt(np.mean(samples[: count * frame].astype(np.float64).reshape(count, frame) ** 2, axis=1))
    active = rms[rms > rms.max() * 10 ** (-30 / 20)]
    return float(20 * np.log10(np.sqrt(np.mean(active**2)) + 1e-12))
