"""Signal-level prosody, for what a model cannot do inside itself.

- `reshape_pitch`: a new F0 contour by TD-PSOLA (audio/psola.py) over an autocorrelation
  F0 track (audio/pitch.py): level shift in semitones and range scaled around the
  utterance's median log-F0. Applied per chunk, so streaming still works.
- `shape_level`: gain in dB and a spectral tilt (a gentle shelf around 1 kHz), the
  voice-quality cue of tense (bright) or soft (dark) speech.
- `limit`: a soft limiter so loud emotions and hot models never clip.
"""

from __future__ import annotations

import numpy as np

from emovox.audio.pitch import track_f0
from emovox.audio.psola import psola
from emovox.types import Equalizer

_TILT_PIVOT_HZ = 1000.0
_LIMIT_KNEE = 0.8


#: Default search band for the F0 analysis that drives pitch changes, in Hz.
SPEECH_F0_BAND = (60.0, 400.0)
_HOP_S = 0.005


def reshape_pitch(samples: np.ndarray, sample_rate: int, pitch_st: float, pitch_range: float,
                  f0_band: tuple[float, float] = SPEECH_F0_BAND, keep_level: bool = True) -> np.ndarray:
    """Level shift in semitones and range scaled around the median log-F0, by TD-PSOLA.

    `f0_band` bounds the F0 analysis to the voice's own range, so octave errors cannot
    become audible octave jumps."""
    if pitch_st == 0.0 and pitch_range == 1.0:
        return samples
    f0 = track_f0(samples, sample_rate, f0_band, _HOP_S)
    voiced = f0 > 0
    if voiced.sum() < 3:
        return samples
    log_f0 = np.log(f0[voiced])
    center = np.median(log_f0)
    target = f0.copy()
    target[voiced] = np.exp(center + (log_f0 - center) * pitch_range + pitch_st * np.log(2) / 12)
    return psola(samples, sample_rate, f0, target, _HOP_S, keep_level)


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
