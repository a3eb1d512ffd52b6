"""The engine: text -> frontend -> backend -> audio, as one call or as a stream of chunks.

The engine holds components, never per-call state: voice and speed are arguments, so two
threads can synthesize with different voices at the same time.

A stream is two steps the engine also offers apart: `plan` turns text into `ChunkJob`s
(one inference each), `infer` + `finish` turn a job into audio. A server's scheduler runs
the second step in its own workers (and may batch jobs); the CLI just iterates `stream`.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soxr

from emovox.audio import effects, post
from emovox.backends.base import Backend
from emovox.backends.session import SessionSettings
from emovox.caching import AUDIO_CACHE_BYTES, AudioCache, CacheStats
from emovox.emotion import markup
from emovox.emotion.model import Emotion, Prosody
from emovox.emotion.resolve import Calibration, Resolution, resolve
from emovox.errors import InvalidOptionError, InvalidTextError, UnknownVoiceError
from emovox.frontend import language as languages
from emovox.frontend.chinese import ChineseFrontend
from emovox.frontend.english import EnglishFrontend
from emovox.types import Audio, AudioChunk, SynthesisInfo, VoiceInfo

log = logging.getLogger("emovox")


@dataclass(frozen=True)
class _Part:
    """A stretch of normalized text spoken by one voice with one set of prosody controls."""

    text: str
    controls: Prosody
    pause_before_s: float
    voice: VoiceInfo
    backend: Backend
    gain: float = 1.0  # matches another voice's loudness to the requested voice's


@dataclass(frozen=True)
class ChunkJob:
    """One inference: the ids a backend runs with which controls, and how its audio is finished."""

    backend: Backend
    voice: str
    ids: tuple[int, ...]
    speed: float
    controls: Prosody
    text: str
    phonemes: str
    index: int
    pause_before_s: float
    pause_after_s: float
    warnings: tuple[str, ...] = ()
    #: The stream's sample rate (a chunk in another voice of mixed text is resampled to it).
    output_rate: int = 0
    gain: float = 1.0

    @property
    def cache_key(self) -> tuple:
        return (self.backend.name, self.voice, self.ids, self.speed, self.controls)


#: The native US English voice: accent-free, and six times faster than Kokoro here
#: (RTF 0.03 vs 0.18) at a Whisper WER as low as the Kokoro voices' (benchmarks/README.md).
DEFAULT_VOICE = "joe"
MIN_SPEED, MAX_SPEED = 0.25, 4.0
WARMUP_TEXT = {"zh": "你好。"}
#: What a voice's speech level is measured on, to match loudness across voices in mixed text.
LEVEL_TEXT = {"en": "The quick brown fox jumps over the lazy dog.", "zh": "今天天气很好，我们一起去公园散步。"}
#: Names of the Mandarin voice, to say why it is missing when it is not built.
MANDARIN_NAMES = ("baker", "zh", "biaobei")
#: The voice that reads a language the requested voice does not speak, all else equal.
PARTNER_VOICES = {"en": "jf_alpha", "zh": "baker"}


def _ends_clause(text: str) -> bool:
    return text.rstrip()[-1:] in tuple(".,!?;:…。，！？；：、")
#: A first sentence longer than this is split at its first clause so audio starts sooner.
FIRST_SEGMENT_CHARS = 100


class Engine:
    """Speech from text with a choice of voices across several backends."""

    def __init__(
        self,
        backends: Iterable[Backend],
        frontend: EnglishFrontend | None = None,
        calibration: Calibration | None = None,
        audio_cache_bytes: int = AUDIO_CACHE_BYTES,
        first_segment_chars: int | None = FIRST_SEGMENT_CHARS,
    ) -> None:
        """`audio_cache_bytes` bounds the memory of synthesized chunks kept for reuse (0: none);
        a first sentence longer than `first_segment_chars` is cut at a clause (None: never)."""
        self._first_segment_chars = first_segment_chars
        self._frontend = frontend or EnglishFrontend()
        self._chinese = ChineseFrontend()
        self._levels: dict[str, float] = {}
        self._calibration = calibration or Calibration.packaged()
        self._audio_cache = AudioCache(audio_cache_bytes)
        self._audio_cache_bytes = audio_cache_bytes
        # Prompts and labels recur far more often than they vary: parse and calibrate once.
        self._controls = functools.lru_cache(maxsize=1024)(self._resolve_controls)
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
                      home: Path | None = None, backends: tuple[str, ...] | None = None,
                      audio_cache_bytes: int = AUDIO_CACHE_BYTES,
                      first_segment_chars: int | None = FIRST_SEGMENT_CHARS,
                      vits_precision: str = "fp32") -> Engine:
        """The built-in voices: `joe` (Piper VITS) and the five Kokoro-82M voices, plus the
        cloned voices stored under `home` (default: $EMOVOX_HOME or the user data directory).
        `backends` picks which models to carry (an edge box may want only the small one; by
        default all, the Mandarin voice when `make zh-models` has built it);
        `vits_precision` picks joe's model variant (backends/variants.py; Kokoro ships int8)."""
        from emovox.backends.kokoro import KokoroBackend
        from emovox.backends.mandarin import MandarinBackend, models_ready
        from emovox.backends.vits import VitsBackend
        from emovox.voices.clone import load_stored_voices
        from emovox.voices.store import VoiceStore

        if backends is None:
            backends = ("vits", "kokoro", "mandarin") if models_ready() else ("vits", "kokoro")
        builders = {"vits": lambda: VitsBackend.joe(settings, vits_precision),
                    "kokoro": lambda: KokoroBackend.from_packages(settings, cache),
                    "mandarin": lambda: MandarinBackend.from_build(settings)}
        unknown = set(backends) - set(builders)
        if unknown or not backends:
            raise InvalidOptionError(f"unknown backends {sorted(unknown)}; choose from {', '.join(builders)}")
        engine = cls([builders[name]() for name in backends], audio_cache_bytes=audio_cache_bytes,
                     first_segment_chars=first_segment_chars)
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
        self._audio_cache.clear()  # a voice re-cloned under the same name sounds different

    def remove_voice(self, name: str) -> None:
        """Forget a cloned voice (built-in voices cannot be removed)."""
        backend, info = self._resolve(name)
        if not info.based_on:
            raise InvalidOptionError(f"{name!r} is a built-in voice and cannot be removed")
        backend.remove_voice(info.name)
        self._voices = {k: v for k, v in self._voices.items() if k != info.name}
        self._audio_cache.clear()

    def with_calibration(self, calibration: Calibration) -> Engine:
        """The same backends and frontend with other emotion calibration (for calibrating)."""
        return Engine(self._backends, self._frontend, calibration, self._audio_cache_bytes, self._first_segment_chars)

    def cache_stats(self) -> dict[str, CacheStats]:
        """Hits and misses of the phoneme, prosody-control and audio caches."""
        return {"phonemes": self._frontend.cache_stats(), "pinyin": self._chinese.cache_stats(),
                "prosody": CacheStats.of_lru(self._controls),
                "audio": self._audio_cache.stats()}

    @property
    def frontend(self) -> EnglishFrontend:
        return self._frontend

    def frontend_for(self, voice: VoiceInfo) -> EnglishFrontend | ChineseFrontend:
        """The text pipeline of the voice's language."""
        return self._chinese if voice.language == "zh" else self._frontend

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
            hint = "the Mandarin voice is not built here: run `make zh-models` once" \
                if name in MANDARIN_NAMES and not any(v.language == "zh" for _, v in self._voices.values()) else ""
            raise UnknownVoiceError(name, list(self._voices) + list(self._aliases), hint)
        return self._voices[canonical]

    def warmup(self, voices: Iterable[str] | None = None) -> None:
        """Load the sessions behind `voices` (all by default) and run one short inference each."""
        names = list(voices) if voices is not None else [info.name for info in self.voices()]
        warmed: set[str] = set()
        for name in names:
            backend, info = self._resolve(name)
            if backend.name not in warmed:
                backend.load()
                self.synthesize(WARMUP_TEXT.get(info.language, "Hi."), voice=info.name)
                warmed.add(backend.name)

    def prosody(self, voice: str, emotion: Emotion | str | None) -> tuple[Prosody, Resolution]:
        """The controls `voice` uses for `emotion` (a value, a label or a free-text prompt)."""
        info = self.voice(voice)
        return self._controls(info.based_on or info.name, emotion)

    def _resolve_controls(self, calibrated_voice: str, emotion: Emotion | str | None) -> tuple[Prosody, Resolution]:
        resolution = resolve(emotion)
        return self._calibration.controls(calibrated_voice, resolution.emotion), resolution

    def stream(
        self, text: str, voice: str = DEFAULT_VOICE, speed: float = 1.0, emotion: Emotion | str | None = None,
        lang: str = "auto",
    ) -> Iterator[AudioChunk]:
        """Chunks of speech, one per sentence (or clause), the first as early as possible.

        Arguments are checked before this returns, so a bad request fails before any audio.
        """
        jobs = self.plan(text, voice=voice, speed=speed, emotion=emotion, lang=lang)
        return (self.finish(job, self.infer(job)) for job in jobs)

    def plan(
        self, text: str, voice: str = DEFAULT_VOICE, speed: float = 1.0, emotion: Emotion | str | None = None,
        lang: str = "auto",
    ) -> Iterator[ChunkJob]:
        """The inferences `stream` would run, made lazily (G2P happens as they are taken).

        `lang`: "auto" reads Chinese stretches of mixed text with the Chinese voice and Latin
        ones with an English voice (the requested voice takes its own language); "en" or
        "zh" reads the whole text as that language. Arguments are checked before this returns."""
        backend, info = self._resolve(voice)
        _check_speed(speed)
        if lang not in languages.LANGUAGES:
            raise InvalidOptionError(f"unknown language {lang!r}; choose one of {', '.join(languages.LANGUAGES)}")
        _, resolution = self.prosody(info.name, emotion)
        text = _check_text(text)
        spans = markup.parse(text) if markup.has_markup(text) else [markup.Span(text)]
        parts, dropped = [], []
        for span in spans:
            span_emotion = span.emotion or resolution.emotion
            pause_before = span.pause_before_s
            for language, piece in self._by_language(span.text, info, lang):
                part_backend, part_voice = self._speaker_for(language, backend, info)
                normalized = self.frontend_for(part_voice).normalize(piece)
                controls = self._calibration.controls(part_voice.based_on or part_voice.name, span_emotion)
                gain = 1.0 if part_voice is info else self._loudness_ratio(info, part_voice)
                parts.append(_Part(normalized.text, controls.then(span.prosody), pause_before, part_voice,
                                   part_backend, gain))
                dropped.extend(ch for ch in normalized.dropped if ch not in dropped)
                pause_before = 0.0
        if not any(ch.isalpha() for part in parts for ch in part.text):
            raise InvalidTextError(
                "the text has nothing speakable after normalization"
                + (f" (dropped: {''.join(dropped)})" if dropped else "")
            )
        warnings = (f"dropped characters the voice cannot say: {' '.join(dropped)}",) if dropped else ()
        return self._jobs(parts, backend.sample_rate, speed, warnings)

    def _by_language(self, text: str, info: VoiceInfo, lang: str) -> list[tuple[str, str]]:
        if lang != "auto":
            return [(lang, text)]
        stretches = languages.split(text)
        if all(language == info.language for language, _ in stretches):
            return [(info.language, text)]  # one language: normalize the text as a whole
        return stretches

    def _speaker_for(self, language: str, backend: Backend, info: VoiceInfo) -> tuple[Backend, VoiceInfo]:
        """The requested voice for its own language; for the other, a voice of that language
        (an English voice of the same gender for Chinese voices: Kokoro's jf_alpha first)."""
        if language == info.language:
            return backend, info
        candidates = [(b, v) for b, v in self._voices.values() if v.language == language and not v.based_on]
        if not candidates:
            hint = " (run `make zh-models` to build the Mandarin voice)" if language == "zh" else ""
            raise InvalidTextError(f"the text has {'Chinese' if language == 'zh' else 'English'} in it and no voice "
                                   f"for that language is loaded{hint}; or pass lang='{info.language}'")
        candidates.sort(key=lambda pair: (pair[1].gender != info.gender, pair[1].name != PARTNER_VOICES.get(language)))
        return candidates[0]

    def _loudness_ratio(self, main: VoiceInfo, other: VoiceInfo) -> float:
        """Gain that brings `other`'s speech level to `main`'s, measured once per voice."""
        return 10 ** ((self._speech_level_db(main) - self._speech_level_db(other)) / 20)

    def _speech_level_db(self, info: VoiceInfo) -> float:
        if info.name not in self._levels:
            audio = self.synthesize(LEVEL_TEXT.get(info.language, LEVEL_TEXT["en"]), voice=info.name, lang=info.language)
            self._levels[info.name] = effects.speech_level_db(audio.samples, audio.sample_rate)
        return self._levels[info.name]

    def _jobs(self, parts: list[_Part], output_rate: int, speed: float, warnings: tuple[str, ...]) -> Iterator[ChunkJob]:
        for warning in warnings:
            log.warning(warning)
        index = 0
        for number, part in enumerate(parts):
            pause_before = part.pause_before_s
            backend, frontend = part.backend, self.frontend_for(part.voice)
            segments = list(frontend.segments(part.text, backend.max_phonemes, self._first_segment_chars))
            for position, segment in enumerate(segments):
                encoded = backend.encode(segment.phonemes)
                chunk_warnings = warnings if index == 0 else ()
                if encoded.dropped:
                    message = (f"dropped phonemes {' '.join(encoded.dropped)} unknown to {backend.name} "
                               f"in {segment.text!r}")
                    log.warning(message)
                    chunk_warnings += (message,)
                pause = post.SENTENCE_PAUSE_S if segment.ends_sentence else post.CLAUSE_PAUSE_S
                if position == len(segments) - 1 and number < len(parts) - 1 and not _ends_clause(part.text):
                    pause = post.SWITCH_PAUSE_S  # mid-sentence hand-over to the other language's voice
                yield ChunkJob(backend=backend, voice=part.voice.name, ids=tuple(encoded.ids), speed=speed,
                               controls=part.controls, text=segment.text, phonemes=segment.phonemes, index=index,
                               pause_before_s=pause_before, pause_after_s=pause / (speed * part.controls.speed),
                               warnings=chunk_warnings, output_rate=output_rate, gain=part.gain)
                pause_before = 0.0
                index += 1

    def infer(self, job: ChunkJob) -> np.ndarray:
        """The job's raw waveform, from the audio cache when the same job ran before."""
        samples = self._audio_cache.get(job.cache_key)
        if samples is None:
            samples = job.backend.infer(list(job.ids), job.voice, job.speed, job.controls)
            self._audio_cache.put(job.cache_key, samples)
        return samples

    def infer_batch(self, jobs: list[ChunkJob]) -> list[np.ndarray]:
        """Waveforms of jobs for one backend that `batch_key` groups together, in one padded
        forward pass where the backend takes a batch (cached jobs are not recomputed)."""
        if len(jobs) == 1 or not hasattr(jobs[0].backend, "infer_batch"):
            return [self.infer(job) for job in jobs]
        results = [self._audio_cache.get(job.cache_key) for job in jobs]
        missing = [i for i, samples in enumerate(results) if samples is None]
        if missing:
            batch = jobs[0].backend.infer_batch([(list(jobs[i].ids), jobs[i].voice, jobs[i].speed, jobs[i].controls)
                                                 for i in missing])
            for i, samples in zip(missing, batch):
                self._audio_cache.put(jobs[i].cache_key, samples)
                results[i] = samples
        return results

    @staticmethod
    def batch_key(job: ChunkJob) -> tuple | None:
        """Jobs with equal keys can share a forward pass; None: this job runs alone."""
        key = getattr(job.backend, "batch_key", None)
        return (job.backend.name, key(job.speed, job.controls)) if key else None

    @staticmethod
    def finish(job: ChunkJob, samples: np.ndarray) -> AudioChunk:
        """Trim, limit and pad a job's waveform into the chunk a listener gets (at the stream's
        rate and the requested voice's loudness when another voice spoke it)."""
        samples = post.trim_silence(samples, job.backend.sample_rate)
        if job.gain != 1.0:
            samples = samples * np.float32(job.gain)
        rate = job.output_rate or job.backend.sample_rate
        if rate != job.backend.sample_rate:
            samples = soxr.resample(samples, job.backend.sample_rate, rate).astype(np.float32)
        samples = effects.limit(samples)
        samples = np.concatenate([np.zeros(int(rate * job.pause_before_s), dtype=np.float32), samples,
                                  np.zeros(int(rate * job.pause_after_s), dtype=np.float32)])
        return AudioChunk(samples=samples, sample_rate=rate, text=job.text, phonemes=job.phonemes,
                          index=job.index, warnings=job.warnings)

    def synthesize(
        self, text: str, voice: str = DEFAULT_VOICE, speed: float = 1.0, emotion: Emotion | str | None = None,
        lang: str = "auto",
    ) -> Audio:
        """The whole utterance at once (use `stream` for long text)."""
        started = time.perf_counter()
        backend, info = self._resolve(voice)
        controls, resolution = self.prosody(info.name, emotion)
        chunks = list(self.stream(text, voice=voice, speed=speed, emotion=resolution.emotion, lang=lang))
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
