"""Pitch moved by Praat's overlap-add (parselmouth), one stretch between quiet gaps at a time.

Praat's manipulation tracks F0 with its path finder, places a pulse on every glottal cycle
by cross-correlation, and lays each cycle at the new spacing (PSOLA). On joe, raising the
level by 3.57 st this way cost 0.07 in DistillMOS where our own TD-PSOLA (audio/psola.py)
cost 0.33 (the thirty sentences of benchmarks/frontend_en_fresh5.txt, paired;
benchmarks/README.md, "joe's pitch path: Praat's overlap-add"). Our TD-PSOLA with Praat's
F0 track recovered about half of that, so the difference is in both the analysis and the
overlap-add, and the library is kept whole rather than imitated.

Praat analyses a whole sound (its path finder looks at every frame), so a stream cannot
hand it samples as they come. The signal is cut instead where it is quiet for a while (the
closure of a stop, a pause), which happens every few syllables, and each stretch is moved
on its own. The cuts depend only on the samples, never on how they arrived, so a stream
and the whole signal are cut alike and come out sample for sample the same; at a quiet cut
the two stretches meet without an audible join. The first stretch may also end at an
unvoiced point (where Praat's overlap-add copies the signal, so the join is as clean), since
a stream's first audio waits for it.
"""

from __future__ import annotations

import numpy as np

FRAME_S = 0.01
#: A frame this quiet (RMS, dB full scale) is a gap where the signal may be cut: below
#: every voiced frame of joe's speech, above his stop closures and pauses.
QUIET_DBFS = -45.0
#: Quiet frames in a row before a cut is made, in the middle of the run's first two.
QUIET_FRAMES = 3
#: No stretch shorter than this (Praat needs three periods of its floor, 50 ms, to find a
#: pitch)...
SHORTEST_S = 0.1
#: ... and none longer: without a gap, the cut goes at the quietest frame within this reach.
LONGEST_S = 1.5
#: Praat's pitch search band: wide, since its path finder, not the band, keeps octaves right.
PITCH_FLOOR_HZ, PITCH_CEILING_HZ = 60.0, 400.0


def move_pitch(samples: np.ndarray, sample_rate: int, pitch_st: float, pitch_range: float,
               center_hz: float, first_reach_s: float | None = None) -> np.ndarray:
    """`samples` with their F0 raised `pitch_st` semitones and its range scaled by
    `pitch_range` around `center_hz`, stretch by stretch (`PraatPitch`)."""
    return PraatPitch(sample_rate, pitch_st, pitch_range, center_hz, first_reach_s).process(samples, final=True)


