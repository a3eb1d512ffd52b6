"""hibari (`hibari-tts`, 8 MB int8 ONNX, 24 kHz): the native American voice `heart`.

A network distilled from Kokoro's af_heart that predicts durations, F0, energy and, per
12.5 ms frame, harmonic and noise parameters; a small signal stage turns them into audio
(harmonic_noise.py). Every emotion control is realized inside those parameters:

- F0 level and range on the predicted F0 track, and loudness on the predicted energy,
  before the decoder, so the spectra are the model's own for that contour and effort
  (hibari_graph.py edits the graph once to take them);
- rate through the model's speed input (durations);
- voice quality in the signal stage's filters: the emotion's spectral tilt as a shelf, and
  the noise against the harmonics, breathier as the tilt darkens (sad, fearful) and tenser
  as it brightens (angry).

It reads misaki phonemes (frontend/g2p/misaki.py). The noise component is drawn from a
generator seeded by the call's inputs, so the same call always gives the same samples (the
audio cache and resumable books rely on that).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import zlib
from pathlib import Path

import numpy as np

from emovox.backends import assets, hibari_graph
from emovox.backends.base import Backend, Capabilities, Cloning, Frames, PitchControl, spans
from emovox.backends.harmonic_noise import HOP, SAMPLE_RATE, HarmonicNoise, VoiceQuality
from emovox.backends.session import LazySession, SessionSettings
from emovox.backends.symbols import Encoded, SymbolTable
from emovox.paths import cache_dir
from emovox.types import Prosody, VoiceInfo

#: ONNX Runtime threads for this 8 MB model unless the deployment sets them: its operators
#: are too small to gain from a second core (a sentence on this 2-core machine, idle: 35.4 ms
#: on one thread, 36.6 ms on ORT's default of every core), and when the other core is busy
#: (concurrent requests) a second thread waits for it (53 ms against 73 ms).
OWN_THREADS = 1

PACKAGE = "hibari"
PIP_NAME = "hibari-tts"
VOICE = "heart"
#: hibari itself splits sentences longer than this at clauses; so does our frontend.
MAX_PHONEMES = 400
PAD_ID = 0
#: Units of the model's energy value per dB of loudness asked for (measured on five sentences:
#: +1 unit raised the speech level by about 12 dB); the emotion calibration corrects the rest.
ENERGY_PER_DB = 1 / 12
#: Noise level change (dB) per dB of spectral tilt: darker is breathier, brighter is tenser.
BREATH_PER_TILT_DB = -1.5


def voice_quality(prosody: Prosody) -> VoiceQuality:
    return VoiceQuality(tilt_db=prosody.tilt_db, breath_db=BREATH_PER_TILT_DB * prosody.tilt_db)


class HibariBackend(Backend):
    name = "hibari"
    capabilities = Capabilities(languages=("en",), sample_rate=SAMPLE_RATE, max_phonemes=MAX_PHONEMES,
                                pitch=PitchControl.MODEL, batching=False, cloning=Cloning.NONE,
                                f0_band=(90.0, 500.0), timing=True, alphabet="misaki", level_in_model=True,
                                streaming=True)

    def __init__(self, session: LazySession, vocab: dict[str, int]) -> None:
        self._session = session
        self._symbols = SymbolTable.from_single_ids(vocab)

    @classmethod
    def from_package(cls, settings: SessionSettings = SessionSettings(), cache: Path | None = None) -> HibariBackend:
        """The `heart` model and its vocabulary from the `hibari-tts` wheel (the only voice it
        carries; hibari's other voices are downloads, which emovox never makes)."""
        source = assets.package_file(PACKAGE, "assets", "hibari.onnx", pip_name=PIP_NAME)
        vocab = json.loads(assets.package_file(PACKAGE, "assets", "vocab.json", pip_name=PIP_NAME).read_text("utf-8"))

        @functools.cache
        def model_path() -> Path:  # the source hashed and the edit checked once, not per look
            return hibari_graph.prosody_model(source, cache or cache_dir(), assets.sha256_of(source))

        if settings.intra_op_threads is None:
            settings = dataclasses.replace(settings, intra_op_threads=OWN_THREADS)
        return cls(LazySession(model_path, settings), vocab)

    def voices(self) -> list[VoiceInfo]:
        return [VoiceInfo(name=VOICE, backend=self.name, language="en", gender="female", sample_rate=SAMPLE_RATE,
                          aliases=("af_heart", "hibari"),
                          description="American English, native (hibari, distilled from Kokoro's af_heart)")]

    def encode(self, phonemes: str) -> Encoded:
        return self._symbols.lookup(phonemes)

    @property
    def model_path(self) -> Path | None:
        return self._session.model_path

    def load(self) -> None:
        self._session.get()

    def infer_timed(self, ids: list[int], voice: str, speed: float,
                    prosody: Prosody = Prosody()) -> tuple[np.ndarray, np.ndarray]:
        frames = self.prepare(ids, voice, speed, prosody)
        return frames.decode(0, frames.count), frames.spans

    def prepare(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> Frames:
        """The network once; its signal stage a range of frames at a time (exactly the whole's
        samples there: harmonic_noise.HarmonicNoise)."""
        inputs = {
            "ids": np.array([[PAD_ID, *ids, PAD_ID]], dtype=np.int64),
            "speed": np.array([speed * prosody.speed], dtype=np.float32),
            "f0_scale": np.array([2 ** (prosody.pitch_st / 12)], dtype=np.float32),
            "f0_range": np.array([prosody.pitch_range], dtype=np.float32),
            "energy_shift": np.array([prosody.energy_db * ENERGY_PER_DB], dtype=np.float32),
        }
        lh, theta, ln, lr, phi, f0, durations = self._session.get().run(None, inputs)
        seed = zlib.crc32(b"".join(value.tobytes() for value in inputs.values()))
        signal = HarmonicNoise(lh[0], theta[0], ln[0], lr[0], phi[0], f0[0], np.random.default_rng(seed),
                               voice_quality(prosody))
        units = np.asarray(durations, np.int64).reshape(-1)
        per_unit = hibari_graph.SAMPLES_PER_DURATION // HOP
        speech = (int(units[0]) * per_unit, signal.count)  # the end: the renderer's level trim
        return Frames(count=signal.count, samples_per_frame=HOP,
                      spans=spans(units * hibari_graph.SAMPLES_PER_DURATION)[1:-1],
                      voiced=np.zeros(signal.count, bool), speech=speech,
                      decode=lambda start, end: signal.render(start, end), cheap=True)
