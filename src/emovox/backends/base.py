"""What every synthesis backend provides: token ids + voice + speed -> waveform, and what it can do.

A backend knows nothing about text or emotion. It declares its abilities once, as a
`Capabilities` value: the languages its voices speak, its sample rate, how many phonemes
one inference takes, where pitch is controlled, whether rows can share a forward pass,
and how a voice is cloned onto it. The catalogue, planner and renderer read those
declarations; nobody probes a backend for methods it might have.

The raw waveform a backend returns carries only what its model does: pitch changes the
model cannot make itself, loudness and tilt are the renderer's (engine/render.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from emovox.backends.symbols import Encoded
from emovox.errors import InvalidOptionError
from emovox.types import Prosody, VoiceInfo


class PitchControl(Enum):
    """Where a backend's pitch (F0 level and range) is changed."""

    #: Inside the model (Kokoro's edited F0 curve): the waveform arrives already reshaped.
    MODEL = "model"
    #: On the waveform after the model (TD-PSOLA), the model's output has neutral pitch.
    SIGNAL = "signal"
    #: The model moves part of the pitch (`Backend.signal_pitch` says what is left), PSOLA on
    #: the waveform the rest.
    MODEL_AND_SIGNAL = "model+signal"

    @property
    def on_signal(self) -> bool:
        return self is not PitchControl.MODEL


class Cloning(Enum):
    """What a cloned voice on this backend is made of."""

    #: A style pack the model is conditioned on (timbre and pitch).
    STYLE = "style"
    #: The backend's own voice moved to another pitch register (level, range): no timbre.
    REGISTER = "register"
    #: The model has one speaker and cannot take another.
    NONE = "none"


@dataclass(frozen=True)
class Capabilities:
    languages: tuple[str, ...]
    sample_rate: int
    #: Longest phoneme sequence one inference takes; the frontend cuts segments to fit.
    max_phonemes: int
    pitch: PitchControl
    #: Rows with equal `batch_key` can share one padded forward pass (`infer_batch`).
    batching: bool
    cloning: Cloning
    #: Shape of the conditioning tensor a cloned voice stores (None: cannot be cloned onto).
    conditioning_shape: tuple[int, ...] | None = None
    #: The F0 band (Hz) that holds this backend's voices, for pitch analysis on the signal.
    f0_band: tuple[float, float] = (60.0, 400.0)
    #: Pitch moved on the signal keeps the speech level (True), or each period keeps its
    #: energy so a raised voice is louder (False); chosen per backend by DistillMOS (psola.py).
    pitch_keeps_level: bool = True
    #: The voice's own median F0 (Hz): pitch range is scaled around it, not around each
    #: utterance's median, so that a stream can reshape pitch before the utterance is over
    #: (`effects.PitchShaper`). None: around the utterance's median, on the whole waveform.
    f0_center_hz: float | None = None
    #: What moves that pitch: "praat" (Praat's overlap-add, stretch by stretch between quiet
    #: gaps, around `f0_center_hz`: audio/praat_pitch.py) or "psola" (our TD-PSOLA:
    #: audio/psola.py); chosen per backend by DistillMOS.
    pitch_shifter: Literal["psola", "praat"] = "psola"
    #: `infer_timed` says where each id sounds (from the model's own duration predictor).
    timing: bool = False
    #: The phoneme alphabet `encode` reads: "ipa" (espeak-ng's) or "misaki" (Kokoro's training
    #: alphabet, the only one a model distilled on it reads well).
    alphabet: str = "ipa"
    #: The model realizes loudness and spectral tilt itself (`Prosody.energy_db`, `tilt_db`);
    #: otherwise the renderer shapes the waveform after it.
    level_in_model: bool = False
    #: The model's text side and its waveform decoder run apart (`prepare`), so a segment's
    #: audio can be decoded window by window as it streams.
    streaming: bool = False


