"""Run an app on a free loopback port: in a background thread (`BackgroundServer`), or as a
process of its own that can be sent signals (`ServerProcess`); for tests, benchmarks, notebooks."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import threading
import time

import httpx
import uvicorn


class BackgroundServer:
    def __init__(self, app, host: str = "127.0.0.1") -> None:
        self.port = free_port(host)
        self.host = host
        self.server = uvicorn.Server(uvicorn.Config(app, host=host, port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.time() + 120
        while not self.server.started:  # started = bound and lifespan (model warm-up) done
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


class ServerProcess:
    """`command` (where "{port}" stands for a free port) running until `stop`, ready once its
    /readyz says so."""

    def __init__(self, command: list[str], env: dict | None = None, ready_within_s: float = 90) -> None:
        self.port = free_port()
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
