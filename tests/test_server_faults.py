"""Faults and abuse, on the tiny voices: SIGTERM drains, limits refuse before reading, a backend
that raises answers 500 in the envelope. Fast tier.

The drain tests run `tests/tiny_serve.py`, the same serving loop as `emovox serve`, as a
process of its own, and send it real signals.
"""

from __future__ import annotations

import concurrent.futures
import json
import signal
import socket
import sys
import time
from pathlib import Path

import httpx
import pytest

from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer, ServerProcess
from emovox.server.guard import Limits
from emovox.server.scheduler import Scheduler, SchedulerSettings
from emovox.voices.sqlite_store import SqliteVoiceStore
from faults import FailingOnOneWord

TINY_SERVE = Path(__file__).with_name("tiny_serve.py")
#: Minutes of audio at 24 kHz PCM: more than the sockets between server and client can hold,
#: so a client that stops reading keeps its stream in flight.
LONG_TEXT = " ".join(f"This is sentence number {n} of a long reading, spoken at an even pace." for n in range(50))


@pytest.fixture
def serving(tmp_path, tiny_dir):
    started: list[ServerProcess] = []

    def start(*args: str) -> ServerProcess:
        started.append(ServerProcess([sys.executable, str(TINY_SERVE), "{port}", str(tmp_path), "--voices",
                                      str(tiny_dir), *args]))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def _long_stream(server: ServerProcess) -> tuple[httpx.Client, httpx.Response]:
    client = httpx.Client(timeout=60)
    response = client.send(client.build_request("POST", f"{server.url}/v1/audio/speech", json={
        "input": LONG_TEXT, "voice": "tiny", "response_format": "pcm"}), stream=True)
    assert response.status_code == 200
    return client, response


def _wait_until_draining(server: ServerProcess) -> httpx.Response:
    deadline = time.time() + 10
    while time.time() < deadline:
        ready = httpx.get(f"{server.url}/readyz", timeout=5)
        if ready.status_code == 503:
            return ready
        time.sleep(0.05)
    raise AssertionError("the server never said it was draining")


def test_sigterm_drains_streams_in_flight_and_refuses_new_work_with_503(serving):
    server = serving("--drain", "60")
    client, stream = _long_stream(server)
    chunks = stream.iter_bytes()
    received = len(next(chunks))
    server.process.send_signal(signal.SIGTERM)
    assert _wait_until_draining(server).json()["error"]["code"] == "shutting_down"
    refused = httpx.post(f"{server.url}/v1/audio/speech", json={"input": "Hello.", "voice": "tiny"}, timeout=10)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert refused.json()["error"]["code"] == "shutting_down"
    assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200  # alive, only not taking work
    received += sum(len(chunk) for chunk in chunks)  # the stream plays to its end: no error, no cut
    client.close()
    seconds = received / 2 / 24_000
    assert seconds > 50  # all of it: 50 sentences
    assert server.process.wait(timeout=30) == 0  # then it stops by itself, cleanly


def test_the_drain_deadline_stops_a_stream_nobody_reads(serving):
    server = serving("--drain", "1")
    client, stream = _long_stream(server)
    next(stream.iter_bytes())
    signalled = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=30)
    assert time.monotonic() - signalled < 10  # deadline (1 s) + uvicorn's close (2 s), not the stream's length
    client.close()


@pytest.fixture
def limited(tiny_engine, tmp_path):
    def start(limits: Limits, **settings):
        app = create_app(tiny_engine, ServerSettings(scheduling=SchedulerSettings(workers=1), limits=limits,
                                                     **settings), SqliteVoiceStore(tmp_path / "store"))
        return BackgroundServer(app)

    return start


