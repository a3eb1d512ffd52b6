"""Encode float samples into the container formats users ask for, through libsndfile."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from emovox.errors import InvalidOptionError

#: format name -> (libsndfile container, subtype)
FORMATS = {
    "wav": ("WAV", "PCM_16"),
    "flac": ("FLAC", "PCM_16"),
    "ogg": ("OGG", "VORBIS"),
    "mp3": ("MP3", "MPEG_LAYER_III"),
}


def _container(fmt: str) -> tuple[str, str]:
    try:
        return FORMATS[fmt.lower()]
    except KeyError:
        raise InvalidOptionError(f"unknown audio format {fmt!r}; choose one of {', '.join(FORMATS)}") from None


def format_of(path: Path, default: str = "wav") -> str:
    suffix = path.suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else default


def encode(samples: np.ndarray, sample_rate: int, fmt: str = "wav") -> bytes:
    import soundfile

    container, subtype = _container(fmt)
    buffer = io.BytesIO()
    soundfile.write(buffer, np.clip(samples, -1.0, 1.0), sample_rate, format=container, subtype=subtype)
    return buffer.getvalue()


def write(path: Path, samples: np.ndarray, sample_rate: int, fmt: str | None = None) -> Path:
    """Write audio atomically enough for a CLI: encode fully, then write the bytes."""
    data = encode(samples, sample_rate, fmt or format_of(path))
    path.write_bytes(data)
    return path
