"""Tiny ONNX voices the fast tests build for themselves (no model package needed).

Like piper's test voice, they are real models in the real formats, run by ONNX Runtime
through the real backends, only untrained: each input id becomes frames of a tone of its
own pitch, so the output is deterministic, non-silent, as long as the ids ask, and its
length follows the rate control. Three of them:

- a Piper VITS voice (`.onnx` + `.onnx.json`): `input[B,T]`, `input_lengths[B]`,
  `scales[3]` -> `output[B,1,samples]`, with Piper's frame-length tensor for batches;
- a Kokoro-style model: `tokens[1,T]`, `style[1,256]`, `speed[1]` and the prosody inputs
  kokoro_prosody.py adds (unused: a tiny voice has no F0) -> audio, plus a vocab
  and one style pack, and the same model cut at its decoder the way kokoro_split.py
  cuts Kokoro (text side, decoder with a normalization input, decoder measuring it);
- a FastSpeech2 + vocoder pair with a `baker_mapper.json` and a checksummed manifest, the
  layout `make zh-models` writes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from emovox.backends.kokoro_prosody import DURATIONS_TENSOR as KOKORO_DURATIONS
from emovox.backends.vits import DURATIONS_TENSOR as VITS_DURATIONS
from emovox.backends.vits import FRAME_LENGTHS_TENSOR, HOP
from tiny_vocab import IPA, KOKORO_MODEL, kokoro_packs, kokoro_vocab

SAMPLE_RATE = 16_000
FRAMES_PER_ID = 2
OPSET = [helper.make_opsetid("", 17)]


def _tones(count: int, length: int, rate: int, seed: int) -> np.ndarray:
    """`count` rows of `length` samples: a tone per id, 90 to 300 Hz, with some noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(length) / rate
    freqs = 90 + 210 * rng.random(count)
    rows = 0.4 * np.sin(2 * np.pi * freqs[:, None] * t[None, :]) + 0.02 * rng.standard_normal((count, length))
    return rows.astype(np.float32)


