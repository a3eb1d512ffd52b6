"""Conformance: the official `openai` client, unchanged, against the server. Fast tier.

What an app written for OpenAI's speech endpoint does on its first requests: OpenAI's voice
names and models, every response_format, sync and async, whole and streamed, server-sent
events read with the client's own decoder, `instructions`, and every error as the exception
class the client raises for that status (with OpenAI's fields).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json

import numpy as np
import openai
import pytest
import soundfile
from openai._streaming import SSEDecoder

from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer
from emovox.server.guard import Limits
from emovox.server.scheduler import SchedulerSettings
from emovox.voices.sqlite_store import SqliteVoiceStore

OPENAI_VOICES = ("alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse",
                 "marin", "cedar")
OPENAI_MODELS = ("tts-1", "tts-1-hd", "gpt-4o-mini-tts", "gpt-4o-mini-tts-2025-12-15")
#: How each format's bytes begin (pcm has no header: 16-bit little-endian mono at 24 kHz).
MAGIC = {"mp3": (b"ID3", b"\xff"), "opus": (b"OggS",), "aac": (b"\xff",), "flac": (b"fLaC",), "wav": (b"RIFF",)}


@pytest.fixture(scope="module")
def server(tiny_engine, tmp_path_factory):
    settings = ServerSettings(scheduling=SchedulerSettings(workers=2), api_keys=("sk-local",))
    app = create_app(tiny_engine, settings, SqliteVoiceStore(tmp_path_factory.mktemp("store")))
    with BackgroundServer(app) as live:
        yield live


@pytest.fixture
def client(server):
    return openai.OpenAI(base_url=f"{server.url}/v1", api_key="sk-local", max_retries=0)


def _seconds(fmt: str, data: bytes) -> float:
    if fmt == "pcm":
        return len(data) / 2 / 24_000
    import av

    with av.open(io.BytesIO(data)) as container:
        return sum(frame.samples / frame.sample_rate for frame in container.decode(audio=0))


@pytest.mark.parametrize("fmt", ["mp3", "opus", "aac", "flac", "wav", "pcm"])
def test_every_response_format_whole_and_streamed(client, fmt):
    whole = client.audio.speech.create(model="tts-1", voice="alloy", input="Every format works.",
                                       response_format=fmt)
    with client.audio.speech.with_streaming_response.create(model="gpt-4o-mini-tts", voice="nova", input="Streamed too.",
                                                            response_format=fmt) as streamed:
        assert streamed.headers["content-type"].startswith("audio/")
        pieces = list(streamed.iter_bytes())
    for data in (whole.content, b"".join(pieces)):
        assert fmt == "pcm" or data.startswith(MAGIC[fmt])
        assert _seconds(fmt, data) > 0.5


def test_every_openai_voice_and_model_speaks(client):
    for voice, model in zip(OPENAI_VOICES, OPENAI_MODELS * 4):
        response = client.audio.speech.with_raw_response.create(model=model, voice=voice, input="Hi.",
                                                                response_format="wav")
        assert response.http_response.status_code == 200
        samples, _ = soundfile.read(io.BytesIO(response.content), dtype="float32")
        assert np.abs(samples).max() > 0.05, voice
    custom = client.audio.speech.create(model="tts-1", voice={"id": "alloy"}, input="A voice object.",
                                        response_format="wav")
    assert custom.content.startswith(b"RIFF")


def test_sse_events_read_by_the_clients_own_decoder(client):
    with client.audio.speech.with_streaming_response.create(model="gpt-4o-mini-tts", voice="coral", input="Hello there.",
                                                            response_format="pcm", stream_format="sse") as streamed:
        assert streamed.headers["content-type"].startswith("text/event-stream")
        events = [json.loads(event.data) for event in SSEDecoder().iter_bytes(streamed.iter_bytes())]
    kinds = [event["type"] for event in events]
    assert kinds[0] == "speech.audio.delta" and kinds[-1] == "speech.audio.done"
    audio = b"".join(base64.b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta")
    assert len(audio) / 2 / 24_000 > 0.5
    assert [e["word"] for e in events if e["type"] == "speech.word"] == ["Hello", "there"]


def test_instructions_set_the_style(client):
    response = client.audio.speech.with_raw_response.create(
        model="gpt-4o-mini-tts", voice="alloy", input="We won the game!", response_format="wav",
        instructions="Speak in a cheerful and positive tone, really excited.")
    resolved = json.loads(response.headers["x-emovox-resolved"])
    assert resolved["emotion"]["emotion"]["name"] == "happy"
    with pytest.raises(openai.BadRequestError) as refused:
        client.audio.speech.create(model="gpt-4o-mini-tts", voice="alloy", input="Hi.", instructions="x" * 5000)
    assert refused.value.body["param"] == "instructions" and refused.value.body["code"] == "string_above_max_length"


def test_async_client_streams_concurrently(server):
    async def main() -> list[bytes]:
        client = openai.AsyncOpenAI(base_url=f"{server.url}/v1", api_key="sk-local", max_retries=0)

        async def one(n: int) -> bytes:
            async with client.audio.speech.with_streaming_response.create(
                    model="tts-1", voice="echo", input=f"Request number {n}.", response_format="pcm") as streamed:
                return b"".join([piece async for piece in streamed.iter_bytes()])

        whole = await client.audio.speech.create(model="tts-1", voice="fable", input="Async.", response_format="wav")
        streams = await asyncio.gather(*(one(n) for n in range(4)))
        await client.close()
        return [whole.content, *streams]

    whole, *streams = asyncio.run(main())
    assert whole.startswith(b"RIFF") and all(len(s) / 2 / 24_000 > 0.5 for s in streams)


@pytest.mark.parametrize("call, error, param, code", [
    (dict(voice="no-such-voice"), openai.BadRequestError, "voice", "voice_not_found"),
    (dict(model="dall-e-3"), openai.BadRequestError, "model", "model_not_found"),
    (dict(response_format="ogg"), openai.BadRequestError, "response_format", None),
    (dict(speed=9.0), openai.BadRequestError, "speed", None),
    (dict(input=""), openai.BadRequestError, "input", None),
    (dict(stream_format="json"), openai.BadRequestError, "stream_format", None),
])
def test_errors_raise_the_clients_exceptions_with_openais_fields(client, call, error, param, code):
    request = dict(model="tts-1", voice="alloy", input="Hello.") | call
    with pytest.raises(error) as raised:
        client.audio.speech.create(**request)
    assert raised.value.body["param"] == param and raised.value.body["message"]
    assert code is None or raised.value.body["code"] == code


def test_a_wrong_key_and_a_spent_rate_limit(server, tiny_engine, tmp_path):
    wrong = openai.OpenAI(base_url=f"{server.url}/v1", api_key="sk-wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        wrong.audio.speech.create(model="tts-1", voice="alloy", input="Hello.")
    settings = ServerSettings(api_keys=("sk-local",), limits=Limits(per_key="3/minute"))
    with BackgroundServer(create_app(tiny_engine, settings, SqliteVoiceStore(tmp_path))) as limited_server:
        limited = openai.OpenAI(base_url=f"{limited_server.url}/v1", api_key="sk-local", max_retries=0)
        for _ in range(3):
            limited.models.list()
        with pytest.raises(openai.RateLimitError) as raised:
            limited.audio.speech.create(model="tts-1", voice="alloy", input="Hello.")
    assert int(raised.value.response.headers["retry-after"]) >= 1
    assert raised.value.body["code"] == "rate_limit_exceeded"
