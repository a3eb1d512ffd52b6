"""Prosody inputs and a durations output for hibari's graph, added by editing it once.

The network's prosody head predicts, per frame, F0 (`F0_TENSOR`, Hz, 0 where unvoiced) and
an energy value (`ENERGY_TENSOR`), and its decoder predicts the voice's spectra from both:
the F0 goes to the graph's `f0` output (the harmonic source) and, through a log, into the
decoder. The edit inserts, between the prediction and its consumers,

    F0' = max(mean + (F0 - mean) · f0_range, 0.8 · F0) · f0_scale    on voiced frames (mean over them)
    F0'' = F0' · max(F0' / (1.9 · mean), 1) ^ -0.5                 (a knee on the highest peaks)
    energy' = energy + energy_shift

with new float inputs `f0_scale[1]`, `f0_range[1]` and `energy_shift[1]` (neutral: 1, 1, 0,
which leave every output exactly as before). The durations a `speed` gives are rounded
together instead of one by one (duration_rounding.py): the speed is then the rate heard.
The decoder therefore renders the spectra of the new contour and effort itself: a semitone
request is met in the harmonics, and a louder reading is a tenser one, as the model learned
it, not a gain. The per-token durations (`DURATIONS_TENSOR`, frames / 2 after the speed
input) become the output
`durations`, for word timestamps. The edited model is cached beside the user's other
models, named by the source's hash and the edit's version.
"""

from __future__ import annotations

from pathlib import Path

from emovox.backends import assets, duration_rounding

F0_TENSOR = "f0"
ENERGY_TENSOR = "/Gather_37_output_0"
DURATIONS_TENSOR = "/Clip_output_0"
#: Audio samples per duration unit: two 300-sample frames at 24 kHz (measured: frames = 2 · sum).
SAMPLES_PER_DURATION = 600
PROSODY_INPUTS = ("f0_scale", "f0_range", "energy_shift")
DURATIONS_OUTPUT = "durations"
EDIT_VERSION = 6
#: A widened range never takes a frame below this fraction of its own F0: the few low frames
#: where voicing starts or stops (1 % of them under half the mean) fell to 40-60 Hz, and
#: DistillMOS of happy's pitch and range together rose from 3.97 to 4.21 with the floor.
TROUGH_FLOOR = 0.8
#: Above this multiple of the utterance's own mean F0, a raised contour rises at half the rate
#: (in log F0): the distilled decoder renders F0 far above what it was trained on as artifacts,
#: and height, not range, is what costs (surprised at +8.5 st with the range kept measured
#: 0.44 below neutral DistillMOS; +5.5 st with the range widened x1.43, 0.62; with this knee
#: the latter 0.20, neutral unchanged; knees at 1.35 and 1.5 flattened the range away).
PEAK_KNEE = 1.9
PEAK_SLOPE = 0.5
#: Frames at or below this F0 (Hz) are unvoiced (the waveform stage's own threshold).
VOICED_HZ = 40.0


def prosody_model(source: Path, cache: Path, source_sha256: str) -> Path:
    """The edited model for `source`, built on first use and reused after."""
    target = cache / assets.edited_name("hibari-prosody", EDIT_VERSION, source_sha256)
    return assets.edited_model(source, target, add_prosody_inputs)


