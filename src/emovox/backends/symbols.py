"""Phoneme strings to a model's symbol ids; symbols the model lacks are dropped and reported."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: Stand-ins for punctuation a model's table may lack: a pause is better than nothing.
_FALLBACK = {"—": ",", "…": ".", ";": ",", ":": ","}


@dataclass(frozen=True)
class Encoded:
    ids: list[int]
    dropped: tuple[str, ...] = ()
    #: For each id, the offset in the phoneme string of the symbol it stands for (-1: framing),
    #: so the model's per-id durations can be given back to the words they belong to.
    sources: tuple[int, ...] = ()


class SymbolTable:
    """A model's phoneme -> id mapping (one symbol may map to several ids, as in Piper)."""

    def __init__(self, ids: Mapping[str, list[int]], unmarked: frozenset[str] = frozenset()) -> None:
        """`unmarked`: marks the model has no symbol for, dropped without a report, the sound they
        mark being kept (a backend says which, and why)."""
        self._ids = dict(ids)
        self._unmarked = unmarked

    @classmethod
    def from_single_ids(cls, ids: Mapping[str, int], unmarked: frozenset[str] = frozenset()) -> SymbolTable:
        return cls({symbol: [index] for symbol, index in ids.items()}, unmarked)

    def __getitem__(self, symbol: str) -> list[int]:
        return self._ids[symbol]

    def lookup(self, phonemes: str) -> Encoded:
        ids: list[int] = []
        sources: list[int] = []
        dropped: list[str] = []
        for offset, symbol in enumerate(phonemes):
            if symbol not in self._ids:
                symbol = _FALLBACK.get(symbol, symbol)
            if symbol in self._ids:
                ids.extend(self._ids[symbol])
                sources.extend([offset] * len(self._ids[symbol]))
            elif symbol not in dropped and symbol not in self._unmarked:
                dropped.append(symbol)
        return Encoded(ids, tuple(dropped), tuple(sources))
