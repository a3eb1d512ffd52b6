"""Cloning: reference audio in, a stored voice that every engine path can speak with.

intake (decode, resample, VAD, denoise, validate) -> GE2E d-vector -> adaptation -> voice
store, with a content-hash cache: the same audio cloned with the same settings is returned
from the store without adapting again.

Adaptation per backend: Kokoro adapts timbre (a style pack, see adapt.py); the VITS voice
cannot change timbre, so a clone on it only moves joe to the speaker's pitch register
(F0 level and range). `timbre_adapted` in the voice's metadata says which.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from emovox.audio import watermark
from emovox.backends.base import Cloning
from emovox.errors import EmovoxError, InvalidOptionError, UnknownVoiceError
from emovox.types import Prosody, VoiceInfo
from emovox.voices import consent as consent_module
from emovox.voices import finish, intake
from emovox.voices.adapt import BUDGETS, SCORING_TEXTS, adapt_kokoro, phoneme_ids
from emovox.voices.consent import ConsentClaim
from emovox.voices.encoder import SpeakerEncoder, similarity
from emovox.voices.store import NAME_PATTERN, StoredVoice, VoiceExistsError, VoiceStore, VoiceStoreError, check_name

logger = logging.getLogger(__name__)

METHODS = {"kokoro": "kokoro-style/3", "vits": "vits-register/1"}  # style/3: with its finish
_REGISTER_LIMITS = {"pitch_st": (-8.0, 8.0), "pitch_range": (0.5, 2.0)}


@dataclass(frozen=True)
class CloneResult:
    voice: StoredVoice
    cached: bool
    seconds: float
    report: intake.IntakeReport | None  # None when the clone came from the cache

    def to_dict(self) -> dict:
        meta = self.voice.meta
        return {
            "name": self.voice.name,
            "backend": self.voice.backend,
            "based_on": self.voice.based_on,
            "timbre_adapted": meta.get("timbre_adapted", False),
            "similarity": round(self.voice.similarity, 4),
            "start": meta.get("start"),
            "start_similarity": meta.get("start_similarity"),
            "quality": meta.get("quality"),
            "seconds": round(self.seconds, 2),
            "cached": self.cached,
            "intake": self.report.to_dict() if self.report else meta.get("intake"),
            "consent": meta.get("consent"),
        }


def _check_free(engine, name: str) -> None:
    """A clone may not take the name or alias of a built-in voice."""
    try:
        taken = engine.voice(name)
    except UnknownVoiceError:
        return
    if not taken.based_on:
        raise VoiceStoreError(f"{name!r} is a built-in voice (or its alias); choose another name")


def register_voice(engine, voice: StoredVoice, tensor: np.ndarray) -> None:
    """Make a stored voice speakable by the engine."""
    backend = engine.backend_named(voice.backend)
    base = engine.voice(voice.based_on)
    adapted = "timbre and pitch" if voice.meta.get("timbre_adapted") else "pitch register only"
    info = VoiceInfo(name=voice.name, backend=voice.backend, language=base.language, gender="unknown",
                     sample_rate=base.sample_rate, based_on=voice.based_on,
                     description=f"cloned voice on {voice.based_on} ({adapted}; similarity "
                                 f"{voice.similarity:.2f} to its reference)")
    finished = finish.Finish.from_dict(voice.meta.get("finish"))
    if finished is None:
        engine.add_voice(backend, info, tensor)
    else:
        engine.add_voice(backend, info, tensor, Prosody(pitch_st=finished.pitch_st), finished.equalizer)


def follow_store(engine, store: VoiceStore, watch: bool = False) -> None:
    """Keep `engine`'s voices in step with `store` as other processes change it: a name the
    engine does not know is looked up in the store (read-through: a voice cloned on another
    machine speaks on the first request that names it), and with `watch` a delete or a
    replacement anywhere is applied here as soon as the store announces it."""
    def find(name: str) -> bool:
        if not NAME_PATTERN.fullmatch(name):
            return False
        try:
            voice = store.get(name)
            if voice is None:
                return False
            register_voice(engine, voice, store.tensor(name))
            return True
        except (EmovoxError, OSError, ValueError) as e:
            logger.warning("could not load stored voice %r: %s", name, e)
            return False

    def changed(event: str, name: str) -> None:
        known = any(info.name == name and info.based_on for info in engine.voices())
        if event == "deleted" and known:
            engine.remove_voice(name)
        elif event == "saved" and known:
            find(name)  # replaced (--force): speak the new one

    engine.catalogue.find_missing_with(find)
    if watch:
        store.watch(changed)


def load_stored_voices(engine, store: VoiceStore) -> None:
    """Register every stored voice; one that cannot be loaded is skipped with a warning, so a
    damaged entry never keeps the engine from starting."""
    for voice in store.list():
        try:
            register_voice(engine, voice, store.tensor(voice.name))
        except (EmovoxError, OSError, ValueError) as e:
            logger.warning("skipping stored voice %r: %s (remove it with `emovox voices rm %s`)",
                           voice.name, e, voice.name)


class Cloner(Protocol):
    """Clones a voice into the store: `clone` bound to an engine and a store, or a call to a
    cloning deployment elsewhere (emovox.deploy)."""

    def __call__(self, data: bytes, name: str, quality: str = "balanced", force: bool = False,
                 denoise: str = "auto", backend: str = "kokoro",
                 progress: Callable[[float, float], None] | None = None, *,
                 consent: ConsentClaim | None = None, require_consent: bool = False,
                 actor: str = "") -> CloneResult: ...


def clone(
    engine,
    store: VoiceStore,
    data: bytes,
    name: str,
    quality: str = "balanced",
    force: bool = False,
    denoise: str = "auto",
    backend: str = "kokoro",
    progress: Callable[[float, float], None] | None = None,
    *,
    consent: ConsentClaim | None = None,
    require_consent: bool = False,
    actor: str = "",
    search_steps: int | None = None,
) -> CloneResult:
    """Clone the speaker in `data` (any audio file's bytes) into a stored voice `name`.

    `consent` is checked before any adaptation and stored with the voice (voices/consent.py);
    with `require_consent` a clone without it is refused. The clone is recorded in the store's
    audit log under `actor`. `search_steps`: a style search of exactly that many steps instead of
    the quality's seconds, the same clone on any machine (`adapt_kokoro`)."""
    started = time.perf_counter()
    check_name(name)
    if quality not in BUDGETS:
        raise InvalidOptionError(f"unknown quality {quality!r}; choose one of {', '.join(BUDGETS)}")
    if denoise not in intake.DENOISE_MODES:
        raise InvalidOptionError(f"denoise must be one of {', '.join(intake.DENOISE_MODES)}, not {denoise!r}")
    if backend not in METHODS:
        raise InvalidOptionError(f"cannot clone onto {backend!r}; choose one of {', '.join(METHODS)}")
    _check_free(engine, name)
    if not force and store.get(name) is not None:
        raise VoiceExistsError(name)
    watermark.shared().manifest()  # a clone whose audio could not be marked is never made
    claim = consent or ConsentClaim()
    if require_consent and not claim.given:
        raise consent_module.required()
    encoder = SpeakerEncoder.packaged()
    source = hashlib.sha256(data).hexdigest()
    settings = f"{METHODS[backend]}/{quality}/{encoder.name}/denoise-{denoise}"
    if search_steps is not None:  # another search than the quality's: not the same cached clone
        settings += f"/steps-{search_steps}"

    cached = store.find_clone(source, settings)
    reference = intake.prepare(data, denoise) if cached is None or claim.clip is not None else None
    target = encoder.embed(reference.samples) if reference is not None else None
    record = (consent_module.spoken(claim.clip, target, encoder, claim.by) if claim.clip is not None
              else consent_module.declared(claim.by) if claim.given else None)
    agreed = {"consent": record.to_dict() if record else None}
    if cached is not None:
        voice = replace(cached, name=name, created=time.time(), meta={**cached.meta, **agreed})
        tensor, report = store.tensor(cached.name), None
    else:
        if engine.backend_named(backend).capabilities.cloning is Cloning.STYLE:
            adaptation = adapt_kokoro(engine, target, quality, encoder, progress=progress, steps=search_steps)
            tensor, based_on, achieved = adaptation.pack, adaptation.based_on, adaptation.similarity
            meta = {"timbre_adapted": True, "start": adaptation.start,
                    "start_similarity": round(adaptation.start_similarity, 4),
                    "steps": adaptation.steps, "search_s": round(adaptation.seconds, 2),
                    "finish": _finish(engine, tensor, reference).to_dict()}
        else:
            tensor, based_on, achieved, meta = _match_register(engine, reference, target, encoder)
        report = reference.report
        voice = StoredVoice(name=name, backend=backend, based_on=based_on, source_sha256=source, settings=settings,
                            similarity=achieved, created=time.time(),
                            meta={"quality": quality, **meta, "intake": report.to_dict(), **agreed})
    store.save(voice, tensor, force=force)
    store.record("clone", name, actor, {"backend": backend, "based_on": voice.based_on, "source_sha256": source,
                                        "quality": quality, "similarity": round(float(voice.similarity), 4),
                                        "cached": cached is not None, **agreed})
    register_voice(engine, voice, tensor)
    return CloneResult(voice, cached is not None, time.perf_counter() - started, report)


def _finish(engine, pack: np.ndarray, reference: intake.Reference) -> finish.Finish:
    """The equalizer and register that move the adapted pack's speech toward the reference."""
    backend = engine.backend_named("kokoro")
    spoken = [(backend.infer_with_pack(phoneme_ids(engine, backend, text), pack), backend.sample_rate)
              for text in SCORING_TEXTS]
    return finish.measure(reference.samples, spoken)


def _match_register(engine, reference: intake.Reference, target: np.ndarray, encoder: SpeakerEncoder):
    """joe moved to the speaker's F0 level and range: (register, based_on, similarity, meta)."""
    from emovox.emotion.model import Emotion
    from emovox.emotion.reference import measure_samples, voice_norms

    vits = engine.backend_named("vits")
    own_voice = vits.voices()[0].name
    speaker = measure_samples(reference.samples, intake.SAMPLE_RATE)
    own = voice_norms(engine, own_voice, vits.capabilities.f0_band)

    def clip(name: str, value: float) -> float:
        low, high = _REGISTER_LIMITS[name]
        return float(min(high, max(low, value)))

    pitch_st = clip("pitch_st", 12 * np.log2(speaker.f0_hz / own.f0_hz))
    pitch_range = clip("pitch_range", speaker.range_st / own.range_st)

    def score(emotion: Emotion | None) -> float:
        values = []
        for text in SCORING_TEXTS:
            audio = engine.synthesize(text, voice=own_voice, emotion=emotion)
            values.append(similarity(encoder.embed(audio.samples, audio.sample_rate), target))
        return float(np.mean(values))

    achieved = score(Emotion("neutral", 0.0, pitch_st=pitch_st, pitch_range=pitch_range))
    meta = {"timbre_adapted": False, "start": own_voice, "start_similarity": round(score(None), 4),
            "pitch_st": round(pitch_st, 2),
            "pitch_range": round(pitch_range, 3), "speaker_f0_hz": round(speaker.f0_hz, 1),
            "own_f0_hz": round(own.f0_hz, 1)}
    return np.array([[pitch_st, pitch_range]], np.float32), own_voice, achieved, meta
