"""Reference-clip intake on real speech and on every kind of bad upload."""

from __future__ import annotations

import io

import numpy as np
import pytest
import soundfile
import soxr

from emovox.voices.intake import SAMPLE_RATE, ReferenceAudioError, decode, prepare

pytestmark = [pytest.mark.models, pytest.mark.paired]

SENTENCE = ("My grandmother grew tomatoes, beans and sunflowers in her garden every summer, "
            "and we helped her water them.")


@pytest.fixture(scope="module")
def speech(engine) -> tuple[np.ndarray, int]:
    audio = engine.synthesize(SENTENCE, voice="jm_kumo")
    return audio.samples, audio.sample_rate


def _file(samples: np.ndarray, rate: int, fmt: str = "WAV") -> bytes:
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, rate, format=fmt)
    return buffer.getvalue()


def _m4a(samples: np.ndarray, rate: int) -> bytes:
    import av

    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="mp4") as container:
        stream = container.add_stream("aac", rate=rate, layout="mono")
        frame = av.AudioFrame.from_ndarray(samples.reshape(1, -1).astype(np.float32), format="flt", layout="mono")
        frame.rate = rate
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return buffer.getvalue()


def test_clean_speech_is_kept_and_reported(speech):
    samples, rate = speech
    reference = prepare(_file(samples, rate))
    report = reference.report
    assert report.source_rate == rate and report.source_channels == 1
    assert 5.0 < report.speech_s <= report.source_s and report.kept_s <= report.source_s
    assert report.snr_db > 30 and report.clipped_fraction == 0 and not report.warnings
    rms_dbfs = 20 * np.log10(np.sqrt(np.mean(reference.samples**2)))
    assert abs(rms_dbfs - (-23)) < 1.0 and reference.samples.dtype == np.float32


@pytest.mark.parametrize("container", ["mp3 stereo 44.1 kHz", "m4a/aac"])
def test_compressed_and_multichannel_uploads_decode(speech, container):
    samples, rate = speech
    if container == "m4a/aac":
        data = _m4a(samples, rate)
    else:
        wide = soxr.resample(samples, rate, 44_100)
        data = _file(np.stack([wide, 0.8 * wide], axis=1), 44_100, "MP3")
    decoded, source_rate, channels = decode(data)
    assert decoded.ndim == 1 and abs(len(decoded) / source_rate - len(samples) / rate) < 0.2
    assert channels == (2 if container.startswith("mp3") else 1)
    assert prepare(data).report.speech_s > 5.0


def test_a_three_second_recording_is_enough(speech):
    """Cloning promises 3-10 s of audio; a 3 s recording with its silent edges holds less speech."""
    samples, rate = speech
    edge = np.zeros(rate // 10, np.float32)
    recording = np.concatenate([edge, samples[:int(2.8 * rate)], edge])
    report = prepare(_file(recording, rate)).report
    assert report.source_s == pytest.approx(3.0, abs=0.01) and 2.5 <= report.speech_s < 3.0


def test_long_clip_keeps_its_best_window(speech):
    samples, rate = speech
    long_clip = np.concatenate([samples] * 6)  # 40 s
    reference = prepare(_file(long_clip, rate))
    assert reference.report.kept_s <= 20.5 and reference.report.source_s > 30
    assert any("kept the 20 s" in warning for warning in reference.report.warnings)


@pytest.mark.parametrize("kind, message", [
    ("noise", "too noisy"),
    ("silence", "silent"),
    ("clipped", "heavily clipped"),
    ("one second", "got 1.0 s of speech, need at least 2.5 s"),
    ("text renamed .wav", "is text, not audio"),
    ("pdf renamed .wav", "application/pdf"),
    ("random bytes", "could not be decoded as audio"),
    ("empty", "empty"),
])
def test_bad_uploads_get_specific_errors(speech, kind, message):
    samples, rate = speech
    noise = np.random.default_rng(0).standard_normal(rate * 6).astype(np.float32) * 0.1
    data = {
        "noise": lambda: _file(noise, rate),
        "silence": lambda: _file(np.zeros(rate * 6, np.float32), rate),
        "clipped": lambda: _file(np.clip(samples * 20, -1, 1), rate),
        "one second": lambda: _file(samples[:rate], rate),
        "text renamed .wav": lambda: b"these are the minutes of the meeting\n" * 20,
        "pdf renamed .wav": lambda: b"%PDF-1.7\n" + bytes(range(256)) * 8,
        "random bytes": lambda: np.random.default_rng(1).bytes(30_000),
        "empty": lambda: b"",
    }[kind]()
    with pytest.raises(ReferenceAudioError, match=message):
        prepare(data)


def test_noisy_speech_is_denoised_and_reported(speech):
    samples, rate = speech
    noise = np.random.default_rng(1).standard_normal(len(samples)).astype(np.float32) * 0.03
    data = _file(samples + noise, rate)
    cleaned = prepare(data)
    assert cleaned.report.denoised and cleaned.report.snr_before_db < 20 < cleaned.report.snr_db
    assert any("DeepFilterNet" in warning for warning in cleaned.report.warnings)
    kept = prepare(data, denoise="off").report
    assert not kept.denoised and kept.snr_db == kept.snr_before_db < 20
    assert any("audible" in warning for warning in kept.warnings)


def test_denoising_recovers_the_clean_signal(speech):
    from emovox.voices.denoise import shared_denoiser
    from emovox.voices.intake import resample

    samples, rate = speech
    clean = resample(samples, rate)
    noisy = clean + np.random.default_rng(2).standard_normal(len(clean)).astype(np.float32) * 0.05
    denoised = shared_denoiser()(noisy, SAMPLE_RATE)
    assert len(denoised) == len(clean)

    def snr(x):
        return 10 * np.log10(np.sum(clean**2) / np.sum((x - clean) ** 2))

    assert snr(denoised) > snr(noisy) + 6  # measured: 4.3 -> 14.6 dB at this noise level


def test_noise_without_speech_is_rejected_even_with_denoising_on(speech):
    _, rate = speech
    noise = np.random.default_rng(3).standard_normal(rate * 6).astype(np.float32) * 0.1
    with pytest.raises(ReferenceAudioError, match="too noisy"):
        prepare(_file(noise, rate), denoise="on")


def test_resampled_to_the_analysis_rate(speech):
    samples, rate = speech
    reference = prepare(_file(samples, rate))
    assert abs(len(reference.samples) / SAMPLE_RATE - reference.report.kept_s) < 1e-6
