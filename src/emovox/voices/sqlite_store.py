"""The embedded voice store: an SQLite index plus content-addressed tensor files, for one machine.

Crash safety: a tensor is written to a temporary file, fsynced and renamed into place under
its SHA-256 before the index row that points at it is committed in one SQLite transaction;
deleting removes the row first. A writer killed at any moment leaves the index either
without the voice or with it complete (at worst an unreferenced tensor file remains).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from emovox.paths import home_dir, written_atomically
from emovox.voices.audit import COLUMNS as AUDIT_COLUMNS
from emovox.voices.audit import GENESIS, AuditEntry, chain_digest
from emovox.voices.store import (
    StoredVoice,
    VoiceExistsError,
    VoiceStore,
    VoiceStoreError,
    check_name,
    no_room_is_store_full,
    tensor_bytes,
    tensor_from,
)

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
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    event TEXT NOT NULL,
    voice TEXT NOT NULL,
    actor TEXT NOT NULL,
    detail TEXT NOT NULL,
    digest TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_voice ON audit (voice);
CREATE TRIGGER IF NOT EXISTS audit_is_append_only_update BEFORE UPDATE ON audit
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_is_append_only_delete BEFORE DELETE ON audit
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""
#: An unreferenced tensor file younger than this may be one a concurrent writer is about to index.
GARBAGE_AGE_S = 60


class SqliteVoiceStore(VoiceStore):
    def __init__(self, home: Path | None = None) -> None:
        self.home = Path(home) if home is not None else home_dir()
        self._tensors = self.home / "tensors"
        self._tensors.mkdir(parents=True, exist_ok=True)
        self._index = self.home / "voices.sqlite3"
        with self._connect() as db:
            db.executescript(_SCHEMA)

    def __repr__(self) -> str:
        return f"SqliteVoiceStore({str(self.home)!r})"

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection for one block: committed when it ends (rolled back on an error) and
        closed, not left to the garbage collector (a soak of clones left file descriptors open
        until a collection found them)."""
        db = sqlite3.connect(self._index, timeout=30)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            with db:
                yield db
        finally:
            db.close()

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
        with self._connect() as db:
            row = db.execute("SELECT * FROM voices WHERE source_sha256 = ? AND settings = ? LIMIT 1",
                             (source_sha256, settings)).fetchone()
        return self._voice(row) if row else None

    def tensor(self, name: str) -> np.ndarray:
        with self._connect() as db:
            row = db.execute("SELECT tensor FROM voices WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise VoiceStoreError(f"no stored voice named {name!r}")
        return tensor_from((self._tensors / row[0]).read_bytes())

    @staticmethod
    def _voice(row) -> StoredVoice:
        name, backend, based_on, _tensor, source, settings, similarity, created, meta = row
        return StoredVoice(name, backend, based_on, source, settings, similarity, created, json.loads(meta))

    # -- writing -------------------------------------------------------------------------

    def save(self, voice: StoredVoice, tensor: np.ndarray, force: bool = False) -> StoredVoice:
        check_name(voice.name)
        if not force and self.get(voice.name) is not None:
            raise VoiceExistsError(voice.name)
        verb = "INSERT OR REPLACE" if force else "INSERT"
        try:
            with no_room_is_store_full(self.home):
                filename = self._write_tensor(tensor_bytes(tensor))
                with self._connect() as db:  # one transaction: the row appears complete or not at all
                    db.execute(f"{verb} INTO voices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               (voice.name, voice.backend, voice.based_on, filename, voice.source_sha256,
                                voice.settings, float(voice.similarity), voice.created, json.dumps(voice.meta)))
        except sqlite3.IntegrityError:  # another writer took the name since the check above
            raise VoiceExistsError(voice.name) from None
        self._collect_garbage()
        return voice

    def delete(self, name: str) -> None:
        with self._connect() as db:
            if db.execute("DELETE FROM voices WHERE name = ?", (name,)).rowcount == 0:
                raise VoiceStoreError(f"no stored voice named {name!r}")
        self._collect_garbage()

    def _append_audit(self, at: float, event: str, voice: str, actor: str, detail: dict) -> AuditEntry:
        db = sqlite3.connect(self._index, timeout=30)
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.isolation_level = None
            db.execute("BEGIN IMMEDIATE")  # the write lock first: appends are serialized
            row = db.execute("SELECT digest FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
            digest = chain_digest(row[0] if row else GENESIS, at, event, voice, actor, detail)
            seq = db.execute("INSERT INTO audit (at, event, voice, actor, detail, digest) VALUES (?, ?, ?, ?, ?, ?)",
                             (at, event, voice, actor, json.dumps(detail, ensure_ascii=False), digest)).lastrowid
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()
        return AuditEntry(seq, at, event, voice, actor, detail, digest)

    def audit(self, voice: str | None = None) -> list[AuditEntry]:
        where, args = ("WHERE voice = ?", (voice,)) if voice else ("", ())
        with self._connect() as db:
            rows = db.execute(f"SELECT {AUDIT_COLUMNS} FROM audit {where} ORDER BY seq", args).fetchall()
        return [AuditEntry.from_row(row) for row in rows]

    def _write_tensor(self, data: bytes) -> str:
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
        cutoff = time.time() - GARBAGE_AGE_S
        for path in self._tensors.iterdir():
            try:
                if path.name not in used and path.stat().st_mtime < cutoff:
                    path.unlink(missing_ok=True)
            except FileNotFoundError:  # another process collected it first
                continue
