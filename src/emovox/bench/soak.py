"""A soak: mixed traffic against a running server for minutes or hours, and what it did to it.

Client threads send, in a fixed mix, what real clients send: short and long speech in every
format, whole and streamed and as server-sent events, captioned speech, clones uploaded and
deleted, bad requests (unknown voices, empty text, broken JSON, an XML bomb, a file that is
not audio), and clients that go away after the first piece of audio. Every answer is
counted by kind and status; a 5xx is a failure whatever the kind.

The server is another process (its PID is given), sampled every few seconds from /proc:
resident memory, threads and open file descriptors. First audio (the first body byte of a
streamed speech request) is gathered per minute, so a server that slows as it runs shows as
a p95 that climbs from the first minute to the last. Leaks are read after the traffic stops
and the server has idled a moment: threads and descriptors back near where the first
minute left them.
"""

from __future__ import annotations

import base64
import io
import itertools
import json
import os
import random
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import numpy as np

from emovox.audio.formats import FORMATS
from emovox.bench.sentences import fresh_sentences

#: (kind, weight): how often each kind of request is sent.
MIX = (("short", 30), ("long", 8), ("sse", 8), ("captioned", 4), ("disconnect", 6), ("bad", 10), ("clone", 2),
       ("listing", 6))
_BAD_BODIES = (
    {"input": "Hello.", "voice": "no-such-voice"},
    {"input": ""},
    {"input": "Hello.", "speed": "fast"},
    {"input": '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol">]><speak>&lol;</speak>'},
    {"input": "Hello.", "response_format": "ogg"},
)


@dataclass
class ProcessSample:
    at_s: float
    rss_mb: float
    threads: int
    fds: int


def sample_process(pid: int, started: float) -> ProcessSample:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return ProcessSample(round(time.monotonic() - started, 1), int(fields["VmRSS"].split()[0]) / 1024,
                         int(fields["Threads"]), len(list(Path(f"/proc/{pid}/fd").iterdir())))


def open_files(pid: int) -> dict[str, int]:
    """What the process's descriptors point at, by kind (socket, pipe, a file's suffix...)."""
    kinds: Counter = Counter()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        kinds[target.split(":")[0] if ":" in target else (Path(target).suffix or target)] += 1
    return dict(kinds)


