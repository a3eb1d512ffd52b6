"""Three minutes of mixed traffic against a server process on the tiny voices (the hour-long form
with the real voices is benchmarks/soak.py): short and long speech in every format, streamed
and whole and as SSE, captioned speech, clone uploads, bad requests and clients that go away
mid-stream.

Zero 5xx and zero broken connections; threads and file descriptors after the traffic back near
where the first half-minute left them (no leak); resident memory flat over the second half (it
grows in the first minutes as sessions load and clones come and go, then stops); and first
audio as fast in the last minute as in the first.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from emovox.bench.soak import Soak, speech_clip
from emovox.server.background import ServerProcess

pytestmark = pytest.mark.slow
TINY_SERVE = Path(__file__).with_name("tiny_serve.py")
#: Three minutes, a sixth of the slow tier on this machine (five were a quarter of it): at 180 s,
#: about 2,000 requests, the quarter medians of resident memory were 486, 557, 526 and 573 MB
#: (clones come and go), so the leak bound of 64 MB over the second half still has room.
SECONDS = int(__import__("os").environ.get("SOAK_SECONDS", 180))


def test_three_minutes_of_mixed_traffic(tmp_path):
    server = ServerProcess([sys.executable, str(TINY_SERVE), "{port}", str(tmp_path)])
    try:
        clip = speech_clip(server.url, "tiny", "A reference clip for the soak, long enough to clone from.")
        report = Soak(server.url, server.process.pid, ["tiny", "af_kiko", "alloy"], clip, clients=4,
                      seed=5).run(SECONDS)
    finally:
        server.stop()
    figures = report.to_dict()
    print(json.dumps(figures, indent=1))
    assert figures["requests"] > SECONDS  # at least one a second
    assert figures["server_errors_5xx"] == 0 and figures["transport_errors"] == 0, figures["errors"]
    kinds = {key.split()[0] for key in figures["by_kind_and_status"]}
    assert kinds == {"short", "long", "sse", "captioned", "disconnect", "bad", "clone", "listing"}
    threads, fds = figures["threads"], figures["fds"]
    assert threads["last"] <= threads["after_warmup"] + 4, threads
    assert fds["last"] <= fds["after_warmup"] + 8, fds
    rss = figures["rss_mb"]  # warming up (sessions, clones, caches) takes a minute or two; a leak keeps growing
    second, _, fourth = rss["quarter_medians"][1:]
    # Clones coming and going move a quarter's median by tens of MB either way (one run's second
    # quarter dipped to 476 and its fourth came to 540 while it ended at 459, below the 517 it had
    # warmed up to), so growth counts as a leak where the end shows it as well as the quarters.
    assert fourth - second < 64 or rss["last"] - rss["after_warmup"] < 64, rss
    minutes = figures["first_audio_s_by_minute"]
    first, last = minutes[min(minutes)], minutes[max(minutes)]
    assert last["p95"] <= 2 * first["p95"] + 0.1, minutes