def _save(graph, path: Path) -> Path:
    model = helper.make_model(graph, opset_imports=OPSET)
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def _duration_nodes(ids: str, frames: str, out: str, to: int) -> list:
    """Nodes giving every id the same duration, ceil(`frames`) (a float [1]), cast to `to`."""
    return [
        helper.make_node("Cast", [ids], [f"{out}_ids_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", [f"{out}_ids_f", "zero_f"], [f"{out}_zeros"]),
        helper.make_node("Add", [f"{out}_zeros", frames], [f"{out}_each"]),
        helper.make_node("Ceil", [f"{out}_each"], [f"{out}_ceil"]),
        helper.make_node("Cast", [f"{out}_ceil"], [out], to=to),
    ]


def _stretch_nodes(frames: str, factor: str, out: str) -> list:
    """Nodes that repeat `frames` [B, T, F] along T by `factor` (a float [1]) with nearest Resize."""
    return [
        helper.make_node("Concat", ["one_f", factor, "one_f"], ["resize_scales"], axis=0),
        helper.make_node("Resize", [frames, "", "resize_scales"], [out], mode="nearest",
                         nearest_mode="floor", coordinate_transformation_mode="asymmetric"),
    ]


def vits_voice(directory: Path, name: str = "tiny") -> tuple[Path, Path]:
    """A Piper-format voice: (model, sidecar)."""
    directory.mkdir(parents=True, exist_ok=True)
    symbols = ["_", "^", "$", *dict.fromkeys(IPA)]
    table = _tones(len(symbols), HOP * FRAMES_PER_ID, SAMPLE_RATE, seed=1)
    nodes = [
        helper.make_node("Gather", ["table", "input"], ["frames"], axis=0),  # [B, T, HOP * k]
        helper.make_node("Slice", ["scales", "one_i", "two_i"], ["length_scale"]),
        *_stretch_nodes("frames", "length_scale", "stretched"),
        helper.make_node("Reshape", ["stretched", "out_shape"], ["output"]),
        # Each row's frames: ceil(length * k * length_scale), as Piper's y_lengths after its Ceil.
        helper.make_node("Cast", ["input_lengths"], ["lengths_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["lengths_f", "frames_per_id"], ["frames_f"]),
        helper.make_node("Mul", ["frames_f", "length_scale"], ["scaled_f"]),
        helper.make_node("Ceil", ["scaled_f"], ["ceiled"]),
        helper.make_node("Cast", ["ceiled"], [FRAME_LENGTHS_TENSOR], to=TensorProto.INT64),
        # Each id's frames, as Piper's w_ceil [B, 1, T]
        helper.make_node("Mul", ["frames_per_id", "length_scale"], ["id_frames"]),
        *_duration_nodes("input", "id_frames", "id_durations", TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["id_durations", "one_i"], [VITS_DURATIONS]),
    ]
    initializers = [
        numpy_helper.from_array(table, "table"),
        numpy_helper.from_array(np.array([1], np.int64), "one_i"),
        numpy_helper.from_array(np.array([2], np.int64), "two_i"),
        numpy_helper.from_array(np.array([1.0], np.float32), "one_f"),
        numpy_helper.from_array(np.array([0, 1, -1], np.int64), "out_shape"),
        numpy_helper.from_array(np.array([float(FRAMES_PER_ID)], np.float32), "frames_per_id"),
        numpy_helper.from_array(np.array(0.0, np.float32), "zero_f"),
    ]
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("input", TensorProto.INT64, ["B", "T"]),
                      helper.make_tensor_value_info("input_lengths", TensorProto.INT64, ["B"]),
                      helper.make_tensor_value_info("scales", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["B", 1, "S"])], initializers)
    model = _save(graph, directory / f"{name}.onnx")
    config = directory / f"{name}.onnx.json"
    config.write_text(json.dumps({
        "audio": {"sample_rate": SAMPLE_RATE}, "espeak": {"voice": "en-us"}, "language": {"code": "en_US"},
        "inference": {"noise_scale": 0.667, "length_scale": 1.0, "noise_w": 0.8}, "num_speakers": 1,
        "phoneme_id_map": {symbol: [index] for index, symbol in enumerate(symbols)},
    }, ensure_ascii=False), "utf-8")
    return model, config


def kokoro_model(directory: Path) -> tuple[Path, dict[str, int], dict[str, np.ndarray]]:
    """A Kokoro-format model at 24 kHz: (model, vocab, voice packs)."""
    directory.mkdir(parents=True, exist_ok=True)
    vocab = kokoro_vocab()
    table = _tones(len(vocab) + 1, 600, 24_000, seed=2)
    nodes = [
        helper.make_node("Gather", ["table", "tokens"], ["frames"], axis=0),  # [1, T, 600]
        helper.make_node("Div", ["one_f", "speed"], ["length_scale"]),
        *_stretch_nodes("frames", "length_scale", "stretched"),
        helper.make_node("ReduceMean", ["style"], ["style_mean"], keepdims=0),
        helper.make_node("Add", ["style_mean", "one_f"], ["gain"]),
        helper.make_node("Reshape", ["stretched", "flat"], ["flat_audio"]),
        helper.make_node("Mul", ["flat_audio", "gain"], ["audio"]),
        helper.make_node("Reshape", ["tokens", "flat"], ["token_row"]),
        *_duration_nodes("token_row", "length_scale", KOKORO_DURATIONS, TensorProto.INT64),
    ]
    initializers = [numpy_helper.from_array(table, "table"),
                    numpy_helper.from_array(np.array([1.0], np.float32), "one_f"),
                    numpy_helper.from_array(np.array(0.0, np.float32), "zero_f"),
                    numpy_helper.from_array(np.array([-1], np.int64), "flat")]
    graph = helper.make_graph(
        nodes, "tiny_kokoro", [helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, "T"]),
                               helper.make_tensor_value_info("style", TensorProto.FLOAT, [1, 256]),
                               helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1]),
                               helper.make_tensor_value_info("f0_scale", TensorProto.FLOAT, [1]),
                               helper.make_tensor_value_info("f0_range", TensorProto.FLOAT, [1]),
                               helper.make_tensor_value_info("f0_knee", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, ["S"]),
         helper.make_tensor_value_info(KOKORO_DURATIONS, TensorProto.INT64, ["T"])], initializers)
    model = _save(graph, directory / Path(KOKORO_MODEL).name)
    return model, vocab, kokoro_packs()


