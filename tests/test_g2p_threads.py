"""espeak-ng is a process-wide C library that can be initialized once: threads whose first
sentences arrive together must share one initialization. Before the loader took a lock,
about one process in three died in espeak_Initialize when eight threads phonemized at once."""

from __future__ import annotations

import subprocess
import sys

FIRST_SENTENCES_TOGETHER = """
import threading
from emovox.frontend.g2p.english import EnglishG2P

start = threading.Barrier(8)
results = []

def first_sentence():
    g2p = EnglishG2P()
    start.wait()
    results.append(g2p("Hello there."))

threads = [threading.Thread(target=first_sentence) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
assert len(set(results)) == 1 and len(results) == 8, results
"""


def test_threads_whose_first_sentences_arrive_together_share_one_espeak():
    for _ in range(4):  # each process gets one first call, so the race is run in several
        run = subprocess.run([sys.executable, "-c", FIRST_SENTENCES_TOGETHER], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, f"exit {run.returncode}: {run.stderr[-2000:]}"
