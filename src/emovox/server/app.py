"""The HTTP API: OpenAI's speech endpoint and its neighbours, over one Engine.

`create_app(engine, settings)` builds the app; nothing lives at module level. Models are
loaded and warmed in the lifespan (`/readyz` is 503 until then). The event loop only routes
bytes: the request is planned in a worker thread (normalization, G2P, a style clip's
analysis), admitted on every lane its plan uses, and the `Scheduler` synthesizes its chunks
one at a time in its workers, so a long text cannot hold the server while short requests
wait, and a client that disconnects stops the work at the next chunk.
"""

from __future__ import annotations

import base64
import hmac
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fastapi import Depends, FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.concurrency import run_in_threadpool

from emovox.audio.pitch import track_f0
from emovox.audio.stream_encode import MEDIA_TYPES, PCM_RATE, StreamEncoder
from emovox.engine import ChunkJob, Engine
from emovox.server import books as book_routes
from emovox.server import errors as error_envelopes
from emovox.server import openapi
from emovox.server import voices as voice_routes
from emovox.server.errors import ApiError
from emovox.server.guard import Guard, Limits
from emovox.server.lifecycle import Lifecycle
from emovox.server.metrics import Metrics, MetricsMiddleware
from emovox.server.openapi import audio_response, errors
from emovox.server.scheduler import Scheduler, SchedulerSettings, Synthesizer
from emovox.server.schemas import MODEL_IDS, SpeechRequest, speech_options
from emovox.server.voice_map import VoiceMap
from emovox.types import AudioChunk
from emovox.voices.clone import Cloner, follow_store
from emovox.voices.intake import MAX_UPLOAD_BYTES
from emovox.voices.store import VoiceStore, open_store

logger = logging.getLogger(__name__)

PLAYGROUND = Path(__file__).with_name("static") / "index.html"
#: The F0 contour of a captioned clip, one value (Hz, 0 when unvoiced) per this many seconds.
CONTOUR_HOP_S = 0.01


@dataclass(frozen=True)
class ServerSettings:
    max_input_chars: int = 4096
    scheduling: SchedulerSettings = SchedulerSettings()
    #: The voice of a request that names none (None: the engine's default).
    default_voice: str | None = None
    request_timeout_s: float = 120.0
    api_keys: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()
    max_upload_bytes: int = MAX_UPLOAD_BYTES
    warmup: bool = True
    #: Long-form jobs (POST /v1/audio/books) rendered by this process's engine.
    book_jobs: bool = True
    #: Refuse clones that bring no consent (a spoken clip or an operator's declaration).
    require_consent: bool = False
    #: OpenAI voice names (or any names) -> voices, over the defaults (server/voice_map.py).
    voice_map: dict[str, str] | None = None
    #: Rate limits, body limits and uploads in flight (server/guard.py).
    limits: Limits = Limits()


