"""Run-together words, as in domain names and mail addresses, split into dictionary words.

"riverbendlibrary.org" read as one word is a string of letters no G2P knows: espeak-ng and
the Kokoro voices said "riverbinlobraery", and Whisper heard something else on every voice.
A person reads it "river bend library dot org". The words come from the US English
lexicons that hibari-tts ships for its own G2P (misaki's gold and silver lists, about
180,000 words, loaded once on the first address that needs them, about 0.2 s).

A split is the one with the lowest cost over the whole label: a gold word costs 1, a silver
word (rarer, more proper nouns) 1.5, a known word plus a plural "s" a quarter more. A label
that is itself a word, or that no sequence of words covers, is left as written. Capitals
inside a label ("KowalczykFarms") mark its words already, so they split it first, even
where a word is in no lexicon.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from importlib import resources

_LONGEST_WORD = 20
#: Silver words shorter than this are mostly fragments and initialisms ("ri", "abc").
_SHORTEST_SILVER = 4
_GOLD, _SILVER, _PLURAL = 1.0, 1.5, 0.25


@functools.cache
def _lexicons() -> tuple[frozenset[str], frozenset[str]]:
    assets = resources.files("hibari") / "assets"

    def words(name: str) -> frozenset[str]:
        with (assets / name).open("rb") as raw, gzip.open(raw) as file:
            return frozenset(word.lower() for word in json.load(file) if word.isalpha())

    return words("lexicon_us_gold.json.gz"), words("lexicon_us_silver.json.gz")


def _word_cost(piece: str) -> float | None:
    gold, silver = _lexicons()
    if len(piece) >= 2 and piece in gold:
        return _GOLD
    if len(piece) >= _SHORTEST_SILVER and piece in silver:
        return _SILVER
    if len(piece) >= 4 and piece.endswith("s"):
        stem = _word_cost(piece[:-1])
        return None if stem is None else stem + _PLURAL
    return None


def split_words(label: str) -> list[str]:
    """"riverbendlibrary" -> ["river", "bend", "library"]; a word or an unknown label as is.
    Capitals inside a label mark its words already: "KowalczykFarms" -> ["Kowalczyk", "Farms"]."""
    # a hump: a capital and its lowercase letters, or a run of capitals (an initialism)
    humps = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", label)
    if len(humps) > 1 and "".join(humps) == label and min(map(len, humps)) >= 3:  # not "McDonalds", "eBay"
        return [word for hump in humps for word in split_words(hump)]
    lower = label.lower()
    if not lower.isalpha() or _word_cost(lower) is not None:
        return [label]
    # best[i]: (cost, pieces) of the cheapest split of lower[:i]
    best: list[tuple[float, tuple[str, ...]] | None] = [None] * (len(lower) + 1)
    best[0] = (0.0, ())
    for end in range(2, len(lower) + 1):
        for start in range(max(0, end - _LONGEST_WORD), end - 1):
            if best[start] is None:
                continue
            cost = _word_cost(lower[start:end])
            if cost is None:
                continue
            candidate = (best[start][0] + cost, best[start][1] + (lower[start:end],))
            if best[end] is None or candidate[0] < best[end][0]:
                best[end] = candidate
    return list(best[-1][1]) if best[-1] else [label]
