"""Prosody measures of an utterance, and their change relative to a neutral reading.

As the project is judged: F0 at a 10 ms hop from WORLD's Harvest or from pYIN (librosa),
voiced frames only; level = median F0, range = P90 - P10 in semitones; duration after
trimming leading and trailing audio quieter than -40 dB below the peak; energy = RMS in dB
over voiced frames. The two F0 estimators disagree on the joe voice (weak fundamental at
about 85 Hz): Harvest reads a third to half of his frames an octave up, pYIN does not.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

HOP_S = 0.01
_TRIM_DB = -40.0


@dataclass(frozen=True)
class ProsodyMeasure:
    f0_median_hz: float
    range_st: float
    duration_s: float
    energy_db: float

    def relative_to(self, neutral: ProsodyMeasure) -> ProsodyChange:
        return ProsodyChange(
            f0_st=12 * np.log2(self.f0_median_hz / neutral.f0_median_hz),
            range_ratio=self.range_st / neutral.range_st,
            duration_ratio=self.duration_s / neutral.duration_s,
            energy_db=self.energy_db - neutral.energy_db,
        )


@dataclass(frozen=True)
class ProsodyChange:
    f0_st: float
    range_ratio: float
    duration_ratio: float
    energy_db: float

    def to_dict(self) -> dict:
        return {k: round(float(v), 3) for k, v in asdict(self).items()}


ESTIMATORS = ("harvest", "pyin")
PYIN_BAND = (50.0, 800.0)  # joe speaks at 85 Hz and lower when sad


def f0_track(x: np.ndarray, sample_rate: int, estimator: str = "harvest") -> np.ndarray:
    """F0 per 10 ms frame, 0 where unvoiced."""
    if estimator == "harvest":
        import pyworld

        f0, _ = pyworld.harvest(x, sample_rate, frame_period=HOP_S * 1000)
        return f0
    if estimator == "pyin":
        import librosa  # benchmark-only dependency (the `bench` extra)

        hop = int(HOP_S * sample_rate)
        f0, voiced, _ = librosa.pyin(x, fmin=PYIN_BAND[0], fmax=PYIN_BAND[1], sr=sample_rate,
                                     hop_length=hop, frame_length=4 * hop)
        return np.where(voiced & np.isfinite(f0), f0, 0.0)
    raise ValueError(f"unknown F0 estimator {estimator!r}; choose one of {', '.join(ESTIMATORS)}")


def measure(samples: np.ndarray, sample_rate: int, estimator: str = "harvest") -> ProsodyMeasure:
    x = np.asarray(samples, dtype=np.float64)
    frame = int(HOP_S * sample_rate)
    count = len(x) // frame
    if count == 0:
        raise ValueError("audio too short to measure")
    rms = np.sqrt((x[: count * frame].reshape(count, frame) ** 2).mean(axis=1) + 1e-12)
    loud = np.flatnonzero(20 * np.log10(rms / rms.max()) > _TRIM_DB)
    duration = (loud[-1] - loud[0] + 1) * HOP_S
    f0 = f0_track(x, sample_rate, estimator)
    voiced = f0 > 0
    if voiced.sum() < 5:
        raise ValueError("audio has too few voiced frames to measure pitch")
    f = f0[voiced]
    frames = min(len(f0), count)
    voiced_rms = rms[:frames][voiced[:frames]]
    return ProsodyMeasure(
        f0_median_hz=float(np.median(f)),
        range_st=float(12 * np.log2(np.percentile(f, 90) / np.percentile(f, 10))),
        duration_s=float(duration),
        energy_db=float(20 * np.log10(np.sqrt((voiced_rms**2).mean()) + 1e-12)),
    )


def emotion_changes(engine, voice: str, sentence: str, emotions, intensities=(1.0,),
                    estimator: str = "harvest") -> dict:
    """{(emotion, intensity): ProsodyChange} for one sentence, against its neutral reading."""
    from emovox.emotion.model import Emotion

    neutral = engine.synthesize(sentence, voice=voice)
    reference = measure(neutral.samples, neutral.sample_rate, estimator)
    changes = {}
    for name in emotions:
        for intensity in intensities:
            audio = engine.synthesize(sentence, voice=voice, emotion=Emotion(name, intensity))
            changes[name, intensity] = measure(audio.samples, audio.sample_rate, estimator).relative_to(reference)
    return changes
