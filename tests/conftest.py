import os
import tempfile

import pytest

from emovox import Engine

# Cloned voices go to a store of the test run's own, never the user's.
os.environ["EMOVOX_HOME"] = tempfile.mkdtemp(prefix="emovox-test-home-")


@pytest.fixture(scope="session")
def engine() -> Engine:
    """The real engine with every built-in voice; sessions load on first use and are shared."""
    return Engine.from_packages()


@pytest.fixture(scope="session")
def transcriber():
    from emovox.bench.intelligibility import Transcriber

    return Transcriber()