@dataclass(frozen=True)
class Frames:
    """A segment after its model's text side: what the waveform decoder renders, a window at a time.

    `decode(start, end)` is the audio of frames [start, end) as the whole segment would have
    it (whatever context the decoder needs around a window is the backend's business).
    `voiced` marks the frames inside voicing, where a join between windows could be heard;
    `speech` is the [first, last) frames that hold speech, the model's own leading and
    trailing silence outside it; `spans` says where each id sounds (samples from frame 0).
    `exact`: windows give the samples `infer_timed` gives (False where they only sound alike,
    so the streamed audio is not cached as the segment's). `cheap`: decoding costs little next
    to handing a piece on (heart's signal stage renders a second in about a millisecond), so
    only the first window waits for the first audio and the rest comes in one piece. `growth`:
    how much longer each window is than the one before (engine/windows.py): a decoder far
    faster than real time takes few, long windows, each call having a cost of its own."""

    count: int
    samples_per_frame: int
    spans: np.ndarray
    voiced: np.ndarray
    speech: tuple[int, int]
    decode: Callable[[int, int], np.ndarray]
    exact: bool = True
    cheap: bool = False
    growth: float = 2.0


def spans(durations: np.ndarray) -> np.ndarray:
    """Consecutive durations (samples) as [start, end) spans."""
    ends = np.cumsum(np.asarray(durations, np.int64))
    return np.stack([ends - durations, ends], axis=1) if len(ends) else np.zeros((0, 2), np.int64)


#: One row of a batch: ids, voice, speed and the controls the model itself takes.
Row = tuple[list[int], str, float, Prosody]


class Backend(Protocol):
    name: str
    capabilities: Capabilities

    @property
    def sample_rate(self) -> int:
        return self.capabilities.sample_rate

    @property
    def max_phonemes(self) -> int:
        return self.capabilities.max_phonemes

    def voices(self) -> list[VoiceInfo]:
        """The stock voices this backend speaks with."""

    def encode(self, phonemes: str) -> Encoded:
        """Phonemes in this backend's alphabet -> the id sequence its model takes."""

    def infer(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> np.ndarray:
        """One forward pass: float32 mono samples at `sample_rate`, shaped only by what the
        model controls itself (`capabilities.pitch`). A backend defines this or `infer_timed`
        (each defaults to the other)."""
        return self.infer_timed(ids, voice, speed, prosody)[0]

    def infer_timed(self, ids: list[int], voice: str, speed: float,
                    prosody: Prosody = Prosody()) -> tuple[np.ndarray, np.ndarray]:
        """The waveform and, for each id, the samples where it sounds: an array [ids, 2] of start
        and end (empty where `capabilities.timing` is false)."""
        return self.infer(ids, voice, speed, prosody), np.zeros((0, 2), np.int64)

    def prepare(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> Frames:
        """Run the text side once; the waveform follows window by window (`Frames.decode`).
        Only where `capabilities.streaming` says so."""
        raise InvalidOptionError(f"the {self.name} backend does not decode in windows")

    def infer_batch(self, rows: list[Row]) -> list[np.ndarray]:
        """Rows with equal `batch_key` in one pass; one at a time where the model has no batches."""
        return [samples for samples, _ in self.infer_batch_timed(rows)]

    def infer_batch_timed(self, rows: list[Row]) -> list[tuple[np.ndarray, np.ndarray]]:
        return [self.infer_timed(*row) for row in rows]

    def signal_pitch(self, prosody: Prosody) -> tuple[float, float]:
        """(semitones, range factor) of `prosody` left for TD-PSOLA on the waveform after the
        model: all of it where the pitch is changed on the signal, none where in the model."""
        if not self.capabilities.pitch.on_signal:
            return 0.0, 1.0
        return prosody.pitch_st, prosody.pitch_range

    def batch_key(self, speed: float, prosody: Prosody) -> object | None:
        """Rows with equal keys can share a forward pass; None where this backend never batches."""
        return None

    @property
    def model_path(self) -> Path | None:
        """The model file inference runs on (its size is what a deployment carries)."""

    def load(self) -> None:
        """Build the inference session now instead of on first use."""

    def add_voice(self, name: str, conditioning: np.ndarray) -> None:
        """Speak as a cloned voice conditioned on `conditioning` (a style pack), under `name`.
        The catalogue calls this only where `capabilities.cloning` is STYLE; a backend without
        style conditioning refuses."""
        raise InvalidOptionError(f"the {self.name} backend takes no style pack (its cloning is "
                                 f"{self.capabilities.cloning.value})")

    def remove_voice(self, name: str) -> None:
        """Forget a cloned voice."""
