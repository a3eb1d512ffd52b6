"""Streamed against whole: does audio decoded window by window sound like the whole segment?

    .venv/bin/python benchmarks/streaming.py [--voices jf_alpha jm_kumo joe heart baker] [--count 16]
        [--emotion happy]

Per voice, over sentences of benchmarks/sentences_en.txt (sentences_zh.txt for baker):

- SNR of the joined windows against one decode of the same frames by the same graph (what
  windowing alone changes; for Kokoro, whose windows are normalized with the voice's
  statistics, against the split graph decoding the whole range at once);
- DistillMOS median and Whisper tiny.en WER of what `Engine.stream` gives against what
  `Engine.synthesize` gives (the whole graph), the audio cache off;
- the median F0 of the streamed reading against the whole one, in semitones (pYIN): with
  `--emotion`, joe's pitch is moved window by window around his own centre, and his whole
  reading's TD-PSOLA marks start elsewhere, so the samples cannot match.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import numpy as np

from emovox import from_packages
from emovox.bench.intelligibility import Transcriber, word_error_rate
from emovox.bench.naturalness import DistillMos
from emovox.bench.prosody import measure
from emovox.engine import windows

HERE = Path(__file__).parent


def window_snr_db(engine, voice: str, text: str, emotion: str | None) -> float:
    backend = engine.backend_of(voice)
    job = next(iter(engine.plan(text, voice=voice, emotion=emotion)))
    frames = backend.prepare(list(job.ids), job.model_voice, job.speed, job.controls)
    return windows.join_snr_db(frames, backend.sample_rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="*", default=["jf_alpha", "jm_kumo", "joe", "heart", "baker"])
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--emotion", help="every sentence in this emotion (intensity 1.0)")
    parser.add_argument("--json", type=Path, default=HERE / "results" / "streaming.json")
    args = parser.parse_args()
    engine = from_packages(audio_cache_bytes=0)
    mos, transcriber = DistillMos(), Transcriber()
    rows = []
    print(f"emotion: {args.emotion or 'neutral'}\n")
    print("| voice | sentences | windows per sentence | SNR windows vs one decode (dB, median) | DistillMOS whole "
          "/ streamed | WER whole / streamed | F0 streamed - whole (st, median) |\n|---|---|---|---|---|---|---|")
    for voice in args.voices:
        language = engine.voice(voice).language
        source = HERE / ("sentences_zh.txt" if language == "zh" else "sentences_en.txt")
        sentences = [line.strip() for line in source.read_text("utf-8").splitlines() if line.strip()][:args.count]
        snrs, pieces_per, whole_mos, streamed_mos, whole_errors, streamed_errors, words = [], [], [], [], 0.0, 0.0, 0
        f0_moves = []
        for text in sentences:
            snrs.append(window_snr_db(engine, voice, text, args.emotion))
            pieces = list(engine.stream(text, voice=voice, emotion=args.emotion))
            pieces_per.append(len(pieces))
            streamed = np.concatenate([piece.samples for piece in pieces])
            whole = engine.synthesize(text, voice=voice, emotion=args.emotion)
            f0_moves.append(12 * np.log2(measure(streamed, whole.sample_rate, "pyin").f0_median_hz
                                         / measure(whole.samples, whole.sample_rate, "pyin").f0_median_hz))
            whole_mos.append(mos(whole.samples, whole.sample_rate))
            streamed_mos.append(mos(streamed, whole.sample_rate))
            if language == "en":
                references = [text, engine.frontend.normalize(text).text]
                wer, count = word_error_rate(references, transcriber.transcribe(whole.samples, whole.sample_rate))
                whole_errors += wer * count
                wer, count = word_error_rate(references, transcriber.transcribe(streamed, whole.sample_rate))
                streamed_errors += wer * count
                words += count
        row = {"voice": voice, "emotion": args.emotion, "sentences": len(sentences),
               "pieces_median": statistics.median(pieces_per),
               "snr_db_median": statistics.median(snrs), "mos_whole": statistics.median(whole_mos),
               "mos_streamed": statistics.median(streamed_mos),
               "wer_whole": whole_errors / words if words else None,
               "wer_streamed": streamed_errors / words if words else None,
               "f0_streamed_minus_whole_st": statistics.median(f0_moves)}
        rows.append(row)
        wer = (f"{100 * row['wer_whole']:.1f} % / {100 * row['wer_streamed']:.1f} %" if words else "(Mandarin: not "
               "scored)")
        print(f"| {voice} | {len(sentences)} | {row['pieces_median']:g} | {row['snr_db_median']:.1f} | "
              f"{row['mos_whole']:.2f} / {row['mos_streamed']:.2f} | {wer} | "
              f"{row['f0_streamed_minus_whole_st']:+.2f} |", flush=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
