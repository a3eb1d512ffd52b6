"""The values that flow out of the engine: voices, audio chunks, and what was done."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np


@dataclass(frozen=True)
class VoiceInfo:
    """A voice a backend can speak with."""

    name: str
    backend: str
    language: str
    gender: str
    sample_rate: int
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: For a cloned voice, the stock voice it was adapted from: its emotion calibration applies.
    based_on: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class AudioChunk:
    """One segment of synthesized speech, as streaming yields it."""

    samples: np.ndarray  # float32, mono, in [-1, 1]
    sample_rate: int
    text: str
    phonemes: str
    index: int
    warnings: tuple[str, ...] = ()

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate


@dataclass(frozen=True)
class SynthesisInfo:
    """What a synthesis call actually did: the options used and what was measured."""

    voice: str
    backend: str
    speed: float
    segments: int
    phonemes: tuple[str, ...]
    compute_seconds: float
    audio_seconds: float
    warnings: tuple[str, ...] = field(default=())
    emotion: dict = field(default_factory=dict)  # what the emotion request resolved to
    prosody: dict = field(default_factory=dict)  # the controls applied

    @property
    def real_time_factor(self) -> float:
        return self.compute_seconds / self.audio_seconds if self.audio_seconds else float("inf")


@dataclass(frozen=True)
class Audio:
    """A whole utterance: samples plus the info of the call that made it."""

    samples: np.ndarray
    sample_rate: int
    info: SynthesisInfo

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate
