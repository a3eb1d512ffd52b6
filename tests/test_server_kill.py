"""SIGKILL of `emovox serve` while voices are being cloned: the store stays whole and the next
start is clean. Real models, a real process, real signals.

The server is killed at four moments of a clone upload: halfway through the request body, and
0.5, 2 and 5 seconds after it was sent (reading and cleaning the clip, searching, saving). After
each kill the server starts again on the same home; at the end the store must hold only
complete voices, each of which speaks, its SQLite file must pass its integrity check, no
partial file may lie in it, the audit log's chain must be intact, and a new clone must work.
"""

from __future__ import annotations

import signal
import socket
import sqlite3
import sys
import time

import httpx
import pytest

from emovox.server.background import ServerProcess

pytestmark = pytest.mark.models
SERVE = [sys.executable, "-m", "emovox.cli", "serve", "--port", "{port}", "--drain-seconds", "0"]
REFERENCE = "The quick brown fox jumps over the lazy dog, and then it runs across the field to the river bank."


def _multipart(clip: bytes, name: str) -> tuple[bytes, str]:
    boundary = "emovox-kill-test"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"\r\n\r\n{value}\r\n'.encode()
             for field, value in (("name", name), ("quality", "fast"), ("consent_by", "the test"))]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.wav"\r\n'
                 f"Content-Type: audio/wav\r\n\r\n".encode() + clip + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), boundary


def _send(server: ServerProcess, body: bytes, boundary: str, upto: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    connection.sendall(f"POST /v1/voices HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary={boundary}"
                       f"\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body[:upto])
    return connection


def test_sigkill_during_clone_uploads_leaves_the_store_whole(tmp_path):
    import os

    env = {**os.environ, "EMOVOX_HOME": str(tmp_path)}
    server = ServerProcess(SERVE, env=env, ready_within_s=300)
    clip = httpx.post(f"{server.url}/v1/audio/speech", json={"input": REFERENCE, "voice": "joe",
                                                            "response_format": "wav"}, timeout=120).content
    moments = [("half the body", None), ("0.5 s after", 0.5), ("2 s after", 2.0), ("5 s after", 5.0)]
    for number, (_, delay) in enumerate(moments):
        body, boundary = _multipart(clip, f"killed-{number}")
        if delay is None:
            connection = _send(server, body, boundary, len(body) // 2)
            time.sleep(0.3)
        else:
            connection = _send(server, body, boundary, len(body))
            time.sleep(delay)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=30)
        connection.close()
        server = ServerProcess(SERVE, env=env, ready_within_s=300)  # the next start: clean, or this raises
    try:
        listed = [v["name"] for v in httpx.get(f"{server.url}/v1/voices", timeout=30).json()["data"]]
        clones = [name for name in listed if name.startswith("killed-")]
        for name in clones:  # whatever was saved is whole: it speaks
            spoken = httpx.post(f"{server.url}/v1/audio/speech", json={"input": "Still here.", "voice": name,
                                                                      "response_format": "wav"}, timeout=60)
            assert spoken.status_code == 200, (name, spoken.text)
        audit = httpx.get(f"{server.url}/v1/audit", timeout=30).json()
        assert audit["chain_intact"]
        assert {e["voice"] for e in audit["data"] if e["event"] == "clone"} == set(clones)
        fresh = httpx.post(f"{server.url}/v1/voices", files={"file": ("me.wav", clip)},
                           data={"name": "after-the-kills", "quality": "fast", "consent_by": "the test"}, timeout=120)
        assert fresh.status_code == 201, fresh.text
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "voices.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert not [p for p in tmp_path.rglob("*.partial")]
