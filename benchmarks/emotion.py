"""Emotion, measured: F0 shift (st), range ratio, duration ratio, energy (dB) and WER per
voice and emotion at intensity 1, against the same sentences read neutrally. WER is over
the first ten sentences of sentences_en.txt, with the neutral reading's WER as baseline.

    .venv/bin/python benchmarks/emotion.py [--voices joe jf_alpha ...]

Prints a Markdown table (medians over the sentences) and writes results/emotion.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from emovox import Engine, from_packages
from emovox.bench.intelligibility import Transcriber, corpus_wer
from emovox.bench.prosody import ESTIMATORS, emotion_changes
from emovox.emotion.model import EMOTIONS

SENTENCES = [
    "The committee will announce its final decision on Monday afternoon.",
    "I honestly thought the package would arrive before the weekend.",
    "Our neighbors painted their fence a bright shade of green.",
]
#: Held out from calibration, for a Chinese voice (no Chinese ASR here: no WER for it).
SENTENCES_ZH = [
    "委员会将在星期一下午宣布最后的决定。",
    "我真的以为包裹会在周末之前到。",
    "邻居把他们的篱笆漆成了鲜绿色。",
]
FIELDS = ("f0_st", "range_ratio", "duration_ratio", "energy_db")
WER_SENTENCES = [line for line in (Path(__file__).parent / "sentences_en.txt").read_text("utf-8").splitlines()
                 if line.strip()][:10]


def wer(engine: Engine, transcriber: Transcriber, voice: str, emotion: str | None) -> float | None:
    if engine.voice(voice).language != "en":
        return None
    return corpus_wer(engine, transcriber, voice, WER_SENTENCES, emotion=emotion).wer


def _percent(rate: float | None) -> str:
    return "n/a" if rate is None else f"{100 * rate:.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha", "jm_kumo"])
    parser.add_argument("--estimator", choices=ESTIMATORS, default="harvest")
    parser.add_argument("--emotions", nargs="*", choices=EMOTIONS[1:], default=EMOTIONS[1:])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    engine, transcriber = from_packages(), Transcriber()
    rows = []
    print("| voice | emotion | F0 (st) | range (x) | duration (x) | energy (dB) | WER |")
    print("|---|---|---|---|---|---|---|")
    for voice in args.voices:
        sentences = SENTENCES_ZH if engine.voice(voice).language == "zh" else SENTENCES
        per_sentence = [emotion_changes(engine, voice, s, args.emotions, estimator=args.estimator) for s in sentences]
        baseline = wer(engine, transcriber, voice, None)
        rows.append({"voice": voice, "emotion": "neutral", "wer": baseline})
        print(f"| {voice} | neutral | | | | | {_percent(baseline)} |", flush=True)
        for name in args.emotions:
            changes = [p[name, 1.0].to_dict() for p in per_sentence]
            median = {f: statistics.median(c[f] for c in changes) for f in FIELDS}
            error_rate = wer(engine, transcriber, voice, name)
            rows.append({"voice": voice, "emotion": name, **median, "wer": error_rate})
            print(f"| {voice} | {name} | {median['f0_st']:+.1f} | {median['range_ratio']:.2f} | "
                  f"{median['duration_ratio']:.2f} | {median['energy_db']:+.1f} | {_percent(error_rate)} |",
                  flush=True)
    out = args.out or Path(__file__).parent / "results" / f"emotion_{args.estimator}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
