"""Deployment profiles: named sets of the knobs that trade memory, latency and throughput.

A profile says which models to carry, how ONNX Runtime threads are spent, how many chunks
run at once, whether chunks are batched, how early the first chunk is cut, and how much
memory the audio cache may hold. The CLI (`--profile`), the server and Python
(`Profile.engine()`) all read the same table.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from emovox.backends.session import SessionSettings
from emovox.errors import InvalidOptionError


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    #: Models the engine carries: "vits" (joe, 63 MB), "hibari" (heart, 8 MB), "kokoro" (five voices, 325 MB).
    backends: tuple[str, ...]
    #: The voice a request gets when it names none.
    default_voice: str
    #: The VITS model variant (backends/variants.py); Kokoro ships as int8 already.
    precision: str
    #: ONNX Runtime execution providers, in order of preference (CPU when none is installed).
    providers: tuple[str, ...]
    #: Intra-op threads per ONNX Runtime session (None: ORT's default, one per core).
    intra_op_threads: int | None
    #: Chunks each backend synthesizes at once (0: one per core).
    workers: int
    #: Batching: how long a worker waits for more jobs, and the most jobs in one pass.
    batch_window_ms: float
    max_batch: int
    #: A first sentence longer than this is cut at a clause so audio starts sooner (None: never).
    first_segment_chars: int | None
    audio_cache_mb: int
    #: ONNX Runtime's memory arena (backends/session.py): "kept", "shrinking" or "off".
    memory_arena: str = "shrinking"

    def session_settings(self) -> SessionSettings:
        return SessionSettings(intra_op_threads=self.intra_op_threads, providers=self.providers,
                               memory_arena=self.memory_arena)

    @property
    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1

    def engine(self, home=None):
        """An engine with this profile's models, threads and caches (stored voices from `home`)."""
        from dataclasses import replace

        from emovox import compose

        return compose.from_packages(self.session_settings(), home=home, backends=self.backends,
                              audio_cache_bytes=self.audio_cache_mb * 2**20,
                              first_segment_chars=self.first_segment_chars, vits_precision=self.precision,
                              defaults=replace(compose.DEFAULTS, voice=self.default_voice))

    def to_dict(self) -> dict:
        return asdict(self)


CPU = ("CPUExecutionProvider",)

PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile(
        name="edge",
        description="smallest footprint: the two native voices only (63 MB and 8 MB models), one chunk at a time, "
                    "small caches, no inference memory arena",
        backends=("vits", "hibari"), default_voice="heart", precision="int8", providers=CPU, intra_op_threads=None, workers=1,
        batch_window_ms=0.0, max_batch=1, first_segment_chars=100, audio_cache_mb=8, memory_arena="off",
    ),
    Profile(
        name="realtime",
        description="lowest time to first audio: every core on one chunk, first sentence cut early",
        backends=("vits", "hibari", "kokoro"), default_voice="heart", precision="fp32", providers=CPU, intra_op_threads=None,
        workers=1, batch_window_ms=0.0, max_batch=1, first_segment_chars=60, audio_cache_mb=32,
    ),
    Profile(
        name="quality",
        description="the Kokoro voices with in-model pitch for emotion; whole sentences, never cut early",
        backends=("vits", "hibari", "kokoro"), default_voice="jf_alpha", precision="fp32", providers=CPU, intra_op_threads=None,
        workers=1,
        batch_window_ms=0.0, max_batch=1, first_segment_chars=None, audio_cache_mb=32,
    ),
    Profile(
        name="batch",
        description="highest throughput for offline jobs: one single-threaded chunk per core, no batching "
                    "(padded batches did not pay on CPU)",
        backends=("vits", "hibari", "kokoro"), default_voice="heart", precision="fp32", providers=CPU, intra_op_threads=1,
        workers=0, batch_window_ms=0.0, max_batch=1, first_segment_chars=None, audio_cache_mb=64,
    ),
    Profile(
        name="gpu",
        description="CUDA (TensorRT where installed) with dynamic batching; needs onnxruntime-gpu, falls back "
                    "to CPU with a warning. Not measured here: no GPU was available to this project yet",
        backends=("vits", "hibari", "kokoro"), default_voice="jf_alpha", precision="fp32",
        providers=("TensorrtExecutionProvider", "CUDAExecutionProvider", "CPUExecutionProvider"),
        intra_op_threads=None, workers=4, batch_window_ms=10.0, max_batch=8, first_segment_chars=60,
        audio_cache_mb=64,
    ),
)}
DEFAULT_PROFILE = "realtime"


def profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise InvalidOptionError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}") from None
