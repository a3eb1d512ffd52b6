"""The HTTP request bodies, generated from the one request model (emovox/options.py).

OpenAI's own fields (`model`, `input`, `instructions`, `stream_format`) come first; every
emovox option follows with the name, description, bounds and choices `OPTIONS` gives it.
Bounds and choices are published in the schema but checked by `SpeechOptions`, so a bad
value gets the same message here as on the command line.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, create_model

from emovox.errors import InvalidOptionError
from emovox.frontend.lexicon import Lexicon
from emovox.options import OPTIONS, Option, SpeechOptions
from emovox.server.voice_map import VoiceMap

MODEL_IDS = ("emovox", "tts-1", "tts-1-hd", "gpt-4o-mini-tts", "gpt-4o-mini-tts-2025-03-20",
             "gpt-4o-mini-tts-2025-12-15")
#: Defaults where the OpenAI endpoint has its own.
API_DEFAULTS = {"format": "mp3", "speed": 1.0, "lang": "auto"}


class VoiceObject(BaseModel):
    """OpenAI's custom-voice form of `voice`: {"id": "voice_1234"}; here the id is any voice name."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, description="a voice name, or one of OpenAI's (mapped: GET /v1/voices)")


class _OpenAIFields(BaseModel):
    model_config = ConfigDict(extra="ignore")

    model: str = Field("emovox", description=f"one of {', '.join(MODEL_IDS)} (all speak with emovox)",
                       json_schema_extra={"enum": list(MODEL_IDS)})
    input: str = Field(min_length=1, description="the text to speak; inline emotion tags and SSML apply")
    instructions: str | None = Field(None, description="OpenAI's style instructions: a free-text emotion prompt "
                                                       "in English or Chinese, used when the request names no "
                                                       "emotion and no prompt")
    stream_format: Literal["audio", "sse"] = "audio"


#: A JSON number: an integer or a float, never a boolean or a string of digits (as the schema says).
_NUMBER = Annotated[float, Strict()]


def _field(option: Option) -> tuple[Any, Any]:
    schema: dict[str, Any] = {}
    if option.choices:
        schema["enum"] = list(option.choices)
    if option.low is not None:
        schema.update(minimum=option.low, maximum=option.high)
    if option.kind == "clip":
        schema["contentEncoding"] = "base64"
    if option.kind == "lexicon":
        # entries as [{"text": ..., "ipa" | "pinyin" | "alias": ...}], checked by the lexicon itself
        return list[dict[str, str]] | None, Field(None, description=option.help, json_schema_extra=schema)
    kind = _NUMBER if option.kind == "number" else str
    if option.name == "voice":  # a name, or OpenAI's object form {"id": ...}; OpenAI's names map to ours
        return str | VoiceObject | None, Field(None, description=option.help,
                                               json_schema_extra={"examples": ["heart", "alloy", {"id": "alloy"}]})
    if option.name in API_DEFAULTS:  # has a value whatever the client sends; null is a type error
        return kind, Field(API_DEFAULTS[option.name], description=option.help, json_schema_extra=schema)
    return kind | None, Field(None, description=option.help, json_schema_extra=schema)


SpeechRequest = create_model("SpeechRequest", __base__=_OpenAIFields,
                             **{option.field: _field(option) for option in OPTIONS})


def speech_options(body: BaseModel, default_voice: str, voice_map: VoiceMap | None = None) -> SpeechOptions:
    """The request's options, checked; OpenAI's `instructions` stand in for a prompt, and its
    voice names are read through `voice_map`."""
    values = {option.name: getattr(body, option.field) for option in OPTIONS}
    if isinstance(values["voice"], VoiceObject):
        values["voice"] = values["voice"].id
    if values["voice"] == "":  # the schema lists the voices; an empty name is none of them
        raise InvalidOptionError("voice is empty: name one of the voices GET /v1/voices lists, "
                                 "or leave the field out for the default voice", param="voice")
    if values["voice"] and voice_map is not None:
        values["voice"] = voice_map.resolve(values["voice"])
    for option in OPTIONS:  # an empty text field is as good as none
        if option.kind == "text" and values[option.name] == "":
            values[option.name] = None
    values["voice"] = values["voice"] or default_voice
    if not values["emotion"] and not values["prompt"]:
        values["prompt"] = body.instructions or None
    values["style_ref"] = _clip(values["style_ref"])
    if values["lexicon"] is not None:
        values["lexicon"] = Lexicon.from_data(values["lexicon"])
    return SpeechOptions(**{k: v for k, v in values.items() if v is not None})


def _clip(encoded: str | None) -> bytes | None:
    """Audio bytes from base64, bare or as a data URI (`data:audio/wav;base64,...`)."""
    if encoded is None:
        return None
    payload = encoded.split(",", 1)[1] if encoded.startswith("data:") else encoded
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidOptionError("style_ref must be an audio clip in base64 (or a data: URI)",
                                 param="style_ref") from None
