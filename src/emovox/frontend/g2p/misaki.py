"""English G2P in misaki's alphabet, for the `heart` voice, by hibari's lexicon G2P.

hibari's network was distilled from Kokoro on misaki phoneme strings (diphthongs and
affricates as single symbols: A I O W Y ʧ ʤ, "ɹ" for r, stress marks on vowels) and reads
nothing else well: fed our espeak-ng IPA it measured 41 % Whisper WER on the 50 sentences
of benchmarks/sentences_en.txt, against 1.2 % from this G2P behind our normalizer and
0.9 % from hibari's whole text pipeline (benchmarks/README.md, "The heart voice"). Our
normalizer stays in front (one reading of numbers, dates and symbols for every voice, and
the word spans that timestamps and lexicon aliases need), so hibari's own normalization is
off here.

A user lexicon's IPA entries are written in espeak-style IPA for every English voice;
`from_ipa` folds them into this alphabet. So are the names espeak's rules misread
(`names.py`): words neither of hibari's lexicons holds go to its out-of-vocabulary network,
which was trained on espeak's readings and misreads them the same way, so those are read from
the CMU dictionary here too.
"""

from __future__ import annotations

import re
import threading

from emovox.frontend.g2p import letter_a
from emovox.frontend.g2p.names import NameReadings

#: espeak-style IPA -> misaki's symbols, longest first.
_IPA_TO_MISAKI = (
    ("eɪ", "A"), ("aɪ", "I"), ("aʊ", "W"), ("oʊ", "O"), ("əʊ", "O"), ("ɔɪ", "Y"),
    ("tʃ", "ʧ"), ("dʒ", "ʤ"), ("ɝ", "ɜɹ"), ("ɚ", "əɹ"), ("r", "ɹ"), ("ɾ", "T"), ("ː", ""), ("ɐ", "ə"),
)
_IPA_PATTERN = re.compile("|".join(re.escape(ipa) for ipa, _ in _IPA_TO_MISAKI))
_MISAKI_OF = dict(_IPA_TO_MISAKI)


class MisakiG2P:
    """Normalized English text -> misaki phonemes with stress marks and punctuation."""

    def __init__(self, names: bool = True) -> None:
        """`names`: read the names espeak would misread from the CMU dictionary (names.py)."""
        self._g2p = None
        self._lock = threading.Lock()
        self._names = NameReadings() if names else None
        self._unknown_words = None

    def _loaded(self):
        if self._g2p is None:
            with self._lock:  # the lexicon, tagger and OOV net load once (about 0.3 s)
                if self._g2p is None:
                    from hibari.g2p import G2P
                    from hibari.g2p.oov import OOV

                    self._unknown_words = OOV()
                    self._g2p = G2P(oov=self._unknown_word)
        return self._g2p

    def _unknown_word(self, word: str) -> str | None:
        """A word neither lexicon holds: a name from the CMU dictionary where espeak's rules
        would misread it, else what hibari's network reads."""
        name = self._names(word) if self._names is not None and word[:1].isupper() else None
        return self.from_ipa(name) if name else self._unknown_words(word)

    def __call__(self, text: str) -> str:
        return self._loaded()(letter_a.marked(text), normalize_text=False)

    @staticmethod
    def from_ipa(ipa: str) -> str:
        return _IPA_PATTERN.sub(lambda match: _MISAKI_OF[match.group(0)], ipa)
