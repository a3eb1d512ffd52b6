"""Who synthesizes what, when: a bounded queue of chunk jobs per backend, and its workers.

The unit of work is one chunk (`ChunkJob`), never a whole request: a request puts its next
chunk in its backend's queue only when the previous one is done, so a long text takes one
place in the line at a time and a short request behind it waits for at most a chunk per
request ahead. A backend's queue is bounded by the requests it admits (429 beyond); a
request is admitted on every lane its plan uses, so the partner voice's chunks of mixed
text count on the lane that synthesizes them.

Workers are threads (ONNX Runtime releases the GIL). Where a backend takes a batch
dimension (VITS), a worker may wait `batch_window_ms` for compatible jobs and run up to
`max_batch` of them in one padded pass; on 2 CPU cores that did not pay
(benchmarks/vits_batching.py), so batching is off unless the settings turn it on.

The engine runs without any of this (`Engine.stream`): the scheduler is the server's way of
sharing one engine, so the same engine can run behind another scheduler (a Ray Serve
deployment, for one).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

from emovox.engine import ChunkJob, Engine
from emovox.errors import BusyError
from emovox.profiles import Profile
from emovox.server.metrics import Metrics
from emovox.types import AudioChunk

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SchedulerSettings:
    #: Chunks one backend synthesizes at once (each with the session's intra-op threads).
    workers: int = 2
    #: Requests a backend admits beyond its workers (each waits its turn) before 429.
    max_waiting: int = 64
    #: How long a worker holding a batchable job waits for more (0: run at once).
    batch_window_ms: float = 0.0
    #: Most jobs in one forward pass (1: no batching).
    max_batch: int = 1

    @classmethod
    def from_profile(cls, profile: Profile, max_waiting: int = 64) -> SchedulerSettings:
        return cls(workers=profile.worker_count, max_waiting=max_waiting,
                   batch_window_ms=profile.batch_window_ms, max_batch=profile.max_batch)


class Busy(BusyError):
    """A backend's queue is full; the client should retry after `retry_after_s`."""

    def __init__(self, backend: str, admitted: int, retry_after_s: int = 1) -> None:
        super().__init__(f"the {backend} voices are busy ({admitted} requests in progress); retry shortly",
                         retry_after_s)


class Lane:
    """One backend's queue of chunk jobs and the worker threads that serve it."""

    def __init__(self, engine: Engine, backend: str, settings: SchedulerSettings, metrics: Metrics) -> None:
        self.backend = backend
        self._engine, self._settings, self._metrics = engine, settings, metrics
        self._limit = settings.workers + settings.max_waiting
        self._queue: deque[tuple[ChunkJob, Future]] = deque()
        self._changed = threading.Condition()
        self._workers: list[threading.Thread] = []
        self._closed = False
        self.admitted = 0

    def admit(self) -> Callable[[], None]:
        """Count a request in, or raise Busy; returns the (idempotent) release for its end."""
        with self._changed:
            if self.admitted >= self._limit:
                raise Busy(self.backend, self.admitted)
            self.admitted += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._changed:
                if not released:
                    released = True
                    self.admitted -= 1

        return release

    def submit(self, job: ChunkJob) -> Future:
        future: Future = Future()
        with self._changed:
            if self._closed:
                raise RuntimeError("the scheduler is shut down")
            if not self._workers:
                self._start_workers()
            self._queue.append((job, future))
            self._metrics.queue_depth.labels(self.backend).set(len(self._queue))
            self._changed.notify()
        return future

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            pending, self._queue = list(self._queue), deque()
        for _, future in pending:
            future.cancel()
        for worker in self._workers:
            worker.join(timeout=30)

    def _start_workers(self) -> None:
        for number in range(self._settings.workers):
            worker = threading.Thread(target=self._work, name=f"emovox-{self.backend}-{number}", daemon=True)
            worker.start()
            self._workers.append(worker)

    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                batch = self._gather()
                self._metrics.queue_depth.labels(self.backend).set(len(self._queue))
            self._run(batch)

    def _gather(self) -> list[tuple[ChunkJob, Future]]:
        """The oldest job, plus jobs that can share its forward pass (called holding the lock)."""
        batch = [self._queue.popleft()]
        key = self._engine.batch_key(batch[0][0])
        if key is None or self._settings.max_batch <= 1:
            return batch
        deadline = time.monotonic() + self._settings.batch_window_ms / 1000
        while len(batch) < self._settings.max_batch:
            compatible = [item for item in self._queue if self._engine.batch_key(item[0]) == key]
            for item in compatible[: self._settings.max_batch - len(batch)]:
                self._queue.remove(item)
                batch.append(item)
            remaining = deadline - time.monotonic()
            if len(batch) >= self._settings.max_batch or remaining <= 0 or self._closed:
                break
            self._changed.wait(remaining)
        return batch

    def _run(self, batch: list[tuple[ChunkJob, Future]]) -> None:
        live = [(job, future) for job, future in batch if future.set_running_or_notify_cancel()]
        if not live:
            return
        self._metrics.batch_size.labels(self.backend).observe(len(live))
        self._metrics.in_flight.labels(self.backend).inc(len(live))
        try:
            waveforms = self._engine.infer_batch([job for job, _ in live])
            chunks = [self._engine.finish(job, samples) for (job, _), samples in zip(live, waveforms)]
        except Exception as e:  # handed to the request that asked; the worker lives on
            logger.exception("synthesis failed on %s", self.backend)
            for _, future in live:
                future.set_exception(e)
        else:
            for (_, future), chunk in zip(live, chunks):
                future.set_result(chunk)
        finally:
            self._metrics.in_flight.labels(self.backend).dec(len(live))


class Synthesizer(Protocol):
    """What the server needs from whoever synthesizes: this process's `Scheduler`, or
    deployments elsewhere (emovox.deploy)."""

    def admit(self, backends: str | Iterable[str]) -> Callable[[], None]: ...

    def chunks(self, jobs: Iterable[ChunkJob]) -> AsyncIterator[AudioChunk]: ...

    def close(self) -> None: ...


class Scheduler:
    """A lane per backend of one engine."""

    def __init__(self, engine: Engine, settings: SchedulerSettings = SchedulerSettings(),
                 metrics: Metrics | None = None) -> None:
        metrics = metrics or Metrics()
        self._lanes = {backend.name: Lane(engine, backend.name, settings, metrics) for backend in engine.backends}

    def admit(self, backends: str | Iterable[str]) -> Callable[[], None]:
        """Count a request in on every lane it will use, or raise Busy (admitting on none);
        returns the (idempotent) release of all of them, for the request's end."""
        releases: list[Callable[[], None]] = []
        try:
            for backend in [backends] if isinstance(backends, str) else dict.fromkeys(backends):
                releases.append(self._lanes[backend].admit())
        except Busy:
            for release in releases:
                release()
            raise

        def release_all() -> None:
            for release in releases:
                release()

        return release_all

    async def chunks(self, jobs: Iterable[ChunkJob]) -> AsyncIterator[AudioChunk]:
        """A request's chunks in order, each synthesized by its backend's workers."""
        for job in jobs:
            yield await self.run(job)

    async def run(self, job: ChunkJob) -> AudioChunk:
        """The finished chunk of `job`; cancelling this drops the job if it has not started."""
        return await asyncio.wrap_future(self._lanes[job.backend].submit(job))

    def close(self) -> None:
        for lane in self._lanes.values():
            lane.close()
