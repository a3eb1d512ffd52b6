"""Word timestamps from the models' own durations.

Every backend reports where each of its input ids sounds (`Backend.infer_timed`). The
planner knows which phoneme each id stands for (`Encoded.sources`) and which word of the
segment's text each phoneme word reads (`align_words`); the renderer turns the ids' sample
spans into each word's start and end in the chunk (`word_times`), after the edge silence is
trimmed. English phoneme words are espeak's, separated by spaces; Chinese ones are the
syllables, one per character.

When the text and the phonemes do not have the same number of words (espeak reading "of
the" as one word, a hyphenated word it reads as two, an erhua syllable that reads two
characters), `_read_by` pairs them in order: several phoneme words to one text word, or
one phoneme word's ids split among the text words it reads.

Words are reported as they were written, not as they were normalized: "$12.75" is one word
from the start of "twelve" to the end of "cents" (`WrittenWords`), "Dr." is "Dr", and a
lexicon's alias ("SQL" read "sequel") is the word it stands for.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import math
import re
from dataclasses import dataclass

import numpy as np

from emovox.types import Word

_PHONEME_WORD = {"en": re.compile(r"[^\s,.!?;:…—()\"]+"), "zh": re.compile(r"[a-z]+\d")}
_TEXT_WORD = {"en": re.compile(r"[\w'’]+(?:[-.][\w'’]+)*"), "zh": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")}
#: A written word: a run of non-space characters (a single character in Chinese script).
_WRITTEN_WORD = {"en": re.compile(r"\S+"),
                 "zh": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]|[^\s\u3400-\u4dbf\u4e00-\u9fff]+")}
_INITIALS = re.compile(r"(?:[^\W\d_]\.)+")
_CLOSING_MARKS = set(",.!?;:…。，！？；：、」』》）)]”’\"'")
#: Marks around a written word that are not part of it.
_EDGE_MARKS = "\"'“”‘’«»()[]{}<>,;:!?…—–。，！？；：、《》「」『』（）"


def _language_key(language: str) -> str:
    return "zh" if language == "zh" else "en"


def _written(token: str) -> str:
    """A token as a word, edge marks off (a final period stays: see `_sentence_period_off`)."""
    return token.strip(_EDGE_MARKS)


def _sentence_period_off(word: str) -> str:
    """"done." -> "done", "$5." -> "$5", "Dr." -> "Dr" (whether a period ends the sentence or
    the abbreviation is the normalizer's guess, not the timestamps'); initials keep theirs ("U.S.")."""
    return word[:-1] if word.endswith(".") and not _INITIALS.fullmatch(word) else word


def _letters(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


#: Where written and normalized words differ, difflib pairs them within this many words of
#: each side: one written word can be read as dozens ("555-0142", a URL), and normalization
#: seldom drops a written word.
_REACHES = ((4, 16), (16, 80))


def _in_step(written: list[str], normalized: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes pairing two word sequences that mostly agree, in linear time (a
    book's chapter is tens of thousands of words, and difflib is quadratic on them).

    Runs of equal words are paired as they come; where the two differ, difflib pairs a
    bounded stretch of each side and the first block it finds there is kept."""
    opcodes, i, j = [], 0, 0
    while i < len(written) and j < len(normalized):
        if written[i] == normalized[j]:
            start_i, start_j = i, j
            while i < len(written) and j < len(normalized) and written[i] == normalized[j]:
                i, j = i + 1, j + 1
            opcodes.append(("equal", start_i, i, start_j, j))
            continue
        for reach_i, reach_j in _REACHES:  # a near agreement is the usual case: look close first
            window = difflib.SequenceMatcher(a=written[i:i + reach_i], b=normalized[j:j + reach_j], autojunk=False)
            blocks = window.get_opcodes()
            if len(blocks) > 1:  # the two agree again within the window
                break
        tag, i1, i2, j1, j2 = blocks[0]  # not "equal": the first words differ
        opcodes.append((tag, i + i1, i + i2, j + j1, j + j2))
        i, j = i + i2, j + j2
    if j < len(normalized):
        opcodes.append(("insert", i, i, j, len(normalized)))
    return opcodes


