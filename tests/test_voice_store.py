"""The voice stores, each on the real thing: SQLite files, and a PostgreSQL server of the test
run's own. Round trips, names, export/import and killed writers on both; on PostgreSQL also
what a cluster needs: many processes, one schema, and every change heard by every listener."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from emovox.voices.audit import verify
from emovox.voices.store import StoredVoice, VoiceStoreError, open_store

STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=STORES)
def make_store(request, tmp_path):
    """`make_store(place)`: a store of this kind; the same place opens the same store."""
    if request.param == "sqlite":
        return lambda place="a": open_store(tmp_path / place)
    postgres_url = request.getfixturevalue("postgres_url")
    databases = {}

    def make(place="a"):
        if place not in databases:
            databases[place] = postgres_url if not databases else _another_database(postgres_url, place)
        return open_store(tmp_path / "home", url=databases[place])

    return make


def _another_database(url: str, name: str) -> str:
    import psycopg

    base, _, database = url.rpartition("/")
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {database}_{name}")
    return f"{base}/{database}_{name}"


def _voice(name: str, source: str = "abc") -> StoredVoice:
    return StoredVoice(name=name, backend="kokoro", based_on="jm_kumo", source_sha256=source,
                       settings="test", similarity=0.8, created=time.time(), meta={"quality": "fast"})


def test_save_list_get_delete(make_store):
    store = make_store()
    pack = np.random.default_rng(0).standard_normal((510, 256)).astype(np.float32)
    store.save(_voice("maria"), pack)
    assert [v.name for v in make_store().list()] == ["maria"]  # persisted, reopened
    assert store.get("maria").meta == {"quality": "fast"} and store.get("maria").backend == "kokoro"
    assert np.array_equal(store.tensor("maria"), pack)
    assert store.find_clone("abc", "test").name == "maria" and store.find_clone("abc", "other") is None
    with pytest.raises(VoiceStoreError, match="already exists"):
        store.save(_voice("maria"), pack)
    store.save(_voice("maria"), pack * 2, force=True)
    assert np.array_equal(store.tensor("maria"), pack * 2)
    store.delete("maria")
    assert store.list() == [] and store.get("maria") is None
    with pytest.raises(VoiceStoreError, match="no stored voice"):
        store.delete("maria")


@pytest.mark.parametrize("name", ["../../etc/passwd", "a/b", "", ".hidden", "x" * 49, "名字", "a b", "..", "a\x00"])
def test_unsafe_names_are_rejected(make_store, tmp_path, name):
    store = make_store()
    with pytest.raises(VoiceStoreError, match="invalid voice name"):
        store.save(_voice(name), np.zeros((2, 256), np.float32))
    assert store.list() == [] and not list((tmp_path / "a" / "tensors").glob("*"))


def test_export_import_round_trip_and_bad_files(make_store, tmp_path):
    store = make_store("a")
    pack = np.random.default_rng(1).standard_normal((510, 256)).astype(np.float32)
    store.save(_voice("maria"), pack)
    store.export("maria", tmp_path / "maria.emovox")
    other = make_store("b")
    imported = other.import_file(tmp_path / "maria.emovox")
    assert imported.name == "maria" and np.array_equal(other.tensor("maria"), pack)
    (tmp_path / "junk.emovox").write_bytes(b"not a voice")
    with pytest.raises(VoiceStoreError, match="not an exported emovox voice"):
        other.import_file(tmp_path / "junk.emovox")
    with pytest.raises(VoiceStoreError, match="already exists"):
        other.import_file(tmp_path / "maria.emovox")
    assert [v.name for v in other.list()] == ["maria"]


def test_consent_travels_with_an_exported_voice_and_every_step_is_audited(make_store, tmp_path):
    consent = {"method": "declared", "by": "Ana Operator", "at": 1764600000.0, "statement": "declared"}
    store = make_store("a")
    voice = StoredVoice(**{**_voice("maria").to_dict(), "meta": {"quality": "fast", "consent": consent}})
    store.save(voice, np.zeros((510, 256), np.float32))
    store.export("maria", tmp_path / "maria.emovox", actor="cli:ana")
    other = make_store("b")
    other.import_file(tmp_path / "maria.emovox", name="maria-2", actor="cli:ben")
    assert other.get("maria-2").meta["consent"] == consent
    assert [(e.event, e.voice, e.actor) for e in store.audit()] == [("export", "maria", "cli:ana")]
    (entry,) = other.audit("maria-2")
    assert (entry.event, entry.actor, entry.detail["consent"]) == ("import", "cli:ben", consent)


def _raw_sql(store, sql: str) -> None:
    """SQL run beside the store's own connection, as someone with the database file would."""
    if hasattr(store, "url"):
        import psycopg

        with psycopg.connect(store.url, autocommit=True) as db:
            db.execute(sql)
    else:
        import sqlite3

        with sqlite3.connect(store.home / "voices.sqlite3") as db:
            db.execute(sql)


