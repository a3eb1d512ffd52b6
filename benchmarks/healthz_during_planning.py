"""Does the server's event loop stay free while a long mixed Chinese-English request is planned?

    .venv/bin/python benchmarks/healthz_during_planning.py [--repeats 5] [--chars 4000]

A real server on loopback with the real voices (the Mandarin one needs `make zh-models`).
Each repeat sends a new long mixed request for `baker` (a different text every time, so no
cache helps) and, until its first audio byte arrives, asks `GET /healthz` back to back on a
second connection. The server's engine is fresh, so its first mixed request also measures
the two voices' speech levels (for loudness matching), as a server's first one does.
Planning the texts alone is timed first, on another engine, for comparison: a loop that
planned them would keep /healthz waiting that long. Prints p50 / p95 / max latency.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import statistics
import threading
import time

import httpx
import numpy as np

from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer

HANZI = "我们明天一起去公园散步然后吃饭看电影读书写字唱歌跳舞学习工作休息天气很好朋友老师学生城市"


def mixed_text(chars: int, seed: int) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    while sum(map(len, parts)) < chars:
        parts.append("".join(rng.choice(HANZI) for _ in range(rng.randint(6, 14)))
                     + f"，用 Python 写 demo {rng.randint(1, 9999)}。")
    return "".join(parts)[:chars]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--chars", type=int, default=4000)
    args = parser.parse_args()
    try:
        from emovox import from_packages
    except ImportError:  # an emovox from before the composition root (to measure it side by side)
        from emovox import Engine

        from_packages = Engine.from_packages
    timing_engine = from_packages(audio_cache_bytes=0)
    timing_engine.plan("预热 warm up。", voice="baker")
    planning = []
    for seed in range(args.repeats):
        started = time.perf_counter()
        list(timing_engine.plan(mixed_text(args.chars, 1000 + seed), voice="baker"))
        planning.append(time.perf_counter() - started)
    del timing_engine
    engine = from_packages(audio_cache_bytes=0)
    latencies: list[float] = []
    with BackgroundServer(create_app(engine, ServerSettings())) as server, httpx.Client(base_url=server.url) as client:
        for seed in range(args.repeats):
            done = threading.Event()

            def long_request(text: str, done: threading.Event = done) -> None:
                try:
                    with httpx.stream("POST", f"{server.url}/v1/audio/speech", timeout=300,
                                      json={"input": text, "voice": "baker", "response_format": "pcm"}) as response:
                        next(response.iter_bytes())
                finally:
                    done.set()

            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                pending = pool.submit(long_request, mixed_text(args.chars, seed))
                while not done.is_set():
                    asked = time.perf_counter()
                    client.get("/healthz").raise_for_status()
                    latencies.append(time.perf_counter() - asked)
                pending.result()
    ms = np.array(latencies) * 1000
    print(f"planning {args.chars} mixed characters alone (every job): median {1000 * statistics.median(planning):.0f} ms "
          f"(min {1000 * min(planning):.0f}, max {1000 * max(planning):.0f})")
    print(f"GET /healthz until first audio, {len(ms)} requests over {args.repeats} long requests: "
          f"p50 {np.percentile(ms, 50):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms, max {ms.max():.1f} ms")


if __name__ == "__main__":
    main()