def kokoro_split_models(directory: Path) -> tuple[Path, Path, Path]:
    """The tiny Kokoro cut in two: (text side, decoder, statistics), with kokoro_split's
    tensor names. Its decoder frames are independent, so windows join exactly."""
    from emovox.backends import kokoro_split as split

    directory.mkdir(parents=True, exist_ok=True)
    vocab_size = len(dict.fromkeys(IPA)) + 1
    table = _tones(vocab_size, split.SAMPLES_PER_FRAME, 24_000, seed=2)
    common = [numpy_helper.from_array(np.array([1.0], np.float32), "one_f"),
              numpy_helper.from_array(np.array(0.0, np.float32), "zero_f"),
              numpy_helper.from_array(np.array([-1], np.int64), "flat"),
              numpy_helper.from_array(np.array([1, -1], np.int64), "row"),
              numpy_helper.from_array(np.array([120.0], np.float32), "f0_hz")]
    text_nodes = [
        helper.make_node("Gather", ["table", "tokens"], ["frames"], axis=0),  # [1, T, 600]
        helper.make_node("Div", ["one_f", "speed"], ["length_scale"]),
        *_stretch_nodes("frames", "length_scale", "stretched"),
        helper.make_node("Transpose", ["stretched"], [split.ALIGNED], perm=[0, 2, 1]),  # [1, 600, F]
        helper.make_node("ReduceMean", [split.ALIGNED], ["frame_mean"], axes=[1], keepdims=1),
        helper.make_node("Mul", ["frame_mean", "zero_f"], ["frame_zero"]),
        helper.make_node("Reshape", ["frame_zero", "row"], ["zero_row"]),
        helper.make_node("Concat", ["zero_row", "zero_row"], ["zero_points"], axis=1),  # [1, 2F]
        helper.make_node("Add", ["zero_points", "f0_hz"], ["f0_plain"]),
        helper.make_node("Mul", ["f0_plain", "f0_scale"], [split.F0_CURVE]),
        helper.make_node("Add", ["zero_points", "one_f"], [split.ENERGY_CURVE]),
        helper.make_node("Reshape", ["tokens", "flat"], ["token_row"]),
        *_duration_nodes("token_row", "length_scale", split.DURATIONS, TensorProto.INT64),
    ]
    points = [helper.make_tensor_value_info(split.F0_CURVE, TensorProto.FLOAT, [1, "P"]),
              helper.make_tensor_value_info(split.ENERGY_CURVE, TensorProto.FLOAT, [1, "P"])]
    aligned = helper.make_tensor_value_info(split.ALIGNED, TensorProto.FLOAT, [1, split.SAMPLES_PER_FRAME, "F"])
    text = helper.make_graph(
        text_nodes, "tiny_kokoro_text",
        [helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, "T"]),
         helper.make_tensor_value_info("style", TensorProto.FLOAT, [1, 256]),
         helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("f0_scale", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("f0_range", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("f0_knee", TensorProto.FLOAT, [1])],
        [aligned, *points, helper.make_tensor_value_info(split.DURATIONS, TensorProto.INT64, ["T"])],
        [numpy_helper.from_array(table, "table"), *common])
    decoder_inputs = [aligned, *points, helper.make_tensor_value_info("style", TensorProto.FLOAT, [1, 256]),
                      helper.make_tensor_value_info(split.PHASE_OFFSET, TensorProto.FLOAT, [1, 1, split.HARMONICS])]

    def decoder_nodes(level: str) -> list:
        return [helper.make_node("Transpose", [split.ALIGNED], ["by_frame"], perm=[0, 2, 1]),
                helper.make_node("Reshape", ["by_frame", "flat"], ["samples"]),
                helper.make_node("ReduceMean", ["style"], ["style_mean"], keepdims=0),
                helper.make_node("Add", ["style_mean", "one_f"], ["gain"]),
                helper.make_node("Mul", [level, "zero_f"], ["level_zero"]),
                helper.make_node("Reshape", ["level_zero", "flat"], ["level_row"]),
                helper.make_node("Add", ["gain", "level_row"], ["gain_used"]),
                helper.make_node("Mul", ["samples", "gain_used"], ["audio"])]

    level = helper.make_node("ReduceMean", [split.ALIGNED], ["tiny_level"], keepdims=1)
    audio = helper.make_tensor_value_info("audio", TensorProto.FLOAT, ["S"])
    decoder = helper.make_graph(
        decoder_nodes(split.NORM_PREFIX + "tiny_level"), "tiny_kokoro_decoder",
        [*decoder_inputs, helper.make_tensor_value_info(split.NORM_PREFIX + "tiny_level", TensorProto.FLOAT,
                                                        [1, None, 1])], [audio], common)
    statistics = helper.make_graph(
        [level, *decoder_nodes("tiny_level")], "tiny_kokoro_statistics", decoder_inputs,
        [audio, helper.make_tensor_value_info("tiny_level", TensorProto.FLOAT, [1, 1, 1])], common)
    return (_save(text, directory / "tiny-kokoro-text.onnx"), _save(decoder, directory / "tiny-kokoro-decoder.onnx"),
            _save(statistics, directory / "tiny-kokoro-statistics.onnx"))


