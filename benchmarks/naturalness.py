"""Naturalness per English voice and emotion, by DistillMOS (a learned MOS predictor that
reacts to synthesis artifacts; its weights ship in its wheel).

    .venv/bin/python benchmarks/naturalness.py [--voices joe jf_alpha ...] [--sentences 8] [--json FILE]

Each voice reads the first N sentences of benchmarks/sentences_en.txt neutral and in each
of the six other emotions at intensity 1.0 (the audio cache off); every clip is scored at
16 kHz. Reported: the median per voice and emotion, and each emotion's median minus the
voice's neutral median (issue 15's gate: no emotion more than 0.3 below neutral).

Needs torch (the parity extra) and `pip install --no-deps distillmos==0.9.1 xls-r-sqa==0.1.0`
(`make bench` installs them): distillmos imports torchaudio, whose wheels pin an older
torch, only for its command line, so this script gives it an empty module by that name.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from emovox.bench.naturalness import DistillMos, drops, scores_by_emotion
from emovox.compose import from_packages
from emovox.emotion.model import EMOTIONS

SENTENCES = Path(__file__).with_name("sentences_en.txt")
SENTENCES_ZH = Path(__file__).with_name("sentences_zh.txt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=None,
                        help="voices (default: every English one); a Mandarin voice reads sentences_zh.txt")
    parser.add_argument("--sentences", type=int, default=8)
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "naturalness.json")
    args = parser.parse_args()
    engine = from_packages(audio_cache_bytes=0)
    voices = args.voices or [v.name for v in engine.voices() if v.language == "en"]
    def sentences_for(voice: str) -> list[str]:
        source = SENTENCES_ZH if engine.voice(voice).language == "zh" else SENTENCES
        return [line.strip() for line in source.read_text("utf-8").splitlines() if line.strip()][:args.sentences]

    mos = DistillMos()
    scores: dict[str, dict[str, list[float]]] = {}
    for voice in voices:
        scores[voice] = scores_by_emotion(engine, mos, voice, sentences_for(voice))
        print(voice, {e: round(statistics.median(s), 2) for e, s in scores[voice].items()}, flush=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"sentences": args.sentences, "scores": scores}, indent=2))
    print("| voice | " + " | ".join(EMOTIONS) + " | worst drop |\n|---|" + "---|" * (len(EMOTIONS) + 1))
    for voice, by_emotion in scores.items():
        medians = {e: statistics.median(s) for e, s in by_emotion.items()}
        drop = min(drops(by_emotion).values())
        cells = [f"{medians['neutral']:.2f}"] + [f"{medians[e]:.2f} ({medians[e] - medians['neutral']:+.2f})"
                                                  for e in EMOTIONS if e != "neutral"]
        print(f"| {voice} | " + " | ".join(cells) + f" | {drop:+.2f} |")


if __name__ == "__main__":
    main()
