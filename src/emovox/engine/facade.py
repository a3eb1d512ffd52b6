"""The engine: one object over the catalogue, the planner and the renderer.

    catalogue  which voices exist and which backend speaks each (engine/catalogue.py)
    planner    text + request -> Plan, plain data, no model touched (engine/planner.py)
    renderer   ChunkJob -> finished AudioChunk: model call, signal shaping, caches (engine/render.py)

The engine holds components, never per-call state: voice and speed are arguments, so two
threads can synthesize with different voices at the same time. A stream is the two steps
the engine also offers apart: `plan` turns text into jobs, `infer` + `finish` (or `render`)
turn a job into audio. A server's scheduler runs the second step in its own workers; the
CLI just iterates `stream`. Which voices, models and defaults a deployment has is decided by
the composition root (emovox/compose.py), not here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from emovox.audio import effects
from emovox.backends.base import Backend
from emovox.caching import AUDIO_CACHE_BYTES, CacheStats
from emovox.emotion.model import Emotion
from emovox.emotion.resolve import Calibration, Resolution, resolve
from emovox.engine.catalogue import Entry, VoiceCatalogue
from emovox.engine.plan import ChunkJob, Plan
from emovox.engine.planner import FIRST_SEGMENT_CHARS, Frontend, Planner, PlannerSettings
from emovox.engine.render import Renderer, Waveform
from emovox.errors import InvalidOptionError
from emovox.frontend.chinese import ChineseFrontend
from emovox.frontend.english import EnglishFrontend
from emovox.frontend.g2p.misaki import MisakiG2P
from emovox.frontend.lexicon import Lexicon
from emovox.options import SpeechOptions
from emovox.types import Audio, AudioChunk, Equalizer, Prosody, SynthesisInfo, VoiceInfo

#: What a backend's first inference reads, by language (loads and warms its session).
WARMUP_TEXT = {"zh": "你好。", "en": "Hi."}
#: What a voice's speech level is measured on, to match loudness across voices in mixed text.
LEVEL_TEXT = {"en": "The quick brown fox jumps over the lazy dog.", "zh": "今天天气很好，我们一起去公园散步。"}


@dataclass(frozen=True)
class Defaults:
    """What a deployment fills in where a request is silent (from the composition root or a profile)."""

    #: The voice of a request that names none (None: the first voice the catalogue lists).
    voice: str | None = None
    #: The voice that reads a language the requested voice does not speak, all else equal.
    partners: Mapping[str, str] = field(default_factory=dict)
    #: How to get a voice (by name) or a language this deployment does not carry.
    missing_voices: Mapping[str, str] = field(default_factory=dict)
    missing_languages: Mapping[str, str] = field(default_factory=dict)
    #: How words are read unless a request says otherwise (the user's stored lexicon).
    lexicon: Lexicon = Lexicon()
    #: A speaker embedding of some speech (samples, rate) -> unit vector, for finding the
    #: stock voice nearest to a reference clip's speaker (None: population norms instead).
    embed_speaker: Callable[[np.ndarray, int], np.ndarray] | None = None


class Engine:
    """Speech from text with a choice of voices across several backends."""

    def __init__(
        self,
        backends: Iterable[Backend],
        frontend: EnglishFrontend | None = None,
        calibration: Calibration | None = None,
        audio_cache_bytes: int = AUDIO_CACHE_BYTES,
        first_segment_chars: int | None = FIRST_SEGMENT_CHARS,
        defaults: Defaults = Defaults(),
        chinese: Frontend | None = None,
        misaki: EnglishFrontend | None = None,
    ) -> None:
        """`audio_cache_bytes` bounds the memory of synthesized chunks kept for reuse (0: none);
        a first sentence longer than `first_segment_chars` is cut at a clause (None: never)."""
        self._frontends: dict[str, Frontend] = {"en": frontend or EnglishFrontend(),
                                                "en/misaki": misaki or EnglishFrontend(MisakiG2P()),
                                                "zh": chinese or ChineseFrontend()}
        self._calibration = calibration or Calibration.packaged()
        self._audio_cache_bytes = audio_cache_bytes
        self.defaults = defaults
        self.catalogue = VoiceCatalogue(backends, defaults.missing_voices)
        self.planner = Planner(self.catalogue, self._frontends, self._calibration, PlannerSettings(
            first_segment_chars=first_segment_chars, partners=defaults.partners,
            missing_languages=defaults.missing_languages, lexicon=defaults.lexicon))
        self.renderer = Renderer(self.catalogue, self.speech_level_db, audio_cache_bytes)

    def with_calibration(self, calibration: Calibration) -> Engine:
        """The same backends and frontends with other emotion calibration (for calibrating)."""
        return Engine(self.backends, self._frontends["en"], calibration, self._audio_cache_bytes,
                      self.planner.settings.first_segment_chars, self.defaults, self._frontends["zh"],
                      self._frontends["en/misaki"])

    # -- voices --------------------------------------------------------------------------

    @property
    def backends(self) -> list[Backend]:
        return self.catalogue.backends

    def backend_named(self, name: str) -> Backend:
        return self.catalogue.backend(name)

    def backend_of(self, voice: str) -> Backend:
        return self.catalogue.entry(voice).backend

    def voices(self) -> list[VoiceInfo]:
        return self.catalogue.voices()

    def voice(self, name: str) -> VoiceInfo:
        """The voice a name or alias stands for (raises UnknownVoiceError listing valid names)."""
        return self.catalogue.entry(name).info

    @property
    def default_voice(self) -> str:
        return self.defaults.voice or self.voices()[0].name

    def add_voice(self, backend: Backend | str | None, voice: VoiceInfo, conditioning: np.ndarray,
                  register: Prosody = Prosody(), equalizer: Equalizer | None = None) -> None:
        """Make a cloned voice speakable by name (`backend` must be the one `voice.backend` names);
        a built-in voice's name or alias is never taken over. `register` and `equalizer`: a
        style clone's finish (voices/finish.py)."""
        name = backend if isinstance(backend, str) or backend is None else backend.name
        if name is not None and name != voice.backend:
            raise InvalidOptionError(f"voice {voice.name!r} is for backend {voice.backend!r}, not {name!r}")
        self.catalogue.add(voice, conditioning, register, equalizer)
        self.renderer.clear_cache()  # a voice re-cloned under the same name sounds different

    def remove_voice(self, name: str) -> None:
        """Forget a cloned voice (built-in voices cannot be removed)."""
        self.catalogue.remove(name)
        self.renderer.clear_cache()

    def speech_level_db(self, voice: str) -> float:
        """The voice's speech level (dBFS), measured once on a reference sentence."""
        return self.catalogue.fact(voice, "speech_level_db", self._measure_level)

    def _measure_level(self, entry: Entry) -> float:
        language = entry.info.language
        audio = self.synthesize(LEVEL_TEXT.get(language, LEVEL_TEXT["en"]), voice=entry.info.name, lang=language)
        return effects.speech_level_db(audio.samples, audio.sample_rate)

    # -- text ----------------------------------------------------------------------------

    @property
    def frontend(self) -> EnglishFrontend:
        return self._frontends["en"]

    def frontend_for(self, voice: VoiceInfo) -> Frontend:
        """The text pipeline of the voice's language, in its model's alphabet."""
        return self.planner.frontend(voice.language, self.catalogue.entry(voice.name).backend.capabilities.alphabet)

    def cache_stats(self) -> dict[str, CacheStats]:
        """Hits and misses of the phoneme, prosody-control and audio caches."""
        return {"phonemes": self._frontends["en"].cache_stats(), "pinyin": self._frontends["zh"].cache_stats(),
                "prosody": CacheStats.of_lru(self.planner.calibrated), "audio": self.renderer.cache_stats()}

    def warmup(self, voices: Iterable[str] | None = None, windows: bool = True) -> None:
        """Load the sessions behind `voices` (all by default) and run one short inference each;
        where a backend streams in windows, prepare one sentence per voice too (Kokoro measures
        each voice's decoder statistics on first use). `windows=False` leaves that to the first
        streamed request (a replica that must come up fast after a node is lost)."""
        names = list(voices) if voices is not None else [info.name for info in self.voices()]
        warmed: set[str] = set()
        for name in names:
            entry = self.catalogue.entry(name)
            text = WARMUP_TEXT.get(entry.info.language, WARMUP_TEXT["en"])
            if entry.backend.name not in warmed:
                entry.backend.load()
                self.synthesize(text, voice=entry.info.name)
                warmed.add(entry.backend.name)
            if windows and entry.backend.capabilities.streaming:  # the window path, past the audio cache
                for job in self.plan(text, voice=entry.info.name):
                    frames = entry.backend.prepare(list(job.ids), job.model_voice, job.speed, job.controls)
                    frames.decode(0, min(1, frames.count))

    # -- planning ------------------------------------------------------------------------

    def prosody(self, voice: str, emotion: Emotion | str | None) -> tuple[Prosody, Resolution]:
        """The controls `voice` uses for `emotion` (a value, a label or a free-text prompt)."""
        resolution = resolve(emotion)
        return self.planner.controls(self.catalogue.entry(voice), resolution.emotion), resolution

    def options(self, voice: str | None = None, speed: float = 1.0, lang: str = "auto", **more) -> SpeechOptions:
        """A request's options, checked, with this engine's default voice where none is named."""
        return SpeechOptions(voice=voice or self.default_voice, speed=speed, lang=lang, **more)

    def resolution(self, options: SpeechOptions) -> Resolution:
        """The emotion `options` ask for, a style reference clip measured into it."""
        return options.resolution(self._style(options))

    def _style(self, options: SpeechOptions) -> dict[str, float]:
        """The prosody of the style reference clip, relative to its speaker's norms (a voice of
        ours when `style_ref_voice` names one, else the register of the stock voice nearest to
        the clip's speaker, else population norms). Analysis, and a synthesis only where the
        speaker is ours and its norms are not known yet, or where `style_ref_text` gives the
        clip's words (that speaker, or the nearest stock voice, reads them neutrally)."""
        if not options.style_ref:
            return {}
        from emovox.emotion import reference

        named = options.style_ref_voice and self.catalogue.entry(options.style_ref_voice, param="style_ref_voice")
        if options.style_ref_text:  # the clip's words, read neutrally by its speaker's voice
            nearest = reference.nearest_voice(options.style_ref, self.defaults.embed_speaker)
            speaker = named.info.name if named else nearest if nearest in self.catalogue.names() else self.default_voice
            reading = self.synthesize(options.style_ref_text, voice=speaker)
            measured = reference.emotion_against_reading(options.style_ref, reading.samples, reading.sample_rate,
                                                         reference.register_band(speaker))
        else:
            norms = reference.voice_norms(self, named.info.name) if named else None
            measured = reference.emotion_from_clip(options.style_ref, norms, self.defaults.embed_speaker)
        return {k: v for k, v in measured.to_dict().items() if k not in ("name", "intensity")}

    def plan(self, text: str, voice: str | None = None, speed: float = 1.0, emotion: Emotion | str | None = None,
             lang: str = "auto", *, options: SpeechOptions | None = None) -> Plan:
        """The inferences `stream` would run, and what the request resolved to (plain data).

        Either the keyword arguments (`emotion`: a value, a label or a free-text prompt) or
        one `options` value. `lang`: "auto" reads Chinese stretches of mixed text with the
        Chinese voice and Latin ones with an English voice (the requested voice takes its
        own language); "en" or "zh" reads the whole text as that language."""
        if options is None:
            options = self.options(voice, speed, lang)
            resolution = resolve(emotion)
        else:
            if not options.voice:
                options = options.replace(voice=self.default_voice)
            resolution = self.resolution(options)
        return self.planner.plan(text, options, resolution)

    # -- rendering -----------------------------------------------------------------------

    def infer(self, job: ChunkJob) -> Waveform:
        return self.renderer.infer(job)

    def infer_batch(self, jobs: list[ChunkJob]) -> list[Waveform]:
        return self.renderer.infer_batch(jobs)

    def batch_key(self, job: ChunkJob) -> tuple | None:
        return self.renderer.batch_key(job)

    def finish(self, job: ChunkJob, waveform: Waveform) -> AudioChunk:
        return self.renderer.finish(job, waveform)

    def render(self, job: ChunkJob) -> AudioChunk:
        return self.renderer.render(job)

    def render_pieces(self, job: ChunkJob) -> Iterator[AudioChunk]:
        """The chunk of `job` in pieces, as its backend decodes it window by window."""
        return self.renderer.stream(job)

    def stream(self, text: str, voice: str | None = None, speed: float = 1.0, emotion: Emotion | str | None = None,
               lang: str = "auto", *, options: SpeechOptions | None = None) -> Iterator[AudioChunk]:
        """Speech as it is made: each sentence (or clause) in pieces where its backend decodes
        in windows (`AudioChunk.final` marks a sentence's last piece), else in one piece.

        The text is planned before this returns, so a bad request fails before any audio."""
        plan = self.plan(text, voice, speed, emotion, lang, options=options)
        return (piece for job in plan for piece in self.render_pieces(job))

    def synthesize(self, text: str, voice: str | None = None, speed: float = 1.0,
                   emotion: Emotion | str | None = None, lang: str = "auto", *,
                   options: SpeechOptions | None = None) -> Audio:
        """The whole utterance at once (use `stream` for long text)."""
        started = time.perf_counter()
        plan = self.plan(text, voice, speed, emotion, lang, options=options)
        chunks = [self.render(job) for job in plan]
        samples = np.concatenate([chunk.samples for chunk in chunks])
        starts = np.cumsum([0] + [len(chunk.samples) for chunk in chunks[:-1]]) / plan.sample_rate
        words = tuple(word.shifted(start) for chunk, start in zip(chunks, starts) for word in chunk.words)
        return Audio(samples=samples, sample_rate=plan.sample_rate, info=SynthesisInfo(
            voice=plan.voice.name, backend=plan.voice.backend, speed=plan.speed, segments=len(chunks),
            phonemes=tuple(chunk.phonemes for chunk in chunks), compute_seconds=time.perf_counter() - started,
            audio_seconds=len(samples) / plan.sample_rate, warnings=tuple(w for c in chunks for w in c.warnings),
            emotion=plan.resolution.to_dict(), prosody=plan.controls.to_dict(), words=words))
