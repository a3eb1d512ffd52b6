"""GE2E speaker encoder (256-d d-vectors) in NumPy, from the weights `resemblyzer` ships.

The network is a 3-layer LSTM over 40-band mel power spectra (25 ms windows, 10 ms hop,
16 kHz) whose last hidden state goes through a linear layer, a ReLU and L2 normalisation.
An utterance is cut into 1.6 s partials (1.3 per second) whose embeddings are averaged,
as in the reference implementation. torch is not needed at run time: the checkpoint is
read with `pickle` and NumPy (see `read_legacy_checkpoint`).

The encoder is one replaceable component: anything with `embed(samples) -> unit vector`
at 16 kHz can score and drive cloning.
"""

from __future__ import annotations

import importlib.util
import pickle
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from emovox.errors import ModelAssetError

SAMPLE_RATE = 16_000
N_FFT = 400  # 25 ms
HOP = 160  # 10 ms
N_MELS = 40
PARTIAL_FRAMES = 160  # 1.6 s
PARTIALS_PER_SECOND = 1.3
MIN_COVERAGE = 0.75
EMBEDDING_SIZE = 256

_DTYPES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "LongStorage": np.int64,
           "IntStorage": np.int32, "HalfStorage": np.float16}


def resemblyzer_weights() -> Path:
    """`resemblyzer/pretrained.pt`, located without importing resemblyzer (which imports torch)."""
    spec = importlib.util.find_spec("resemblyzer")
    if spec is None or not spec.submodule_search_locations:
        raise ModelAssetError("the speaker encoder weights come from the 'resemblyzer' package; "
                              "run `pip install --no-deps resemblyzer==0.1.4` (no torch needed)")
    path = Path(next(iter(spec.submodule_search_locations))) / "pretrained.pt"
    if not path.is_file():
        raise ModelAssetError(f"{path} is missing; reinstall with `pip install --no-deps --force-reinstall resemblyzer`")
    return path


@dataclass
class _TensorRef:
    storage_key: str
    offset: int
    shape: tuple[int, ...]
    stride: tuple[int, ...]


def read_legacy_checkpoint(path: Path) -> dict:
    """A checkpoint in torch's legacy (pre-zip) format, its tensors as NumPy arrays.

    Layout: magic number, protocol and system-info pickles; the pickled object, whose
    persistent ids name storages; the list of storage keys; then each storage as an int64
    element count followed by its raw little-endian data.
    """
    storage_types: dict[str, type] = {}

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str):
            if module == "torch._utils" and name == "_rebuild_tensor_v2":
                return lambda storage, offset, shape, stride, *_: _TensorRef(storage, offset, tuple(shape), tuple(stride))
            if module == "torch" and name in _DTYPES:
                return name
            if module == "collections" and name == "OrderedDict":
                return OrderedDict
            raise pickle.UnpicklingError(f"unexpected object {module}.{name} in the checkpoint")

        def persistent_load(self, pid):
            _, storage_type, key, _location, _size = pid[:5]
            storage_types[key] = storage_type
            return key

    with open(path, "rb") as f:
        for _ in range(3):  # magic number, protocol version, system info
            Unpickler(f).load()
        obj = Unpickler(f).load()
        keys = Unpickler(f).load()
        storages = {}
        for key in keys:
            dtype = np.dtype(_DTYPES[storage_types[key]]).newbyteorder("<")
            count = int(np.frombuffer(f.read(8), "<i8")[0])
            storages[key] = np.frombuffer(f.read(count * dtype.itemsize), dtype)

    def materialize(value):
        if isinstance(value, _TensorRef):
            flat = storages[value.storage_key]
            strides = tuple(s * flat.itemsize for s in value.stride)
            view = np.lib.stride_tricks.as_strided(flat[value.offset:], value.shape, strides)
            return np.array(view, dtype=np.float32 if flat.dtype.kind == "f" else flat.dtype)
        if isinstance(value, dict):
            return {k: materialize(v) for k, v in value.items()}
        return value

    return materialize(obj)


def mel_filterbank(sample_rate: int = SAMPLE_RATE, n_fft: int = N_FFT, n_mels: int = N_MELS) -> np.ndarray:
    """Slaney-style mel filters (area-normalised triangles), shape (n_mels, n_fft // 2 + 1)."""
    def hz_to_mel(hz):
        hz = np.asarray(hz, dtype=np.float64)
        linear = hz / (200.0 / 3)
        log_part = 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / (np.log(6.4) / 27.0)
        return np.where(hz >= 1000.0, log_part, linear)

    def mel_to_hz(mel):
        mel = np.asarray(mel, dtype=np.float64)
        return np.where(mel >= 15.0, 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0)), mel * (200.0 / 3))

    fft_hz = np.linspace(0, sample_rate / 2, n_fft // 2 + 1)
    edges = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2), n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - fft_hz[None, :]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(rising, falling))
    return (weights * (2.0 / (edges[2:] - edges[:-2]))[:, None]).astype(np.float32)


