"""What every synthesis backend provides: token ids + voice + speed -> waveform.

A backend knows nothing about text. It declares how many phonemes one inference takes;
the frontend delivers IPA segments that fit, and the backend maps them to its own ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np

from emovox.emotion.model import Prosody
from emovox.frontend.tokens import Encoded
from emovox.types import VoiceInfo


class Backend(Protocol):
    name: str
    sample_rate: int
    max_phonemes: int

    def voices(self) -> list[VoiceInfo]:
        """The voices this backend speaks with."""

    def encode(self, phonemes: str) -> Encoded:
        """Phonemes in this backend's alphabet -> the id sequence its model takes."""

    def infer(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> np.ndarray:
        """One forward pass with these prosody controls: float32 mono samples at `sample_rate`."""

    @property
    def model_path(self) -> Path | None:
        """The model file inference runs on (its size is what a deployment carries)."""

    def load(self) -> None:
        """Build the inference session now instead of on first use."""

    def add_voice(self, info: VoiceInfo, conditioning: np.ndarray) -> None:
        """Speak as a cloned voice: `conditioning` is what this backend adapts (a style pack,
        a pitch register)."""

    def remove_voice(self, name: str) -> None:
        """Forget a cloned voice."""
