"""Prometheus metrics of one app instance (its own registry: no process-wide globals)."""

from __future__ import annotations

import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from emovox.caching import CacheStats

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
RTF_BUCKETS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32)


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
        self.queue_depth = Gauge("emovox_queue_depth", "chunk jobs waiting for a worker, by backend", ("backend",),
                                 registry=self.registry)
        self.in_flight = Gauge("emovox_syntheses_in_flight", "chunks being synthesized now, by backend",
                               ("backend",), registry=self.registry)
        # Where a request's first audio waits: in line for a worker, or in its own first step.
        self.step_wait = Histogram("emovox_step_wait_seconds",
                                   "time a synthesis step waited in line for a worker, by backend and kind "
                                   "(first: a new request's first audio; later: a stream's next piece)",
                                   ("backend", "kind"), buckets=LATENCY_BUCKETS, registry=self.registry)
        self.step_seconds = Histogram("emovox_step_seconds", "time a worker spent on one synthesis step, "
                                      "by backend and kind", ("backend", "kind"), buckets=LATENCY_BUCKETS,
                                      registry=self.registry)
        self.batch_size = Histogram("emovox_batch_size", "chunk jobs per forward pass, by backend", ("backend",),
                                    buckets=BATCH_BUCKETS, registry=self.registry)

    def watch_caches(self, stats: Callable[[], dict[str, CacheStats]]) -> None:
        """Report the caches behind `stats` (read at each scrape)."""
        self.registry.register(_CacheCollector(stats))

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


class _CacheCollector:
    def __init__(self, stats: Callable[[], dict[str, CacheStats]]) -> None:
        self._stats = stats

    def collect(self):
        hits = CounterMetricFamily("emovox_cache_hits", "cache lookups that hit", labels=("cache",))
        misses = CounterMetricFamily("emovox_cache_misses", "cache lookups that missed", labels=("cache",))
        ratio = GaugeMetricFamily("emovox_cache_hit_ratio", "hits over lookups since start", labels=("cache",))
        entries = GaugeMetricFamily("emovox_cache_entries", "entries held now", labels=("cache",))
        for name, stats in self._stats().items():
            hits.add_metric((name,), stats.hits)
            misses.add_metric((name,), stats.misses)
            ratio.add_metric((name,), stats.hit_ratio)
            entries.add_metric((name,), stats.entries)
        yield from (hits, misses, ratio, entries)
