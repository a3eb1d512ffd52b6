"""Pitch moved by Praat's overlap-add, stretch by stretch: measured with an independent
estimator (pYIN), and a stream against the whole."""

from __future__ import annotations

import numpy as np
import pytest

from emovox.audio.praat_pitch import PraatPitch, move_pitch
from emovox.engine.windows import FIRST_WINDOW_S

RATE = 22_050


def _vowel(seconds: float, f0_hz: float, glide_hz: float = 0.0) -> np.ndarray:
    """A voiced stretch: an F0 gliding `glide_hz` around `f0_hz`, harmonics falling 6 dB an octave."""
    t = np.arange(int(RATE * seconds)) / RATE
    phase = 2 * np.pi * np.cumsum(f0_hz + glide_hz * np.sin(2 * np.pi * 1.3 * t)) / RATE
    return (0.3 * sum(np.sin(k * phase) / k for k in range(1, 12))).astype(np.float32)


def _speech_like() -> np.ndarray:
    """Two voiced stretches with a closure between them, a breath of noise, then a long vowel."""
    silence = np.zeros(int(0.08 * RATE), np.float32)
    noise = np.random.default_rng(0).normal(0, 0.02, int(0.15 * RATE)).astype(np.float32)
    return np.concatenate([silence, _vowel(0.5, 100.0, 15.0), silence, _vowel(0.4, 90.0), noise,
                           _vowel(2.2, 95.0, 20.0), silence])


def _pyin(samples: np.ndarray) -> np.ndarray:
    librosa = pytest.importorskip("librosa")
    f0, voiced, _ = librosa.pyin(samples.astype(np.float64), fmin=50, fmax=400, sr=RATE,
                                 hop_length=220, frame_length=1024)
    return np.where(voiced, f0, np.nan)


def test_the_level_rises_by_the_semitones_asked_and_the_length_is_kept():
    samples = _speech_like()
    raised = move_pitch(samples, RATE, 3.0, 1.0, center_hz=95.0)
    assert len(raised) == len(samples)
    before, after = _pyin(samples), _pyin(raised)
    assert 12 * np.log2(np.nanmedian(after) / np.nanmedian(before)) == pytest.approx(3.0, abs=0.4)
    assert np.sum(np.isfinite(after)) >= 0.8 * np.sum(np.isfinite(before))  # still voiced


def test_the_range_is_scaled_around_the_centre():
    samples = _vowel(2.0, 100.0, 20.0)
    widened = move_pitch(samples, RATE, 0.0, 1.5, center_hz=100.0)
    before, after = np.log(_pyin(samples)), np.log(_pyin(widened))
    assert np.nanstd(after) / np.nanstd(before) == pytest.approx(1.5, abs=0.2)
    expected = np.log(100.0) + 1.5 * (np.nanmedian(before) - np.log(100.0))  # the median moves away from the centre
    assert 12 * (np.nanmedian(after) - expected) / np.log(2) == pytest.approx(0.0, abs=0.3)


def test_a_stream_in_any_blocks_gives_the_samples_of_the_whole():
    samples = _speech_like()
    whole = move_pitch(samples, RATE, 2.5, 1.3, center_hz=95.0, first_reach_s=FIRST_WINDOW_S)
    for seed in (1, 2):
        sizes = np.random.default_rng(seed).integers(50, 6000, len(samples) // 50)
        blocks = [block for block in np.split(samples, np.cumsum(sizes)) if len(block)]
        shifter = PraatPitch(RATE, 2.5, 1.3, center_hz=95.0, first_reach_s=FIRST_WINDOW_S)
        pieces = [shifter.process(block, final=number == len(blocks) - 1) for number, block in enumerate(blocks)]
        assert sum(len(piece) > 0 for piece in pieces[:-1]) >= 2  # stretches come before the end
        np.testing.assert_array_equal(np.concatenate(pieces), whole)


def test_silence_and_noise_stay_what_they_were():
    silence = np.zeros(RATE // 2, np.float32)
    noise = np.random.default_rng(3).normal(0, 0.05, RATE // 2).astype(np.float32)
    assert np.array_equal(move_pitch(silence, RATE, 4.0, 1.2, center_hz=90.0), silence)
    moved_noise = move_pitch(noise, RATE, 4.0, 1.2, center_hz=90.0)
    assert len(moved_noise) == len(noise)
    assert np.sqrt(np.mean(moved_noise**2)) == pytest.approx(0.05, rel=0.3)


def test_a_stretch_too_short_to_analyse_comes_back_unchanged():
    short = _vowel(0.03, 100.0)
    np.testing.assert_array_equal(move_pitch(short, RATE, 3.0, 1.0, center_hz=100.0), short)


def test_the_first_stretch_ends_at_an_unvoiced_point_within_a_streams_first_window():
    first_window = int(FIRST_WINDOW_S * RATE)
    hiss = np.random.default_rng(4).normal(0, 0.03, int(0.06 * RATE)).astype(np.float32)  # a fricative, not quiet
    speech = np.concatenate([_vowel(0.1, 100.0), hiss, _vowel(2.0, 100.0, 15.0)])
    shifter = PraatPitch(RATE, 3.0, 1.0, center_hz=100.0, first_reach_s=FIRST_WINDOW_S)
    first = shifter.process(speech[:first_window])
    assert int(0.1 * RATE) < len(first) < int(0.16 * RATE)  # cut inside the hiss
    np.testing.assert_array_equal(np.concatenate([first, shifter.process(speech[first_window:], final=True)]),
                                  move_pitch(speech, RATE, 3.0, 1.0, center_hz=100.0, first_reach_s=FIRST_WINDOW_S))


def test_without_an_unvoiced_point_the_first_stretch_waits_for_a_gap():
    vowel = _vowel(1.2, 100.0, 15.0)
    assert len(PraatPitch(RATE, 3.0, 1.0, center_hz=100.0, first_reach_s=FIRST_WINDOW_S).process(vowel)) == 0
