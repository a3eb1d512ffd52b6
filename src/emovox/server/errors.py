"""Every error as OpenAI's envelope: {"error": {"message", "type", "param", "code"}}.

Clients built for the OpenAI API read these fields; the status is always a specific 4xx for
bad requests, and a 500 never carries a traceback. An `EmovoxError` says its own status,
type, code and param (emovox/errors.py), so one handler serves them all.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from emovox.errors import EmovoxError

logger = logging.getLogger(__name__)
_KINDS = {401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error"}


class ApiError(EmovoxError):
    """An error the HTTP layer itself finds (auth, limits, routes), with its status given here."""

    def __init__(self, status: int, message: str, type_: str = "invalid_request_error",
                 param: str | None = None, code: str | None = None, headers: dict | None = None) -> None:
        super().__init__(message, param=param, code=code, headers=headers)
        self.http_status, self.error_type = status, type_


def body_of(error: EmovoxError) -> dict:
    return {"message": error.message, "type": error.error_type, "param": error.param, "code": error.code}


def envelope(status: int, message: str, type_: str, param: str | None = None, code: str | None = None,
             headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": type_, "param": param, "code": code}},
                        status_code=status, headers=headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(EmovoxError)
    async def _emovox_error(_: Request, error: EmovoxError):
        if error.http_status >= 500:
            logger.error("%s: %s", type(error).__name__, error)
        return JSONResponse({"error": body_of(error)}, status_code=error.http_status, headers=error.headers or None)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, error: RequestValidationError):
        message, param, code = validation_message(error.errors())
        return envelope(400, message, "invalid_request_error", param, code)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException):
        headers = dict(error.headers or {})
        if error.status_code == 405:  # Starlette names only the first route's methods when a path has several
            headers["Allow"] = ", ".join(sorted(_methods_of(request)))
        return envelope(error.status_code, str(error.detail), _KINDS.get(error.status_code, "invalid_request_error"),
                        headers=headers or None)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception):
        logger.exception("unhandled error")
        return envelope(500, "internal server error; the request was not completed", "server_error")


def _methods_of(request: Request) -> set[str]:
    """The methods of the routes at the request's path template (the first that matches it:
    /v1/voices/consent is its own path, not a {name} of /v1/voices/{name})."""
    routes = [route for route in request.app.router.routes
              if getattr(route, "methods", None) and route.path_regex.match(request.url.path)]
    return {method for route in routes if route.path == routes[0].path for method in route.methods} if routes else set()


def validation_message(problems: list[dict]) -> tuple[str, str | None, str | None]:
    """(message, param, code) for a request pydantic refused: the field at fault is the top-level
    one (a union's member names are not fields), and the message comes from the problem that got
    furthest into the value (for {"voice": {"name": ...}}, the object's missing "id", not that it
    is not a string)."""
    if not problems:
        return "invalid request", None, None
    first = max(problems, key=lambda problem: len(problem.get("loc", ())))
    location = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
    param = location[0] if location else None
    message = first.get("msg", "invalid request")
    if first.get("type") == "json_invalid":
        return f"the request body is not valid JSON ({first.get('ctx', {}).get('error', 'parse error')})", None, \
            "json_invalid"
    if first.get("type") == "missing" and len(location) > 1:
        message = f"{location[-1]!r} is required"
    return (f"{param}: {message}" if param else message), param, first.get("type")
