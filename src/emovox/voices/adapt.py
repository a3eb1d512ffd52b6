"""Turn a reference speaker into a Kokoro style: a budgeted search scored by GE2E similarity.

Kokoro's voice is a style vector (256 floats: timbre, then prosody) looked up per input
length in a (510, 256) pack. Adaptation starts from the stock pack closest to the target
speaker and searches for one offset, added to every row, that makes the model's speech
sound like the reference: a (1+1) evolution strategy whose step size follows the 1/5
success rule. Each candidate is scored on two short texts the reference does not contain,
so the search cannot win by matching one utterance, and the offset is bounded so the
style stays near what the model was trained on (intelligibility is kept; see the tests).

What led here: with `joe` as the target speaker, a plain random walk of 90 s over the
same offset raised the similarity to held-out joe speech from 0.55 (best stock voice,
jm_kumo) to 0.71-0.75; the step-size rule is meant to get there sooner (not yet measured
per quality level).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from emovox.voices.encoder import SAMPLE_RATE, SpeakerEncoder, similarity

#: Seconds of search per quality level (2 CPU cores).
BUDGETS = {"fast": 10.0, "balanced": 45.0, "best": 540.0}
SCORING_TEXTS = (
    "She sells fresh bread at the market on Saturday mornings.",
    "Please call me back when you get home tonight.",
)
_INITIAL_STEP = 0.5  # in units of the stock packs' per-dimension spread
_MAX_OFFSET = 3.0  # the offset's RMS, in the same units


@dataclass(frozen=True)
class Adaptation:
    pack: np.ndarray  # (510, 256) float32 style pack
    start_voice: str
    start_similarity: float
    similarity: float
    steps: int
    seconds: float


def adapt_kokoro(
    engine,
    target: np.ndarray,
    quality: str = "balanced",
    encoder: SpeakerEncoder | None = None,
    seed: int = 0,
    progress: Callable[[float, float], None] | None = None,
) -> Adaptation:
    """Search a Kokoro style pack whose speech embeds close to `target` (a d-vector).

    `progress(elapsed_s, similarity)` is called after each step."""
    import soxr

    from emovox.backends.kokoro import KokoroBackend

    if quality not in BUDGETS:
        raise ValueError(f"unknown quality {quality!r}; choose one of {', '.join(BUDGETS)}")
    budget = BUDGETS[quality]
    encoder = encoder or SpeakerEncoder.packaged()
    backend = next(b for b in engine.backends if isinstance(b, KokoroBackend))
    stock = backend.stock_packs()
    spread = np.stack(list(stock.values())).std(axis=(0, 1)).astype(np.float32)
    phrases = [next(iter(engine.frontend.segments(text, backend.max_phonemes))) for text in SCORING_TEXTS]
    encoded = [backend.encode(phrase.phonemes).ids for phrase in phrases]

    def score(pack: np.ndarray) -> float:
        values = []
        for ids in encoded:
            audio = backend.infer_with_pack(ids, pack)
            values.append(similarity(encoder.embed(soxr.resample(audio, backend.sample_rate, SAMPLE_RATE)), target))
        return float(np.mean(values))

    started = time.perf_counter()
    scores = {name: score(pack) for name, pack in stock.items()}
    start_voice = max(scores, key=scores.get)
    base = stock[start_voice]
    offset = np.zeros(base.shape[1], np.float32)
    best = scores[start_voice]
    step, steps = _INITIAL_STEP, 0
    rng = np.random.default_rng(seed)
    while time.perf_counter() - started < budget:
        candidate = offset + rng.standard_normal(offset.shape).astype(np.float32) * spread * step
        rms = float(np.sqrt(np.mean((candidate / spread) ** 2)))
        if rms > _MAX_OFFSET:
            candidate *= _MAX_OFFSET / rms
        value = score(base + candidate)
        steps += 1
        if value > best:
            offset, best = candidate, value
            step *= 1.5  # 1/5 success rule: grow on success, shrink slowly on failure
        else:
            step *= 1.5 ** -0.25
        if progress:
            progress(time.perf_counter() - started, best)
    return Adaptation(pack=(base + offset).astype(np.float32), start_voice=start_voice,
                      start_similarity=scores[start_voice], similarity=best, steps=steps,
                      seconds=time.perf_counter() - started)