def mandarin_build(directory: Path) -> Path:
    """A directory in the layout `make zh-models` writes, with tiny models."""
    from pypinyin.contrib.tone_convert import to_finals, to_initials, to_normal
    from pypinyin.pinyin_dict import pinyin_dict

    directory.mkdir(parents=True, exist_ok=True)
    syllables = sorted({to_normal(reading) for readings in pinyin_dict.values() for reading in readings.split(",")})
    split = {s: [to_initials(s, strict=False) or "^", to_finals(s, strict=False) or s] for s in syllables if s.isalpha()}
    finals = sorted({final for _, final in split.values()})
    symbols = ["pad", "sil", "#0", "#1", "#2", "#3", "^", *sorted({i for i, _ in split.values()} - {"^"}),
               *[f"{final}{tone}" for final in finals for tone in "12345"], "eos"]
    (directory / "baker_mapper.json").write_text(json.dumps({
        "symbol_to_id": {s: i for i, s in enumerate(symbols)}, "pinyin_dict": split}), "utf-8")
    mels = np.random.default_rng(4).normal(0, 1, (len(symbols), 80)).astype(np.float32)
    acoustic = helper.make_graph([
        helper.make_node("Cast", ["input_ids"], ["ids64"], to=TensorProto.INT64),
        helper.make_node("Gather", ["mels", "ids64"], ["frames"], axis=0),  # [1, T, 80]
        *_stretch_nodes("frames", "speed_ratios", "stretched"),
        helper.make_node("Identity", ["stretched"], ["mel_before"]),
        helper.make_node("Mul", ["stretched", "f0_ratios"], ["mel_after"]),
        *_duration_nodes("input_ids", "speed_ratios", "durations", TensorProto.INT32),
    ], "tiny_fastspeech2", [
        helper.make_tensor_value_info("input_ids", TensorProto.INT32, [1, "T"]),
        helper.make_tensor_value_info("speaker_ids", TensorProto.INT32, [1]),
        helper.make_tensor_value_info("speed_ratios", TensorProto.FLOAT, [1]),
        helper.make_tensor_value_info("f0_ratios", TensorProto.FLOAT, [1]),
        helper.make_tensor_value_info("energy_ratios", TensorProto.FLOAT, [1]),
    ], [helper.make_tensor_value_info("mel_before", TensorProto.FLOAT, [1, "F", 80]),
        helper.make_tensor_value_info("mel_after", TensorProto.FLOAT, [1, "F", 80]),
        helper.make_tensor_value_info("durations", TensorProto.INT32, [1, "T"])],
        [numpy_helper.from_array(mels, "mels"), numpy_helper.from_array(np.array([1.0], np.float32), "one_f"),
         numpy_helper.from_array(np.array(0.0, np.float32), "zero_f")])
    _save(acoustic, directory / "fastspeech2.onnx")
    # The vocoder: each mel frame -> 300 samples of a tone mixture chosen by its first 8 bands.
    bases = _tones(80, 300, 24_000, seed=5) / 8
    vocoder = helper.make_graph([
        helper.make_node("MatMul", ["mels", "bases"], ["frames"]),  # [1, F, 300]
        helper.make_node("Tanh", ["frames"], ["bounded"]),
        helper.make_node("Reshape", ["bounded", "shape"], ["audio"]),
    ], "tiny_melgan", [helper.make_tensor_value_info("mels", TensorProto.FLOAT, [1, "F", 80])],
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, "S", 1])],
        [numpy_helper.from_array(bases, "bases"), numpy_helper.from_array(np.array([1, -1, 1], np.int64), "shape")])
    _save(vocoder, directory / "mb_melgan.onnx")
    digests = {name: hashlib.sha256((directory / name).read_bytes()).hexdigest()
               for name in ("fastspeech2.onnx", "mb_melgan.onnx")}
    (directory / "manifest.json").write_text(json.dumps({"sha256": digests}), "utf-8")
    return directory
