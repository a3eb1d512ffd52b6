"""What every synthesis backend provides: token ids + voice + speed -> waveform.

A backend knows nothing about text. It declares the phoneme alphabet it was trained on and
how many phonemes one inference takes; the frontend delivers segments that fit.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from emovox.frontend.g2p.english import Dialect
from emovox.frontend.tokens import Encoded
from emovox.types import VoiceInfo


class Backend(Protocol):
    name: str
    sample_rate: int
    dialect: Dialect
    max_phonemes: int

    def voices(self) -> list[VoiceInfo]:
        """The voices this backend speaks with."""

    def encode(self, phonemes: str) -> Encoded:
        """Phonemes in this backend's alphabet -> the id sequence its model takes."""

    def infer(self, ids: list[int], voice: str, speed: float) -> np.ndarray:
        """One forward pass: float32 mono samples at `sample_rate`."""

    def load(self) -> None:
        """Build the inference session now instead of on first use."""
