"""A listener who plays a stream as it arrives: when does its audio run dry?

Playback starts with the first audio and then runs without a pause, one second of audio a
second. A stream keeps up when every later piece arrives before the audio ahead of it has
finished playing. The scheduler orders streams in progress by `due` (the moment each
request's listener would run dry); the benchmarks count the
listeners who ran dry (`late_s`, the most any piece was late: negative when none was, by
that margin).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Listener:
    #: When the request went out (any clock, as long as `received` uses the same one).
    opened: float
    first: float | None = None
    heard_s: float = 0.0
    late_s: float = -math.inf

    def received(self, at: float, seconds: float) -> None:
        """`seconds` of audio arrived at time `at`."""
        if seconds <= 0:
            return
        if self.first is None:
            self.first = at
        else:
            self.late_s = max(self.late_s, at - (self.first + self.heard_s))
        self.heard_s += seconds

    def due(self) -> float:
        """When the next audio must arrive: at once before any has, then the moment what has
        arrived finishes playing."""
        return self.opened if self.first is None else self.first + self.heard_s

    @property
    def first_audio_s(self) -> float:
        return math.nan if self.first is None else self.first - self.opened

    @property
    def underran(self) -> bool:
        return self.first is None or self.late_s > 0
