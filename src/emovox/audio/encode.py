"""Audio files in any of the request formats, written chunk by chunk and atomically.

WAV and FLAC go through libsndfile, which writes their headers complete once the length is
known; MP3, Opus (in Ogg), AAC (ADTS) and raw PCM go through the same incremental encoders
the HTTP API streams with (one MP3 encoder and its settings for files and streams alike).
Either way the file appears under its name only when it is whole (paths.written_atomically).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from emovox.audio.formats import check_format, format_of
from emovox.paths import written_atomically

#: Formats libsndfile writes as complete files: format -> (container, subtype).
_SOUNDFILE = {"wav": ("WAV", "PCM_16"), "flac": ("FLAC", "PCM_16")}


@contextmanager
def audio_file(path: Path, sample_rate: int, fmt: str) -> Iterator:
    """`write(samples)` for each chunk; the file is complete and in place when the block ends."""
    check_format(fmt)
    with written_atomically(Path(path)) as partial:
        if fmt in _SOUNDFILE:
            import soundfile

            container, subtype = _SOUNDFILE[fmt]
            with soundfile.SoundFile(partial, "w", sample_rate, 1, subtype, format=container) as out:
                yield lambda samples: out.write(np.clip(samples, -1.0, 1.0))
        else:
            from emovox.audio.stream_encode import StreamEncoder

            encoder = StreamEncoder(fmt, sample_rate)
            with open(partial, "wb") as out:
                yield lambda samples: out.write(encoder.write(samples))
                out.write(encoder.close())


def write(path: Path, samples: np.ndarray, sample_rate: int, fmt: str | None = None) -> Path:
    """One waveform to a file (format from the extension unless `fmt` is given)."""
    return write_chunks(path, [samples], sample_rate, fmt)


def write_chunks(path: Path, chunks: Iterable[np.ndarray], sample_rate: int, fmt: str | None = None) -> Path:
    with audio_file(path, sample_rate, fmt or format_of(path)) as write_samples:
        for samples in chunks:
            write_samples(samples)
    return Path(path)
