"""A book's throughput against `emovox bench`'s batch figure, in one run on this machine.

    .venv/bin/python benchmarks/book_throughput.py [--voices joe jf_alpha] [--repeats 3] [--generated] [--format wav]

First `emovox bench --quick` for the batch profile (its best audio seconds per wall second
through the scheduler, per voice), then a three-chapter Markdown book made of the bench's
own sentences (each once, shuffled: both measure the same text, and a repeated sentence
would be synthesized once, its chunk keyed by content) through `make_book` with the batch
profile's engine and workers (warmed up first, as the bench's is), the audio cache off,
into a fresh directory each time.
Prints both. `--generated` reads a book of generated sentences instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import tempfile
import time
from pathlib import Path

from emovox.bench import suite
from emovox.longform.book import make_book
from emovox.longform.source import read_book
from emovox.options import SpeechOptions
from emovox.profiles import profile

SUBJECTS = ["The old captain", "A young teacher", "My neighbour", "The night nurse", "Our guide", "The baker"]
VERBS = ["carried", "painted", "repaired", "described", "found", "counted", "remembered", "sold"]
OBJECTS = ["a wooden boat", "the broken clock", "twelve blue lanterns", "a map of the valley", "the last train",
           "an empty notebook", "three silver keys", "the garden wall"]
ENDINGS = ["before the storm.", "on a quiet Sunday.", "while the town slept.", "near the harbour.",
           "after a long winter.", "in the early morning."]


def book_text(seed: int, generated: bool, chapters: int = 3, sentences: int = 20) -> str:
    rng = random.Random(seed)
    lines = ["# A Book", ""]
    for number in range(1, chapters + 1):
        lines += [f"## Chapter {number}", ""]
        if generated:
            said = [f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(ENDINGS)}"
                    for _ in range(sentences)]
        else:  # each bench sentence once in the book: a repeat would be made once (content keys)
            said = list(suite.SENTENCES[number - 1::chapters])
            rng.shuffle(said)
        lines += [" ".join(said[i:i + 4]) + "\n" for i in range(0, len(said), 4)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--generated", action="store_true", help="generated sentences, not the bench's")
    parser.add_argument("--format", default="mp3", help="the chapters' format (default mp3)")
    args = parser.parse_args()
    config = dataclasses.replace(suite.BenchConfig.quick(), peers=False)
    bench = {v["voice"]: max(level["audio_s_per_s"] for level in v["concurrency"])
             for v in suite.run(["batch"], config)["profiles"][0]["voices"]}
    chosen = dataclasses.replace(profile("batch"), audio_cache_mb=0)  # every chunk synthesized
    engine = chosen.engine()
    engine.warmup(args.voices)  # as the bench does: sessions loaded, one inference run, before timing
    print("| voice | emovox bench, batch (audio s/s) | book (audio s/s, median of repeats) | runs |\n|---|---|---|---|")
    for voice in args.voices:
        runs = []
        for repeat in range(args.repeats):
            with tempfile.TemporaryDirectory() as scratch:
                source = Path(scratch) / "book.md"
                source.write_text(book_text(100 * args.voices.index(voice) + repeat, args.generated), "utf-8")
                started = time.perf_counter()
                manifest = make_book(engine, read_book(source), Path(scratch) / "out", SpeechOptions(voice=voice),
                                     args.format, workers=chosen.worker_count)
                wall = time.perf_counter() - started
                runs.append(sum(c["duration_s"] for c in manifest["chapters"]) / wall)
        print(f"| {voice} | {bench.get(voice, float('nan')):.1f} | {statistics.median(runs):.1f} | "
              f"{', '.join(f'{r:.1f}' for r in runs)} |", flush=True)


if __name__ == "__main__":
    main()
