"""An inaudible mark on every output of a cloned voice, and the detector that finds it.

The mark is Resemble AI's PerthNet (`resemble-perth`, MIT), chosen by measurement
(benchmarks/watermark.py): a learned residual added to the log-magnitude spectrogram below
2 kHz, where speech codecs and resamplers keep the most, shaped by a psychoacoustic loss so
that it hides under the speech. Its two networks are exported to ONNX once by
`make watermark-model` (tools/export_watermark.py); here they run in the project's one
ONNX Runtime session factory, with the STFT and the detector's pooling in NumPy.

The mark is one bit, "made by a cloned voice": which voice made a file is not in the
audio; the audit log (voices/audit.py) records every use.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soxr

from emovox.backends.session import LazySession, SessionSettings
from emovox.errors import ModelAssetError
from emovox.paths import cache_dir

SAMPLE_RATE = 32000
N_FFT = 2048
HOP = 320
SUBBAND = 128  # bins below 2 kHz
MAGNITUDE_FLOOR_DB = -180.0  # 20 log10(1e-9): the network's 0
HEADROOM_DB = 15.0
#: Frames quieter than this share of the loudest frame's summed band carry no mark.
SILENCE_SHARE = 0.05
#: Detector confidence at or above which a file is called watermarked. perth's own 0.5 misses
#: marked speech under 20 dB of white noise (found in 22 of 24 clips): there the marked clips
#: score 0.33 and up, while unmarked speech, as is or after any transformation of the
#: benchmark, scores at most 0.13 (120 checks; benchmarks/watermark.py).
THRESHOLD = 0.25
#: Shortest audio worth a verdict: the detector pools over frames, and a fraction of a second
#: of speech is too little for either answer.
MIN_SECONDS = 0.5
#: Times the embedding network is applied, each pass to the last one's output. A second pass
#: survives noise better but costs 0.28 of DistillMOS (one pass: 0.004; benchmarks/watermark.py).
PASSES = 1
#: Longest stretch the detector reads: a minute of a cloned voice carries the mark throughout,
#: and a whole audiobook's spectrogram would not fit in memory.
MAX_DETECT_S = 60.0
#: Time scales of the detector's three branches (slow, normal, fast).
SCALES = (1.25, 1.0, 0.75)


def model_dir() -> Path:
    """Where `make watermark-model` puts the exported graphs."""
    return cache_dir() / "watermark"


class WatermarkUnavailable(ModelAssetError):
    """The watermark graphs are not built on this machine."""


@dataclass(frozen=True)
class Detection:
    watermarked: bool
    confidence: float
    seconds: float

    def to_dict(self) -> dict:
        return {"watermarked": self.watermarked, "confidence": round(self.confidence, 4),
                "threshold": THRESHOLD, "seconds": round(self.seconds, 2), "mark": "perth-implicit/1"}


_WINDOW = np.hanning(N_FFT + 1)[:-1].astype(np.float32)  # periodic Hann, as the network was trained with


def _stft(signal: np.ndarray) -> np.ndarray:
    """Centred, reflect-padded STFT: [bins, frames] complex."""
    padded = np.pad(signal, N_FFT // 2, mode="reflect" if len(signal) > N_FFT // 2 else "constant")
    count = 1 + (len(padded) - N_FFT) // HOP
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP][:count]
    return np.fft.rfft(frames * _WINDOW, axis=1).T


def _istft(spectrum: np.ndarray, length: int) -> np.ndarray:
    frames = np.fft.irfft(spectrum.T, n=N_FFT, axis=1) * _WINDOW
    total = N_FFT + HOP * (frames.shape[0] - 1)
    out = np.zeros(total, np.float64)
    norm = np.zeros(total, np.float64)
    square = _WINDOW.astype(np.float64) ** 2
    for index, frame in enumerate(frames):
        out[index * HOP:index * HOP + N_FFT] += frame
        norm[index * HOP:index * HOP + N_FFT] += square
    out /= np.maximum(norm, 1e-11)
    return out[N_FFT // 2:N_FFT // 2 + length]


def _to_level(magnitude: np.ndarray) -> np.ndarray:
    db = 20 * np.log10(np.maximum(magnitude, 1e-9))
    return ((db - MAGNITUDE_FLOOR_DB) / (HEADROOM_DB - MAGNITUDE_FLOOR_DB)).astype(np.float32)


def _from_level(level: np.ndarray) -> np.ndarray:
    db = level * (HEADROOM_DB - MAGNITUDE_FLOOR_DB) + MAGNITUDE_FLOOR_DB
    return 10 ** np.minimum(db / 20, 10)


def _speech_frames(level: np.ndarray) -> np.ndarray:
    summed = level.sum(axis=0)
    return summed > summed.max(initial=0.0) * SILENCE_SHARE


def _stretch(band: np.ndarray, frames: int) -> np.ndarray:
    """Linear resampling along time with the ends aligned (the network's interpolation)."""
    source = np.linspace(0, band.shape[1] - 1, frames)
    low = np.floor(source).astype(int)
    high = np.minimum(low + 1, band.shape[1] - 1)
    weight = (source - low).astype(np.float32)
    return band[:, low] * (1 - weight) + band[:, high] * weight


class Watermarker:
    """Marks and detects; thread-safe, sessions built on first use."""

    def __init__(self, directory: Path | None = None, settings: SessionSettings = SessionSettings(),
                 passes: int = PASSES) -> None:
        self.passes = passes
        self.directory = Path(directory) if directory is not None else model_dir()
        self._embed = LazySession(lambda: self._file("embed.onnx"), settings)
        self._detect = LazySession(lambda: self._file("detect.onnx"), settings)

    def _file(self, name: str) -> Path:
        path = self.directory / name
        if not path.is_file():
            raise WatermarkUnavailable(f"the watermark model is not built ({path} is missing): run "
                                       "`make watermark-model`; outputs of cloned voices are always marked")
        return path

    def manifest(self) -> dict:
        """What was exported from where (raises WatermarkUnavailable when it was not)."""
        return json.loads(self._file("manifest.json").read_text())

    def mark(self, samples: np.ndarray, sample_rate: int) -> np.ndarray:
        """`samples` with the mark added, same rate and length."""
        if len(samples) == 0:
            return samples
        signal = soxr.resample(samples, sample_rate, SAMPLE_RATE) if sample_rate != SAMPLE_RATE else samples
        spectrum = _stft(signal.astype(np.float32))
        magnitude = np.abs(spectrum)  # all of it: the speech frames are found on the whole band
        level = _to_level(magnitude)
        speech = _speech_frames(level)
        if not speech.any():
            return samples
        embed = self._embed.get()
        for _ in range(self.passes):
            level[:SUBBAND] += embed.run(None, {"band": level[None, :SUBBAND]})[0][0] * speech
        change = _from_level(level[:SUBBAND]) - magnitude[:SUBBAND]
        # only the band moves: add its change instead of rebuilding the whole signal
        delta = np.zeros_like(spectrum)
        delta[:SUBBAND] = change * np.exp(1j * np.angle(spectrum[:SUBBAND]))
        marked = signal + _istft(delta, len(signal)).astype(np.float32)
        if sample_rate != SAMPLE_RATE:
            marked = soxr.resample(marked, SAMPLE_RATE, sample_rate)
            marked = np.pad(marked, (0, max(0, len(samples) - len(marked))))[:len(samples)]
        return marked.astype(np.float32)

    def detect(self, samples: np.ndarray, sample_rate: int) -> Detection:
        """Whether `samples` carry the mark (the first MAX_DETECT_S seconds are read)."""
        samples = samples[:int(MAX_DETECT_S * sample_rate)]
        seconds = len(samples) / sample_rate
        signal = soxr.resample(samples, sample_rate, SAMPLE_RATE) if sample_rate != SAMPLE_RATE else samples
        if seconds < MIN_SECONDS:
            raise ValueError(f"{seconds:.2f} s of audio is too short to check for the mark "
                             f"(at least {MIN_SECONDS} s)")
        level = _to_level(np.abs(_stft(signal.astype(np.float32))))
        speech = _speech_frames(level)
        if not speech.any():
            return Detection(False, 0.0, seconds)
        band = level[:SUBBAND]
        frames = band.shape[1]
        inputs = {name: _stretch(band, int(frames * scale))[None] for name, scale in
                  zip(("slow", "normal", "fast"), SCALES)}
        outputs = self._detect.get().run(None, inputs)
        attention, votes = [], []
        for out in outputs:
            out = out[0]
            # the speech mask at the branch's time scale, nearest frame
            mask = speech[np.floor(np.arange(out.shape[1]) * frames / out.shape[1]).astype(int)]
            if not mask.any():
                mask = np.ones(out.shape[1], bool)
            attention.append(out[0][mask].mean())
            votes.append(out[1][mask].mean())
        weights = np.exp(np.array(attention) - max(attention))
        confidence = float(np.clip((weights / weights.sum()) @ np.array(votes), 0.0, 1.0))
        return Detection(confidence >= THRESHOLD, confidence, seconds)


_shared: Watermarker | None = None
_shared_lock = threading.Lock()


def shared() -> Watermarker:
    """The process's watermarker (its sessions are built once)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Watermarker()
        return _shared
