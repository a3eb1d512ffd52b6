"""What the memory settings cost and save: ONNX Runtime's arena on or off, glibc malloc as it
comes or as `emovox serve` sets it (server/allocator.py), on a profile's voices.

    .venv/bin/python benchmarks/memory_settings.py [--profile realtime] [--voices joe jf_alpha heart]
        [--sentences 120] [--threads 4] [--repeats 3] [--json results/memory_settings.json]

Each setting runs in a fresh process: the profile's engine (audio cache off), then the same
`--sentences` new sentences (short, medium and long in turn) spread over `--threads` threads,
`--repeats` times. Reported: wall seconds per pass (median), and resident memory after loading,
after the first pass and after the last (sampled from /proc), so a setting that keeps growing
shows it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
SETTINGS = {  # name: (ORT arena, tune malloc as a server does)
    "arena kept, malloc as it comes": ("kept", False),
    "arena kept, malloc tuned": ("kept", True),
    "arena shrinking, malloc tuned (serve)": ("shrinking", True),
    "arena off, malloc tuned (edge)": ("off", True),
}

ONE_SETTING = """
import json, sys, threading, time
from dataclasses import replace
from emovox.bench.sentences import mixed
from emovox.profiles import profile
from emovox.server.allocator import tune_for_serving

arena, tuned, name, voices, count, threads, repeats = json.loads(sys.argv[1])
if tuned:
    tune_for_serving()

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

chosen = replace(profile(name), memory_arena=arena, audio_cache_mb=0)
engine = chosen.engine()
engine.warmup(voices)
figures = {"rss_loaded_mb": rss_mb(), "wall_s": [], "rss_mb": []}
sentences = iter(mixed(7))
for _ in range(repeats):
    work = [(next(sentences), voices[i % len(voices)]) for i in range(count)]
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not work:
                    return
                text, voice = work.pop()
            for _ in engine.stream(text, voice=voice):
                pass

    started = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    figures["wall_s"].append(time.perf_counter() - started)
    figures["rss_mb"].append(rss_mb())
print(json.dumps(figures))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="realtime")
    parser.add_argument("--voices", nargs="+", default=["joe", "jf_alpha", "heart"])
    parser.add_argument("--sentences", type=int, default=120)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "memory_settings.json")
    args = parser.parse_args()
    rows = {}
    for label, (arena, tuned) in SETTINGS.items():
        spec = json.dumps([arena, tuned, args.profile, args.voices, args.sentences, args.threads, args.repeats])
        run = subprocess.run([sys.executable, "-c", ONE_SETTING, spec], capture_output=True, text=True, check=True)
        figures = json.loads(run.stdout.strip().splitlines()[-1])
        rows[label] = {"median_wall_s": round(statistics.median(figures["wall_s"]), 2),
                       "rss_loaded_mb": round(figures["rss_loaded_mb"]),
                       "rss_after_first_mb": round(figures["rss_mb"][0]),
                       "rss_after_last_mb": round(figures["rss_mb"][-1]), "wall_s": figures["wall_s"]}
        row = rows[label]
        print(f"{label:<40} {row['median_wall_s']:>6.1f} s per pass; RSS {row['rss_loaded_mb']} MB loaded, "
              f"{row['rss_after_first_mb']} after the first pass, {row['rss_after_last_mb']} after the last")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"profile": args.profile, "voices": args.voices, "sentences": args.sentences,
                                     "threads": args.threads, "repeats": args.repeats, "settings": rows},
                                    indent=1) + "\n")


if __name__ == "__main__":
    main()
