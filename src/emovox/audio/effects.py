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


def shape_level(samples: np.ndarray, sample_rate: int, energy_db: float, tilt_db: float) -> np.ndarray:
    """Gain plus tilt: +tilt_db/2 above the pivot, -tilt_db/2 below it, smoothly (in log f)."""
    y = samples
    if tilt_db:
        spectrum = np.fft.rfft(y)
        freqs = np.fft.rfftfreq(len(y), 1.0 / sample_rate)
        octaves = np.log2(np.maximum(freqs, 50.0) / _TILT_PIVOT_HZ)
        shelf_db = (tilt_db / 2) * np.tanh(octaves)
        y = np.fft.irfft(spectrum * 10 ** (shelf_db / 20), n=len(y)).astype(np.float32)
    if energy_db:
        y = y * np.float32(10 ** (energy_db / 20))
    return y


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
