"""A server as a process of its own, for the tests that send it signals."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time

import httpx


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerProcess:
    """`command` (where "{port}" stands for a free port) running until `stop`, ready once its
    /readyz says so."""

    def __init__(self, command: list[str], env: dict | None = None, ready_within_s: float = 90) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile("w+")  # not a pipe: a full pipe would block the server
        self.process = subprocess.Popen([part.replace("{port}", str(self.port)) for part in command], env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + ready_within_s
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()}")
            time.sleep(0.2)
        raise RuntimeError("the server did not become ready")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
