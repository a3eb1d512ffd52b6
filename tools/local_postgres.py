"""A private PostgreSQL server for tests and the local cluster: its own data directory, its
own port on 127.0.0.1, trust authentication, stopped by its PID. Never the system's cluster.

    python tools/local_postgres.py start DIR [--port N]   # prints the URL
    python tools/local_postgres.py stop DIR

Uses Debian's `postgresql` package (the Makefile installs it). PostgreSQL refuses to run as
root, so as root the server runs as the package's `postgres` user, which then owns DIR.
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

USER = "postgres"


def binaries() -> Path:
    """The directory of initdb and postgres (Debian keeps them off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise FileNotFoundError("PostgreSQL is not installed: apt-get install postgresql (make test does)")


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", USER, "--", *command] if os.geteuid() == 0 else command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(directory: Path, port: int | None = None, timeout_s: float = 30.0) -> str:
    """Initialize `directory` (once) and start a server on it; returns its URL."""
    directory = Path(directory).resolve()
    data, sockets = directory / "data", directory / "sockets"
    directory.mkdir(parents=True, exist_ok=True)
    sockets.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        owner = pwd.getpwnam(USER)
        for path in (directory, sockets):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    bin_dir = binaries()
    if not (data / "PG_VERSION").is_file():
        made = subprocess.run(_as_server_user([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                                               "--auth=trust", "--no-sync", "-E", "UTF8"]), capture_output=True, text=True)
        if made.returncode:
            raise RuntimeError(f"initdb failed in {data} (its user, {USER}, must be able to reach it):\n{made.stderr}")
    port = port or free_port()
    log = directory / "server.log"
    with open(log, "ab") as log_file:
        server = subprocess.Popen(
            _as_server_user([str(bin_dir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(sockets),
                             "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"]),
            stdout=subprocess.DEVNULL, stderr=log_file, start_new_session=True)
    (directory / "port").write_text(str(port))
    deadline = time.monotonic() + timeout_s
    while True:
        ready = subprocess.run([str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-q"])
        if ready.returncode == 0:
            break
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"PostgreSQL did not start; see {log}:\n{log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.1)
    return url(directory)


def url(directory: Path, database: str = "postgres") -> str:
    port = (Path(directory) / "port").read_text().strip()
    return f"postgresql://postgres@127.0.0.1:{port}/{database}"


def server_pid(directory: Path) -> int | None:
    """The postmaster's PID, from the file it keeps in its data directory."""
    try:
        return int((Path(directory) / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def stop(directory: Path, timeout_s: float = 30.0) -> None:
    """Stop the server started on `directory`, by its PID (fast shutdown), and wait for it."""
    pid = server_pid(directory)
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGINT)  # PostgreSQL's "fast" shutdown
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["start", "stop"])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--port", type=int)
    args = parser.parse_args()
    if args.action == "start":
        print(start(args.directory, args.port))
    else:
        stop(args.directory)


if __name__ == "__main__":
    main()
