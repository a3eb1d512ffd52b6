"""The engine's parts on the tiny voices: a pure planner, a renderer, a catalogue, backends
that describe themselves. Fast tier: no model package."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from conftest import build_tiny_engine
from emovox.audio.effects import speech_level_db
from emovox.audio.post import SENTENCE_PAUSE_S
from emovox.backends.base import Cloning, PitchControl
from emovox.emotion.model import Emotion
from emovox.engine import Defaults, Engine
from emovox.errors import InvalidOptionError, InvalidTextError, UnknownVoiceError
from emovox.options import SpeechOptions
from emovox.types import VoiceInfo

MIXED = "We write 我们明天用 Python 写一个 demo, and then [sad:0.5] we go home."


def test_a_plan_is_plain_data_that_pickles(tiny_engine):
    plan = tiny_engine.plan(MIXED, voice="tiny", emotion="a little happy")
    copy = pickle.loads(pickle.dumps(plan))
    assert copy == plan and copy.jobs == plan.jobs
    assert plan.backends == ("vits", "fastspeech2")
    assert all(isinstance(job.backend, str) for job in plan)


def _render_elsewhere(root, pickled: bytes) -> list[np.ndarray]:
    """In another process: build the same voices, render a plan that was planned here."""
    engine = build_tiny_engine(root)
    return [engine.render(job).samples for job in pickle.loads(pickled)]


def test_a_plan_made_here_renders_in_another_process(tiny_engine, tiny_dir):
    import concurrent.futures
    import multiprocessing

    plan = tiny_engine.plan("Hello there 你好世界, and goodbye.", voice="tiny", emotion="sad")
    here = [tiny_engine.render(job).samples for job in plan]
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = pool.submit(_render_elsewhere, tiny_dir, pickle.dumps(plan)).result(timeout=120)
    assert len(there) == len(here) and all(np.array_equal(a, b) for a, b in zip(here, there))


def test_a_plan_says_what_it_resolved(tiny_engine):
    plan = tiny_engine.plan(MIXED, voice="tiny", emotion="very happy")
    assert plan.resolution.source == "prompt" and plan.resolution.matched == ("very happy",)
    assert plan.resolution.emotion.name == "happy" and plan.controls.pitch_st > 0
    languages = [stretch.language for stretch in plan.stretches]
    assert languages[:4] == ["en", "zh", "en", "zh"]
    voices = {stretch.language: stretch.voice for stretch in plan.stretches}
    assert voices == {"en": "tiny", "zh": "baker"}
    sad = [s for s in plan.stretches if s.emotion.name == "sad"]
    assert sad and sad[0].emotion.intensity == 0.5 and sad[0].controls.pitch_st < 0
    assert {job.match_level_of for job in plan if job.voice == "baker"} == {"tiny"}
    assert {job.output_rate for job in plan} == {plan.sample_rate}


def test_planning_never_synthesizes(fresh_tiny_engine):
    engine = fresh_tiny_engine
    engine.plan(MIXED * 20, voice="tiny")
    stats = engine.cache_stats()["audio"]
    assert (stats.hits, stats.misses) == (0, 0)
    assert engine.catalogue._facts == {}  # no speech level was measured to plan mixed text


def test_options_and_keywords_plan_alike(tiny_engine):
    by_keywords = tiny_engine.plan("Hello there.", voice="tiny", speed=1.2, emotion="sad")
    by_options = tiny_engine.plan("Hello there.", options=SpeechOptions(voice="tiny", speed=1.2, emotion="sad"))
    assert by_keywords.jobs == by_options.jobs


def test_explicit_overrides_replace_the_emotions_own(tiny_engine):
    plan = tiny_engine.plan("Hello there.", options=SpeechOptions(emotion="angry", pitch=-3.0, energy=6.0))
    assert plan.resolution.emotion.pitch_st == -3.0 and plan.resolution.emotion.energy_db == 6.0
    assert plan.controls.pitch_st == -3.0 and plan.controls.energy_db == 6.0


def test_the_renderer_matches_a_partner_voice_to_the_requested_level(tiny_engine):
    plan = tiny_engine.plan("Hello there 你好世界 and goodbye.", voice="tiny")
    chunks = [tiny_engine.render(job) for job in plan]
    assert {chunk.sample_rate for chunk in chunks} == {plan.sample_rate}  # baker's 24 kHz resampled
    levels = {job.voice: speech_level_db(chunk.samples, chunk.sample_rate) for job, chunk in zip(plan, chunks)}
    assert abs(levels["baker"] - levels["tiny"]) < 4.0
    assert tiny_engine.speech_level_db("baker") != tiny_engine.speech_level_db("tiny")  # really was matched


def test_signal_shaping_happens_once_in_the_renderer(tiny_engine):
    neutral = tiny_engine.synthesize("Hello there.", voice="af_kiko")
    loud = tiny_engine.synthesize("Hello there.", voice="af_kiko", emotion=Emotion("neutral", 1.0, energy_db=-6.0))
    ratio_db = speech_level_db(loud.samples, 24_000) - speech_level_db(neutral.samples, 24_000)
    assert -6.5 < ratio_db < -5.5


def test_the_audio_cache_serves_a_repeated_chunk(tiny_dir):
    engine = build_tiny_engine(tiny_dir, audio_cache_bytes=1 << 20)
    first = engine.synthesize("Cache me please.", voice="tiny")
    again = engine.synthesize("Cache me please.", voice="tiny")
    assert np.array_equal(first.samples, again.samples) and engine.cache_stats()["audio"].hits >= 1


def test_batched_rows_equal_rows_one_by_one(tiny_engine):
    jobs = list(tiny_engine.plan("One two. Three four five six seven. Eight.", voice="tiny"))
    batched = tiny_engine.infer_batch(jobs)
    alone = [tiny_engine.infer(job) for job in jobs]
    assert tiny_engine.batch_key(jobs[0]) is not None
    for a, b in zip(batched, alone):
        assert len(a) == len(b) and np.allclose(a.samples, b.samples, atol=1e-5)


def test_backends_declare_what_they_can_do(tiny_engine):
    capabilities = {b.name: b.capabilities for b in tiny_engine.backends}
    assert capabilities["vits"].pitch is PitchControl.SIGNAL and capabilities["vits"].batching
    assert capabilities["kokoro"].pitch is PitchControl.MODEL and capabilities["kokoro"].cloning is Cloning.STYLE
    assert capabilities["fastspeech2"].cloning is Cloning.NONE and capabilities["fastspeech2"].languages == ("zh",)
    assert tiny_engine.batch_key(next(iter(tiny_engine.plan("Hi there.", voice="af_kiko")))) is None


def test_a_register_clone_speaks_with_its_base_voice_and_register(fresh_tiny_engine):
    engine = fresh_tiny_engine
    clone = VoiceInfo("low_tiny", "vits", "en", "unknown", 16_000, based_on="tiny")
    engine.add_voice("vits", clone, np.array([[-3.0, 0.8]], np.float32))
    job = next(iter(engine.plan("Hello there.", voice="low_tiny")))
    base = next(iter(engine.plan("Hello there.", voice="tiny")))
    assert job.model_voice == "tiny" and job.voice == "low_tiny"
    assert job.controls.pitch_st == base.controls.pitch_st - 3.0
    assert "low_tiny" in [v.name for v in engine.voices()]
    engine.remove_voice("low_tiny")
    with pytest.raises(UnknownVoiceError):
        engine.voice("low_tiny")


def test_a_style_clone_is_handed_to_the_model(fresh_tiny_engine):
    engine = fresh_tiny_engine
    pack = np.full((510, 256), 0.5, np.float32)  # the tiny model's gain follows the style's mean
    engine.add_voice("kokoro", VoiceInfo("bright", "kokoro", "en", "unknown", 24_000, based_on="af_kiko"), pack)
    louder = engine.synthesize("Hello there.", voice="bright")
    stock = engine.synthesize("Hello there.", voice="af_kiko")
    assert speech_level_db(louder.samples, 24_000) > speech_level_db(stock.samples, 24_000) + 2


def test_a_raised_register_and_an_emotions_raise_stay_within_the_stock_voices_highest(fresh_tiny_engine):
    """A clone's raised register adds to every reading, but where it and an emotion's raise
    together would ask for more than its stock voice's strongest emotion asks, one gives way:
    a style clone's finishing register, or, on a register clone, whose register is who it is,
    the emotion's raise. A lowering register is added whole."""
    from emovox.types import Prosody

    engine = fresh_tiny_engine
    pack = np.full((510, 256), 0.1, np.float32)
    engine.add_voice("kokoro", VoiceInfo("high", "kokoro", "en", "unknown", 24_000, based_on="af_kiko"), pack,
                     register=Prosody(pitch_st=3.0))
    engine.add_voice("kokoro", VoiceInfo("low", "kokoro", "en", "unknown", 24_000, based_on="af_kiko"), pack,
                     register=Prosody(pitch_st=-3.0))
    for name, register_st in (("high_tiny", 3.0), ("higher_tiny", 8.0)):
        engine.add_voice("vits", VoiceInfo(name, "vits", "en", "unknown", 16_000, based_on="tiny"),
                         np.array([[register_st, 1.0]], np.float32))

    def pitch(voice: str, emotion: str | None = None, intensity: float = 1.0) -> float:
        options = SpeechOptions(voice=voice, emotion=emotion, intensity=intensity if emotion else None)
        return engine.plan("Hello there.", options=options).controls.pitch_st

    stock = {emotion: pitch("af_kiko", emotion) for emotion in ("happy", "surprised", "sad")}
    ceiling = stock["surprised"]  # the largest raise af_kiko's presets ask
    assert stock["surprised"] > stock["happy"] > 0 > stock["sad"]
    assert pitch("high") == 3.0  # neutral: the whole register
    assert pitch("high", "happy") == pytest.approx(stock["happy"] + min(3.0, ceiling - stock["happy"]))
    assert pitch("high", "surprised") == pytest.approx(ceiling)
    assert pitch("high", "sad") == pytest.approx(stock["sad"] + 3.0)
    assert pitch("low", "surprised") == pytest.approx(stock["surprised"] - 3.0)
    tiny = {emotion: pitch("tiny", emotion) for emotion in ("happy", "surprised", "sad")}
    assert tiny["surprised"] > tiny["happy"] > 3.0 > 0 > tiny["sad"]
    assert pitch("high_tiny", "happy") == pytest.approx(3.0 + min(tiny["happy"], tiny["surprised"] - 3.0))
    assert pitch("high_tiny", "surprised") == pytest.approx(tiny["surprised"])  # the register whole
    assert tiny["surprised"] < 8.0 and pitch("higher_tiny", "happy") == 8.0  # no raise left, and never below neutral
    assert pitch("higher_tiny", "sad") == pytest.approx(tiny["sad"] + 8.0)
    assert 3.0 < pitch("high", "happy", intensity=0.5) < pitch("high", "happy")


