"""Turn a reference speaker into a Kokoro style: a learned first guess, then a budgeted search.

Kokoro's voice is a style vector (256 floats: timbre, then prosody) looked up per input
length in a (510, 256) pack. A cloned pack is a blend of the stock packs plus one offset
added to every row.

1. Fast path: `StyleProjector`, a ridge regression from GE2E embedding to (blend weights,
   offset), trained on speech the project generates itself
   (`benchmarks/train_style_projector.py`), proposes a pack in milliseconds.
2. Search: the best of the stock packs and that proposal is refined by a random walk on the
   offset, scored by GE2E similarity to the reference on two short texts the reference does
   not contain. A step is kept only if it wins on one text without losing on the other, so
   the search cannot win by matching one utterance; offsets stay within a few stock spreads
   so the style stays near what the model was trained on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from emovox.voices.encoder import SpeakerEncoder, similarity

#: Seconds of search per quality level, after intake and the first guess (about 5 s). On 2
#: cores the whole clone then takes at most 10 s (fast), 30 s of wall and 60 s of CPU time
#: (balanced, the default) and 10 minutes (best).
BUDGETS = {"fast": 4.0, "balanced": 22.0, "best": 540.0}
#: CPU seconds (every thread of the process, first guess included) an adaptation may take
#: where its quality promises a CPU cost. A balanced clone is at most 60 s of CPU in all
#: (issue 17); on a slow day (2026-12-07) its adaptation (first guess and 22 s of search) took
#: 59 s of CPU, and intake, finish and storing 7.6 s more, so the search also stops where its
#: next step would pass this. In a busy server other requests' CPU counts too, as their share
#: of the cores already shortens the seconds.
CPU_LIMITS = {"balanced": 44.0}
SCORING_TEXTS = (
    "She sells fresh bread on Saturdays.",
    "Please call me when you get home.",
)
PROJECTOR_FILE = "style_projector.npz"
#: Random-walk step in stock spreads: 0.5 beat 0.3 and 0.8 on joe (held-out similarity
#: 0.71 vs 0.63 and 0.65 after 40 s); annealing from 0.8 or 1.0 to 0.3 was no better.
STEP = 0.5
MAX_OFFSET = 3.0  # the offset's RMS, in stock spreads
_TIE_MARGIN = 0.01  # how much a step may lose on the other text and still be kept


@dataclass(frozen=True)
class Adaptation:
    pack: np.ndarray  # (510, 256) float32 style pack
    start: str  # the stock voice or "projector" the search started from
    based_on: str  # the closest stock voice (its emotion calibration applies)
    start_similarity: float
    similarity: float
    steps: int
    seconds: float


def phoneme_ids(engine, backend, sentence: str) -> list[int]:
    """`backend`'s input ids for a short sentence (its first segment)."""
    return backend.encode(next(iter(engine.frontend.segments(sentence, backend.max_phonemes))).phonemes).ids


def stock_matrix(backend) -> tuple[np.ndarray, np.ndarray]:
    """The stock packs stacked (voices, rows, 256) and their per-dimension spread."""
    packs = np.stack(list(backend.stock_packs().values())).astype(np.float32)
    return packs, packs.std(axis=(0, 1)).astype(np.float32)


