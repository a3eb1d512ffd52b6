"""Whisper tiny.en word error rate per voice over a sentence file (default: 50 sentences).

    .venv/bin/python benchmarks/intelligibility.py [--voices joe jf_alpha ...] [--sentences FILE]

The test suite checks a smaller set against the 5 % gate; this script gives the fuller
figure recorded in benchmarks/README.md, and lists every misheard sentence.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from emovox import Engine
from emovox.bench.intelligibility import Transcriber, word_error_rate

HERE = Path(__file__).parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*")
    parser.add_argument("--sentences", type=Path, default=HERE / "sentences_en.txt")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "intelligibility.json")
    args = parser.parse_args()

    engine = Engine.from_packages()
    transcriber = Transcriber()
    sentences = [line.strip() for line in args.sentences.read_text("utf-8").splitlines() if line.strip()]
    results = {}
    for voice in args.voices or [v.name for v in engine.voices()]:
        errors = words = 0.0
        misheard = []
        for sentence in sentences:
            audio = engine.synthesize(sentence, voice=voice)
            heard = transcriber.transcribe(audio.samples, audio.sample_rate)
            wer, count = word_error_rate([sentence, engine.frontend.normalize(sentence).text], heard)
            errors += wer * count
            words += count
            if wer:
                misheard.append({"text": sentence, "heard": heard, "wer": wer})
        results[voice] = {"wer": errors / words, "words": words, "misheard": misheard}
        print(f"{voice:14s} WER {100 * errors / words:5.2f} %  ({len(misheard)} of {len(sentences)} sentences misheard)",
              flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