def _speaker_to_clone(engine):
    """The GE2E encoder and the d-vector of a tiny voice reading a sentence: a search's target."""
    from emovox.voices.encoder import SpeakerEncoder

    encoder = SpeakerEncoder.packaged()
    spoken = engine.synthesize("A speaker to clone, reading a sentence.", voice="tiny")
    return encoder, encoder.embed(spoken.samples, spoken.sample_rate)


def test_a_style_search_of_so_many_steps_finds_the_same_pack_whatever_the_clock(tiny_engine):
    from emovox.voices.adapt import adapt_kokoro

    encoder, target = _speaker_to_clone(tiny_engine)
    first = adapt_kokoro(tiny_engine, target, "fast", encoder, seed=5, steps=6)
    again = adapt_kokoro(tiny_engine, target, "fast", encoder, seed=5, steps=6)
    other = adapt_kokoro(tiny_engine, target, "fast", encoder, seed=6, steps=6)
    assert first.steps == again.steps == 6 and np.array_equal(first.pack, again.pack)
    assert not np.array_equal(first.pack, other.pack)  # the walk moved: the seed decides where


def test_a_style_search_stops_at_its_cpu_limit_before_its_seconds(tiny_engine, monkeypatch):
    from emovox.voices import adapt

    encoder, target = _speaker_to_clone(tiny_engine)
    assert adapt.adapt_kokoro(tiny_engine, target, "fast", encoder).steps > 0  # 4 s of tiny steps
    monkeypatch.setitem(adapt.CPU_LIMITS, "fast", 0.0)  # spent before the first step
    assert adapt.adapt_kokoro(tiny_engine, target, "fast", encoder).steps == 0