def test_rate_limits_per_client_and_per_key_answer_429_with_retry_after(limited):
    with limited(Limits(per_client="4/minute")) as server:
        statuses = [httpx.get(f"{server.url}/v1/models").status_code for _ in range(5)]
        refused = httpx.get(f"{server.url}/v1/models")
        assert statuses == [200] * 4 + [429] and refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert refused.json()["error"] | {"message": ""} == {"message": "", "type": "rate_limit_error", "param": None,
                                                               "code": "rate_limit_exceeded"}
        assert httpx.get(f"{server.url}/healthz").status_code == 200  # probes are never limited
    with limited(Limits(per_key="2/minute"), api_keys=("alpha", "beta")) as server:
        def models(key: str) -> int:
            return httpx.get(f"{server.url}/v1/models", headers={"Authorization": f"Bearer {key}"}).status_code

        assert [models("alpha") for _ in range(3)] == [200, 200, 429]
        assert models("beta") == 200  # another key has its own window


def _raw_request(url: str, head: str, body: bytes = b"") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall(head.encode() + b"\r\n" + body)
    return connection


def _status_of(connection: socket.socket) -> tuple[int, dict]:
    reply = b""
    while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
        part = connection.recv(65536)
        if not part:
            break
        reply += part
    status = int(reply.split(b" ", 2)[1])
    return status, json.loads(reply.split(b"\r\n\r\n", 1)[1] or b"{}")


def test_a_body_over_the_limit_is_refused_before_it_is_read(limited):
    with limited(Limits()) as server:
        for path in ("/v1/audio/speech", "/v1/voices", "/v1/audio/books"):
            connection = _raw_request(server.url, f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                                                  f"\r\nContent-Length: {10 ** 10}\r\n")  # and no body at all
            status, body = _status_of(connection)
            connection.close()
            assert status == 413 and body["error"]["code"] == "request_too_large", path
        # a body that does not say its length is counted as it arrives
        chunked = _raw_request(server.url, "POST /v1/audio/speech HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                           "application/json\r\nTransfer-Encoding: chunked\r\n")
        piece = b"x" * 2 ** 20
        try:
            for _ in range(200):
                chunked.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        except OSError:
            pass  # the server answered and closed
        status, body = _status_of(chunked)
        chunked.close()
        assert status == 413 and body["error"]["code"] == "request_too_large"


def test_uploads_in_flight_are_bounded(limited):
    with limited(Limits(uploads_in_flight_bytes=3 * 2 ** 20)) as server:
        head = ("POST /v1/voices HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                f"Content-Length: {2 * 2 ** 20}\r\n")
        first = _raw_request(server.url, head, b"--b\r\n")  # a slow upload: 2 MB announced, 5 bytes sent
        time.sleep(0.3)
        second = _raw_request(server.url, head, b"--b\r\n")
        status, body = _status_of(second)
        assert status == 429 and body["error"]["code"] == "uploads_busy"
        first.close()
        second.close()


def test_a_backend_that_raises_answers_500_in_the_envelope_and_others_are_served(tiny_engine, tmp_path):
    scheduler = Scheduler(FailingOnOneWord(tiny_engine), SchedulerSettings(workers=1))
    app = create_app(tiny_engine, ServerSettings(), SqliteVoiceStore(tmp_path / "store"), synthesizer=scheduler)
    with BackgroundServer(app) as server:
        def speak(text: str, **extra) -> httpx.Response:
            return httpx.post(f"{server.url}/v1/audio/speech", json={"input": text, "voice": "tiny", **extra},
                              timeout=30)

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            failing = [pool.submit(speak, "Then it went kaboom.") for _ in range(3)]
            fine = [pool.submit(speak, f"Sentence {n} is fine.", response_format="wav") for n in range(3)]
            failed = [f.result() for f in failing]
            served = [f.result() for f in fine]
        for response in failed:
            assert response.status_code == 500
            assert response.json() == {"error": {"message": "internal server error; the request was not completed",
                                                 "type": "server_error", "param": None, "code": None}}
        assert all(r.status_code == 200 and len(r.content) > 10_000 for r in served)
        assert speak("And after it, all is well.").status_code == 200  # the worker lives on
        captioned = httpx.post(f"{server.url}/v1/audio/captioned_speech", json={"input": "Kaboom.", "voice": "tiny"},
                               timeout=30)
        assert captioned.status_code == 500 and captioned.json()["error"]["type"] == "server_error"
