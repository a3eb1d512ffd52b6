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

import numpy as np

UNVOICED_STEP_S = 0.01
#: Below this window sum (the very edges of the signal) the sum is not divided out.
MIN_COVERAGE = 0.5


def analysis_marks(samples: np.ndarray, sample_rate: int, f0: np.ndarray, hop_s: float):
    """(marks, periods, voiced) in samples, following the F0 track (0 = unvoiced, per hop).

    The first mark of a voiced run sits on the period's main peak; each next one is where the
    waveform best repeats the previous period (cross-correlation within +-20 % of a period),
    so marks stay on the same point of the cycle even when peaks alternate."""
    n, hop = len(samples), hop_s * sample_rate
    marks, periods, voiced = [], [], []
    position = 0.0
    while position < n:
        frame = min(int(position / hop), len(f0) - 1)
        if f0[frame] > 0:
            period = sample_rate / f0[frame]
            if marks and voiced[-1]:
                position = _next_cycle(samples, marks[-1], period)
            else:
                low, high = int(position), int(min(n, position + period))
                if high > low:
                    position = float(low + np.argmax(samples[low:high]))
            if position >= n:
                break
            marks.append(position)
            periods.append(period)
            voiced.append(True)
        else:
            period = UNVOICED_STEP_S * sample_rate
            marks.append(position)
            periods.append(period)
            voiced.append(False)
        position = marks[-1] + (periods[-1] if not voiced[-1] else 1.0)
    return np.array(marks), np.array(periods), np.array(voiced)


def _next_cycle(samples: np.ndarray, previous: float, period: float) -> float:
    """Where the cycle that starts at `previous` repeats, about one `period` later."""
    half = int(period / 2)
    start = int(previous)
    reference = samples[max(0, start - half):start + half]
    best, best_score = previous + period, -np.inf
    for lag in range(int(0.8 * period), int(1.2 * period) + 1):
        candidate = samples[max(0, start + lag - half):start + lag + half]
        if len(candidate) != len(reference) or not len(reference):
            break
        score = float(np.dot(reference, candidate))
        if score > best_score:
            best, best_score = float(start + lag), score
    return best


def psola(samples: np.ndarray, sample_rate: int, f0: np.ndarray, target_f0: np.ndarray, hop_s: float,
          keep_level: bool = True) -> np.ndarray:
    """`samples` with its F0 moved from `f0` to `target_f0` (both per hop, 0 = unvoiced).

    `keep_level`: divide out the whole window sum (see the module's docstring); else each
    period keeps its energy, so a raised pitch comes out louder than the consonants around it."""
    x = np.asarray(samples, dtype=np.float32)
    n, hop = len(x), hop_s * sample_rate
    marks, periods, voiced = analysis_marks(x, sample_rate, f0, hop_s)
    longest = int(np.ceil(periods.max())) + 1
    padded = np.pad(x, longest)
    out = np.zeros(n + 2 * longest, np.float32)
    coverage = np.zeros(n + 2 * longest, np.float32)
    position = marks[0]
    while position < n:
        k = int(np.clip(np.searchsorted(marks, position), 1, len(marks) - 1))
        k = k if abs(marks[k] - position) < abs(marks[k - 1] - position) else k - 1
        half = int(round(periods[k]))
        center = int(round(marks[k])) + longest
        window = np.hanning(2 * half).astype(np.float32)
        start = int(round(position)) + longest - half
        out[start:start + 2 * half] += padded[center - half:center + half] * window
        coverage[start:start + 2 * half] += window
        frame = min(int(position / hop), len(target_f0) - 1)
        if voiced[k] and target_f0[frame] > 0:
            position += sample_rate / target_f0[frame]
        else:  # unvoiced: back onto the analysis marks, so noise is copied, not re-spaced
            following = int(np.searchsorted(marks, position, side="right"))
            position = marks[following] if following < len(marks) else float(n)
    if not keep_level:  # gaps are still filled; only the swell of closer grains stays
        coverage = np.minimum(coverage, 1.0)
    out /= np.maximum(coverage, MIN_COVERAGE)
    return out[longest:longest + n]
