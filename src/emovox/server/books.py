"""Long-form jobs over HTTP: upload a book (or post its text), poll its progress, fetch its files.

`POST /v1/audio/books` (multipart: `file` with a .txt, .md or .epub book, or a `text` field,
plus any speech option as a form field: `voice`, `emotion`, `prompt`, `speed`,
`response_format`, `dialogue_emotion`, `lexicon` as JSON...) answers 202 with a job.
`GET /v1/audio/books/{id}` gives its progress and, once chapters exist, the manifest;
`GET /v1/audio/books/{id}/files/{name}` downloads a chapter's audio or subtitles. Uploads
are bounded while they stream in, and so are the jobs running at once (429 beyond).
Each job renders in a thread of its own, one chunk at a time, beside the live requests.
"""

from __future__ import annotations

import json
import logging
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from emovox.audio.formats import EXTENSIONS, MEDIA_TYPES
from emovox.errors import EmovoxError
from emovox.frontend.lexicon import Lexicon
from emovox.longform.book import MANIFEST, Progress, make_book
from emovox.longform.source import MAX_BOOK_BYTES, read_book
from emovox.options import OPTIONS, SpeechOptions
from emovox.paths import home_dir
from emovox.server.errors import ApiError, body_of
from emovox.server.openapi import errors
from emovox.server.uploads import BINARY, Form

logger = logging.getLogger(__name__)
MAX_RUNNING = 2
MAX_KEPT = 50
_SUFFIXES = (".txt", ".md", ".markdown", ".epub")
#: The form: the book (a file, or its text) and any speech option as a text field.
_FORM = Form({
    "file": {**BINARY, "description": f"the book: {', '.join(_SUFFIXES)} (or send `text`)"},
    "text": {"type": "string", "description": "the book's text (Markdown headings are chapters), instead of a file"},
    "title": {"type": "string", "description": "the title of a book sent as text"},
    **{option.field: {"type": "string", "description": option.help} for option in OPTIONS if option.kind != "clip"},
})  # one of `file` and `text` is needed (400 without either)
#: What a chapter's files are served as: its audio in the job's format, and its subtitles.
_SUBTITLE_TYPES = {".srt": "application/x-subrip", ".vtt": "text/vtt"}
_FILE_TYPES = sorted({*MEDIA_TYPES.values(), *_SUBTITLE_TYPES.values()})


@dataclass
class BookJob:
    id: str
    directory: Path
    created: float = field(default_factory=time.time)
    status: str = "queued"  # queued | running | succeeded | failed
    progress: dict = field(default_factory=dict)
    error: dict | None = None

    def to_dict(self) -> dict:
        manifest = _manifest(self.directory)
        files = [name for chapter in manifest.get("chapters", []) for name in
                 (chapter["audio"], chapter["srt"], chapter["vtt"])]
        return {"id": self.id, "object": "audio.book_job", "status": self.status, "progress": self.progress,
                "manifest": manifest or None, "files": [f"/v1/audio/books/{self.id}/files/{n}" for n in files],
                "error": self.error}


