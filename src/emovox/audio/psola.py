"""TD-PSOLA: pitch modification that keeps the voice's own waveform, period by period.

Analysis marks are placed one pitch period apart through voiced speech (snapped to the
waveform's main peak in each period) and every 10 ms elsewhere. Each synthesis mark takes
the two-period, Hann-windowed grain around the nearest analysis mark and adds it at the
new spacing, so timing is kept and only the period changes.

The sum is divided by the sum of the windows laid down at each sample: where periods vary
or grains overlap more (a raised pitch), plain overlap-add swells and ripples in amplitude,
which DistillMOS heard as artifacts (joe's fearful reading scored 0.21 higher with the
division, and an unchanged pitch is then reproduced exactly). The Mandarin voice measured
the other way (surprised 0.6 lower with the division; as before when only gaps are filled):
a raised voice there should come out louder, so each backend chooses
(`Capabilities.pitch_keeps_level`).

Unlike vocoder resynthesis, the excitation is never rebuilt, which matters for rough or
breathy voices: WORLD resynthesis of the joe voice came out so aperiodic that pYIN found
almost no voiced frames in it, while this keeps the voicing the model produced.
"""

from __future__ import annotations

import functools

import numpy as np

UNVOICED_STEP_S = 0.01
#: Below this window sum (the very edges of the signal) the sum is not divided out.
MIN_COVERAGE = 0.5


def _next_cycle(samples: np.ndarray, previous: float, period: float) -> float:
    """Where the cycle that starts at `previous` repeats, about one `period` later: the lag
    within +-20 % of a period whose stretch best matches this one (the first of equals), among
    the lags whose stretch lies wholly inside the samples."""
    half = int(period / 2)
    start = int(previous)
    reference = samples[max(0, start - half):start + half]
    first, last = int(0.8 * period), min(int(1.2 * period), len(samples) - start - half)
    if half == 0 or len(reference) != 2 * half or last < first:
        return previous + period
    scores = np.correlate(samples[start + first - half:start + last + half], reference, "valid")
    return float(start + first + int(np.argmax(scores)))


@functools.lru_cache(maxsize=512)
def _hann(length: int) -> np.ndarray:
    """A grain's window (periods repeat, so a stream asks for the same few lengths again and again)."""
    window = np.hanning(length).astype(np.float32)
    window.flags.writeable = False
    return window


def psola(samples: np.ndarray, sample_rate: int, f0: np.ndarray, target_f0: np.ndarray, hop_s: float,
          keep_level: bool = True) -> np.ndarray:
    """`samples` with its F0 moved from `f0` to `target_f0` (both per hop, 0 = unvoiced).

    `keep_level`: divide out the whole window sum (see the module's docstring); else each
    period keeps its energy, so a raised pitch comes out louder than the consonants around it."""
    voiced_f0 = np.asarray(f0)[np.asarray(f0) > 0]
    longest_s = max(UNVOICED_STEP_S, 1.0 / voiced_f0.min()) if len(voiced_f0) else UNVOICED_STEP_S
    shifter = Psola(sample_rate, hop_s, longest_s, keep_level)
    return shifter.process(samples, f0, target_f0, final=True)


