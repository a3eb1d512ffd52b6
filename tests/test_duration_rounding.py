"""The durations edit shared by the hibari and Kokoro graphs (backends/duration_rounding.py), on
a graph of its own: predicted durations divided by the speed, rounded, clipped to at least 1."""

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from emovox.backends import duration_rounding

#: Token durations in 25 ms units as the models predict them: most last 2-4, near whole units.
PREDICTED = np.array([[2.1, 3.0, 1.9, 2.9, 4.1, 2.0, 3.1, 2.0, 2.9, 3.0, 2.1, 4.0, 2.0, 1.9, 3.0, 2.1]], np.float32)


def _durations_graph(rounding: str = "Round"):
    nodes = [
        helper.make_node("Div", ["predicted", "speed"], ["at_speed"]),
        helper.make_node(rounding, ["at_speed"], ["rounded"]),
        helper.make_node("Clip", ["rounded", "one"], ["durations"]),
    ]
    graph = helper.make_graph(
        nodes, "durations",
        [helper.make_tensor_value_info("predicted", TensorProto.FLOAT, [1, None]),
         helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("durations", TensorProto.FLOAT, [1, None])],
        [helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _durations(model, speed: float) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"predicted": PREDICTED, "speed": np.array([speed], np.float32)})[0]


@pytest.fixture
def models():
    edited = _durations_graph()
    duration_rounding.round_together(edited.graph, "durations", "test_")
    return _durations_graph(), edited


def test_at_speed_1_every_duration_is_the_models_own(models):
    original, edited = models
    np.testing.assert_array_equal(_durations(edited, 1.0), _durations(original, 1.0))


@pytest.mark.parametrize("speed", [1.05, 1.1, 0.9, 0.85])
def test_the_sentence_changes_by_what_the_speed_asks(models, speed):
    original, edited = models
    neutral = _durations(original, 1.0).sum()
    assert abs(_durations(edited, speed).sum() - neutral / speed) <= 1.0
    assert abs(_durations(original, speed).sum() - neutral / speed) > 1.0  # what rounding each one did


def test_each_token_moves_by_at_most_one_unit_more_than_asked(models):
    original, edited = models
    change = _durations(edited, 1.1) - _durations(original, 1.0)
    assert np.all(np.abs(change - (PREDICTED / 1.1 - PREDICTED)) <= 1.0)


def test_a_graph_without_the_rounding_is_refused_by_name():
    model = _durations_graph(rounding="Floor")
    with pytest.raises(ValueError, match="durations"):
        duration_rounding.round_together(model.graph, "durations", "test_")
