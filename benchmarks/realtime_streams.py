"""Live listeners at once through the HTTP API: how many streams play without running dry?

    .venv/bin/python benchmarks/realtime_streams.py [--voices joe heart jf_alpha]
        [--streams 10 20 30] [--stagger 6] [--sentences 3] [--profile realtime] [--emotion happy]
        [--json FILE]

A real server on loopback in its own process (benchmarks/load.py), the audio cache off.
Each listener opens one pcm stream of a text no one asked for before (`--sentences` long
sentences from emovox.bench.sentences, 20-30 s of audio), arriving at a random moment within
the first `--stagger` seconds (so that all of them overlap for most of their length), and
plays it from its first byte without pausing
(emovox.server.playback): a stream underruns when a byte arrives after the audio before it
has finished playing. A row: listeners, how many underran, the worst lateness of any byte
(negative: the smallest margin any stream kept), first audio p50/p95, server errors.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import statistics
import time
from pathlib import Path

import httpx
import numpy as np

from emovox.bench.sentences import fresh_sentences
from emovox.profiles import profile
from emovox.server.playback import Listener
from emovox.server.scheduler import SchedulerSettings
from load import PCM_RATE, ServerProcess

DEFAULT_STREAMS = {"joe": (10, 20, 30), "heart": (10, 20, 30, 40), "jf_alpha": (1, 2, 3, 4)}


async def listen(client: httpx.AsyncClient, url: str, voice: str, text: str, delay: float,
                 emotion: str | None = None) -> tuple[int, Listener]:
    await asyncio.sleep(delay)
    listener = Listener(opened=time.perf_counter())
    async with client.stream("POST", f"{url}/v1/audio/speech",
                             json={"input": text, "voice": voice, "response_format": "pcm",
                                   **({"emotion": emotion} if emotion else {})}) as response:
        async for block in response.aiter_bytes():
            listener.received(time.perf_counter(), len(block) / 2 / PCM_RATE)
    return response.status_code, listener


async def level(url: str, voice: str, texts: list[str], stagger: float, rng: random.Random,
                emotion: str | None = None) -> dict:
    limits = httpx.Limits(max_connections=len(texts) + 4)
    async with httpx.AsyncClient(timeout=600, limits=limits) as client:
        results = await asyncio.gather(*(listen(client, url, voice, text, rng.uniform(0, stagger), emotion)
                                         for text in texts))
    ok = [listener for status, listener in results if status == 200]
    firsts = [1000 * listener.first_audio_s for listener in ok]
    return {"streams": len(texts), "underran": sum(listener.underran for listener in ok),
            "worst_late_ms": 1000 * max(listener.late_s for listener in ok) if ok else None,
            "first_audio_p50_ms": statistics.median(firsts) if firsts else None,
            "first_audio_p95_ms": float(np.percentile(firsts, 95)) if firsts else None,
            "audio_s_per_stream": statistics.median(listener.heard_s for listener in ok) if ok else None,
            "errors": sum(1 for status, _ in results if status != 200)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=list(DEFAULT_STREAMS))
    parser.add_argument("--streams", type=int, nargs="*", help="listener counts (default: by voice)")
    parser.add_argument("--stagger", type=float, default=6.0, help="listeners arrive within this many seconds")
    parser.add_argument("--sentences", type=int, default=3, help="long sentences per stream")
    parser.add_argument("--profile", default="realtime")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--emotion", help="every stream in this emotion (intensity 1.0)")
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "realtime_streams.json")
    args = parser.parse_args()

    from rich.console import Console
    from rich.table import Table

    chosen = profile(args.profile)
    fresh = iter(fresh_sentences(args.seed)["long (100-200)"])
    rng = random.Random(args.seed)
    rows = []
    with ServerProcess(args.profile, False, SchedulerSettings.from_profile(chosen, max_waiting=256), True) as server:
        for voice in args.voices:
            asyncio.run(level(server.url, voice, ["Warm up."], 0, rng, args.emotion))
            for count in args.streams or DEFAULT_STREAMS.get(voice, (1, 2, 4)):
                texts = [" ".join(next(fresh) for _ in range(args.sentences)) for _ in range(count)]
                row = {"voice": voice, "emotion": args.emotion or "neutral"} | asyncio.run(
                    level(server.url, voice, texts, args.stagger, rng, args.emotion))
                rows.append(row)
                print(row, flush=True)
    table = Table("voice", "streams", "underran", "worst lateness (ms)", "first audio p50 / p95 (ms)",
                  "audio per stream (s)", "errors",
                  title=f"profile {args.profile}, audio cache off, listeners arriving within {args.stagger:g} s"
                        f"{f', emotion {args.emotion}' if args.emotion else ''}")
    for row in rows:
        table.add_row(row["voice"], str(row["streams"]), str(row["underran"]), f"{row['worst_late_ms']:.0f}",
                      f"{row['first_audio_p50_ms']:.0f} / {row['first_audio_p95_ms']:.0f}",
                      f"{row['audio_s_per_stream']:.1f}", str(row["errors"]))
    Console().print(table)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"profile": dataclasses.asdict(chosen), "stagger_s": args.stagger, "emotion": args.emotion,
                                     "sentences_per_stream": args.sentences, "rows": rows}, indent=2, default=str))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
