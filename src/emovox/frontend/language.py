"""Which language each stretch of mixed text is in: Chinese characters or Latin words.

"我们明天用 Python 写一个 demo" -> zh "我们明天用", en "Python", zh "写一个", en "demo".
Digits, spaces and punctuation belong to no language: they join the stretch before them,
or the one after when a Chinese character follows directly (2026年, 3个) or nothing precedes.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"(?P<zh>[\u3400-\u4dbf\u4e00-\u9fff]+)|(?P<en>[A-Za-z][A-Za-z'’\-]*)"
                    r"|(?P<other>[^A-Za-z\u3400-\u4dbf\u4e00-\u9fff]+)")
LANGUAGES = ("auto", "zh", "en")
#: A number closing language-less text; the lookbehind tries it once per run of number
#: characters, not once per character (quadratic on "1111…1 1中").
_NUMBER_AT_END = re.compile(r"(?<![\d.,:%/\-])[\d.,:%/\-]*\d\s*$")
#: Chinese punctuation closing an English stretch ("demo。") becomes its ASCII twin.
_ASCII_PUNCTUATION = str.maketrans("。，！？；：、（）“”‘’", ".,!?;:,()\"\"''")


def split(text: str) -> list[tuple[str, str]]:
    """(language, text) stretches in order; neighbours of one language are merged."""
    stretches: list[list[str]] = []
    pending = ""  # language-less text waiting for a stretch to join
    for match in _TOKEN.finditer(text):
        kind, piece = match.lastgroup, match.group()
        if kind == "other":
            pending += piece
            continue
        if kind == "zh" and pending and re.search(r"\d\s*$", pending):
            # digits right before a Chinese character are read with it (2026年, 3个)
            number = _NUMBER_AT_END.search(pending).group()
            head = pending[: len(pending) - len(number)]
            if stretches:
                stretches[-1][1] += head
                head = ""
            pending = head + number
        if stretches and stretches[-1][0] == kind:
            stretches[-1][1] += pending + piece
        elif stretches:
            stretches[-1][1] += _leading_punctuation(pending)
            stretches.append([kind, pending[len(_leading_punctuation(pending)):] + piece])
        else:
            stretches.append([kind, pending + piece])
        pending = ""
    if pending:
        if stretches:
            stretches[-1][1] += pending
        else:
            stretches.append(["en", pending])
    return [(language, piece.translate(_ASCII_PUNCTUATION) if language == "en" else piece)
            for language, piece in stretches if piece.strip()]


def _leading_punctuation(text: str) -> str:
    """The part of language-less text that closes the stretch before it (its punctuation)."""
    match = re.match(r"[\s,.!?;:，。！？；：、…)）\]」』\"”’]*", text)
    return match.group() if match else ""
