"""Whisper tiny.en word error rate per voice over a sentence file (default: 50 sentences).

    .venv/bin/python benchmarks/intelligibility.py [--voices joe jf_alpha ...] [--sentences FILE]
    .venv/bin/python benchmarks/intelligibility.py --rescore results/frontend_wer_fresh4.json

The test suite checks a smaller set against the 5 % gate; this script gives the fuller
figure recorded in benchmarks/README.md, and lists every misheard sentence. `--rescore`
scores a result file's transcripts again with the current scorer, without synthesizing: its
misheard sentences are rescored, the others stay right, so a new fold is seen on the same audio.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from emovox import from_packages
from emovox.bench.intelligibility import Transcriber, corpus_wer, word_error_rate
from emovox.frontend.normalize import normalize

HERE = Path(__file__).parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*")
    parser.add_argument("--sentences", type=Path, default=HERE / "sentences_en.txt")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "intelligibility.json")
    parser.add_argument("--rescore", type=Path, help="a result file to score again in place")
    args = parser.parse_args()
    if args.rescore:
        rescore(args.rescore)
        return

    engine = from_packages()
    transcriber = Transcriber()
    sentences = [line.strip() for line in args.sentences.read_text("utf-8").splitlines() if line.strip()]
    results = {}
    for voice in args.voices or [v.name for v in engine.voices()]:
        result = corpus_wer(engine, transcriber, voice, sentences)
        results[voice] = {"wer": result.wer, "words": result.words,
                          "misheard": [{"text": t, "heard": h, "wer": w} for t, h, w in result.misheard]}
        print(f"{voice:14s} WER {100 * result.wer:5.2f} %  "
              f"({len(result.misheard)} of {len(sentences)} sentences misheard)", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False))


def rescore(path: Path) -> None:
    results = json.loads(path.read_text("utf-8"))
    for voice, result in results.items():
        errors = 0.0
        for row in result["misheard"]:
            row["wer"], count = word_error_rate([row["text"], normalize(row["text"]).text], row["heard"])
            errors += row["wer"] * count
        result["misheard"] = [row for row in result["misheard"] if row["wer"]]
        result["wer"] = errors / result["words"]
        print(f"{voice:14s} WER {100 * result['wer']:5.2f} %  ({len(result['misheard'])} sentences misheard)")
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
