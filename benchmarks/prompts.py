"""Score the free-text prompt parser on lists of prompts with the emotion they should give.

    .venv/bin/python benchmarks/prompts.py                      # tuning + held-out lists
    .venv/bin/python benchmarks/prompts.py benchmarks/prompts_tuning.tsv --misses
    .venv/bin/python benchmarks/prompts.py --fallback          # also with emovox[prompts]

A list is a TSV file (see prompts_heldout.tsv): prompt, expected emotion, intensity
direction (up / down / -) and the reference prompt the direction is judged against (the
same feeling without the degree word). Reports emotion accuracy, direction accuracy and
both per language, plus the median parse time, and writes results/prompts.json. With
--fallback each list is scored a second time with the semantic fallback (emotion/semantic.py).

The held-out list is never tuned on: run it to report, not to iterate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from emovox.emotion.prompt import parse_prompt
from emovox.emotion.semantic import SemanticFallback

HERE = Path(__file__).parent
DEFAULT_LISTS = (HERE / "prompts_tuning.tsv", HERE / "prompts_heldout.tsv")


@dataclass(frozen=True)
class Case:
    """One line of a prompt list."""

    prompt: str
    emotion: str
    direction: str = "-"  # "up", "down" or "-" (not judged)
    reference: str = ""

    @property
    def language(self) -> str:
        return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in self.prompt) else "en"


def read_cases(path: Path) -> list[Case]:
    """The cases of a TSV list; lines starting with # are comments."""
    cases = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t") + ["", ""]
        cases.append(Case(fields[0].strip(), fields[1].strip(), fields[2].strip() or "-", fields[3].strip()))
    return cases


def _parse_quietly(prompt: str, fallback: SemanticFallback | None = None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return parse_prompt(prompt, fallback)


def direction_right(case: Case, fallback: SemanticFallback | None = None) -> bool:
    """Whether the degree word moved intensity the way the list says, against its reference."""
    got, reference = _parse_quietly(case.prompt, fallback).emotion, _parse_quietly(case.reference, fallback).emotion
    if got.name != case.emotion:
        return False
    return got.intensity > reference.intensity if case.direction == "up" else got.intensity < reference.intensity


def score(cases: list[Case], fallback: SemanticFallback | None = None) -> dict:
    """Emotion and direction accuracy, overall and per language, and the misses."""
    report: dict = {"prompts": len(cases)}
    misses, timings = [], []
    by_language: dict[str, list[bool]] = {}
    directions: dict[str, list[bool]] = {}
    for case in cases:
        start = time.perf_counter()
        parsed = _parse_quietly(case.prompt, fallback)
        timings.append(time.perf_counter() - start)
        right = parsed.emotion.name == case.emotion
        by_language.setdefault(case.language, []).append(right)
        if not right:
            misses.append({"prompt": case.prompt, "expected": case.emotion, "got": parsed.emotion.name,
                           "matched": list(parsed.matched)})
        if case.direction in ("up", "down"):
            directions.setdefault(case.language, []).append(direction_right(case, fallback))
    every = [r for results in by_language.values() for r in results]
    report["emotion_accuracy"] = round(sum(every) / len(every), 4)
    report["per_language"] = {lang: {"prompts": len(r), "emotion_accuracy": round(sum(r) / len(r), 4)}
                              for lang, r in sorted(by_language.items())}
    all_directions = [r for results in directions.values() for r in results]
    if all_directions:
        report["direction_accuracy"] = round(sum(all_directions) / len(all_directions), 4)
        report["direction_cases"] = len(all_directions)
        for lang, results in directions.items():
            report["per_language"][lang]["direction_accuracy"] = round(sum(results) / len(results), 4)
            report["per_language"][lang]["direction_cases"] = len(results)
    report["median_ms_per_prompt"] = round(statistics.median(timings) * 1000, 3)
    report["max_ms_per_prompt"] = round(max(timings) * 1000, 3)
    report["misses"] = misses
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("lists", nargs="*", type=Path, default=list(DEFAULT_LISTS))
    parser.add_argument("--misses", action="store_true", help="print every prompt that resolved wrong")
    parser.add_argument("--fallback", action="store_true", help="also score with the semantic fallback")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "prompts.json")
    args = parser.parse_args()
    _parse_quietly("warm up 开心")  # the first Chinese prompt loads jieba's dictionary
    runs: list[tuple[str, SemanticFallback | None]] = [("lexicon", None)]
    if args.fallback:
        runs.append(("lexicon + semantic fallback", SemanticFallback.from_package()))
    results: dict = {}
    for (method, fallback), path in ((run, path) for run in runs for path in args.lists):
        report = score(read_cases(path), fallback)
        results.setdefault(method, {})[path.name] = report
        languages = ", ".join(f"{lang} {r['emotion_accuracy']:.1%} of {r['prompts']}"
                              for lang, r in report["per_language"].items())
        direction = (f"; direction {report['direction_accuracy']:.1%} of {report['direction_cases']}"
                     if "direction_accuracy" in report else "")
        print(f"{method}, {path.name}: emotion {report['emotion_accuracy']:.1%} of {report['prompts']} ({languages})"
              f"{direction}; median {report['median_ms_per_prompt']} ms, max {report['max_ms_per_prompt']} ms")
        if args.misses:
            for miss in report["misses"]:
                print(f"   {miss['prompt']!r}: expected {miss['expected']}, got {miss['got']} {miss['matched']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
