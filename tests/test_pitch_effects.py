"""F0 tracking and PSOLA pitch changes, measured with an independent estimator (pYIN)."""

from __future__ import annotations

import numpy as np
import pytest

from emovox.audio import effects
from emovox.audio.pitch import track_f0

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
