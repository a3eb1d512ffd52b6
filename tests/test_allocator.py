"""A serving process caps malloc's arenas and hands free pages back (server/allocator.py).

The child process frees 300 MB it allocated in blocks small enough to stay inside malloc's
heap, keeping the last block so the heap's top cannot shrink: only a trim that reaches inside
the heap gives the pages back."""

from __future__ import annotations

import subprocess
import sys

import pytest

from emovox.server.allocator import _glibc

FREED_BUT_HELD = """
import ctypes, time
from emovox.server.allocator import tune_for_serving

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
blocks = [libc.malloc(64 * 1024) for _ in range(4800)]
for block in blocks:
    ctypes.memset(block, 1, 64 * 1024)
for block in blocks[:-1]:
    libc.free(block)
held = rss_mb()
assert tune_for_serving(trim_every_s=0.1)
time.sleep(1.0)
print(held, rss_mb())
"""


@pytest.mark.skipif(_glibc() is None, reason="the allocator settings are glibc's")
def test_a_serving_process_gives_freed_memory_back():
    run = subprocess.run([sys.executable, "-c", FREED_BUT_HELD], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    held_mb, after_mb = map(float, run.stdout.split())
    assert held_mb - after_mb > 250, f"RSS {held_mb:.0f} MB with 300 MB freed, {after_mb:.0f} MB after trimming"
