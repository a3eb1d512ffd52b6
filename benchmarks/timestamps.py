"""Word timestamps against an independent aligner: Whisper's own word boundaries.

    .venv/bin/python benchmarks/timestamps.py [--voices joe jf_alpha] [--fresh] [--out FILE]

For each sentence and voice: synthesize it (our word timestamps come from the model's own
durations), transcribe the audio with Whisper tiny.en and `word_timestamps=True`, pair our
words with Whisper's by their letters (difflib over lowercased words, so a misheard word
simply goes unpaired) and take the absolute difference of the start times. Prints the
median, p90 and how many words were paired, per voice. Words are compared as written
("$45.50" is one word on both sides; Whisper writes numbers as digits).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
from pathlib import Path

import numpy as np

from emovox import from_packages
from emovox.bench.intelligibility import Transcriber

#: Written for this benchmark, not used to tune anything: everyday sentences with numbers,
#: names and a question or two.
SENTENCES = [
    "The ferry to the island leaves twice a day, once at dawn and once at dusk.",
    "Could you tell Maria that the printer on the third floor is working again?",
    "My brother planted seven apple trees behind the old barn last spring.",
    "Please keep your ticket until the end of the journey.",
    "The museum closes early on Sundays, so we should go on Saturday instead.",
    "After the storm, the whole street was covered in leaves and broken branches.",
    "She ordered a large coffee, two croissants and a glass of orange juice.",
    "Nobody expected the quiet student to win the chess tournament.",
    "We walked along the river until the lights of the city disappeared behind us.",
    "Is this the right platform for the train to Edinburgh?",
    "The recipe needs three eggs, a cup of flour and a pinch of salt.",
    "His grandfather repaired clocks in a tiny shop near the harbour for forty years.",
]
#: Written after the word alignment was changed (espeak's merged words, written words),
#: measured once with it and never used to change anything: the held-out check.
FRESH = [
    "The bakery on Elm Street sells its last loaf of rye bread at six in the evening.",
    "Two of the windows in the attic were left open during the night.",
    "Our neighbours paid $45.50 for a second-hand bicycle with a basket.",
    "Have you ever seen a fox cross the road in the middle of the day?",
    "The committee will announce the winners on Thursday, June 5th.",
    "A thin layer of frost covered the car windows this morning.",
    "Mr. Patel teaches chemistry at the high school across the valley.",
    "We lost the signal somewhere between the tunnel and the bridge.",
    "The library is open until 8 PM on weekdays and noon on Saturdays.",
    "Most of the guests had already left when the band started playing.",
    "Turn the oven down to 180 degrees after the first twenty minutes.",
    "The lighthouse keeper wrote a letter to his sister every single week.",
]


def _key(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", word.lower())


def errors(ours, theirs) -> list[float]:
    a, b = [_key(w.word) for w in ours], [_key(w) for w, _, _ in theirs]
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    return [abs(ours[i + k].start_s - theirs[j + k][1])
            for i, j, size in matcher.get_matching_blocks() for k in range(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=["joe", "jf_alpha", "jm_kumo"])
    parser.add_argument("--fresh", action="store_true", help="the held-out sentences (FRESH), not SENTENCES")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "timestamps.json")
    args = parser.parse_args()
    engine, whisper = from_packages(audio_cache_bytes=0), Transcriber()
    rows = []
    print("| voice | words paired | median start error (ms) | p90 (ms) | mean (ms) |\n|---|---|---|---|---|")
    for voice in args.voices:
        diffs, total = [], 0
        for sentence in FRESH if args.fresh else SENTENCES:
            audio = engine.synthesize(sentence, voice=voice)
            total += len(audio.info.words)
            diffs += errors(audio.info.words, whisper.words(audio.samples, audio.sample_rate))
        ms = 1000 * np.array(diffs)
        row = {"voice": voice, "paired": len(diffs), "words": total, "median_ms": float(np.median(ms)),
               "p90_ms": float(np.percentile(ms, 90)), "mean_ms": float(ms.mean())}
        rows.append(row)
        print(f"| {voice} | {len(diffs)}/{total} | {row['median_ms']:.0f} | {row['p90_ms']:.0f} | {row['mean_ms']:.0f} |",
              flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"sentences": FRESH if args.fresh else SENTENCES, "results": rows}, indent=2))


if __name__ == "__main__":
    main()