@dataclass(frozen=True)
class StyleProjector:
    """Ridge regression: [embedding, 1] -> [blend weights over the stock packs, offset]."""

    matrix: np.ndarray  # (257, voices + 256)

    @classmethod
    def fit(cls, embeddings: np.ndarray, weights: np.ndarray, offsets: np.ndarray, ridge: float) -> StyleProjector:
        x = np.hstack([embeddings, np.ones((len(embeddings), 1))])
        y = np.hstack([weights, offsets])
        matrix = np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)
        return cls(matrix.astype(np.float32))

    def save(self, path: Path) -> None:
        np.savez_compressed(path, matrix=self.matrix)

    @classmethod
    @lru_cache(maxsize=1)
    def packaged(cls) -> StyleProjector | None:
        path = Path(__file__).with_name(PROJECTOR_FILE)
        if not path.is_file():
            return None
        with np.load(path) as data:
            return cls(data["matrix"])

    def fits(self, packs: np.ndarray) -> bool:
        """Whether these are the stock packs it was fitted over (their count and width): a
        deployment with other Kokoro voices gets no projection, not a crash."""
        return self.matrix.shape[1] == len(packs) + packs.shape[-1]

    def predict(self, embedding: np.ndarray, packs: np.ndarray) -> np.ndarray:
        y = np.append(embedding, 1.0).astype(np.float32) @ self.matrix
        weights = np.clip(y[: len(packs)], 0.0, None)
        weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(packs), 1.0 / len(packs))
        return (np.tensordot(weights, packs, 1) + y[len(packs):]).astype(np.float32)


def adapt_kokoro(
    engine,
    target: np.ndarray,
    quality: str = "balanced",
    encoder: SpeakerEncoder | None = None,
    seed: int = 0,
    progress: Callable[[float, float], None] | None = None,
    steps: int | None = None,
) -> Adaptation:
    """Search a Kokoro style pack whose speech embeds close to `target` (a d-vector).

    `progress(elapsed_s, similarity)` is called after each step. The search ends at the
    quality's seconds or its CPU limit, whichever comes first; `steps`: exactly this many steps
    instead, so that a reference gives the same pack on a fast machine and a slow one (the
    seconds make a slower machine's clone another clone)."""
    if quality not in BUDGETS:
        raise ValueError(f"unknown quality {quality!r}; choose one of {', '.join(BUDGETS)}")
    encoder = encoder or SpeakerEncoder.packaged()
    backend = engine.backend_named("kokoro")
    stock = backend.stock_packs()
    packs, spread = stock_matrix(backend)
    encoded = [phoneme_ids(engine, backend, text) for text in SCORING_TEXTS]

    def score(pack: np.ndarray, text: int) -> float:
        audio = backend.infer_with_pack(encoded[text], pack)
        return similarity(encoder.embed(audio, backend.sample_rate), target)

    started, cpu_started = time.perf_counter(), time.process_time()
    candidates = dict(stock)
    projector = StyleProjector.packaged()
    if projector is not None and projector.fits(packs):
        candidates["projector"] = projector.predict(target, packs)
    first = {name: score(pack, 0) for name, pack in candidates.items()}
    # a step scores once or twice: what the first guess's scorings cost, twice
    step_cpu = 2 * (time.process_time() - cpu_started) / len(candidates)
    based_on = max(stock, key=first.get)
    start = max(first, key=first.get)
    base = candidates[start]
    current = [first[start], score(base, 1)]
    start_similarity = float(np.mean(current))
    offset = np.zeros(spread.shape, np.float32)
    rng = np.random.default_rng(seed)
    taken, search_started = 0, time.perf_counter()

    def searching() -> bool:
        if steps is not None:
            return taken < steps
        return (time.perf_counter() - search_started < BUDGETS[quality]
                and time.process_time() - cpu_started + step_cpu <= CPU_LIMITS.get(quality, float("inf")))

    while searching():
        text = taken % 2
        candidate = offset + rng.standard_normal(spread.shape).astype(np.float32) * spread * STEP
        rms = float(np.sqrt(np.mean((candidate / spread) ** 2)))
        if rms > MAX_OFFSET:
            candidate *= MAX_OFFSET / rms
        value = score(base + candidate, text)
        taken += 1
        if value > current[text]:
            other = score(base + candidate, 1 - text)
            if other > current[1 - text] - _TIE_MARGIN:
                offset, current[text], current[1 - text] = candidate, value, other
        if progress:
            progress(time.perf_counter() - started, float(np.mean(current)))
    return Adaptation(pack=(base + offset).astype(np.float32), start=start, based_on=based_on,
                      start_similarity=start_similarity, similarity=float(np.mean(current)), steps=taken,
                      seconds=time.perf_counter() - started)
