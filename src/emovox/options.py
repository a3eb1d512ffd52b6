"""The one request model: what a caller may ask of a synthesis, checked in one place.

`SpeechOptions` is the typed value every surface builds: the CLI from its flags, the HTTP
API from its JSON body, Python callers directly. `OPTIONS` describes each field once (help,
type, choices, bounds), taken from the domain's own constants; the CLI's argparse flags and
the HTTP schema are both generated from it, so the two surfaces cannot drift apart, and
every bad value gets the same actionable message (raised as `InvalidOptionError` with the
field as its `param`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from emovox.audio.formats import FORMATS
from emovox.emotion.model import EMOTIONS, OVERRIDES
from emovox.emotion.resolve import Resolution, resolve_request
from emovox.errors import InvalidOptionError
from emovox.frontend.language import LANGUAGES
from emovox.frontend.lexicon import Lexicon

MIN_SPEED, MAX_SPEED = 0.25, 4.0


@dataclass(frozen=True)
class Option:
    """One request option, as both surfaces show it (CLI `--name-with-dashes`, API `name`)."""

    name: str
    help: str
    kind: str  # "text", "number", "choice", "clip" (a file on the CLI, base64 in the API) or "lexicon"
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    #: The HTTP field's name, where OpenAI's API already names it otherwise.
    api_name: str = ""
    #: What messages call it, where the name is terse.
    label: str = ""
    #: The longest text a "text" option takes, where its length costs work.
    max_chars: int | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def field(self) -> str:
        return self.api_name or self.name


def _override(field_name: str, help_text: str) -> Option:
    limit = OVERRIDES[field_name]
    return Option(limit.option, f"{help_text}, {limit.low:g} to {limit.high:g} (overrides the emotion's)",
                  "number", low=limit.low, high=limit.high)


OPTIONS: tuple[Option, ...] = (
    Option("voice", "voice name or alias (default: the deployment's default voice)", "text"),
    Option("speed", f"speaking rate, {MIN_SPEED:g} to {MAX_SPEED:g} (default 1)", "number",
           low=MIN_SPEED, high=MAX_SPEED),
    Option("lang", "auto: Chinese and English stretches of mixed text each read by a voice of their language "
                   "(default); zh or en: read everything as that language", "choice", LANGUAGES, label="language"),
    Option("emotion", "emotion label (default neutral)", "choice", EMOTIONS),
    Option("intensity", "emotion strength, 0 to 1 (default 1)", "number", low=0.0, high=1.0),
    Option("prompt", 'free-text style, English or Chinese: "a little sad", "非常开心"', "text"),
    _override("pitch_st", "pitch shift in semitones"),
    _override("pitch_range", "pitch range factor"),
    _override("speed", "speaking-rate factor of the emotion"),
    _override("energy_db", "loudness change in dB"),
    Option("style_ref", "say it like this clip: its pitch, range, rate and loudness are transferred", "clip"),
    Option("style_ref_voice", "the voice speaking the style_ref clip, when it is one of ours (built-in or "
                              "cloned): the clip is compared with that voice's own neutral reading instead of "
                              "population norms", "text"),
    Option("style_ref_text", "the words spoken in the style_ref clip: its rate is then measured against a neutral "
                             "reading of the same words (without them, by syllables per second, which varies "
                             "with the words by 10 to 30 percent)", "text", max_chars=300),
    Option("format", f"audio format: {', '.join(FORMATS)}", "choice", FORMATS, api_name="response_format"),
    Option("dialogue_emotion", 'emotion for dialogue in quotes, as a label or a prompt ("fearful", "a little '
                               'angry"); the rest keeps the request\'s', "text"),
    Option("lexicon", "pronunciations for this request: words or phrases read as given IPA, pinyin or alias "
                      "(on top of the stored user lexicon)", "lexicon"),
)
OPTION_NAMES = tuple(option.name for option in OPTIONS)
_BY_NAME = {option.name: option for option in OPTIONS}


@dataclass(frozen=True)
class SpeechOptions:
    """How to speak a text. None means "the default" (of the deployment, the voice or the model)."""

    voice: str | None = None
    speed: float = 1.0
    lang: str = "auto"
    emotion: str | None = None
    intensity: float | None = None
    prompt: str | None = None
    #: Explicit prosody overrides (semitones, factor, factor, dB), on top of the emotion.
    pitch: float | None = None
    range: float | None = None
    rate: float | None = None
    energy: float | None = None
    #: A reference clip (audio file bytes) whose prosody is transferred.
    style_ref: bytes | None = None
    style_ref_voice: str | None = None
    #: The words the style_ref clip speaks, when the caller knows them.
    style_ref_text: str | None = None
    format: str | None = None
    #: How words and phrases are read, for this request (the deployment's lexicon is under it).
    lexicon: Lexicon | None = None
    #: Dialogue in quotes is spoken with this emotion (a label or a prompt).
    dialogue_emotion: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.emotion, str):
            object.__setattr__(self, "emotion", self.emotion.strip().lower() or None)
        for name in OPTION_NAMES:
            _check(_BY_NAME[name], getattr(self, name))
        if self.emotion and self.prompt:
            raise InvalidOptionError("give either an emotion label or a prompt, not both", param="prompt")
        for companion in ("style_ref_voice", "style_ref_text"):
            if getattr(self, companion) and not self.style_ref:
                raise InvalidOptionError(f"{companion} describes a style_ref clip; give the clip too", param=companion)

    def replace(self, **changes) -> SpeechOptions:
        return dataclasses.replace(self, **changes)

    @property
    def overrides(self) -> dict[str, float]:
        """The explicit prosody overrides given, by Emotion field."""
        values = {field_name: getattr(self, limit.option) for field_name, limit in OVERRIDES.items()}
        return {k: v for k, v in values.items() if v is not None}

    def resolution(self, style: dict[str, float] | None = None) -> Resolution:
        """The emotion asked for: label or prompt at its intensity, then a style reference's
        measured prosody (`style`), then the explicit overrides on top."""
        return resolve_request(self.emotion, self.intensity, self.prompt, {**(style or {}), **self.overrides})


def _check(option: Option, value) -> None:
    if value is None:
        return
    where = {"param": option.field}
    if option.kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InvalidOptionError(f"{option.name} must be a number, not {value!r}", **where)
        if not option.low <= value <= option.high:
            raise InvalidOptionError(f"{option.name} {value:g} is out of range; use a value from {option.low:g} "
                                     f"to {option.high:g}", **where)
    elif option.kind == "choice":
        if value not in option.choices:
            raise InvalidOptionError(f"unknown {option.label or option.name} {value!r}; choose one of "
                                     f"{', '.join(option.choices)}", **where)
    elif option.kind == "lexicon":
        if not isinstance(value, Lexicon):
            raise InvalidOptionError(f"{option.name} must be a Lexicon", **where)
    elif option.kind == "clip":
        if not isinstance(value, bytes) or not value:
            raise InvalidOptionError(f"{option.name} must be the bytes of an audio clip", **where)
    elif not isinstance(value, str) or not value.strip():
        raise InvalidOptionError(f"{option.name} must be a non-empty string", **where)
    elif option.max_chars is not None and len(value) > option.max_chars:
        raise InvalidOptionError(f"{option.name} is {len(value)} characters long; give at most {option.max_chars}",
                                 **where)