def create_app(engine: Engine, settings: ServerSettings = ServerSettings(), store: VoiceStore | None = None,
               synthesizer: Synthesizer | None = None, cloner: Cloner | None = None) -> FastAPI:
    """The API over `engine`; cloned voices are stored in `store` (default: `open_store()`:
    $EMOVOX_STORE, else the SQLite store under $EMOVOX_HOME).

    By default the engine also synthesizes (through a `Scheduler`) and clones, in this
    process. Elsewhere, `engine` only plans and `synthesizer` runs the plans' chunks and
    `cloner` the clones (a Ray Serve ingress hands both to its deployments: emovox.deploy)."""
    state = {"ready": False}
    metrics = Metrics()
    metrics.watch_caches(engine.cache_stats)
    scheduler = synthesizer or Scheduler(engine, settings.scheduling, metrics)
    store = store or open_store()
    voice_map = VoiceMap.build(engine, settings.voice_map)

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        # voices cloned, replaced or deleted by other processes (other replicas) apply here
        await run_in_threadpool(follow_store, engine, store, True)
        if settings.warmup:
            await run_in_threadpool(engine.warmup)
        state["ready"] = True
        yield
        await run_in_threadpool(scheduler.close)
        await run_in_threadpool(store.close)

    app = FastAPI(title="emovox", version="0.1", lifespan=lifespan)
    app.state.lifecycle = lifecycle = Lifecycle()
    error_envelopes.install(app)
    openapi.install(app, settings.max_input_chars, lambda: sorted({*engine.catalogue.names(), *voice_map.names()}))
    app.add_middleware(Guard, lifecycle=lifecycle, limits=settings.limits)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["*"], allow_headers=["*"])

    def authorized(request: Request) -> None:
        if not settings.api_keys:
            return
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not any(hmac.compare_digest(token.encode(), key.encode())
                                                 for key in settings.api_keys):
            raise ApiError(401, "missing or invalid API key; send 'Authorization: Bearer <key>'",
                           "authentication_error", code="invalid_api_key")

    @app.get("/", include_in_schema=False)
    async def playground():
        return FileResponse(PLAYGROUND, media_type="text/html")

    @app.get("/healthz", responses=errors())
    async def healthz():
        return {"status": "ok"}

    @app.get("/readyz", responses=errors())
    async def readyz():
        if lifecycle.draining:
            raise ApiError(503, "the server is shutting down", "server_error", code="shutting_down",
                           headers={"Retry-After": "5"})
        if not state["ready"]:
            raise ApiError(503, "models are still loading", "server_error", code="not_ready",
                           headers={"Retry-After": "5"})
        return {"status": "ready"}

    @app.get("/metrics", response_class=Response, responses={
        200: {"description": "Prometheus exposition", "content": {CONTENT_TYPE_LATEST.split(";")[0]: {
            "schema": {"type": "string"}}}}, **errors()})
    async def prometheus():
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/v1/models", dependencies=[Depends(authorized)], responses=errors(401))
    async def models():
        return {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "emovox"} for m in MODEL_IDS]}

    @app.get("/v1/voices", dependencies=[Depends(authorized)], responses=errors(401))
    async def voices():
        return {"object": "list", "data": [v.to_dict() for v in engine.voices()], "voice_map": voice_map.to_list()}

    @app.get("/v1/emotions", dependencies=[Depends(authorized)], responses=errors(401))
    async def emotions():
        from emovox.emotion.model import EMOTIONS
        from emovox.emotion.presets import DESCRIPTIONS, TARGETS

        return {"object": "list", "data": [{"name": n, "description": DESCRIPTIONS[n], "target": TARGETS[n].to_dict()}
                                           for n in EMOTIONS]}

    voice_routes.install(app, engine, store, authorized, settings.max_upload_bytes, cloner, settings.require_consent)
    if settings.book_jobs:
        book_routes.install(app, engine, authorized, store.home / "books")

    @app.post("/v1/audio/speech", dependencies=[Depends(authorized)], response_class=Response,
              responses={**audio_response("the speech, streamed as it is made: audio in the response_format, "
                                          "or server-sent events with stream_format 'sse'"),
                         **errors(400, 401, 413)})
    async def speech(body: SpeechRequest, request: Request):
        return await respond(body, request, captioned=False)

    @app.post("/v1/audio/captioned_speech", dependencies=[Depends(authorized)], responses=errors(400, 401, 413))
    async def captioned_speech(body: SpeechRequest, request: Request):
        """The whole clip and every word's time, as one JSON object (Kokoro-FastAPI's
        captioned-speech shape: `audio` in base64, `timestamps` of word, start_time, end_time)."""
        return await respond(body, request, captioned=True)

    async def respond(body, request: Request, captioned: bool):
        if body.model not in MODEL_IDS:
            raise ApiError(400, f"unknown model {body.model!r}; use one of {', '.join(MODEL_IDS)}",
                           param="model", code="model_not_found")
        if len(body.input) > settings.max_input_chars:
            raise ApiError(400, f"input is {len(body.input)} characters; the limit is {settings.max_input_chars}",
                           param="input", code="string_above_max_length")
        if body.instructions and len(body.instructions) > settings.max_input_chars:
            raise ApiError(400, f"instructions are {len(body.instructions)} characters; the limit is "
                                f"{settings.max_input_chars}", param="instructions", code="string_above_max_length")
        options = speech_options(body, settings.default_voice or engine.default_voice, voice_map)
        plan = await run_in_threadpool(engine.plan, body.input, options=options)
        voice = plan.voice
        if voice.based_on:  # a cloned voice: every use is in the audit log
            await run_in_threadpool(store.record, "use", voice.name, voice_routes.actor_of(request),
                                    {"endpoint": request.url.path, "chars": len(body.input),
                                     "format": options.format})
        release = scheduler.admit(plan.backends)
        started = time.perf_counter()
        sample_rate = voice.sample_rate
        synthesis = _synthesize(plan.jobs, scheduler, request, started + settings.request_timeout_s, release)
        # A stream the client abandons before the response is sent is never finished, so
        # its `finally` may never run: releasing when it is collected keeps the count honest.
        weakref.finalize(synthesis, release)
        pieces = await _opened(_measured(synthesis, metrics, voice.backend, started))
        fmt = options.format
        rate_sent = PCM_RATE if fmt == "pcm" else sample_rate
        # What the request resolved to (the emotion and the words it came from, the controls),
        # before any audio: ASCII JSON, as headers must be.
        resolved = {"voice": voice.name, "emotion": plan.resolution.to_dict(), "prosody": plan.controls.to_dict(),
                    "warnings": list(plan.warnings)}
        headers = {"X-Sample-Rate": str(rate_sent), "Cache-Control": "no-store",
                   "X-Emovox-Resolved": json.dumps(resolved, separators=(",", ":"))}
        if captioned:
            band = engine.backend_of(voice.name).capabilities.f0_band
            return await _captioned(pieces, fmt, sample_rate, headers, band)
        if body.stream_format == "sse":
            return StreamingResponse(_sse(pieces, fmt, sample_rate),
                                     media_type="text/event-stream", headers=headers)
        return StreamingResponse(_encoded(pieces, fmt, sample_rate),
                                 media_type=MEDIA_TYPES[fmt], headers=headers)

    return app


