"""A local cluster for trying emovox past one machine, and for its tests: PostgreSQL (the
shared voice store) and a two-node Ray cluster on loopback addresses, each node with its own
CPU count. Everything it starts is recorded by PID and stopped by PID; nothing else is.

    python tools/local_cluster.py up DIR [--cpus 1 1]   # writes DIR/env (export lines)
    python tools/local_cluster.py down DIR

`make cluster-up` / `make cluster-down` run it on `.cluster/` in the checkout; then
`. .cluster/env` gives a shell RAY_ADDRESS and EMOVOX_STORE.

Ray keeps 127.0.0.1 for itself (a node asked for it is silently given another address), so
the head is 127.0.0.2 and the second node 127.0.0.3; token authentication is set off
explicitly (Ray turns it on by itself once ~/.ray/auth_token exists).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import local_postgres  # noqa: E402

HEAD_ADDRESS, WORKER_ADDRESS = "127.0.0.2", "127.0.0.3"
#: Ray's environment for every process it starts (the workers inherit it).
RAY_ENVIRONMENT = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
#: Ray makes Unix sockets under its temp dir (.../session_<date>_<pid>/sockets/dash_MetricsHead),
#: and a socket's path may not pass 107 bytes: past this length the dashboard fails to start
#: with "Received EOF from pipe", so a deep checkout gets a short temp dir (linked from DIR/ray).
LONGEST_RAY_DIR = 38


def _ray() -> str:
    return str(Path(sys.executable).with_name("ray"))


def _cluster_processes(*markers: str, node: str | None = None) -> list[int]:
    """PIDs of the processes whose command line names one of `markers` (the cluster's temp
    dir, its head's address) and, given `node`, that node's address, and of every process
    they started (Ray renames its agents)."""
    table: dict[int, tuple[int, bytes]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                table[int(entry.name)] = (parent, (entry / "cmdline").read_bytes())
            except (OSError, ValueError, IndexError):
                continue
    found = {pid for pid, (_, line) in table.items()
             if any(m.encode() in line for m in markers) and (node is None or f"={node}".encode() in line)}
    while True:
        children = {pid for pid, (parent, _) in table.items() if parent in found} - found
        if not children:
            return sorted(found - {os.getpid()})
        found |= children


def up(directory: Path, cpus: tuple[int, ...] = (1, 1)) -> dict:
    """Start PostgreSQL and the Ray nodes (`cpus`: each node's CPU count; one or two nodes);
    returns (and writes to DIR/env) what a shell needs."""
    directory = Path(directory).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)  # the PostgreSQL server's user goes through it to its own directory
    store = local_postgres.start(directory / "postgres")
    ray_dir = _ray_dir(directory)
    port, dashboard_port = local_postgres.free_port(), local_postgres.free_port()
    address = f"{HEAD_ADDRESS}:{port}"
    # written first: a start that fails half way is taken down by `down` like a whole one
    (directory / "ray.markers").write_text(json.dumps([str(ray_dir), address]))
    try:
        return _start_ray(directory, ray_dir, address, dashboard_port, store, cpus)
    except (OSError, subprocess.CalledProcessError) as e:
        detail = e.stderr.decode(errors="replace")[-2000:] if isinstance(e, subprocess.CalledProcessError) else e
        down(directory)
        raise RuntimeError(f"the local Ray cluster did not start: {detail}") from None


def _start_ray(directory: Path, ray_dir: Path, address: str, dashboard_port: int, store: str,
               cpus: tuple[int, ...]) -> dict:
    port = address.rsplit(":", 1)[1]
    environment = {**os.environ, **RAY_ENVIRONMENT, "EMOVOX_STORE": store}
    # the dashboard is what `serve deploy` and `serve status` talk to
    subprocess.run([_ray(), "start", "--head", "--node-ip-address", HEAD_ADDRESS, "--port", str(port),
                    "--num-cpus", str(cpus[0]), "--temp-dir", str(ray_dir), "--disable-usage-stats",
                    "--include-dashboard=true", "--dashboard-host", HEAD_ADDRESS, "--dashboard-port",
                    str(dashboard_port)], check=True, env=environment, capture_output=True)
    for worker_cpus in cpus[1:2]:
        _start_worker(ray_dir, address, worker_cpus, environment)
    exports = {"RAY_ADDRESS": address, "RAY_DASHBOARD_ADDRESS": f"http://{HEAD_ADDRESS}:{dashboard_port}",
               "EMOVOX_STORE": store, **RAY_ENVIRONMENT}
    (directory / "env").write_text("".join(f"export {k}={v}\n" for k, v in exports.items()))
    exports["RAY_TEMP_DIR"] = str(ray_dir)  # where its logs are (session_latest/logs)
    exports["CLUSTER_DIR"] = str(directory)  # for kill_worker, restart_worker and down
    (directory / "ray.pids").write_text(json.dumps(_cluster_processes(str(ray_dir), address)))
    return exports


def _ray_dir(directory: Path) -> Path:
    """DIR/ray, or a short directory it links to when DIR/ray is too long for Ray's sockets."""
    ray_dir = directory / "ray"
    if ray_dir.is_symlink():
        ray_dir.unlink()  # an earlier run's, taken down
    if len(str(ray_dir)) <= LONGEST_RAY_DIR:
        ray_dir.mkdir(exist_ok=True)
        return ray_dir
    short = Path(tempfile.mkdtemp(prefix="emovox-ray-"))
    ray_dir.symlink_to(short, target_is_directory=True)
    return short


def _start_worker(ray_dir: Path, address: str, cpus: int, environment: dict) -> None:
    subprocess.run([_ray(), "start", "--address", address, "--node-ip-address", WORKER_ADDRESS,
                    "--num-cpus", str(cpus), "--temp-dir", str(ray_dir), "--disable-usage-stats"],
                   check=True, env=environment, capture_output=True)


def kill_worker(directory: Path) -> list[int]:
    """SIGKILL the second node's processes (its raylet, agents and workers: every replica on
    it), as a machine that loses power; returns their PIDs. The head, and any other
    cluster's nodes, are left running."""
    markers = json.loads((Path(directory).resolve() / "ray.markers").read_text())
    pids = _cluster_processes(*markers, node=WORKER_ADDRESS)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return pids


def restart_worker(directory: Path, cpus: int = 1) -> None:
    """Start the second node again (after `kill_worker`), joining the same head; `down` stops
    it like the first one (it carries the cluster's markers)."""
    directory = Path(directory).resolve()
    ray_dir, address = json.loads((directory / "ray.markers").read_text())
    store = next(line.split("=", 1)[1] for line in (directory / "env").read_text().splitlines()
                 if line.startswith("export EMOVOX_STORE="))
    _start_worker(Path(ray_dir), address, cpus, {**os.environ, **RAY_ENVIRONMENT, "EMOVOX_STORE": store})


def down(directory: Path, timeout_s: float = 5.0) -> None:
    """Stop what `up` started in `directory`: the Ray processes by their PIDs (and any they
    started since: workers, replicas, found by the cluster's own markers and parentage),
    then PostgreSQL by its PID."""
    directory = Path(directory).resolve()
    ray_dir = directory / "ray"
    try:
        recorded = json.loads((directory / "ray.pids").read_text())
        markers = json.loads((directory / "ray.markers").read_text())
    except (OSError, ValueError):
        recorded, markers = [], [str(ray_dir.resolve())]
    pids = set(recorded) | set(_cluster_processes(*markers))
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout_s
        while pids and time.monotonic() < deadline:
            pids = {pid for pid in pids if _alive(pid)}
            time.sleep(0.1)
        if not pids:
            break
    local_postgres.stop(directory / "postgres")
    (directory / "env").unlink(missing_ok=True)
    if ray_dir.is_symlink():  # a short temp dir outside DIR: nothing is left behind
        shutil.rmtree(ray_dir.resolve(), ignore_errors=True)
        ray_dir.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is gone for our purposes
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["up", "down"])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--cpus", type=int, nargs="+", default=[1, 1], metavar="N",
                        help="each node's CPUs: one number for a single node, two for two nodes (default 1 1)")
    args = parser.parse_args()
    if args.action == "up":
        exports = up(args.directory, tuple(args.cpus))
        print(f"cluster up: Ray at {exports['RAY_ADDRESS']}, voice store at {exports['EMOVOX_STORE']}")
        print(f"in a shell: . {args.directory / 'env'}")
    else:
        down(args.directory)
        print("cluster down")


if __name__ == "__main__":
    main()
