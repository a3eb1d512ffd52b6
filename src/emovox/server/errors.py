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
        first = error.errors()[0] if error.errors() else {}
        location = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
        param = ".".join(location) or None
        message = first.get("msg", "invalid request")
        if first.get("type") == "json_invalid":
            message, param = f"the request body is not valid JSON ({first.get('ctx', {}).get('error', 'parse error')})", None
        return envelope(400, f"{param}: {message}" if param else message, "invalid_request_error", param,
                        first.get("type"))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, error: StarletteHTTPException):
        return envelope(error.status_code, str(error.detail), _KINDS.get(error.status_code, "invalid_request_error"),
                        headers=error.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception):
        logger.exception("unhandled error")
        return envelope(500, "internal server error; the request was not completed", "server_error")