class Psola:
    """`psola` on a signal that arrives in blocks, with its F0 track known as far as it goes:
    the same samples as one call on the whole, a block's worth at a time.

    Analysis marks are placed as far as the samples and the F0 track allow; a synthesis grain
    is laid once the marks around its position and the samples under its grain are there; the
    output is handed over up to where a later grain could still reach (one longest period
    before the next synthesis position), so it lags the input by about two periods."""

    def __init__(self, sample_rate: int, hop_s: float, longest_period_s: float, keep_level: bool = True) -> None:
        """`longest_period_s`: the longest period the F0 track can hold (1 / the band's floor)."""
        self._rate, self._hop = sample_rate, hop_s * sample_rate
        self._reach = int(np.ceil(max(longest_period_s, UNVOICED_STEP_S) * sample_rate)) + 1
        self._keep_level = keep_level
        self._x = np.zeros(0, np.float32)
        self._out = np.zeros(0, np.float32)
        self._coverage = np.zeros(0, np.float32)
        self._marks: list[float] = []
        self._periods: list[float] = []
        self._voiced: list[bool] = []
        self._next_mark = 0.0  # where the analysis goes on
        self._marked_all = False
        self._position: float | None = None  # the next synthesis mark
        self._emitted = 0

    def process(self, block: np.ndarray, f0: np.ndarray, target_f0: np.ndarray, final: bool = False) -> np.ndarray:
        """The output that is now settled, after `block` is appended. `f0` and `target_f0` are the
        tracks from the start of the signal as far as they are known (they may only grow)."""
        self._x = np.concatenate([self._x, np.asarray(block, dtype=np.float32)])
        grown = len(self._x) + self._reach
        if grown > len(self._out):
            self._out = np.pad(self._out, (0, grown - len(self._out)))
            self._coverage = np.pad(self._coverage, (0, grown - len(self._coverage)))
        self._mark(np.asarray(f0), final)
        self._synthesize(np.asarray(target_f0), final)
        end = len(self._x) if final else max(self._emitted, min(len(self._x), int(self._synthesized_to())))
        coverage = self._coverage[self._emitted:end]
        if not self._keep_level:  # gaps are still filled; only the swell of closer grains stays
            coverage = np.minimum(coverage, 1.0)
        settled = self._out[self._emitted:end] / np.maximum(coverage, MIN_COVERAGE)
        self._emitted = end
        return settled

    def _synthesized_to(self) -> float:
        """Below this sample no later grain adds anything."""
        if self._position is None:
            return 0.0
        return np.floor(self._position) - self._reach

    def _mark(self, f0: np.ndarray, final: bool) -> None:
        """Analysis marks as far as they are certain: one period apart through voiced speech,
        every 10 ms elsewhere. The first mark of a voiced run sits on the period's main peak;
        each next one is where the waveform best repeats the previous period (cross-correlation
        within +-20 % of a period), so marks stay on the same point of the cycle even when peaks
        alternate."""
        x, n = self._x, len(self._x)
        while not self._marked_all and self._next_mark < n:
            position = self._next_mark
            frame = int(position / self._hop)
            if frame >= len(f0) and not final:
                return
            frame = min(frame, len(f0) - 1)
            if f0[frame] > 0:
                period = self._rate / f0[frame]
                if not final and position + 1.7 * period + 2 > n:  # the cycle search reads this far
                    return
                if self._marks and self._voiced[-1]:
                    position = _next_cycle(x, self._marks[-1], period)
                else:
                    low, high = int(position), int(min(n, position + period))
                    if high > low:
                        position = float(low + np.argmax(x[low:high]))
                if position >= n:
                    break
                self._marks.append(position)
                self._periods.append(period)
                self._voiced.append(True)
            else:
                self._marks.append(position)
                self._periods.append(UNVOICED_STEP_S * self._rate)
                self._voiced.append(False)
            self._next_mark = self._marks[-1] + (self._periods[-1] if not self._voiced[-1] else 1.0)
        self._marked_all = final or self._marked_all

    def _synthesize(self, target_f0: np.ndarray, final: bool) -> None:
        """Grains laid at the new spacing, as far as the marks, samples and target allow."""
        if not self._marks:
            return
        marks = np.asarray(self._marks)
        n = len(self._x)
        position = marks[0] if self._position is None else self._position
        while position < n:
            if not self._marked_all and (len(marks) < 2 or marks[-1] <= position):
                break
            k = int(np.clip(np.searchsorted(marks, position), 1, len(marks) - 1))
            k = k if abs(marks[k] - position) < abs(marks[k - 1] - position) else k - 1
            half = int(round(self._periods[k]))
            center = int(round(marks[k]))
            frame = int(position / self._hop)
            if not final and (center + half > n or frame >= len(target_f0)):
                break
            frame = min(frame, len(target_f0) - 1)
            window = _hann(2 * half)
            start = int(round(position)) - half
            grain = self._grain(center, half) * window
            low = max(0, -start)
            self._out[start + low:start + 2 * half] += grain[low:]
            self._coverage[start + low:start + 2 * half] += window[low:]
            if self._voiced[k] and target_f0[frame] > 0:
                position += self._rate / target_f0[frame]
            else:  # unvoiced: back onto the analysis marks, so noise is copied, not re-spaced
                following = int(np.searchsorted(marks, position, side="right"))  # known: marks[-1] > position
                position = marks[following] if following < len(marks) else float(n)
        self._position = position

    def _grain(self, center: int, half: int) -> np.ndarray:
        """x[center - half : center + half], zeros outside the signal."""
        low, high = center - half, center + half
        if low >= 0 and high <= len(self._x):
            return self._x[low:high]
        grain = self._x[max(0, low):max(0, min(len(self._x), high))]
        return np.pad(grain, (max(0, -low), high - low - len(grain) - max(0, -low)))
