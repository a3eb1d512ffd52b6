"""Time to first audio byte of a short sentence through the HTTP API, per voice and format.

    .venv/bin/python benchmarks/first_audio.py [--repeats 20] [--profile realtime] [--audio-cache]

A real server on loopback (models warmed first); each request streams and the clock stops
at the first body byte. Prints p50/p95 over the repeats (the first request is dropped).
The audio cache is off unless --audio-cache (then every repeat after the first is a hit).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

import httpx
import numpy as np

from emovox.profiles import profile
from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer
from emovox.server.scheduler import SchedulerSettings

SENTENCE = "Hello, how are you today?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha"])
    parser.add_argument("--formats", nargs="*", default=["pcm", "mp3"])
    parser.add_argument("--profile", default="realtime")
    parser.add_argument("--audio-cache", action="store_true")
    args = parser.parse_args()
    chosen = profile(args.profile)
    if not args.audio_cache:
        chosen = dataclasses.replace(chosen, audio_cache_mb=0)
    settings = ServerSettings(scheduling=SchedulerSettings.from_profile(chosen))
    print(f"profile {chosen.name}, audio cache {'on' if args.audio_cache else 'off'}\n")
    with BackgroundServer(create_app(chosen.engine(), settings)) as server:
        print("| voice | format | p50 (ms) | p95 (ms) |\n|---|---|---|---|")
        for voice in args.voices:
            for fmt in args.formats:
                times = []
                for _ in range(args.repeats + 1):
                    started = time.perf_counter()
                    with httpx.stream("POST", f"{server.url}/v1/audio/speech", timeout=60,
                                      json={"input": SENTENCE, "voice": voice, "response_format": fmt}) as response:
                        next(b for b in response.iter_bytes() if b)
                        times.append(time.perf_counter() - started)
                times = times[1:]
                p95 = float(np.percentile(times, 95))
                print(f"| {voice} | {fmt} | {1000 * statistics.median(times):.0f} | {1000 * p95:.0f} |", flush=True)


if __name__ == "__main__":
    main()
