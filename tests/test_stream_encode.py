"""The streaming encoders and the upload decoder leave no FFmpeg threads behind.

PyAV 18.1.1 gives every codec and every resampling graph a thread per CPU unless told
otherwise; a server that streams MP3 to clients who hang up mid-stream then gathered threads
until a garbage collection happened to free the encoders (the soak saw 41 grow to 111)."""

from __future__ import annotations

import gc
import io
import os

import numpy as np
import pytest
import soundfile

from emovox.audio.stream_encode import StreamEncoder
from emovox.voices.intake import decode


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _tone(seconds: float, rate: int) -> np.ndarray:
    return (0.2 * np.sin(2 * np.pi * 220 * np.arange(int(seconds * rate)) / rate)).astype(np.float32)


@pytest.mark.parametrize("fmt", ["mp3", "opus", "aac", "flac"])
def test_an_encoder_closed_or_abandoned_mid_stream_leaves_no_thread(fmt):
    gc.collect()
    before = _threads()
    live = []
    for _ in range(3):
        finished = StreamEncoder(fmt, 24_000)
        assert finished.write(_tone(0.5, 24_000)) + finished.close()
        abandoned = StreamEncoder(fmt, 24_000)  # a client that went away after the first chunk
        abandoned.write(_tone(0.5, 24_000))
        live += [finished, abandoned]  # held, as a slow collector would hold them
    assert _threads() == before


def test_decoding_an_upload_leaves_no_thread():
    buffer = io.BytesIO()
    soundfile.write(buffer, _tone(1.0, 44_100), 44_100, format="OGG")
    gc.collect()
    before = _threads()
    decoded = [decode(buffer.getvalue()) for _ in range(3)]
    assert all(len(samples) > 40_000 for samples, _, _ in decoded)
    assert _threads() == before
