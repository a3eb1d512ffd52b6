"""Ray Serve autoscaling settings for emovox's synthesis deployment, compared under one step
of load, in one run on one local cluster (two loopback nodes of one CPU each).

    .venv/bin/python benchmarks/autoscaling.py [--step-clients 8] [--json FILE]

Each setting is deployed fresh (joe's family only, synthesis replicas of 0.5 CPU, one to two
of them: a third would fit by CPU count, but Ray places fractions per node and the ingress and
the cloning replica leave a quarter CPU on each, so it is never scheduled), then:

    1 client for 8 s          the quiet start, one replica
    N clients for 45 s        the step: closed-loop clients, a new sentence per request,
                              the audio cache off (benchmarks/load.py's clients)
    nothing for 45 s          does it give the replicas back?

Reported per setting: seconds from the step to a second running replica; first
audio p50/p95 and audio seconds per wall second in the step's first 15 s (while it scales) and
its last 30 s (scaled); errors (429 once the queue is full); replicas 45 s after the load.
Then admission (`--burst 32`): two fixed replicas under 32 clients for 20 s, with each
replica's `max_ongoing_requests` and the handle's `max_queued_requests` varied.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
import load  # noqa: E402
import local_cluster  # noqa: E402
import local_postgres  # noqa: E402

FAST = {"metrics_interval_s": 2.0, "look_back_period_s": 10.0}
SETTINGS = {
    "Ray's defaults": {"target_ongoing_requests": 2},
    "10 s up / 60 s down, look-back 30 s (the first defaults)": {
        "target_ongoing_requests": 2, "upscale_delay_s": 10.0, "downscale_delay_s": 60.0},
    "fast look-back, target 1": {**FAST, "target_ongoing_requests": 1, "upscale_delay_s": 3.0, "downscale_delay_s": 30.0},
    "fast look-back, target 2": {**FAST, "target_ongoing_requests": 2, "upscale_delay_s": 3.0, "downscale_delay_s": 30.0},
    "fast look-back, target 4": {**FAST, "target_ongoing_requests": 4, "upscale_delay_s": 3.0, "downscale_delay_s": 30.0},
    "two fixed replicas": {"min_replicas": 2, "max_replicas": 2, "initial_replicas": 2},
}
#: Admission under a burst past what two replicas hold (`--burst`): requests each replica takes
#: at once, and requests the ingress's handle queues before it answers 429.
ADMISSION = {
    "max_ongoing 8, queue 64": {"max_ongoing_requests": 8, "max_queued_requests": 64},
    "max_ongoing 2, queue 64": {"max_ongoing_requests": 2, "max_queued_requests": 64},
    "max_ongoing 8, queue 8": {"max_ongoing_requests": 8, "max_queued_requests": 8},
    "max_ongoing 8, queue 8, ingress holds 5 (Serve's default)": {
        "max_ongoing_requests": 8, "max_queued_requests": 8, "ingress_max_ongoing_requests": 5},
}


def run_clients(url: str, count: int, seconds: float, offset: int) -> dict:
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        results = [r for f in [pool.submit(load.client, url, "joe", deadline, False, offset + 11 * i)
                               for i in range(count)] for r in f.result()]
    wall = time.perf_counter() - started
    ok = [r for r in results if r[0] == 200]
    first = np.array([r[1] for r in ok]) * 1000
    return {"requests": len(results), "errors": len(results) - len(ok),
            "ttfa_p50_ms": float(np.percentile(first, 50)) if len(first) else None,
            "ttfa_p95_ms": float(np.percentile(first, 95)) if len(first) else None,
            "audio_s_per_s": sum(r[2] for r in ok) / 2 / load.PCM_RATE / wall}


class ReplicaWatch:
    """The synthesis deployment's running replicas, every half second, in a thread."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        from ray import serve

        while not self._stop.is_set():
            try:
                states = serve.status().applications["emovox"].deployments["synthesis-vits"].replica_states
                self.samples.append((time.perf_counter(), states.get("RUNNING", 0)))
            except (KeyError, RuntimeError):
                pass
            self._stop.wait(0.5)

    def first_reaching(self, count: int, since: float) -> float | None:
        return next((t - since for t, n in self.samples if t >= since and n >= count), None)

    def now(self) -> int:
        return self.samples[-1][1] if self.samples else 0

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


@contextlib.contextmanager
def deployed(autoscaling: dict, **more):
    """emovox.deploy with joe's family on 0.5-CPU synthesis replicas, taken down after."""
    from ray import serve

    from emovox.deploy import build_app

    args = {"backends": ["vits"], "num_cpus": 0.5, "cloning_cpus": 0.25, "ingress_cpus": 0.25,
            "autoscaling": autoscaling, **more}
    serve.run(build_app(args), name="emovox", route_prefix="/")
    try:
        yield
    finally:
        serve.delete("emovox")


