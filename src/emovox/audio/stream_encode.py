"""Incremental encoders: float chunks in, bytes out as soon as the codec produces them.

The HTTP API streams `mp3`, `opus` (in Ogg), `aac` (ADTS), `flac`, `wav` and `pcm` (raw
16-bit little-endian) while synthesis is still running. The compressed formats go through
FFmpeg's encoders (PyAV) writing to a buffer that is drained after every chunk; `wav` is a
header with an open-ended length (players read such a stream to its end) followed by PCM;
`pcm` is resampled to 24 kHz as OpenAI's format defines it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

from emovox.audio.ffmpeg_threads import single_threaded_resampler
from emovox.audio.formats import MEDIA_TYPES, check_format


@dataclass(frozen=True)
class Codec:
    """How one compressed format is made with FFmpeg."""

    container: str
    codec: str
    #: the sample rates the codec accepts (None: any)
    rates: tuple[int, ...] | None = None
    bit_rate: int | None = None
    options: dict[str, str] = field(default_factory=dict)


_COMPRESSED = {
    # 64 kbit/s CBR with LAME's quality 7: FFmpeg's default (about 32 kbit/s for 22-24 kHz mono)
    # cost the Kokoro voices 0.6 of DistillMOS (4.21 as WAV, 3.63 as MP3), 64 kbit/s keeps it
    # (4.23), and quality 7 encodes twice as fast as LAME's default at that rate (about 200x
    # real time against 100x) with no loss measured (benchmarks/README.md, "MP3 settings").
    "mp3": Codec("mp3", "libmp3lame", bit_rate=64_000, options={"compression_level": "7"}),
    "opus": Codec("ogg", "libopus", rates=(48_000, 24_000, 16_000, 12_000, 8_000)),
    "aac": Codec("adts", "aac"),
    "flac": Codec("flac", "flac"),
}
#: OpenAI's `pcm` is 16-bit mono at 24 kHz whatever the voice; other formats keep the voice's rate.
PCM_RATE = 24_000
__all__ = ["MEDIA_TYPES", "PCM_RATE", "StreamEncoder"]


class _Sink:
    """A write-only, non-seekable file for FFmpeg: muxers then never seek back to patch a
    header in bytes that have already been sent."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def write(self, data) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def drain(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data


def _pcm16(samples: np.ndarray) -> bytes:
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


class StreamEncoder:
    """`write(samples) -> bytes` for each chunk, then `close() -> bytes` for the tail."""

    def __init__(self, fmt: str, sample_rate: int) -> None:
        check_format(fmt, param="response_format")
        self.format, self.sample_rate = fmt, sample_rate
        self._header_sent = False
        self._container = None
        self._to_pcm_rate = None
        if fmt == "pcm" and sample_rate != PCM_RATE:
            import soxr

            self._to_pcm_rate = soxr.ResampleStream(sample_rate, PCM_RATE, 1, dtype="float32")
        if fmt in _COMPRESSED:
            self._open(_COMPRESSED[fmt])

    def _open(self, codec: Codec) -> None:
        import av

        self._sink = _Sink()
        # bitexact: the same samples always give the same bytes (Ogg would pick a random stream serial)
        self._container = av.open(self._sink, mode="w", format=codec.container, options={"fflags": "+bitexact"})
        rates = codec.rates
        rate = self.sample_rate if rates is None or self.sample_rate in rates else max(rates)
        self._stream = self._container.add_stream(codec.codec, rate=rate, layout="mono")
        if codec.bit_rate:
            self._stream.codec_context.bit_rate = codec.bit_rate
        self._stream.codec_context.options = dict(codec.options)
        codec_context = self._stream.codec_context
        self._resampler = single_threaded_resampler(codec_context, format=codec_context.format.name, layout="mono",
                                                    rate=rate)
        self._pts = 0

    def _drain(self) -> bytes:
        return self._sink.drain()

    def _encode(self, frame) -> None:
        for converted in self._resampler.resample(frame):
            for packet in self._stream.encode(converted):
                self._container.mux(packet)

    def write(self, samples: np.ndarray) -> bytes:
        if self.format == "pcm":
            if self._to_pcm_rate is not None:
                samples = self._to_pcm_rate.resample_chunk(np.asarray(samples, np.float32))
            return _pcm16(samples)
        if self.format == "wav":
            header = b"" if self._header_sent else self._wav_header()
            self._header_sent = True
            return header + _pcm16(samples)
        import av

        frame = av.AudioFrame.from_ndarray(np.asarray(samples, np.float32).reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = self.sample_rate
        frame.pts = self._pts
        self._pts += len(samples)
        self._encode(frame)
        return self._drain()

    def close(self) -> bytes:
        if self.format == "pcm":
            if self._to_pcm_rate is None:
                return b""
            return _pcm16(self._to_pcm_rate.resample_chunk(np.zeros(0, np.float32), last=True))
        if self._container is None:
            return b"" if self._header_sent else self._wav_header()
        self._encode(None)
        for packet in self._stream.encode(None):
            self._container.mux(packet)
        self._container.close()
        return self._drain()

    def _wav_header(self) -> bytes:
        """RIFF/WAVE header for 16-bit mono PCM of unknown length (sizes set to the maximum)."""
        unknown = 0xFFFFFFFF
        return (b"RIFF" + struct.pack("<I", unknown) + b"WAVE"
                + b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, self.sample_rate, self.sample_rate * 2, 2, 16)
                + b"data" + struct.pack("<I", unknown))
