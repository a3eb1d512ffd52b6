"""The NumPy GE2E encoder: parity with resemblyzer (torch) and speaker discrimination."""

from __future__ import annotations

import numpy as np
import pytest
import soxr

from emovox.voices.encoder import SAMPLE_RATE, SpeakerEncoder, mel_power_frames, similarity

pytestmark = [pytest.mark.models, pytest.mark.paired]


def _speech(engine, text: str, voice: str) -> np.ndarray:
    audio = engine.synthesize(text, voice=voice)
    return soxr.resample(audio.samples, audio.sample_rate, SAMPLE_RATE).astype(np.float32)


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder.packaged()


def test_matches_the_reference_implementation(engine, encoder):
    pytest.importorskip("torch")
    pytest.importorskip("librosa")
    from resemblyzer import VoiceEncoder, preprocess_wav
    from resemblyzer.audio import wav_to_mel_spectrogram

    wav = preprocess_wav(_speech(engine, "Bring the green umbrella, it may rain later.", "jm_kumo"), SAMPLE_RATE)
    reference = VoiceEncoder(device="cpu", verbose=False)
    reference_mel = wav_to_mel_spectrogram(wav)
    assert np.abs(mel_power_frames(wav) - reference_mel).max() <= 1e-4 * np.abs(reference_mel).max()
    ours, theirs = encoder.embed(wav), reference.embed_utterance(wav)
    assert ours.shape == (256,)
    assert np.abs(ours - theirs).max() < 1e-4


def test_same_speaker_scores_higher_than_another(engine, encoder):
    kumo = encoder.embed(_speech(engine, "The station is five minutes from here.", "jm_kumo"))
    kumo_again = encoder.embed(_speech(engine, "Could you close the window, please?", "jm_kumo"))
    alpha = encoder.embed(_speech(engine, "Could you close the window, please?", "jf_alpha"))
    assert similarity(kumo, kumo_again) > similarity(kumo, alpha) + 0.1
