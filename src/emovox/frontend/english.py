"""The English text pipeline: normalize -> segment -> G2P, yielding model-sized segments.

It knows the backend only through one number it is handed: the longest phoneme sequence
one inference may take.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from emovox.caching import CacheStats
from emovox.frontend import segment
from emovox.frontend.g2p.english import EnglishG2P
from emovox.frontend.g2p.misaki import MisakiG2P
from emovox.frontend.lexicon import Lexicon
from emovox.frontend.normalize import Normalized, normalize

#: Quotes and brackets carry no sound; brackets become a short pause.
_SILENT_MARKS = str.maketrans({'"': None, "(": ", ", ")": ", ", "[": ", ", "]": ", "})


@dataclass(frozen=True)
class Segment:
    """One model call's worth of text."""

    text: str
    phonemes: str
    ends_sentence: bool


class EnglishFrontend:
    """Text -> segments of phonemes, each within a backend's input limit."""

    language = "en"

    def __init__(self, g2p: EnglishG2P | MisakiG2P | None = None, phoneme_cache_size: int = 4096) -> None:
        """`phoneme_cache_size`: sentences whose phonemes are kept (espeak is the costly step
        of the text side, and servers hear the same sentences again)."""
        self._g2p = g2p
        self._phonemize = functools.lru_cache(maxsize=phoneme_cache_size)(self._phonemize_uncached)

    @property
    def g2p(self) -> EnglishG2P | MisakiG2P:
        if self._g2p is None:
            self._g2p = EnglishG2P()
        return self._g2p

    def normalize(self, text: str) -> Normalized:
        return normalize(text)

    def phonemize(self, text: str, lexicon: Lexicon | None = None) -> str:
        """IPA for normalized `text`; the words a lexicon's IPA entries match are read as given."""
        if not lexicon or not lexicon.matches(text, ("ipa",)):
            return self._phonemize(text)
        pieces = [self.g2p.from_ipa(entry.say) if entry else self._phonemize(piece) for piece, entry in lexicon.split(text, "ipa")
                  if entry or piece.strip()]
        return re.sub(r" {2,}", " ", " ".join(p.strip() for p in pieces if p.strip()))

    def _phonemize_uncached(self, text: str) -> str:
        return self.g2p(text.translate(_SILENT_MARKS))

    def cache_stats(self) -> CacheStats:
        return CacheStats.of_lru(self._phonemize)

    def segments(
        self,
        text: str,
        max_phonemes: int,
        first_segment_chars: int | None = None,
        lexicon: Lexicon | None = None,
    ) -> Iterator[Segment]:
        """Segments of already-normalized `text`.

        A sentence whose phonemes exceed `max_phonemes` is split at clauses, then at words,
        never inside a word (only a single "word" longer than the whole limit is cut).
        `first_segment_chars` splits a long first sentence at a clause so audio starts early.
        """
        for index, sentence in enumerate(segment.sentences(text)):
            limit_chars = first_segment_chars if index == 0 else None
            pieces = list(self._fit(sentence, max_phonemes, limit_chars, lexicon))
            for number, (piece_text, phonemes) in enumerate(pieces):
                if phonemes.strip(" ,.!?;:—…"):
                    yield Segment(piece_text, phonemes, ends_sentence=number == len(pieces) - 1)

    def _fit(
        self, sentence: str, limit: int, limit_chars: int | None, lexicon: Lexicon | None = None
    ) -> Iterator[tuple[str, str]]:
        if limit_chars is not None and len(sentence) > limit_chars:
            first, *rest = segment.clauses(sentence)
            if rest:
                yield from self._fit(first, limit, None, lexicon)
                yield from self._fit(" ".join(rest), limit, None, lexicon)
                return
        phonemes = self.phonemize(sentence, lexicon)
        if len(phonemes) <= limit:
            yield sentence, phonemes
            return
        size = lambda piece: len(self.phonemize(piece, lexicon))  # noqa: E731
        for group in segment.pack(segment.clauses(sentence), size, limit):
            phonemes = self.phonemize(group, lexicon)
            if len(phonemes) <= limit:
                yield group, phonemes
                continue
            for words in segment.pack(self._words_within(group, size, limit), size, limit):
                yield words, self.phonemize(words, lexicon)

    @staticmethod
    def _words_within(clause: str, size, limit: int) -> list[str]:
        """Words of a clause; a single word too long for the model is cut into pieces."""
        out = []
        for word in segment.words(clause):
            if size(word) <= limit:
                out.append(word)
                continue
            step = max(1, len(word) * limit // (2 * max(1, size(word))))
            out.extend(word[i:i + step] for i in range(0, len(word), step))
        return out
