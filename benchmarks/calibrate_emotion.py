"""Calibrate every voice's emotion controls against the measured targets (closed loop).

    .venv/bin/python benchmarks/calibrate_emotion.py [--voices ...] [--emotions ...] [--iterations 3]

For each voice and emotion: synthesize the calibration sentences with the current
controls, measure F0 level, F0 range, duration and energy against the neutral reading,
and correct each control by the error (additively in st and dB, by ratio for range and
rate). The targets are the voice's own (`presets.targets_for`: restrained where the full
presets cost it naturalness). Writes src/emovox/emotion/calibration.json, which the engine loads.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from emovox import Engine, from_packages
from emovox.bench.prosody import ESTIMATORS, ProsodyChange, measure
from emovox.emotion.model import EMOTIONS, Emotion, Prosody
from emovox.emotion.presets import targets_for
from emovox.emotion.resolve import CALIBRATION_FILE, Calibration

SENTENCES = [
    "The quarterly revenue grew by seventeen percent to four point two million dollars.",
    "She whispered that the children were finally asleep.",
    "We will meet again at the old station next Thursday morning.",
    "My sister bought a new bicycle for the summer holidays.",
    "The train was late again, so we took a taxi home.",
]
#: For a Chinese voice.
SENTENCES_ZH = [
    "公司的季度收入增长了百分之十七，达到四百二十万元。",
    "她轻声说孩子们终于睡着了。",
    "我们下个星期四早上在老车站再见面。",
    "我妹妹为暑假买了一辆新自行车。",
    "火车又晚点了，所以我们坐出租车回家。",
    "这家饭店的菜很好吃，价格也不贵。",
    "明天早上八点，请大家准时到会议室开会。",
    "他把钥匙忘在办公室里了，只好回去拿。",
    "春天来了，公园里的花都开了。",
    "你知道最近的地铁站在哪里吗？",
]
OUT = Path(__file__).parents[1] / "src" / "emovox" / "emotion" / CALIBRATION_FILE
LIMITS = {"pitch_st": (-8.0, 10.0), "pitch_range": (0.5, 3.0), "speed": (0.5, 1.6), "energy_db": (-10.0, 10.0)}


def sentences_for(engine: Engine, voice: str) -> list[str]:
    return SENTENCES_ZH if engine.voice(voice).language == "zh" else SENTENCES


def mean_change(engine: Engine, voice: str, emotion: str, neutral: list, estimator: str) -> ProsodyChange:
    changes = []
    for sentence, reference in zip(sentences_for(engine, voice), neutral):
        audio = engine.synthesize(sentence, voice=voice, emotion=Emotion(emotion))
        changes.append(measure(audio.samples, audio.sample_rate, estimator).relative_to(reference))
    return ProsodyChange(*(float(np.mean([getattr(c, f) for c in changes]))
                           for f in ("f0_st", "range_ratio", "duration_ratio", "energy_db")))


def corrected(controls: Prosody, target: Prosody, measured: ProsodyChange) -> Prosody:
    def clamp(name: str, value: float) -> float:
        low, high = LIMITS[name]
        return float(min(high, max(low, value)))

    return Prosody(
        pitch_st=clamp("pitch_st", controls.pitch_st + target.pitch_st - measured.f0_st),
        pitch_range=clamp("pitch_range", controls.pitch_range * target.pitch_range / measured.range_ratio),
        speed=clamp("speed", controls.speed * measured.duration_ratio * target.speed),
        energy_db=clamp("energy_db", controls.energy_db + target.energy_db - measured.energy_db),
        tilt_db=controls.tilt_db,
    )


def miss(target: Prosody, measured: ProsodyChange) -> float:
    """How far a measurement is from the target, each measure in units of a just-audible step."""
    return (2 * abs(measured.f0_st - target.pitch_st)  # pitch carries most of the gates
            + abs(np.log(measured.range_ratio / target.pitch_range)) / np.log(1.1)
            + abs(np.log(measured.duration_ratio * target.speed)) / np.log(1.05)
            + abs(measured.energy_db - target.energy_db))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*")
    parser.add_argument("--emotions", nargs="*", choices=EMOTIONS[1:],
                        help="recalibrate only these (the others keep their stored controls)")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--estimator", choices=ESTIMATORS, default="harvest",
                        help="F0 estimator of the loop (pyin for joe, whose F0 Harvest misreads)")
    parser.add_argument("--no-tilt", nargs="*", default=["joe"], metavar="VOICE",
                        help="voices calibrated without spectral tilt (on joe, a brighter spectrum "
                             "made Harvest read F0 up to 2 st higher, so tilt fought the pitch control)")
    args = parser.parse_args()
    base = from_packages()
    table = json.loads(OUT.read_text()) if OUT.is_file() else {"voices": {}}
    for voice in args.voices or [v.name for v in base.voices()]:
        neutral = [measure(a.samples, a.sample_rate, args.estimator)
                   for a in (base.synthesize(s, voice=voice) for s in sentences_for(base, voice))]
        calibrated = {name: Prosody(**controls) for name, controls in table["voices"].get(voice, {}).items()}
        for emotion in args.emotions or EMOTIONS[1:]:
            target = targets_for(voice)[emotion]
            controls = replace(target, tilt_db=0.0) if voice in args.no_tilt else target
            tried = []
            for _ in range(args.iterations):
                engine = base.with_calibration(Calibration({voice: {emotion: controls}}))
                measured = mean_change(engine, voice, emotion, neutral, args.estimator)
                tried.append((miss(target, measured), controls, measured))
                controls = corrected(controls, target, measured)
            _, controls, measured = min(tried, key=lambda t: t[0])
            calibrated[emotion] = controls
            print(f"{voice:14s} {emotion:10s} controls "
                  f"{ {k: round(v, 3) for k, v in controls.to_dict().items()} } measured {measured.to_dict()}",
                  flush=True)
        table["voices"][voice] = {name: {k: round(v, 4) for k, v in p.to_dict().items()}
                                  for name, p in calibrated.items()}
        OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
