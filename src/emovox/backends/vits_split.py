"""A Piper VITS graph cut in two before its normalizing flow, so flow and decoder run on windows.

VITS's text side (text encoder, stochastic duration predictor) turns ids into the prior's
frames `z_p` ([1, 192, frames], 256 samples each); the normalizing flow turns them into
latent frames `z`, and the HiFi-GAN decoder turns those into audio. Flow and decoder are
convolutions only (no normalization over time, no running phase), so both run on windows
of frames with context on each side (vits.py says how much, measured: the flow's receptive
field is 32 frames each way, four coupling layers of four kernel-5 convolutions, but 16 give
what 32 give). The flow was half the text side's time, so a long sentence's first audio no
longer waits for it.
Both parts are cut from the timed model (vits.py `timed_model`) and cached beside it, by
its name and this cut's version.
"""

from __future__ import annotations

from pathlib import Path

from emovox.backends import assets

#: The prior's frames the flow reads (z_p), in every precision variant, and the frame mask
#: ([1, 1, frames], ones where a row has frames) the flow multiplies by; both float16 in the
#: fp16 variant.
PRIOR = "/Add_output_0"
FRAME_MASK = "/Cast_2_output_0"
#: The latent frames the decoder reads (the flow's output times the frame mask).
LATENT = "/Mul_7_output_0"
#: [first, end) of the flow's output frames the decoder reads: a window's flow context is
#: wider than its decoder's.
DECODED = "decoded_frames"
#: The timed model's inputs (vits.py `timed_model` adds "extra_frames").
INPUTS = ("input", "input_lengths", "scales", "extra_frames")
VERSION = 3


def text_model(timed_model: Path, frame_lengths: str, durations: str) -> Path:
    """Ids, lengths and scales -> the prior's frames, each row's frame count, each id's frames."""
    def keep_text_side(model) -> None:
        from onnx.utils import Extractor

        model.CopyFrom(Extractor(model).extract_model(list(INPUTS), [PRIOR, frame_lengths, durations]))
        _give_frames_a_shape(model.graph)

    return assets.edited_model(timed_model, _named(timed_model, "text"), keep_text_side)


def window_model(timed_model: Path) -> Path:
    """The prior's frames, their mask and which flow frames to decode -> audio."""
    def keep_window(model) -> None:
        from onnx import TensorProto, helper
        from onnx.utils import Extractor

        graph = model.graph
        nodes = list(graph.node)
        for node in nodes:
            node.input[:] = [DECODED + "_latent" if name == LATENT else name for name in node.input]
        graph.input.append(helper.make_tensor_value_info(DECODED, TensorProto.INT64, [2]))
        position = next(i for i, node in enumerate(nodes) if LATENT in node.output) + 1
        nodes[position:position] = [
            helper.make_node("Split", [DECODED], [DECODED + "_first", DECODED + "_end"], axis=0),
            helper.make_node("Constant", [], [DECODED + "_axis"], value=helper.make_tensor("axis", TensorProto.INT64,
                                                                                            [1], [2])),
            helper.make_node("Slice", [LATENT, DECODED + "_first", DECODED + "_end", DECODED + "_axis"],
                             [DECODED + "_latent"]),
        ]
        del graph.node[:]
        graph.node.extend(nodes)
        model.CopyFrom(Extractor(model).extract_model([PRIOR, FRAME_MASK, DECODED], ["output"]))
        _give_frames_a_shape(model.graph)

    return assets.edited_model(timed_model, _named(timed_model, "window"), keep_window)


def _give_frames_a_shape(graph) -> None:
    """ONNX's shape inference cannot follow Piper's fp32 graph to the frames, and a graph's
    inputs and outputs need a shape: [batch, channels, frames]."""
    for value in (*graph.input, *graph.output):
        tensor = value.type.tensor_type
        if value.name in (PRIOR, FRAME_MASK) and not tensor.HasField("shape"):
            for name in ("batch", "channels", "frames"):
                tensor.shape.dim.add().dim_param = name


def _named(timed_model: Path, part: str) -> Path:
    return timed_model.with_name(f"{timed_model.stem}-{part}-v{VERSION}.onnx")