@pytest.mark.parametrize(("info", "tensor", "message"), [
    (VoiceInfo("tiny", "vits", "en", "unknown", 16_000, based_on="tiny"), np.zeros((1, 2)), "taken by a built-in"),
    (VoiceInfo("zh_clone", "fastspeech2", "zh", "unknown", 24_000, based_on="baker"), np.zeros((1, 2)),
     "one speaker"),
    (VoiceInfo("odd", "kokoro", "en", "unknown", 24_000, based_on="af_kiko"), np.zeros((3, 3)), "shape"),
])
def test_clones_the_catalogue_refuses(fresh_tiny_engine, info, tensor, message):
    engine = fresh_tiny_engine
    with pytest.raises(InvalidOptionError, match=message):
        engine.add_voice(info.backend, info, tensor)


def test_unknown_voices_and_missing_languages_say_how_to_get_them(tiny_engine):
    with pytest.raises(UnknownVoiceError, match="does not carry") as error:
        tiny_engine.plan("Hello.", voice="narrator")
    assert error.value.http_status == 400 and error.value.param == "voice"
    english_only = Engine([b for b in tiny_engine.backends if b.name != "fastspeech2"],
                          defaults=Defaults(voice="tiny", missing_languages={"zh": "build it with `make zh-models`"}))
    with pytest.raises(InvalidTextError, match="make zh-models"):
        english_only.plan("Hello 你好.", voice="tiny")


