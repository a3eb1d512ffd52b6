"""F0 tracking and PSOLA pitch changes, measured with an independent estimator (pYIN)."""

from __future__ import annotations

import numpy as np
import pytest

from emovox.audio import effects
from emovox.audio.pitch import track_f0

pytestmark = pytest.mark.paired

SENTENCE = "Our neighbors painted their fence a bright shade of green."


def _pyin(samples: np.ndarray, rate: int) -> tuple[int, float]:
    librosa = pytest.importorskip("librosa")
    hop = int(0.01 * rate)
    f0, voiced, _ = librosa.pyin(samples.astype(np.float64), fmin=50, fmax=800, sr=rate,
                                 hop_length=hop, frame_length=4 * hop)
    return int(voiced.sum()), float(np.median(f0[voiced]))


def test_a_weak_fundamental_is_not_read_an_octave_up():
    rate, f0 = 22_050, 85.0
    t = np.arange(rate) / rate
    # Harmonics 2-8 strong, the fundamental 20 dB down: the shape of the joe voice's spectrum.
    tone = 0.1 * np.sin(2 * np.pi * f0 * t) + sum(np.sin(2 * np.pi * k * f0 * t) / k for k in range(2, 9))
    track = track_f0(tone.astype(np.float32), rate, (60.0, 400.0), 0.005)
    assert np.median(track[track > 0]) == pytest.approx(f0, rel=0.03)


@pytest.mark.parametrize("semitones", [4.0, -2.5])
def test_psola_moves_joe_by_the_semitones_asked_and_keeps_him_voiced(engine, semitones):
    from emovox.backends.vits import JOE_MODAL_F0_BAND

    neutral = engine.synthesize(SENTENCE, voice="joe")
    shifted = effects.reshape_pitch(neutral.samples, neutral.sample_rate, semitones, 1.0, JOE_MODAL_F0_BAND)
    assert len(shifted) == len(neutral.samples)
    voiced_before, f0_before = _pyin(neutral.samples, neutral.sample_rate)
    voiced_after, f0_after = _pyin(shifted, neutral.sample_rate)
    assert 12 * np.log2(f0_after / f0_before) == pytest.approx(semitones, abs=1.0)
    assert voiced_after >= 0.8 * voiced_before


def _gliding_vowel(rate: int) -> np.ndarray:
    """Two harmonics on an F0 gliding 70-110 Hz, a stretch of noise and a silence in it."""
    t = np.arange(int(rate * 2.0)) / rate
    phase = 2 * np.pi * np.cumsum(90 + 20 * np.sin(2 * np.pi * 1.3 * t)) / rate
    signal = np.sin(phase) + 0.3 * np.sin(2 * phase)
    signal[int(0.8 * rate):int(1.0 * rate)] = np.random.default_rng(0).normal(0, 0.05, int(0.2 * rate))
    signal[int(1.5 * rate):int(1.6 * rate)] = 0
    return signal.astype(np.float32)


def _blocks(samples: np.ndarray, seed: int) -> list[np.ndarray]:
    sizes = np.random.default_rng(seed).integers(100, 5000, len(samples) // 100)
    return [block for block in np.split(samples, np.cumsum(sizes)) if len(block)]


@pytest.mark.parametrize("keep_level", [True, False])
def test_psola_block_by_block_gives_the_samples_of_one_call(keep_level):
    from emovox.audio.psola import Psola, psola

    rate, hop_s = 22_050, 0.005
    samples = _gliding_vowel(rate)
    f0 = track_f0(samples, rate, (60.0, 150.0), hop_s)
    target = np.where(f0 > 0, f0 * 2 ** (3 / 12), 0.0)
    whole = psola(samples, rate, f0, target, hop_s, keep_level)
    shifter, pieces, received = Psola(rate, hop_s, 1 / 60.0, keep_level), [], 0
    blocks = _blocks(samples, seed=1)
    for number, block in enumerate(blocks):
        received += len(block)
        final = number == len(blocks) - 1
        known = len(f0) if final else int(received / rate / hop_s) - 6  # the track lags the samples
        pieces.append(shifter.process(block, f0[:known], target[:known], final))
    assert sum(len(piece) > 0 for piece in pieces[:-1]) > len(pieces) // 2  # it streams
    np.testing.assert_array_equal(np.concatenate(pieces), whole)


def test_a_stream_reshaped_block_by_block_sounds_like_the_whole_reshaped():
    rate, band, center_hz = 22_050, (60.0, 150.0), 90.0
    samples = _gliding_vowel(rate)
    whole = effects.reshape_pitch(samples, rate, 3.0, 1.3, band, center_hz=center_hz)
    shaper = effects.PitchShaper(rate, 3.0, 1.3, center_hz, band)
    blocks = _blocks(samples, seed=2)
    streamed = np.concatenate([shaper.process(block, final=number == len(blocks) - 1)
                               for number, block in enumerate(blocks)])
    assert len(streamed) == len(samples)
    snr_db = 10 * np.log10(np.sum(whole**2) / max(float(np.sum((whole - streamed) ** 2)), 1e-12))
    assert snr_db > 30
    before, after = track_f0(samples, rate, band, 0.005), track_f0(streamed, rate, band, 0.005)
    voiced = (before > 0) & (after > 0)
    assert np.median(12 * np.log2(after[voiced] / before[voiced])) == pytest.approx(3.0, abs=0.5)