def test_the_audit_log_is_append_only_and_chained(make_store):
    store = make_store()
    for event, voice in [("clone", "maria"), ("use", "maria"), ("use", "maria"), ("delete", "maria"),
                         ("clone", "joan")]:
        store.record(event, voice, "api:127.0.0.1", {"chars": 12})
    entries = store.audit()
    assert [e.event for e in entries] == ["clone", "use", "use", "delete", "clone"]
    assert [e.event for e in store.audit("maria")] == ["clone", "use", "use", "delete"]
    assert [e.seq for e in entries] == sorted(e.seq for e in entries) and verify(entries) is None
    with pytest.raises(ValueError, match="unknown audit event"):
        store.record("rename", "maria", "x")
    for sql in ("UPDATE audit SET actor = 'nobody'", "DELETE FROM audit WHERE event = 'use'"):
        with pytest.raises(Exception, match="append-only"):
            _raw_sql(store, sql)
    assert store.audit() == entries
    # someone who drops the guard and edits an entry breaks the chain at that entry
    drop = ("DROP TRIGGER audit_no_change ON audit" if hasattr(store, "url")
            else "DROP TRIGGER audit_is_append_only_update")
    _raw_sql(store, drop)
    _raw_sql(store, f"UPDATE audit SET actor = 'nobody' WHERE seq = {entries[2].seq}")
    assert verify(store.audit()) == entries[2].seq


WRITER = """
import sys, time, numpy as np
from emovox.voices.store import StoredVoice, open_store
store = open_store(url=sys.argv[1])
rng = np.random.default_rng()
for i in range(100000):
    pack = rng.standard_normal((510, 256)).astype(np.float32)
    pack[0, 0] = i
    store.save(StoredVoice(f"v{i % 7}", "kokoro", "jm_kumo", str(i), "s", 0.5, time.time(), {"i": i}), pack, force=True)
    print(i, flush=True)
"""


def _until_the_server_is_done_with_the_dead_writer(place: str) -> None:
    """A PostgreSQL server finishes a COMMIT its client sent before it was killed: wait for
    that backend to end, or a voice read after it could change between two reads."""
    if "://" not in place:  # a SQLite store: its writes end with the process
        return
    import psycopg

    deadline = time.monotonic() + 10
    with psycopg.connect(place, autocommit=True) as db:
        while time.monotonic() < deadline:
            busy = db.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                              "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')").fetchone()[0]
            if busy == 0:
                return
            time.sleep(0.05)


def test_a_killed_writer_never_corrupts_the_store(make_store, tmp_path):
    store = make_store()
    place = getattr(store, "url", str(tmp_path / "a"))
    for delay in (0.6, 0.9, 1.3):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, place], stdout=subprocess.PIPE, text=True)
        writer.stdout.readline()  # at least one voice written
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        _until_the_server_is_done_with_the_dead_writer(place)
        store = make_store()
        voices = store.list()
        assert voices
        for voice in voices:  # every indexed voice is complete and matches its row
            tensor = store.tensor(voice.name)
            assert tensor.shape == (510, 256) and tensor[0, 0] == voice.meta["i"]


# -- PostgreSQL: what a cluster needs ---------------------------------------------------------

@pytest.mark.postgres
def test_migrations_are_versioned_and_applied_once(postgres_url, tmp_path):
    import psycopg

    from emovox.voices.postgres_store import MIGRATIONS, PostgresVoiceStore

    stores = [PostgresVoiceStore(postgres_url, home=tmp_path) for _ in range(3)]  # replicas starting together
    assert stores[0].migrate() == MIGRATIONS[-1][0]
    with psycopg.connect(postgres_url) as db:
        assert [row[0] for row in db.execute("SELECT version FROM emovox_schema ORDER BY version")] == \
            [version for version, _ in MIGRATIONS]


@pytest.mark.postgres
def test_two_processes_racing_for_one_name_leave_one_voice(postgres_url):
    racer = """
import sys, time, numpy as np
from emovox.voices.audit import verify
from emovox.voices.store import StoredVoice, VoiceStoreError, open_store
store = open_store(url=sys.argv[1])
pack = np.full((510, 256), float(sys.argv[2]), np.float32)
try:
    store.save(StoredVoice("same", "kokoro", "jm_kumo", sys.argv[2], "s", 0.5, time.time(), {}), pack)
    print("saved")
except VoiceStoreError as e:
    print("refused:", e)
"""
    runs = [subprocess.Popen([sys.executable, "-c", racer, postgres_url, str(n)], stdout=subprocess.PIPE, text=True)
            for n in range(4)]
    outcomes = [run.communicate(timeout=60)[0] for run in runs]
    assert sum(o.startswith("saved") for o in outcomes) == 1
    assert all("already exists" in o for o in outcomes if not o.startswith("saved"))
    store = open_store(url=postgres_url)
    winner = store.get("same")
    assert np.all(store.tensor("same") == float(winner.source_sha256))  # the winner's tensor, whole


