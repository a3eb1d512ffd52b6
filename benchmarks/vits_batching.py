"""Does dynamic batching pay for the VITS voice on this CPU? Audio per second, batch 1-8.

    .venv/bin/python benchmarks/vits_batching.py [--repeats 5]

Eight different short sentences are synthesized one at a time and as padded batches of
2, 4 and 8 through the same ONNX session; throughput counts only the useful audio (each
sentence's own length at batch 1), medians over the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from emovox import from_packages
from emovox.voices.adapt import phoneme_ids

SENTENCES = ["The bus leaves at noon.", "Could you pass the salt, please?", "It rained all night long.",
             "We will meet again tomorrow morning.", "Thank you for calling.", "The door was already open.",
             "She found her keys under the sofa.", "Our train is twenty minutes late."]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    engine = from_packages()
    backend = engine.backend_of("joe")
    session = backend._session.get()  # the backend's own session: same model, same threads
    ids = [phoneme_ids(engine, backend, sentence) for sentence in SENTENCES]

    def run(batch: list[list[int]]) -> np.ndarray:
        return session.run(None, backend._inputs(batch, 1.0))[0]  # the inputs the backend itself gives

    useful = sum(run([sequence]).size for sequence in ids) / backend.sample_rate
    print(f"{useful:.1f} s of useful audio in {len(ids)} sentences\n")
    print("| batch size | wall (s) | audio s per wall s |\n|---|---|---|")
    for size in (1, 2, 4, 8):
        times = []
        for _ in range(args.repeats):
            started = time.perf_counter()
            for start in range(0, len(ids), size):
                run(ids[start:start + size])
            times.append(time.perf_counter() - started)
        wall = statistics.median(times)
        print(f"| {size} | {wall:.3f} | {useful / wall:.1f} |", flush=True)


if __name__ == "__main__":
    main()
