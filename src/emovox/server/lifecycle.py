"""Serving until told to stop, and stopping without cutting anyone off.

A SIGTERM (a deploy, `systemctl stop`, Kubernetes) starts a drain: the server keeps its port
open and answers every new request with a 503 and `Retry-After` (so a load balancer or a
retrying client goes elsewhere, and `/readyz` says so), while the streams already in flight
play to their end. When the last one finishes, or the drain deadline passes, uvicorn's own
shutdown runs: it closes the port, cancels what is left and runs the app's lifespan exit
(the scheduler's workers, the voice store). A second SIGTERM or SIGINT skips the wait.

Closing the port at once, as uvicorn does by itself, would turn every new request into a
connection refused, which clients report as the server being down rather than busy.
"""

from __future__ import annotations

import logging
import threading
import time
from types import FrameType

import uvicorn

from emovox.server.allocator import tune_for_serving

logger = logging.getLogger(__name__)

#: How long a drain waits for the streams in flight by default (seconds).
DRAIN_S = 30.0
#: How long uvicorn's shutdown then waits for connections before cancelling them.
_CLOSE_S = 2.0


class Lifecycle:
    """Requests in flight, and whether the server is draining (shared with the request guard)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.in_flight = 0
        self.drain_deadline: float | None = None

    @property
    def draining(self) -> bool:
        return self.drain_deadline is not None

    def begin_drain(self, seconds: float) -> None:
        if self.drain_deadline is None:
            self.drain_deadline = time.monotonic() + seconds

    def drained(self) -> bool:
        """Nothing is in flight any more, or the deadline has passed."""
        return self.draining and (self.in_flight == 0 or time.monotonic() >= self.drain_deadline)

    def entered(self) -> None:
        with self._lock:
            self.in_flight += 1

    def left(self) -> None:
        with self._lock:
            self.in_flight -= 1


class DrainingServer(uvicorn.Server):
    """uvicorn's server, with the first SIGTERM/SIGINT starting a drain instead of a shutdown."""

    def __init__(self, config: uvicorn.Config, lifecycle: Lifecycle, drain_s: float = DRAIN_S) -> None:
        super().__init__(config)
        self.lifecycle, self.drain_s = lifecycle, drain_s

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.lifecycle.draining or self.drain_s <= 0:
            super().handle_exit(sig, frame)  # asked again: stop now
            return
        logger.warning("draining: %d request(s) in flight, new ones get 503; stopping within %.0f s",
                       self.lifecycle.in_flight, self.drain_s)
        self.lifecycle.begin_drain(self.drain_s)

    async def on_tick(self, counter: int) -> bool:
        if self.lifecycle.drained() and not self.should_exit:
            left = self.lifecycle.in_flight
            if left:
                logger.warning("drain deadline passed with %d request(s) in flight; closing them", left)
            self.should_exit = True
        return await super().on_tick(counter)


def serve(app, host: str, port: int, drain_s: float = DRAIN_S, log_level: str = "info") -> None:
    """Run `app` (from `create_app`) until SIGTERM/SIGINT, draining first (module docstring),
    with the C allocator set for a long run (server/allocator.py)."""
    tune_for_serving()
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=_CLOSE_S)
    DrainingServer(config, app.state.lifecycle, drain_s).run()
