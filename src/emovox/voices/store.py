"""Cloned voices on disk: an SQLite index plus content-addressed tensor files.

Crash safety: a tensor is written to a temporary file, fsynced and renamed into place under
its SHA-256 before the index row that points at it is committed in one SQLite transaction;
deleting removes the row first. A writer killed at any moment leaves the index either
without the voice or with it complete (at worst an unreferenced tensor file remains).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from emovox.errors import EmovoxError
from emovox.paths import home_dir, written_atomically

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,47}")
EXPORT_FORMAT = "emovox-voice/1"
#: What each backend's cloned voice is: a Kokoro style pack, or a VITS pitch register.
TENSOR_SHAPES = {"kokoro": (510, 256), "vits": (1, 2)}
_SCHEMA = """
CREATE TABLE IF NOT EXISTS voices (
    name TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    based_on TEXT NOT NULL,
    tensor TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    settings TEXT NOT NULL,
    similarity REAL NOT NULL,
    created REAL NOT NULL,
    meta TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS voices_by_source ON voices (source_sha256, settings);
"""


class VoiceStoreError(EmovoxError, ValueError):
    """A voice name, file or store operation that cannot be done; the message says why."""

    param = "name"


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


class VoiceStore:
    def __init__(self, home: Path | None = None) -> None:
        self.home = Path(home) if home is not None else home_dir()
        self._tensors = self.home / "tensors"
        self._tensors.mkdir(parents=True, exist_ok=True)
        self._index = self.home / "voices.sqlite3"
        with self._connect() as db:
            db.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self._index, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db

    # -- reading -------------------------------------------------------------------------

    def list(self) -> list[StoredVoice]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM voices ORDER BY name").fetchall()
        return [self._voice(row) for row in rows]

    def get(self, name: str) -> StoredVoice | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM voices WHERE name = ?", (name,)).fetchone()
        return self._voice(row) if row else None

    def find_clone(self, source_sha256: str, settings: str) -> StoredVoice | None:
        """A voice already made from the same audio with the same settings (the clone cache)."""
        with self._connect() as db:
            row = db.execute("SELECT * FROM voices WHERE source_sha256 = ? AND settings = ? LIMIT 1",
                             (source_sha256, settings)).fetchone()
        return self._voice(row) if row else None

    def tensor(self, name: str) -> np.ndarray:
        with self._connect() as db:
            row = db.execute("SELECT tensor FROM voices WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise VoiceStoreError(f"no stored voice named {name!r}")
        return np.load(self._tensors / row[0], allow_pickle=False)

    @staticmethod
    def _voice(row) -> StoredVoice:
        name, backend, based_on, _tensor, source, settings, similarity, created, meta = row
        return StoredVoice(name, backend, based_on, source, settings, similarity, created, json.loads(meta))

    # -- writing -------------------------------------------------------------------------

    def save(self, voice: StoredVoice, tensor: np.ndarray, force: bool = False) -> StoredVoice:
        check_name(voice.name)
        if not force and self.get(voice.name) is not None:
            raise VoiceStoreError(f"a voice named {voice.name!r} already exists; choose another name or use --force")
        filename = self._write_tensor(np.ascontiguousarray(tensor, dtype=np.float32))
        verb = "INSERT OR REPLACE" if force else "INSERT"
        try:
            with self._connect() as db:  # one transaction: the row appears complete or not at all
                db.execute(f"{verb} INTO voices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (voice.name, voice.backend, voice.based_on, filename, voice.source_sha256,
                            voice.settings, float(voice.similarity), voice.created, json.dumps(voice.meta)))
        except sqlite3.IntegrityError:  # another writer took the name since the check above
            raise VoiceStoreError(f"a voice named {voice.name!r} already exists; "
                                  "choose another name or use --force") from None
        self._collect_garbage()
        return voice

    def delete(self, name: str) -> None:
        with self._connect() as db:
            if db.execute("DELETE FROM voices WHERE name = ?", (name,)).rowcount == 0:
                raise VoiceStoreError(f"no stored voice named {name!r}")
        self._collect_garbage()

    def _write_tensor(self, tensor: np.ndarray) -> str:
        buffer = io.BytesIO()
        np.save(buffer, tensor, allow_pickle=False)
        data = buffer.getvalue()
        filename = hashlib.sha256(data).hexdigest() + ".npy"
        target = self._tensors / filename
        if target.is_file():
            os.utime(target)  # fresh again: garbage collection spares recent files
        else:
            # durable: the file and its rename survive a power cut before the row commits
            with written_atomically(target, durable=True) as partial:
                partial.write_bytes(data)
        return filename

    def _collect_garbage(self) -> None:
        """Remove tensor files no row points at (left by deletes, replaces or killed writers)."""
        with self._connect() as db:
            used = {row[0] for row in db.execute("SELECT tensor FROM voices")}
        cutoff = time.time() - 60  # leave files a concurrent writer may be about to index
        for path in self._tensors.iterdir():
            try:
                if path.name not in used and path.stat().st_mtime < cutoff:
                    path.unlink(missing_ok=True)
            except FileNotFoundError:  # another process collected it first
                continue

    # -- portable files ------------------------------------------------------------------

    def export(self, name: str, path: Path) -> None:
        voice = self.get(name)
        if voice is None:
            raise VoiceStoreError(f"no stored voice named {name!r}")
        header = json.dumps({"format": EXPORT_FORMAT, **voice.to_dict()})
        buffer = io.BytesIO()
        np.savez_compressed(buffer, tensor=self.tensor(name), header=np.array(header))
        with written_atomically(Path(path)) as partial:
            partial.write_bytes(buffer.getvalue())

    def import_file(self, path: Path, name: str | None = None, force: bool = False) -> StoredVoice:
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
        return self.save(voice, tensor, force=force)
