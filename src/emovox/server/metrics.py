"""Prometheus metrics of one app instance (its own registry: no process-wide globals)."""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
RTF_BUCKETS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("emovox_requests", "HTTP requests by route and status",
                                ("route", "method", "status"), registry=self.registry)
        self.latency = Histogram("emovox_request_seconds", "time to the response headers, by route",
                                 ("route", "method"), buckets=LATENCY_BUCKETS, registry=self.registry)
        self.first_audio = Histogram("emovox_time_to_first_audio_seconds",
                                     "request arrival to the first audio byte sent", ("backend",),
                                     buckets=LATENCY_BUCKETS, registry=self.registry)
        self.rtf = Histogram("emovox_real_time_factor", "synthesis time over audio duration, per request",
                             ("backend",), buckets=RTF_BUCKETS, registry=self.registry)
        self.audio_seconds = Counter("emovox_audio_seconds", "seconds of audio produced", ("backend",),
                                     registry=self.registry)
        self.waiting = Gauge("emovox_queue_depth", "requests waiting for a synthesis slot", registry=self.registry)
        self.in_flight = Gauge("emovox_syntheses_in_flight", "chunks being synthesized now", registry=self.registry)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """Counts every request by its route template (not its raw path) and status.

    Plain ASGI rather than BaseHTTPMiddleware, which would wrap streaming bodies and hide
    client disconnects from the endpoint."""

    def __init__(self, app, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = {"code": 500}

        async def send_and_record(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                route = getattr(scope.get("route"), "path", "unmatched")
                self.metrics.requests.labels(route, scope["method"], str(message["status"])).inc()
                self.metrics.latency.labels(route, scope["method"]).observe(time.perf_counter() - started)
            await send(message)

        await self.app(scope, receive, send_and_record)
