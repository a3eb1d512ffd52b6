"""The voice catalogue: which voices exist, under which names, and which backend speaks each.

Built-in voices come from the backends; cloned voices are added and removed at run time
while other threads synthesize, so every change replaces the mappings (copy on write) and
readers always see one consistent view. A clone is a value: on a STYLE backend its pack is
handed to the model under the clone's name; on a REGISTER backend it is the base voice plus
a pitch register, kept here and added to every request's controls by the planner.

Per-voice facts (the speech level that loudness matching in mixed text needs) are measured
once per voice, the first time they are needed, by a function the engine hands in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from emovox.backends.base import Backend, Cloning
from emovox.errors import InvalidOptionError, UnknownVoiceError
from emovox.types import Equalizer, Prosody, VoiceInfo


@dataclass(frozen=True)
class Entry:
    """A speakable voice: what it is, who speaks it, and how the model is asked for it."""

    info: VoiceInfo
    backend: Backend
    #: The voice the backend's model is asked for (a register clone speaks with its base voice).
    model_voice: str
    #: Added to every request's controls (a register clone's pitch level and range, a style
    #: clone's finishing register).
    register: Prosody = Prosody()
    #: A style clone's finishing equalizer (voices/finish.py).
    equalizer: Equalizer | None = None

    @property
    def calibrated_as(self) -> str:
        """The stock voice whose emotion calibration this voice uses."""
        return self.info.based_on or self.info.name


class VoiceCatalogue:
    def __init__(self, backends: Iterable[Backend], missing: Mapping[str, str] | None = None) -> None:
        """`missing`: for voice names this deployment does not carry, how to get them (shown
        in the unknown-voice error)."""
        self._backends: dict[str, Backend] = {}
        for backend in backends:
            if backend.name in self._backends:
                raise InvalidOptionError(f"two backends are both named {backend.name!r}")
            self._backends[backend.name] = backend
        self._missing = dict(missing or {})
        self._entries: dict[str, Entry] = {}
        self._aliases: dict[str, str] = {}
        self._facts: dict[tuple[str, str], float] = {}
        self._facts_lock = threading.Lock()
        self._find_missing: Callable[[str], bool] | None = None
        for backend in self._backends.values():
            for voice in backend.voices():
                self._put(Entry(voice, backend, voice.name))

    # -- reading -------------------------------------------------------------------------

    @property
    def backends(self) -> list[Backend]:
        return list(self._backends.values())

    def backend(self, name: str) -> Backend:
        try:
            return self._backends[name]
        except KeyError:
            raise InvalidOptionError(f"no {name!r} backend in this engine; it has {', '.join(self._backends)}") \
                from None

    def voices(self) -> list[VoiceInfo]:
        return [entry.info for entry in self._entries.values()]

    def names(self) -> list[str]:
        """Every name a request may use: the voices' and their aliases."""
        return sorted({*self._entries, *self._aliases})

    def entry(self, name: str, param: str = "voice") -> Entry:
        """The voice a name or alias stands for (UnknownVoiceError lists the valid names)."""
        entries = self._entries
        canonical = self._aliases.get(name, name)
        if canonical not in entries and self._find_missing is not None and self._find_missing(name):
            entries = self._entries  # it was added meanwhile (a voice cloned by another process)
        if canonical not in entries:
            raise UnknownVoiceError(name, list(entries) + list(self._aliases), self._missing.get(name, ""),
                                    param=param)
        return entries[canonical]

    def speakers_of(self, language: str) -> list[Entry]:
        """Stock voices that speak `language` (partners for mixed text)."""
        return [e for e in self._entries.values() if e.info.language == language and not e.info.based_on]

    # -- changing ------------------------------------------------------------------------

    def find_missing_with(self, find: Callable[[str], bool] | None) -> None:
        """On a name the catalogue does not know, call `find(name)` first: it may `add` the
        voice (from a store other processes write to) and says whether it did."""
        self._find_missing = find

    def add(self, info: VoiceInfo, conditioning: np.ndarray, register: Prosody = Prosody(),
            equalizer: Equalizer | None = None) -> Entry:
        """Make a cloned voice speakable by name; a built-in name or alias is never taken over.
        A style clone may bring a finishing `register` and `equalizer` (voices/finish.py)."""
        existing = self._entries.get(self._aliases.get(info.name, info.name))
        if existing and not existing.info.based_on:
            raise InvalidOptionError(f"voice name {info.name!r} is taken by a built-in voice")
        backend = self.backend(info.backend)
        capabilities = backend.capabilities
        if capabilities.cloning is Cloning.NONE:
            raise InvalidOptionError(f"the {backend.name} model has one speaker; cloning onto it is not supported")
        conditioning = np.asarray(conditioning, dtype=np.float32)
        if capabilities.conditioning_shape and conditioning.shape != capabilities.conditioning_shape:
            raise InvalidOptionError(f"a {backend.name} clone is a tensor of shape {capabilities.conditioning_shape}, "
                                     f"not {conditioning.shape}")
        base = self.entry(info.based_on) if info.based_on else None
        if capabilities.cloning is Cloning.STYLE:
            backend.add_voice(info.name, conditioning)
            entry = Entry(info, backend, info.name, register, equalizer)
        else:
            pitch_st, pitch_range = (float(v) for v in conditioning.reshape(-1)[:2])
            model_voice = base.model_voice if base else backend.voices()[0].name
            entry = Entry(info, backend, model_voice, Prosody(pitch_st=pitch_st, pitch_range=pitch_range))
        self._put(entry)
        self._forget_facts(info.name)
        return entry

    def remove(self, name: str) -> None:
        """Forget a cloned voice (built-in voices cannot be removed)."""
        entry = self.entry(name)
        if not entry.info.based_on:
            raise InvalidOptionError(f"{name!r} is a built-in voice and cannot be removed")
        if entry.model_voice == entry.info.name:
            entry.backend.remove_voice(entry.info.name)
        self._entries = {k: v for k, v in self._entries.items() if k != entry.info.name}
        self._forget_facts(entry.info.name)

    def _put(self, entry: Entry) -> None:
        # Copy on write: threads that are listing or resolving voices keep a consistent view.
        self._entries = {**self._entries, entry.info.name: entry}
        self._aliases = {**{alias: entry.info.name for alias in entry.info.aliases}, **self._aliases}

    # -- facts ---------------------------------------------------------------------------

    def fact(self, voice: str, name: str, measure: Callable[[Entry], float]) -> float:
        """A measured per-voice fact, measured once (by `measure`) and then remembered."""
        entry = self.entry(voice)
        key = (entry.info.name, name)
        if key not in self._facts:
            value = measure(entry)  # outside the lock: measuring synthesizes
            with self._facts_lock:
                self._facts.setdefault(key, value)
        return self._facts[key]

    def _forget_facts(self, voice: str) -> None:
        with self._facts_lock:
            self._facts = {k: v for k, v in self._facts.items() if k[0] != voice}
