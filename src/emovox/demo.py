"""`emovox demo`: a folder of WAV files that shows what the system does, each named for it.

    01-voices/     the same sentence (numbers, money, an abbreviation) in every English voice
    02-emotions/   one sentence in the default voice across the seven emotions, at full intensity
    03-prompt/     emotion from a free-text prompt, in English and in Chinese
    04-mandarin/   the Mandarin voice (once `make zh-models` has built it)
    05-mixed/      Chinese and English in one sentence: each language read by a voice that speaks it

A README.txt in the folder lists every file with what it demonstrates and how fast it was made.
Each voice is loaded before its first file, and the load is timed apart: a real-time factor
is the speed of synthesis, not of opening a model for the first time (Kokoro's first load
edits and caches its graph, which took jf_alpha's first sentence from RTF 0.2 to 1.5).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from emovox.audio.encode import write
from emovox.emotion.model import EMOTIONS
from emovox.engine import Engine
from emovox.options import SpeechOptions

VOICES_LINE = "Dr. Smith paid $12.75 for two coffees at 3:30 PM on Friday, March 14th."
EMOTION_LINE = "I really didn't expect to see you here today."
PROMPTS = (
    ("en", "a little sad, speaking slowly", "I waited all evening, but nobody came."),
    ("zh", "非常开心，语速快一点", "We got the tickets, we are going to the concert tonight!"),
)
MANDARIN_LINE = "欢迎使用情感语音合成系统，今天天气很好。"
MIXED_LINE = "我们明天上午十点在 Starbucks 见面，记得带上你的 MacBook。"


@dataclass(frozen=True)
class Made:
    path: Path
    what: str
    duration_s: float
    real_time_factor: float


def _make(engine: Engine, out: Path, name: str, text: str, options: SpeechOptions, what: str) -> Made:
    audio = engine.synthesize(text, options=options)
    path = write(out / name, audio.samples, audio.sample_rate)
    return Made(path, what, audio.duration, audio.info.real_time_factor)


def _load_times(engine: Engine, voices: list[str]) -> dict[str, float]:
    """Seconds to load each voice and run its first short sentence, once per process."""
    seconds = {}
    for voice in voices:
        start = time.perf_counter()
        engine.warmup([voice], windows=False)
        seconds[voice] = time.perf_counter() - start
    return seconds


def make_demo(engine: Engine, out: Path) -> tuple[list[Made], list[str]]:
    """Every demo file under `out`, and notes: what could not be made here (and why), and how
    long each voice took to load."""
    out.mkdir(parents=True, exist_ok=True)
    made: list[Made] = []
    notes: list[str] = []
    english = [voice.name for voice in engine.voices() if voice.language == "en"]
    mandarin = [voice.name for voice in engine.voices() if voice.language == "zh"]
    loads = _load_times(engine, english + mandarin[:1])
    for voice in english:
        made.append(_make(engine, out, f"01-voices/{voice}.wav", VOICES_LINE, SpeechOptions(voice=voice),
                          f"voice {voice}: {VOICES_LINE}"))
    default = engine.default_voice
    for emotion in EMOTIONS:
        made.append(_make(engine, out, f"02-emotions/{default}-{emotion}.wav", EMOTION_LINE,
                          SpeechOptions(voice=default, emotion=emotion, intensity=1.0),
                          f"{default}, {emotion} at intensity 1.0: {EMOTION_LINE}"))
    for language, prompt, line in PROMPTS:
        made.append(_make(engine, out, f"03-prompt/{language}-prompt.wav", line,
                          SpeechOptions(voice=default, prompt=prompt), f"{default}, prompt {prompt!r}: {line}"))
    if mandarin:
        made.append(_make(engine, out, f"04-mandarin/{mandarin[0]}.wav", MANDARIN_LINE,
                          SpeechOptions(voice=mandarin[0]), f"Mandarin voice {mandarin[0]}: {MANDARIN_LINE}"))
        made.append(_make(engine, out, "05-mixed/mixed.wav", MIXED_LINE, SpeechOptions(voice=mandarin[0]),
                          f"Chinese and English in one sentence ({mandarin[0]} and an English voice): {MIXED_LINE}"))
    else:
        notes.append("no Mandarin voice here: `make zh-models` builds it (make demo does unless ZH=0)")
    notes.append("voices loaded first (not in the real-time factors above; once per process): "
                 + ", ".join(f"{voice} {seconds:.1f} s" for voice, seconds in loads.items()))
    lines = [f"{m.path.relative_to(out)}  {m.duration_s:.1f} s, real-time factor {m.real_time_factor:.3f}  {m.what}"
             for m in made]
    (out / "README.txt").write_text("What each file demonstrates\n\n" + "\n".join(lines + notes) + "\n", "utf-8")
    return made, notes
