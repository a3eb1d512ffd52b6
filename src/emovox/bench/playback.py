"""A listener who plays a stream as it arrives: does the audio ever run dry?

Playback starts with the first audio and then runs without a pause, one second of audio a
second. The stream keeps up when every later piece arrives before the audio ahead of it has
finished playing; `late_s` is the most any piece was late (negative: it never ran dry, by
that margin). The first piece is the time to first audio, which is measured on its own.
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

    @property
    def first_audio_s(self) -> float:
        return math.nan if self.first is None else self.first - self.opened

    @property
    def underran(self) -> bool:
        return self.first is None or self.late_s > 0