def one_setting(name: str, autoscaling: dict, url: str, step_clients: int, offset: int) -> dict:
    scaling = {"min_replicas": 1, "max_replicas": 2, "initial_replicas": 1, **autoscaling}
    with deployed(scaling):
        watch = ReplicaWatch()
        try:
            quiet = run_clients(url, 1, 8, offset)
            step = time.perf_counter()
            scaling_rows = run_clients(url, step_clients, 15, offset + 1000)
            scaled = run_clients(url, step_clients, 30, offset + 2000)
            time.sleep(45)
            result = {"setting": name, "autoscaling": scaling, "quiet": quiet, "scaling": scaling_rows,
                      "scaled": scaled, "second_replica_s": watch.first_reaching(2, step),
                      "replicas_45s_after": watch.now()}
        finally:
            watch.stop()
    print(f"  {name}: 2nd replica after {_s(result['second_replica_s'])}; scaling {_row(scaling_rows)}; "
          f"scaled {_row(scaled)}; errors {scaling_rows['errors'] + scaled['errors']}; "
          f"{result['replicas_45s_after']} replicas after", flush=True)
    return result


def burst(name: str, admission: dict, url: str, clients: int, offset: int) -> dict:
    """Two fixed replicas, `clients` closed-loop clients for 20 s."""
    with deployed({"min_replicas": 2, "max_replicas": 2, "initial_replicas": 2}, **admission):
        run_clients(url, 1, 3, offset)  # warm
        row = {"setting": name, **admission, "clients": clients, **run_clients(url, clients, 20, offset + 1000)}
    print(f"  {name}: {row['requests']} requests, {row['errors']} refused, {_row(row)}", flush=True)
    return row


def _s(value: float | None) -> str:
    return "never" if value is None else f"{value:.0f} s"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _row(row: dict) -> str:
    return f"TTFA p50/p95 {_ms(row['ttfa_p50_ms'])}/{_ms(row['ttfa_p95_ms'])} ms, {row['audio_s_per_s']:.1f} audio s/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--step-clients", type=int, default=8)
    parser.add_argument("--settings", nargs="*", default=list(SETTINGS), help="which rows (default all)")
    parser.add_argument("--burst", type=int, default=32, metavar="CLIENTS",
                        help="clients of the admission rows (0: skip them)")
    parser.add_argument("--admission", nargs="*", default=list(ADMISSION), help="which admission rows (default all)")
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "autoscaling.json")
    args = parser.parse_args()
    import ray
    from ray import serve

    directory = Path(tempfile.mkdtemp(prefix="emovox-as-"))
    results, bursts = [], []
    try:
        exports = local_cluster.up(directory, cpus=(1, 1))
        os.environ.update({k: v for k, v in exports.items() if k not in ("EMOVOX_STORE", "RAY_TEMP_DIR", "CLUSTER_DIR")})
        ray.init(address=exports["RAY_ADDRESS"], log_to_driver=False)
        port = local_postgres.free_port()
        serve.start(proxy_location="HeadOnly", http_options={"host": "127.0.0.1", "port": port})
        for index, name in enumerate(args.settings):
            results.append(one_setting(name, SETTINGS[name], f"http://127.0.0.1:{port}", args.step_clients,
                                       10_000 * index))
            _save(args.json, results, bursts)
        for index, name in enumerate(args.admission if args.burst else ()):
            bursts.append(burst(name, ADMISSION[name], f"http://127.0.0.1:{port}", args.burst, 100_000 + 10_000 * index))
            _save(args.json, results, bursts)
        serve.shutdown()
        ray.shutdown()
    finally:
        local_cluster.down(directory)
        shutil.rmtree(directory, ignore_errors=True)
    print("| setting | 2nd replica | first 15 s: TTFA p50 / p95, audio s/s | last 30 s: TTFA p50 / p95, "
          "audio s/s | errors | replicas 45 s after |\n|---|---|---|---|---|---|")
    for r in results:
        a, b = r["scaling"], r["scaled"]
        print(f"| {r['setting']} | {_s(r['second_replica_s'])} | "
              f"{_ms(a['ttfa_p50_ms'])} / {_ms(a['ttfa_p95_ms'])} ms, {a['audio_s_per_s']:.1f} | "
              f"{_ms(b['ttfa_p50_ms'])} / {_ms(b['ttfa_p95_ms'])} ms, {b['audio_s_per_s']:.1f} | "
              f"{a['errors'] + b['errors']} | {r['replicas_45s_after']} |")
    print("\n| admission (2 replicas) | clients | requests | refused (429) | TTFA p50 / p95 (ms) | audio s/s |\n"
          "|---|---|---|---|---|---|")
    for b in bursts:
        print(f"| {b['setting']} | {b['clients']} | {b['requests']} | {b['errors']} | {_ms(b['ttfa_p50_ms'])} / "
              f"{_ms(b['ttfa_p95_ms'])} | {b['audio_s_per_s']:.1f} |")


def _save(path: Path, results: list[dict], bursts: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"settings": results, "admission": bursts}, indent=2))


if __name__ == "__main__":
    main()
