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
from emovox.types import Prosody

__all__ = ["EMOTIONS", "OVERRIDES", "Emotion", "Limit", "Prosody"]

EMOTIONS = ("neutral", "happy", "angry", "sad", "surprised", "fearful", "disgusted")


@dataclass(frozen=True)
class Limit:
    """The range an explicit prosody override may take, and how a request names it."""

    option: str  # the request option that sets it (CLI --NAME, API field NAME)
    what: str
    unit: str
    low: float
    high: float


#: Explicit overrides an Emotion takes, by field: each is also a request option.
OVERRIDES = {
    "pitch_st": Limit("pitch", "pitch shift", " st", -12.0, 12.0),
    "pitch_range": Limit("range", "pitch range", "", 0.1, 4.0),
    "speed": Limit("rate", "speaking rate", "", 0.25, 4.0),
    "energy_db": Limit("energy", "energy", " dB", -20.0, 20.0),
}


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
            raise InvalidOptionError(f"unknown emotion {self.name!r}; choose one of {', '.join(EMOTIONS)}",
                                     param="emotion")
        if not 0.0 <= self.intensity <= 1.0:
            raise InvalidOptionError(f"intensity {self.intensity} is out of range; use a value from 0 to 1",
                                     param="intensity")
        for field_name, limit in OVERRIDES.items():
            value = getattr(self, field_name)
            if value is not None and not limit.low <= value <= limit.high:
                raise InvalidOptionError(f"{limit.what} {value:g}{limit.unit} is out of range; use {limit.low:g} "
                                         f"to {limit.high:g}", param=limit.option)

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
