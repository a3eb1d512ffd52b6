"""End to end: clone the VITS voice `joe` into Kokoro and compare with the stock voices."""

from __future__ import annotations

import io

import numpy as np
import soundfile
import soxr

from emovox.voices.clone import clone
from emovox.voices.encoder import SAMPLE_RATE, SpeakerEncoder, similarity
from emovox.voices.store import VoiceStore


def _embed(encoder, audio) -> np.ndarray:
    return encoder.embed(soxr.resample(audio.samples, audio.sample_rate, SAMPLE_RATE).astype(np.float32))


def test_clone_of_joe_beats_every_stock_kokoro_voice_on_held_out_text(engine, tmp_path):
    encoder = SpeakerEncoder.packaged()
    reference = engine.synthesize("My grandmother grew tomatoes, beans and sunflowers in her garden "
                                  "every summer, and we helped her water them.", voice="joe")
    buffer = io.BytesIO()
    soundfile.write(buffer, reference.samples, reference.sample_rate, format="WAV")
    store = VoiceStore(tmp_path)
    result = clone(engine, store, buffer.getvalue(), "joe-clone", quality="balanced")
    assert not result.cached and result.voice.based_on == "jm_kumo"

    held_out_text = "The ferry to the island leaves twice a day in winter."
    held_out = _embed(encoder, engine.synthesize("Our neighbors painted their fence a bright shade of green.",
                                                 voice="joe"))
    stock = {v: similarity(_embed(encoder, engine.synthesize(held_out_text, voice=v)), held_out)
             for v in ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")}
    cloned = similarity(_embed(encoder, engine.synthesize(held_out_text, voice="joe-clone")), held_out)
    assert cloned > max(stock.values()) + 0.05, (cloned, stock)

    # It speaks with emotion like any voice, and the same audio again comes from the cache.
    happy = engine.synthesize(held_out_text, voice="joe-clone", emotion="happy")
    assert happy.info.prosody["pitch_st"] > 0
    again = clone(engine, store, buffer.getvalue(), "joe-clone-2", quality="balanced")
    assert again.cached and again.seconds < 2
    assert np.array_equal(store.tensor("joe-clone-2"), store.tensor("joe-clone"))
