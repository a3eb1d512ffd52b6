"""emovox on Ray Serve against the single-process server, in one run on this machine.

    .venv/bin/python benchmarks/cluster.py [--seconds 8] [--clients 1 4 16 32] [--json FILE]

Rows, all on joe (VITS), the audio cache off, new sentences every request (benchmarks/load.py's
clients: time to first byte p50/p95, audio seconds per wall second):

    direct             `emovox serve`'s app in a child process, profile batch (a worker per core)
    serve, 1 node      emovox.deploy on one Ray node with both CPUs: two synthesis replicas
    serve, 1 x 1 CPU   one Ray node of one CPU: one synthesis replica
    serve, 2 x 1 CPU   two Ray nodes of one CPU each (tools/local_cluster.py): two replicas

Ray does not pin a node to its CPUs: on one 2-core machine the last two rows compare one
synthesis replica with two, which is what a second machine adds. Also measured: the time from
`serve.run` to a ready application (replica start), and each synthesis replica's memory.
Every cluster is started for its rows and stopped by PID after them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
import load  # noqa: E402
import local_cluster  # noqa: E402
import local_postgres  # noqa: E402
from emovox.server.scheduler import SchedulerSettings  # noqa: E402


def measure(url: str, clients: list[int], seconds: float) -> list[dict]:
    rows = []
    for count in clients:
        deadline = time.perf_counter() + seconds
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(count) as pool:
            results = [r for f in [pool.submit(load.client, url, "joe", deadline, False, 11 * i) for i in range(count)]
                       for r in f.result()]
        wall = time.perf_counter() - started
        ok = [r for r in results if r[0] == 200]
        first = np.array([r[1] for r in ok]) * 1000
        rows.append({"clients": count, "requests": len(results), "errors": len(results) - len(ok),
                     "ttfa_p50_ms": float(np.percentile(first, 50)) if len(first) else None,
                     "ttfa_p95_ms": float(np.percentile(first, 95)) if len(first) else None,
                     "audio_s_per_s": sum(r[2] for r in ok) / 2 / load.PCM_RATE / wall})
        print(f"    {count:>2} clients: {rows[-1]['requests']} requests, {rows[-1]['errors']} errors, "
              f"TTFA p50 {rows[-1]['ttfa_p50_ms']:.0f} / p95 {rows[-1]['ttfa_p95_ms']:.0f} ms, "
              f"{rows[-1]['audio_s_per_s']:.1f} audio s/s", flush=True)
    return rows


def on_ray(cpus: tuple[int, ...], replicas: int, clients: list[int], seconds: float) -> dict:
    """emovox.deploy on a fresh local cluster of `cpus` nodes with `replicas` synthesis replicas."""
    import ray
    from ray import serve

    from emovox.deploy import Synthesis, build_app  # noqa: F401 - Synthesis: the replicas we measure

    directory = Path(tempfile.mkdtemp(prefix="emovox-bench-cluster-"))
    try:
        exports = local_cluster.up(directory, cpus=cpus)
        os.environ.update({k: v for k, v in exports.items() if k not in ("EMOVOX_STORE", "RAY_TEMP_DIR", "CLUSTER_DIR")})
        ray.init(address=exports["RAY_ADDRESS"], log_to_driver=False)
        port = local_postgres.free_port()
        serve.start(proxy_location="HeadOnly", http_options={"host": "127.0.0.1", "port": port})
        total = sum(cpus)
        per_replica = (total - 0.5) / replicas
        args = {"backends": ["vits"], "num_cpus": per_replica, "cloning_cpus": 0.25, "ingress_cpus": 0.25,
                "autoscaling": {"min_replicas": replicas, "max_replicas": replicas, "initial_replicas": replicas}}
        started = time.perf_counter()
        handle = serve.run(build_app(args), name="emovox", route_prefix="/")
        ready_s = time.perf_counter() - started
        synthesis = serve.get_deployment_handle("synthesis-vits", app_name="emovox")
        pids = {synthesis.pid.remote().result() for _ in range(8 * replicas)}
        memory = [_replica_rss_mb(pid) for pid in sorted(pids)]
        print(f"    ready in {ready_s:.1f} s; synthesis replicas' RSS {', '.join(f'{m:.0f}' for m in memory)} MB",
              flush=True)
        rows = measure(f"http://127.0.0.1:{port}", clients, seconds)
        del handle
        serve.shutdown()
        ray.shutdown()
        return {"nodes": list(cpus), "replicas": replicas, "ready_s": ready_s, "replica_rss_mb": memory, "rows": rows}
    finally:
        local_cluster.down(directory)
        shutil.rmtree(directory, ignore_errors=True)


def _replica_rss_mb(pid: int) -> float:
    try:
        return load.rss_mb(pid)
    except OSError:
        return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", nargs="*", type=int, default=[1, 4, 16, 32])
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "cluster.json")
    args = parser.parse_args()
    results = {}
    print("direct (emovox serve, profile batch)", flush=True)
    settings = SchedulerSettings(workers=os.cpu_count() or 1)
    with load.ServerProcess("batch", False, settings, True) as server:
        results["direct"] = {"rows": measure(server.url, args.clients, args.seconds)}
    for name, cpus, replicas in (("serve, 1 node", (2,), 2), ("serve, 1 x 1 CPU", (1,), 1),
                                 ("serve, 2 x 1 CPU", (1, 1), 2)):
        print(name, flush=True)
        results[name] = on_ray(cpus, replicas, args.clients, args.seconds)
    one, two = (max(r["audio_s_per_s"] for r in results[k]["rows"]) for k in ("serve, 1 x 1 CPU", "serve, 2 x 1 CPU"))
    results["scaling_efficiency"] = two / (2 * one)
    print(f"scaling, one replica -> two: {one:.1f} -> {two:.1f} audio s/s, efficiency {two / (2 * one):.0%}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2))
    print("| setup | clients | TTFA p50 / p95 (ms) | audio s/s | errors |\n|---|---|---|---|---|")
    for name, result in results.items():
        if isinstance(result, dict):
            for row in result["rows"]:
                print(f"| {name} | {row['clients']} | {row['ttfa_p50_ms']:.0f} / {row['ttfa_p95_ms']:.0f} | "
                      f"{row['audio_s_per_s']:.1f} | {row['errors']} |")


if __name__ == "__main__":
    main()
