"""The one place ONNX Runtime sessions are built.

Sessions are created lazily (first use), once, under a lock, and shared: ORT's `run` is
thread-safe, so every thread of the process uses the same session and its memory.

Each session has its own intra-op thread pool, and by default those threads spin for a
while after every run, waiting for the next. One model in a process loses nothing by it;
emovox runs several (a streaming voice is two graphs, a text side and a decoder, and the
server holds every backend), and on two cores one session's spinning threads took the CPU
from the next session's run: joe's eight short sentences took 0.61 s with spinning against
0.36 s without, and piper-tts running the same whole graph took 0.40 s (benchmarks/rtf.py).
ORT's process-wide thread pool would remove the duplication, but it must then be the pool
of every session in the process, a peer runtime's too, so spinning is turned off instead.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from emovox.errors import InvalidOptionError, ModelAssetError

log = logging.getLogger("emovox")


@dataclass(frozen=True)
class SessionSettings:
    """How to run a model: thread counts and execution providers (None = ORT's default)."""

    intra_op_threads: int | None = None
    inter_op_threads: int = 1
    providers: tuple[str, ...] = ("CPUExecutionProvider",)
    #: Whether idle intra-op threads spin waiting for work (module docstring: off, since
    #: the process runs several sessions on few cores).
    spinning: bool = False
    #: ORT's memory arena, which keeps freed tensor memory for the next run: "kept" (what
    #: every speed figure was measured with, but the arena only grows: a server on the real
    #: voices kept climbing 10 MB a minute for half an hour), "shrinking" (each run hands back
    #: the arena regions it left empty: what the serving profiles use;
    #: benchmarks/memory_settings.py) or "off" (every tensor from malloc: the edge profile).
    memory_arena: str = "kept"

    def __post_init__(self) -> None:
        if self.memory_arena not in MEMORY_ARENA:
            raise InvalidOptionError(f"memory_arena {self.memory_arena!r}: choose one of {', '.join(MEMORY_ARENA)}")


MEMORY_ARENA = ("kept", "shrinking", "off")


def create_session(path: Path | bytes, settings: SessionSettings = SessionSettings()) -> Any:
    """A session for the model file at `path` (or a serialized model, e.g. an edited graph)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.inter_op_num_threads = settings.inter_op_threads
    if settings.intra_op_threads:
        options.intra_op_num_threads = settings.intra_op_threads
    options.log_severity_level = 3
    options.enable_cpu_mem_arena = settings.memory_arena != "off"
    if not settings.spinning:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    providers = usable_providers(settings.providers)
    try:
        source = path if isinstance(path, bytes) else os.fspath(path)
        if settings.memory_arena == "shrinking":
            return _shrinking_session_class()(source, sess_options=options, providers=providers)
        return ort.InferenceSession(source, sess_options=options, providers=providers)
    except Exception as e:  # ORT raises its own exception types for bad files
        what = "the edited model" if isinstance(path, bytes) else path
        raise ModelAssetError(f"ONNX Runtime cannot load {what}: {e}") from e


@cache
def _shrinking_session_class() -> type:
    """An InferenceSession whose every run ends by shrinking its CPU arena (unless the caller
    passes run options of its own)."""
    import onnxruntime as ort

    shrink = ort.RunOptions()
    shrink.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    class ShrinkingSession(ort.InferenceSession):
        def run(self, output_names, input_feed, run_options=None):
            return super().run(output_names, input_feed, run_options or shrink)

    return ShrinkingSession


class LazySession:
    """A session built on first use, once, and shared by every caller."""

    def __init__(self, path_factory, settings: SessionSettings = SessionSettings()) -> None:
        self._path_factory = path_factory
        self._settings = settings
        self._session: Any = None
        self._lock = threading.Lock()

    @property
    def model_path(self) -> Path | None:
        """The model file this session runs (None for a model built in memory)."""
        source = self._path_factory()
        return None if isinstance(source, bytes) else Path(source)

    def get(self) -> Any:
        if self._session is None:
            with self._lock:
                if self._session is None:
                    self._session = create_session(self._path_factory(), self._settings)
        return self._session


def usable_providers(requested: tuple[str, ...]) -> list[str]:
    """The requested execution providers this onnxruntime build has, in order; CPU when
    none is, with a warning that says what to install."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    usable = [p for p in requested if p in available]
    missing = [p for p in requested if p not in available]
    if missing:
        hint = " (install onnxruntime-gpu in place of onnxruntime for CUDA and TensorRT)" \
            if any(p in ("CUDAExecutionProvider", "TensorrtExecutionProvider") for p in missing) else ""
        log.warning("execution providers %s are not available in this onnxruntime (it has %s); running on %s%s",
                    ", ".join(missing), ", ".join(available), ", ".join(usable or ["CPUExecutionProvider"]), hint)
    return usable or ["CPUExecutionProvider"]
