"""The live listener of the streaming benchmarks: when does a stream run dry?"""

from __future__ import annotations

import math

from emovox.server.playback import Listener


def test_a_stream_that_stays_ahead_of_playback_never_underruns():
    listener = Listener(opened=0.0)
    listener.received(0.2, 0.25)  # first audio 200 ms after the request
    listener.received(0.4, 0.5)   # due by 0.45
    listener.received(0.9, 1.0)   # due by 0.95
    assert listener.first_audio_s == 0.2 and listener.heard_s == 1.75
    assert not listener.underran and math.isclose(listener.late_s, -0.05)


def test_a_piece_after_the_audio_before_it_has_played_is_an_underrun():
    listener = Listener(opened=0.0)
    listener.received(0.1, 0.25)
    listener.received(0.3, 0.5)
    listener.received(0.9, 1.0)  # 0.85 was the last moment: 50 ms of silence heard
    assert listener.underran and math.isclose(listener.late_s, 0.05)


def test_a_stream_that_never_started_counts_as_run_dry():
    listener = Listener(opened=0.0)
    listener.received(0.5, 0.0)  # an empty block is no audio
    assert listener.underran and math.isnan(listener.first_audio_s)
