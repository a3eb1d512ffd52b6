"""Subtitles: cues (a stretch of time and its text) out as SRT (srt) and WebVTT (webvtt-py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from emovox.types import Word

#: A cue made of words holds at most this many, or ends at a pause this long (s).
WORDS_PER_CUE = 7
CUE_GAP_S = 0.6


@dataclass(frozen=True)
class Cue:
    """A stretch of speech and the text it says."""

    start_s: float
    end_s: float
    text: str


def cues_from_words(words: Iterable[Word]) -> list[Cue]:
    """A few words a cue, a new cue after a pause."""
    cues: list[Cue] = []
    group: list[Word] = []
    for word in words:
        if group and (len(group) >= WORDS_PER_CUE or word.start_s - group[-1].end_s > CUE_GAP_S):
            cues.append(Cue(group[0].start_s, group[-1].end_s, " ".join(w.word for w in group)))
            group = []
        group.append(word)
    if group:
        cues.append(Cue(group[0].start_s, group[-1].end_s, " ".join(w.word for w in group)))
    return cues


def srt_text(cues: list[Cue]) -> str:
    import srt

    return srt.compose([srt.Subtitle(number, timedelta(seconds=cue.start_s), timedelta(seconds=cue.end_s), cue.text)
                        for number, cue in enumerate(cues, 1)])


def vtt_text(cues: list[Cue]) -> str:
    from webvtt import Caption, WebVTT

    def stamp(seconds: float) -> str:
        millis = round(seconds * 1000)
        return f"{millis // 3_600_000:02d}:{millis // 60_000 % 60:02d}:{millis // 1000 % 60:02d}.{millis % 1000:03d}"

    return WebVTT(captions=[Caption(stamp(cue.start_s), stamp(cue.end_s), cue.text) for cue in cues]).content
