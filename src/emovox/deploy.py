"""emovox on Ray Serve: the OpenAI-compatible app as the ingress, a synthesis deployment per
model family, and a cloning deployment, all sharing one voice store.

    serve run emovox.deploy:app                       # Ray's own CLI, defaults below
    serve deploy serve-config.yaml                    # e.g. written by `emovox plan --emit-serve-config`
    emovox serve --ray auto [--config FILE]           # the same, from emovox

The graph (needs `pip install 'emovox[ray]'`):

    Ingress    the existing app (auth, validation before the stream opens, the error envelope,
               429 with Retry-After, encoding, the playground, /metrics). Its engine plans
               requests and never loads a model: it sends each run of a plan's chunks to the
               deployment of their model family and streams the chunks back as they come.
    Synthesis  one deployment per family ("synthesis-vits", "synthesis-kokoro", ...). Each
               replica builds its own engine for its backends, with ONNX Runtime threads equal
               to its `num_cpus` (Ray's OMP_NUM_THREADS does not reach ONNX Runtime), and the
               server's fair chunk scheduler inside it, capped by `max_ongoing_requests`.
               A client that disconnects cancels the stream, and the replica stops at its
               next chunk.
    Cloning    makes clones and writes them to the store; every other replica finds a new
               voice on the first request that names it (read-through) and hears deletes
               (PostgreSQL NOTIFY). Across machines the store must be shared:
               EMOVOX_STORE=postgresql://...

Nothing here is built at import: the engines are made inside the replicas (an engine does
not pickle). Settings come from the application's arguments (`build_app`), which a Serve
config file sets under `args`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Iterable

from ray import serve
from ray.serve.exceptions import BackPressureError
from ray.serve.handle import DeploymentHandle

from emovox.deploy_settings import AppArgs
from emovox.engine import ChunkJob
from emovox.errors import BusyError, EmovoxError
from emovox.types import AudioChunk

#: Serve's logger: it writes to each replica's own log file (logs/serve/replica_*.log).
log = logging.getLogger("ray.serve")

#: How long a later run of a started stream waits for a full deployment, and how often it asks.
PATIENCE_S, PATIENCE_STEP_S = 30.0, 0.25


def _threads(num_cpus: float) -> int:
    return max(1, int(num_cpus))


@serve.deployment(ray_actor_options={"num_cpus": 1})
class Synthesis:
    """One model family's replicas: plans arrive as chunk jobs, chunks stream back."""

    def __init__(self, backends: list[str], num_cpus: float = 1.0) -> None:
        from emovox.backends.session import SessionSettings
        from emovox.compose import from_packages
        from emovox.server.allocator import tune_for_serving
        from emovox.server.scheduler import Scheduler, SchedulerSettings
        from emovox.voices.clone import follow_store
        from emovox.voices.store import open_store

        tune_for_serving()  # a replica serves for as long as `emovox serve` does
        threads = _threads(num_cpus)
        settings = SessionSettings(intra_op_threads=threads, memory_arena="shrinking")  # as the serving profiles
        self.engine = from_packages(settings, backends=tuple(backends), audio_cache_bytes=0)
        self.store = open_store()
        follow_store(self.engine, self.store, watch=True)
        self.engine.warmup(windows=False)  # as quick to come up as before streaming in windows
        # one chunk at a time on all of the replica's threads, requests taking turns chunk by chunk
        self.scheduler = Scheduler(self.engine, SchedulerSettings(workers=1))

    async def synthesize(self, jobs: list[ChunkJob]) -> AsyncIterator[AudioChunk]:
        """The chunks of `jobs` in order, each in its pieces; cancelled (the client went away)
        between pieces."""
        from contextlib import aclosing

        for voice in dict.fromkeys(job.voice for job in jobs):  # a clone made elsewhere: read through
            await asyncio.to_thread(self.engine.catalogue.entry, voice)
        release = self.scheduler.admit(dict.fromkeys(job.backend for job in jobs))
        sent = 0
        try:
            async with aclosing(self.scheduler.chunks(jobs)) as chunks:
                async for chunk in chunks:
                    yield chunk
                    sent += chunk.final
        except (asyncio.CancelledError, GeneratorExit):
            log.info("stream cancelled after %d of %d chunks: the caller went away", sent, len(jobs))
            raise
        finally:
            release()

    def voices(self) -> list[str]:
        return [voice.name for voice in self.engine.voices()]

    def pid(self) -> int:
        return os.getpid()

    def __del__(self) -> None:
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            scheduler.close()


@serve.deployment(ray_actor_options={"num_cpus": 1})
class Cloning:
    """Makes clones and writes them to the shared store."""

    def __init__(self) -> None:
        from emovox.compose import from_packages
        from emovox.voices.clone import METHODS
        from emovox.voices.store import open_store

        self.engine = from_packages(backends=tuple(METHODS), audio_cache_bytes=0)  # the families clones go onto
        self.store = open_store()

    def clone(self, data: bytes, name: str, quality: str, force: bool, denoise: str, backend: str, consent=None,
              require_consent: bool = False, actor: str = ""):
        from emovox.voices.clone import clone

        return clone(self.engine, self.store, data, name, quality, force, denoise, backend, consent=consent,
                     require_consent=require_consent, actor=actor)


