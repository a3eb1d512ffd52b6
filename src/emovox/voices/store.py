"""Cloned voices, stored: what a stored voice is, and the stores that keep them.

A store keeps an index of voices (name, backend, what each was made from) and each voice's
tensor, with one guarantee whatever is behind it: a voice appears whole or not at all,
and a name is taken once. Two stores implement it:

- `SqliteVoiceStore` (voices/sqlite_store.py), the embedded default for one machine: an
  SQLite index beside content-addressed tensor files;
- `PostgresVoiceStore` (voices/postgres_store.py), shared by every machine of a cluster:
  the index and the tensors in PostgreSQL, changes announced to every listener.

`open_store()` picks one from `EMOVOX_STORE` (a `postgresql://` URL, or a directory).
"""

from __future__ import annotations

import abc
import contextlib
import errno
import io
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from emovox.errors import EmovoxError
from emovox.paths import written_atomically
from emovox.voices.audit import AuditEntry, check_event

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,47}")
EXPORT_FORMAT = "emovox-voice/1"
#: What each backend's cloned voice is: a Kokoro style pack, or a VITS pitch register.
TENSOR_SHAPES = {"kokoro": (510, 256), "vits": (1, 2)}
#: Where the voices are: a `postgresql://` URL, or a directory for the SQLite store.
STORE_VARIABLE = "EMOVOX_STORE"


class VoiceStoreError(EmovoxError, ValueError):
    """A voice name, file or store operation that cannot be done; the message says why."""

    param = "name"


class StoreFullError(VoiceStoreError):
    """The disk under the store is full (or over a quota): nothing was saved."""

    http_status = 507
    error_type = "server_error"
    code = "insufficient_storage"
    param = None

    def __init__(self, where: Path) -> None:
        super().__init__(f"the voice store's disk is full ({where}); nothing was saved: free some space and "
                         "try again")


#: What a write reports when the disk (or the process's file-size limit) has no room left.
_NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


@contextlib.contextmanager
def no_room_is_store_full(where: Path) -> Iterator[None]:
    """Turn an out-of-space failure inside the block into StoreFullError (the block's own
    writes are atomic, so what failed left nothing behind)."""
    try:
        yield
    except OSError as e:
        if e.errno in _NO_ROOM:
            raise StoreFullError(where) from None
        raise
    except sqlite3.OperationalError as e:
        if "full" in str(e).lower():
            raise StoreFullError(where) from None
        raise


class VoiceExistsError(VoiceStoreError):
    """The name is taken: a clone or import names a voice that exists (and did not ask to replace it)."""

    http_status = 409
    code = "voice_exists"

    def __init__(self, name: str) -> None:
        super().__init__(f"a voice named {name!r} already exists; choose another name or use --force")


@dataclass(frozen=True)
class StoredVoice:
    name: str
    backend: str
    based_on: str  # the stock voice adaptation started from (its emotion calibration applies)
    source_sha256: str  # of the reference audio
    settings: str  # what the voice was made with (quality, encoder), for the clone cache
    similarity: float
    created: float
    meta: dict

    def to_dict(self) -> dict:
        return asdict(self)


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name or ""):
        raise VoiceStoreError(f"invalid voice name {name!r}: use 1-48 letters, digits, '-' or '_', "
                              "starting with a letter or digit")
    return name


