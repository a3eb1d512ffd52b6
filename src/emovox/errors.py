"""Errors with messages that say what went wrong and how to fix it."""

from __future__ import annotations

from collections.abc import Iterable


class EmovoxError(Exception):
    """Base of every error emovox raises on purpose."""


class InvalidTextError(EmovoxError, ValueError):
    """The text cannot be spoken: empty, nothing speakable in it, or not decodable."""


class UnknownVoiceError(EmovoxError, KeyError):
    """A voice name that no backend provides."""

    def __init__(self, name: str, valid: Iterable[str], hint: str = "") -> None:
        self.name = name
        self.valid = sorted(valid)
        super().__init__(f"unknown voice {name!r}; valid voices: {', '.join(self.valid)}" + (f" ({hint})" if hint else ""))

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]


class InvalidOptionError(EmovoxError, ValueError):
    """A per-call option outside its documented range."""


class ModelAssetError(EmovoxError, RuntimeError):
    """A model file is missing, damaged, or cannot be loaded; the message names the package."""
