"""Naturalness: DistillMOS, a learned MOS predictor that reacts to synthesis and pitch-shift
artifacts (its weights ship in its wheel), per voice and emotion.

Needs torch (the parity extra) and `pip install --no-deps distillmos==0.9.1 xls-r-sqa==0.1.0`
(`make test` and `make bench` install them): distillmos imports torchaudio, whose wheels pin
an older torch, only for its command line, so an empty module stands in for it here.
"""

from __future__ import annotations

import statistics
import sys
import types
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from emovox.emotion.model import EMOTIONS
from emovox.options import SpeechOptions

MOS_RATE = 16_000
#: Issue 15's gate: no emotion at intensity 1.0 more than this below the voice's neutral median.
ALLOWED_DROP = 0.3


class DistillMos:
    """DistillMOS on a waveform at any rate (the model loads on first use)."""

    @cached_property
    def _model(self):
        sys.modules.setdefault("torchaudio", types.ModuleType("torchaudio"))  # only its CLI reads files
        from distillmos import ConvTransformerSQAModel

        return ConvTransformerSQAModel().eval()

    def __call__(self, samples: np.ndarray, sample_rate: int) -> float:
        import soxr
        import torch

        audio = soxr.resample(samples, sample_rate, MOS_RATE).astype(np.float32)
        with torch.no_grad():
            return float(self._model(torch.from_numpy(audio)[None]).item())


def scores_by_emotion(engine, mos: DistillMos, voice: str, sentences: Sequence[str]) -> dict[str, list[float]]:
    """DistillMOS of each sentence, neutral and in every emotion at intensity 1.0."""
    scores = {}
    for emotion in EMOTIONS:
        options = SpeechOptions(voice=voice, emotion=emotion, intensity=1.0)
        scores[emotion] = [mos(a.samples, a.sample_rate) for a in
                           (engine.synthesize(text, options=options) for text in sentences)]
    return scores


def drops(scores: dict[str, list[float]]) -> dict[str, float]:
    """Each emotion's median minus the neutral median."""
    neutral = statistics.median(scores["neutral"])
    return {emotion: statistics.median(values) - neutral for emotion, values in scores.items() if emotion != "neutral"}