@dataclass
class SoakReport:
    seconds: float
    requests: Counter = field(default_factory=Counter)  # (kind, status) -> count
    first_audio_by_minute: dict[int, list[float]] = field(default_factory=dict)
    samples: list[ProcessSample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # 5xx and transport failures, described
    open_files: dict[str, dict[str, int]] = field(default_factory=dict)  # "after_warmup", "last" -> kinds

    def to_dict(self) -> dict:
        by_minute = {minute: _percentiles(values) for minute, values in sorted(self.first_audio_by_minute.items())}
        settled = self.samples[len(self.samples) // 10] if self.samples else None  # after the first tenth
        last = self.samples[-1] if self.samples else None
        return {
            "seconds": round(self.seconds, 1),
            "requests": sum(self.requests.values()),
            "by_kind_and_status": {f"{k} {s}": n for (k, s), n in sorted(self.requests.items(), key=str)},
            "server_errors_5xx": sum(n for (_, status), n in self.requests.items() if str(status).startswith("5")),
            "transport_errors": sum(n for (_, status), n in self.requests.items() if status == "transport"),
            "first_audio_s_by_minute": by_minute,
            "rss_mb": {"first": self.samples[0].rss_mb if self.samples else None,
                       "after_warmup": settled.rss_mb if settled else None,
                       "midpoint": self.samples[len(self.samples) // 2].rss_mb if self.samples else None,
                       "peak": max(s.rss_mb for s in self.samples) if self.samples else None,
                       "last": last.rss_mb if last else None, **memory_trend(self.samples)},
            "threads": {"after_warmup": settled.threads if settled else None, "last": last.threads if last else None,
                        "peak": max(s.threads for s in self.samples) if self.samples else None},
            "fds": {"after_warmup": settled.fds if settled else None, "last": last.fds if last else None,
                    "peak": max(s.fds for s in self.samples) if self.samples else None},
            "open_files": self.open_files,
            "errors": self.errors[:20],
        }


def memory_trend(samples: list[ProcessSample]) -> dict:
    """Resident memory as a trend rather than single samples (which a trimming allocator moves
    by a hundred MB either way): the median of each quarter of the run, and the least-squares
    slope over its second half, in MB a minute."""
    if len(samples) < 8:
        return {}
    quarter = len(samples) // 4
    medians = [statistics.median(s.rss_mb for s in samples[i * quarter:(i + 1) * quarter]) for i in range(4)]
    half = samples[len(samples) // 2:]
    minutes = np.array([s.at_s / 60 for s in half])
    slope = np.polyfit(minutes, np.array([s.rss_mb for s in half]), 1)[0]
    return {"quarter_medians": [round(m, 1) for m in medians], "second_half_mb_per_min": round(float(slope), 2)}


def _percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"n": len(ordered), "p50": round(statistics.median(ordered), 3),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3)}


class Soak:
    """Traffic from `clients` threads against `url` for `seconds`, the server `pid` sampled."""

    def __init__(self, url: str, pid: int, voices: list[str], clip: bytes | None = None, clients: int = 4,
                 seed: int = 0, headers: dict | None = None) -> None:
        self.url, self.pid, self.voices, self.clip, self.clients = url, pid, voices, clip, clients
        self.headers = headers or {}
        buckets = fresh_sentences(seed)
        self._short_texts = itertools.cycle(buckets["short (<30)"] + buckets["medium (30-100)"])
        self._long_texts = itertools.cycle(buckets["long (100-200)"])
        self._lock = threading.Lock()
        self._clone_names = itertools.count()

    def run(self, seconds: float, sample_every_s: float = 5.0, settle_s: float = 5.0) -> SoakReport:
        report = SoakReport(seconds=seconds)
        started = time.monotonic()
        self._report, self._started = report, started
        stop = threading.Event()

        def sampler() -> None:
            while not stop.wait(sample_every_s):
                report.samples.append(sample_process(self.pid, started))
                if "after_warmup" not in report.open_files and time.monotonic() - started > seconds / 10:
                    report.open_files["after_warmup"] = open_files(self.pid)

        report.samples.append(sample_process(self.pid, started))
        threads = [threading.Thread(target=self._client, args=(started + seconds, n), daemon=True)
                   for n in range(self.clients)]
        watcher = threading.Thread(target=sampler, daemon=True)
        watcher.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(settle_s)  # idle: pools shrink back, closed connections are reaped
        stop.set()
        watcher.join()
        report.samples.append(sample_process(self.pid, started))
        report.open_files["last"] = open_files(self.pid)
        report.seconds = time.monotonic() - started
        return report

    # -- one client ---------------------------------------------------------------------

    def _client(self, until: float, number: int) -> None:
        report = self._report
        kinds, weights = zip(*MIX)
        rng = random.Random(number)
        with httpx.Client(base_url=self.url, timeout=120, headers=self.headers) as client:
            while time.monotonic() < until:
                kind = rng.choices(kinds, weights)[0]
                try:
                    status = getattr(self, f"_{kind}")(client, rng)
                except httpx.HTTPError as e:
                    status = "transport"
                    with self._lock:
                        report.errors.append(f"{kind}: {type(e).__name__}: {e}")
                with self._lock:
                    report.requests[(kind, status)] += 1

    def _next(self, source) -> str:
        with self._lock:
            return next(source)

    def _stream(self, client: httpx.Client, body: dict, stop_after_first: bool = False) -> int:
        sent = time.monotonic()
        with client.stream("POST", "/v1/audio/speech", json=body) as response:
            if response.status_code != 200:
                response.read()
                return self._checked(response, "speech")
            for index, _ in enumerate(response.iter_bytes()):
                if index == 0:
                    with self._lock:
                        minute = int((sent - self._started) // 60)
                        self._report.first_audio_by_minute.setdefault(minute, []).append(time.monotonic() - sent)
                    if stop_after_first:
                        break  # the client goes away mid-stream
        return response.status_code

    def _short(self, client: httpx.Client, rng: random.Random) -> int:
        body = {"input": self._next(self._short_texts), "voice": rng.choice(self.voices), "response_format": rng.choice(FORMATS)}
        return self._stream(client, body)

    def _long(self, client: httpx.Client, rng: random.Random) -> int:
        text = " ".join(self._next(self._long_texts) for _ in range(3))
        body = {"input": text, "voice": rng.choice(self.voices), "response_format": rng.choice(("mp3", "opus", "pcm")),
                "emotion": rng.choice(("happy", "sad", "angry", "neutral"))}
        return self._stream(client, body)

    def _disconnect(self, client: httpx.Client, rng: random.Random) -> int:
        text = " ".join(self._next(self._long_texts) for _ in range(4))
        return self._stream(client, {"input": text, "voice": rng.choice(self.voices), "response_format": "pcm"},
                            stop_after_first=True)

    def _sse(self, client: httpx.Client, rng: random.Random) -> int:
        body = {"input": self._next(self._short_texts), "voice": rng.choice(self.voices), "response_format": "mp3",
                "stream_format": "sse"}
        with client.stream("POST", "/v1/audio/speech", json=body) as response:
            events = [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")]
        if response.status_code == 200 and events[-1]["type"] != "speech.audio.done":
            raise httpx.ProtocolError("an SSE stream ended without speech.audio.done")
        return response.status_code

    def _captioned(self, client: httpx.Client, rng: random.Random) -> int:
        response = client.post("/v1/audio/captioned_speech", json={
            "input": self._next(self._short_texts), "voice": rng.choice(self.voices), "response_format": "wav"})
        if response.status_code == 200:
            base64.b64decode(response.json()["audio"])
        return self._checked(response, "captioned")

    def _bad(self, client: httpx.Client, rng: random.Random) -> int:
        choice = rng.randrange(len(_BAD_BODIES) + 2)
        if choice == len(_BAD_BODIES):
            response = client.post("/v1/audio/speech", content=b'{"input": "Hello', headers={"Content-Type":
                                                                                              "application/json"})
        elif choice == len(_BAD_BODIES) + 1:
            response = client.post("/v1/voices", files={"file": ("photo.png", b"\x89PNG\r\n\x1a\n" + bytes(2048))})
        else:
            response = client.post("/v1/audio/speech", json=_BAD_BODIES[choice])
        return self._checked(response, "bad")

    def _clone(self, client: httpx.Client, rng: random.Random) -> int:
        if self.clip is None:
            return self._listing(client, rng)
        name = f"soak-{self.pid}-{next(self._clone_names)}"
        response = client.post("/v1/voices", files={"file": ("me.wav", self.clip)},
                               data={"name": name, "quality": "fast", "consent_by": "soak benchmark"})
        status = self._checked(response, "clone")
        if status == 201:
            speech = client.post("/v1/audio/speech", json={"input": "Speaking in a cloned voice.", "voice": name,
                                                           "response_format": "mp3"})
            self._checked(speech, "clone speech")
            self._checked(client.delete(f"/v1/voices/{name}"), "clone delete")
        return status

    def _listing(self, client: httpx.Client, rng: random.Random) -> int:
        return self._checked(client.get(rng.choice(("/v1/voices", "/v1/models", "/v1/emotions", "/readyz"))), "listing")

    def _checked(self, response: httpx.Response, what: str) -> int:
        if response.status_code >= 500:
            with self._lock:
                self._report.errors.append(f"{what}: {response.status_code} {response.text[:200]}")
        return response.status_code


def speech_clip(url: str, voice: str, text: str, headers: dict | None = None) -> bytes:
    """A WAV of `voice` reading `text`, from the server itself: the reference a soak clones."""
    response = httpx.post(f"{url}/v1/audio/speech", json={"input": text, "voice": voice, "response_format": "wav"},
                          headers=headers or {}, timeout=120)
    response.raise_for_status()
    import soundfile

    samples, _ = soundfile.read(io.BytesIO(response.content), dtype="float32")
    if np.abs(samples).max() <= 0.01:
        raise RuntimeError(f"{voice} read the reference text as silence")
    return response.content
