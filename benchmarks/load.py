"""Load on the HTTP API: time to first audio, throughput, errors and memory at rising concurrency.

    .venv/bin/python benchmarks/load.py [--seconds 15] [--clients 1 4 16 32] [--voices joe jf_alpha]
        [--profile realtime] [--batch 1 4] [--batch-window-ms 20] [--audio-cache] [--paced] [--json FILE]

A real server on loopback in a child process; N client threads here each send short
sentences back to back for the duration (bounded in time and in requests per client). Per
row: requests completed, TTFA p50/p95 (first body byte), throughput as seconds of audio
per second of wall time, 429s and other errors, and the server process's resident memory
sampled every second (at the row's start, its end, and its peak), so growth shows.

The audio cache is off unless --audio-cache: every sentence is then synthesized anew, so
the figures are the models' work, not memory reads. `--batch 1 4` runs every row without
batching and with batches of up to 4 (VITS only; Kokoro takes no batch dimension).
`--paced` makes each client a listener (live streams, as `emovox plan` counts them)
instead of a client that asks again as soon as its audio has arrived.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import functools
import json
import multiprocessing
import socket
import statistics
import threading
import time
from pathlib import Path

import httpx
import numpy as np

from emovox.profiles import profile
from emovox.server.app import ServerSettings, create_app
from emovox.server.scheduler import SchedulerSettings

SUBJECTS = ["The bus", "Our train", "The parcel", "My sister", "The new manager", "A small boat", "The doctor"]
EVENTS = ["leaves at noon", "arrived a little late", "will call you tomorrow", "is waiting outside",
          "needs one more signature", "was seen near the harbour"]
MAX_REQUESTS_PER_CLIENT = 400
PCM_RATE = 24_000


def sentence(n: int) -> str:
    """Distinct short sentences (42 before one repeats), so the phoneme cache warms as in
    real traffic while each request still costs a synthesis."""
    return f"{SUBJECTS[n % len(SUBJECTS)]} {EVENTS[n // len(SUBJECTS) % len(EVENTS)]}."


def client(url: str, voice: str, deadline: float, paced: bool, offset: int) -> list[tuple[int, float, int]]:
    """(status, time to first byte, bytes of pcm) per request until the deadline. A paced
    client is a listener: it asks for the next sentence when the last one has played."""
    results = []
    with httpx.Client(timeout=120) as session:
        for n in range(MAX_REQUESTS_PER_CLIENT):
            if time.perf_counter() > deadline:
                break
            started = time.perf_counter()
            first, size = None, 0
            with session.stream("POST", f"{url}/v1/audio/speech", json={
                    "input": sentence(n * 7 + offset), "voice": voice, "response_format": "pcm"}) as r:
                for block in r.iter_bytes():
                    if first is None and block:
                        first = time.perf_counter() - started
                    size += len(block)
            results.append((r.status_code, first or 0.0, size if r.status_code == 200 else 0))
            if paced:
                time.sleep(max(0.0, started + size / 2 / PCM_RATE - time.perf_counter()))
    return results


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class MemorySampler:
    """Resident memory of process `pid`, sampled every `period` seconds in a thread."""

    def __init__(self, pid: int, period: float = 1.0) -> None:
        self.pid = pid
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(period,), daemon=True)

    def _run(self, period: float) -> None:
        while not self._stop.is_set():
            self.samples.append(rss_mb(self.pid))
            self._stop.wait(period)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(rss_mb(self.pid))


def serve(profile_name: str, audio_cache: bool, scheduling: SchedulerSettings, windowed: bool, port: int) -> None:
    """The server, in its own process (its memory is then only its own). `windowed` False
    turns streaming inside the models off (one piece per sentence), for comparison."""
    import uvicorn

    chosen = profile(profile_name)
    if not audio_cache:
        chosen = dataclasses.replace(chosen, audio_cache_mb=0)
    engine = chosen.engine()
    engine.renderer.windowed = windowed
    app = create_app(engine, ServerSettings(scheduling=scheduling, default_voice=chosen.default_voice))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


class ServerProcess:
    def __init__(self, *args) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._process = multiprocessing.get_context("spawn").Process(target=serve, args=(*args, self.port))

    def __enter__(self) -> ServerProcess:
        self._process.start()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and self._process.is_alive():
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        self._process.terminate()
        raise RuntimeError("the server did not become ready")

    @property
    def pid(self) -> int:
        return self._process.pid

    def __exit__(self, *_) -> None:
        self._process.terminate()
        self._process.join(30)


def run_row(server: ServerProcess, voice: str, clients: int, seconds: float, paced: bool) -> dict:
    started = time.perf_counter()
    run_client = functools.partial(client, server.url, voice, started + seconds, paced)
    with MemorySampler(server.pid) as memory, concurrent.futures.ThreadPoolExecutor(clients) as pool:
        results = [r for rows in pool.map(run_client, range(clients)) for r in rows]
    wall = time.perf_counter() - started
    ok = sorted(first for status, first, _ in results if status == 200)
    return {
        "voice": voice, "clients": clients, "requests": len(results),
        "ttfa_p50_ms": 1000 * statistics.median(ok) if ok else None,
        "ttfa_p95_ms": 1000 * float(np.percentile(ok, 95)) if ok else None,
        "audio_s_per_s": sum(size for *_, size in results) / 2 / PCM_RATE / wall,
        "busy_429": sum(1 for status, *_ in results if status == 429),
        "other_errors": sum(1 for status, *_ in results if status not in (200, 429)),
        "rss_start_mb": memory.samples[0], "rss_end_mb": memory.samples[-1], "rss_peak_mb": max(memory.samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", nargs="*", type=int, default=[1, 4, 16, 32])
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha"])
    parser.add_argument("--profile", default="realtime")
    parser.add_argument("--batch", nargs="*", type=int, default=[1], help="max batch sizes to run (1: no batching)")
    parser.add_argument("--batch-window-ms", type=float, default=20.0)
    parser.add_argument("--audio-cache", action="store_true", help="keep the profile's audio cache on")
    parser.add_argument("--paced", action="store_true",
                        help="clients are listeners: the next request when the last audio has played")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    chosen = profile(args.profile)
    rows = []
    print(f"profile {chosen.name}, audio cache {'on' if args.audio_cache else 'off'}, {args.seconds:g} s per row\n")
    print("| voice | max batch | clients | requests | TTFA p50 (ms) | TTFA p95 (ms) | audio s / s | 429 | other errors "
          "| RSS start / end / peak (MB) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for max_batch in args.batch:
        scheduling = dataclasses.replace(SchedulerSettings.from_profile(chosen), max_batch=max_batch,
                                         batch_window_ms=args.batch_window_ms if max_batch > 1 else 0.0)
        with ServerProcess(chosen.name, args.audio_cache, scheduling, True) as server:
            for voice in args.voices:
                if max_batch > 1 and voice != "joe":
                    continue  # only the VITS voice takes a batch: Kokoro's rows would not change
                for clients in args.clients:
                    row = {"profile": chosen.name, "max_batch": max_batch, "paced": args.paced,
                           **run_row(server, voice, clients, args.seconds, args.paced)}
                    rows.append(row)
                    print(f"| {voice} | {max_batch} | {clients} | {row['requests']} | {row['ttfa_p50_ms']:.0f} | "
                          f"{row['ttfa_p95_ms']:.0f} | {row['audio_s_per_s']:.1f} | {row['busy_429']} | "
                          f"{row['other_errors']} | {row['rss_start_mb']:.0f} / {row['rss_end_mb']:.0f} / "
                          f"{row['rss_peak_mb']:.0f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
