"""Time to first audio through the HTTP API: a new sentence every request, short to long.

    .venv/bin/python benchmarks/first_audio.py [--voices jf_alpha joe heart] [--repeats 12]
        [--clients 8] [--seconds 30] [--profile realtime] [--emotion happy] [--compare] [--json FILE]

A real server on loopback in its own process (benchmarks/load.py), the audio cache off, and
every request a sentence no request before it used (made from templates, 10 to 200
characters, emovox.bench.sentences), so each one costs a synthesis: the figures are the models' work. The clock
stops at the first body byte of a pcm stream.

Rows: for each voice, one client asking in turn (`--repeats` sentences of each length:
under 30 characters, 30-100, 100-200), p50 and p95; then `--clients` clients asking back to
back for `--seconds` (sentences of every length mixed), p50/p95 and the audio seconds
delivered per second, with the opening (every client's first request, all sent in the same
instant: the last one waits for every other's first step) and the steady state (the rest)
also apart, and where their first audio's time went (the server's step metrics,
server/metrics.py: the mean time a request's first step waited in line for the worker and
ran, and the same for the streams' later steps). `--compare` runs everything again with streaming inside the models
off (each sentence one piece, as before), in the same run.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import dataclasses
import itertools
import json
import statistics
import time
from pathlib import Path

import httpx
import numpy as np

from emovox.bench.sentences import fresh_sentences
from emovox.profiles import profile
from emovox.server.scheduler import SchedulerSettings
from load import PCM_RATE, ServerProcess


def first_audio(url: str, voice: str, text: str, session: httpx.Client,
                emotion: str | None = None) -> tuple[int, float, float, int]:
    """(status, seconds to the first body byte, seconds to the last, pcm bytes)."""
    started = time.perf_counter()
    first, size = None, 0
    request = {"input": text, "voice": voice, "response_format": "pcm", **({"emotion": emotion} if emotion else {})}
    with session.stream("POST", f"{url}/v1/audio/speech", json=request) as response:
        for block in response.iter_bytes():
            if first is None and block:
                first = time.perf_counter() - started
            size += len(block)
    return response.status_code, first or float("nan"), time.perf_counter() - started, size


def step_totals(url: str) -> dict[str, float]:
    """The server's step metrics so far, over every backend: {"first_wait_s": sum, "first_n": count,
    "first_run_s", "later_wait_s", "later_n", "later_run_s"} (server/metrics.py)."""
    from prometheus_client.parser import text_string_to_metric_families

    totals: dict[str, float] = collections.defaultdict(float)
    for family in text_string_to_metric_families(httpx.get(f"{url}/metrics").text):
        what = {"emovox_step_wait_seconds": "wait", "emovox_step_seconds": "run"}.get(family.name)
        for sample in family.samples if what else ():
            kind = sample.labels.get("kind")
            if sample.name.endswith("_sum"):
                totals[f"{kind}_{what}_s"] += sample.value
            elif sample.name.endswith("_count") and what == "wait":
                totals[f"{kind}_n"] += sample.value
    return dict(totals)


def where_it_waits(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Mean milliseconds a step waited in line and ran, first steps and later ones, between two
    `step_totals`: how a new request's first audio splits into waiting and its own work."""
    split = {}
    for kind in ("first", "later"):
        steps = after.get(f"{kind}_n", 0) - before.get(f"{kind}_n", 0)
        for what in ("wait", "run"):
            spent = after.get(f"{kind}_{what}_s", 0) - before.get(f"{kind}_{what}_s", 0)
            split[f"{kind}_{what}_ms"] = 1000 * spent / steps if steps else float("nan")
    return split


def one_client(url: str, voice: str, sentences: dict[str, list[str]], repeats: int,
               emotion: str | None = None) -> dict:
    rows = {}
    with httpx.Client(timeout=120) as session:
        first_audio(url, voice, "Warm up.", session, emotion)
        for name, texts in sentences.items():
            results = [first_audio(url, voice, texts.pop(), session, emotion) for _ in range(repeats)]
            firsts = [first for status, first, *_ in results if status == 200]
            rows[name] = {"p50_ms": 1000 * statistics.median(firsts), "p95_ms": 1000 * float(np.percentile(firsts, 95)),
                          "whole_p50_ms": 1000 * statistics.median(whole for _, _, whole, _ in results),
                          "errors": sum(1 for status, *_ in results if status != 200)}
    return rows


