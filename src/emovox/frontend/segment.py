"""Split normalized text into sentences, clauses and words, and pack them under a size limit.

Everything here is lazy or linear: a 100,000-character text is walked once, sentence by
sentence, so streaming can start before the whole text has been looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

#: The lookbehind starts a match only at the head of a run of marks: "!!!…!a" is tried once,
#: not once per mark (which took minutes on 50,000 of them).
_SENTENCE_END = re.compile(r"(?<![.!?…])[.!?…]+[\"')\]]*(?:\s+|$)|\n+")
_CLAUSE_END = re.compile(r"(?<=[,;:—])\s+")


def sentences(text: str) -> Iterator[str]:
    """Sentences of `text`, each with its closing punctuation."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        sentence = text[start:match.end()].strip()
        start = match.end()
        if sentence:
            yield sentence
    tail = text[start:].strip()
    if tail:
        yield tail


def clauses(sentence: str) -> list[str]:
    """Clauses of a sentence, split after , ; : and dashes."""
    return [c for c in _CLAUSE_END.split(sentence) if c.strip()]


def words(text: str) -> list[str]:
    return text.split()


def pack(pieces: list[str], size: Callable[[str], int], limit: int, joiner: str = " ") -> Iterator[str]:
    """Greedily join consecutive pieces while `size` of the joined text stays within `limit`.

    A piece that alone exceeds the limit is yielded alone; the caller splits it finer.
    """
    current = ""
    for piece in pieces:
        candidate = f"{current}{joiner}{piece}" if current else piece
        if current and size(candidate) > limit:
            yield current
            current = piece
        else:
            current = candidate
    if current:
        yield current
