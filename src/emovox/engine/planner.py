"""The planner: text + one request -> a `Plan`. Pure: it reads text and tables, never a model.

Steps: markup spans (inline tags, SSML) -> language stretches (mixed Chinese-English text
goes to a voice of each language) -> normalization -> each stretch's prosody controls (the
voice's emotion calibration, the span's own <prosody>, a register clone's pitch register)
-> segments that fit the backend's input (G2P) -> ids in the backend's alphabet.

A partner voice reading the other language of mixed text is brought to the requested
voice's loudness when rendered (`ChunkJob.match_level_of`): measuring a voice's level takes
synthesis, which is the renderer's business, not the planner's.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from emovox.audio import post
from emovox.backends.base import Cloning
from emovox.emotion import markup
from emovox.emotion.model import Emotion
from emovox.emotion.resolve import Calibration, Resolution, resolve
from emovox.engine.catalogue import Entry, VoiceCatalogue
from emovox.engine.plan import ChunkJob, Plan, Stretch
from emovox.engine.timing import WrittenWords, align_words
from emovox.errors import InvalidTextError
from emovox.frontend import language as languages
from emovox.frontend.english import Segment
from emovox.frontend.lexicon import Lexicon
from emovox.frontend.normalize import Normalized
from emovox.options import SpeechOptions
from emovox.types import Prosody

log = logging.getLogger("emovox")

#: A first sentence longer than this is split at its first clause so audio starts sooner.
FIRST_SEGMENT_CHARS = 100
_CLAUSE_ENDS = tuple(".,!?;:…。，！？；：、")
_LANGUAGE_NAMES = {"en": "English", "zh": "Chinese"}


class Frontend(Protocol):
    """The text pipeline of one language."""

    language: str

    def normalize(self, text: str) -> Normalized: ...

    def segments(self, text: str, max_phonemes: int, first_segment_chars: int | None = None,
                 lexicon: Lexicon | None = None) -> Iterator[Segment]: ...


@dataclass(frozen=True)
class PlannerSettings:
    #: Cut a long first sentence at a clause so audio starts sooner (None: never); never for
    #: a backend that streams inside its model (`Capabilities.streaming`).
    first_segment_chars: int | None = FIRST_SEGMENT_CHARS
    #: The voice that reads a language the requested voice does not speak, all else equal.
    partners: Mapping[str, str] = field(default_factory=dict)
    #: For a language no loaded voice speaks, how to get one (shown in the error).
    missing_languages: Mapping[str, str] = field(default_factory=dict)
    #: How words are read unless a request says otherwise (the user's stored lexicon).
    lexicon: Lexicon = Lexicon()


@dataclass(frozen=True)
class _Part:
    stretch: Stretch
    entry: Entry
    match_level_of: str


class Planner:
    def __init__(self, catalogue: VoiceCatalogue, frontends: Mapping[str, Frontend], calibration: Calibration,
                 settings: PlannerSettings = PlannerSettings()) -> None:
        self._catalogue = catalogue
        self._frontends = dict(frontends)
        self._calibration = calibration
        self.settings = settings
        # Prompts and labels recur far more often than they vary: calibrate each once.
        self.calibrated = functools.lru_cache(maxsize=1024)(self._calibrated)

    def frontend(self, language: str, alphabet: str = "ipa") -> Frontend:
        """The text pipeline of `language`, for a model that reads `alphabet` (English has two)."""
        if language == "zh":
            return self._frontends["zh"]
        return self._frontends["en" if alphabet == "ipa" else f"en/{alphabet}"]

    def controls(self, entry: Entry, emotion: Emotion) -> Prosody:
        """What `entry`'s backend is asked for to sound like `emotion`."""
        return self._registered(self.calibrated(entry.calibrated_as, emotion), entry)

    def _registered(self, asked: Prosody, entry: Entry) -> Prosody:
        """`asked` (an emotion's controls, any markup's) with `entry`'s register added.

        A style clone's register (its finish, voices/finish.py) raises or lowers its pack's
        pitch toward the speaker's. Raised, it adds to an emotion's raise, and the two can ask
        Kokoro's decoder for more than it renders: a clone 3.1 st up lost 0.2-0.4 of DistillMOS
        under happy, fearful and surprised, and nothing with half its register there, while
        keeping the speaker as well by both embedders (benchmarks/README.md, "Emotion on cloned
        voices"). So the whole raise is kept within the largest raise the clone's stock voice's own
        calibration asks, which that voice's naturalness gate measured, and something gives way,
        never below none. For a style clone that is the register. A register clone's register is
        its identity (joe moved to the speaker's pitch), so there the emotion's raise gives way:
        joe's pitch is moved on the waveform, and joe 3.4 st up lost 0.1 of the held-out
        embedder's similarity under happy and surprised with their whole raise added, and joe
        8 st up 0.4-0.6 of DistillMOS."""
        register = entry.register
        if register.pitch_st <= 0 or asked.pitch_st <= 0:
            return asked.then(register)
        highest = self._highest_raise(entry.calibrated_as)
        if entry.backend.capabilities.cloning is Cloning.STYLE:
            return asked.then(replace(register, pitch_st=min(register.pitch_st, max(0.0, highest - asked.pitch_st))))
        return replace(asked, pitch_st=min(asked.pitch_st, max(0.0, highest - register.pitch_st))).then(register)

    def _highest_raise(self, calibrated_voice: str) -> float:
        return max(0.0, *(preset.pitch_st for preset in self._calibration.presets(calibrated_voice).values()))

    def _calibrated(self, calibrated_voice: str, emotion: Emotion) -> Prosody:
        return self._calibration.controls(calibrated_voice, emotion)

    def plan(self, text: str, options: SpeechOptions, resolution: Resolution) -> Plan:
        """Every inference `text` needs, read as `options` ask with `resolution`'s emotion.
        `options.voice` must be set (the engine fills in its default)."""
        entry = self._catalogue.entry(options.voice)
        text = _check_text(text)
        lexicon = self.settings.lexicon.with_entries(options.lexicon.entries) if options.lexicon \
            else self.settings.lexicon
        spans = markup.parse(text) if markup.has_markup(text) else [markup.Span(text)]
        if options.dialogue_emotion:
            spans = _dialogue_apart(spans, resolve(options.dialogue_emotion).emotion)
        parts, dropped = [], []
        for span in spans:
            span_emotion = span.emotion or resolution.emotion
            pause_before = span.pause_before_s
            for language, piece in self._by_language(span.text, entry, options.lang):
                speaker = self._speaker_for(language, entry)
                normalized = self.frontend(speaker.info.language).normalize(lexicon.with_aliases(piece))
                controls = self._registered(self.calibrated(speaker.calibrated_as, span_emotion).then(span.prosody),
                                            speaker)
                stretch = Stretch(normalized.text, language, speaker.info.name, span_emotion, controls, pause_before,
                                  written=piece)
                parts.append(_Part(stretch, speaker, "" if speaker is entry else entry.info.name))
                dropped.extend(ch for ch in normalized.dropped if ch not in dropped)
                pause_before = 0.0
        if not any(ch.isalpha() for part in parts for ch in part.stretch.text):
            raise InvalidTextError("the text has nothing speakable after normalization"
                                   + (f" (dropped: {''.join(dropped)})" if dropped else ""))
        warnings = (f"dropped characters the voice cannot say: {' '.join(dropped)}",) if dropped else ()
        for warning in warnings:
            log.warning(warning)
        jobs = tuple(self._jobs(parts, entry.backend.sample_rate, options.speed, warnings, lexicon,
                                watermark=bool(entry.info.based_on)))
        if not jobs:
            raise InvalidTextError("the text produced no speech; it may contain only symbols the voice cannot say")
        return Plan(voice=entry.info, speed=options.speed, lang=options.lang, sample_rate=entry.backend.sample_rate,
                    resolution=resolution, controls=self.controls(entry, resolution.emotion),
                    stretches=tuple(part.stretch for part in parts), jobs=jobs,
                    warnings=tuple(dict.fromkeys(w for job in jobs for w in job.warnings)))

    def _by_language(self, text: str, entry: Entry, lang: str) -> list[tuple[str, str]]:
        if lang != "auto":
            return [(lang, text)]
        stretches = languages.split(text)
        if all(language == entry.info.language for language, _ in stretches):
            return [(entry.info.language, text)]  # one language: normalize the text as a whole
        return stretches

    def _speaker_for(self, language: str, entry: Entry) -> Entry:
        """The requested voice for its own language; for the other, a stock voice of that
        language: the same gender first, then the deployment's partner for that language."""
        if language == entry.info.language:
            return entry
        candidates = self._catalogue.speakers_of(language)
        if not candidates:
            hint = self.settings.missing_languages.get(language, "")
            raise InvalidTextError(
                f"the text has {_LANGUAGE_NAMES.get(language, language)} in it and no voice for that language is "
                f"loaded{f' ({hint})' if hint else ''}; or pass lang='{entry.info.language}'")
        partner = self.settings.partners.get(language)
        return min(candidates, key=lambda c: (c.info.gender != entry.info.gender, c.info.name != partner))

    def _jobs(self, parts: list[_Part], output_rate: int, speed: float, warnings: tuple[str, ...],
              lexicon: Lexicon, watermark: bool) -> Iterator[ChunkJob]:
        index = 0
        for number, part in enumerate(parts):
            stretch, backend = part.stretch, part.entry.backend
            pause_before = stretch.pause_before_s
            frontend = self.frontend(part.entry.info.language, backend.capabilities.alphabet)
            # A backend that decodes in windows starts a long sentence as soon as a short one:
            # cutting it at a clause would only cost its prosody a pause.
            first_cut = None if backend.capabilities.streaming else self.settings.first_segment_chars
            segments = list(frontend.segments(stretch.text, backend.max_phonemes, first_cut, lexicon))
            written = WrittenWords.pair(stretch.written or stretch.text, stretch.text, part.entry.info.language)
            first_word = 0
            for position, segment in enumerate(segments):
                encoded = backend.encode(segment.phonemes)
                words, id_words = align_words(segment.text, segment.phonemes, encoded.sources,
                                              part.entry.info.language)
                first_word += len(words)
                as_written = written.text_of(first_word - len(words), len(words))
                words, id_words = written.regroup(first_word - len(words), words, id_words)
                chunk_warnings = warnings if index == 0 else ()
                if encoded.dropped:
                    message = (f"dropped phonemes {' '.join(encoded.dropped)} unknown to {backend.name} "
                               f"in {segment.text!r}")
                    log.warning(message)
                    chunk_warnings += (message,)
                pause = post.SENTENCE_PAUSE_S if segment.ends_sentence else post.CLAUSE_PAUSE_S
                if position == len(segments) - 1 and number < len(parts) - 1 \
                        and not stretch.text.rstrip().endswith(_CLAUSE_ENDS):
                    pause = post.SWITCH_PAUSE_S  # mid-sentence hand-over to the other language's voice
                yield ChunkJob(backend=backend.name, voice=part.entry.info.name, model_voice=part.entry.model_voice,
                               ids=tuple(encoded.ids), speed=speed, controls=stretch.controls, text=segment.text,
                               phonemes=segment.phonemes, index=index, pause_before_s=pause_before,
                               pause_after_s=pause / (speed * stretch.controls.speed), output_rate=output_rate,
                               warnings=chunk_warnings, match_level_of=part.match_level_of, words=words,
                               id_words=id_words, written=as_written, watermark=watermark,
                               equalizer=part.entry.equalizer)
                pause_before = 0.0
                index += 1


#: Dialogue: text in straight, curly or corner quotes. A quote never holds its own opening
#: mark, so an opening mark with no closing one is passed over in one step, not scanned to
#: the end of the text from each (quadratic on a text of 50,000 “).
_QUOTED = re.compile(r'(“[^“”]*”|"[^"]*"|「[^「」]*」|『[^『』]*』)')


def _dialogue_apart(spans: list[markup.Span], dialogue: Emotion) -> list[markup.Span]:
    """Spans with their quoted stretches apart, spoken with `dialogue` where the span has no
    emotion of its own from markup."""
    out = []
    for span in spans:
        pieces = [p for p in _QUOTED.split(span.text) if p]
        for number, piece in enumerate(pieces):
            quoted = bool(_QUOTED.fullmatch(piece))
            out.append(replace(span, text=piece, emotion=span.emotion or (dialogue if quoted else None),
                               pause_before_s=span.pause_before_s if number == 0 else 0.0))
    return out


def _check_text(text: str) -> str:
    if not isinstance(text, str):
        raise InvalidTextError(f"text must be a string, not {type(text).__name__}")
    if not text.strip():
        raise InvalidTextError("the text is empty; give at least one word to speak")
    return text