def mel_power_frames(samples: np.ndarray) -> np.ndarray:
    """Mel power spectrogram, frames x bands (a centred STFT with zero padding, Hann window)."""
    padded = np.pad(samples.astype(np.float32), N_FFT // 2)
    count = 1 + (len(padded) - N_FFT) // HOP
    frames = np.lib.stride_tricks.as_strided(padded, (count, N_FFT), (padded.strides[0] * HOP, padded.strides[0]))
    window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)).astype(np.float32)
    power = np.abs(np.fft.rfft(frames * window, axis=1)) ** 2
    return (power @ _MEL.T).astype(np.float32)


_MEL = mel_filterbank()


def partial_slices(n_samples: int) -> list[slice]:
    """Frame ranges of the 1.6 s partials an utterance is embedded from."""
    n_frames = int(np.ceil((n_samples + 1) / HOP))
    step = int(np.round(SAMPLE_RATE / PARTIALS_PER_SECOND / HOP))
    starts = range(0, max(1, n_frames - PARTIAL_FRAMES + step + 1), step)
    slices = [slice(start, start + PARTIAL_FRAMES) for start in starts]
    last = slices[-1]
    coverage = (n_samples - last.start * HOP) / (PARTIAL_FRAMES * HOP)
    if coverage < MIN_COVERAGE and len(slices) > 1:
        slices.pop()
    return slices


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class SpeakerEncoder:
    """GE2E d-vectors: `embed(samples_16k)` -> unit vector of 256 floats."""

    name = "ge2e-resemblyzer"

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self._layers = []
        for layer in range(3):
            w_ih, w_hh = weights[f"lstm.weight_ih_l{layer}"], weights[f"lstm.weight_hh_l{layer}"]
            bias = weights[f"lstm.bias_ih_l{layer}"] + weights[f"lstm.bias_hh_l{layer}"]
            self._layers.append((w_ih.T.copy(), w_hh.T.copy(), bias))
        self._linear = (weights["linear.weight"].T.copy(), weights["linear.bias"])

    @classmethod
    @lru_cache(maxsize=1)
    def packaged(cls) -> SpeakerEncoder:
        checkpoint = read_legacy_checkpoint(resemblyzer_weights())
        return cls(checkpoint["model_state"])

    def embed_partials(self, mels: np.ndarray) -> np.ndarray:
        """(batch, frames, 40) mel power -> (batch, 256) unit vectors."""
        x = mels.astype(np.float32)
        batch, steps, _ = x.shape
        for w_ih, w_hh, bias in self._layers:
            gates_in = x @ w_ih + bias  # all time steps at once
            hidden_size = w_hh.shape[0]
            h = np.zeros((batch, hidden_size), np.float32)
            c = np.zeros((batch, hidden_size), np.float32)
            outputs = np.empty((batch, steps, hidden_size), np.float32)
            for t in range(steps):
                gates = gates_in[:, t] + h @ w_hh
                i, f, g, o = np.split(gates, 4, axis=1)  # torch's gate order
                c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
                h = _sigmoid(o) * np.tanh(c)
                outputs[:, t] = h
            x = outputs
        weight, bias = self._linear
        raw = np.maximum(h @ weight + bias, 0.0)
        return raw / np.linalg.norm(raw, axis=1, keepdims=True)

    def embed(self, samples: np.ndarray, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
        """One utterance -> its d-vector (the normalised mean of its partials), analysed at 16 kHz."""
        if sample_rate != SAMPLE_RATE:
            import soxr

            samples = soxr.resample(samples, sample_rate, SAMPLE_RATE)
        samples = np.asarray(samples, dtype=np.float32)
        slices = partial_slices(len(samples))
        needed = slices[-1].stop * HOP
        if needed >= len(samples):
            samples = np.pad(samples, (0, needed - len(samples)))
        mel = mel_power_frames(samples)
        partials = self.embed_partials(np.stack([mel[s] for s in slices]))
        mean = partials.mean(axis=0)
        return mean / np.linalg.norm(mean)


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity of two d-vectors."""
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
