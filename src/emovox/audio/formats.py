"""The audio formats a request can ask for, named once for the CLI, the API and the encoders."""

from __future__ import annotations

from pathlib import Path

from emovox.errors import InvalidOptionError

#: Streamed by the HTTP API and written by the CLI alike (`opus` is Opus in Ogg, `aac` is ADTS,
#: `pcm` is raw 16-bit little-endian mono at 24 kHz, as OpenAI defines it).
FORMATS = ("mp3", "opus", "aac", "flac", "wav", "pcm")
MEDIA_TYPES = {"mp3": "audio/mpeg", "opus": "audio/ogg", "aac": "audio/aac", "flac": "audio/flac",
               "wav": "audio/wav", "pcm": "audio/pcm"}
#: File name extensions and the format each one means.
EXTENSIONS = {".mp3": "mp3", ".opus": "opus", ".ogg": "opus", ".aac": "aac", ".flac": "flac", ".wav": "wav",
              ".pcm": "pcm", ".raw": "pcm"}


def check_format(fmt: str, param: str = "format") -> str:
    if fmt not in FORMATS:
        raise InvalidOptionError(f"unknown audio format {fmt!r}; choose one of {', '.join(FORMATS)}", param=param)
    return fmt


def format_of(path: Path) -> str:
    """The format a file name asks for; an extension we cannot write is an error listing them."""
    suffix = Path(path).suffix.lower()
    if suffix not in EXTENSIONS:
        shown = f"extension {suffix!r}" if suffix else "no extension"
        raise InvalidOptionError(f"cannot tell the audio format of {str(path)!r} ({shown}); name it "
                                 f"{', '.join(EXTENSIONS)} or pass --format ({', '.join(FORMATS)})")
    return EXTENSIONS[suffix]
