"""Cloning: reference audio in, a stored voice that every backend path can speak with.

intake (decode, resample, VAD, validate) -> GE2E d-vector -> Kokoro style search ->
voice store, with a content-hash cache: the same audio cloned with the same settings is
returned from the store without searching again.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from emovox.errors import InvalidOptionError
from emovox.types import VoiceInfo
from emovox.voices import intake
from emovox.voices.adapt import BUDGETS, adapt_kokoro
from emovox.voices.encoder import SpeakerEncoder
from emovox.voices.store import StoredVoice, VoiceStore, VoiceStoreError, check_name

ADAPTATION_METHOD = "kokoro-style-es/1"


@dataclass(frozen=True)
class CloneResult:
    voice: StoredVoice
    cached: bool
    seconds: float
    report: intake.IntakeReport | None  # None when the clone came from the cache

    def to_dict(self) -> dict:
        return {
            "name": self.voice.name,
            "backend": self.voice.backend,
            "based_on": self.voice.based_on,
            "similarity": round(self.voice.similarity, 4),
            "start_similarity": self.voice.meta.get("start_similarity"),
            "quality": self.voice.meta.get("quality"),
            "seconds": round(self.seconds, 2),
            "cached": self.cached,
            "timbre_adapted": True,
            "intake": self.report.to_dict() if self.report else self.voice.meta.get("intake"),
        }


def _voice_info(voice: StoredVoice, gender: str) -> VoiceInfo:
    return VoiceInfo(name=voice.name, backend=voice.backend, language="en", gender=gender, sample_rate=24_000,
                     description=f"cloned voice (Kokoro style adapted from {voice.based_on}; "
                                 f"similarity {voice.similarity:.2f} to its reference)",
                     based_on=voice.based_on)


def _kokoro(engine):
    from emovox.backends.kokoro import KokoroBackend

    return next(b for b in engine.backends if isinstance(b, KokoroBackend))


def load_stored_voices(engine, store: VoiceStore) -> None:
    backend = _kokoro(engine)
    for voice in store.list():
        gender = engine.voice(voice.based_on).gender if voice.based_on else "unknown"
        info = _voice_info(voice, gender)
        backend.add_voice(info, store.tensor(voice.name))
        engine.add_voice(backend, info)


def clone(
    engine,
    store: VoiceStore,
    data: bytes,
    name: str,
    quality: str = "balanced",
    force: bool = False,
    progress: Callable[[float, float], None] | None = None,
) -> CloneResult:
    """Clone the speaker in `data` (any audio file's bytes) into a stored voice `name`."""
    started = time.perf_counter()
    check_name(name)
    if quality not in BUDGETS:
        raise InvalidOptionError(f"unknown quality {quality!r}; choose one of {', '.join(BUDGETS)}")
    existing = {info.name: info for info in engine.voices()}
    if name in existing and not existing[name].based_on:
        raise VoiceStoreError(f"{name!r} is a built-in voice; choose another name")
    if not force and store.get(name) is not None:
        raise VoiceStoreError(f"a voice named {name!r} already exists; choose another name or use --force")
    encoder = SpeakerEncoder.packaged()
    source = hashlib.sha256(data).hexdigest()
    settings = f"{ADAPTATION_METHOD}/{quality}/{encoder.name}"
    backend = _kokoro(engine)

    cached = store.find_clone(source, settings)
    if cached is not None:
        voice = replace(cached, name=name, created=time.time())
        tensor = store.tensor(cached.name)
        report = None
    else:
        reference = intake.prepare(data)
        adaptation = adapt_kokoro(engine, encoder.embed(reference.samples), quality, encoder, progress=progress)
        tensor = adaptation.pack
        report = reference.report
        voice = StoredVoice(
            name=name, backend=backend.name, based_on=adaptation.start_voice, source_sha256=source,
            settings=settings, similarity=adaptation.similarity, created=time.time(),
            meta={"quality": quality, "start_similarity": round(adaptation.start_similarity, 4),
                  "steps": adaptation.steps, "search_s": round(adaptation.seconds, 2),
                  "intake": reference.report.to_dict()})
    store.save(voice, tensor, force=force)
    info = _voice_info(voice, engine.voice(voice.based_on).gender)
    backend.add_voice(info, tensor)
    engine.add_voice(backend, info)
    return CloneResult(voice, cached is not None, time.perf_counter() - started, report)
