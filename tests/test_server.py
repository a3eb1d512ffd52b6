"""The HTTP API on a real uvicorn server on loopback, driven by real clients."""

from __future__ import annotations

import concurrent.futures
import io
import time

import httpx
import numpy as np
import pytest
import soundfile

from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer
from emovox.server.scheduler import SchedulerSettings

pytestmark = pytest.mark.models

LONG_TEXT = " ".join(f"This is sentence number {n} of a long reading." for n in range(1, 13))


@pytest.fixture(scope="module")
def server(engine):
    with BackgroundServer(create_app(engine, ServerSettings(scheduling=SchedulerSettings(workers=2)))) as live:
        yield live


def _decode(data: bytes) -> tuple[np.ndarray, int]:
    samples, rate = soundfile.read(io.BytesIO(data), dtype="float32")
    return samples, rate


def test_openai_client_works_unchanged(server):
    from openai import OpenAI

    client = OpenAI(base_url=f"{server.url}/v1", api_key="unused")
    response = client.audio.speech.create(model="tts-1", voice="joe", input="Hello from the server.",
                                          response_format="wav")
    samples, rate = _decode(response.content)
    assert rate == 22050 and len(samples) / rate > 0.8 and np.abs(samples).max() > 0.05
    with client.audio.speech.with_streaming_response.create(model="tts-1", voice="jf_alpha", input="Good morning.",
                                                            response_format="mp3") as streamed:
        data = b"".join(streamed.iter_bytes())
    assert data[:3] == b"ID3" or data[0] == 0xFF  # an MP3 stream
    assert [m.id for m in client.models.list().data][0] == "emovox"


def test_audio_starts_before_a_long_input_is_synthesized(server):
    with httpx.stream("POST", f"{server.url}/v1/audio/speech", timeout=120,
                      json={"input": LONG_TEXT, "voice": "joe", "response_format": "pcm"}) as response:
        started = time.perf_counter()
        first = None
        total = 0
        for block in response.iter_bytes():
            if first is None and block:
                first = time.perf_counter() - started
            total += len(block)
        elapsed = time.perf_counter() - started
    assert response.status_code == 200 and total / 2 / 24000 > 10  # pcm: 16-bit at 24 kHz
    assert first < 0.4 * elapsed, (first, elapsed)


