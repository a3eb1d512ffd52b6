"""The values every layer shares: prosody controls, voices, audio chunks, and what was done.

`Prosody` is the physical control vector: what emotion resolves to and what a backend (or
the signal stage after it) is asked to produce. It lives here, below the frontend, the
emotion model and the backends, so none of them has to import another to speak of it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np


@dataclass(frozen=True)
class Prosody:
    """Physical prosody controls, relative to the voice's neutral reading."""

    pitch_st: float = 0.0  # F0 level shift, semitones
    pitch_range: float = 1.0  # F0 excursion around the utterance mean, factor
    speed: float = 1.0  # speaking rate, factor (>1 is faster, shorter)
    energy_db: float = 0.0  # loudness change, dB
    tilt_db: float = 0.0  # spectral tilt: + brightens (tense, angry), - softens

    @property
    def is_neutral(self) -> bool:
        return self == Prosody()

    @property
    def changes_pitch(self) -> bool:
        return (self.pitch_st, self.pitch_range) != (0.0, 1.0)

    def scaled(self, intensity: float) -> Prosody:
        """Interpolate from neutral (0) to this prosody (1): linear in st/dB, geometric in factors."""
        return Prosody(
            pitch_st=self.pitch_st * intensity,
            pitch_range=self.pitch_range**intensity,
            speed=self.speed**intensity,
            energy_db=self.energy_db * intensity,
            tilt_db=self.tilt_db * intensity,
        )

    def then(self, other: Prosody) -> Prosody:
        """Compose two prosody changes (e.g. an emotion, then an SSML <prosody> inside it)."""
        return Prosody(
            pitch_st=self.pitch_st + other.pitch_st,
            pitch_range=self.pitch_range * other.pitch_range,
            speed=self.speed * other.speed,
            energy_db=self.energy_db + other.energy_db,
            tilt_db=self.tilt_db + other.tilt_db,
        )

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Equalizer:
    """A gain curve in dB at frequencies in Hz (a cloned voice's finish, voices/finish.py);
    linear between points, 0 dB above the last."""

    hz: tuple[float, ...]
    db: tuple[float, ...]

    def gains_db(self, freqs: np.ndarray) -> np.ndarray:
        return np.interp(freqs, self.hz, self.db, right=0.0)


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
class Word:
    """A word of the text and when it is heard, in seconds from the start of its chunk (or,
    in a whole utterance, of the audio)."""

    word: str
    start_s: float
    end_s: float

    def shifted(self, seconds: float) -> Word:
        return Word(self.word, round(self.start_s + seconds, 3), round(self.end_s + seconds, 3))

    def to_dict(self) -> dict:
        return {"word": self.word, "start": self.start_s, "end": self.end_s}


@dataclass(frozen=True)
class AudioChunk:
    """One segment of synthesized speech, as streaming yields it."""

    samples: np.ndarray  # float32, mono, in [-1, 1]
    sample_rate: int
    text: str
    phonemes: str
    index: int
    warnings: tuple[str, ...] = ()
    #: The chunk's words and when each is heard (from the model's own durations).
    words: tuple[Word, ...] = ()
    #: False on every piece of a segment streamed in pieces but its last (its words, text and
    #: warnings come with its first piece).
    final: bool = True

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
    words: tuple[Word, ...] = ()  # every word and when it is heard in the audio

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
