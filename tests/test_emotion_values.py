"""The Emotion value, its presets and the prompt parser (no model needed)."""

import pytest

from emovox import InvalidOptionError
from emovox.emotion.model import EMOTIONS, Emotion, Prosody
from emovox.emotion.presets import TARGETS
from emovox.emotion.prompt import parse_prompt
from emovox.emotion.resolve import resolve


def test_intensity_zero_is_neutral_and_one_is_the_preset():
    assert Emotion("happy", 0.0).prosody(TARGETS) == Prosody()
    assert Emotion("happy", 1.0).prosody(TARGETS) == TARGETS["happy"]


@pytest.mark.parametrize("name", EMOTIONS[1:])
def test_half_intensity_lies_between_neutral_and_full(name):
    half, full = Emotion(name, 0.5).prosody(TARGETS), TARGETS[name]
    for field in ("pitch_st", "energy_db"):
        assert min(0, getattr(full, field)) <= getattr(half, field) <= max(0, getattr(full, field))
    for field in ("pitch_range", "speed"):
        assert min(1, getattr(full, field)) <= getattr(half, field) <= max(1, getattr(full, field))


def test_explicit_overrides_win_over_the_preset():
    prosody = Emotion("sad", 1.0, pitch_st=3.0, energy_db=2.0).prosody(TARGETS)
    assert prosody.pitch_st == 3.0 and prosody.energy_db == 2.0
    assert prosody.speed == TARGETS["sad"].speed


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "elated"}, "unknown emotion 'elated'"),
    ({"name": "happy", "intensity": 1.5}, "intensity"),
    ({"name": "happy", "pitch_st": 40.0}, "pitch shift"),
    ({"name": "happy", "speed": 0.0}, "speaking rate 0 is out of range"),
])
def test_invalid_emotions_are_rejected_with_a_reason(kwargs, message):
    with pytest.raises(InvalidOptionError, match=message):
        Emotion(**kwargs)


PROMPTS = [
    ("happy", "happy"), ("very happy", "happy"), ("a little sad", "sad"), ("furious", "angry"),
    ("calm and neutral", "neutral"), ("scared, almost panicking", "fearful"), ("surprised!", "surprised"),
    ("disgusted by the smell", "disgusted"), ("not angry at all, just calm", "neutral"),
    ("开心", "happy"), ("非常开心", "happy"), ("有点难过", "sad"), ("生气", "angry"), ("很惊讶", "surprised"),
    ("害怕", "fearful"), ("厌恶", "disgusted"), ("平静地说", "neutral"), ("语速快一点，很兴奋", "happy"),
    # phrasings not in the public list
    ("cheerful and bright", "happy"), ("she sounds heartbroken", "sad"), ("absolutely livid", "angry"),
    ("terrified of the dark", "fearful"), ("what a shock, I'm stunned", "surprised"), ("that's gross", "disgusted"),
    ("特别生气", "angry"), ("有些害怕", "fearful"), ("非常伤心", "sad"), ("真恶心", "disgusted"), ("好惊讶啊", "surprised"),
]


@pytest.mark.parametrize(("prompt", "emotion"), PROMPTS)
def test_prompts_resolve_to_the_intended_emotion(prompt, emotion):
    assert parse_prompt(prompt).emotion.name == emotion


@pytest.mark.parametrize(("weak", "plain", "strong"), [
    ("a little happy", "happy", "very happy"), ("slightly angry", "angry", "extremely angry"),
    ("有点开心", "开心", "非常开心"), ("有点难过", "难过", "特别难过"),
])
def test_degree_words_move_intensity_the_right_way(weak, plain, strong):
    intensities = [parse_prompt(p).emotion.intensity for p in (weak, plain, strong)]
    assert intensities[0] < intensities[1] < intensities[2]


def test_rate_pitch_and_volume_words_become_controls():
    assert parse_prompt("speak faster and louder").emotion.speed > 1
    assert parse_prompt("speak faster and louder").emotion.energy_db > 0
    assert parse_prompt("说慢一点，小声").emotion.speed < 1
    assert parse_prompt("说慢一点，小声").emotion.energy_db < 0
    assert parse_prompt("a deeper voice").emotion.pitch_st < 0


def test_fast_inside_a_chinese_word_is_not_a_rate_control():
    parsed = parse_prompt("快乐")
    assert parsed.emotion.name == "happy" and parsed.emotion.speed is None


def test_an_unrecognized_prompt_is_neutral_with_a_warning():
    with pytest.warns(UserWarning, match="not understood"):
        parsed = parse_prompt("purple monkey dishwasher")
    assert parsed.emotion.name == "neutral" and not parsed.understood


def test_resolve_accepts_labels_with_intensity_values_and_prompts():
    assert resolve("sad:0.6").emotion == Emotion("sad", 0.6)
    assert resolve(Emotion("angry", 0.3)).source == "value"
    assert resolve("very happy").source == "prompt"
    assert resolve(None).emotion.name == "neutral"
