"""Where an emotion's naturalness goes: each of its controls set back to neutral in turn.

    .venv/bin/python benchmarks/emotion_parts.py VOICE EMOTION [--sentences FILE] [--count 30]

Each sentence is read neutral, with the emotion's calibrated controls (intensity 1.0), and
with the emotion minus one control at a time (its level, range, rate, loudness, tilt), plus
the level alone; every reading is scored by DistillMOS. Reported per variant: its median
minus the neutral median, and the mean of the per-sentence differences with its standard
error. The paired figure is the one to read: one sentence moves by up to 0.5 between
readings, so medians of a few sentences mislead (benchmarks/README.md, "Naturalness by
emotion").

Each reading is the engine's own rendering of the emotional plan's chunks
(`Renderer.render`) with their controls replaced, so a control can be changed without
recalibrating; the "emotion" row is what `Engine.synthesize` makes, less the pauses between
chunks.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import numpy as np

from emovox.bench.naturalness import DistillMos
from emovox.compose import from_packages
from emovox.emotion.model import EMOTIONS
from emovox.engine import ChunkJob
from emovox.types import Prosody

FRESH = Path(__file__).with_name("frontend_en_fresh5.txt")
CONTROLS = ("pitch_st", "pitch_range", "speed", "energy_db", "tilt_db")


def variants(neutral: ChunkJob, emotional: ChunkJob) -> dict[str, Prosody]:
    """The controls of each reading of one chunk: neutral, the emotion whole, the emotion
    without each control, and its level alone. (The emotion's rate is `Prosody.speed`; the
    job's own speed is the request's, the same for every reading.)"""
    readings = {"neutral": neutral.controls, "emotion": emotional.controls}
    for name in CONTROLS:
        readings[f"without {name}"] = dataclasses.replace(emotional.controls, **{name: getattr(Prosody(), name)})
    readings["pitch_st alone"] = Prosody(pitch_st=emotional.controls.pitch_st)
    return readings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("voice")
    parser.add_argument("emotion", choices=EMOTIONS[1:])
    parser.add_argument("--sentences", type=Path, default=FRESH)
    parser.add_argument("--count", type=int, default=30)
    args = parser.parse_args()

    engine = from_packages(audio_cache_bytes=0)
    judge = DistillMos()
    lines = [line.strip() for line in args.sentences.read_text(encoding="utf-8").splitlines() if line.strip()]

    def reading(job: ChunkJob, controls: Prosody) -> np.ndarray:
        return engine.renderer.render(dataclasses.replace(job, controls=controls)).samples

    scores: dict[str, list[float]] = {}
    for sentence in lines[: args.count]:
        emotional = list(engine.plan(sentence, voice=args.voice, emotion=args.emotion))
        readings = [variants(*pair) for pair in zip(engine.plan(sentence, voice=args.voice), emotional)]
        for name in readings[0]:
            audio = np.concatenate([reading(job, controls[name]) for job, controls in zip(emotional, readings)])
            scores.setdefault(name, []).append(judge(audio, emotional[0].output_rate))

    neutral = np.array(scores.pop("neutral"))
    print(f"{args.voice} {args.emotion}: {len(neutral)} sentences of {args.sentences.name}, "
          f"neutral median {np.median(neutral):.2f}")
    print("| reading | median minus neutral | paired mean ± s.e. |\n|---|---|---|")
    for name, values in scores.items():
        difference = np.array(values) - neutral
        print(f"| {name} | {np.median(values) - np.median(neutral):+.2f} | "
              f"{difference.mean():+.2f} ± {difference.std() / np.sqrt(len(difference)):.2f} |")


if __name__ == "__main__":
    main()
