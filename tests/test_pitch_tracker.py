"""The autocorrelation F0 tracker (audio/pitch.py) on long clips: the same track in blocks as
in one piece, and memory that does not grow with the clip (the captioned endpoint tracks a
whole response, minutes of it)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from emovox.audio import pitch

RATE = 24_000


def _speech_like(seconds: float) -> np.ndarray:
    """A gliding harmonic voice, silent a third of the time, over a little noise."""
    t = np.arange(int(RATE * seconds)) / RATE
    phase = 2 * np.pi * np.cumsum(120 + 30 * np.sin(2 * np.pi * 0.3 * t)) / RATE
    voice = sum(np.sin(k * phase) / k for k in range(1, 12))
    gated = voice * (np.sin(2 * np.pi * 2 * t) > -0.3)
    noise = 0.01 * np.random.default_rng(0).standard_normal(len(t))
    return (0.3 * (gated + noise) / np.abs(gated + noise).max()).astype(np.float32)


def test_blocks_give_the_track_of_one_piece(monkeypatch):
    clip = _speech_like(12.0)
    blocked = pitch.track_f0(clip, RATE, (60.0, 400.0), 0.01)
    monkeypatch.setattr(pitch, "BLOCK_FRAMES", 1 << 20)
    whole = pitch.track_f0(clip, RATE, (60.0, 400.0), 0.01)
    assert len(blocked) == 1201 and np.array_equal(blocked, whole)
    voiced = blocked[blocked > 0]
    assert 0.55 < len(voiced) / len(blocked) < 0.75 and 85 < np.median(voiced) < 155


def test_a_stream_analysed_from_a_later_frame_continues_the_same_track():
    clip = _speech_like(6.0)
    whole = pitch.analyze_frames(clip, RATE, (60.0, 400.0), 0.005)
    later = pitch.analyze_frames(clip, RATE, (60.0, 400.0), 0.005, first_frame=333)
    assert np.array_equal(later.f0, whole.f0[333:]) and np.array_equal(later.energy, whole.energy[333:])


def test_two_minutes_are_tracked_in_bounded_memory():
    """All frames at once took 2.1 GB more for three minutes at a 10 ms hop."""
    clip = _speech_like(120.0)
    tracemalloc.start()
    try:
        track = pitch.track_f0(clip, RATE, (60.0, 400.0), 0.01)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(track) == 12_001
    assert peak < 100e6, f"{peak / 1e6:.0f} MB"  # 55 MB, 23 MB of it the clip as float64; 1.4 GB before


def test_the_median_filter_takes_tracks_without_voice_or_frames():
    assert pitch.median_smooth(np.zeros(0)).shape == (0,)
    assert np.array_equal(pitch.median_smooth(np.zeros(3)), np.zeros(3))
    assert np.array_equal(pitch.median_smooth(np.array([120.0])), np.array([120.0]))


@pytest.mark.parametrize("seed", range(5))
def test_the_median_filter_reads_only_voiced_neighbours(seed):
    rng = np.random.default_rng(seed)
    f0 = np.where(rng.random(300) < 0.3, 0.0, rng.uniform(80, 300, 300))
    smoothed = pitch.median_smooth(f0)
    for i in range(len(f0)):
        neighbours = f0[max(0, i - 2):i + 3]
        expected = np.median(neighbours[neighbours > 0]) if f0[i] > 0 else 0.0
        assert smoothed[i] == expected
