"""Real-time factor per voice: emovox side by side with the peer runtime of the same model.

    make bench                          # or: .venv/bin/python benchmarks/rtf.py --repeats 5

Two sets of sentences the repository does not hold, made fresh for each run by
emovox.bench.sentences (`--seed`): eight short ones (under 30 characters) and eight long
ones (100-200), so per-call overhead shows as well as throughput.

Peers (the `bench` extra): `piper-tts` for the Piper VITS voice `joe`, `kokoro-onnx` for the
Kokoro voices, each loading the very same ONNX file, and hibari's own runtime for `heart`. Both sides go text -> waveform
(normalization, G2P, inference). Each repeat runs both over all the sentences in turn
(emovox.bench.peers.measure says why not sentence by sentence); the figure is the median over
repeats of compute seconds / audio seconds, and of compute seconds alone for the same text.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from emovox import from_packages
from emovox.backends.variants import PRECISIONS
from emovox.bench.machine import describe
from emovox.bench.peers import emovox_synth, kokoro_onnx_synth, measure, peer_for, phonemizer
from emovox.bench.sentences import fresh_sentences

LENGTHS = {"short": "short (<30)", "long": "long (100-200)"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0, help="which fresh sentences")
    parser.add_argument("--sentences", type=int, default=8, help="sentences per length")
    parser.add_argument("--voices", nargs="*",
                        default=["heart", "joe", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"])
    parser.add_argument("--same-phonemes", action="store_true",
                        help="give kokoro-onnx our phonemes, so both sides speak the very same sounds "
                             "(its own normalization reads some sentences longer or shorter)")
    parser.add_argument("--precision", default="fp32", choices=PRECISIONS,
                        help="joe's model variant (backends/variants.py); the peer loads the packaged model")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "rtf.json")
    args = parser.parse_args()

    from rich.console import Console
    from rich.table import Table

    # the audio cache off: every repeat synthesizes (timing, not memory reads)
    engine = from_packages(audio_cache_bytes=0, vits_precision=args.precision)
    made = fresh_sentences(args.seed)
    sentences = {length: made[bucket][:args.sentences] for length, bucket in LENGTHS.items()}
    rows = []
    for voice, length in ((voice, length) for voice in args.voices for length in LENGTHS):
        backend = engine.backend_of(voice).name
        if backend == "kokoro" and args.same_phonemes:
            peer_name, peer = "kokoro-onnx (our phonemes)", kokoro_onnx_synth(voice, phonemizer(engine))
        else:
            found = peer_for(voice, backend)
            if found is None:
                print(f"{voice}: no peer runtime installed for {backend} (make bench installs them)")
                continue
            peer_name, peer = found
        result = measure({"emovox": emovox_synth(engine, voice), peer_name: peer}, sentences[length], args.repeats)
        ours, theirs = result["emovox"], result[peer_name]
        rows.append({"voice": voice, "length": length, "peer": peer_name, "emovox_rtf": ours["rtf_median"],
                     "peer_rtf": theirs["rtf_median"], "ratio": ours["rtf_median"] / theirs["rtf_median"],
                     "compute_ratio": ours["compute_median"] / theirs["compute_median"], "details": result})
    table = Table("voice", "sentences", "peer", "emovox RTF", "peer RTF", "RTF ratio", "compute ratio",
                  title=f"median of {args.repeats} repeats x {args.sentences} sentences per length "
                        "(ratios: ≤ 1 is as fast or faster; compute: seconds for the same text)")
    for row in rows:
        table.add_row(row["voice"], row["length"], row["peer"], f"{row['emovox_rtf']:.3f}", f"{row['peer_rtf']:.3f}",
                      f"{row['ratio']:.2f}", f"{row['compute_ratio']:.2f}")
    Console().print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": describe(), "repeats": args.repeats, "sentences": sentences,
                                    "results": rows}, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