def many_clients(url: str, voice: str, sentences: dict[str, list[str]], clients: int, seconds: float,
                 emotion: str | None = None) -> dict:
    """`clients` clients asking back to back, all starting in the same instant. Their first
    requests (the opening) arrive together, so the last of them waits for every other's first
    step whatever the order; from then on (steady) a request arrives as another's audio ends.
    Both are reported, and all requests together."""
    mixed = [text for texts in itertools.zip_longest(*sentences.values()) for text in texts if text]
    deadline = time.perf_counter() + seconds

    def client(number: int) -> list[tuple[int, float, float, int]]:
        results = []
        with httpx.Client(timeout=120) as session:
            for text in mixed[number::clients]:
                if time.perf_counter() > deadline:
                    break
                results.append(first_audio(url, voice, text, session, emotion))
        return results

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        by_client = list(pool.map(client, range(clients)))
    wall = time.perf_counter() - started
    results = [r for rows in by_client for r in rows]

    def firsts(chosen: list[tuple[int, float, float, int]]) -> dict:
        times = [first for status, first, *_ in chosen if status == 200]
        return {"requests": len(chosen), "p50_ms": 1000 * statistics.median(times) if times else float("nan"),
                "p95_ms": 1000 * float(np.percentile(times, 95)) if times else float("nan")}

    return {**firsts(results),
            "opening": firsts([rows[0] for rows in by_client if rows]),
            "steady": firsts([r for rows in by_client for r in rows[1:]]),
            "audio_s_per_s": sum(size for *_, size in results) / 2 / PCM_RATE / wall,
            "errors": sum(1 for status, *_ in results if status != 200)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=["jf_alpha", "joe", "heart"])
    parser.add_argument("--repeats", type=int, default=12)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--profile", default="realtime")
    parser.add_argument("--compare", action="store_true", help="also run with streaming inside the models off")
    parser.add_argument("--emotion", help="every request in this emotion (intensity 1.0)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    chosen = profile(args.profile)
    sentences = fresh_sentences(seed=20261202)
    rows = []
    print(f"profile {chosen.name}, audio cache off, a new sentence every request"
          f"{f', emotion {args.emotion}' if args.emotion else ''}\n")
    print("| voice | windows | clients | sentences | first audio p50 / p95 (ms) | whole response p50 (ms) "
          "| audio s / s | errors |\n|---|---|---|---|---|---|---|---|")
    for windowed in (True, False) if args.compare else (True,):
        scheduling = SchedulerSettings.from_profile(chosen)
        with ServerProcess(chosen.name, False, scheduling, windowed) as server:
            for voice in args.voices:
                for name, row in one_client(server.url, voice, sentences, args.repeats, args.emotion).items():
                    rows.append({"voice": voice, "emotion": args.emotion, "windowed": windowed, "clients": 1,
                                 "sentences": name, **row})
                    print(f"| {voice} | {'on' if windowed else 'off'} | 1 | {name} | {row['p50_ms']:.0f} / "
                          f"{row['p95_ms']:.0f} | {row['whole_p50_ms']:.0f} | | {row['errors']} |", flush=True)
                if args.clients > 1:
                    before = step_totals(server.url)
                    row = many_clients(server.url, voice, sentences, args.clients, args.seconds, args.emotion)
                    row["steps"] = where_it_waits(before, step_totals(server.url))
                    rows.append({"voice": voice, "emotion": args.emotion, "windowed": windowed, "clients": args.clients,
                                 "sentences": "mixed", **row})
                    print(f"| {voice} | {'on' if windowed else 'off'} | {args.clients} | mixed "
                          f"({row['requests']}) | {row['p50_ms']:.0f} / {row['p95_ms']:.0f} | | "
                          f"{row['audio_s_per_s']:.2f} | {row['errors']} |", flush=True)
                    for part in ("opening", "steady"):
                        print(f"| {voice} | {'on' if windowed else 'off'} | {args.clients} | {part} "
                              f"({row[part]['requests']}) | {row[part]['p50_ms']:.0f} / {row[part]['p95_ms']:.0f} "
                              f"| | | |", flush=True)
                    steps = row["steps"]
                    print(f"|   steps, mean ms: first waited {steps['first_wait_ms']:.0f}, ran "
                          f"{steps['first_run_ms']:.0f}; later waited {steps['later_wait_ms']:.0f}, ran "
                          f"{steps['later_run_ms']:.0f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps([dataclasses.asdict(chosen)] + rows, indent=2))


if __name__ == "__main__":
    main()
