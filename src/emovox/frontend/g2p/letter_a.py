"""The letter A, told apart from the article "a", for both English G2Ps.

espeak-ng and misaki's tagger read a capital "A" inside a sentence as the article (ɐ):
"Plan A is fine", "the Q and A session", "from A to Z", "a Type A person" all lost the
letter, and Whisper heard "the" or nothing. Writers capitalize the article only where a
sentence or a title starts, so a capital "A" after a word, followed by a lowercase word, a
lone capital, punctuation or the end, is the letter; so is an "A" that starts a run of
spelled capitals ("A T and T"). Both G2Ps read "A-" as the letter's name.
"""

from __future__ import annotations

import re

_LETTER_A = re.compile(
    r"(?<=[\w)] )A(?=\s+[a-z]|\s+[A-Z](?![\w'])|[,;:!?)]|\.(?![A-Za-z])|$)"  # after a word: not before a title's word
    r"|(?<![\w'-])A(?= [A-Z](?![\w'])(?: |$))"  # anywhere, before another spelled capital
)


def marked(text: str) -> str:
    """`text` with each capital "A" that names the letter written so a G2P says its name."""
    return _LETTER_A.sub("A-", text)
