"""Multipart uploads, bounded while they stream in: a declared Content-Length over the limit
is refused before reading, and the parser stops any part that grows past it."""

from __future__ import annotations

from fastapi import Request
from starlette.datastructures import FormData
from starlette.formparsers import MultiPartException

from emovox.server.errors import ApiError

#: Room for the multipart framing and the small fields beside the file.
_FRAMING_BYTES = 64 * 1024


async def bounded_form(request: Request, max_bytes: int, max_fields: int) -> FormData:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes + _FRAMING_BYTES:
        raise ApiError(413, f"the upload is {int(declared) / 2**20:.1f} MB; the limit is {max_bytes / 2**20:.0f} MB",
                       param="file", code="file_too_large")
    try:
        return await request.form(max_files=1, max_fields=max_fields, max_part_size=max_bytes)
    except MultiPartException as e:
        raise ApiError(413 if "size" in str(e).lower() else 400, f"bad upload: {e}", param="file",
                       code="invalid_upload") from None
