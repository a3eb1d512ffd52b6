"""Shared fixtures, and the two tiers.

`pytest -m "not slow"` (make test-fast) runs the fast tier: the real pipeline code
(frontends, planner, renderer, scheduler, server, store) through tiny ONNX voices the tests
build for themselves (tests/tiny_models.py), with no model package, no Mandarin build and
no browser. Tests that need those say so with a marker, and every marked test is slow:

    models    the real voices (PyPI model packages, Whisper, the speaker encoder)
    mandarin  the Mandarin voice from `make zh-models`
    browser   Debian's chromium, driven by Playwright
    postgres  a PostgreSQL server of the test run's own (Debian's package, tools/local_postgres.py)
    ray       a local two-node Ray cluster and PostgreSQL (tools/local_cluster.py)

A module of slow tests that only compute in their own process (no server, no time-budgeted
clone search, nothing timed) is also marked `paired`: make test runs those on two pytest-xdist
workers side by side, each model on a thread of its own (`THREADS`), and the rest one at a time.
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Cloned voices and bench results go to a home of the test run's own, never the user's,
# and to its SQLite store even where the shell points EMOVOX_STORE at a cluster's.
TEST_HOME = tempfile.mkdtemp(prefix="emovox-test-home-")
os.environ["EMOVOX_HOME"] = TEST_HOME
os.environ.pop("EMOVOX_STORE", None)

#: Threads for each model in this process: a share of the cores where make test runs the
#: `paired` slow tests on pytest-xdist workers side by side (two processes of one thread get
#: through Kokoro 22 % sooner than one of two: its Sin and STFT nodes run on one); None in a
#: process of its own, where each library keeps its default.
WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
THREADS = max(1, (os.cpu_count() or 1) // WORKERS) if WORKERS > 1 else None
if THREADS:
    os.environ.setdefault("OMP_NUM_THREADS", str(THREADS))  # torch (DistillMOS), before anything imports it

NEEDS = ("models", "mandarin", "browser", "postgres", "ray")
#: Fixtures that stand for the real models: a test using one needs them.
MODEL_FIXTURES = {"engine", "transcriber"}


def pytest_unconfigure(config):
    """The run's home goes with it (every run made one, and /tmp kept them all)."""
    shutil.rmtree(TEST_HOME, ignore_errors=True)


def pytest_collection_modifyitems(items):
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.models)
        if any(item.get_closest_marker(need) for need in NEEDS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def engine():
    """The real engine with every built-in voice; sessions load on first use and are shared."""
    from emovox import from_packages
    from emovox.backends.session import SessionSettings

    return from_packages(SessionSettings(intra_op_threads=THREADS))


@pytest.fixture(scope="session")
def transcriber():
    from emovox.bench.intelligibility import Transcriber

    return Transcriber(threads=THREADS) if THREADS else Transcriber()


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of this test run's own (stopped by its PID at the end)."""
    import shutil

    import local_postgres

    directory = Path(tempfile.mkdtemp(prefix="emovox-pg-"))  # not under pytest's 0700 tmp: the server's user reads it
    try:
        local_postgres.start(directory)
        yield directory
    finally:
        local_postgres.stop(directory)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh, empty database on the test run's server, for one test."""
    import uuid

    import psycopg

    import local_postgres

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(local_postgres.url(postgres_server), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return local_postgres.url(postgres_server, name)


@pytest.fixture(scope="session")
def ray_cluster():
    """Two Ray nodes on 127.0.0.2 and 127.0.0.3 (one CPU each) and PostgreSQL, for the whole
    run; what a shell would export (RAY_ADDRESS, EMOVOX_STORE...) plus RAY_TEMP_DIR (its logs) and CLUSTER_DIR."""
    import shutil

    import local_cluster

    scratch = Path(tempfile.mkdtemp(prefix="emovox-cluster-"))  # not under pytest's 0700 tmp: PostgreSQL reads it
    scratch.chmod(0o755)
    # as deep as a user's checkout may be: too deep for Ray's socket paths (local_cluster.LONGEST_RAY_DIR)
    directory = scratch / "home" / "someone" / "projects" / "emovox" / ".cluster"
    directory.mkdir(parents=True)
    try:
        yield local_cluster.up(directory)
    finally:
        local_cluster.down(directory)
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory) -> Path:
    import tiny_models

    root = tmp_path_factory.mktemp("tiny-voices")
    tiny_models.vits_voice(root / "vits")
    tiny_models.kokoro_model(root / "kokoro")
    tiny_models.kokoro_split_models(root / "kokoro")
    tiny_models.mandarin_build(root / "zh")
    return root


def build_tiny_engine(root: Path, audio_cache_bytes: int = 0, session_settings=None, **kwargs):
    """An engine over the tiny voices: `tiny` (VITS, female), `af_kiko` (Kokoro format) and
    `baker` (FastSpeech2 format, Mandarin); the audio cache is off unless asked.
    `session_settings` runs every model so (ONNX Runtime's defaults otherwise)."""
    import tiny_vocab
    from emovox.backends.fastspeech2 import FastSpeech2Backend
    from emovox.backends.kokoro import KokoroBackend, SplitSessions
    from emovox.backends.session import LazySession, SessionSettings
    from emovox.backends.vits import VitsBackend
    from emovox.engine import Defaults, Engine

    settings = session_settings or SessionSettings()
    model, vocab, packs = root / tiny_vocab.KOKORO_MODEL, tiny_vocab.kokoro_vocab(), tiny_vocab.kokoro_packs()
    text_side, decoder, statistics = (root / "kokoro" / f"tiny-kokoro-{part}.onnx"
                                      for part in ("text", "decoder", "statistics"))
    split = SplitSessions(LazySession(lambda: text_side, settings), LazySession(lambda: decoder, settings),
                          LazySession(lambda: statistics, settings))
    backends = [VitsBackend.from_files(root / "vits" / "tiny.onnx", root / "vits" / "tiny.onnx.json", name="tiny",
                                       gender="female", settings=settings),
                KokoroBackend(LazySession(lambda: model, settings), vocab, packs, split),
                FastSpeech2Backend(root / "zh", settings)]
    defaults = Defaults(voice="tiny", partners={"en": "af_kiko", "zh": "baker"},
                        missing_voices={"narrator": "a voice this deployment does not carry"})
    return Engine(backends, audio_cache_bytes=audio_cache_bytes, defaults=defaults, **kwargs)


@pytest.fixture(scope="session")
def tiny_engine(tiny_dir):
    return build_tiny_engine(tiny_dir)


@pytest.fixture
def fresh_tiny_engine(tiny_dir):
    """A new engine over the tiny voices, for a test that adds voices or counts cache hits."""
    return build_tiny_engine(tiny_dir)
