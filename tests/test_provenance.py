"""Trust in cloned voices, on the real models: the watermark on their audio (and not on
anyone else's), consent checked and stored, and the audit log of a scripted API session."""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
import soundfile
import soxr

from emovox.audio.stream_encode import StreamEncoder
from emovox.audio.watermark import Watermarker
from emovox.frontend.g2p.espeak import Espeak
from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer
from emovox.voices.consent import CONSENT_SENTENCE, ConsentClaim, ConsentError
from emovox.voices.intake import decode

pytestmark = pytest.mark.models

REFERENCE = "My grandmother grew tomatoes, beans and sunflowers in her garden every summer, and we helped her water them."
SENTENCES = ("The museum guide repaired the broken clock before the storm arrived.",
             "Two loaves of bread were waiting on the kitchen table after the long meeting.")


def _file(samples: np.ndarray, rate: int, fmt: str = "FLAC") -> bytes:
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, rate, format=fmt)
    return buffer.getvalue()


def _through(fmt: str, samples: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Encoded as the API sends `fmt` (MP3 at 64 kbit/s, Opus) and decoded again."""
    encoder = StreamEncoder(fmt, rate)
    decoded, decoded_rate, _ = decode(encoder.write(samples) + encoder.close())
    return decoded, decoded_rate


def test_the_mark_survives_codecs_resampling_and_noise_and_is_not_found_in_unmarked_speech(engine):
    marker, rng = Watermarker(), np.random.default_rng(3)
    transforms = {
        "as is": lambda x, r: (x, r),
        "mp3": lambda x, r: _through("mp3", x, r),
        "opus": lambda x, r: _through("opus", x, r),
        "16 kHz": lambda x, r: (soxr.resample(x, r, 16_000), 16_000),
        "noise 20 dB": lambda x, r: (x + rng.normal(0, np.sqrt(np.mean(x ** 2) / 100), len(x)).astype(np.float32), r),
    }
    for voice, text in zip(("joe", "jf_alpha", "heart"), SENTENCES * 2):
        audio = engine.synthesize(text, voice=voice)
        marked = marker.mark(audio.samples, audio.sample_rate)
        assert len(marked) == len(audio.samples)
        for name, transform in transforms.items():
            assert marker.detect(*transform(marked, audio.sample_rate)).watermarked, (voice, name)
            assert not marker.detect(*transform(audio.samples, audio.sample_rate)).watermarked, (voice, name)
    espeak = Espeak.shared()  # another synthesizer entirely: no false alarm on it either
    assert not marker.detect(espeak.speak(SENTENCES[0], "en-us+m3"), espeak.sample_rate).watermarked
    with pytest.raises(ValueError, match="too short"):
        marker.detect(np.zeros(1000, np.float32), 24_000)
    assert not marker.detect(np.zeros(24_000, np.float32), 24_000).watermarked  # silence: nothing to find


@pytest.fixture(scope="module")
def clone_setup(tmp_path_factory, engine):
    from emovox import from_packages
    from emovox.voices.sqlite_store import SqliteVoiceStore

    home = tmp_path_factory.mktemp("provenance-home")
    reference = engine.synthesize(REFERENCE, voice="jm_kumo")
    return from_packages(home=home), SqliteVoiceStore(home), _file(reference.samples, reference.sample_rate)


def test_spoken_consent_must_say_the_sentence_in_the_cloned_voice(clone_setup, engine):
    from emovox.voices.clone import clone

    own_engine, store, reference = clone_setup
    said = engine.synthesize(CONSENT_SENTENCE, voice="jm_kumo")
    result = clone(own_engine, store, reference, "kumo-consented", quality="fast",
                   consent=ConsentClaim(clip=_file(said.samples, said.sample_rate)), require_consent=True)
    consent = result.voice.meta["consent"]
    assert consent["method"] == "spoken" and consent["word_match"] >= 0.8 and consent["speaker_similarity"] >= 0.75
    assert "synthetic copy" in consent["heard"].lower()

    other_words = engine.synthesize("I would like a cup of tea with some honey and lemon please.", voice="jm_kumo")
    with pytest.raises(ConsentError, match="does not say the consent sentence"):
        clone(own_engine, store, reference, "kumo-2", quality="fast",
              consent=ConsentClaim(clip=_file(other_words.samples, other_words.sample_rate)))
    someone_else = engine.synthesize(CONSENT_SENTENCE, voice="jf_alpha")
    with pytest.raises(ConsentError, match="does not sound like the voice being cloned"):
        clone(own_engine, store, reference, "kumo-3", quality="fast",
              consent=ConsentClaim(clip=_file(someone_else.samples, someone_else.sample_rate)))
    with pytest.raises(ConsentError, match="consent") as refused:
        clone(own_engine, store, reference, "kumo-4", quality="fast", require_consent=True)
    assert refused.value.code == "consent_required"
    assert [v.name for v in store.list()] == ["kumo-consented"]  # refusals leave nothing behind


def test_an_api_session_is_marked_and_audited(clone_setup, engine):
    own_engine, store, reference = clone_setup
    app = create_app(own_engine, ServerSettings(warmup=False, require_consent=True), store)
    with BackgroundServer(app) as live:
        url = live.url
        assert httpx.get(f"{url}/v1/voices/consent").json()["required"] is True
        refused = httpx.post(f"{url}/v1/voices", files={"file": ("me.flac", reference, "audio/flac")},
                             data={"name": "api-kumo", "quality": "fast"}, timeout=120)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "consent_required"
        made = httpx.post(f"{url}/v1/voices", files={"file": ("me.flac", reference, "audio/flac")},
                          data={"name": "api-kumo", "quality": "fast", "consent_by": "Dana Operator"}, timeout=120)
        assert made.status_code == 201, made.text
        assert made.json()["consent"]["by"] == "Dana Operator"
        for fmt in ("wav", "mp3"):
            spoken = httpx.post(f"{url}/v1/audio/speech", timeout=60, json={
                "input": SENTENCES[0], "voice": "api-kumo", "response_format": fmt})
            assert spoken.status_code == 200
            samples, rate, _ = decode(spoken.content)
            assert Watermarker().detect(samples, rate).watermarked, fmt  # streamed in pieces, each marked
        stock = httpx.post(f"{url}/v1/audio/speech", timeout=60,
                           json={"input": SENTENCES[0], "voice": "jm_kumo", "response_format": "wav"})
        assert not Watermarker().detect(*decode(stock.content)[:2]).watermarked
        assert httpx.delete(f"{url}/v1/voices/api-kumo").status_code == 200
        log = httpx.get(f"{url}/v1/audit", params={"voice": "api-kumo"}).json()
        assert [e["event"] for e in log["data"]] == ["clone", "use", "use", "delete"]
        assert log["chain_intact"] and all(e["actor"] == "api:127.0.0.1" for e in log["data"])
        assert log["data"][0]["detail"]["consent"]["method"] == "declared"
        assert [e["detail"]["format"] for e in log["data"][1:3]] == ["wav", "mp3"]
