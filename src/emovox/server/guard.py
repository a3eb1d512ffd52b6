"""What every request passes before any route sees it: the drain, the rate limits, the body limits.

One ASGI middleware, in this order, each refusal in OpenAI's error envelope:

1. **Draining** (server/lifecycle.py): after a SIGTERM, new work gets 503 with `Retry-After`;
   the health probes still answer (`/readyz` says draining).
2. **Rate limits** (`limits`, sliding windows in memory): per API key and per client address,
   each configurable and off unless set (`emovox serve` sets a per-client limit when it listens
   beyond loopback). Over a limit: 429 with `Retry-After`, the seconds until the window frees.
3. **Body size**: a declared `Content-Length` over the route's limit gets 413 before a byte
   of the body is read; a body without one is counted as it arrives and stopped at the limit.
4. **Uploads in flight**: the bytes of all uploads being received at once are bounded, so a
   burst of large uploads cannot fill memory; beyond it, 429 with `Retry-After`.

Only `/v1/` routes are limited; the playground, the document and the probes are not.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from emovox.errors import InvalidOptionError
from emovox.longform.source import MAX_BOOK_BYTES
from emovox.server.errors import envelope
from emovox.server.lifecycle import Lifecycle
from emovox.voices.audit import key_fingerprint
from emovox.voices.intake import MAX_UPLOAD_BYTES

#: The multipart framing and the small fields beside an upload's files.
FRAMING_BYTES = 64 * 1024
#: A speech request's JSON: the text, and a style clip in base64 (4 bytes for every 3).
JSON_BODY_BYTES = MAX_UPLOAD_BYTES * 4 // 3 + FRAMING_BYTES
#: Routes whose bodies are uploads: their own limit, and they count as uploads in flight.
UPLOAD_ROUTES = {"/v1/voices": 2 * MAX_UPLOAD_BYTES + FRAMING_BYTES,  # the reference and a consent clip
                 "/v1/audio/books": MAX_BOOK_BYTES + FRAMING_BYTES}
_UNLIMITED_PREFIXES = ("/healthz", "/readyz")
#: Requests a client may make when the server listens beyond loopback and no limit is given.
DEFAULT_CLIENT_RATE = "120/minute"


def default_client_rate(host: str) -> str | None:
    """None on loopback (one user, one machine), DEFAULT_CLIENT_RATE anywhere else."""
    try:
        return None if ipaddress.ip_address(host).is_loopback else DEFAULT_CLIENT_RATE
    except ValueError:  # a host name
        return None if host == "localhost" else DEFAULT_CLIENT_RATE


@dataclass(frozen=True)
class Limits:
    """The abuse limits of one server (None: no limit)."""

    #: Requests per API key, as `limits` writes it: "600/minute", "10/second".
    per_key: str | None = None
    #: Requests per client address (with or without a key).
    per_client: str | None = None
    #: Total bytes of the uploads being received at once.
    uploads_in_flight_bytes: int = 4 * UPLOAD_ROUTES["/v1/voices"]
    #: A request body on any other route.
    json_body_bytes: int = JSON_BODY_BYTES

    def __post_init__(self) -> None:
        for name in ("per_key", "per_client"):
            value = getattr(self, name)
            if value is not None:
                try:
                    parse(value)
                except ValueError:
                    raise InvalidOptionError(f"rate limit {value!r} is not a rate like '60/minute' or '5/second'",
                                             param=name) from None


class Guard:
    """The middleware (module docstring). `lifecycle` is shared with the server's drain."""

    def __init__(self, app: ASGIApp, lifecycle: Lifecycle, limits: Limits) -> None:
        self.app, self.lifecycle, self.limits = app, lifecycle, limits
        self._windows = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._rates: list[tuple[str, RateLimitItem]] = [
            (kind, parse(rate)) for kind, rate in (("key", limits.per_key), ("client", limits.per_client)) if rate]
        self._uploading = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if self.lifecycle.draining and not path.startswith(_UNLIMITED_PREFIXES):
            await _send_envelope(send, 503, "the server is shutting down; retry on another replica or "
                               "after it restarts", "server_error", "shutting_down", retry_after=5)
            return
        if not path.startswith("/v1/"):
            await self._run(scope, receive, send)
            return
        limited = self._rate_limited(scope)
        if limited is not None:
            kind, retry_after = limited
            await _send_envelope(send, 429, f"rate limit reached for this {kind}; retry in "
                               f"{retry_after} s", "rate_limit_error", "rate_limit_exceeded", retry_after=retry_after)
            return
        limit = UPLOAD_ROUTES.get(path.rstrip("/"), self.limits.json_body_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _send_envelope(send, 413, f"the request body is {declared / 2**20:.1f} MB; the limit "
                               f"here is {limit / 2**20:.1f} MB", "invalid_request_error", "request_too_large")
            return
        is_upload = path.rstrip("/") in UPLOAD_ROUTES and scope["method"] == "POST"
        reserved = (declared if declared is not None else limit) if is_upload else 0
        if reserved and self._uploading + reserved > self.limits.uploads_in_flight_bytes:
            await _send_envelope(send, 429, "too many uploads are being received at once; retry "
                               "shortly", "rate_limit_error", "uploads_busy", retry_after=2)
            return
        self._uploading += reserved
        try:
            await self._run(scope, receive, send, limit)
        finally:
            self._uploading -= reserved

    async def _run(self, scope: Scope, receive: Receive, send: Send, body_limit: int | None = None) -> None:
        """The route, counted in flight; a body passing `body_limit` is answered 413 at once and
        whatever the route does after is dropped (it sees the client go away)."""
        state = {"started": False, "refused": False}
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request" and body_limit is not None:
                received += len(message.get("body", b""))
                if received > body_limit:
                    if not state["started"]:
                        await _send_envelope(send, 413, f"the request body is over the limit here "
                                             f"({body_limit / 2**20:.1f} MB)", "invalid_request_error",
                                             "request_too_large")
                    state["started"] = state["refused"] = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if state["refused"]:
                return
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        self.lifecycle.entered()
        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not state["refused"]:
                raise
        finally:
            self.lifecycle.left()

    def _rate_limited(self, scope: Scope) -> tuple[str, int] | None:
        """(what was limited, seconds to wait) when a window is full, else None (and counted)."""
        for kind, rate in self._rates:
            identity = _key_of(scope) if kind == "key" else _client_of(scope)
            if identity is None:
                continue
            if not self._windows.hit(rate, kind, identity):
                reset = self._windows.get_window_stats(rate, kind, identity).reset_time
                return ("API key" if kind == "key" else "client"), max(1, math.ceil(reset - time.time()))
        return None


async def _send_envelope(send: Send, status: int, message: str, type_: str, code: str,
                         retry_after: int | None = None) -> None:
    """Answer in OpenAI's envelope without running the route (and without reading the body)."""
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    response = envelope(status, message, type_, code=code, headers=headers)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _key_of(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token:
                return key_fingerprint(token)
    return None


def _client_of(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"