@pytest.mark.postgres
def test_every_watcher_hears_every_change(postgres_url, tmp_path):
    import threading

    heard: list[tuple[str, str]] = []
    arrived = threading.Condition()

    def changed(event, name):
        with arrived:
            heard.append((event, name))
            arrived.notify_all()

    listener, writer = open_store(tmp_path, url=postgres_url), open_store(tmp_path, url=postgres_url)
    listener.watch(changed)
    try:
        writer.save(_voice("maria"), np.zeros((510, 256), np.float32))
        writer.delete("maria")
        with arrived:
            assert arrived.wait_for(lambda: len(heard) >= 2, timeout=10)
        assert heard == [("saved", "maria"), ("deleted", "maria")]
    finally:
        listener.close()


@pytest.mark.postgres
def test_an_unreachable_server_is_a_clear_error(tmp_path):
    import local_postgres

    url = f"postgresql://postgres@127.0.0.1:{local_postgres.free_port()}/postgres"
    with pytest.raises(VoiceStoreError, match="cannot reach the voice store at postgresql://postgres@127.0.0.1"):
        open_store(tmp_path, url=url)


# -- engines that follow a store other processes write to -------------------------------------

def _register_clone(name: str) -> tuple[StoredVoice, np.ndarray]:
    """A register clone of the tiny VITS voice, three semitones down: a value, as a store keeps it."""
    return (StoredVoice(name=name, backend="vits", based_on="tiny", source_sha256="ref", settings="test",
                        similarity=0.7, created=time.time(), meta={}), np.array([[-3.0, 1.0]], np.float32))


def test_a_voice_stored_by_another_process_speaks_on_first_request(make_store, tiny_dir):
    from conftest import build_tiny_engine
    from emovox.errors import UnknownVoiceError
    from emovox.voices.clone import follow_store

    engine, elsewhere = build_tiny_engine(tiny_dir), make_store()
    follow_store(engine, make_store())
    with pytest.raises(UnknownVoiceError):
        engine.synthesize("Hello there.", voice="deep")
    elsewhere.save(*_register_clone("deep"))  # e.g. cloned through another replica
    deep, plain = engine.synthesize("Hello there.", voice="deep"), engine.synthesize("Hello there.", voice="tiny")
    assert deep.info.voice == "deep" and not np.array_equal(deep.samples, plain.samples)
    assert "deep" in [v.name for v in engine.voices()]


@pytest.mark.postgres
def test_a_delete_anywhere_is_heard_by_every_engine(postgres_url, tiny_dir, tmp_path):
    from conftest import build_tiny_engine
    from emovox.errors import UnknownVoiceError
    from emovox.voices.clone import follow_store

    replicas = [build_tiny_engine(tiny_dir) for _ in range(2)]
    stores = [open_store(tmp_path, url=postgres_url) for _ in replicas]
    for engine, store in zip(replicas, stores):
        follow_store(engine, store, watch=True)
    try:
        stores[0].save(*_register_clone("deep"))
        for engine in replicas:
            assert engine.synthesize("Hello.", voice="deep").info.voice == "deep"
        open_store(tmp_path, url=postgres_url).delete("deep")
        deadline = time.monotonic() + 10
        while any("deep" in [v.name for v in e.voices()] for e in replicas) and time.monotonic() < deadline:
            time.sleep(0.05)
        for engine in replicas:
            with pytest.raises(UnknownVoiceError):
                engine.synthesize("Hello.", voice="deep")
    finally:
        for store in stores:
            store.close()


_SAVE_UNDER_A_FILE_SIZE_LIMIT = """
import resource, signal, sys, time
import numpy as np
from emovox.voices.sqlite_store import SqliteVoiceStore
from emovox.voices.store import StoredVoice, StoreFullError

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # over the limit, a write fails with EFBIG, as on a full disk
store = SqliteVoiceStore(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))
voice = StoredVoice("big", "kokoro", "af_kiko", "ref", "test", 0.7, time.time(), {})
try:
    store.save(voice, np.random.default_rng(0).standard_normal((510, 1, 256)).astype(np.float32))
except StoreFullError as e:
    print("refused:", e.http_status, e.code, e)
"""


def test_a_full_disk_while_saving_a_voice_leaves_nothing_behind(tmp_path):
    """The disk fills as the voice's tensor (half a megabyte) is written: the save is refused
    with a 507 that says why, and the store is as it was: no row, no partial file, a clean
    database, and the next save (with room again) works."""
    from emovox.voices.sqlite_store import SqliteVoiceStore

    SqliteVoiceStore(tmp_path).save(*_register_clone("small"))  # the store before: one voice
    run = subprocess.run([sys.executable, "-c", _SAVE_UNDER_A_FILE_SIZE_LIMIT, str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert "refused: 507 insufficient_storage the voice store's disk is full" in run.stdout, run.stdout + run.stderr
    store = SqliteVoiceStore(tmp_path)
    assert [v.name for v in store.list()] == ["small"] and store.get("big") is None
    assert not [p.name for p in (tmp_path / "tensors").iterdir() if p.name.endswith(".partial")]
    import sqlite3

    with sqlite3.connect(tmp_path / "voices.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store.save(*_register_clone("after"))
    assert {v.name for v in store.list()} == {"small", "after"}
