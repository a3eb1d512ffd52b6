"""Emotion inside the text: inline tags and a small SSML subset, parsed into spans.

Inline:  "[happy] We won! [sad:0.6] But the season is over."
SSML:    <speak>, <prosody rate pitch volume>, <break time="500ms"/>, <emphasis>,
         and <emotion name="happy" intensity="0.7">.

Each span carries the emotion it is spoken with (None = the request's own), extra prosody
from enclosing <prosody>/<emphasis>, and a pause to insert before it. Malformed markup is
an error that names the position.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

from emovox.emotion.model import EMOTIONS, OVERRIDES, Emotion, Prosody
from emovox.errors import EmovoxError


class MarkupError(EmovoxError, ValueError):
    """Markup that cannot be parsed; the message says where and what is wrong."""

    param = "input"
    code = "invalid_markup"


@dataclass(frozen=True)
class Span:
    text: str
    emotion: Emotion | None = None
    prosody: Prosody = Prosody()
    pause_before_s: float = 0.0


_TAG = re.compile(r"\[([A-Za-z]+)(?::([^\]\s]*))?\]")
_UNCLOSED_TAG = re.compile(r"\[(?:neutral|happy|angry|sad|surprised|fearful|disgusted)(?::[\d.]*)?(?=[^\]\w:]|$)",
                           re.IGNORECASE)
#: SSML elements written without a <speak> root: read as if wrapped in one.
_SSML_FRAGMENT = re.compile(r"</?(?:prosody|break|emphasis|emotion)\b", re.IGNORECASE)
_RATES = {"x-slow": 0.6, "slow": 0.8, "medium": 1.0, "default": 1.0, "fast": 1.25, "x-fast": 1.5}
_PITCHES = {"x-low": -4.0, "low": -2.0, "medium": 0.0, "default": 0.0, "high": 2.0, "x-high": 4.0}
_VOLUMES = {"silent": -30.0, "x-soft": -9.0, "soft": -5.0, "medium": 0.0, "default": 0.0, "loud": 4.0,
            "x-loud": 8.0}
_EMPHASIS = {"none": Prosody(), "reduced": Prosody(pitch_st=-1.0, energy_db=-2.0),
             "moderate": Prosody(pitch_st=1.5, pitch_range=1.2, speed=0.95, energy_db=3.0),
             "strong": Prosody(pitch_st=2.5, pitch_range=1.3, speed=0.9, energy_db=5.0)}
_BREAKS = {"none": 0.0, "x-weak": 0.1, "weak": 0.2, "medium": 0.4, "strong": 0.7, "x-strong": 1.0}
#: The longest pause markup makes, however many breaks stand together.
MAX_BREAK_S = 10.0
#: Elements nested deeper than this are refused (the walk recurses once per level).
MAX_NESTING = 50
#: The namespace standard SSML declares (<speak xmlns="...">); its elements are ours.
SSML_NAMESPACE = "{http://www.w3.org/2001/10/synthesis}"


#: An XML declaration or a document type definition: refused before any parser sees it, so
#: no entity (billion laughs, an external file) is ever declared, let alone expanded.
_XML_PROLOGUE = re.compile(r"<\?xml|<!DOCTYPE|<!ENTITY", re.IGNORECASE)


def has_markup(text: str) -> bool:
    stripped = text.lstrip()
    return (stripped.startswith("<speak") or _XML_PROLOGUE.search(text) is not None
            or any(m.group(1).lower() in EMOTIONS for m in _TAG.finditer(text))
            or _UNCLOSED_TAG.search(text) is not None or _SSML_FRAGMENT.search(text) is not None)


def parse(text: str) -> list[Span]:
    """Spans of `text`; plain text without markup is one span."""
    if found := _XML_PROLOGUE.search(text):
        raise MarkupError(f"the input holds {found.group(0)!r}: XML declarations and document type definitions "
                          "(DOCTYPE, ENTITY) are refused, so no entity is ever expanded; send SSML that starts "
                          "with <speak>, or plain text")
    if text.lstrip().startswith("<speak"):
        return _parse_ssml(text)
    if _SSML_FRAGMENT.search(text):
        return _parse_ssml(f"<speak>{text}</speak>", offset=len("<speak>"))
    return _parse_inline(text)


def _parse_inline(text: str) -> list[Span]:
    spans: list[Span] = []
    emotion: Emotion | None = None
    position = 0
    for match in _TAG.finditer(text):
        name, value = match.group(1).lower(), match.group(2)
        if name not in EMOTIONS:
            continue  # "[citation]" and the like are ordinary text
        _append(spans, text[position:match.start()], emotion)
        emotion = Emotion(name, _intensity(value, match.start()))
        position = match.end()
    _append(spans, text[position:], emotion)
    unclosed = _UNCLOSED_TAG.search(_TAG.sub("", text))
    if unclosed:
        raise MarkupError(f"unclosed emotion tag {unclosed.group(0)!r}: write it as [name] or [name:0.6]")
    return spans


def _intensity(value: str | None, position: int) -> float:
    if value is None:
        return 1.0
    try:
        intensity = float(value)
    except ValueError:
        raise MarkupError(f"bad intensity {value!r} in the tag at character {position}; use a number from 0 to 1") \
            from None
    if not 0.0 <= intensity <= 1.0:
        raise MarkupError(f"intensity {intensity} in the tag at character {position} is out of range; use 0 to 1")
    return intensity


def _append(spans: list[Span], text: str, emotion: Emotion | None) -> None:
    if text.strip():
        spans.append(Span(" ".join(text.split()), emotion))


def _parse_ssml(text: str, offset: int = 0) -> list[Span]:
    """`offset`: characters added before the caller's text on its first line (not counted in errors)."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as e:
        line, column = e.position
        column -= offset if line == 1 else 0
        reason = str(e).rsplit(": line", 1)[0]
        raise MarkupError(f"malformed SSML at line {line}, column {column + 1}: {reason}") from None
    if _tag(root) != "speak":
        raise MarkupError(f"SSML must have <speak> as its root element, not <{root.tag}>")
    spans: list[Span] = []
    pending_pause = [0.0]

    def add(piece: str | None, emotion: Emotion | None, prosody: Prosody) -> None:
        if piece and piece.strip():
            spans.append(Span(" ".join(piece.split()), emotion, prosody, pending_pause[0]))
            pending_pause[0] = 0.0

    def walk(element, emotion: Emotion | None, prosody: Prosody, depth: int) -> None:
        if depth > MAX_NESTING:
            raise MarkupError(f"SSML nested deeper than {MAX_NESTING} elements (<{element.tag}>); flatten it")
        add(element.text, emotion, prosody)
        for child in element:
            tag = _tag(child)
            if tag == "break":
                pending_pause[0] = min(MAX_BREAK_S, pending_pause[0] + _break_seconds(child))
            elif tag == "prosody":
                walk(child, emotion, prosody.then(_prosody_of(child)), depth + 1)
            elif tag == "emphasis":
                level = child.get("level", "moderate")
                if level not in _EMPHASIS:
                    raise MarkupError(f"unknown emphasis level {level!r}; use one of {', '.join(_EMPHASIS)}")
                walk(child, emotion, prosody.then(_EMPHASIS[level]), depth + 1)
            elif tag == "emotion":
                name = child.get("name", "")
                if name not in EMOTIONS:
                    raise MarkupError(f"<emotion name={name!r}> is not an emotion; use one of {', '.join(EMOTIONS)}")
                walk(child, Emotion(name, _intensity(child.get("intensity"), 0)), prosody, depth + 1)
            elif tag in ("s", "p", "sentence", "paragraph"):
                walk(child, emotion, prosody, depth + 1)
            else:
                raise MarkupError(f"unsupported SSML element <{child.tag}>; supported: speak, prosody, break, "
                                  "emphasis, emotion, s, p")
            add(child.tail, emotion, prosody)

    walk(root, None, Prosody(), 1)
    if pending_pause[0]:
        spans.append(Span("", None, Prosody(), pending_pause[0]))
    return spans


