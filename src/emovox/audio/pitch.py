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


#: Frames analyzed at a time. All of a long clip's frames at once made arrays of gigabytes that
#: the FFTs crossed again and again (three minutes at a 10 ms hop: 15 s and 2.1 GB more memory);
#: in blocks the working set stays in cache and the memory bounded, with the same values.
BLOCK_FRAMES = 256


def analyze_frames(samples: np.ndarray, sample_rate: int, band: tuple[float, float], hop_s: float,
                   first_frame: int = 0) -> FrameAnalysis:
    """The frames from `first_frame` to the end of `samples` (a stream analyzes only its new ones)."""
    width = int(3 * sample_rate / band[0])
    hop = hop_s * sample_rate
    count = int(len(samples) / hop) + 1
    edge = width // 2 + 1
    padded = np.zeros(len(samples) + 2 * edge)  # the one float64 copy of the clip
    padded[edge:edge + len(samples)] = samples
    starts = (np.arange(first_frame, count) * hop).astype(int)
    lags = _LagSearch(sample_rate, width, band)
    blocks = [lags.analyze(np.stack([padded[s:s + width] for s in starts[i:i + BLOCK_FRAMES]]))
              for i in range(0, len(starts), BLOCK_FRAMES)]
    if not blocks:
        return FrameAnalysis(np.zeros(0), np.zeros(0), np.zeros(0))
    return FrameAnalysis(*(np.concatenate(parts) for parts in zip(*blocks)))


class _LagSearch:
    """Each frame's autocorrelation peak in the band: what is the same for every frame of an
    analysis (the window, its own autocorrelation, the lags searched) is made once."""

    def __init__(self, sample_rate: int, width: int, band: tuple[float, float]) -> None:
        low_f0, high_f0 = band
        self._rate, self._width = sample_rate, width
        self._window = np.hanning(width)
        self._size = 1 << int(np.ceil(np.log2(2 * width)))
        window_autocorr = np.fft.irfft(np.abs(np.fft.rfft(self._window, self._size)) ** 2, self._size)[:width]
        self._window_autocorr = np.maximum(window_autocorr / window_autocorr[0], 1e-3)
        self._lags = (int(sample_rate / high_f0), min(int(sample_rate / low_f0) + 1, width - 2))

    def analyze(self, frames: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(F0, clarity, RMS) of each row of `frames`."""
        count, width = len(frames), self._width
        frames = frames - frames.mean(axis=1, keepdims=True)
        spectrum = np.fft.rfft(frames * self._window, self._size, axis=1)
        autocorr = np.fft.irfft(np.abs(spectrum) ** 2, self._size, axis=1)[:, :width]
        normalized = autocorr / np.maximum(autocorr[:, :1], 1e-12) / self._window_autocorr
        min_lag, max_lag = self._lags
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
        return self._rate / lag, peak, energy


#: Frames each side the median filter reads.
MEDIAN_REACH = 2


def median_smooth(f0: np.ndarray, size: int = 2 * MEDIAN_REACH + 1) -> np.ndarray:
    """Median over voiced neighbours; unvoiced frames stay unvoiced."""
    out, voiced = f0.copy(), f0 > 0
    if voiced.any():
        half = size // 2
        neighbours = np.lib.stride_tricks.sliding_window_view(
            np.pad(np.where(voiced, f0, np.nan), half, constant_values=np.nan), size)
        out[voiced] = np.nanmedian(neighbours[voiced], axis=1)
    return out
