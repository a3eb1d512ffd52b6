"""An hour of mixed traffic against `emovox serve` on the real voices (tests/test_soak.py is the
five-minute form on the tiny ones).

    .venv/bin/python benchmarks/soak.py [--minutes 60] [--clients 4] [--voices joe jf_alpha heart]
        [--json results/soak.json]

The server runs as a process of its own (`emovox serve` as deployed: its default profile,
whose 32 MB audio cache is on; every speech request but a clone's one fixed line is a new
sentence, so synthesis is what is measured), sampled from /proc; the traffic is emovox.bench.soak's mix: short and
long speech in every format, streamed, whole and as SSE, captioned speech, fast clones of a
clip the server itself spoke (uploaded, spoken with, deleted), bad requests, and clients that
go away mid-stream. Reports every (kind, status) count, 5xx and broken connections, first
audio p50/p95 per minute, and the server's memory, threads and descriptors over the run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from emovox.bench.soak import Soak, speech_clip
from emovox.server.background import ServerProcess

HERE = Path(__file__).parent
REFERENCE = "The quick brown fox jumps over the lazy dog, and then it runs across the field to the river bank."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--voices", nargs="+", default=["joe", "jf_alpha", "heart"])
    parser.add_argument("--json", type=Path, default=HERE / "results" / "soak.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="emovox-soak-") as home:
        server = ServerProcess([sys.executable, "-m", "emovox.cli", "serve", "--port", "{port}"],
                               env={**os.environ, "EMOVOX_HOME": home}, ready_within_s=300)
        try:
            clip = speech_clip(server.url, "joe", REFERENCE)
            report = Soak(server.url, server.process.pid, args.voices, clip, clients=args.clients,
                          seed=11).run(args.minutes * 60, sample_every_s=15)
        finally:
            server.stop()
    figures = {"minutes": args.minutes, "clients": args.clients, "voices": args.voices, **report.to_dict(),
               "samples": [vars(sample) for sample in report.samples]}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=1) + "\n")
    minutes = figures["first_audio_s_by_minute"]
    first, last = minutes[min(minutes)], minutes[max(minutes)]
    rss, threads, fds = figures["rss_mb"], figures["threads"], figures["fds"]
    print(f"{figures['requests']} requests in {figures['seconds'] / 60:.1f} min: {figures['server_errors_5xx']} 5xx, "
          f"{figures['transport_errors']} broken connections; first audio p95 {first['p95']} s in the first minute, "
          f"{last['p95']} s in the last; RSS {rss['after_warmup']:.0f} -> {rss['last']:.0f} MB (peak {rss['peak']:.0f}; "
          f"medians by quarter {rss['quarter_medians']}, {rss['second_half_mb_per_min']} MB/min over the second "
          f"half); threads {threads['after_warmup']} -> {threads['last']}; descriptors {fds['after_warmup']} -> "
          f"{fds['last']}")


if __name__ == "__main__":
    main()
