"""Every error as OpenAI's envelope: {"error": {"message", "type", "param", "code"}}.

Clients built for the OpenAI API read these fields; the status is always a specific 4xx for
bad requests, and a 500 never carries a traceback.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from emovox.emotion.markup import MarkupError
from emovox.errors import EmovoxError, UnknownVoiceError
from emovox.voices.intake import NotAudioError

logger = logging.getLogger(__name__)


class ApiError(Exception):
    def __init__(self, status: int, message: str, type_: str = "invalid_request_error",
                 param: str | None = None, code: str | None = None, headers: dict | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.type, self.param, self.code = status, message, type_, param, code
        self.headers = headers or {}


def envelope(status: int, message: str, type_: str, param: str | None = None, code: str | None = None,
             headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": type_, "param": param, "code": code}},
                        status_code=status, headers=headers)


def from_engine_error(error: EmovoxError) -> ApiError:
    """The API error for an engine error raised by a request's own input."""
    if isinstance(error, UnknownVoiceError):
        return ApiError(400, str(error), param="voice", code="voice_not_found")
    if isinstance(error, MarkupError):
        return ApiError(400, str(error), param="input", code="invalid_markup")
    if isinstance(error, NotAudioError):
        return ApiError(415, str(error), param="file", code="unsupported_media_type")
    return ApiError(400, str(error), code="invalid_value")


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, error: ApiError):
        return envelope(error.status, error.message, error.type, error.param, error.code, error.headers)

    @app.exception_handler(EmovoxError)
    async def _engine_error(_: Request, error: EmovoxError):
        api = from_engine_error(error)
        return envelope(api.status, api.message, api.type, api.param, api.code)

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
        kinds = {401: "authentication_error", 404: "not_found_error", 405: "invalid_request_error",
                 413: "invalid_request_error", 429: "rate_limit_error"}
        return envelope(error.status_code, str(error.detail), kinds.get(error.status_code, "invalid_request_error"),
                        headers=getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception):
        logger.exception("unhandled error")
        return envelope(500, "internal server error; the request was not completed", "server_error")
