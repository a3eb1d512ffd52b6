"""The Mandarin voice's F0 level input: a one-time edit of its FastSpeech2 graph, on the tiny
build here (the real voice's level and naturalness: tests/test_emotion_speech.py and
benchmarks/naturalness.py)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from emovox.backends import fastspeech2_graph
from emovox.backends.fastspeech2 import FastSpeech2Backend
from emovox.backends.session import create_session
from emovox.errors import ModelAssetError
from emovox.types import Prosody


def _run(path, offset=None):
    inputs = {"input_ids": np.array([[3, 9, 14, 2]], np.int32), "speaker_ids": np.array([0], np.int32),
              "speed_ratios": np.array([1.0], np.float32), "f0_ratios": np.array([1.0], np.float32),
              "energy_ratios": np.array([1.0], np.float32)}
    if offset is not None:
        inputs[fastspeech2_graph.LEVEL_INPUT] = np.array([offset], np.float32)
    return create_session(path).run(None, inputs)


def test_the_edit_adds_a_level_input_that_is_exact_at_zero_and_moves_the_output(tiny_dir, tmp_path):
    source = tiny_dir / "zh" / "fastspeech2.onnx"
    edited = fastspeech2_graph.level_model(source, tmp_path, "0123456789abcdef")
    assert edited.name == f"fastspeech2-level-v{fastspeech2_graph.EDIT_VERSION}-0123456789ab.onnx"
    assert fastspeech2_graph.LEVEL_INPUT in [value.name for value in onnx.load(str(edited)).graph.input]
    before, neutral, raised = _run(source), _run(edited, 0.0), _run(edited, 0.5)
    for a, b in zip(before, neutral):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(before[1], raised[1])
    assert fastspeech2_graph.level_model(source, tmp_path, "0123456789abcdef") == edited  # built once


def test_a_model_without_a_scaled_f0_is_refused_by_name(tmp_path):
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Identity", ["f0_ratios"], ["out"])], "no_f0",
                              [helper.make_tensor_value_info("f0_ratios", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1])])
    source = tmp_path / "no_f0.onnx"
    onnx.save(helper.make_model(graph), str(source))
    with pytest.raises(ModelAssetError, match="no F0 scaled by f0_ratios"):
        fastspeech2_graph.level_model(source, tmp_path, "feedfacefeedface")


def test_lowering_is_left_to_the_model_and_only_a_raise_past_its_limit_to_the_signal(tiny_dir):
    backend = FastSpeech2Backend(tiny_dir / "zh")
    limit = fastspeech2_graph.MODEL_RAISE_LIMIT_ST
    assert backend.signal_pitch(Prosody(pitch_st=-2.5, pitch_range=0.7)) == (0.0, 1.0)
    assert backend.signal_pitch(Prosody(pitch_st=limit, pitch_range=1.3)) == (0.0, 1.0)
    assert backend.signal_pitch(Prosody(pitch_st=limit + 3.0, pitch_range=1.3)) == pytest.approx((3.0, 1.3))


def test_a_lowered_mandarin_sentence_streams_in_windows(tiny_dir):
    from conftest import build_tiny_engine

    engine = build_tiny_engine(tiny_dir)
    sad = engine.plan("我们下个星期四早上在老车站再见面。", voice="baker", emotion="sad").jobs[0]
    happy = engine.plan("我们下个星期四早上在老车站再见面。", voice="baker", emotion="happy").jobs[0]
    assert engine.renderer.windowed_for(sad)
    assert happy.controls.pitch_st <= fastspeech2_graph.MODEL_RAISE_LIMIT_ST or not engine.renderer.windowed_for(happy)
