"""English G2P: espeak-ng IPA, rewritten into the phoneme alphabet each model was trained on.

Two alphabets ("dialects") exist among our models:
- ``ipa``: espeak-ng IPA as Piper writes it (multi-letter phonemes as separate symbols);
- ``misaki``: the alphabet Kokoro-82M v1.0 was trained with, which folds diphthongs and
  affricates into single symbols (eɪ→A, aɪ→I, aʊ→W, ɔɪ→Y, oʊ→O, tʃ→ʧ, dʒ→ʤ), writes the
  American flap as T and has no length marks.
"""

from __future__ import annotations

import unicodedata
from enum import Enum

from emovox.frontend.g2p.espeak import Espeak

_TIE = "^"

#: espeak-ng (tied) -> misaki, longest first so "e^ɪ" wins over "e".
_ESPEAK_TO_MISAKI = sorted(
    {
        "ʔˌn\u0329": "tᵊn", "ʔn\u0329": "tᵊn", "ʔn": "tᵊn", "ʔ": "t",
        "a^ɪ": "I", "a^ʊ": "W", "e^ɪ": "A", "e": "A", "o^ʊ": "O", "ɔ^ɪ": "Y",
        "d^ʒ": "ʤ", "t^ʃ": "ʧ",
        "ə^l": "ᵊl", "ʲo": "jo", "ʲə": "jə", "ʲ": "",
        "ɚ": "əɹ", "ɜːɹ": "ɜɹ", "ɜː": "ɜɹ", "ɪ^ə": "iə",
        "r": "ɹ", "x": "k", "ç": "k", "ɐ": "ə", "ɬ": "l", "ɾ": "T",
        "\u0303": "", "ː": "", _TIE: "",
    }.items(),
    key=lambda pair: -len(pair[0]),
)


class Dialect(str, Enum):
    IPA = "ipa"
    MISAKI = "misaki"


def _to_misaki(tied_ipa: str) -> str:
    for source, target in _ESPEAK_TO_MISAKI:
        tied_ipa = tied_ipa.replace(source, target)
    return tied_ipa


class EnglishG2P:
    """Normalized English text -> phonemes in a model's alphabet."""

    def __init__(self, espeak: Espeak | None = None, language: str = "en-us") -> None:
        self._espeak = espeak or Espeak.shared()
        self.language = language

    def __call__(self, text: str, dialect: Dialect = Dialect.IPA) -> str:
        if dialect is Dialect.MISAKI:
            return _to_misaki(self._espeak.phonemize(text, self.language, tie=_TIE))
        # Piper's symbol table holds decomposed code points (a base letter and its marks).
        return unicodedata.normalize("NFD", self._espeak.phonemize(text, self.language))