def test_bad_requests_fail_before_any_audio(tiny_engine):
    for text in ("", "   ", "!!! ???"):
        with pytest.raises(InvalidTextError):
            tiny_engine.stream(text, voice="tiny")
    with pytest.raises(InvalidOptionError, match="speed 9 is out of range"):
        tiny_engine.stream("Hello.", voice="tiny", speed=9)
    with pytest.raises(InvalidOptionError, match="unknown language 'fr'"):
        tiny_engine.stream("Hello.", voice="tiny", lang="fr")


@pytest.mark.parametrize(("voice", "text", "words"), [
    ("tiny", "Hello there, how are you today?", ["Hello", "there", "how", "are", "you", "today"]),
    ("af_kiko", "Dr. Smith paid $12.75.", ["Dr", "Smith", "paid", "$12.75"]),  # as written, not as read
    ("baker", "你好，世界。", ["你", "好", "世", "界"]),
    ("baker", "價格是¥30。", ["價", "格", "是", "¥30"]),
])
def test_every_voice_times_its_words(tiny_engine, voice, text, words):
    audio = tiny_engine.synthesize(text, voice=voice)
    timed = audio.info.words
    assert [w.word for w in timed] == words
    starts = [w.start_s for w in timed]
    assert starts == sorted(starts) and all(w.start_s < w.end_s <= audio.duration for w in timed)
    speech_s = audio.duration - SENTENCE_PAUSE_S
    assert timed[-1].end_s > 0.7 * speech_s  # they cover the clip, not a corner of it


def test_a_written_word_spans_every_word_it_is_read_as(tiny_engine):
    written = tiny_engine.synthesize("It costs $12.75 today.", voice="tiny").info.words
    read = tiny_engine.synthesize("It costs twelve dollars and seventy-five cents today.", voice="tiny").info.words
    assert [w.word for w in written] == ["It", "costs", "$12.75", "today"]
    assert written[2].start_s == read[2].start_s and written[2].end_s == read[6].end_s
    assert written[3] == read[7]


