"""The engine end to end with the real models."""

import threading
import tracemalloc

import numpy as np
import pytest

from emovox import InvalidOptionError, InvalidTextError, UnknownVoiceError

pytestmark = [pytest.mark.models, pytest.mark.paired]

BUILT_IN = ["joe", "heart", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


@pytest.mark.mandarin
def test_lists_every_built_in_voice_with_its_facts(engine):
    voices = {v.name: v for v in engine.voices()}
    assert sorted(voices) == sorted([*BUILT_IN, "baker"])  # baker: make test builds the Mandarin voice
    assert voices["baker"].language == "zh" and voices["baker"].sample_rate == 24000
    assert voices["joe"].backend == "vits" and voices["joe"].sample_rate == 22050
    assert voices["jm_kumo"].backend == "kokoro" and voices["jm_kumo"].gender == "male"
    assert voices["jf_alpha"].sample_rate == 24000 and voices["jf_alpha"].language == "en"
    assert voices["heart"].backend == "hibari" and voices["heart"].gender == "female"
    assert engine.voice("af_heart").name == "heart"


@pytest.mark.parametrize("voice", BUILT_IN)
def test_synthesizes_speech_with_every_voice(engine, voice):
    audio = engine.synthesize("Hello there.", voice=voice)
    assert audio.sample_rate == engine.voice(voice).sample_rate
    assert audio.samples.dtype == np.float32
    assert 0.4 < audio.duration < 3.0
    assert np.sqrt(np.mean(audio.samples**2)) > 0.01  # speech, not silence
    assert audio.info.voice == voice and audio.info.segments == 1


def test_alias_resolves_to_the_pack_name(engine):
    assert engine.voice("kumo").name == "jm_kumo"


def test_speed_changes_duration(engine):
    slow = engine.synthesize("The quick brown fox jumps over the lazy dog.", voice="jf_alpha", speed=0.8)
    fast = engine.synthesize("The quick brown fox jumps over the lazy dog.", voice="jf_alpha", speed=1.25)
    assert slow.duration > 1.3 * fast.duration


def test_stream_yields_each_sentence_in_pieces_in_order(engine):
    text = "First sentence here. Second one follows! And a third?"
    pieces = list(engine.stream(text, voice="joe"))
    finals = [piece for piece in pieces if piece.final]
    assert [p.text for p in finals] == ["First sentence here.", "Second one follows!", "And a third?"]
    assert [p.index for p in pieces] == sorted(p.index for p in pieces)
    assert {p.index for p in pieces} == {0, 1, 2} and len(pieces) > 3
    assert all(p.sample_rate == 22050 for p in pieces)
    assert all(sum(p.duration for p in pieces if p.index == i) > 0.3 for i in range(3))


def test_kokoro_is_deterministic_and_safe_across_threads(engine):
    texts = {"jf_alpha": "Two threads speak at once.", "jm_kumo": "With different voices each."}
    serial = {v: engine.synthesize(t, voice=v).samples for v, t in texts.items()}
    results = {}

    def run(voice):
        results[voice] = engine.synthesize(texts[voice], voice=voice).samples

    threads = [threading.Thread(target=run, args=(v,)) for v in texts for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for voice in texts:
        np.testing.assert_allclose(results[voice], serial[voice], atol=1e-4)


def test_unknown_voice_lists_valid_names(engine):
    with pytest.raises(UnknownVoiceError) as error:
        engine.synthesize("Hello.", voice="nobody")
    message = str(error.value)
    assert "nobody" in message and all(name in message for name in BUILT_IN)


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_empty_text_is_a_clear_error(engine, text):
    with pytest.raises(InvalidTextError, match="empty"):
        engine.stream(text)


def test_emoji_only_text_is_a_clear_error(engine):
    with pytest.raises(InvalidTextError, match="nothing speakable"):
        engine.synthesize("😀🎉👍")


def test_unknown_characters_are_dropped_with_a_warning(engine):
    audio = engine.synthesize("Hello 😀 world.", voice="joe")
    assert audio.duration > 0.5
    assert any("😀" in w for w in audio.info.warnings)


@pytest.mark.parametrize("speed", [0.0, 0.1, 5.0])
def test_speed_out_of_range_is_rejected(engine, speed):
    with pytest.raises(InvalidOptionError, match="0.25"):
        engine.stream("Hello.", speed=speed)


def test_hundred_thousand_characters_stream_with_bounded_memory(engine):
    sentence = "The station opened in 1999 and served 1,250 people a day. "
    text = (sentence * (100_000 // len(sentence) + 1))[:100_000]
    tracemalloc.start()
    try:
        stream = engine.stream(text, voice="joe")
        first = [next(stream) for _ in range(3)]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert all(c.duration < 10 for c in first)
    # 100k characters of speech is about 100 minutes, ~500 MB as one float waveform.
    assert peak < 50 * 1024 * 1024
