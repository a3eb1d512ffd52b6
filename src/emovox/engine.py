"""The engine: text -> frontend -> backend -> audio, as one call or as a stream of chunks.

The engine holds components, never per-call state: voice and speed are arguments, so two
threads can synthesize with different voices at the same time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from emovox.audio import effects, post
from emovox.backends.base import Backend
from emovox.backends.session import SessionSettings
from emovox.emotion import markup
from emovox.emotion.model import Emotion, Prosody
from emovox.emotion.resolve import Calibration, Resolution, resolve
from emovox.errors import InvalidOptionError, InvalidTextError, UnknownVoiceError
from emovox.frontend.english import EnglishFrontend
from emovox.types import Audio, AudioChunk, SynthesisInfo, VoiceInfo

log = logging.getLogger("emovox")


@dataclass(frozen=True)
class _Part:
    """A stretch of normalized text spoken with one set of prosody controls."""

    text: str
    controls: Prosody
    pause_before_s: float


#: The native US English voice: accent-free, and six times faster than Kokoro here
#: (RTF 0.03 vs 0.18) at a Whisper WER as low as the Kokoro voices' (benchmarks/README.md).
DEFAULT_VOICE = "joe"
MIN_SPEED, MAX_SPEED = 0.25, 4.0
#: A first sentence longer than this is split at its first clause so audio starts sooner.
FIRST_SEGMENT_CHARS = 100


class Engine:
    """Speech from text with a choice of voices across several backends."""

    def __init__(
        self,
        backends: Iterable[Backend],
        frontend: EnglishFrontend | None = None,
        calibration: Calibration | None = None,
    ) -> None:
        self._frontend = frontend or EnglishFrontend()
        self._calibration = calibration or Calibration.packaged()
        self._backends: list[Backend] = list(backends)
        self._voices: dict[str, tuple[Backend, VoiceInfo]] = {}
        self._aliases: dict[str, str] = {}
        for backend in self._backends:
            for voice in backend.voices():
                self._register(backend, voice)

    def _register(self, backend: Backend, voice: VoiceInfo) -> None:
        # Copy on write: threads that are listing or resolving voices keep a consistent view.
        self._voices = {**self._voices, voice.name: (backend, voice)}
        self._aliases = {**{alias: voice.name for alias in voice.aliases}, **self._aliases}

    @classmethod
    def from_packages(cls, settings: SessionSettings = SessionSettings(), cache: Path | None = None,
                      home: Path | None = None) -> Engine:
        """The built-in voices: `joe` (Piper VITS) and the five Kokoro-82M voices, plus the
        cloned voices stored under `home` (default: $EMOVOX_HOME or the user data directory)."""
        from emovox.backends.kokoro import KokoroBackend
        from emovox.backends.vits import VitsBackend
        from emovox.voices.clone import load_stored_voices
        from emovox.voices.store import VoiceStore

        engine = cls([VitsBackend.joe(settings), KokoroBackend.from_packages(settings, cache)])
        load_stored_voices(engine, VoiceStore(home))
        return engine

    @property
    def backends(self) -> list[Backend]:
        return list(self._backends)

    def backend_named(self, name: str) -> Backend:
        for backend in self._backends:
            if backend.name == name:
                return backend
        raise InvalidOptionError(f"no {name!r} backend in this engine")

    def add_voice(self, backend: Backend, voice: VoiceInfo, conditioning: np.ndarray) -> None:
        """Teach `backend` a cloned voice (its style pack or pitch register) and make it speakable
        by name; a built-in voice's name or alias is never taken over."""
        existing = self._voices.get(self._aliases.get(voice.name, voice.name))
        if existing and not existing[1].based_on:
            raise InvalidOptionError(f"voice name {voice.name!r} is taken by a built-in voice")
        backend.add_voice(voice, conditioning)
        self._register(backend, voice)

    def remove_voice(self, name: str) -> None:
        """Forget a cloned voice (built-in voices cannot be removed)."""
        backend, info = self._resolve(name)
        if not info.based_on:
            raise InvalidOptionError(f"{name!r} is a built-in voice and cannot be removed")
        backend.remove_voice(info.name)
        self._voices = {k: v for k, v in self._voices.items() if k != info.name}

    def with_calibration(self, calibration: Calibration) -> Engine:
        """The same backends and frontend with other emotion calibration (for calibrating)."""
        return Engine(self._backends, self._frontend, calibration)

    @property
    def frontend(self) -> EnglishFrontend:
        return self._frontend

    def voices(self) -> list[VoiceInfo]:
        return [info for _, info in self._voices.values()]

    def voice(self, name: str) -> VoiceInfo:
        """The voice a name or alias stands for (raises UnknownVoiceError listing valid names)."""
        return self._resolve(name)[1]

    def backend_of(self, voice: str) -> Backend:
        return self._resolve(voice)[0]

    def _resolve(self, name: str) -> tuple[Backend, VoiceInfo]:
        canonical = self._aliases.get(name, name)
        if canonical not in self._voices:
            raise UnknownVoiceError(name, list(self._voices) + list(self._aliases))
        return self._voices[canonical]

    def warmup(self, voices: Iterable[str] | None = None) -> None:
        """Load the sessions behind `voices` (all by default) and run one short inference each."""
        names = list(voices) if voices is not None else [info.name for info in self.voices()]
        warmed: set[str] = set()
        for name in names:
            backend, info = self._resolve(name)
            if backend.name not in warmed:
                backend.load()
                self.synthesize("Hi.", voice=info.name)
                warmed.add(backend.name)

    def prosody(self, voice: str, emotion: Emotion | str | None) -> tuple[Prosody, Resolution]:
        """The controls `voice` uses for `emotion` (a value, a label or a free-text prompt)."""
        resolution = resolve(emotion)
        info = self.voice(voice)
        return self._calibration.controls(info.based_on or info.name, resolution.emotion), resolution

    def stream(
        self, text: str, voice: str = DEFAULT_VOICE, speed: float = 1.0, emotion: Emotion | str | None = None
    ) -> Iterator[AudioChunk]:
        """Chunks of speech, one per sentence (or clause), the first as early as possible.

        Arguments are checked before this returns, so a bad request fails before any audio.
        """
        backend, info = self._resolve(voice)
        _check_speed(speed)
        controls, _ = self.prosody(info.name, emotion)
        text = _check_text(text)
        spans = markup.parse(text) if markup.has_markup(text) else [markup.Span(text)]
        parts, dropped = [], []
        for span in spans:
            normalized = self._frontend.normalize(span.text)
            span_controls = controls if span.emotion is None else self._calibration.controls(info.based_on or info.name, span.emotion)
            parts.append(_Part(normalized.text, span_controls.then(span.prosody), span.pause_before_s))
            dropped.extend(ch for ch in normalized.dropped if ch not in dropped)
        if not any(ch.isalpha() for part in parts for ch in part.text):
            raise InvalidTextError(
                "the text has nothing speakable after normalization"
                + (f" (dropped: {''.join(dropped)})" if dropped else "")
            )
        warnings = (f"dropped characters the voice cannot say: {' '.join(dropped)}",) if dropped else ()
        return self._chunks(parts, backend, info, speed, warnings)

    def _chunks(
        self, parts: list[_Part], backend: Backend, info: VoiceInfo, speed: float, warnings: tuple[str, ...]
    ) -> Iterator[AudioChunk]:
        for warning in warnings:
            log.warning(warning)
        index = 0
        for part in parts:
            pause_before = np.zeros(int(backend.sample_rate * part.pause_before_s), dtype=np.float32)
            segments = self._frontend.segments(part.text, backend.max_phonemes, FIRST_SEGMENT_CHARS)
            for segment in segments:
                encoded = backend.encode(segment.phonemes)
                chunk_warnings = warnings if index == 0 else ()
                if encoded.dropped:
                    message = (f"dropped phonemes {' '.join(encoded.dropped)} unknown to {backend.name} "
                               f"in {segment.text!r}")
                    log.warning(message)
                    chunk_warnings += (message,)
                samples = backend.infer(encoded.ids, info.name, speed, part.controls)
                samples = effects.limit(post.trim_silence(samples, backend.sample_rate))
                pause = post.SENTENCE_PAUSE_S if segment.ends_sentence else post.CLAUSE_PAUSE_S
                samples = post.with_pause(samples, backend.sample_rate, pause / (speed * part.controls.speed))
                yield AudioChunk(
                    samples=np.concatenate([pause_before, samples]),
                    sample_rate=backend.sample_rate,
                    text=segment.text,
                    phonemes=segment.phonemes,
                    index=index,
                    warnings=chunk_warnings,
                )
                pause_before = pause_before[:0]
                index += 1

    def synthesize(
        self, text: str, voice: str = DEFAULT_VOICE, speed: float = 1.0, emotion: Emotion | str | None = None
    ) -> Audio:
        """The whole utterance at once (use `stream` for long text)."""
        started = time.perf_counter()
        backend, info = self._resolve(voice)
        controls, resolution = self.prosody(info.name, emotion)
        chunks = list(self.stream(text, voice=voice, speed=speed, emotion=resolution.emotion))
        if not chunks:
            raise InvalidTextError("the text produced no speech; it may contain only symbols the voice cannot say")
        samples = np.concatenate([chunk.samples for chunk in chunks])
        elapsed = time.perf_counter() - started
        return Audio(
            samples=samples,
            sample_rate=backend.sample_rate,
            info=SynthesisInfo(
                voice=info.name,
                backend=backend.name,
                speed=speed,
                segments=len(chunks),
                phonemes=tuple(chunk.phonemes for chunk in chunks),
                compute_seconds=elapsed,
                audio_seconds=len(samples) / backend.sample_rate,
                warnings=tuple(w for chunk in chunks for w in chunk.warnings),
                emotion=resolution.to_dict(),
                prosody=controls.to_dict(),
            ),
        )


def _check_text(text: str) -> str:
    if not isinstance(text, str):
        raise InvalidTextError(f"text must be a string, not {type(text).__name__}")
    if not text.strip():
        raise InvalidTextError("the text is empty; give at least one word to speak")
    return text


def _check_speed(speed: float) -> None:
    if not (MIN_SPEED <= speed <= MAX_SPEED):
        raise InvalidOptionError(f"speed {speed} is out of range; use a value from {MIN_SPEED} to {MAX_SPEED}")
