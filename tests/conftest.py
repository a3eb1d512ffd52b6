import pytest

from emovox import Engine


@pytest.fixture(scope="session")
def engine() -> Engine:
    """The real engine with every built-in voice; sessions load on first use and are shared."""
    return Engine.from_packages()


@pytest.fixture(scope="session")
def transcriber():
    from emovox.bench.intelligibility import Transcriber

    return Transcriber()
