"""Real-time factor per voice: emovox side by side with the peer runtime of the same model.

    make bench                          # or: .venv/bin/python benchmarks/rtf.py --repeats 5

Peers (the `bench` extra): `piper-tts` for the Piper VITS voice `joe`, `kokoro-onnx` for the
Kokoro voices, each loading the very same ONNX file, and hibari's own runtime for `heart`. Both sides go text -> waveform
(normalization, G2P, inference). Runs are interleaved sentence by sentence so machine drift
hits both alike; the figure is the median over repeats of compute seconds / audio seconds.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from emovox import from_packages
from emovox.bench.machine import describe
from emovox.bench.peers import emovox_synth, kokoro_onnx_synth, measure, peer_for, phonemizer

SENTENCES = [
    "The meeting moved to 3:30 PM on Friday, March 14th.",
    "Dr. Smith paid $12.75 for two coffees at St. Mary's.",
    "I can't believe we actually won the game tonight!",
    "Please turn left after 250 meters and keep going for 1.5 km.",
    "She whispered that the children were finally asleep, and the house grew quiet at last.",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--voices", nargs="*",
                        default=["heart", "joe", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"])
    parser.add_argument("--same-phonemes", action="store_true",
                        help="give kokoro-onnx our phonemes, so both sides speak the very same sounds "
                             "(its own normalization reads some sentences longer or shorter)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "rtf.json")
    args = parser.parse_args()

    from rich.console import Console
    from rich.table import Table

    engine = from_packages(audio_cache_bytes=0)  # every repeat synthesizes: timing, not memory reads
    rows = []
    for voice in args.voices:
        backend = engine.backend_of(voice).name
        if backend == "kokoro" and args.same_phonemes:
            peer_name, peer = "kokoro-onnx (our phonemes)", kokoro_onnx_synth(voice, phonemizer(engine))
        else:
            found = peer_for(voice, backend)
            if found is None:
                print(f"{voice}: no peer runtime installed for {backend} (make bench installs them)")
                continue
            peer_name, peer = found
        result = measure({"emovox": emovox_synth(engine, voice), peer_name: peer}, SENTENCES, args.repeats)
        ours, theirs = result["emovox"]["rtf_median"], result[peer_name]["rtf_median"]
        rows.append({"voice": voice, "peer": peer_name, "emovox_rtf": ours, "peer_rtf": theirs,
                     "ratio": ours / theirs, "details": result})
    table = Table("voice", "peer", "emovox RTF", "peer RTF", "ratio (≤ 1 is as fast or faster)",
                  title=f"median of {args.repeats} repeats x {len(SENTENCES)} sentences")
    for row in rows:
        table.add_row(row["voice"], row["peer"], f"{row['emovox_rtf']:.3f}", f"{row['peer_rtf']:.3f}",
                      f"{row['ratio']:.2f}")
    Console().print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": describe(), "repeats": args.repeats, "sentences": SENTENCES,
                                    "results": rows}, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
