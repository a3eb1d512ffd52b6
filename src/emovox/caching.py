"""The engine's caches and what they report: phonemes, prosody controls, synthesized audio.

Both models run without sampling noise, so the same ids, voice, speed and controls always
give the same waveform: a repeated phrase (a game's stock lines, an assistant's "one
moment, please") is synthesized once and then served from memory.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from cachetools import LRUCache

#: Default memory for cached audio: about 6 minutes of 22 kHz float32 speech.
AUDIO_CACHE_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int
    entries: int

    @property
    def hit_ratio(self) -> float:
        looked_up = self.hits + self.misses
        return self.hits / looked_up if looked_up else 0.0

    @classmethod
    def of_lru(cls, function) -> CacheStats:
        """Stats of a `functools.lru_cache`-wrapped function."""
        info = function.cache_info()
        return cls(info.hits, info.misses, info.currsize)


def read_only(value):
    """A copy of an array (or of a value made of arrays) that nobody can change."""
    if isinstance(value, np.ndarray):
        copy = value.copy()
        copy.setflags(write=False)
        return copy
    return value.read_only()


class AudioCache:
    """Waveforms by what produced them, bounded by their total size in bytes (LRU). A value
    is an array, or anything with `nbytes` and a `read_only()` copy (a waveform with timings)."""

    def __init__(self, max_bytes: int = AUDIO_CACHE_BYTES) -> None:
        self._entries: LRUCache = LRUCache(maxsize=max(1, max_bytes), getsizeof=lambda value: value.nbytes)
        self._enabled = max_bytes > 0
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    def get(self, key: Hashable, *others: Hashable):
        """The value under `key`, else under the first of `others` that has one: one lookup
        counted, a hit or a miss."""
        if not self._enabled:
            return None
        with self._lock:
            samples = next((value for value in map(self._entries.get, (key, *others)) if value is not None), None)
            if samples is None:
                self._misses += 1
            else:
                self._hits += 1
            return samples

    def put(self, key: Hashable, value) -> None:
        if not self._enabled or value.nbytes > self._entries.maxsize:
            return
        value = read_only(value)  # callers share the cached value: nobody may change it
        with self._lock:
            self._entries[key] = value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self._hits, self._misses, len(self._entries))
