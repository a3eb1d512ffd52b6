"""Which MP3 settings keep the voices' naturalness, and what each costs to encode.

    .venv/bin/python benchmarks/mp3_settings.py [--voices joe jf_alpha] [--sentences 8]

Each voice reads N sentences of benchmarks/sentences_en.txt the tests do not use (from the
eleventh on); each clip is scored by DistillMOS as synthesized (WAV) and after an MP3 round
trip through each setting (FFmpeg's libmp3lame through PyAV, or libsndfile's LAME). Encoding
speed is CPU time over a minute of the voice's audio written in 2-second chunks, the way
a stream or a book's chapter is written. Reported: median DistillMOS per setting, bitrate,
and encoding speed in times real time.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import av
import numpy as np
import soundfile

from emovox.compose import from_packages
from emovox.options import SpeechOptions
from naturalness import SENTENCES, DistillMos

Encoder = Callable[[list[np.ndarray], int], bytes]


def lame_via_ffmpeg(level: int | None, bit_rate: int | None) -> Encoder:
    def encode(chunks: list[np.ndarray], rate: int) -> bytes:
        buffer = io.BytesIO()
        with av.open(buffer, "w", format="mp3") as container:
            stream = container.add_stream("libmp3lame", rate=rate, layout="mono")
            if bit_rate:
                stream.codec_context.bit_rate = bit_rate
            stream.codec_context.options = {} if level is None else {"compression_level": str(level)}
            pts = 0
            for samples in chunks:
                frame = av.AudioFrame.from_ndarray(samples.reshape(1, -1), format="flt", layout="mono")
                frame.sample_rate, frame.pts = rate, pts
                pts += len(samples)
                for packet in stream.encode(frame):
                    container.mux(packet)
            for packet in stream.encode(None):
                container.mux(packet)
        return buffer.getvalue()
    return encode


def lame_via_libsndfile(chunks: list[np.ndarray], rate: int) -> bytes:
    buffer = io.BytesIO()
    with soundfile.SoundFile(buffer, "w", rate, 1, "MPEG_LAYER_III", format="MP3") as out:
        for samples in chunks:
            out.write(samples)
    return buffer.getvalue()


SETTINGS: dict[str, Encoder] = {
    "libsndfile (VBR default)": lame_via_libsndfile,
    "FFmpeg default (about 32 kbit/s)": lame_via_ffmpeg(None, None),
    "48 kbit/s, quality 7": lame_via_ffmpeg(7, 48_000),
    "64 kbit/s, LAME default quality": lame_via_ffmpeg(None, 64_000),
    "64 kbit/s, quality 7 (emovox)": lame_via_ffmpeg(7, 64_000),
    "96 kbit/s, quality 7": lame_via_ffmpeg(7, 96_000),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha"])
    parser.add_argument("--sentences", type=int, default=8)
    args = parser.parse_args()
    engine = from_packages(audio_cache_bytes=0)
    lines = [line.strip() for line in Path(SENTENCES).read_text("utf-8").splitlines() if line.strip()]
    sentences = lines[10:10 + args.sentences]
    mos = DistillMos()
    print("| voice | setting | DistillMOS, median | kbit/s | encoding, x real time |\n|---|---|---|---|---|")
    for voice in args.voices:
        clips = [engine.synthesize(text, options=SpeechOptions(voice=voice)) for text in sentences]
        rate = clips[0].sample_rate
        print(f"| {voice} | WAV | {statistics.median(mos(c.samples, rate) for c in clips):.2f} | | |")
        minute = np.tile(np.concatenate([c.samples for c in clips]).astype(np.float32), 10)[:60 * rate]
        chunks = [minute[i:i + 2 * rate] for i in range(0, len(minute), 2 * rate)]
        for name, encode in SETTINGS.items():
            scores, bits, seconds = [], 0, 0.0
            for clip in clips:
                data = encode([clip.samples.astype(np.float32)], rate)
                decoded, decoded_rate = soundfile.read(io.BytesIO(data), dtype="float32")
                scores.append(mos(decoded, decoded_rate))
                bits, seconds = bits + 8 * len(data), seconds + len(clip.samples) / rate
            cpu = []
            for _ in range(3):
                started = time.process_time()
                encode(chunks, rate)
                cpu.append(time.process_time() - started)
            print(f"| {voice} | {name} | {statistics.median(scores):.2f} | {bits / seconds / 1000:.0f} | "
                  f"{60 / min(cpu):.0f} |", flush=True)


if __name__ == "__main__":
    main()