def test_sse_stream_carries_base64_audio(server):
    import base64
    import json

    response = httpx.post(f"{server.url}/v1/audio/speech", timeout=60,
                          json={"input": "One. Two.", "voice": "joe", "response_format": "wav", "stream_format": "sse"})
    events = [json.loads(line[6:]) for line in response.text.splitlines() if line.startswith("data: ")]
    assert events[-1]["type"] == "speech.audio.done"
    audio = b"".join(base64.b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta")
    assert audio[:4] == b"RIFF"


@pytest.mark.parametrize("body, status, param", [
    ({"input": "", "voice": "joe"}, 400, "input"),
    ({"input": "x" * 4097, "voice": "joe"}, 400, "input"),
    ({"input": "Hello.", "voice": "nobody"}, 400, "voice"),
    ({"input": "Hello.", "voice": "joe", "speed": 9}, 400, "speed"),
    ({"input": "Hello.", "voice": "joe", "response_format": "midi"}, 400, "response_format"),
    ({"input": "Hello.", "voice": "joe", "model": "whisper-1"}, 400, "model"),
    ({"input": "Hello.", "voice": "joe", "emotion": "bored"}, 400, None),
    ({"input": "Hello.", "voice": "joe", "intensity": 3}, 400, "intensity"),
    ({"input": "[happy We won", "voice": "joe"}, 400, "input"),
    ({"input": "☃ ☃ ☃", "voice": "joe"}, 400, None),
    ({"voice": "joe"}, 400, "input"),
    ([1, 2, 3], 400, None),
])
def test_bad_requests_get_a_4xx_in_the_openai_envelope(server, body, status, param):
    response = httpx.post(f"{server.url}/v1/audio/speech", json=body, timeout=30)
    assert response.status_code == status, response.headers.get("content-type")
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["message"]
    assert "Traceback" not in error["message"]
    if param:
        assert error["param"] == param


def test_malformed_bodies_and_unknown_routes(server):
    bad_json = httpx.post(f"{server.url}/v1/audio/speech", content=b"{nope", timeout=30,
                          headers={"content-type": "application/json"})
    assert bad_json.status_code == 400 and "not valid JSON" in bad_json.json()["error"]["message"]
    assert httpx.get(f"{server.url}/v1/nothing").status_code == 404
    wrong_method = httpx.get(f"{server.url}/v1/audio/speech")
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["type"]


def test_concurrent_clients_get_their_own_audio(server, engine):
    texts = {"joe": "The red car stopped.", "jf_alpha": "Apples and pears are on the table today.",
             "jm_kumo": "Yes.", "jf_nezumi": "Please close the window before you leave the house."}

    def fetch(voice: str) -> float:
        response = httpx.post(f"{server.url}/v1/audio/speech", timeout=120,
                              json={"input": texts[voice], "voice": voice, "response_format": "wav"})
        samples, rate = _decode(response.content)
        return len(samples) / rate

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        durations = dict(zip(texts, pool.map(fetch, texts)))
    for voice, text in texts.items():  # the server streams: each against the same stream alone
        expected = sum(piece.duration for piece in engine.stream(text, voice=voice))
        assert durations[voice] == pytest.approx(expected, rel=0.05), (voice, durations[voice], expected)


def test_api_keys_are_required_when_configured(engine):
    app = create_app(engine, ServerSettings(api_keys=("s3cret",), warmup=False))
    with BackgroundServer(app) as live:
        denied = httpx.get(f"{live.url}/v1/voices")
        assert denied.status_code == 401 and denied.json()["error"]["type"] == "authentication_error"
        wrong = httpx.get(f"{live.url}/v1/voices", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        allowed = httpx.get(f"{live.url}/v1/voices", headers={"Authorization": "Bearer s3cret"})
        assert allowed.status_code == 200 and any(v["name"] == "joe" for v in allowed.json()["data"])
        assert httpx.get(f"{live.url}/healthz").status_code == 200  # probes stay open


def test_saturation_answers_429_and_a_disconnect_frees_the_server(engine):
    app = create_app(engine, ServerSettings(scheduling=SchedulerSettings(workers=1, max_waiting=1), warmup=False))
    with BackgroundServer(app) as live:
        def long_request(_):
            return httpx.post(f"{live.url}/v1/audio/speech", timeout=300,
                              json={"input": LONG_TEXT, "voice": "joe", "response_format": "pcm"})

        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            statuses = [r.status_code for r in pool.map(long_request, range(6))]
        assert 429 in statuses and 200 in statuses, statuses

        # A client that hangs up after the first audio stops its synthesis: a short request
        # right after gets the single slot quickly instead of waiting for the long one.
        # (Other sentences than above, which the audio cache now holds.)
        unheard = LONG_TEXT.replace("a long reading", "another story")
        with httpx.stream("POST", f"{live.url}/v1/audio/speech", timeout=120,
                          json={"input": unheard, "voice": "joe", "response_format": "pcm"}) as response:
            next(response.iter_bytes())
        started = time.perf_counter()
        quick = httpx.post(f"{live.url}/v1/audio/speech", timeout=120,
                           json={"input": "Done.", "voice": "joe", "response_format": "wav"})
        assert quick.status_code == 200 and time.perf_counter() - started < 3.0


def test_metrics_count_requests_and_time_to_first_audio(server):
    httpx.post(f"{server.url}/v1/audio/speech", json={"input": "Metrics.", "voice": "joe", "response_format": "wav"},
               timeout=60)
    httpx.post(f"{server.url}/v1/audio/speech", json={"input": "", "voice": "joe"}, timeout=60)
    text = httpx.get(f"{server.url}/metrics").text
    assert 'emovox_requests_total{method="POST",route="/v1/audio/speech",status="200"}' in text
    assert 'emovox_requests_total{method="POST",route="/v1/audio/speech",status="400"}' in text
    assert 'emovox_time_to_first_audio_seconds_count{backend="vits"}' in text
    assert "emovox_real_time_factor_bucket" in text and "emovox_queue_depth" in text


def test_a_short_request_is_not_starved_by_a_long_one(engine):
    """One worker, a twelve-sentence text in progress: a short request still finishes first,
    because the scheduler takes one chunk per request in turn."""
    app = create_app(engine, ServerSettings(scheduling=SchedulerSettings(workers=1), warmup=False))
    long_text = LONG_TEXT.replace("a long reading", "a fair queue")
    finished = {}
    with BackgroundServer(app) as live:
        def fetch(name: str, text: str) -> None:
            httpx.post(f"{live.url}/v1/audio/speech", timeout=300,
                       json={"input": text, "voice": "joe", "response_format": "pcm"}).raise_for_status()
            finished[name] = time.perf_counter()

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            long_done = pool.submit(fetch, "long", long_text)
            time.sleep(0.3)  # the long one is under way
            pool.submit(fetch, "short", "Quick question.").result()
            long_done.result()
    assert finished["short"] < finished["long"]


def test_dynamic_batching_gives_each_request_its_own_audio(engine):
    settings = ServerSettings(scheduling=SchedulerSettings(workers=1, max_batch=4, batch_window_ms=100), warmup=False)
    texts = ["Batch one is here.", "The second sentence is a little longer than the first.",
             "Three.", "Number four arrives last of all."]
    with BackgroundServer(create_app(engine, settings)) as live:
        def fetch(text: str) -> np.ndarray:
            response = httpx.post(f"{live.url}/v1/audio/speech", timeout=120,
                                  json={"input": text, "voice": "joe", "response_format": "wav"})
            return _decode(response.content)[0]

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            batched = list(pool.map(fetch, texts))
        metrics = httpx.get(f"{live.url}/metrics").text
    for text, samples in zip(texts, batched):
        alone = engine.synthesize(text, voice="joe").samples
        assert len(samples) == len(alone)
        assert np.abs(samples - alone).max() < 0.01  # same audio up to float noise of the padded pass
    observed = {line.split()[0]: float(line.split()[1]) for line in metrics.splitlines()
                if line.startswith("emovox_batch_size_")}
    assert observed['emovox_batch_size_count{backend="vits"}'] < len(texts)  # some jobs shared a pass


def test_repeated_text_is_served_from_the_caches(server):
    def cache_counts() -> dict[str, float]:
        text = httpx.get(f"{server.url}/metrics").text
        return {line.split()[0]: float(line.split()[1]) for line in text.splitlines()
                if line.startswith(("emovox_cache_hits_total", "emovox_cache_misses_total"))}

    body = {"input": "Your table for four is ready.", "voice": "jm_kumo", "response_format": "wav"}
    first = httpx.post(f"{server.url}/v1/audio/speech", json=body, timeout=60)
    before = cache_counts()
    again = httpx.post(f"{server.url}/v1/audio/speech", json=body, timeout=60)
    after = cache_counts()
    assert again.content == first.content
    for cache in ("audio", "phonemes", "prosody"):
        assert after[f'emovox_cache_hits_total{{cache="{cache}"}}'] > before[f'emovox_cache_hits_total{{cache="{cache}"}}']
    assert after['emovox_cache_misses_total{cache="audio"}'] == before['emovox_cache_misses_total{cache="audio"}']


@pytest.fixture(scope="module")
def cloning_server(tmp_path_factory):
    """A server over its own engine and store, so uploaded voices stay out of other tests."""
    from emovox import from_packages
    from emovox.voices.sqlite_store import SqliteVoiceStore as VoiceStore

    home = tmp_path_factory.mktemp("server-home")
    app = create_app(from_packages(home=home), ServerSettings(warmup=False, max_upload_bytes=2_000_000),
                     VoiceStore(home))
    with BackgroundServer(app) as live:
        yield live


def _clip(engine) -> bytes:
    audio = engine.synthesize("My grandmother grew tomatoes, beans and sunflowers in her garden every summer.",
                              voice="jm_kumo")
    buffer = io.BytesIO()
    soundfile.write(buffer, audio.samples, audio.sample_rate, format="FLAC")
    return buffer.getvalue()


def test_upload_clone_speak_and_delete(cloning_server, engine):
    url = cloning_server.url
    made = httpx.post(f"{url}/v1/voices", files={"file": ("me.flac", _clip(engine), "audio/flac")},
                      data={"name": "uploaded", "quality": "fast"}, timeout=120)
    assert made.status_code == 201, made.text
    assert made.json()["name"] == "uploaded" and made.json()["similarity"] > 0.8
    assert any(v["name"] == "uploaded" for v in httpx.get(f"{url}/v1/voices").json()["data"])
    spoken = httpx.post(f"{url}/v1/audio/speech", timeout=60,
                        json={"input": "Hello.", "voice": "uploaded", "emotion": "happy", "response_format": "wav"})
    assert spoken.status_code == 200 and len(_decode(spoken.content)[0]) > 0

    job = httpx.post(f"{url}/v1/voices", files={"file": ("me.flac", _clip(engine), "audio/flac")},
                     data={"name": "uploaded-2", "quality": "balanced"}, timeout=60)
    assert job.status_code == 202 and job.json()["status"] == "running"
    deadline = time.time() + 120
    while (state := httpx.get(f"{url}/v1/voices/jobs/{job.json()['id']}").json())["status"] == "running":
        assert time.time() < deadline and 0 <= state["progress"] < 1
        time.sleep(1)
    assert state["status"] == "succeeded" and state["result"]["name"] == "uploaded-2"

    assert httpx.delete(f"{url}/v1/voices/uploaded").status_code == 200
    gone = httpx.post(f"{url}/v1/audio/speech", json={"input": "Hello.", "voice": "uploaded"}, timeout=30)
    assert gone.status_code == 400 and gone.json()["error"]["code"] == "voice_not_found"
    assert httpx.delete(f"{url}/v1/voices/uploaded").status_code == 404
    assert httpx.delete(f"{url}/v1/voices/joe").status_code == 404  # built-ins are not stored voices


@pytest.mark.parametrize("kind, status, message", [
    ("text file", 415, "is text, not audio"),
    ("png image", 415, "image/png"),
    ("random bytes", 400, "could not be decoded as audio"),
    ("too large", 413, "limit"),
    ("no file", 400, "multipart file field"),
    ("bad name", 400, "invalid voice name"),
    ("built-in name", 400, "built-in voice"),
    ("bad quality", 400, "quality must be one of"),
])
def test_bad_uploads_get_specific_errors(cloning_server, engine, kind, status, message):
    clip = _clip(engine) if kind in ("bad name", "built-in name", "bad quality") else b""
    files = {"file": ("clip.wav", clip or b"these are my notes, not audio\n" * 40, "audio/wav")}
    data = {"name": "someone", "quality": "fast"}
    if kind == "png image":
        files = {"file": ("clip.wav", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20, "audio/wav")}
    elif kind == "random bytes":
        files = {"file": ("clip.wav", np.random.default_rng(5).bytes(40_000), "audio/wav")}
    elif kind == "too large":
        files = {"file": ("big.wav", b"\0" * 3_000_000, "audio/wav")}
    elif kind == "no file":
        files = None
    elif kind == "bad name":
        data["name"] = "../../etc/passwd"
    elif kind == "built-in name":
        data["name"] = "alpha"
    elif kind == "bad quality":
        data["quality"] = "ultra"
    response = httpx.post(f"{cloning_server.url}/v1/voices", files=files, data=data, timeout=60)
    assert response.status_code == status, response.text
    assert message in response.json()["error"]["message"]


def test_a_sweep_of_every_kind_of_malformed_request_gets_no_5xx():
    """benchmarks/malformed.py, one request of each kind (the benchmark sends 300)."""
    import json
    import pathlib
    import subprocess
    import sys

    script = pathlib.Path(__file__).parents[1] / "benchmarks" / "malformed.py"
    run = subprocess.run([sys.executable, str(script), "--requests", "37", "--json"], capture_output=True,
                         text=True, timeout=300)
    report = json.loads(run.stdout)
    assert report["requests"] == 37 and report["kinds"] == 37
    assert report["server_errors"] == [] and report["not_4xx_envelope"] == [], run.stdout


@pytest.mark.mandarin
def test_mixed_chinese_and_english_through_the_api(server):
    response = httpx.post(f"{server.url}/v1/audio/speech", timeout=120, json={
        "input": "我们明天用 Python 写一个 demo。", "voice": "baker", "response_format": "wav", "emotion": "happy"})
    samples, rate = _decode(response.content)
    assert response.status_code == 200 and rate == 24_000 and len(samples) / rate > 2.0
    bad = httpx.post(f"{server.url}/v1/audio/speech", json={"input": "你好", "voice": "baker", "lang": "fr"}, timeout=30)
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "lang"
