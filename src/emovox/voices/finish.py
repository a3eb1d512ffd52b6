"""After the search: a clone's long-term spectrum and pitch register moved toward the speaker's.

The style search (adapt.py) moves a Kokoro style pack until GE2E hears the speaker; what a
style pack cannot reach, two measurements of the signal can: the long-term average spectrum
(LTAS) of the reference against the clone's, and the median F0 of each. The finish is an
equalizer of half the smoothed LTAS difference (the other half is the pack's job, and a full
correction overshoots) and a pitch register of the F0 difference, both clipped; it is
measured once per clone, stored with the voice, and applied on every request (the EQ in the
renderer's shaping filter, the register in the planner's controls, as a VITS register clone's
is). No speaker embedder is consulted: the finish cannot overfit a judge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import soxr

from emovox.types import Equalizer

ANALYSIS_RATE = 16_000  # the intake's rate: nothing above 8 kHz is known of the reference
N_FFT = 1024
HOP = 256
#: Frames louder than this percentile of a clip's frame energies: speech, not its pauses.
LOUD_PERCENTILE = 50
#: Smoothing of the difference (Hann window, bins of 15.6 Hz): about 390 Hz wide, an envelope
#: rather than harmonics.
SMOOTH_BINS = 25
#: Share of the LTAS difference the equalizer applies, and its limits.
EQ_SHARE = 0.5
EQ_LIMIT_DB = 10.0
#: Where the curve is kept (the equalizer interpolates between these).
GRID_HZ = tuple(float(f) for f in np.linspace(0, ANALYSIS_RATE / 2, 65))
REGISTER_LIMIT_ST = 4.0


@dataclass(frozen=True)
class Finish:
    pitch_st: float
    equalizer: Equalizer

    def to_dict(self) -> dict:
        return {"pitch_st": round(self.pitch_st, 2), "eq_hz": list(self.equalizer.hz),
                "eq_db": [round(v, 2) for v in self.equalizer.db]}

    @classmethod
    def from_dict(cls, data: dict | None) -> Finish | None:
        if not data:
            return None
        return cls(float(data["pitch_st"]), Equalizer(tuple(map(float, data["eq_hz"])),
                                                      tuple(map(float, data["eq_db"]))))


def _ltas_db(samples: np.ndarray) -> np.ndarray:
    frames = np.lib.stride_tricks.sliding_window_view(samples, N_FFT)[::HOP]
    power = np.abs(np.fft.rfft(frames * np.hanning(N_FFT), axis=1)) ** 2
    energy = power.sum(axis=1)
    loud = energy >= np.percentile(energy, LOUD_PERCENTILE)
    return 10 * np.log10(power[loud].mean(axis=0) + 1e-12)


def _smoothed(db: np.ndarray) -> np.ndarray:
    window = np.hanning(SMOOTH_BINS)
    window /= window.sum()
    padded = np.pad(db, SMOOTH_BINS, mode="edge")
    return np.convolve(padded, window, mode="same")[SMOOTH_BINS:-SMOOTH_BINS]


def measure(reference: np.ndarray, spoken: list[tuple[np.ndarray, int]]) -> Finish:
    """The finish that moves the clone's speech (`spoken`: (samples, rate) of the clone reading
    a few sentences) toward `reference` (the intake's speech, at ANALYSIS_RATE)."""
    from emovox.emotion.reference import measure_samples

    clone_speech = np.concatenate([soxr.resample(s, r, ANALYSIS_RATE) for s, r in spoken]).astype(np.float32)
    difference = _smoothed(_ltas_db(reference) - _ltas_db(clone_speech))
    difference -= difference.mean()  # shape, not loudness: the renderer levels voices itself
    bins_hz = np.fft.rfftfreq(N_FFT, 1 / ANALYSIS_RATE)
    curve = np.clip(EQ_SHARE * np.interp(GRID_HZ, bins_hz, difference), -EQ_LIMIT_DB, EQ_LIMIT_DB)
    speaker, clone = measure_samples(reference, ANALYSIS_RATE), measure_samples(clone_speech, ANALYSIS_RATE)
    pitch_st = float(np.clip(12 * np.log2(speaker.f0_hz / clone.f0_hz), -REGISTER_LIMIT_ST, REGISTER_LIMIT_ST))
    return Finish(pitch_st, Equalizer(GRID_HZ, tuple(float(v) for v in curve)))
