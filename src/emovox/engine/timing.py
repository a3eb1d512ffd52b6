"""Word timestamps from the models' own durations.

Every backend reports where each of its input ids sounds (`Backend.infer_timed`). The
planner knows which phoneme each id stands for (`Encoded.sources`) and which word of the
segment's text each phoneme word reads (`align_words`); the renderer turns the ids' sample
spans into each word's start and end in the chunk (`word_times`), after the edge silence is
trimmed. English phoneme words are espeak's, separated by spaces; Chinese ones are the
syllables, one per character.

When the text and the phonemes do not have the same number of words (a hyphenated word
that espeak reads as two, an erhua syllable that reads two characters), the words are
shared out in order: several phoneme words to one text word, or one phoneme word's ids
split among the text words it reads.
"""

from __future__ import annotations

import re

import numpy as np

from emovox.types import Word

_PHONEME_WORD = {"en": re.compile(r"[^\s,.!?;:…—()\"]+"), "zh": re.compile(r"[a-z]+\d")}
_TEXT_WORD = {"en": re.compile(r"[\w'’]+(?:[-.][\w'’]+)*"), "zh": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")}


def align_words(text: str, phonemes: str, sources: tuple[int, ...], language: str) -> tuple[tuple[str, ...],
                                                                                             tuple[int, ...]]:
    """The words of `text`, and for each id the index of the word it sounds in (-1: none)."""
    key = "zh" if language == "zh" else "en"
    words = tuple(_TEXT_WORD[key].findall(text))
    units = [match.span() for match in _PHONEME_WORD[key].finditer(phonemes)]
    if not words or not units:
        return words, tuple(-1 for _ in sources)
    unit_of = np.full(len(phonemes) + 1, -1, np.int64)
    for number, (start, end) in enumerate(units):
        unit_of[start:end] = number
    owners: list[list[int]] = [[] for _ in units]  # the text words each phoneme word reads, in order
    if len(words) <= len(units):
        for number in range(len(units)):
            owners[number].append(number * len(words) // len(units))
    else:
        for word in range(len(words)):
            owners[word * len(units) // len(words)].append(word)
    unit_ids: dict[int, list[int]] = {}
    for position, source in enumerate(sources):
        unit = int(unit_of[source]) if 0 <= source < len(phonemes) else -1
        if unit >= 0:
            unit_ids.setdefault(unit, []).append(position)
    id_words = [-1] * len(sources)
    for unit, positions in unit_ids.items():
        sharing = owners[unit]
        for rank, position in enumerate(positions):
            id_words[position] = sharing[min(len(sharing) - 1, rank * len(sharing) // len(positions))]
    return words, tuple(id_words)


def word_times(words: tuple[str, ...], id_words: tuple[int, ...], spans: np.ndarray, rate: int,
               offset_s: float, trimmed_from: int, length: int) -> tuple[Word, ...]:
    """Each word's time in the finished chunk: the ids' sample spans in the raw waveform,
    shifted by what trimming cut from its start (`trimmed_from`) and the pause before it
    (`offset_s`), clipped to the `length` samples kept."""
    if not words or len(spans) != len(id_words):
        return ()
    bounds: dict[int, list[int]] = {}
    for word, (start, end) in zip(id_words, spans):
        if word >= 0:
            low, high = bounds.setdefault(word, [int(start), int(end)])
            bounds[word] = [min(low, int(start)), max(high, int(end))]

    def seconds(sample: int) -> float:
        return round(float(offset_s + min(max(int(sample) - int(trimmed_from), 0), int(length)) / rate), 3)

    return tuple(Word(words[w], seconds(start), seconds(end)) for w, (start, end) in sorted(bounds.items()))
