"""One audiobook file with chapter marks: AAC in an MP4 (`.m4b`) container, through PyAV.

Written bit-exact (no creation time or encoder tag that would change from run to run), so
a resumed book gives the same bytes as an uninterrupted one, and atomically.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np

from emovox.audio.ffmpeg_threads import single_threaded_resampler
from emovox.paths import written_atomically

_MILLIS = Fraction(1, 1000)


def write_m4b(path: Path, title: str, chapters: Iterable[tuple[str, Iterator[np.ndarray]]], sample_rate: int) -> Path:
    """`chapters`: (title, its samples piece by piece), in order."""
    import av

    with written_atomically(Path(path)) as partial:
        container = av.open(str(partial), "w", format="ipod", options={"fflags": "+bitexact"})
        stream = container.add_stream("aac", rate=sample_rate, layout="mono")
        resampler = single_threaded_resampler(stream.codec_context, format=stream.codec_context.format.name,
                                              layout="mono", rate=sample_rate)
        marks, written = [], 0

        def encode(frame) -> None:
            for converted in resampler.resample(frame):
                for packet in stream.encode(converted):
                    container.mux(packet)

        try:
            for number, (chapter_title, pieces) in enumerate(chapters):
                start = written
                for samples in pieces:
                    frame = av.AudioFrame.from_ndarray(np.asarray(samples, np.float32).reshape(1, -1), format="flt",
                                                       layout="mono")
                    frame.sample_rate, frame.pts = sample_rate, written
                    written += len(samples)
                    encode(frame)
                marks.append({"id": number, "start": round(1000 * start / sample_rate),
                              "end": round(1000 * written / sample_rate), "time_base": _MILLIS,
                              "metadata": {"title": chapter_title}})
            encode(None)
            for packet in stream.encode(None):
                container.mux(packet)
            container.metadata["title"] = title
            container.set_chapters(marks)
        finally:
            container.close()
    return Path(path)
