"""How well a reference clip's rate and pitch are transferred, with and without its words.

    .venv/bin/python benchmarks/clip_rate.py [--voices heart jf_alpha ...]

Each voice reads eight sentences neutrally and in each emotion at intensity 1; every clip is
then read back as a style reference the way a request would (`Engine.resolution`, the
nearest stock voice's register), once without its words (syllables per second against the
register's norm) and once with them (`style_ref_text`: every delta against a neutral
reading of the same words, rate as the ratio of speech spans). A transfer counts as right
within 10 % of the emotion's preset rate and within 1 st of its preset pitch for that voice
(`targets_for`), the measures issue 15 names. Audio cache off.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import numpy as np
import soundfile

from emovox import from_packages
from emovox.emotion.presets import targets_for
from emovox.options import SpeechOptions

#: Not among the calibration, norm or test sentences.
TEXTS = ("My grandmother planted roses in the garden.", "The children built a snowman in the yard.",
         "The old bridge was built in 1887.", "Sales rose 12% in the second quarter.",
         "Could you send the file to anna@example.com today?", "The library opens at 9 o'clock on weekdays.",
         "Please call 555-0199 after lunch.", "Our office is closed on December 25th.")
EMOTIONS = ("neutral", "happy", "angry", "sad", "surprised", "fearful", "disgusted")
RESULTS = Path(__file__).parent / "results" / "clip_rate.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", nargs="+", default=["heart", "jf_alpha", "jm_kumo", "jf_tebukuro", "joe"])
    args = parser.parse_args()
    engine = from_packages(audio_cache_bytes=0)
    rows = []
    for voice in args.voices:
        for text in TEXTS:
            for emotion in EMOTIONS:
                audio = engine.synthesize(text, voice=voice, emotion=emotion)
                clip = io.BytesIO()
                soundfile.write(clip, audio.samples, audio.sample_rate, format="WAV")
                preset = targets_for(voice)[emotion]
                row = {"voice": voice, "text": text, "emotion": emotion, "preset_rate": preset.speed,
                       "preset_pitch_st": preset.pitch_st}
                for how, extra in (("syllables", {}), ("words", {"style_ref_text": text})):
                    transferred = engine.resolution(SpeechOptions(voice=voice, style_ref=clip.getvalue(), **extra))
                    row[how] = {"rate": transferred.emotion.speed, "pitch_st": transferred.emotion.pitch_st}
                rows.append(row)
        summary(rows, voice)
    RESULTS.write_text(json.dumps({"rows": rows}, indent=1) + "\n", "utf-8")
    summary(rows, "all")


def summary(rows: list[dict], voice: str) -> None:
    mine = [r for r in rows if voice in ("all", r["voice"])]
    for how in ("syllables", "words"):
        rate = np.array([abs(r[how]["rate"] / r["preset_rate"] - 1) for r in mine])
        pitch = np.array([abs(r[how]["pitch_st"] - r["preset_pitch_st"]) for r in mine])
        print(f"{voice:12s} {how:9s} rate within 10 %: {int((rate <= 0.10).sum())} of {len(mine)} "
              f"(median error {100 * np.median(rate):.1f} %, worst {100 * rate.max():.1f} %); "
              f"pitch within 1 st: {int((pitch <= 1.0).sum())} (median {np.median(pitch):.2f} st, "
              f"worst {pitch.max():.2f})", flush=True)


if __name__ == "__main__":
    main()
