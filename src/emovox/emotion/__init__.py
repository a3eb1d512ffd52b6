"""Emotion: a value (label + intensity + physical overrides) resolved into prosody controls."""

from emovox.emotion.model import EMOTIONS, Emotion, Prosody

__all__ = ["EMOTIONS", "Emotion", "Prosody"]