@pytest.mark.parametrize(("written", "normalized", "language", "pairs"), [
    ("Call 555-0142 now.", "Call five five five, zero one four two, now.", "en",
     [("Call", "Call")] + [(w, "555-0142") for w in "five five five zero one four two".split()] + [("now", "now")]),
    ("Dr. Smith at St. Mary's.", "Doctor Smith at Saint Mary's.", "en",
     [("Doctor", "Dr"), ("Smith", "Smith"), ("at", "at"), ("Saint", "St"), ("Mary's", "Mary's")]),
    ("Go 1.5 km, then stop!", "Go one point five kilometers, then stop!", "en",
     [("Go", "Go")] + [(w, "1.5 km") for w in "one point five kilometers".split()] + [("then", "then"), ("stop", "stop")]),
    ("I LOVE IT, U.S. team", "I love it, U.S. team", "en",
     [("I", "I"), ("love", "LOVE"), ("it", "IT"), ("U.S", "U.S."), ("team", "team")]),
    ("會在2026年", "会在二零二六年", "zh", [("会", "會"), ("在", "在")] + [(c, "2026") for c in "二零二六"] + [("年", "年")]),
])
def test_written_words_pair_with_what_normalization_made_of_them(written, normalized, language, pairs):
    from emovox.engine.timing import WrittenWords

    paired = WrittenWords.pair(written, normalized, language)
    assert [(word, paired.written[owner]) for word, owner in zip(paired.normalized, paired.owners)] == pairs


def test_word_times_follow_the_rate(tiny_engine):
    slow = tiny_engine.synthesize("One two three four.", voice="tiny", speed=0.5).info.words
    fast = tiny_engine.synthesize("One two three four.", voice="tiny", speed=1.0).info.words
    assert slow[-1].start_s > 1.5 * fast[-1].start_s


def test_words_are_shared_out_when_text_and_phonemes_disagree():
    from emovox.engine.timing import align_words

    # "twenty-six" is one text word that espeak reads as two phoneme words
    words, id_words = align_words("twenty-six times", "twˈɛnti sˈɪks tˈaɪmz", tuple(range(20)), "en")
    assert words == ("twenty-six", "times")
    assert id_words[0] == 0 and id_words[10] == 0 and id_words[14] == 1 and id_words[7] == -1  # spaces: no word


def test_words_espeak_reads_together_keep_the_words_around_them_in_place():
    from emovox.engine.timing import align_words

    phonemes = "plˈiːz kˈiːp ðɪ ˈɛnd ʌvðə dʒˈɜːni"  # espeak: "of the" is one phoneme word
    words, id_words = align_words("Please keep the end of the journey", phonemes, tuple(range(len(phonemes))), "en")
    heard = {}
    for position, word in enumerate(id_words):
        if word >= 0:
            heard[words[word]] = heard.get(words[word], "") + phonemes[position]
    assert heard == {"Please": "plˈiːz", "keep": "kˈiːp", "the": "ðɪðə", "end": "ˈɛnd", "of": "ʌv",
                     "journey": "dʒˈɜːni"}


def test_dialogue_in_quotes_takes_its_own_emotion(tiny_engine):
    text = 'She said, “Run, now!” and waited. [sad] "Why?" he asked.'
    plan = tiny_engine.plan(text, options=SpeechOptions(voice="tiny", dialogue_emotion="very afraid"))
    emotions = [(s.text, s.emotion.name) for s in plan.stretches]
    assert emotions == [("She said,", "neutral"), ('"Run, now!"', "fearful"), ("and waited.", "neutral"),
                        ('"Why?"', "sad"), ("he asked.", "sad")]  # markup's own emotion wins in its span


@pytest.mark.parametrize("arena", ["shrinking", "off"])
def test_every_memory_arena_setting_speaks_the_same(tiny_dir, arena):
    from emovox.backends.session import SessionSettings
    from emovox.backends.vits import VitsBackend

    def spoken(settings: SessionSettings) -> np.ndarray:
        backend = VitsBackend.from_files(tiny_dir / "vits" / "tiny.onnx", tiny_dir / "vits" / "tiny.onnx.json",
                                         name="tiny", gender="female", settings=settings)
        engine = Engine([backend], audio_cache_bytes=0)
        return np.concatenate([engine.synthesize(text, voice="tiny").samples
                               for text in ("Hello there.", "A longer sentence, so the arena grows a little.")])

    np.testing.assert_array_equal(spoken(SessionSettings(memory_arena=arena)), spoken(SessionSettings()))


def test_an_unknown_memory_arena_setting_is_refused():
    from emovox.backends.session import SessionSettings

    with pytest.raises(InvalidOptionError, match="kept, shrinking, off"):
        SessionSettings(memory_arena="sometimes")
