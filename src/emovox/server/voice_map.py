"""OpenAI's voice names, mapped to ours, so an app written for OpenAI's speech endpoint works
on its first request.

Such apps send `"voice": "alloy"` (or `{"id": "alloy"}`, the object form). Each OpenAI name
maps to a built-in voice of the same gender and a similar character (`OPENAI_VOICES`); a
deployment changes any of them with `emovox serve --voice-map FILE` (JSON or YAML,
`{"alloy": "jf_alpha", ...}`). A default whose voice this deployment does not carry falls
back to the deployment's default voice; a mapping the operator wrote must name a voice that
is loaded, or the server does not start. `GET /v1/voices` lists the table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from emovox.errors import InvalidOptionError, UnknownVoiceError

#: OpenAI's voices (its speech guide, 2026) -> ours, by gender and character.
OPENAI_VOICES: dict[str, str] = {
    "alloy": "heart",  # neutral, warm: the native American voice
    "ash": "joe",
    "ballad": "jm_kumo",
    "coral": "jf_alpha",
    "echo": "joe",
    "fable": "jm_kumo",
    "onyx": "joe",  # deep male
    "nova": "heart",
    "sage": "jf_nezumi",
    "shimmer": "jf_gongitsune",
    "verse": "jm_kumo",
    "marin": "heart",
    "cedar": "joe",
}


def read_map(path: Path) -> dict[str, str]:
    """A voice map file: a JSON or YAML mapping of names to voice names."""
    import yaml

    try:
        text = Path(path).read_text("utf-8")
        data = json.loads(text) if str(path).endswith(".json") else yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as e:
        raise InvalidOptionError(f"cannot read the voice map {path}: {e}", param="voice_map") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise InvalidOptionError(f"the voice map {path} must map names to voice names, e.g. {{alloy: heart}}",
                                 param="voice_map")
    return data


@dataclass(frozen=True)
class VoiceMap:
    table: dict[str, str]

    @classmethod
    def build(cls, engine, overrides: dict[str, str] | None = None) -> VoiceMap:
        """OPENAI_VOICES for what `engine` carries, then `overrides`, each checked."""

        def known(voice: str) -> bool:
            try:
                engine.voice(voice)
                return True
            except UnknownVoiceError:
                return False

        table = {name: voice if known(voice) else engine.default_voice for name, voice in OPENAI_VOICES.items()}
        for name, voice in (overrides or {}).items():
            if not known(voice):
                raise InvalidOptionError(f"the voice map sends {name!r} to {voice!r}, which this deployment does not "
                                         f"carry; valid voices: {', '.join(v.name for v in engine.voices())}",
                                         param="voice_map")
            table[name] = voice
        return cls(table)

    def resolve(self, name: str) -> str:
        """The voice `name` stands for (a name not in the table is itself)."""
        return self.table.get(name, name)

    def names(self) -> list[str]:
        return list(self.table)

    def to_list(self) -> list[dict]:
        return [{"name": name, "voice": voice} for name, voice in self.table.items()]