class RemoteSynthesizer:
    """The server's `Synthesizer` over synthesis deployments: each run of a plan's chunks
    that one family speaks goes to that family's deployment as one streaming call."""

    def __init__(self, handles: dict[str, DeploymentHandle]) -> None:
        self._handles = {backend: handle.options(stream=True) for backend, handle in handles.items()}

    def admit(self, backends: str | Iterable[str]) -> Callable[[], None]:
        """Admission is the deployments' (max_ongoing_requests, max_queued_requests)."""
        return lambda: None

    async def chunks(self, jobs: Iterable[ChunkJob]) -> AsyncIterator[AudioChunk]:
        for number, run in enumerate(_runs(list(jobs))):
            async for chunk in self._run(run, patient=number > 0):
                yield chunk

    async def _run(self, run: list[ChunkJob], patient: bool) -> AsyncIterator[AudioChunk]:
        """One family's chunks. A deployment that is full refuses the request's first run (a
        429 before any audio: the app asks for the first chunk before it answers); a later
        run, of mixed text whose audio has begun, waits for room rather than cut it short."""
        waited = 0.0
        while True:
            stream = None
            try:
                stream = self._handles[run[0].backend].synthesize.remote(run)
                async for chunk in stream:
                    yield chunk
                return
            except BackPressureError as refused:
                if not patient or waited >= PATIENCE_S:
                    raise _in_our_terms(refused) from None
            except Exception as e:  # noqa: BLE001 - a replica's refusal, in the server's terms
                raise _in_our_terms(e) from None
            finally:
                if stream is not None:  # a client gone mid-stream: the replica stops at its next chunk
                    with contextlib.suppress(Exception):  # cancelling a refused call raises the refusal again
                        stream.cancel()
            await asyncio.sleep(PATIENCE_STEP_S)
            waited += PATIENCE_STEP_S

    def close(self) -> None:
        """The deployments outlive an ingress replica."""


def _runs(jobs: list[ChunkJob]) -> list[list[ChunkJob]]:
    """Consecutive jobs of one backend, together (mixed text alternates families)."""
    runs: list[list[ChunkJob]] = []
    for job in jobs:
        if runs and runs[-1][0].backend == job.backend:
            runs[-1].append(job)
        else:
            runs.append([job])
    return runs


def _in_our_terms(error: Exception) -> Exception:
    """Ray's wrapping off: our own errors keep their HTTP status; Serve's back-pressure is a 429."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, EmovoxError):
        return cause
    if isinstance(error, BackPressureError):
        return BusyError("every synthesis replica is busy; retry shortly", retry_after_s=1)
    return error


def _remote_cloner(handle: DeploymentHandle):
    def cloner(data: bytes, name: str, quality: str = "balanced", force: bool = False, denoise: str = "auto",
               backend: str = "kokoro", progress=None, *, consent=None, require_consent: bool = False,
               actor: str = ""):
        try:
            return handle.clone.remote(data, name, quality, force, denoise, backend, consent, require_consent,
                                       actor).result()
        except Exception as e:  # noqa: BLE001 - see _in_our_terms
            raise _in_our_terms(e) from None

    return cloner


@serve.deployment(ray_actor_options={"num_cpus": 0.25})
@serve.ingress()
class Ingress:
    """The OpenAI-compatible app; planning here, synthesis and cloning in their deployments."""

    def __init__(self, synthesis: dict[str, DeploymentHandle], cloning: DeploymentHandle, default_voice: str,
                 api_keys: list[str], require_consent: bool = False) -> None:
        self._synthesis, self._cloning = synthesis, cloning
        self._default_voice, self._api_keys = default_voice, tuple(api_keys)
        self._require_consent = require_consent

    def __serve_build_asgi_app__(self):
        from emovox.compose import from_packages
        from emovox.server.app import ServerSettings, create_app
        from emovox.voices.store import open_store

        # every family's backend, for planning: sessions load lazily and planning never runs them
        engine = from_packages(backends=tuple(self._synthesis), audio_cache_bytes=0)
        settings = ServerSettings(default_voice=self._default_voice, api_keys=self._api_keys, warmup=False,
                                  book_jobs=False, require_consent=self._require_consent)
        return create_app(engine, settings, open_store(), RemoteSynthesizer(self._synthesis),
                          _remote_cloner(self._cloning))


def build_app(args: dict | None = None):
    """The application for `serve run emovox.deploy:build_app key=value ...` or a config file."""
    from emovox.compose import available_backends

    unknown = set(args or {}) - set(AppArgs.__dataclass_fields__)
    if unknown:
        raise ValueError(f"unknown emovox.deploy args {sorted(unknown)}; it takes {sorted(AppArgs.__dataclass_fields__)}")
    settings = AppArgs(**(args or {}))
    backends = settings.backends or list(available_backends())
    options = {"max_ongoing_requests": settings.max_ongoing_requests,
               "max_queued_requests": settings.max_queued_requests,
               "autoscaling_config": settings.autoscaling,
               "ray_actor_options": {"num_cpus": settings.num_cpus}}
    synthesis = {backend: Synthesis.options(name=f"synthesis-{backend}", **options).bind([backend], settings.num_cpus)
                 for backend in backends}
    cloning = Cloning.options(ray_actor_options={"num_cpus": settings.cloning_cpus}).bind()
    return Ingress.options(ray_actor_options={"num_cpus": settings.ingress_cpus},
                           max_ongoing_requests=settings.ingress_max_ongoing_requests).bind(
        synthesis, cloning, settings.default_voice, settings.api_keys, settings.require_consent)


#: `serve run emovox.deploy:app`: every installed family, the defaults above.
app = build_app()
