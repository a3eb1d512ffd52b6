"""The GPU check: RTF and throughput at batch sizes 1-32 on CUDA, in one short run.

    benchmarks/gpu_check.sh [OUT_DIR]          # on the GPU machine, with onnxruntime-gpu installed

Two parts, about five minutes together:
1. The VITS voice's raw padded batches (1, 2, 4, 8, 16, 32 sentences per forward pass) in
   fp32 and fp16 on the CUDA provider: wall time per pass and audio seconds per second.
2. `emovox bench --profile gpu` (dynamic batching through the scheduler) at 1-32 clients,
   written in the bench format, so `emovox plan --target gpu --bench OUT_DIR/results.json`
   can plan from it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path


def batch_sweep(precision: str, sizes: list[int], repeats: int, providers: tuple[str, ...]) -> list[dict]:
    from emovox.backends.session import SessionSettings
    from emovox.backends.vits import VitsBackend
    from emovox.bench.suite import SENTENCES
    from emovox.engine import Engine

    backend = VitsBackend.joe(SessionSettings(providers=providers), precision=precision)
    engine = Engine([backend], audio_cache_bytes=0)
    jobs = [job for sentence in SENTENCES for job in engine.plan(sentence, voice="joe")]
    rows = []
    for size in sizes:
        batch = [(list(job.ids), job.model_voice, job.speed, job.controls) for job in (jobs * 4)[:size]]
        backend.infer_batch(batch)  # warm-up: kernels and memory for this shape
        walls, audio = [], 0.0
        for _ in range(repeats):
            started = time.perf_counter()
            out = backend.infer_batch(batch)
            walls.append(time.perf_counter() - started)
            audio = sum(len(samples) for samples in out) / backend.sample_rate
        wall = statistics.median(walls)
        rows.append({"precision": precision, "batch": size, "wall_s": wall, "audio_s": audio,
                     "audio_s_per_s": audio / wall, "rtf": wall / audio})
        print(f"| {precision} | {size} | {1000 * wall:.1f} | {audio / wall:.0f} | {wall / audio:.4f} |", flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("gpu-results"))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--allow-cpu", action="store_true", help="run without CUDA (to try the script itself)")
    args = parser.parse_args()
    import onnxruntime

    from emovox.bench import report, suite

    available = onnxruntime.get_available_providers()
    if "CUDAExecutionProvider" not in available and not args.allow_cpu:
        print(f"CUDA is not available to onnxruntime {onnxruntime.__version__} (it has {', '.join(available)}); "
              "install onnxruntime-gpu in place of onnxruntime", file=sys.stderr)
        return 2
    providers = ("CUDAExecutionProvider", "CPUExecutionProvider")
    sizes = [1, 2, 4, 8, 16, 32]
    print("| precision | batch | wall per pass (ms) | audio s / s | RTF |\n|---|---|---|---|---|")
    sweep = [row for precision in ("fp32", "fp16") for row in batch_sweep(precision, sizes, args.repeats, providers)]
    config = dataclasses.replace(suite.BenchConfig(), repeats=3, concurrency=tuple(sizes), seconds_per_level=5.0)
    results = suite.run(["gpu"], config)
    results["vits_batch_sweep"] = sweep
    for path in report.write(results, args.out):
        print(f"wrote {path}")
    (args.out / "vits_batch_sweep.json").write_text(json.dumps(sweep, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