def install(app: FastAPI, engine, authorized, root: Path | None = None, max_upload_bytes: int = MAX_BOOK_BYTES,
            max_running: int = MAX_RUNNING) -> None:
    root = root or home_dir() / "books"
    jobs: dict[str, BookJob] = {}
    lock = threading.Lock()

    async def read_form(request: Request) -> tuple[bytes, str, dict]:
        form = await _FORM.read(request, max_upload_bytes)
        upload = form.get("file")
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        if upload is not None:
            name = Path(upload.filename or "book.txt").name
            suffix = Path(name).suffix.lower()
            if suffix not in _SUFFIXES:
                raise ApiError(415, f"a book is a {', '.join(_SUFFIXES)} file, not {name!r}", param="file",
                               code="unsupported_media_type")
            return await upload.read(), name, fields
        if fields.get("text", "").strip():
            return fields.pop("text").encode("utf-8"), Path(fields.get("title", "book")).name + ".md", fields
        raise ApiError(400, "send the book as a multipart file field named 'file', or its text in a 'text' field",
                       param="file", code="missing_file")

    def options_of(fields: dict) -> tuple[SpeechOptions, str]:
        values: dict = {}
        for option in OPTIONS:
            raw = fields.get(option.field)
            if raw is None or raw == "":
                continue
            if option.kind == "number":
                try:
                    values[option.name] = float(raw)
                except ValueError:
                    raise ApiError(400, f"{option.field} must be a number, not {raw!r}", param=option.field) from None
            elif option.kind == "lexicon":
                try:
                    values[option.name] = Lexicon.from_data(json.loads(raw))
                except ValueError:
                    raise ApiError(400, "lexicon must be JSON: a list of entries", param="lexicon") from None
            elif option.kind == "clip":
                raise ApiError(400, "style_ref is not taken by book jobs", param="style_ref")
            else:
                values[option.name] = raw
        options = SpeechOptions(**values)
        return options, options.format or "mp3"

    def run(job: BookJob, book, options: SpeechOptions, fmt: str) -> None:
        def report(progress: Progress) -> None:
            job.progress = progress.to_dict()

        job.status = "running"
        try:
            make_book(engine, book, job.directory, options, fmt, workers=1, on_progress=report)
            job.status = "succeeded"
        except EmovoxError as e:
            job.error, job.status = body_of(e), "failed"
        except Exception:  # reported in the job, never as a traceback
            logger.exception("book job %s failed", job.id)
            job.error = {"message": "the book failed unexpectedly", "type": "server_error", "param": None,
                         "code": None}
            job.status = "failed"

    @app.post("/v1/audio/books", dependencies=[Depends(authorized)], status_code=202, openapi_extra=_FORM.openapi_extra,
              responses={202: {"description": "the job, to poll", "links": {"BookJob": {
                  "operationId": "book_job", "parameters": {"job_id": "$response.body#/id"}}}},
                  **errors(400, 401, 413, 415)})
    async def create_book(request: Request):
        data, name, fields = await read_form(request)
        options, fmt = options_of(fields)
        book = await run_in_threadpool(_read_upload, data, name)
        engine.voice(options.voice or engine.default_voice)  # an unknown voice fails now, not in the job
        with lock:
            running = sum(job.status in ("queued", "running") for job in jobs.values())
            if running >= max_running:
                raise ApiError(429, f"{running} book jobs are running; retry when one is done", "rate_limit_error",
                               code="too_many_jobs", headers={"Retry-After": "30"})
            for stale in sorted((j for j in jobs.values() if j.status in ("succeeded", "failed")),
                                key=lambda j: j.created)[: max(0, len(jobs) - MAX_KEPT + 1)]:
                jobs.pop(stale.id, None)
            job = BookJob(id=uuid.uuid4().hex, directory=root / uuid.uuid4().hex)
            jobs[job.id] = job
        threading.Thread(target=run, args=(job, book, options, fmt), name=f"book-{job.id[:8]}", daemon=True).start()
        return JSONResponse(job.to_dict(), status_code=202)

    def job_named(job_id: str) -> BookJob:
        job = jobs.get(job_id)
        if job is None:
            raise ApiError(404, f"no book job {job_id!r}", "not_found_error", param="job_id", code="job_not_found")
        return job

    @app.get("/v1/audio/books/{job_id}", dependencies=[Depends(authorized)], responses=errors(400, 401, 404),
             operation_id="book_job")
    async def book_job(job_id: str):
        return job_named(job_id).to_dict()

    @app.get("/v1/audio/books/{job_id}/files/{name}", dependencies=[Depends(authorized)], response_class=FileResponse,
             responses={200: {"description": "a chapter's audio or subtitles", "content": {
                 media: {"schema": {"type": "string", "format": "binary"}} for media in _FILE_TYPES}},
                 **errors(400, 401, 404)})
    async def book_file(job_id: str, name: str):
        job = job_named(job_id)
        listed = {n for c in _manifest(job.directory).get("chapters", []) for n in (c["audio"], c["srt"], c["vtt"])}
        if name not in listed:  # only what the manifest names: no path reaches outside the job
            raise ApiError(404, f"book job {job_id!r} has no file {name!r}", "not_found_error", param="name",
                           code="file_not_found")
        suffix = Path(name).suffix
        media_type = _SUBTITLE_TYPES.get(suffix) or MEDIA_TYPES.get(EXTENSIONS.get(suffix, ""), "application/octet-stream")
        return FileResponse(job.directory / name, media_type=media_type)


def _read_upload(data: bytes, name: str):
    """The book in an uploaded file (read through the same code as `emovox book`)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / name
        path.write_bytes(data)
        return read_book(path)


def _manifest(directory: Path) -> dict:
    try:
        return json.loads((directory / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
