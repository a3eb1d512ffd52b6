"""Who synthesizes what, when: a bounded queue of synthesis steps per backend, and its workers.

The unit of work is one step of one chunk (`ChunkJob`), never a whole request. A chunk whose
backend decodes in windows is several steps: its text side and first window, then each
further window (engine/windows.py); any other chunk is one step. A request puts its next
chunk in its backend's queue only when the previous one is done, so a long text takes one
place in the line at a time.

Workers take a new request's first step before anything else (in order of arrival), then
the step that is due first. Every request is a listener playing its audio from its first
piece on (server/playback.py): each later step of it, the first step of its next sentence
included, is due when what it has heard so far finishes playing. So a new request's first
audio waits only for the step in progress, and a stream with seconds of audio in hand lets
a stream about to run dry go before it. (Taking every chunk's first step before any later
step let ten joe listeners run dry at once: their next sentences' text sides went ahead of
everyone's second windows. Taking a new request's first step by due time too, 250 ms after
it came in, kept as many listeners playing but made eight back-to-back Kokoro clients,
more than two cores can keep playing, wait 1.9 s for their first audio instead of 0.26 s.)
After a chunk's last piece, a worker waits a moment for a new request before it begins a
later step (`Lane._anticipate`): a client that asks again as soon as its audio is done
would otherwise arrive just after the worker began another stream's step and wait for all
of it (eight back-to-back Kokoro clients: 538-604 ms in line for a first step of 240 ms).
A backend's queue is bounded by the requests it admits (429 beyond); a request is admitted on
every lane its plan uses, so the partner voice's chunks of mixed text count on the lane
that synthesizes them.

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
import heapq
import itertools
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from emovox.engine import ChunkJob, Engine
from emovox.errors import BusyError
from emovox.profiles import Profile
from emovox.server.metrics import Metrics
from emovox.server.playback import Listener
from emovox.types import AudioChunk

logger = logging.getLogger(__name__)

#: After a chunk ends, how long a worker waits for a new request before a later step: this
#: share of a typical later step, and at most this long (`Lane._anticipate`).
ANTICIPATION_SHARE = 0.15
ANTICIPATION_MAX_S = 0.1
#: Weight of each new step in the moving average of a step's time.
TYPICAL_WEIGHT = 0.2


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


class _Task:
    """A chunk on its way through a lane: its pieces so far, where each one goes, and the
    request's listener (whose playback says when the next piece is due)."""

    def __init__(self, job: ChunkJob, deliver: Callable[[AudioChunk | BaseException], None],
                 listener: Listener) -> None:
        self.job = job
        self.deliver = deliver
        self.listener = listener
        self.pieces: Iterator[AudioChunk] | None = None
        self.cancelled = False
        #: When its next step went into line (metrics: how long steps wait).
        self.queued_at = 0.0

    @property
    def kind(self) -> str:
        """"first" until the request's listener has heard something, then "later"."""
        return "first" if self.listener.first is None else "later"

    @property
    def order(self) -> tuple[int, float]:
        """Where this task's next step stands in line (module docstring): a request not yet
        heard by arrival, before any other by when it is due."""
        if self.kind == "first":
            return 0, self.listener.opened
        return 1, self.listener.due()


