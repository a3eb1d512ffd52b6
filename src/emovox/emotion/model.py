"""The Emotion value and the physical prosody controls it resolves to.

An emotion is a label and an intensity in [0, 1], plus optional explicit overrides in
physical units. Resolving it gives a `Prosody`: F0 shift in semitones, F0 range factor,
speaking-rate factor and energy change in dB. Intensity interpolates from neutral
(0 st, x1, x1, 0 dB) to the preset, geometrically for the factors, so 0.5 is halfway on
the scale listeners hear.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from emovox.errors import InvalidOptionError

EMOTIONS = ("neutral", "happy", "angry", "sad", "surprised", "fearful", "disgusted")


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
class Emotion:
    """What the listener should hear: a label, how strongly, and any explicit overrides."""

    name: str = "neutral"
    intensity: float = 1.0
    pitch_st: float | None = None  # None = what the preset says
    pitch_range: float | None = None
    speed: float | None = None
    energy_db: float | None = None

    def __post_init__(self) -> None:
        if self.name not in EMOTIONS:
            raise InvalidOptionError(f"unknown emotion {self.name!r}; choose one of {', '.join(EMOTIONS)}")
        if not 0.0 <= self.intensity <= 1.0:
            raise InvalidOptionError(f"intensity {self.intensity} is out of range; use a value from 0 to 1")
        if self.pitch_range is not None and not 0.1 <= self.pitch_range <= 4.0:
            raise InvalidOptionError(f"pitch range {self.pitch_range} is out of range; use 0.1 to 4")
        if self.speed is not None and not 0.25 <= self.speed <= 4.0:
            raise InvalidOptionError(f"speed {self.speed} is out of range; use 0.25 to 4")
        if self.pitch_st is not None and not -12 <= self.pitch_st <= 12:
            raise InvalidOptionError(f"pitch shift {self.pitch_st} st is out of range; use -12 to 12")
        if self.energy_db is not None and not -20 <= self.energy_db <= 20:
            raise InvalidOptionError(f"energy {self.energy_db} dB is out of range; use -20 to 20")

    def with_overrides(self, **overrides: float | None) -> Emotion:
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def prosody(self, presets: dict[str, Prosody]) -> Prosody:
        """The controls this emotion asks for, given a table of full-intensity presets."""
        scaled = presets[self.name].scaled(self.intensity)
        return Prosody(
            pitch_st=scaled.pitch_st if self.pitch_st is None else self.pitch_st,
            pitch_range=scaled.pitch_range if self.pitch_range is None else self.pitch_range,
            speed=scaled.speed if self.speed is None else self.speed,
            energy_db=scaled.energy_db if self.energy_db is None else self.energy_db,
            tilt_db=scaled.tilt_db,
        )

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}
