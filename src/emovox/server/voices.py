"""Voice cloning over HTTP: upload a clip, get a voice (now, or as a job to poll), delete it.

Uploads are bounded while they stream in: a declared Content-Length over the limit is
refused before reading, and the multipart parser stops any part that grows past it.
`fast` clones answer at once; `balanced` and `best` return a job id. A clone may bring
the speaker's consent (`consent_clip`, `consent_by`; required with `--require-consent`), and
every clone, use, export, import and delete is in the audit log (`GET /v1/audit`).
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

from emovox.errors import EmovoxError, UnsupportedMediaError
from emovox.server.errors import ApiError, body_of
from emovox.server.openapi import errors
from emovox.server.uploads import BINARY, Form
from emovox.voices.adapt import BUDGETS
from emovox.voices.audit import key_fingerprint, verify
from emovox.voices.clone import METHODS, Cloner, clone
from emovox.voices.consent import CONSENT_SENTENCE, ConsentClaim, required
from emovox.voices.intake import DENOISE_MODES, MAX_UPLOAD_BYTES, prepare, sniff
from emovox.voices.store import NAME_PATTERN, VoiceExistsError, VoiceStore, check_name

MAX_JOBS = 100
#: Clone jobs (balanced, best) running at once; each takes a core for a minute or more.
MAX_RUNNING = 2
_UPLOAD = Form({
    "file": {**BINARY, "description": "the reference clip: 3 to 10 s of one speaker (any audio format)"},
    "name": {"type": "string", "pattern": f"^{NAME_PATTERN.pattern}$", "description": "the new voice's name (default: "
                                                                          "from the clip)"},
    "quality": {"type": "string", "enum": list(BUDGETS), "default": "fast"},
    "denoise": {"type": "string", "enum": list(DENOISE_MODES), "default": "auto"},
    "backend": {"type": "string", "enum": list(METHODS), "default": "kokoro"},
    "force": {"type": "boolean", "default": False, "description": "replace a voice of the same name"},
    "consent_clip": {**BINARY, "description": "the speaker reading the consent sentence (GET /v1/voices/consent)"},
    "consent_by": {"type": "string", "description": "the operator declaring they hold the speaker's consent"},
}, required=("file",))
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


def actor_of(request: Request) -> str:
    """Who the audit log says asked: the API key's fingerprint, else the client's address."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token:
        return f"api:key {key_fingerprint(token)}"
    return f"api:{request.client.host if request.client else 'unknown'}"


