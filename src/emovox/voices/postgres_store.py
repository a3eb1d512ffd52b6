"""The shared voice store: the voice index and the tensors in PostgreSQL (psycopg 3).

Every machine of a cluster points `EMOVOX_STORE` at the same database. A voice is one row,
its tensor inside it, written in one transaction: it appears whole or not at all, and the
primary key takes a name once even when two machines clone under it at the same moment.
Each change is announced on the `emovox_voices` channel (NOTIFY, sent when the transaction
commits), so a process that `watch`es the store forgets a deleted voice, or learns a new
one, without polling.

The schema is versioned: `MIGRATIONS` are applied in order, each once, under an advisory
lock, so replicas starting together do not race; `emovox_schema` records what was applied.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

import numpy as np

from emovox.paths import home_dir
from emovox.voices.audit import COLUMNS as AUDIT_COLUMNS
from emovox.voices.audit import GENESIS, AuditEntry, chain_digest
from emovox.voices.store import (
    StoredVoice,
    VoiceExistsError,
    VoiceStore,
    VoiceStoreError,
    check_name,
    tensor_bytes,
    tensor_from,
)

log = logging.getLogger("emovox")

CHANNEL = "emovox_voices"
#: (version, SQL): applied in order, each once. Never edit one that has shipped: add the next.
MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, """
        CREATE TABLE voices (
            name TEXT PRIMARY KEY,
            backend TEXT NOT NULL,
            based_on TEXT NOT NULL,
            tensor BYTEA NOT NULL,
            source_sha256 TEXT NOT NULL,
            settings TEXT NOT NULL,
            similarity DOUBLE PRECISION NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            meta JSONB NOT NULL
        );
        CREATE INDEX voices_by_source ON voices (source_sha256, settings);
    """),
    (2, """
        CREATE TABLE audit (
            seq BIGSERIAL PRIMARY KEY,
            at DOUBLE PRECISION NOT NULL,
            event TEXT NOT NULL,
            voice TEXT NOT NULL,
            actor TEXT NOT NULL,
            detail JSONB NOT NULL,
            digest TEXT NOT NULL
        );
        CREATE INDEX audit_by_voice ON audit (voice);
        CREATE FUNCTION audit_is_append_only() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
        CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON audit
            FOR EACH ROW EXECUTE FUNCTION audit_is_append_only();
        CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
            FOR EACH STATEMENT EXECUTE FUNCTION audit_is_append_only();
    """),
)
_LOCK_KEY = 0x656D6F766F78  # "emovox": serializes migrations across processes
_COLUMNS = "name, backend, based_on, source_sha256, settings, similarity, created, meta"
#: Seconds between attempts to listen again after the connection dropped.
RECONNECT_S = 1.0


def _psycopg():
    try:
        import psycopg
    except ImportError as e:
        raise VoiceStoreError("a postgresql:// voice store needs psycopg: pip install 'emovox[postgres]'") from e
    return psycopg


class PostgresVoiceStore(VoiceStore):
    def __init__(self, url: str, home: Path | None = None, connect_timeout_s: int = 10) -> None:
        """`home`: this machine's directory for files that are not voices (uploaded books)."""
        self._psycopg = _psycopg()
        self.url = url
        self.home = Path(home) if home is not None else home_dir()
        self._timeout = connect_timeout_s
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self.migrate()

    def __repr__(self) -> str:
        return f"PostgresVoiceStore({self._redacted()!r})"

    def _redacted(self) -> str:
        """The URL without its password, for messages."""
        scheme, _, rest = self.url.partition("://")
        credentials, at, place = rest.rpartition("@")
        return f"{scheme}://{credentials.split(':')[0]}@{place}" if at else self.url

    def _connect(self, **options):
        try:
            return self._psycopg.connect(self.url, connect_timeout=self._timeout, **options)
        except self._psycopg.OperationalError as e:
            raise VoiceStoreError(f"cannot reach the voice store at {self._redacted()}: "
                                  f"{str(e).strip().splitlines()[0]}") from None

    def migrate(self) -> int:
        """Apply the migrations this database has not seen; returns the schema version."""
        with self._connect() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            db.execute("CREATE TABLE IF NOT EXISTS emovox_schema (version INTEGER PRIMARY KEY, "
                       "applied TIMESTAMPTZ NOT NULL DEFAULT now())")
            done = {row[0] for row in db.execute("SELECT version FROM emovox_schema")}
            for version, sql in MIGRATIONS:
                if version not in done:
                    db.execute(sql)
                    db.execute("INSERT INTO emovox_schema (version) VALUES (%s)", (version,))
        return max(version for version, _ in MIGRATIONS)

    # -- reading -------------------------------------------------------------------------

    def list(self) -> list[StoredVoice]:
        with self._connect() as db:
            rows = db.execute(f"SELECT {_COLUMNS} FROM voices ORDER BY name").fetchall()
        return [_voice(row) for row in rows]

    def get(self, name: str) -> StoredVoice | None:
        with self._connect() as db:
            row = db.execute(f"SELECT {_COLUMNS} FROM voices WHERE name = %s", (name,)).fetchone()
        return _voice(row) if row else None

    def find_clone(self, source_sha256: str, settings: str) -> StoredVoice | None:
        with self._connect() as db:
            row = db.execute(f"SELECT {_COLUMNS} FROM voices WHERE source_sha256 = %s AND settings = %s LIMIT 1",
                             (source_sha256, settings)).fetchone()
        return _voice(row) if row else None

    def tensor(self, name: str) -> np.ndarray:
        with self._connect() as db:
            row = db.execute("SELECT tensor FROM voices WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise VoiceStoreError(f"no stored voice named {name!r}")
        return tensor_from(bytes(row[0]))

    # -- writing -------------------------------------------------------------------------

    def save(self, voice: StoredVoice, tensor: np.ndarray, force: bool = False) -> StoredVoice:
        check_name(voice.name)
        values = (voice.name, voice.backend, voice.based_on, tensor_bytes(tensor), voice.source_sha256,
                  voice.settings, float(voice.similarity), voice.created, json.dumps(voice.meta))
        replace = (" ON CONFLICT (name) DO UPDATE SET backend = EXCLUDED.backend, based_on = EXCLUDED.based_on, "
                   "tensor = EXCLUDED.tensor, source_sha256 = EXCLUDED.source_sha256, settings = EXCLUDED.settings, "
                   "similarity = EXCLUDED.similarity, created = EXCLUDED.created, meta = EXCLUDED.meta") if force else ""
        try:
            with self._connect() as db, db.transaction():  # the row and its tensor: whole or not at all
                db.execute("INSERT INTO voices (name, backend, based_on, tensor, source_sha256, settings, similarity, "
                           f"created, meta) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s){replace}", values)
                db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"event": "saved", "name": voice.name})))
        except self._psycopg.errors.UniqueViolation:
            raise VoiceExistsError(voice.name) from None
        return voice

    def delete(self, name: str) -> None:
        with self._connect() as db, db.transaction():
            if db.execute("DELETE FROM voices WHERE name = %s", (name,)).rowcount == 0:
                raise VoiceStoreError(f"no stored voice named {name!r}")
            db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"event": "deleted", "name": name})))

    def _append_audit(self, at: float, event: str, voice: str, actor: str, detail: dict) -> AuditEntry:
        with self._connect() as db, db.transaction():
            db.execute("LOCK TABLE audit IN SHARE ROW EXCLUSIVE MODE")  # appends from every machine, in turn
            row = db.execute("SELECT digest FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
            digest = chain_digest(row[0] if row else GENESIS, at, event, voice, actor, detail)
            seq = db.execute("INSERT INTO audit (at, event, voice, actor, detail, digest) VALUES "
                             "(%s, %s, %s, %s, %s, %s) RETURNING seq",
                             (at, event, voice, actor, json.dumps(detail), digest)).fetchone()[0]
        return AuditEntry(seq, at, event, voice, actor, detail, digest)

    def audit(self, voice: str | None = None) -> list[AuditEntry]:
        where, args = ("WHERE voice = %s", (voice,)) if voice else ("", ())
        with self._connect() as db:
            rows = db.execute(f"SELECT {AUDIT_COLUMNS} FROM audit {where} ORDER BY seq", args).fetchall()
        return [AuditEntry.from_row(row) for row in rows]

    # -- hearing about changes -----------------------------------------------------------

    def watch(self, changed) -> None:
        """Call `changed(event, name)` from a listening thread for every change any process
        commits (this one's too); the thread listens again after a dropped connection."""
        if self._listener is not None:
            raise VoiceStoreError("this store is already watched; open another store to watch twice")
        ready = threading.Event()
        self._listener = threading.Thread(target=self._listen, args=(changed, ready), name="emovox-store-listener",
                                          daemon=True)
        self._listener.start()
        ready.wait(self._timeout)

    def _listen(self, changed, ready: threading.Event) -> None:
        while not self._stopping.is_set():
            try:
                with self._connect(autocommit=True) as db:
                    db.execute(f"LISTEN {CHANNEL}")
                    ready.set()
                    while not self._stopping.is_set():
                        for note in db.notifies(timeout=0.5):
                            message = json.loads(note.payload)
                            try:
                                changed(message["event"], message["name"])
                            except Exception:  # a listener's bug must not stop the listening
                                log.exception("voice store listener failed on %s", message)
            except (VoiceStoreError, self._psycopg.Error) as e:
                ready.set()
                if not self._stopping.is_set():
                    log.warning("voice store notifications interrupted (%s); listening again", e)
                    self._stopping.wait(RECONNECT_S)

    def close(self) -> None:
        self._stopping.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
            self._listener = None


def _voice(row) -> StoredVoice:
    name, backend, based_on, source, settings, similarity, created, meta = row
    return StoredVoice(name, backend, based_on, source, settings, similarity, created,
                       meta if isinstance(meta, dict) else json.loads(meta))


def wait_until_reachable(url: str, timeout_s: float = 30.0) -> None:
    """Block until a PostgreSQL server answers at `url` (a server that was just started)."""
    psycopg = _psycopg()
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with psycopg.connect(url, connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