def add_prosody_inputs(model) -> None:
    from onnx import TensorProto, helper

    graph = model.graph
    raw_f0, raw_energy = "emovox_f0_predicted", "emovox_energy_predicted"
    for node in graph.node:  # the predictions get new names; their consumers keep the old ones
        node.output[:] = [raw_f0 if name == F0_TENSOR else raw_energy if name == ENERGY_TENSOR else name
                          for name in node.output]
    for name in PROSODY_INPUTS:
        graph.input.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, [1]))
    graph.initializer.extend([
        helper.make_tensor("emovox_voiced_hz", TensorProto.FLOAT, [], [VOICED_HZ]),
        helper.make_tensor("emovox_one", TensorProto.FLOAT, [], [1.0]),
        helper.make_tensor("emovox_epsilon", TensorProto.FLOAT, [], [1e-3]),
        helper.make_tensor("emovox_trough_floor", TensorProto.FLOAT, [], [TROUGH_FLOOR]),
        helper.make_tensor("emovox_knee_ratio", TensorProto.FLOAT, [], [PEAK_KNEE]),
        helper.make_tensor("emovox_knee_exponent", TensorProto.FLOAT, [], [PEAK_SLOPE - 1.0]),
    ])
    node = helper.make_node
    f0_nodes = [
        node("Greater", [raw_f0, "emovox_voiced_hz"], ["emovox_voiced_bool"], name="emovox_voiced"),
        node("Cast", ["emovox_voiced_bool"], ["emovox_voiced"], to=TensorProto.FLOAT, name="emovox_voiced_cast"),
        node("Sub", ["emovox_one", "emovox_voiced"], ["emovox_unvoiced"], name="emovox_unvoiced"),
        node("Mul", [raw_f0, "emovox_voiced"], ["emovox_f0_voiced"], name="emovox_f0_voiced"),
        node("ReduceSum", ["emovox_f0_voiced"], ["emovox_f0_sum"], keepdims=1, name="emovox_f0_sum"),
        node("ReduceSum", ["emovox_voiced"], ["emovox_voiced_count"], keepdims=1, name="emovox_voiced_count"),
        node("Max", ["emovox_voiced_count", "emovox_epsilon"], ["emovox_voiced_safe"], name="emovox_voiced_safe"),
        node("Div", ["emovox_f0_sum", "emovox_voiced_safe"], ["emovox_f0_mean"], name="emovox_f0_mean"),
        node("Sub", [raw_f0, "emovox_f0_mean"], ["emovox_f0_centred"], name="emovox_f0_centred"),
        node("Mul", ["emovox_f0_centred", "f0_range"], ["emovox_f0_spread"], name="emovox_f0_spread"),
        node("Add", ["emovox_f0_spread", "emovox_f0_mean"], ["emovox_f0_ranged"], name="emovox_f0_ranged"),
        node("Mul", [raw_f0, "emovox_trough_floor"], ["emovox_f0_floor"], name="emovox_f0_floor"),
        node("Max", ["emovox_f0_ranged", "emovox_f0_floor"], ["emovox_f0_positive"], name="emovox_f0_positive"),
        node("Mul", ["emovox_f0_positive", "f0_scale"], ["emovox_f0_scaled"], name="emovox_f0_scaled"),
        node("Mul", ["emovox_f0_mean", "emovox_knee_ratio"], ["emovox_knee"], name="emovox_knee"),
        node("Div", ["emovox_f0_scaled", "emovox_knee"], ["emovox_over_knee"], name="emovox_over_knee"),
        node("Max", ["emovox_over_knee", "emovox_one"], ["emovox_above_knee"], name="emovox_above_knee"),
        node("Pow", ["emovox_above_knee", "emovox_knee_exponent"], ["emovox_knee_gain"], name="emovox_knee_gain"),
        node("Mul", ["emovox_f0_scaled", "emovox_knee_gain"], ["emovox_f0_kneed"], name="emovox_f0_kneed"),
        node("Mul", ["emovox_f0_kneed", "emovox_voiced"], ["emovox_f0_new_voiced"], name="emovox_f0_new_voiced"),
        node("Mul", [raw_f0, "emovox_unvoiced"], ["emovox_f0_unvoiced"], name="emovox_f0_unvoiced"),
        node("Add", ["emovox_f0_new_voiced", "emovox_f0_unvoiced"], [F0_TENSOR], name="emovox_f0_out"),
    ]
    energy_nodes = [node("Add", [raw_energy, "energy_shift"], [ENERGY_TENSOR], name="emovox_energy_out")]
    ordered = []
    for existing in graph.node:  # new nodes right after their producer: the order stays topological
        ordered.append(existing)
        if raw_f0 in existing.output:
            ordered.extend(f0_nodes)
        if raw_energy in existing.output:
            ordered.extend(energy_nodes)
    if len(ordered) != len(graph.node) + len(f0_nodes) + len(energy_nodes):
        raise ValueError("hibari's graph has no F0 or energy prediction where this edit expects them")
    del graph.node[:]
    graph.node.extend(ordered)
    duration_rounding.round_together(graph, DURATIONS_TENSOR, "emovox_")
    durations = node("Identity", [DURATIONS_TENSOR], [DURATIONS_OUTPUT], name="emovox_durations")
    graph.node.append(durations)
    graph.output.append(helper.make_tensor_value_info(DURATIONS_OUTPUT, TensorProto.FLOAT, [None]))