def _tag(element) -> str:
    return element.tag.removeprefix(SSML_NAMESPACE)


def _break_seconds(element) -> float:
    if "time" in element.attrib:
        match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)\s*", element.get("time"))
        if not match:
            raise MarkupError(f"bad break time {element.get('time')!r}; write it like 500ms or 1.5s")
        seconds = float(match.group(1)) / (1000 if match.group(2) == "ms" else 1)
    else:
        strength = element.get("strength", "medium")
        if strength not in _BREAKS:
            raise MarkupError(f"unknown break strength {strength!r}; use one of {', '.join(_BREAKS)}")
        seconds = _BREAKS[strength]
    return min(seconds, MAX_BREAK_S)


def _prosody_of(element) -> Prosody:
    return Prosody(
        speed=_value(element.get("rate"), _RATES, _relative_factor, "rate", "speed"),
        pitch_st=_value(element.get("pitch"), _PITCHES, _pitch_semitones, "pitch", "pitch_st"),
        energy_db=_value(element.get("volume"), _VOLUMES, _decibels, "volume", "energy_db"),
    )


def _value(raw: str | None, names: dict[str, float], parse_number, attribute: str, field: str) -> float:
    """A named or numeric attribute value; a number must lie within what the API's override
    for `field` allows (or the named values span): no NaN, no 1e300 semitones."""
    limit = OVERRIDES[field]
    if raw is None:
        return getattr(Prosody(), field)
    raw = raw.strip()
    if raw in names:
        return names[raw]
    low, high = min(limit.low, *names.values()), max(limit.high, *names.values())
    try:
        value = parse_number(raw)
    except (ValueError, OverflowError):
        value = math.nan
    if not low <= value <= high:  # NaN fails this too
        raise MarkupError(f"bad prosody {attribute} {raw!r}; use one of {', '.join(names)} or a number "
                          f"such as 120%, +2st or -3dB ({limit.what} from {low:g} to {high:g}{limit.unit})")
    return value


def _relative_factor(raw: str) -> float:
    return float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)


def _pitch_semitones(raw: str) -> float:
    if raw.endswith("st"):
        return float(raw[:-2])
    if raw.endswith("%"):
        return 12 * math.log2(1 + float(raw[:-1]) / 100)
    raise ValueError(raw)


def _decibels(raw: str) -> float:
    if raw.lower().endswith("db"):
        return float(raw[:-2])
    raise ValueError(raw)
