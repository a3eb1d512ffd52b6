"""The waveform stage of the `heart` voice: harmonic and noise parameters per frame -> audio.

hibari's network does not output samples. For every 12.5 ms frame it predicts an F0 value
and five spectra over 601 bins (a 1200-point FFT at 24 kHz): the log magnitude `lh` and
phase warp `theta` that filter a harmonic source built from F0, the log magnitude `ln` of
shaped noise, and a free component (`lr`, `phi`). The spectrum of a frame is

    S = e^lh · e^(iπ·tanh θ) · STFT(harmonics of F0) + e^ln · Z + e^lr · e^(iφ)

(Z complex unit Gaussian noise) and the waveform is its inverse STFT (Hann, hop 300). That
contract is the package's documented interface; this module is our implementation of it.

Because the source, its filter and the noise are separate here, voice quality is a change
of parameters, not of the finished waveform: a brighter or darker spectrum is a shelf on
the filters, and breathiness is the balance of noise against harmonics (`VoiceQuality`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

SAMPLE_RATE = 24_000
FFT_SIZE = 1200
HOP = 300
BINS = FFT_SIZE // 2 + 1
#: Below this F0 (Hz) a frame is unvoiced: no harmonic source.
VOICED_HZ = 40.0
#: Harmonics are summed up to here (Hz), under the Nyquist frequency with room to spare.
HARMONICS_UP_TO_HZ = 11_000.0
#: The model's log magnitudes are capped here, as in training (e^7 is far above speech).
LOG_MAGNITUDE_CAP = 7.0
_WINDOW = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(FFT_SIZE) / FFT_SIZE)).astype(np.float32)
#: A unit cosine at a bin centre has STFT magnitude sum(window) / 2 = FFT_SIZE / 4; dividing
#: by it makes e^lh the harmonic's own amplitude.
_SOURCE_WINDOW = _WINDOW / (FFT_SIZE / 4)
_TILT_PIVOT_HZ = 1000.0
_LOG_PER_DB = np.log(10) / 20
#: Frames of the noise table (25.6 s) and the seed it is drawn from (`_noise_frames`).
NOISE_FRAMES = 2048
NOISE_SEED = 20261206


@dataclass(frozen=True)
class VoiceQuality:
    """How the filters are changed before synthesis.

    `tilt_db`: a shelf around 1 kHz, +tilt/2 dB above and -tilt/2 dB below (the same shape the
    renderer puts on other voices' waveforms), on the harmonic and free components.
    `breath_db`: the noise component raised (breathier) or lowered (tenser) against the rest.
    """

    tilt_db: float = 0.0
    breath_db: float = 0.0


@functools.lru_cache(maxsize=1)
def _shelf() -> np.ndarray:
    """The tilt's shape per bin, for a tilt of 1 dB, in natural-log magnitude units."""
    freqs = np.arange(BINS) * SAMPLE_RATE / FFT_SIZE
    octaves = np.log2(np.maximum(freqs, 50.0) / _TILT_PIVOT_HZ)
    return (0.5 * np.tanh(octaves) * _LOG_PER_DB).astype(np.float32)[:, None]


@functools.lru_cache(maxsize=1)
def _noise_table() -> np.ndarray:
    """Complex unit Gaussian noise, [BINS, NOISE_FRAMES], drawn once per process from a fixed seed."""
    return np.random.default_rng(NOISE_SEED).standard_normal((BINS, 2 * NOISE_FRAMES), dtype=np.float32).view(np.complex64)


def _noise_frames(frames: int, rng: np.random.Generator) -> np.ndarray:
    """`Z` for `frames` frames: the noise table read from an offset `rng` picks, wrapping round.

    Drawing fresh Gaussians for every bin of every frame was a third of this stage's time (6 ms
    for 7 s of audio); a table read from a random offset is the same noise to the ear (each
    frame-bin a unit complex Gaussian, independent within 25.6 s), and the same call still gives
    the same samples."""
    table, start = _noise_table(), int(rng.integers(NOISE_FRAMES))
    if start + frames <= NOISE_FRAMES:
        return table[:, start:start + frames]
    return np.take(table, np.arange(start, start + frames), axis=1, mode="wrap")


def harmonic_source(f0: np.ndarray) -> np.ndarray:
    """Every harmonic of the frame-rate F0 below HARMONICS_UP_TO_HZ at unit amplitude, at the
    sample rate; silence where unvoiced.

    The sum of cos(k·φ) for k = 1..K has the closed form sin((K+½)φ) / (2·sin(φ/2)) − ½, so
    the cost does not grow with the number of harmonics."""
    frames = len(f0)
    centres = (np.arange(frames) + 0.5) * HOP - 0.5  # frame k covers samples [k·HOP, (k+1)·HOP)
    hz = np.interp(np.arange(frames * HOP), centres, np.asarray(f0, np.float64)).astype(np.float32)
    voiced = hz > VOICED_HZ
    hz = np.maximum(hz, VOICED_HZ)
    phase = np.cumsum(hz, dtype=np.float64) / SAMPLE_RATE
    phase = (2 * np.pi * (phase - np.floor(phase))).astype(np.float32)
    count = np.floor(HARMONICS_UP_TO_HZ / hz) + 0.5
    denominator = 2 * np.sin(phase / 2)
    near_zero = np.abs(denominator) < 2e-3
    source = np.sin(count * phase) / np.where(near_zero, 1.0, denominator)
    source = np.where(near_zero, count, source) - 0.5  # the limit at φ → 0 is K + ½
    return np.where(voiced, source, 0.0).astype(np.float32)


def synthesize(lh: np.ndarray, theta: np.ndarray, ln: np.ndarray, lr: np.ndarray, phi: np.ndarray,
               f0: np.ndarray, noise: np.random.Generator, quality: VoiceQuality = VoiceQuality()) -> np.ndarray:
    """The waveform of one utterance's parameters ([BINS, frames] each, `f0` [frames])."""
    frames = HarmonicNoise(lh, theta, ln, lr, phi, f0, noise, quality)
    return frames.render(0, frames.count)


class HarmonicNoise:
    """One utterance's parameters, rendered a range of frames at a time.

    What spans the utterance is made once here: the harmonic source (its phase runs from the
    first sample) and the noise (drawn in frame order). A range [start, end) is then the STFT
    frames that overlap it, two on each side (a window spans four hops), inverted and added:
    the same samples the whole utterance has there."""

    def __init__(self, lh: np.ndarray, theta: np.ndarray, ln: np.ndarray, lr: np.ndarray, phi: np.ndarray,
                 f0: np.ndarray, noise: np.random.Generator, quality: VoiceQuality = VoiceQuality()) -> None:
        self.count = lh.shape[1]
        tilt = _shelf() * np.float32(quality.tilt_db) if quality.tilt_db else 0.0
        self._harmonic = _magnitude(lh, tilt) * _phasor(np.pi * np.tanh(theta))
        self._noise = _magnitude(ln, tilt + np.float32(quality.breath_db * _LOG_PER_DB)) * _noise_frames(self.count, noise)
        self._free = _magnitude(lr, tilt) * _phasor(phi)
        padded = np.pad(harmonic_source(f0), FFT_SIZE // 2, mode="reflect")
        self._source = np.lib.stride_tricks.sliding_window_view(padded, FFT_SIZE)[::HOP][:self.count]

    def render(self, start: int, end: int) -> np.ndarray:
        """Samples [start·HOP, end·HOP)."""
        parts = FFT_SIZE // HOP
        lo, hi = max(0, start - parts // 2), min(self.count, end + parts // 2)
        spectrum = np.fft.rfft(self._source[lo:hi] * _SOURCE_WINDOW, axis=1).T
        spectrum *= self._harmonic[:, lo:hi]
        spectrum += self._noise[:, lo:hi]
        spectrum += self._free[:, lo:hi]
        frames = hi - lo
        blocks = (np.fft.irfft(spectrum.T, FFT_SIZE, axis=1).astype(np.float32) * _WINDOW).reshape(frames, parts, HOP)
        out = np.zeros((frames + parts - 1, HOP), np.float32)
        for k in range(parts):  # a window spans four hops: four shifted adds
            out[k:k + frames] += blocks[:, k]
        out *= _overlap_normalizer(frames)
        first = (start - lo) * HOP + FFT_SIZE // 2  # `out` starts half a window before frame lo
        return out.reshape(-1)[first:first + (end - start) * HOP]


@functools.lru_cache(maxsize=16)
def _overlap_normalizer(frames: int) -> np.ndarray:
    """1 / the summed squared window under each output sample, as [frames + 3, HOP] blocks."""
    parts = FFT_SIZE // HOP
    squared = (_WINDOW * _WINDOW).reshape(parts, HOP)
    total = np.zeros((frames + parts - 1, HOP), np.float32)
    for k in range(parts):
        total[k:k + frames] += squared[k]
    return 1.0 / np.maximum(total, 1e-11)


def _phasor(angle: np.ndarray) -> np.ndarray:
    """e^(i·angle) as complex64, computed in float32 (a complex128 exp costs three times as much)."""
    out = np.empty(angle.shape, np.complex64)
    np.cos(angle, out=out.real)
    np.sin(angle, out=out.imag)
    return out


def _magnitude(log_magnitude: np.ndarray, shift: np.ndarray | float = 0.0) -> np.ndarray:
    return np.exp(np.minimum(log_magnitude, LOG_MAGNITUDE_CAP) + shift, dtype=np.float32)
