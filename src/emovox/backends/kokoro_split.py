"""Kokoro cut in two at its decoder, so the decoder can run on windows of frames.

Kokoro's text side (ALBERT encoder, duration, F0 and energy predictors) is cheap: about
65 ms for an 80-character sentence on two cores. Its decoder (frame-rate AdaIN blocks, then
the iSTFTNet generator that turns them into 24 kHz audio) is the other 95 %. Cut between
the two, the text side runs once per segment and the decoder on short windows, so the first
audio waits for one window instead of the whole sentence.

Two things in the decoder see the whole segment at once and are changed here:

- **The harmonic source's phase** is a running sum of F0 from the first frame. A window
  gets the sum up to its first frame as a new input, `phase_offset[1, 1, 9]` (one per
  harmonic, in the graph's own units: cycles/300), so its sine source continues the segment's.
- **Instance normalization** (54 AdaIN layers: each takes the mean and variance of its input
  over time) would normalize a 0.3 s window by its own statistics: on six sentences that cost
  1.3 DistillMOS and made level jumps at window joins. Within one voice those statistics
  hardly depend on the sentence (median difference 1-2 % of a standard deviation between
  sentences), so every mean and variance becomes an input (`norm:<tensor>`), filled with the
  voice's values measured once on a reference sentence by a second graph that exposes them
  (`statistics_model`). Windows then sound as the whole segment does (DistillMOS and Whisper,
benchmarks/streaming.py), without being its samples: int8 dynamic quantization scales each
window's tensors by their own range, and the model magnifies small changes (the whole
decode with its input scaled by 1.001 is 21 dB from the original). Whole segments keep the
whole graph and its per-sentence normalization; the renderer joins windows where the voice
is unvoiced, with a short cross-fade (engine/windows.py).

Graphs are built from the prosody-edited model (kokoro_prosody.py) once and cached beside
it, named by the source's hash and this edit's version.
"""

from __future__ import annotations

from pathlib import Path

from emovox.backends import assets

#: What the decoder reads: the text features aligned to frames ([1, 512, frames], 40 frames a
#: second), and the predicted F0 (Hz) and energy curves ([1, 2 * frames]).
ALIGNED = "/encoder/MatMul_1_output_0"
F0_CURVE = "/encoder/Reshape_output_0"
ENERGY_CURVE = "/encoder/Reshape_1_output_0"
DURATIONS = "/encoder/Gather_output_0"
TEXT_INPUTS = ("tokens", "style", "speed", "f0_scale", "f0_range", "f0_knee")
DECODER_INPUTS = (ALIGNED, F0_CURVE, ENERGY_CURVE, "style", "phase_offset")
PHASE_OFFSET = "phase_offset"
#: The running sum of each harmonic's phase increments, one value per F0 point.
_PHASE_SUM = "/decoder/decoder/generator/m_source/l_sin_gen/CumSum_output_0"
_PHASE_SCALE_NODE = "/decoder/decoder/generator/m_source/l_sin_gen/Mul_2"
HARMONICS = 9
#: Audio samples per decoder frame (one duration unit), and F0 points per frame.
SAMPLES_PER_FRAME = 600
F0_PER_FRAME = 2
#: The harmonic source reads F0 in Hz at this rate; its phase repeats every 1/300 of the sum.
SOURCE_RATE = 24_000
PHASE_PERIOD = 1.0 / 300
NORM_PREFIX = "norm:"
VERSION = 2


def text_model(prosody_model: Path) -> Path:
    """Tokens, style, speed and the prosody inputs -> aligned features, F0, energy, durations."""
    return assets.edited_model(prosody_model, _named(prosody_model, "text"), _keep_text_side)


def decoder_model(prosody_model: Path) -> Path:
    """The decoder's inputs, a phase offset and every normalization's statistics -> audio."""
    return assets.edited_model(prosody_model, _named(prosody_model, "decoder"), _keep_decoder_frozen)


def statistics_model(prosody_model: Path) -> Path:
    """The decoder with its own normalization statistics as outputs after the audio."""
    return assets.edited_model(prosody_model, _named(prosody_model, "norms"), _keep_decoder_measuring)


def _named(prosody_model: Path, part: str) -> Path:
    return prosody_model.with_name(f"{prosody_model.stem}-{part}-v{VERSION}.onnx")


def _keep_text_side(model) -> None:
    from onnx.utils import Extractor

    model.CopyFrom(Extractor(model).extract_model(list(TEXT_INPUTS), [ALIGNED, F0_CURVE, ENERGY_CURVE, DURATIONS]))


def _decoder(model):
    from onnx.utils import Extractor

    _add_phase_offset(model.graph)
    return Extractor(model).extract_model(list(DECODER_INPUTS), ["audio"])


def _add_phase_offset(graph) -> None:
    from onnx import TensorProto, helper

    graph.input.append(helper.make_tensor_value_info(PHASE_OFFSET, TensorProto.FLOAT, [1, 1, HARMONICS]))
    add = helper.make_node("Add", [_PHASE_SUM, PHASE_OFFSET], ["emovox_phase"], name="emovox_phase")
    nodes = list(graph.node)
    for node in nodes:
        if node.name == _PHASE_SCALE_NODE:
            node.input[0] = "emovox_phase"
    position = next(i for i, node in enumerate(nodes) if _PHASE_SUM in node.output)
    nodes.insert(position + 1, add)
    del graph.node[:]
    graph.node.extend(nodes)


def _keep_decoder_measuring(model) -> None:
    from onnx import TensorProto, helper

    decoder = _decoder(model)
    for node in decoder.graph.node:
        if node.op_type == "ReduceMean":
            decoder.graph.output.append(helper.make_tensor_value_info(node.output[0], TensorProto.FLOAT, [1, None, 1]))
    model.CopyFrom(decoder)


def _keep_decoder_frozen(model) -> None:
    """Each ReduceMean's result becomes an input, `norm:` + the tensor's name (the name the
    statistics graph puts it out under); nodes left unused go."""
    from onnx import TensorProto, helper

    decoder = _decoder(model)
    graph = decoder.graph
    replaced = {}
    for node in graph.node:
        if node.op_type == "ReduceMean":
            replaced[node.output[0]] = NORM_PREFIX + node.output[0]
            graph.input.append(helper.make_tensor_value_info(NORM_PREFIX + node.output[0], TensorProto.FLOAT,
                                                             [1, None, 1]))
    kept = [node for node in graph.node if node.op_type != "ReduceMean"]
    for node in kept:
        for i, name in enumerate(node.input):
            if name in replaced:
                node.input[i] = replaced[name]
    wanted = {output.name for output in graph.output}
    while True:
        used = wanted | {name for node in kept for name in node.input}
        live = [node for node in kept if any(output in used for output in node.output)]
        if len(live) == len(kept):
            break
        kept = live
    del graph.node[:]
    graph.node.extend(kept)
    model.CopyFrom(decoder)
