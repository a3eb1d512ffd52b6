"""Voice cloning over HTTP: upload a clip, get a voice (now, or as a job to poll), delete it.

Uploads are bounded while they stream in: a declared Content-Length over the limit is
refused before reading, and the multipart parser stops any part that grows past it.
`fast` clones answer at once; `balanced` and `best` return a job id.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from emovox.errors import EmovoxError
from emovox.server.errors import ApiError, body_of
from emovox.server.uploads import bounded_form
from emovox.voices.adapt import BUDGETS
from emovox.voices.clone import METHODS, Cloner, clone
from emovox.voices.intake import DENOISE_MODES, MAX_UPLOAD_BYTES, sniff
from emovox.voices.store import VoiceStore

MAX_JOBS = 100
logger = logging.getLogger(__name__)


@dataclass
class Job:
    id: str
    name: str
    quality: str
    created: float = field(default_factory=time.time)
    status: str = "running"  # running | succeeded | failed
    elapsed_s: float = 0.0
    similarity: float | None = None
    result: dict | None = None
    error: dict | None = None

    def to_dict(self) -> dict:
        budget = BUDGETS[self.quality]
        return {"id": self.id, "object": "voice.clone_job", "name": self.name, "quality": self.quality,
                "status": self.status, "progress": 1.0 if self.status != "running" else min(0.99, self.elapsed_s / budget),
                "similarity": self.similarity, "result": self.result, "error": self.error}


def install(app: FastAPI, engine, store: VoiceStore, authorized, max_upload_bytes: int = MAX_UPLOAD_BYTES,
            cloner: Cloner | None = None) -> None:
    """The voice routes; clones are made by `cloner` (default: `clone` with this engine and store)."""
    cloner = cloner or functools.partial(clone, engine, store)
    jobs: dict[str, Job] = {}
    lock = threading.Lock()

    async def read_upload(request: Request) -> tuple[bytes, dict]:
        form = await bounded_form(request, max_upload_bytes, max_fields=8)
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise ApiError(400, "send the reference clip as a multipart file field named 'file'", param="file",
                           code="missing_file")
        data = await upload.read()
        if len(data) > max_upload_bytes:
            raise ApiError(413, f"the upload is over {max_upload_bytes / 2**20:.0f} MB", param="file",
                           code="file_too_large")
        sniff(data)  # before anything parses it, and before a job is accepted
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        return data, fields

    def check_choice(fields: dict, key: str, choices, default: str) -> str:
        value = fields.get(key, default)
        if value not in choices:
            raise ApiError(400, f"{key} must be one of {', '.join(choices)}, not {value!r}", param=key,
                           code="invalid_value")
        return value

    @app.post("/v1/voices", dependencies=[Depends(authorized)])
    async def create_voice(request: Request):
        data, fields = await read_upload(request)
        name = fields.get("name", "")
        quality = check_choice(fields, "quality", tuple(BUDGETS), "fast")
        denoise = check_choice(fields, "denoise", DENOISE_MODES, "auto")
        backend = check_choice(fields, "backend", tuple(METHODS), "kokoro")
        force = fields.get("force", "false").lower() in ("1", "true", "yes")

        if quality == "fast":
            result = await run_in_threadpool(cloner, data, name, quality, force, denoise, backend)
            return JSONResponse({"object": "voice", **result.to_dict()}, status_code=201)

        job = Job(id=uuid.uuid4().hex, name=name, quality=quality)

        def progress(elapsed: float, similarity: float) -> None:
            job.elapsed_s, job.similarity = elapsed, similarity

        def work() -> None:
            try:
                job.result = cloner(data, name, quality, force, denoise, backend, progress).to_dict()
                job.status = "succeeded"
            except EmovoxError as e:
                job.error = body_of(e)
                job.status = "failed"
            except Exception:  # noqa: BLE001 - reported in the job, never as a traceback
                logger.exception("clone job %s failed", job.id)
                job.error = {"message": "cloning failed unexpectedly", "type": "server_error",
                             "param": None, "code": None}
                job.status = "failed"

        with lock:
            for stale in sorted(jobs.values(), key=lambda j: j.created)[: max(0, len(jobs) - MAX_JOBS + 1)]:
                jobs.pop(stale.id, None)
            jobs[job.id] = job
        threading.Thread(target=work, name=f"clone-{job.id[:8]}", daemon=True).start()
        return JSONResponse(job.to_dict(), status_code=202)

    @app.get("/v1/voices/jobs/{job_id}", dependencies=[Depends(authorized)])
    async def clone_job(job_id: str):
        job = jobs.get(job_id)
        if job is None:
            raise ApiError(404, f"no clone job {job_id!r}", "not_found_error", param="job_id", code="job_not_found")
        return job.to_dict()

    @app.delete("/v1/voices/{name}", dependencies=[Depends(authorized)])
    async def delete_voice(name: str):
        await run_in_threadpool(forget, name)  # SQLite and the engine's caches: off the event loop
        return {"object": "voice.deleted", "name": name, "deleted": True}

    def forget(name: str) -> None:
        if store.get(name) is None:
            raise ApiError(404, f"no cloned voice named {name!r}", "not_found_error", param="name",
                           code="voice_not_found")
        store.delete(name)
        try:
            engine.remove_voice(name)
        except EmovoxError:
            pass  # stored but never registered (e.g. skipped as damaged at startup)
