"""The C allocator of a process that serves for days: few malloc arenas, free pages given back.

glibc's malloc gives a thread that finds the arenas busy an arena of its own, up to eight per
core, and keeps what is freed in an arena for that arena's next caller. A server has many
threads that allocate (uvicorn's thread pool, the scheduler's workers, ONNX Runtime's
intra-op threads, the audio encoders), so freed memory ends up spread across sixteen arenas
on two cores, mostly not reusable by the thread that next needs it, and never returned. The
35-minute soak on the real voices (benchmarks/soak.py) grew 1.61 GB to 2.14 GB that way,
by steps, with no leak in the Python heap.

The cure is glibc's own two knobs, set when the server starts: at most two arenas
(`M_ARENA_MAX`, the `MALLOC_ARENA_MAX=2` that JVM and Ruby deployments use), and every
`TRIM_EVERY_S` a `malloc_trim(0)`, which hands the free pages inside every arena back to the
kernel rather than only the free top of the main heap. ONNX Runtime's own arena is the
other half of the story: the serving profiles have it shrink after each run
(backends/session.py). benchmarks/memory_settings.py, 80 new sentences twice on four threads
on the realtime profile: as things came, 1.35 then 1.41 GB; arena shrinking and malloc tuned,
1.00 then 1.06 GB, as fast (41.9 s a pass against 45.0). An hour of `emovox serve` under mixed
traffic then held 1.03-1.09 GB (median of each quarter; benchmarks/soak.py).

Elsewhere than glibc (musl, macOS) this does nothing and says so.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
import time
from functools import cache

logger = logging.getLogger(__name__)

#: mallopt's parameter number for the arena cap (glibc's malloc.h).
_M_ARENA_MAX = -8
#: Arenas a serving process may use.
ARENAS = 2
#: Seconds between handing free pages back.
TRIM_EVERY_S = 30.0

_started = threading.Lock()
_trimmer: threading.Thread | None = None


def tune_for_serving(trim_every_s: float = TRIM_EVERY_S) -> bool:
    """Cap malloc's arenas and start the trimming thread (once per process); False where the
    C library is not glibc."""
    global _trimmer
    libc = _glibc()
    if libc is None:
        logger.info("not glibc: the allocator keeps its own settings")
        return False
    with _started:
        if _trimmer is None:
            libc.mallopt(_M_ARENA_MAX, ARENAS)
            _trimmer = threading.Thread(target=_trim_forever, args=(libc, trim_every_s), name="emovox-malloc-trim",
                                        daemon=True)
            _trimmer.start()
    return True


def _trim_forever(libc: ctypes.CDLL, every_s: float) -> None:
    while True:  # a daemon thread: it lives as long as the process
        time.sleep(every_s)
        libc.malloc_trim(0)


@cache
def _glibc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # noqa: B018 - present only in glibc
    except (OSError, AttributeError):
        return None
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.malloc_trim.argtypes = [ctypes.c_size_t]
    return libc
