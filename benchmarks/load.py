"""Load on the HTTP API: time to first audio, throughput and errors at rising concurrency.

    .venv/bin/python benchmarks/load.py [--seconds 15] [--clients 1 4 16 32] [--voices joe jf_alpha]

A real server on loopback in this process; N client threads each send short sentences
back to back for the duration (bounded in time and count). Per row: requests completed,
TTFA p50/p95 (first body byte), throughput as seconds of audio per second of wall time,
429s and other errors, and the process's resident memory after the row.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import resource
import statistics
import time

import httpx
import numpy as np

from emovox import Engine
from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer

SENTENCES = ["The bus leaves at noon.", "Could you pass the salt, please?", "It rained all night long.",
             "We will meet again tomorrow morning.", "Thank you for calling."]
MAX_REQUESTS_PER_CLIENT = 200


def client(url: str, voice: str, deadline: float, offset: int) -> list[tuple[int, float, int]]:
    """(status, time to first byte, bytes of pcm) per request until the deadline."""
    results = []
    with httpx.Client(timeout=120) as session:
        for n in range(MAX_REQUESTS_PER_CLIENT):
            if time.perf_counter() > deadline:
                break
            started = time.perf_counter()
            first, size = None, 0
            with session.stream("POST", f"{url}/v1/audio/speech", json={
                    "input": SENTENCES[(n + offset) % len(SENTENCES)], "voice": voice, "response_format": "pcm"}) as r:
                for block in r.iter_bytes():
                    if first is None and block:
                        first = time.perf_counter() - started
                    size += len(block)
            results.append((r.status_code, first or 0.0, size if r.status_code == 200 else 0))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", nargs="*", type=int, default=[1, 4, 16, 32])
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha"])
    args = parser.parse_args()
    with BackgroundServer(create_app(Engine.from_packages(), ServerSettings())) as server:
        print("| voice | clients | requests | TTFA p50 (ms) | TTFA p95 (ms) | audio s / s | 429 | other errors | RSS (MB) |")
        print("|---|---|---|---|---|---|---|---|---|")
        for voice in args.voices:
            for clients in args.clients:
                started = time.perf_counter()
                deadline = started + args.seconds
                run_client = functools.partial(client, server.url, voice, deadline)
                with concurrent.futures.ThreadPoolExecutor(clients) as pool:
                    results = [r for rows in pool.map(run_client, range(clients)) for r in rows]
                wall = time.perf_counter() - started
                ok = sorted(first for status, first, _ in results if status == 200)
                audio_s = sum(size for *_, size in results) / 2 / 24_000
                busy = sum(1 for status, *_ in results if status == 429)
                other = sum(1 for status, *_ in results if status not in (200, 429))
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                p95 = float(np.percentile(ok, 95)) if ok else float("nan")
                print(f"| {voice} | {clients} | {len(results)} | {1000 * statistics.median(ok):.0f} | "
                      f"{1000 * p95:.0f} | {audio_s / wall:.1f} | {busy} | {other} | {rss:.0f} |", flush=True)


if __name__ == "__main__":
    main()