@dataclass(frozen=True)
class WrittenWords:
    """The words of a stretch as written, and which of them each normalized word reads.

    Written and normalized words are paired by their letters (`_in_step`); a run that differs
    is paired one to one when both sides have as many words ("Dr." -> "Doctor", 「說」 ->
    「说」), otherwise the whole written run is one word ("$12.75" -> five normalized words,
    "1.5 km" -> "one point five kilometers"). A normalized word with no written counterpart
    joins its neighbour's.
    """

    written: tuple[str, ...]
    normalized: tuple[str, ...]
    #: For each normalized word, the index of the written word it reads.
    owners: tuple[int, ...]
    #: The written text, and where each written word stands in it (with the marks around it).
    text: str = ""
    spans: tuple[tuple[int, int], ...] = ()

    @classmethod
    def pair(cls, written_text: str, normalized_text: str, language: str) -> WrittenWords:
        key = _language_key(language)
        tokens = [(_written(match.group()), match.span()) for match in _WRITTEN_WORD[key].finditer(written_text)]
        tokens = [(word, span) for word, span in tokens if word]
        written = [word for word, _ in tokens]
        normalized = _TEXT_WORD[key].findall(normalized_text)
        opcodes = _in_step([_letters(w) for w in written], [_letters(w) for w in normalized])
        labels: list[str] = []
        spans: list[tuple[int, int]] = []
        owners: list[int | None] = [None] * len(normalized)
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
                for i, j in zip(range(i1, i2), range(j1, j2)):
                    owners[j] = len(labels)
                    labels.append(_sentence_period_off(written[i]))
                    spans.append(tokens[i][1])
            elif tag == "replace":
                owners[j1:j2] = [len(labels)] * (j2 - j1)
                labels.append(_sentence_period_off(("" if key == "zh" else " ").join(written[i1:i2])))
                spans.append((tokens[i1][1][0], tokens[i2 - 1][1][1]))
        # inserted words join the word before them (the first ones, the word after)
        for j in range(1, len(owners)):
            if owners[j] is None:
                owners[j] = owners[j - 1]
        for j in range(len(owners) - 2, -1, -1):
            if owners[j] is None:
                owners[j] = owners[j + 1]
        if not labels or any(owner is None for owner in owners):
            return cls(tuple(normalized), tuple(normalized), tuple(range(len(normalized))))
        return cls(tuple(labels), tuple(normalized), tuple(owners), written_text, tuple(spans))

    def text_of(self, first: int, count: int) -> str:
        """The written text that normalized words `first` to `first + count` read, with the
        punctuation written around them ("" where not known)."""
        if not self.spans or count <= 0 or first + count > len(self.owners):
            return ""
        start, end = self.spans[self.owners[first]][0], self.spans[self.owners[first + count - 1]][1]
        while end < len(self.text) and self.text[end] in _CLOSING_MARKS:  # "你好！": the mark is no word of its own
            end += 1
        return self.text[start:end]

    def regroup(self, first: int, words: tuple[str, ...], id_words: tuple[int, ...]) -> tuple[tuple[str, ...],
                                                                                               tuple[int, ...]]:
        """A segment's normalized `words` (the stretch's, from index `first`) and its ids'
        word indices, as written words: the segment's written words, and each id's index in
        them. A segment whose words are not the stretch's there keeps its own."""
        if self.normalized[first:first + len(words)] != words:
            return words, id_words
        owners = self.owners[first:first + len(words)]
        local = {owner: number for number, owner in enumerate(dict.fromkeys(owners))}
        labels = tuple(self.written[owner] for owner in local)
        return labels, tuple(-1 if w < 0 else local[owners[w]] for w in id_words)