def install(app: FastAPI, engine, store: VoiceStore, authorized, max_upload_bytes: int = MAX_UPLOAD_BYTES,
            cloner: Cloner | None = None, require_consent: bool = False) -> None:
    """The voice routes; clones are made by `cloner` (default: `clone` with this engine and
    store). `require_consent`: refuse a clone that brings no consent (voices/consent.py)."""
    cloner = cloner or functools.partial(clone, engine, store)
    jobs: dict[str, Job] = {}
    lock = threading.Lock()

    async def read_upload(request: Request) -> tuple[bytes, bytes | None, dict]:
        """(the reference clip, the consent clip if any, the text fields)."""
        form = await _UPLOAD.read(request, max_upload_bytes)
        upload = form.get("file")
        if upload is None:
            raise ApiError(400, "send the reference clip as a multipart file field named 'file'", param="file",
                           code="missing_file")
        data = await read_file(upload, "file")
        consent_upload = form.get("consent_clip")
        consent_clip = await read_file(consent_upload, "consent_clip") if consent_upload is not None else None
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        return data, consent_clip, fields

    async def read_file(upload, param: str) -> bytes:
        data = await upload.read()
        if not data:
            raise ApiError(400, f"{param} is empty; upload a recording of someone speaking", param=param,
                           code="empty_file")
        if len(data) > max_upload_bytes:
            raise ApiError(413, f"the upload is over the {max_upload_bytes / 2**20:.0f} MB limit", param=param,
                           code="file_too_large")
        try:
            sniff(data)  # before anything parses it, and before a job is accepted
        except UnsupportedMediaError as e:
            raise UnsupportedMediaError(e.message, param=param) from None
        return data

    def check_choice(fields: dict, key: str, choices, default: str) -> str:
        value = fields.get(key, default)
        if value not in choices:
            raise ApiError(400, f"{key} must be one of {', '.join(choices)}, not {value!r}", param=key,
                           code="invalid_value")
        return value

    @app.get("/v1/voices/consent", dependencies=[Depends(authorized)], responses=errors(401))
    async def consent_policy():
        """What a clone needs here: whether consent is required, and the sentence to read."""
        return {"object": "voice.consent_policy", "required": require_consent, "sentence": CONSENT_SENTENCE,
                "methods": {"consent_clip": "the speaker reading the sentence (checked by Whisper and against the "
                                            "reference's voice)",
                            "consent_by": "the operator's name: they declare they hold the speaker's consent"}}

    @app.get("/v1/audit", dependencies=[Depends(authorized)], responses=errors(400, 401))
    async def audit_log(voice: str | None = None):
        everything = await run_in_threadpool(store.audit)  # the chain is checked whole
        entries = [e for e in everything if voice is None or e.voice == voice]
        return {"object": "list", "data": [e.to_dict() for e in entries], "chain_intact": verify(everything) is None}

    @app.post("/v1/voices", dependencies=[Depends(authorized)], status_code=201, openapi_extra=_UPLOAD.openapi_extra,
              responses={201: {"description": "the voice (quality 'fast')", "links": {"DeleteVoice": {
                                 "operationId": "delete_voice", "parameters": {"name": "$response.body#/name"}}}},
                         202: {"description": "a clone job to poll at /v1/voices/jobs/{id} (quality 'balanced' "
                                              "or 'best')", "links": {"CloneJob": {
                                 "operationId": "clone_job", "parameters": {"job_id": "$response.body#/id"}}}},
                         **errors(400, 401, 409, 413, 415, 507)})
    async def create_voice(request: Request):
        data, consent_clip, fields = await read_upload(request)
        name = fields.get("name", "")
        quality = check_choice(fields, "quality", tuple(BUDGETS), "fast")
        denoise = check_choice(fields, "denoise", DENOISE_MODES, "auto")
        backend = check_choice(fields, "backend", tuple(METHODS), "kokoro")
        force = fields.get("force", "false").lower() in ("1", "true", "yes")
        claim = ConsentClaim(by=fields.get("consent_by", ""), clip=consent_clip)
        if require_consent and not claim.given:  # before a job is accepted
            raise required()
        run = functools.partial(cloner, consent=claim, require_consent=require_consent, actor=actor_of(request))

        if quality == "fast":
            result = await run_in_threadpool(run, data, name, quality, force, denoise, backend)
            return JSONResponse({"object": "voice", **result.to_dict()}, status_code=201)

        with lock:
            running = sum(job.status == "running" for job in jobs.values())
        if running >= MAX_RUNNING:
            raise ApiError(429, f"{running} clone jobs are running; retry when one is done", "rate_limit_error",
                           code="too_many_jobs", headers={"Retry-After": "30"})
        # what would fail at once fails now, not in a job the client polls for a minute
        await run_in_threadpool(screen, data, name, force, denoise)
        job = Job(id=uuid.uuid4().hex, name=name, quality=quality)

        def progress(elapsed: float, similarity: float) -> None:
            job.elapsed_s, job.similarity = elapsed, similarity

        def work() -> None:
            try:
                job.result = run(data, name, quality, force, denoise, backend, progress).to_dict()
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

    @app.get("/v1/voices/jobs/{job_id}", dependencies=[Depends(authorized)], responses=errors(400, 401, 404),
             operation_id="clone_job")
    async def clone_job(job_id: str):
        job = jobs.get(job_id)
        if job is None:
            raise ApiError(404, f"no clone job {job_id!r}", "not_found_error", param="job_id", code="job_not_found")
        return job.to_dict()

    @app.delete("/v1/voices/{name}", dependencies=[Depends(authorized)], responses=errors(400, 401, 404),
                operation_id="delete_voice")
    async def delete_voice(name: str, request: Request):
        await run_in_threadpool(forget, name, actor_of(request))  # SQLite and the engine: off the event loop
        return {"object": "voice.deleted", "name": name, "deleted": True}

    def screen(data: bytes, name: str, force: bool, denoise: str) -> None:
        """Refuse a clone job whose clip or name cannot work, before it is accepted."""
        if name:
            check_name(name)
            if not force and store.get(name) is not None:
                raise VoiceExistsError(name)
        prepare(data, denoise)

    def forget(name: str, actor: str) -> None:
        if store.get(name) is None:
            raise ApiError(404, f"no cloned voice named {name!r}", "not_found_error", param="name",
                           code="voice_not_found")
        store.delete(name)
        store.record("delete", name, actor)
        try:
            engine.remove_voice(name)
        except EmovoxError:
            pass  # stored but never registered (e.g. skipped as damaged at startup)
