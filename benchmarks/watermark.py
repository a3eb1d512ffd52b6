"""Watermark benchmark: audibility, robustness and false positives, per candidate library.

    .venv/bin/python benchmarks/watermark.py [--sentences FILE] [--count 24] [--marks perth voicesign]

Speech: every stock voice (and two espeak-ng voices, another synthesizer entirely) reading
sentences from FILE (default: a fresh set generated below from word lists, so no sentence is
one the repository tunes on), one sentence per clip, round-robin over the voices.

For each candidate mark:
- audibility: DistillMOS of each clip before and after marking (median drop; issue 17 allows
  0.05), and the SNR of the mark;
- detection rate on marked clips as they are, after MP3 at 64 kbit/s, Opus at 32 kbit/s,
  resampling to 16 kHz, and white noise at 20 dB SNR (issue 17 asks >= 95 % after each);
- false positives: unmarked clips, as they are and after the same transformations (<= 1 %).

Candidates: `perth` (resemble-perth's PerthNet, exported to ONNX: emovox.audio.watermark)
and `voicesign` (NumPy spread spectrum, BUSL-1.1; measured when installed:
`pip install --no-deps voicesign==0.3.1`). Prints a Markdown table; writes
results/watermark.json.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import av
import numpy as np
import soundfile
import soxr

from emovox import from_packages
from emovox.audio.watermark import THRESHOLD, Watermarker
from emovox.bench.naturalness import DistillMos
from emovox.frontend.g2p.espeak import Espeak
from emovox.voices.intake import decode

RESULTS = Path(__file__).parent / "results"

SUBJECTS = ("the old captain", "my sister", "a young doctor", "our new neighbor", "the quiet student",
            "the baker", "a tired driver", "the museum guide")
VERBS = ("carried", "painted", "forgot", "repaired", "described", "borrowed", "measured", "delivered")
OBJECTS = ("a wooden ladder", "the broken clock", "seven blue envelopes", "a map of the harbor",
           "the kitchen window", "an umbrella with yellow stripes", "the heavy suitcase", "two loaves of bread")
ENDINGS = ("before the storm arrived.", "on a cold Tuesday morning.", "without saying a word.",
           "while the radio played softly.", "near the end of the summer.", "after the long meeting.")


def fresh_sentences(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
            f"{rng.choice(ENDINGS)}" for _ in range(count)]


def through_codec(samples: np.ndarray, rate: int, codec: str, container: str, bit_rate: int,
                  codec_rate: int) -> np.ndarray:
    sink = io.BytesIO()
    with av.open(sink, mode="w", format=container) as out:
        stream = out.add_stream(codec, rate=codec_rate, layout="mono")
        stream.codec_context.bit_rate = bit_rate
        resampler = av.AudioResampler(format=stream.codec_context.format.name, layout="mono", rate=codec_rate)
        frame = av.AudioFrame.from_ndarray(samples.astype(np.float32).reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = rate
        for converted in [*resampler.resample(frame), *resampler.resample(None)]:
            for packet in stream.encode(converted):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    decoded, decoded_rate, _ = decode(sink.getvalue())
    return soxr.resample(decoded, decoded_rate, rate).astype(np.float32)


def with_noise(samples: np.ndarray, snr_db: float, rng: np.random.Generator) -> np.ndarray:
    power = float(np.mean(samples ** 2))
    return (samples + rng.normal(0, np.sqrt(power / 10 ** (snr_db / 10)), len(samples))).astype(np.float32)


def transformations(rng: np.random.Generator) -> dict[str, Callable[[np.ndarray, int], tuple[np.ndarray, int]]]:
    return {
        "as is": lambda x, r: (x, r),
        "mp3 64k": lambda x, r: (through_codec(x, r, "libmp3lame", "mp3", 64_000, r if r in (22050, 24000) else 24000), r),
        "opus 32k": lambda x, r: (through_codec(x, r, "libopus", "ogg", 32_000, 48_000), r),
        "16 kHz": lambda x, r: (soxr.resample(x, r, 16_000).astype(np.float32), 16_000),
        "noise 20 dB": lambda x, r: (with_noise(x, 20.0, rng), r),
    }


class Perth:
    name = "perth"

    def __init__(self, passes: int) -> None:
        self.marker = Watermarker(passes=passes)

    def mark(self, samples, rate):
        return self.marker.mark(samples, rate)

    def detect(self, samples, rate) -> float:
        return self.marker.detect(samples, rate).confidence

    threshold = THRESHOLD


class VoiceSign:
    name = "voicesign"
    identity, salt = "emovox-clone", "emovox-benchmark"

    def __init__(self) -> None:
        import voicesign

        self.lib = voicesign

    @staticmethod
    def _wav(samples, rate) -> bytes:
        buffer = io.BytesIO()
        soundfile.write(buffer, np.clip(samples, -1, 1), rate, format="WAV", subtype="PCM_16")
        return buffer.getvalue()

    def mark(self, samples, rate):
        signed = self.lib.sign(self._wav(samples, rate), identity=self.identity, salt=self.salt)
        out, _ = soundfile.read(io.BytesIO(signed), dtype="float32")
        return out

    def detect(self, samples, rate) -> float:
        result = self.lib.verify(self._wav(samples, rate), identity=self.identity, salt=self.salt)
        return 1.0 if result["detected"] else 0.0

    threshold = 0.5


def speech(count: int, sentences: list[str]) -> list[tuple[str, np.ndarray, int]]:
    engine = from_packages()
    voices = [v.name for v in engine.voices() if v.language.startswith("en")]
    espeak = Espeak.shared()
    clips = []
    for index, text in enumerate(sentences[:count]):
        speaker = (voices + ["espeak:en-us+m3", "espeak:en+f4"])[index % (len(voices) + 2)]
        if speaker.startswith("espeak:"):
            clips.append((speaker, espeak.speak(text, speaker.split(":")[1]).astype(np.float32), espeak.sample_rate))
        else:
            audio = engine.synthesize(text, voice=speaker)
            clips.append((speaker, audio.samples, audio.sample_rate))
    return clips


def measure(candidate, clips, mos: DistillMos, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    transforms = transformations(rng)
    hits = {name: 0 for name in transforms}
    false = {name: 0 for name in transforms}
    drops, snrs, mark_s, audio_s = [], [], 0.0, 0.0
    for _speaker, samples, rate in clips:
        started = time.perf_counter()
        marked = candidate.mark(samples, rate)
        mark_s += time.perf_counter() - started
        audio_s += len(samples) / rate
        snrs.append(float(10 * np.log10(np.sum(samples ** 2) / max(np.sum((marked - samples) ** 2), 1e-12))))
        drops.append(float(mos(samples, rate) - mos(marked, rate)))
        for name, transform in transforms.items():
            hits[name] += int(candidate.detect(*transform(marked, rate)) >= candidate.threshold)
            false[name] += int(candidate.detect(*transform(samples, rate)) >= candidate.threshold)
    n = len(clips)
    return {"clips": n, "mos_drop_median": round(statistics.median(drops), 3),
            "mos_drop_mean": round(statistics.mean(drops), 3), "snr_db_median": round(statistics.median(snrs), 1),
            "mark_rtf": round(float(mark_s / audio_s), 4),
            "detection": {k: round(v / n, 3) for k, v in hits.items()},
            "false_positives": {k: round(v / n, 3) for k, v in false.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=Path)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--marks", nargs="+", default=["perth", "voicesign"])
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--passes", type=int, nargs="+", default=[1], help="perth: embedding passes to compare")
    args = parser.parse_args()
    sentences = ([s for s in args.sentences.read_text("utf-8").splitlines() if s.strip()] if args.sentences
                 else fresh_sentences(args.count, args.seed))
    clips = speech(args.count, sentences)
    mos = DistillMos()
    results = {}
    candidates = {f"perth, {n} pass{'es' if n > 1 else ''}": lambda n=n: Perth(n) for n in args.passes}
    candidates["voicesign"] = VoiceSign
    for name, make in candidates.items():
        if name.split(",")[0] not in args.marks:
            continue
        try:
            candidate = make()
        except ImportError as e:
            print(f"skipping {name}: {e}")
            continue
        results[name] = measure(candidate, clips, mos, args.seed)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "watermark.json").write_text(json.dumps(results, indent=2) + "\n")
    transforms = list(transformations(np.random.default_rng(0)))
    print("| mark | DistillMOS drop (median) | SNR dB | mark RTF | " + " | ".join(f"found: {t}" for t in transforms)
          + " | false positives (worst) |")
    print("|---|---|---|---|" + "---|" * len(transforms) + "---|")
    for name, r in results.items():
        print(f"| {name} | {r['mos_drop_median']:+.3f} | {r['snr_db_median']} | {r['mark_rtf']} | "
              + " | ".join(f"{100 * r['detection'][t]:.0f} %" for t in transforms)
              + f" | {100 * max(r['false_positives'].values()):.1f} % |")


if __name__ == "__main__":
    main()