class Lane:
    """One backend's queue of chunk steps and the worker threads that serve it."""

    def __init__(self, engine: Engine, backend: str, settings: SchedulerSettings, metrics: Metrics) -> None:
        self.backend = backend
        self._engine, self._settings, self._metrics = engine, settings, metrics
        self._limit = settings.workers + settings.max_waiting
        self._steps: list[tuple[tuple[int, float], int, _Task]] = []  # a heap: (order, arrival, task)
        self._arrivals = itertools.count()
        self._changed = threading.Condition()
        self._workers: list[threading.Thread] = []
        self._closed = False
        self.admitted = 0
        #: A moving average of how long a stream's later step takes here (`_anticipate`).
        self._typical_later_s = 0.0

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

    def submit(self, task: _Task) -> None:
        """Queue `task`'s next step in its place in line (`_Task.order`)."""
        with self._changed:
            if self._closed:
                raise RuntimeError("the scheduler is shut down")
            if not self._workers:
                self._start_workers()
            task.queued_at = time.perf_counter()
            heapq.heappush(self._steps, (task.order, next(self._arrivals), task))
            self._metrics.queue_depth.labels(self.backend).set(len(self._steps))
            self._changed.notify()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            pending = [task for *_, task in self._steps]
            self._steps.clear()
        for task in pending:
            task.deliver(RuntimeError("the scheduler is shut down"))
        for worker in self._workers:
            worker.join(timeout=30)

    def _start_workers(self) -> None:
        for number in range(self._settings.workers):
            worker = threading.Thread(target=self._work, name=f"emovox-{self.backend}-{number}", daemon=True)
            worker.start()
            self._workers.append(worker)

    def _work(self) -> None:
        ended_a_chunk = False
        while True:
            with self._changed:
                if ended_a_chunk:
                    self._anticipate()
                while not self._steps and not self._closed:  # (another worker may have taken it)
                    self._changed.wait()
                if self._closed:
                    return
                batch = self._gather()
                self._metrics.queue_depth.labels(self.backend).set(len(self._steps))
            live = [task for task in batch if not task.cancelled]
            ended_a_chunk = False
            if len(live) > 1:
                self._run_batch(live)
            elif live:
                ended_a_chunk = self._step(live[0])

    def _anticipate(self) -> None:
        """After a chunk's last piece, wait a moment for a new request before starting a later
        step (called holding the lock): a client reading a text in turns, or a voice assistant
        answering, asks again the moment its audio is done, which is the moment the worker
        would begin another stream's step, and its first audio would wait that step's whole
        length (benchmarks/README.md). The wait is a small share of what a later step
        typically takes here (nothing to speak of where steps are short, as heart's are), and
        ends as soon as a new request is in line (anticipatory scheduling, as disks do for a
        process's next read)."""
        deadline = time.perf_counter() + min(ANTICIPATION_MAX_S, ANTICIPATION_SHARE * self._typical_later_s)
        while self._steps and self._steps[0][2].kind != "first" and not self._closed:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return
            self._changed.wait(remaining)

    def _gather(self) -> list[_Task]:
        """The first step in line, plus chunks not yet started that can share its forward pass
        (called holding the lock)."""
        batch = [heapq.heappop(self._steps)[2]]
        if batch[0].pieces is not None or self._settings.max_batch <= 1:
            return batch
        key = self._engine.batch_key(batch[0].job)
        if key is None:
            return batch
        deadline = time.monotonic() + self._settings.batch_window_ms / 1000
        while len(batch) < self._settings.max_batch:
            compatible = [entry for entry in sorted(self._steps)
                          if entry[2].pieces is None and self._engine.batch_key(entry[2].job) == key]
            for entry in compatible[: self._settings.max_batch - len(batch)]:
                self._steps.remove(entry)
                batch.append(entry[2])
            heapq.heapify(self._steps)
            remaining = deadline - time.monotonic()
            if len(batch) >= self._settings.max_batch or remaining <= 0 or self._closed:
                break
            self._changed.wait(remaining)
        return batch

    def _step(self, task: _Task) -> bool:
        """The task's next piece, handed to its request; the task goes back in line for the
        piece after unless this one was its chunk's last. Whether the chunk ended."""
        kind, started = task.kind, time.perf_counter()
        self._metrics.step_wait.labels(self.backend, kind).observe(started - task.queued_at)
        self._metrics.in_flight.labels(self.backend).inc()
        try:
            if task.pieces is None:
                self._metrics.batch_size.labels(self.backend).observe(1)
                task.pieces = self._engine.render_pieces(task.job)
            piece = next(task.pieces)
        except Exception as e:  # handed to the request that asked; the worker lives on
            logger.exception("synthesis failed on %s", self.backend)
            task.deliver(e)
            return True
        finally:
            self._metrics.in_flight.labels(self.backend).dec()
            took = time.perf_counter() - started
            self._metrics.step_seconds.labels(self.backend, kind).observe(took)
            if kind == "later":
                self._typical_later_s += TYPICAL_WEIGHT * (took - self._typical_later_s)
        task.listener.received(time.perf_counter(), piece.duration)
        task.deliver(piece)
        if not piece.final and not task.cancelled:
            try:
                self.submit(task)
            except RuntimeError as e:
                task.deliver(e)
        return piece.final

    def _run_batch(self, tasks: list[_Task]) -> None:
        """Whole chunks of batchable jobs in one padded forward pass (one piece each)."""
        self._metrics.batch_size.labels(self.backend).observe(len(tasks))
        self._metrics.in_flight.labels(self.backend).inc(len(tasks))
        try:
            waveforms = self._engine.infer_batch([task.job for task in tasks])
            chunks = [self._engine.finish(task.job, samples) for task, samples in zip(tasks, waveforms)]
        except Exception as e:  # handed to the requests that asked; the worker lives on
            logger.exception("synthesis failed on %s", self.backend)
            for task in tasks:
                task.deliver(e)
        else:
            for task, chunk in zip(tasks, chunks):
                task.listener.received(time.perf_counter(), chunk.duration)
                task.deliver(chunk)
        finally:
            self._metrics.in_flight.labels(self.backend).dec(len(tasks))


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
        """A request's audio in order, each chunk in the pieces its backend's workers make it in,
        every step due when the request's listener would otherwise run dry."""
        listener = Listener(opened=time.perf_counter())
        for job in jobs:
            async for piece in self.pieces(job, listener):
                yield piece

    async def pieces(self, job: ChunkJob, listener: Listener | None = None) -> AsyncIterator[AudioChunk]:
        """The pieces of `job` as they are made (due by `listener`'s playback: a new one when
        None); leaving early drops the steps not yet run."""
        loop = asyncio.get_running_loop()
        arrived: asyncio.Queue[AudioChunk | BaseException] = asyncio.Queue()

        def deliver(item: AudioChunk | BaseException) -> None:
            try:
                loop.call_soon_threadsafe(arrived.put_nowait, item)
            except RuntimeError:  # the request's event loop is gone
                task.cancelled = True

        task = _Task(job, deliver, listener or Listener(opened=time.perf_counter()))
        self._lanes[job.backend].submit(task)
        try:
            while True:
                item = await arrived.get()
                if isinstance(item, BaseException):
                    raise item
                yield item
                if item.final:
                    return
        finally:
            task.cancelled = True

    def close(self) -> None:
        for lane in self._lanes.values():
            lane.close()
