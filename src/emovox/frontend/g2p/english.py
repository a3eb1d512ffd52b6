"""English G2P: espeak-ng IPA (US English), the alphabet both of our models take.

Kokoro-82M v1.0 was trained on misaki phonemes (diphthongs and affricates folded into single
symbols), but its vocabulary also holds plain IPA. With the Japanese voice packs we ship,
plain espeak-ng IPA was measured the more intelligible of the two: Whisper WER 3.9 % vs
6.9 % for jf_alpha and 2.3 % vs 2.6 % for jm_kumo on 50 sentences (benchmarks/README.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from emovox.frontend.g2p import initialisms, letter_a
from emovox.frontend.g2p.espeak import PUNCTUATION, Espeak
from emovox.frontend.g2p.names import NameReadings

#: espeak reduces "to" before a consonant to "tə", which the Kokoro voices blur into "the";
#: the careful form "tʊ" cut Whisper WER from 4.4 to 3.8 % (jf_tebukuro) and 3.8 to 2.8 %
#: (jf_gongitsune) on 50 sentences.
#: espeak-ng (en-us) stresses the teens on their first syllable ("fˈɪftiːn"), the way the tens
#: are stressed ("fˈɪfti"), so "8:15" was heard as "8:50" and "March 14th" as "March 40";
#: speakers keep the teens apart from the tens by stressing "-teen" (ˌfɪfˈtiːn in the
#: dictionaries), ordinals ("fourteenth") included. The stems as espeak writes them:
_TEEN_STEMS = ("θˈɜːt", "fˈɔːɹt", "fˈɪft", "sˈɪkst", "sˈɛvənt", "ˈeɪt", "nˈaɪnt")
_WORD_START, _WORD_END = r"(?<![^\s,.!?;:—…])", r"(?=[\s,.!?;:—…]|$)"
#: espeak leaves "and" unstressed ("ænd"), which joe and the Kokoro voices reduce until Whisper
#: hears "in" ("a sandwich in a soda", "5th Avenue in 42nd Street"); a secondary stress keeps
#: the vowel: WER on the 45 "and" sentences of our English sets 6.2 -> 4.5 % (joe) and
#: 5.5 -> 4.9 % (jf_alpha).
#: espeak leaves "this" unstressed too ("ðɪs"), and joe's short vowel and s run into the next
#: word until Whisper hears "the" ("accept this License" as "accept the slices"); a secondary
#: stress, as on "and", keeps them: joe's WER on 80 license sentences with "this" 6.40 -> 5.32 %,
#: and on 46 others it was not chosen on 8.72 -> 7.06 % (every "this" -> "the" error of either
#: set gone), his DistillMOS on those 46 +0.001 +/- 0.010 paired (benchmarks/README.md).
_CAREFUL_FORMS = (
    (re.compile(_WORD_START + "tə" + _WORD_END), "tʊ"),
    (re.compile(_WORD_START + "ænd" + _WORD_END), "ˌænd"),
    (re.compile(_WORD_START + "ðɪs" + _WORD_END), "ðˌɪs"),
    (re.compile(_WORD_START + "(" + "|".join(map(re.escape, _TEEN_STEMS)) + ")ˌ?iːn(θs?|z)?" + _WORD_END),
     lambda teen: teen.group(1).replace("ˈ", "ˌ") + "ˈiːn" + (teen.group(2) or "")),
)

#: "the" as espeak ends a piece with it, before a word read apart from it.
_THE_AT_END = re.compile(r"(?<![^ ])ðə$")
_ARTICLE_AT_END = re.compile(r"(?<![\w'’-])([aA]n?)\s*$")
#: The articles as espeak reads them in a sentence (alone, "a" is the letter and "an" is æn).
_ARTICLES = {"a": "ɐ", "an": "ɐn"}
#: Pieces are joined with a space; espeak writes punctuation right after the word before it.
_BEFORE_PUNCTUATION = re.compile(" (?=[" + re.escape(PUNCTUATION) + "])")


class EnglishG2P:
    """Normalized English text -> IPA with stress marks and punctuation."""

    def __init__(self, espeak: Espeak | None = None, language: str = "en-us", names: bool = True) -> None:
        """`names`: read the names espeak would misread from the CMU dictionary (names.py)."""
        self._espeak = espeak
        self.language = language
        self._letter_names: dict[str, str] = {}
        #: Each capitalized token seen: its spelling where espeak spells it in a lowercase
        #: clause, else None.
        self._spellings: dict[str, str | None] = {}
        self._names = NameReadings(espeak, language) if names else None

    def __call__(self, text: str) -> str:
        if self._espeak is None:
            self._espeak = Espeak.shared()
        pieces = list(self._pieces(letter_a.marked(text)))
        parts: list[str] = []
        for index, (piece, reading) in enumerate(pieces):
            if reading is not None:
                if parts and initialisms.starts_with_vowel(reading):
                    parts[-1] = _THE_AT_END.sub("ðɪ", parts[-1])
                parts.append(reading)
            elif piece.strip():
                before_reading = index + 1 < len(pieces)
                parts.append(self._before_reading(piece) if before_reading else self._phonemize(piece))
        phonemes = _BEFORE_PUNCTUATION.sub("", " ".join(parts))
        for weak, careful in _CAREFUL_FORMS:
            phonemes = weak.sub(careful, phonemes)
        return phonemes

    def _pieces(self, text: str) -> Iterator[tuple[str, str | None]]:
        """`text` cut around the words not left to espeak's reading in context: the
        initialisms it would read as words (initialisms.py) and the names it would misread
        (names.py); (piece, its reading or None), in order."""
        for piece, is_initialism in initialisms.pieces(text, self._spelled_in_lowercase):
            if is_initialism:
                yield piece, self._spellings[piece]
            elif self._names is not None:
                yield from self._names.pieces(piece)
            else:
                yield piece, None

    def _phonemize(self, text: str) -> str:
        return self._espeak.phonemize(text, self.language)

    def _before_reading(self, piece: str) -> str:
        """The text before a word read apart from it; an article that ends it stays the
        article the way it is read in a sentence."""
        article = _ARTICLE_AT_END.search(piece)
        if article is None:
            return self._phonemize(piece)
        rest, reduced = piece[:article.start()], _ARTICLES[article.group(1).lower()]
        return f"{self._phonemize(rest)} {reduced}" if rest.strip() else reduced

    def _spelled_in_lowercase(self, token: str) -> bool:
        """Whether espeak spells `token` in an ordinary lowercase clause (initialisms.py)."""
        if token not in self._spellings:
            carried = self._phonemize(initialisms.CARRIER.format(token)).split()
            letters = initialisms.spelled(token, self._letter_name)
            self._spellings[token] = letters if len(carried) == 4 and carried[2] == letters else None
        return self._spellings[token] is not None

    def _letter_name(self, letter: str) -> str:
        if letter not in self._letter_names:
            self._letter_names[letter] = self._phonemize(letter)
        return self._letter_names[letter]

    @staticmethod
    def from_ipa(ipa: str) -> str:
        """A lexicon's IPA as this G2P writes it: already so."""
        return ipa