def align_words(text: str, phonemes: str, sources: tuple[int, ...], language: str) -> tuple[tuple[str, ...],
                                                                                             tuple[int, ...]]:
    """The words of `text`, and for each id the index of the word it sounds in (-1: none)."""
    key = _language_key(language)
    words = tuple(_TEXT_WORD[key].findall(text))
    units = [match.span() for match in _PHONEME_WORD[key].finditer(phonemes)]
    if not words or not units:
        return words, tuple(-1 for _ in sources)
    unit_of = [-1] * (len(phonemes) + 1)
    for number, (start, end) in enumerate(units):
        unit_of[start:end] = [number] * (end - start)
    letters = [max(1, len(_letters(word))) for word in words]
    owners = _read_by(letters, [_sound_count(phonemes[start:end]) for start, end in units])
    unit_ids: dict[int, list[int]] = {}
    for position, source in enumerate(sources):
        unit = unit_of[source] if 0 <= source < len(phonemes) else -1
        if unit >= 0:
            unit_ids.setdefault(unit, []).append(position)
    id_words = [-1] * len(sources)
    for unit, positions in unit_ids.items():
        sharing = owners[unit]
        if len(sharing) == 1:
            for position in positions:
                id_words[position] = sharing[0]
            continue
        # a phoneme word read for several text words: its ids in order, by the words' letters
        bounds = list(itertools.accumulate(letters[w] for w in sharing))
        for rank, position in enumerate(positions):
            share = bisect.bisect_left(bounds, (rank + 0.5) / len(positions) * bounds[-1])
            id_words[position] = sharing[min(share, len(sharing) - 1)]
    return words, tuple(id_words)


#: Marks in a phoneme word that are not sounds of their own.
_NOT_SOUNDS = set("ˈˌːˑ‿͡-")
#: What pairing words and phoneme words other than one to one costs (in log length ratio).
_MERGE_COST = 0.6
#: How far the pairing may stray from the straight path that the word counts allow.
_BAND = 3
#: (text words, phoneme words) one step may pair.
_STEPS = ((1, 1), (2, 1), (3, 1), (1, 2), (1, 3))


def _sound_count(unit: str) -> int:
    return max(1, sum(ch not in _NOT_SOUNDS for ch in unit))


def _read_by(letters: list[int], sounds: list[int]) -> list[list[int]]:
    """For each phoneme word, the text words it reads, in order.

    As many phoneme words as text words pair one to one. Otherwise espeak has read some
    words together ("of the" -> "ʌvðə") or one word as several ("twenty-six"): a dynamic
    program pairs them in order, one, two or three at a time, so that each group's sounds
    fit its letters (at this segment's own sounds-per-letter rate), any pairing but one to
    one paying `_MERGE_COST`."""
    n, m = len(letters), len(sounds)
    if n == m:
        return [[i] for i in range(n)]
    rate = sum(sounds) / sum(letters)
    # the path's j - i only drifts from 0 to m - n: a band around that keeps this linear
    low, high = min(0, m - n) - _BAND, max(0, m - n) + _BAND
    cost: dict[tuple[int, int], float] = {(0, 0): 0.0}
    step_of: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(n + 1):
        for j in range(max(0, i + low), min(m, i + high) + 1):
            here = cost.get((i, j))
            if here is None:
                continue
            for di, dj in _STEPS:
                if i + di > n or j + dj > m or not low <= (j + dj) - (i + di) <= high:
                    continue
                fit = abs(math.log((sum(sounds[j:j + dj]) + 0.5) / (rate * sum(letters[i:i + di]) + 0.5)))
                total = here + fit + (0.0 if (di, dj) == (1, 1) else _MERGE_COST * (di + dj - 2))
                if total < cost.get((i + di, j + dj), math.inf):
                    cost[i + di, j + dj] = total
                    step_of[i + di, j + dj] = (di, dj)
    if (n, m) not in cost:  # more than three to one somewhere: share them out evenly
        return [[w for w in range(n) if w * m // n == u] or [u * n // m] for u in range(m)]
    owners: list[list[int]] = [[] for _ in range(m)]
    i, j = n, m
    while i or j:
        di, dj = step_of[i, j]
        for unit in range(j - dj, j):
            owners[unit] = list(range(i - di, i))
        i, j = i - di, j - dj
    return owners


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

    timed = [[w, seconds(start), seconds(end)] for w, (start, end) in sorted(bounds.items())]
    if timed:  # the kept audio is cut at the first and last sound: the chunk's first word starts
        # with it (the model's own boundary lies after the lead-in it drew from its start symbols)
        # and its last word ends with it
        timed[0][1] = seconds(trimmed_from)
        timed[-1][2] = max(timed[-1][2], seconds(trimmed_from + length))
    return tuple(Word(words[w], start, end) for w, start, end in timed)
