"""Bad requests against a real server: every one must get a 4xx in the OpenAI error envelope.

    .venv/bin/python benchmarks/malformed.py [--requests 300] [--json]

Cycles through the kinds of malformed request below (broken JSON, wrong types, limits,
unknown names, hostile text, bad uploads, wrong routes and methods, missing or wrong keys)
with randomized details, on loopback. Reports the count of each status, every 5xx, and
every response whose body is not the envelope {"error": {"message", "type", "param", "code"}}.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
from pathlib import Path

import httpx

from emovox import from_packages
from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer
from emovox.voices.sqlite_store import SqliteVoiceStore

KEY = "bench-key"
SPEECH = "/v1/audio/speech"


def _speech(body) -> dict:
    return {"method": "POST", "path": SPEECH, "json": body}


def _raw(content: bytes, content_type: str = "application/json") -> dict:
    return {"method": "POST", "path": SPEECH, "content": content, "headers": {"content-type": content_type}}


def _upload(data: bytes, name: str = "someone", **fields) -> dict:
    return {"method": "POST", "path": "/v1/voices", "files": {"file": ("clip.wav", data, "audio/wav")},
            "data": {"name": name, "quality": "fast", **fields}}


def cases(rng: random.Random) -> list[tuple[str, dict]]:
    """One randomized request of every kind, as (kind, httpx.request keyword arguments)."""
    word = "".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 12)))
    return [
        ("empty input", _speech({"input": "", "voice": "joe"})),
        ("blank input", _speech({"input": " \n\t " * rng.randint(1, 50), "voice": "joe"})),
        ("input over 4096 chars", _speech({"input": "word " * rng.randint(820, 5000), "voice": "joe"})),
        ("input not a string", _speech({"input": rng.choice([42, None, ["a"], {"a": 1}, True]), "voice": "joe"})),
        ("missing input", _speech({"voice": "joe"})),
        ("unknown voice", _speech({"input": "Hello.", "voice": word})),
        ("voice not a string", _speech({"input": "Hello.", "voice": rng.choice([7, [], {}])})),
        ("unknown model", _speech({"input": "Hello.", "model": word})),
        ("unknown format", _speech({"input": "Hello.", "response_format": rng.choice(["midi", "wma", "", "MP3 "])})),
        ("speed out of range", _speech({"input": "Hello.", "speed": rng.choice([0, -1, 4.01, 1e9, 0.2499])})),
        ("speed not a number", _speech({"input": "Hello.", "speed": rng.choice(["fast", [], None])})),
        ("unknown stream format", _speech({"input": "Hello.", "stream_format": word})),
        ("unknown emotion", _speech({"input": "Hello.", "emotion": word})),
        ("intensity out of range", _speech({"input": "Hello.", "emotion": "sad", "intensity": rng.choice([-0.1, 1.5, 99])})),
        ("broken markup", _speech({"input": rng.choice(["[happy We won", "<prosody rate='x'>hi</prosody>",
                                                        "[sad:7] No.", "<speak><emphasis>oops</speak>"])})),
        ("nothing speakable", _speech({"input": rng.choice(["☃☃☃", "🙂🙂", "\u200b\u200b", "--- *** ---"])})),
        ("lone surrogate and controls", _raw(json.dumps({"input": "\ud800\x00\x07" * rng.randint(1, 10)}).encode())),
        ("json array body", _raw(json.dumps([1, 2, 3]).encode())),
        ("json scalar body", _raw(json.dumps(rng.choice([1, "x", None, True])).encode())),
        ("truncated json", _raw(b'{"input": "Hello.", "voice": "jo')),
        ("not json at all", _raw(bytes(rng.randrange(256) for _ in range(rng.randint(1, 400))))),
        ("empty body", _raw(b"")),
        ("form instead of json", _raw(b"input=Hello&voice=joe", "application/x-www-form-urlencoded")),
        ("deeply nested json", _raw(b'{"input": ' + b"[" * 5000 + b"]" * 5000 + b"}")),
        ("unknown route", {"method": rng.choice(["GET", "POST"]), "path": f"/v1/{word}"}),
        ("wrong method", {"method": rng.choice(["GET", "PUT", "DELETE"]), "path": SPEECH}),
        ("missing api key", {"method": "GET", "path": "/v1/voices", "auth": None}),
        ("wrong api key", {"method": "GET", "path": "/v1/models", "auth": "Bearer " + word}),
        ("upload: not audio", _upload(rng.choice([b"%PDF-1.7\n" + b"x" * 900, b"plain notes\n" * 50,
                                                  bytes(rng.randrange(256) for _ in range(5000))]))),
        ("upload: empty file", _upload(b"")),
        ("upload: no file field", {"method": "POST", "path": "/v1/voices", "data": {"name": "x"}}),
        ("upload: bad voice name", _upload(b"RIFF" + b"\0" * 100, name=rng.choice(["../x", "a" * 200, "", "joe"]))),
        ("upload: bad quality", _upload(b"RIFF" + b"\0" * 100, quality=word)),
        ("upload: too large", _upload(b"\0" * (3 * 2**20))),
        ("unknown clone job", {"method": "GET", "path": f"/v1/voices/jobs/{word}"}),
        ("delete a built-in voice", {"method": "DELETE", "path": "/v1/voices/joe"}),
        ("delete an unknown voice", {"method": "DELETE", "path": f"/v1/voices/{word}"}),
    ]


def is_envelope(response: httpx.Response) -> bool:
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return False
    return (isinstance(error, dict) and set(error) == {"message", "type", "param", "code"}
            and isinstance(error["message"], str) and bool(error["message"]) and "Traceback" not in error["message"])


def run(url: str, requests: int, seed: int = 0) -> dict:
    rng = random.Random(seed)
    statuses: collections.Counter = collections.Counter()
    server_errors, not_envelopes, kinds = [], [], collections.Counter()
    with httpx.Client(base_url=url, timeout=120) as client:
        sent = 0
        while sent < requests:
            for kind, spec in cases(rng):
                if sent >= requests:
                    break
                spec = dict(spec)
                auth = spec.pop("auth", f"Bearer {KEY}")
                headers = {**spec.pop("headers", {}), **({"authorization": auth} if auth else {})}
                response = client.request(spec.pop("method"), spec.pop("path"), headers=headers, **spec)
                sent += 1
                kinds[kind] += 1
                statuses[response.status_code] += 1
                if response.status_code >= 500:
                    server_errors.append((kind, response.status_code, response.text[:200]))
                elif not (400 <= response.status_code < 500 and is_envelope(response)):
                    not_envelopes.append((kind, response.status_code, response.text[:200]))
    return {"requests": sent, "kinds": len(kinds), "statuses": dict(sorted(statuses.items())),
            "server_errors": server_errors, "not_4xx_envelope": not_envelopes}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = ServerSettings(api_keys=(KEY,), max_upload_bytes=2 * 2**20, warmup=False)
    with tempfile.TemporaryDirectory() as home:  # nothing touches the user's own voices
        engine = from_packages(home=Path(home), backends=("vits",))
        with BackgroundServer(create_app(engine, settings, SqliteVoiceStore(Path(home)))) as server:
            report = run(server.url, args.requests, args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['requests']} malformed requests of {report['kinds']} kinds; statuses {report['statuses']}")
        print(f"5xx: {len(report['server_errors'])}; not a 4xx envelope: {len(report['not_4xx_envelope'])}")
        for problem in report["server_errors"] + report["not_4xx_envelope"]:
            print("  ", *problem)
    return 1 if report["server_errors"] or report["not_4xx_envelope"] else 0


if __name__ == "__main__":
    sys.exit(main())