async def _synthesize(jobs: Iterable[ChunkJob], scheduler: Synthesizer, request: Request,
                      deadline: float, release: Callable[[], None]) -> AsyncIterator[AudioChunk]:
    """The request's chunks through the scheduler, stopping when the client goes away or time is up."""

    async def stopped() -> bool:
        if await request.is_disconnected():
            logger.info("client went away; stopping synthesis")
            return True
        if time.perf_counter() > deadline:
            logger.warning("request exceeded its time limit; stopping synthesis")
            return True
        return False

    try:
        if await stopped():
            return
        async with aclosing(scheduler.chunks(jobs)) as chunks:
            async for chunk in chunks:
                yield chunk
                if await stopped():
                    return
    finally:
        release()


async def _opened(pieces: AsyncIterator[AudioChunk]) -> AsyncIterator[AudioChunk]:
    """`pieces` with its first chunk made before the response starts: a refusal or a failure
    before any audio becomes the request's status (429, 4xx) instead of a 200 whose body is
    cut short. Needed where admission is someone else's: a synthesis deployment on Ray
    Serve refuses a request only when its first chunk is asked for."""
    first = await anext(pieces, None)

    async def stream() -> AsyncIterator[AudioChunk]:
        async with aclosing(pieces):
            if first is not None:
                yield first
                async for chunk in pieces:
                    yield chunk

    return stream()


async def _measured(pieces: AsyncIterator[AudioChunk], metrics: Metrics, backend: str,
                    started: float) -> AsyncIterator[AudioChunk]:
    """Passes chunks through, recording time to first audio and the request's RTF."""
    audio_s = 0.0
    async for chunk in pieces:
        if audio_s == 0.0:
            metrics.first_audio.labels(backend).observe(time.perf_counter() - started)
        audio_s += len(chunk.samples) / chunk.sample_rate
        yield chunk
    if audio_s:
        metrics.audio_seconds.labels(backend).inc(audio_s)
        metrics.rtf.labels(backend).observe((time.perf_counter() - started) / audio_s)


async def _encoded_chunks(pieces: AsyncIterator[AudioChunk], fmt: str,
                          sample_rate: int) -> AsyncIterator[tuple[AudioChunk | None, bytes, float]]:
    """(chunk, its encoded bytes, where it starts in the stream in seconds) for each chunk,
    then (None, the encoder's tail, the stream's length): the one encoding loop every
    response shape (audio, SSE, captioned JSON) is made from."""
    encoder, position = StreamEncoder(fmt, sample_rate), 0.0
    async for chunk in pieces:
        yield chunk, encoder.write(chunk.samples), position
        position += chunk.duration
    yield None, encoder.close(), position


async def _captioned(pieces: AsyncIterator[AudioChunk], fmt: str, sample_rate: int, headers: dict,
                     f0_band: tuple[float, float]) -> JSONResponse:
    """The whole clip, its words' times and its F0 contour (what the playground draws)."""
    parts, words, samples, duration = [], [], [], 0.0
    async for chunk, data, position in _encoded_chunks(pieces, fmt, sample_rate):
        parts.append(data)
        duration = position
        if chunk is not None:
            words += [word.shifted(position) for word in chunk.words]
            samples.append(chunk.samples)
    f0 = await run_in_threadpool(track_f0, np.concatenate(samples), sample_rate, f0_band, CONTOUR_HOP_S)
    return JSONResponse({"audio": base64.b64encode(b"".join(parts)).decode(), "audio_format": fmt,
                         "sample_rate": int(headers["X-Sample-Rate"]), "duration_s": round(duration, 3),
                         "timestamps": [{"word": w.word, "start_time": w.start_s, "end_time": w.end_s} for w in words],
                         "f0": {"hop_s": CONTOUR_HOP_S, "hz": [round(float(v), 1) for v in f0]}}, headers=headers)


async def _encoded(pieces: AsyncIterator[AudioChunk], fmt: str, sample_rate: int) -> AsyncIterator[bytes]:
    async for _, data, _ in _encoded_chunks(pieces, fmt, sample_rate):
        if data:
            yield data


async def _sse(pieces: AsyncIterator[AudioChunk], fmt: str, sample_rate: int) -> AsyncIterator[str]:
    """OpenAI's audio deltas, each chunk's words after its audio as `speech.word` events
    (seconds from the start of the stream), then `speech.audio.done`."""

    def event(payload: dict) -> str:
        return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"

    async for chunk, data, position in _encoded_chunks(pieces, fmt, sample_rate):
        if data:
            yield event({"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()})
        for word in chunk.words if chunk is not None else ():
            yield event({"type": "speech.word", **word.shifted(position).to_dict()})
    yield event({"type": "speech.audio.done"})
