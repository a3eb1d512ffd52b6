"""F0 tracking by normalized autocorrelation (after Boersma 1993), for driving PSOLA.

Each 10 ms-hop frame spans three periods of the lowest F0 sought; its autocorrelation is
divided by the analysis window's own autocorrelation, so a periodic frame peaks near 1 at
its period whatever the window. A frame is voiced when that peak clears a threshold and
the frame is not near-silent. Searching only the voice's own band removes octave errors
at the source; a short median filter removes single-frame jumps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

VOICING_THRESHOLD = 0.45
SILENCE_DB = -35.0  # frames this far below the loudest are unvoiced


def track_f0(samples: np.ndarray, sample_rate: int, band: tuple[float, float], hop_s: float) -> np.ndarray:
    """F0 in Hz per hop (0 = unvoiced), frames centred on multiples of `hop_s`."""
    frames = analyze_frames(samples, sample_rate, band, hop_s)
    return median_smooth(frames.voiced_f0(frames.energy.max()))


@dataclass(frozen=True)
class FrameAnalysis:
    """Each frame's best period in the band, as F0 (Hz), how clearly it repeats (the normalized
    autocorrelation's peak) and its RMS: all a voicing decision needs but the loudest frame."""

    f0: np.ndarray
    clarity: np.ndarray
    energy: np.ndarray

    def voiced_f0(self, loudest: float) -> np.ndarray:
        """F0 where the frame repeats clearly and is within `SILENCE_DB` of `loudest`, else 0
        (before the median filter)."""
        loud = 20 * np.log10(self.energy / max(loudest, 1e-12)) > SILENCE_DB
        return np.where((self.clarity > VOICING_THRESHOLD) & loud, self.f0, 0.0)


def analyze_frames(samples: np.ndarray, sample_rate: int, band: tuple[float, float], hop_s: float,
                   first_frame: int = 0) -> FrameAnalysis:
    """The frames from `first_frame` to the end of `samples` (a stream analyzes only its new ones)."""
    x = np.asarray(samples, dtype=np.float64)
    low_f0, high_f0 = band
    width = int(3 * sample_rate / low_f0)
    hop = hop_s * sample_rate
    count = int(len(x) / hop) + 1
    padded = np.pad(x, width // 2 + 1)
    starts = (np.arange(first_frame, count) * hop).astype(int)
    count = len(starts)
    frames = np.stack([padded[s:s + width] for s in starts]) if count else np.zeros((0, width))
    frames = frames - frames.mean(axis=1, keepdims=True)
    window = np.hanning(width)
    size = 1 << int(np.ceil(np.log2(2 * width)))
    spectrum = np.fft.rfft(frames * window, size, axis=1)
    autocorr = np.fft.irfft(np.abs(spectrum) ** 2, size, axis=1)[:, :width]
    window_autocorr = np.fft.irfft(np.abs(np.fft.rfft(window, size)) ** 2, size)[:width]
    normalized = autocorr / np.maximum(autocorr[:, :1], 1e-12) / np.maximum(window_autocorr / window_autocorr[0], 1e-3)
    min_lag, max_lag = int(sample_rate / high_f0), min(int(sample_rate / low_f0) + 1, width - 2)
    search = normalized[:, min_lag:max_lag]
    best = search.argmax(axis=1)
    peak = search[np.arange(count), best]
    lag = (best + min_lag).astype(np.float64)
    # parabolic interpolation around the peak
    left = normalized[np.arange(count), np.maximum(lag.astype(int) - 1, 0)]
    right = normalized[np.arange(count), np.minimum(lag.astype(int) + 1, width - 1)]
    curvature = left - 2 * peak + right
    offset = np.where(np.abs(curvature) > 1e-9, 0.5 * (left - right) / np.where(curvature == 0, 1, curvature), 0.0)
    lag += np.clip(offset, -0.5, 0.5)  # a peak at the window's edge must not extrapolate out of band
    energy = np.sqrt((frames**2).mean(axis=1)) + 1e-12
    return FrameAnalysis(sample_rate / lag, peak, energy)


#: Frames each side the median filter reads.
MEDIAN_REACH = 2


def median_smooth(f0: np.ndarray, size: int = 2 * MEDIAN_REACH + 1) -> np.ndarray:
    """Median over voiced neighbours; unvoiced frames stay unvoiced."""
    out = f0.copy()
    half = size // 2
    for i in np.flatnonzero(f0 > 0):
        neighbours = f0[max(0, i - half):i + half + 1]
        out[i] = np.median(neighbours[neighbours > 0])
    return out
