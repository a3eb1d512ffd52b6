"""Short capitalized initialisms ("EPA", "NIH", "TSA") spelled in every clause, as espeak-ng
spells them in most.

espeak-ng spells a capitalized word of under four letters that its dictionary lacks only in a
clause of mostly lowercase letters (more than three, and no fewer than the capitals; it counts
per clause, between punctuation). In a short clause it reads the same word by its spelling
rules: "The EPA, she said" gave "ˈɛpə", "the PTA," "tˈɑː", "the TSA," "tsˈɑː", "the NIH," "nˈɪ",
"the ICU," "ˈaɪkuː". In such a clause the token is cut out and spelled here, but only where
espeak spells it in an ordinary lowercase clause, so every clause reads it the way the rest of
the text does: words in its dictionary stay words ("SAT", "WHO", a shouted "NO"), and so do
Roman numerals, which the normalizer reads where they follow a name. Clauses espeak counts as
lowercase are left to it as they were.

Longer initialisms ("USPS" as "ˈʌsps", "ACLU", "EEOC") stay espeak's: at four letters and more
people say many of them as words ("NASA", "FAFSA", "IKEA"), which spelling cannot tell apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from emovox.frontend.g2p.espeak import PUNCTUATION

_TOKEN = re.compile(r"(?<![\w'’-])[A-Z]{2,3}(?![\w'’-])")
_ROMAN = re.compile(r"[IVX]+")
#: What ends espeak's clause (where our G2P also cuts).
_CLAUSE_END = re.compile("[" + re.escape(PUNCTUATION) + "]")
#: Letter names that start with a vowel sound: "the" before them is "ðɪ".
_VOWEL_START = re.compile(r"^[ˈˌ]?[aeiouæɑɒɔəɛɜɪʊʌ]")
#: A clause espeak counts as lowercase, around a token, to hear how it reads the token there.
CARRIER = "we saw {} there"


def espeak_spells_in(clause: str) -> bool:
    """espeak-ng's own test (translate.c): an unknown capitalized word of under four letters is
    spelled where the clause has more than three lowercase letters and no more capitals."""
    upper = sum(char.isupper() for char in clause)
    lower = sum(char.isalpha() and not char.isupper() for char in clause)
    return lower > 3 and upper <= lower


def pieces(text: str, spelled_elsewhere: Callable[[str], bool]) -> Iterator[tuple[str, bool]]:
    """`text` cut around the initialisms espeak would read as words here but spells elsewhere
    (`spelled_elsewhere(token)`): (piece, is one), in order."""
    start = 0
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if _ROMAN.fullmatch(token) or espeak_spells_in(_clause_around(text, match)):
            continue
        if spelled_elsewhere(token):
            if match.start() > start:
                yield text[start:match.start()], False
            yield token, True
            start = match.end()
    if start < len(text):
        yield text[start:], False


def _clause_around(text: str, match: re.Match[str]) -> str:
    start = max((end.end() for end in _CLAUSE_END.finditer(text, 0, match.start())), default=0)
    after = _CLAUSE_END.search(text, match.end())
    return text[start:after.start() if after else len(text)]


def spelled(token: str, letter_name: Callable[[str], str]) -> str:
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
