"""Multipart forms: declared once for the OpenAPI document and for reading, bounded while
they stream in.

A declared Content-Length over the limit is refused before reading, the parser stops any part
that grows past it, and a field the form does not declare is refused by name (a typo in
`consent_clip` would otherwise clone without the consent the client meant to send).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request
from starlette.datastructures import FormData
from starlette.formparsers import MultiPartException

from emovox.server.errors import ApiError

#: Room for the multipart framing and the small fields beside the file.
_FRAMING_BYTES = 64 * 1024
#: A file field, as Open API 3.1 writes it (`format: binary` is 3.0's way).
BINARY = {"type": "string", "contentMediaType": "application/octet-stream"}


@dataclass(frozen=True)
class Form:
    """A multipart/form-data body: its fields as JSON Schema properties (files are `BINARY`)."""

    properties: dict[str, dict[str, Any]]
    required: tuple[str, ...] = ()

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(name for name, schema in self.properties.items() if schema == schema | BINARY)

    @property
    def openapi_extra(self) -> dict[str, Any]:
        """The route's `openapi_extra`: FastAPI cannot see a body the route reads itself."""
        schema: dict[str, Any] = {"type": "object", "properties": self.properties, "additionalProperties": False}
        if self.required:
            schema["required"] = list(self.required)
        return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": schema}}}}

    async def read(self, request: Request, max_bytes: int) -> FormData:
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > len(self.files) * max_bytes + _FRAMING_BYTES:
            raise ApiError(413, f"the upload is {int(declared) / 2**20:.1f} MB; the limit is "
                                f"{max_bytes / 2**20:.0f} MB a file", param="file", code="file_too_large")
        try:
            form = await request.form(max_files=len(self.files), max_fields=len(self.properties),
                                      max_part_size=max_bytes)
        except MultiPartException as e:
            raise ApiError(413 if "size" in str(e).lower() else 400, f"bad upload: {e}", param="file",
                           code="invalid_upload") from None
        for name, value in form.multi_items():
            if name not in self.properties:
                raise ApiError(400, f"unknown form field {name!r}; this form takes {', '.join(self.properties)}",
                               param=name, code="unknown_field")
            if (name in self.files) == isinstance(value, str):
                kind = "a file" if name in self.files else "a text field"
                raise ApiError(400, f"{name} must be {kind}", param=name, code="invalid_value")
        return form