class VoiceStore(abc.ABC):
    """What every voice store does; export and import are built on the rest."""

    #: This machine's directory for the files that go with the store's users (uploaded books).
    home: Path

    @abc.abstractmethod
    def list(self) -> list[StoredVoice]: ...

    @abc.abstractmethod
    def get(self, name: str) -> StoredVoice | None: ...

    @abc.abstractmethod
    def find_clone(self, source_sha256: str, settings: str) -> StoredVoice | None:
        """A voice already made from the same audio with the same settings (the clone cache)."""

    @abc.abstractmethod
    def tensor(self, name: str) -> np.ndarray: ...

    @abc.abstractmethod
    def save(self, voice: StoredVoice, tensor: np.ndarray, force: bool = False) -> StoredVoice:
        """Store `voice` whole or not at all; an existing name is replaced only with `force`."""

    @abc.abstractmethod
    def delete(self, name: str) -> None: ...

    # -- the audit log (voices/audit.py) --------------------------------------------------

    def record(self, event: str, voice: str, actor: str, detail: dict | None = None) -> AuditEntry:
        """Append an entry to the audit log, chained to the one before it."""
        return self._append_audit(time.time(), check_event(event), voice, actor, dict(detail or {}))

    @abc.abstractmethod
    def _append_audit(self, at: float, event: str, voice: str, actor: str, detail: dict) -> AuditEntry:
        """Append one entry, its digest chained to the last one's, appends serialized."""

    @abc.abstractmethod
    def audit(self, voice: str | None = None) -> list[AuditEntry]:
        """The audit log (of one voice), oldest first."""

    def watch(self, changed: Callable[[str, str], None]) -> None:
        """Call `changed(event, name)` ("saved" or "deleted") when another process changes
        the store. A store only one machine uses has nobody else to hear from."""
        return None

    def close(self) -> None:
        """Stop watching and let go of connections."""
        return None

    # -- portable files ------------------------------------------------------------------

    def export(self, name: str, path: Path, actor: str = "") -> None:
        voice = self.get(name)
        if voice is None:
            raise VoiceStoreError(f"no stored voice named {name!r}")
        header = json.dumps({"format": EXPORT_FORMAT, **voice.to_dict()})
        buffer = io.BytesIO()
        np.savez_compressed(buffer, tensor=self.tensor(name), header=np.array(header))
        with written_atomically(Path(path)) as partial:
            partial.write_bytes(buffer.getvalue())
        self.record("export", name, actor, {"file": Path(path).name})

    def import_file(self, path: Path, name: str | None = None, force: bool = False, actor: str = "") -> StoredVoice:
        try:
            with np.load(path, allow_pickle=False) as archive:
                header = json.loads(str(archive["header"]))
                tensor = archive["tensor"]
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
            raise VoiceStoreError(f"{path} is not an exported emovox voice ({type(e).__name__})") from None
        if header.pop("format", None) != EXPORT_FORMAT:
            raise VoiceStoreError(f"{path} is not an exported emovox voice (format {EXPORT_FORMAT} expected)")
        if tensor.dtype.kind != "f" or tensor.ndim != 2 or not np.isfinite(tensor).all():
            raise VoiceStoreError(f"{path} holds a damaged voice tensor")
        expected = TENSOR_SHAPES.get(header.get("backend"))
        if expected is None or tensor.shape != expected:
            raise VoiceStoreError(f"{path} holds a voice for backend {header.get('backend')!r} with a tensor of "
                                  f"shape {tensor.shape}; this emovox reads {TENSOR_SHAPES}")
        try:
            voice = StoredVoice(**header)
        except TypeError:
            raise VoiceStoreError(f"{path} has an unreadable header") from None
        if name:
            voice = StoredVoice(**{**voice.to_dict(), "name": name})
        saved = self.save(voice, tensor, force=force)
        self.record("import", saved.name, actor, {"file": Path(path).name, "source_sha256": voice.source_sha256,
                                                  "consent": voice.meta.get("consent")})
        return saved


def tensor_bytes(tensor: np.ndarray) -> bytes:
    """A tensor as .npy bytes (float32, C order): what every store keeps."""
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(tensor, dtype=np.float32), allow_pickle=False)
    return buffer.getvalue()


def tensor_from(data: bytes) -> np.ndarray:
    return np.load(io.BytesIO(data), allow_pickle=False)


def open_store(home: Path | None = None, url: str | None = None) -> VoiceStore:
    """The voice store `url` names, else `$EMOVOX_STORE`, else the SQLite store under `home`
    (default: $EMOVOX_HOME or the user data directory).

    A `postgresql://` (or `postgres://`) URL opens the shared PostgreSQL store (needs
    psycopg: `pip install 'emovox[postgres]'`); anything else is a directory."""
    location = url or os.environ.get(STORE_VARIABLE, "")
    if location.startswith(("postgresql://", "postgres://")):
        from emovox.voices.postgres_store import PostgresVoiceStore

        return PostgresVoiceStore(location, home=home)
    from emovox.voices.sqlite_store import SqliteVoiceStore

    return SqliteVoiceStore(Path(location) if location and home is None else home)
