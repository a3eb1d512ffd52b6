"""Where emovox keeps files, and the one way it writes them.

Two places: the cache (rebuildable: reassembled and edited models, variants, the Mandarin
build) and the home (the user's own data: cloned voices, bench results). Every writer goes
through `written_atomically`, so a process killed mid-write never leaves a file that looks
finished: readers see the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def cache_dir() -> Path:
    """$EMOVOX_CACHE, else $XDG_CACHE_HOME/emovox, else ~/.cache/emovox."""
    if override := os.environ.get("EMOVOX_CACHE"):
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "emovox"


def zh_models_dir() -> Path:
    """Where `make zh-models` puts the Mandarin voice's ONNX files (converted at build time)."""
    return cache_dir() / "zh"


def home_dir() -> Path:
    """$EMOVOX_HOME, else the user's data directory ($XDG_DATA_HOME or ~/.local/share)/emovox."""
    if override := os.environ.get("EMOVOX_HOME"):
        return Path(override)
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "emovox"


@contextmanager
def written_atomically(target: Path, durable: bool = False) -> Iterator[Path]:
    """A temporary path beside `target` to write; renamed onto `target` only if the block
    completes. `durable` also fsyncs the file before the rename and the directory after it,
    so the new file survives a power cut (for data that an index will point at)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    os.close(handle)
    try:
        yield Path(partial)
        if durable:
            _fsync(partial, os.O_RDONLY)
        os.replace(partial, target)
        if durable:
            _fsync(target.parent, os.O_RDONLY)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def _fsync(path: str | Path, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
