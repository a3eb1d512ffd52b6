"""Short capitalized initialisms ("EPA", "NIH", "TSA"), spelled for espeak-ng as people say them.

espeak-ng spells a capitalized word of under four letters that its dictionary lacks only in a
clause of mostly lowercase letters (more than three, and no fewer than the capitals; it counts
per clause, between punctuation). In a short clause it reads the same word by its spelling
rules: "The EPA, she said" gave "ˈɛpə", "the PTA," "tˈɑː", "the TSA," "tsˈɑː", "the NIH,"
"nˈɪ", "the ICU," "ˈaɪkuː". In such a clause the initialism is cut out and spelled here, the
way espeak spells it elsewhere; every other clause is left to espeak as it was.

Whether a token is an initialism is decided the way misaki decides it for the `heart` voice
(which reads every one of those right): a run of two or three capitals that is not a word of
hibari's English lexicon, in capitals or in lowercase. Words stay words ("SAT", "UPS" and
"WHO" are in the lexicon, as is "NO" shouted), and so do Roman numerals, which the normalizer
reads where they follow a name.

Longer initialisms ("USPS", "ACLU") are left to espeak: at four letters and more people say
many of them as words ("NASA", "FAFSA", "IKEA"), and the lexicon does not tell those apart.
"""

from __future__ import annotations

import functools
import gzip
import importlib.resources
import json
import re
from collections.abc import Iterator

_TOKEN = re.compile(r"(?<![\w'’-])[A-Z]{2,3}(?![\w'’-])")
#: What ends espeak's clause (espeak.PUNCTUATION, where our G2P also cuts).
_CLAUSE_END = re.compile(r"[,.!?;:—…]")
_ROMAN = re.compile(r"[IVX]+")
_STRESSES = "ˈˌ"
#: Letter names that start with a vowel sound: "the" before them is "ðɪ".
_VOWEL_START = re.compile(r"^[ˈˌ]?[aeiouæɑɒɔəɛɜɪʊʌ]")


@functools.cache
def _lexicon_words() -> frozenset[str]:
    """The headwords of hibari's US English lexicon (gold and silver; about 180,000), as
    written there: lowercase words and the capitalized ones said as words."""
    assets = importlib.resources.files("hibari") / "assets"
    words: set[str] = set()
    for name in ("lexicon_us_gold.json.gz", "lexicon_us_silver.json.gz"):
        with (assets / name).open("rb") as raw:
            words.update(json.load(gzip.open(raw)))
    return frozenset(words)


def is_initialism(token: str) -> bool:
    """A run of two or three capitals that no reader would say as a word."""
    if not _TOKEN.fullmatch(token) or _ROMAN.fullmatch(token):
        return False
    words = _lexicon_words()
    return token not in words and token.lower() not in words


def espeak_spells_in(clause: str) -> bool:
    """espeak-ng's own test (translate.c): an unknown capitalized word of under four letters is
    spelled where the clause has more than three lowercase letters and no more capitals."""
    upper = sum(char.isupper() for char in clause)
    lower = sum(char.isalpha() and not char.isupper() for char in clause)
    return lower > 3 and upper <= lower


def _clause_around(text: str, match: re.Match[str]) -> str:
    starts = [end.end() for end in _CLAUSE_END.finditer(text, 0, match.start())]
    after = _CLAUSE_END.search(text, match.end())
    return text[starts[-1] if starts else 0:after.start() if after else len(text)]


def pieces(text: str) -> Iterator[tuple[str, bool]]:
    """`text` cut around the initialisms espeak would not spell: (piece, is one), in order."""
    start = 0
    for match in _TOKEN.finditer(text):
        if is_initialism(match.group(0)) and not espeak_spells_in(_clause_around(text, match)):
            if match.start() > start:
                yield text[start:match.start()], False
            yield match.group(0), True
            start = match.end()
    if start < len(text):
        yield text[start:], False


def spelled(token: str, letter_name) -> str:
    """The letters' names joined as espeak joins them when it spells a word itself ("FBI" is
    "ˌɛfbˌiːˈaɪ"): every name but the last with a secondary stress, and a linking "ɹ" after
    "R" before a vowel ("IRS" is "ˌaɪˌɑːɹɹˈɛs"). `letter_name(letter)`: espeak's IPA of one
    capital letter."""
    names = [letter_name(letter) for letter in token]
    out = []
    for index, name in enumerate(names):
        last = index == len(names) - 1
        out.append(name if last else name.replace("ˈ", "ˌ"))
        if not last and name.endswith("ɹ") and starts_with_vowel(names[index + 1]):
            out.append("ɹ")
    return "".join(out)


def starts_with_vowel(ipa: str) -> bool:
    return bool(_VOWEL_START.match(ipa))
