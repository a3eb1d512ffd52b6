"""Prosody inputs for Kokoro, added by editing its ONNX graph once.

Kokoro predicts an F0 curve (`/encoder/F0_proj/Conv_output_0`, Hz, [1, 1, frames]) before
its decoder renders audio from it. The edit inserts, between the prediction and its consumers,

    F0' = relu(mean + (F0 - mean) * f0_range) * f0_scale      mean over voiced frames
    F0'' = min(F0', f0_knee) * sqrt(max(F0', f0_knee) / f0_knee)

with three new float inputs `f0_scale[1]`, `f0_range[1]` and `f0_knee[1]` (neutral: 1, 1 and
`NO_KNEE`). Above the knee (Hz) a raised contour rises at half the rate in log F0: a voice
whose decoder renders its highest F0 badly (jf_tebukuro, kokoro.py `F0_KNEE_HZ`) keeps its
raised median while its peaks stay where the decoder renders them. Pitch is then
realized inside the model, so the vocoder renders the new contour itself: a request of
+4 st measured +4.06 st (jf_alpha) and +4.08 st (jm_kumo). The predicted energy curve
(`/encoder/N_proj/Conv_output_0`) was tried the same way and left alone: the decoder
normalizes it away (+1 unit moved the level by only 0.2 dB), so loudness is a gain after.
The edited graph also puts out Kokoro's own per-token durations (`/encoder/Gather_output_0`,
int64 [tokens], in units of `SAMPLES_PER_DURATION` samples), the alignment word timestamps
come from; they are rounded together instead of one by one, so a `speed` is the rate heard
(duration_rounding.py). The edited model is cached beside the source, named by the source's hash and the
edit's version, so a new model or a new edit gets a new file.
"""

from __future__ import annotations

from pathlib import Path

from emovox.backends import assets, duration_rounding

F0_TENSOR = "/encoder/F0_proj/Conv_output_0"
#: The predicted duration of each token, rounded and at least 1, as the decoder's alignment uses it.
DURATIONS_TENSOR = "/encoder/Gather_output_0"
#: Audio samples per duration unit (24 kHz; measured: audio length / sum of durations = 600).
SAMPLES_PER_DURATION = 600
PROSODY_INPUTS = ("f0_scale", "f0_range", "f0_knee")
EDIT_VERSION = 5
#: A knee no voice reaches (Hz): the contour as f0_scale and f0_range make it.
NO_KNEE = 1.0e5
#: Frames below this F0 (Hz) count as unvoiced and do not enter the mean.
VOICED_HZ = 30.0


def prosody_model(source: Path, source_sha256: str) -> Path:
    """The edited model for `source`, built on first use and reused after."""
    target = source.with_name(assets.edited_name("kokoro-prosody", EDIT_VERSION, source_sha256))
    return assets.edited_model(source, target, add_prosody_inputs)


def _add_durations_output(graph) -> None:
    from onnx import TensorProto, helper

    graph.output.append(helper.make_tensor_value_info(DURATIONS_TENSOR, TensorProto.INT64, [None]))


def _rewire(graph, tensor: str, replacement: str, skip: set[str]) -> None:
    """Point every consumer of `tensor` (except the new nodes in `skip`) at `replacement`."""
    for node in graph.node:
        if node.name in skip:
            continue
        for i, name in enumerate(node.input):
            if name == tensor:
                node.input[i] = replacement


def add_prosody_inputs(model) -> None:
    """Add the prosody inputs (and the durations output) to a loaded Kokoro model."""
    from onnx import TensorProto, helper

    graph = model.graph
    for name in PROSODY_INPUTS:
        graph.input.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, [1]))
    graph.initializer.extend([
        helper.make_tensor("emovox_voiced_hz", TensorProto.FLOAT, [], [VOICED_HZ]),
        helper.make_tensor("emovox_epsilon", TensorProto.FLOAT, [], [1e-3]),
    ])
    f0_nodes = [
        helper.make_node("Greater", [F0_TENSOR, "emovox_voiced_hz"], ["emovox_voiced_bool"], name="emovox_voiced"),
        helper.make_node("Cast", ["emovox_voiced_bool"], ["emovox_voiced_mask"], to=TensorProto.FLOAT,
                         name="emovox_voiced_cast"),
        helper.make_node("Mul", [F0_TENSOR, "emovox_voiced_mask"], ["emovox_f0_voiced"], name="emovox_f0_voiced"),
        helper.make_node("ReduceSum", ["emovox_f0_voiced"], ["emovox_f0_sum"], keepdims=1, name="emovox_f0_sum"),
        helper.make_node("ReduceSum", ["emovox_voiced_mask"], ["emovox_voiced_count"], keepdims=1,
                         name="emovox_voiced_count"),
        helper.make_node("Max", ["emovox_voiced_count", "emovox_epsilon"], ["emovox_voiced_count_safe"],
                         name="emovox_voiced_count_safe"),
        helper.make_node("Div", ["emovox_f0_sum", "emovox_voiced_count_safe"], ["emovox_f0_mean"],
                         name="emovox_f0_mean"),
        helper.make_node("Sub", [F0_TENSOR, "emovox_f0_mean"], ["emovox_f0_centered"], name="emovox_f0_centered"),
        helper.make_node("Mul", ["emovox_f0_centered", "f0_range"], ["emovox_f0_spread"], name="emovox_f0_spread"),
        helper.make_node("Add", ["emovox_f0_spread", "emovox_f0_mean"], ["emovox_f0_ranged"], name="emovox_f0_ranged"),
        helper.make_node("Relu", ["emovox_f0_ranged"], ["emovox_f0_positive"], name="emovox_f0_positive"),
        helper.make_node("Mul", ["emovox_f0_positive", "f0_scale"], ["emovox_f0_scaled"], name="emovox_f0_scaled"),
        helper.make_node("Min", ["emovox_f0_scaled", "f0_knee"], ["emovox_f0_below"], name="emovox_f0_below"),
        helper.make_node("Max", ["emovox_f0_scaled", "f0_knee"], ["emovox_f0_above"], name="emovox_f0_above"),
        helper.make_node("Div", ["emovox_f0_above", "f0_knee"], ["emovox_f0_over_knee"], name="emovox_f0_over_knee"),
        helper.make_node("Sqrt", ["emovox_f0_over_knee"], ["emovox_f0_knee_gain"], name="emovox_f0_knee_gain"),
        helper.make_node("Mul", ["emovox_f0_below", "emovox_f0_knee_gain"], ["emovox_f0_out"], name="emovox_f0_out"),
    ]
    _rewire(graph, F0_TENSOR, "emovox_f0_out", {n.name for n in f0_nodes})
    _insert_after_producers(graph, {F0_TENSOR: f0_nodes})
    duration_rounding.round_together(graph, DURATIONS_TENSOR, "emovox_")
    _add_durations_output(graph)


def _insert_after_producers(graph, additions: dict) -> None:
    """Place each group of new nodes right after the node that produces its tensor, which
    keeps the graph in the topological order ONNX requires."""
    ordered = []
    for node in graph.node:
        ordered.append(node)
        for tensor in node.output:
            ordered.extend(additions.pop(tensor, []))
    if additions:
        raise ValueError(f"tensors not found in the Kokoro graph: {', '.join(additions)}")
    del graph.node[:]
    graph.node.extend(ordered)