class PraatPitch:
    """`move_pitch` on a signal that arrives in blocks: a stretch is handed over once the gap
    after it is certain, so the output lags the input by up to `LONGEST_S`.

    `first_reach_s` (a stream's first window) is all the first stretch is decided on, so the
    first audio need not wait for the second window: at a quiet gap in it, else at an unvoiced
    point in it, else as every other stretch. On joe happy, first audio p50 82 / 102 / 111 ->
    77 / 51 / 71 ms (short / medium / long sentences) at no cost DistillMOS hears
    (benchmarks/README.md, "The first stretch, within the first window"). None: every stretch
    waits for a gap."""

    def __init__(self, sample_rate: int, pitch_st: float, pitch_range: float, center_hz: float,
                 first_reach_s: float | None = None) -> None:
        self._rate = sample_rate
        self._frame = int(round(FRAME_S * sample_rate))
        self._log_center = float(np.log(center_hz))
        self._pitch_st, self._pitch_range = pitch_st, pitch_range
        self._pending = np.zeros(0, np.float32)  # everything after the last cut
        # frames the first stretch is decided on; None once that is done (or never asked)
        self._first_reach = None if first_reach_s is None else int(round(first_reach_s / FRAME_S))

    def process(self, block: np.ndarray, final: bool = False) -> np.ndarray:
        self._pending = np.concatenate([self._pending, np.asarray(block, dtype=np.float32)])
        moved = []
        while (cut := self._next_cut()) is not None:
            moved.append(self._move(self._pending[:cut]))
            self._pending, self._first_reach = self._pending[cut:], None
        if final and len(self._pending):
            moved.append(self._move(self._pending))
            self._pending = np.zeros(0, np.float32)
        return np.concatenate(moved) if moved else np.zeros(0, np.float32)

    def _next_cut(self) -> int | None:
        """Where the pending samples are cut (a sample index), once that is certain."""
        frame = self._frame
        count = len(self._pending) // frame
        shortest, longest = int(SHORTEST_S / FRAME_S), int(LONGEST_S / FRAME_S)
        if count <= shortest:
            return None
        levels = self._levels(min(count, longest))  # no cut lies further on
        reach = self._first_reach
        if reach is not None and count >= reach:  # decided on the first window's samples alone, once
            self._first_reach = None
            early = _quiet_gap(levels[:reach], shortest)
            early = self._unvoiced_point(levels[:reach], shortest) if early is None else early
            if early is not None:
                return early * frame
        gap = _quiet_gap(levels, shortest)
        if gap is not None:
            return gap * frame
        if count < longest:
            return None
        return (shortest + int(np.argmin(levels[shortest:longest]))) * frame

    def _unvoiced_point(self, levels: np.ndarray, shortest: int) -> int | None:
        """The quietest frame boundary in [shortest, len(levels)) with a frame on each side
        that Praat's own pitch analysis calls unvoiced (over those first frames, whose `levels`
        are given), if any: there its overlap-add copies the signal, so two stretches meet
        unchanged."""
        import parselmouth

        reach = len(levels)

        sound = parselmouth.Sound(self._pending[:reach * self._frame].astype(np.float64),
                                  sampling_frequency=self._rate)
        try:
            pitch = sound.to_pitch_ac(time_step=FRAME_S, pitch_floor=PITCH_FLOOR_HZ, pitch_ceiling=PITCH_CEILING_HZ)
        except parselmouth.PraatError:
            return None
        # a frame is unvoiced where Praat analysed it (its window fits in) and found no pitch
        unvoiced = np.zeros(reach, bool)
        for time, frequency in zip(pitch.xs(), pitch.selected_array["frequency"]):
            unvoiced[min(reach - 1, int(time / FRAME_S))] = frequency == 0
        boundaries = [index for index in range(max(shortest, 1), reach) if unvoiced[index - 1] and unvoiced[index]]
        if not boundaries:
            return None
        return min(boundaries, key=lambda index: levels[index - 1] + levels[index])

    def _levels(self, count: int) -> np.ndarray:
        frames = self._pending[:count * self._frame].reshape(count, self._frame)
        return 10 * np.log10(np.mean(frames.astype(np.float64) ** 2, axis=1) + 1e-12)

    def _move(self, stretch: np.ndarray) -> np.ndarray:
        """One stretch through Praat's manipulation, with its pitch tier moved; unchanged where
        Praat finds no voiced cycle in it."""
        import parselmouth
        from parselmouth.praat import call

        sound = parselmouth.Sound(stretch.astype(np.float64), sampling_frequency=self._rate)
        try:
            manipulation = call(sound, "To Manipulation", FRAME_S, PITCH_FLOOR_HZ, PITCH_CEILING_HZ)
        except parselmouth.PraatError:  # too short to hold one analysis window
            return stretch
        tier = call(manipulation, "Extract pitch tier")
        if call(tier, "Get number of points") == 0:
            return stretch
        center, raise_ = float(self._log_center), float(self._pitch_st * np.log(2) / 12)
        call(tier, "Formula", f"exp({center!r} + (ln(self) - {center!r}) * {float(self._pitch_range)!r} + {raise_!r})")
        call([tier, manipulation], "Replace pitch tier")
        out = call(manipulation, "Get resynthesis (overlap-add)").values[0].astype(np.float32)
        return out[:len(stretch)] if len(out) >= len(stretch) else np.pad(out, (0, len(stretch) - len(out)))


def _quiet_gap(levels: np.ndarray, shortest: int) -> int | None:
    """The frame boundary of the first cut by quiet gap past `shortest` frames, if any: between
    the first two frames of a run of `QUIET_FRAMES` under `QUIET_DBFS`."""
    run = 0
    for index in range(shortest, len(levels)):
        run = run + 1 if levels[index] < QUIET_DBFS else 0
        if run == QUIET_FRAMES:
            return index - run + 2
    return None
