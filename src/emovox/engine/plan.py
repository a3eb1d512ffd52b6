"""What planning produces: plain values, with no model, session or engine inside.

A `Plan` holds the inferences a request needs (`ChunkJob`s) and everything that was
resolved on the way: the emotion and the words it came from, the controls of each markup
span and language stretch, and the warnings. Backends and voices are named, not held, so
a plan pickles and can be rendered by another process that has the same voices.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from emovox.emotion.model import Emotion
from emovox.emotion.resolve import Resolution
from emovox.types import Equalizer, Prosody, VoiceInfo


@dataclass(frozen=True)
class ChunkJob:
    """One inference: the ids a backend runs with which controls, and how its audio is finished."""

    backend: str
    #: The catalogue voice that speaks this chunk (the requested one, or a partner in mixed text).
    voice: str
    #: The voice the backend's model is asked for (a register clone speaks with its base voice).
    model_voice: str
    ids: tuple[int, ...]
    speed: float
    controls: Prosody
    text: str
    phonemes: str
    index: int
    pause_before_s: float
    pause_after_s: float
    #: The stream's sample rate (a chunk in another voice of mixed text is resampled to it).
    output_rate: int
    warnings: tuple[str, ...] = ()
    #: Bring this chunk to that voice's speech level (a partner voice matching the requested one).
    match_level_of: str = ""
    #: The words of `text`, and for each id the word it sounds in (-1: none), for timestamps.
    words: tuple[str, ...] = ()
    id_words: tuple[int, ...] = ()
    #: `text` as it was written ("$12.75", not "twelve dollars and seventy-five cents"), for
    #: subtitles ("" where not known).
    written: str = ""
    #: Mark the audio as a cloned voice's (audio/watermark.py): every chunk of a request in a
    #: cloned voice, a partner voice's chunks of mixed text too.
    watermark: bool = False
    #: A cloned voice's equalizer (voices/finish.py), applied where the emotion's tilt is.
    equalizer: Equalizer | None = None

    @property
    def cache_key(self) -> tuple:
        return (self.backend, self.model_voice, self.ids, self.speed, self.controls)


@dataclass(frozen=True)
class Stretch:
    """A piece of the text in one language, read by one voice with one emotion and controls."""

    text: str  # normalized
    language: str
    voice: str
    emotion: Emotion
    controls: Prosody
    pause_before_s: float = 0.0
    #: The text as written (after markup), whose words the timestamps report.
    written: str = ""


@dataclass(frozen=True)
class Plan:
    """A request, planned: iterate it for its jobs, read it for what was resolved."""

    voice: VoiceInfo
    speed: float
    lang: str
    sample_rate: int
    resolution: Resolution
    #: The requested voice's controls for the request's own emotion (markup spans may differ).
    controls: Prosody
    stretches: tuple[Stretch, ...]
    jobs: tuple[ChunkJob, ...]
    warnings: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[ChunkJob]:
        return iter(self.jobs)

    def __len__(self) -> int:
        return len(self.jobs)

    @property
    def backends(self) -> tuple[str, ...]:
        """The backends whose workers this plan needs, in order of first use."""
        return tuple(dict.fromkeys(job.backend for job in self.jobs))

    def to_dict(self) -> dict:
        return {"voice": self.voice.name, "speed": self.speed, "lang": self.lang, "sample_rate": self.sample_rate,
                "emotion": self.resolution.to_dict(), "prosody": self.controls.to_dict(),
                "stretches": [{"text": s.text, "language": s.language, "voice": s.voice,
                               "emotion": s.emotion.to_dict(), "prosody": s.controls.to_dict(),
                               "pause_before_s": s.pause_before_s} for s in self.stretches],
                "chunks": len(self.jobs), "warnings": list(self.warnings)}
