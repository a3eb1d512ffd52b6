"""Errors with messages that say what went wrong and how to fix it.

Each error type carries what an HTTP edge needs to report it: the status, OpenAI's error
`type` and `code`, and the request field at fault (`param`). The server maps any
`EmovoxError` to its envelope from these attributes alone, so a new error type needs no
change there; an instance may narrow `param` (an unknown voice named in a style reference
is the fault of `style_ref_voice`, not of `voice`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class EmovoxError(Exception):
    """Base of every error emovox raises on purpose."""

    http_status: int = 400
    error_type: str = "invalid_request_error"
    code: str = "invalid_value"
    param: str | None = None

    def __init__(self, message: str, *, param: str | None = None, code: str | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        if param is not None:
            self.param = param
        if code is not None:
            self.code = code
        self.headers: dict[str, str] = dict(headers or {})

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:  # KeyError (UnknownVoiceError) would quote the message
        return self.message


class InvalidTextError(EmovoxError, ValueError):
    """The text cannot be spoken: empty, nothing speakable in it, or not decodable."""

    param = "input"


class UnknownVoiceError(EmovoxError, KeyError):
    """A voice name that no backend provides."""

    param = "voice"
    code = "voice_not_found"

    def __init__(self, name: str, valid: Iterable[str], hint: str = "", *, param: str | None = None) -> None:
        self.name = name
        self.valid = sorted(valid)
        super().__init__(f"unknown voice {name!r}; valid voices: {', '.join(self.valid)}" + (f" ({hint})" if hint else ""),
                         param=param)


class InvalidOptionError(EmovoxError, ValueError):
    """A per-call option outside its documented range."""


class UnsupportedMediaError(EmovoxError, ValueError):
    """An upload whose content is not what the endpoint takes (an image where audio goes)."""

    http_status = 415
    code = "unsupported_media_type"
    param = "file"


class BusyError(EmovoxError):
    """Every worker of a backend is taken and its queue is full: retry after `retry_after_s`."""

    http_status = 429
    error_type = "rate_limit_error"
    code = "server_busy"

    def __init__(self, message: str, retry_after_s: int = 1) -> None:
        super().__init__(message, headers={"Retry-After": str(retry_after_s)})
        self.retry_after_s = retry_after_s


class ModelAssetError(EmovoxError, RuntimeError):
    """A model file is missing, damaged, or cannot be loaded; the message names the package."""

    http_status = 503
    error_type = "server_error"
    code = "model_unavailable"
