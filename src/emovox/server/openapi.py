"""What the OpenAPI document says each route answers, so that it tells the truth.

Clients are generated from `/openapi.json` and fuzzers check the server against it, so every
route declares its real statuses (each error in OpenAI's envelope), its media types (audio
formats, server-sent events, multipart uploads) and the headers it sends. FastAPI documents
the happy path by itself; the rest is declared here, once, and each route names the errors
it can answer with:

- every route may answer 429 (rate limits), 500 (a failure inside the server, never a
  traceback) and 503 (draining on shutdown, or a model that cannot load): `ALWAYS`;
- routes behind the API key add 401, routes that take input add 400, routes with a body add
  413, routes that look something up add 404.

FastAPI also documents a 422 for every route that takes input; this server answers a
malformed request with a 400 in OpenAI's envelope instead, so the 422 is taken out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field

from emovox.audio.formats import MEDIA_TYPES


class ErrorDetail(BaseModel):
    message: str = Field(description="what went wrong and how to fix it")
    type: str = Field(description="OpenAI's error type: invalid_request_error, authentication_error, "
                                  "not_found_error, rate_limit_error, server_error")
    param: str | None = Field(description="the request field at fault, if one is")
    code: str | None = Field(description="a stable machine-readable code, e.g. voice_not_found")


class ErrorEnvelope(BaseModel):
    """Every error, as OpenAI's API answers it."""

    error: ErrorDetail


_WHY = {
    400: "the request is malformed, or a value is well formed but unusable (an unknown voice, a text with "
         "nothing to speak, a clip that is not speech)",
    401: "the server requires an API key and the request has none or a wrong one",
    404: "no such resource",
    409: "the name is taken (send force=true to replace it)",
    413: "the request body is over the server's limit (refused before it is read)",
    415: "an upload that is not what the route takes (an image where audio goes)",
    429: "a rate limit, or the server's queues, are full: retry after Retry-After seconds",
    500: "a failure inside the server; the request was not completed",
    503: "the server is shutting down (draining) or a model cannot be loaded",
    507: "the voice store's disk is full; nothing was saved",
}
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}}

ALWAYS = (429, 500, 503)
_SSE_EVENT = {"type": "object", "required": ["data"], "properties": {
    "event": {"type": "string"},
    "data": {"type": "string", "contentMediaType": "application/json",
             "description": 'JSON: {"type": "speech.audio.delta", "audio": base64 of the next bytes of the '
                            'response_format}, {"type": "speech.word", "word", "start", "end"} (seconds), or '
                            '{"type": "speech.audio.done"}'}}}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` entries of a route's error statuses (ALWAYS included)."""
    declared: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, *ALWAYS}):
        entry: dict[str, Any] = {"model": ErrorEnvelope, "description": _WHY[status]}
        if status == 429:
            entry["headers"] = {name: {**header, "required": True} for name, header in _RETRY_AFTER.items()}
        elif status == 503:
            entry["headers"] = _RETRY_AFTER
        declared[status] = entry
    return declared


def audio_response(description: str) -> dict[int | str, dict[str, Any]]:
    """A 200 of streamed audio in any response format, or server-sent events of it."""
    binary = {"schema": {"type": "string", "format": "binary"}}
    content: dict[str, Any] = {media: binary for media in sorted(set(MEDIA_TYPES.values()))}
    # Open API 3.1 reads an event stream's schema as the schema of each event
    content["text/event-stream"] = {"schema": _SSE_EVENT, "example": (
        'data: {"type": "speech.audio.delta", "audio": "<base64>"}\n\n'
        'data: {"type": "speech.word", "word": "Hello", "start": 0.0, "end": 0.31}\n\n'
        'data: {"type": "speech.audio.done"}\n\n')}
    headers = {
        "X-Sample-Rate": {"description": "the audio's sample rate in Hz", "required": True,
                          "schema": {"type": "integer"}},
        "X-Emovox-Resolved": {"description": "what the request resolved to (voice, emotion, prosody, warnings), "
                                             "as ASCII JSON", "required": True, "schema": {"type": "string"}},
    }
    return {200: {"description": description, "content": content, "headers": headers}}


def install(app: FastAPI, max_input_chars: int, voice_names: Callable[[], list[str]]) -> None:
    """Serve the document with this server's limits and voices in it, without FastAPI's 422s.

    The voices are listed as the `voice` field's values when the document is asked for, so a
    voice cloned a minute ago is in it and a deleted one is not."""

    def base() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            for operations in doc.get("paths", {}).values():
                for operation in operations.values():
                    operation.get("responses", {}).pop("422", None)
            schemas = doc.get("components", {}).get("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            speech = schemas.get("SpeechRequest", {}).get("properties", {})
            for field in ("input", "instructions"):
                _restrict_string(speech.get(field, {}), maxLength=max_input_chars)
            app.openapi_schema = doc
        return app.openapi_schema

    def document() -> dict[str, Any]:
        doc = copy.deepcopy(base())
        names = voice_names()
        schemas = doc.get("components", {}).get("schemas", {})
        _restrict_string(schemas.get("SpeechRequest", {}).get("properties", {}).get("voice", {}), enum=names)
        _restrict_string(schemas.get("VoiceObject", {}).get("properties", {}).get("id", {}), enum=names)
        return doc

    app.openapi = document  # type: ignore[method-assign]


def _restrict_string(schema: dict[str, Any], **keywords: Any) -> None:
    """Add JSON Schema keywords to a string property, also inside an `anyOf` (an optional string)."""
    for variant in schema.get("anyOf", [schema]):
        if variant.get("type") == "string":
            variant.update(keywords)
