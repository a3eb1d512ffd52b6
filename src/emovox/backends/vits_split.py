"""A Piper VITS graph cut in two at its waveform decoder, so the decoder can run on windows.

VITS's text side (text encoder, stochastic duration predictor, the normalizing flow) turns
ids into latent frames `z` ([1, 192, frames], 256 samples each); its HiFi-GAN decoder turns
those into audio. The decoder is convolutions only (no normalization over time, no running
phase), so a window of frames decoded with 8 frames of context on each side is the whole
segment's audio to 66 dB SNR (12 frames: 130 dB; fp32 joe, one sentence). Both parts are cut
from the timed model (vits.py `timed_model`) and cached beside it, by its name and this
cut's version.
"""

from __future__ import annotations

from pathlib import Path

from emovox.backends import assets

#: The latent frames the decoder reads (z times the frame mask), in every precision variant.
LATENT = "/Mul_7_output_0"
INPUTS = ("input", "input_lengths", "scales")
VERSION = 1


def text_model(timed_model: Path, frame_lengths: str, durations: str) -> Path:
    """Ids, lengths and scales -> latent frames, each row's frame count, each id's frames."""
    def keep_text_side(model) -> None:
        from onnx.utils import Extractor

        model.CopyFrom(Extractor(model).extract_model(list(INPUTS), [LATENT, frame_lengths, durations]))
        _give_latent_a_shape(model.graph)

    return assets.edited_model(timed_model, _named(timed_model, "text"), keep_text_side)


def decoder_model(timed_model: Path) -> Path:
    """Latent frames -> audio."""
    def keep_decoder(model) -> None:
        from onnx.utils import Extractor

        model.CopyFrom(Extractor(model).extract_model([LATENT], ["output"]))
        _give_latent_a_shape(model.graph)

    return assets.edited_model(timed_model, _named(timed_model, "decoder"), keep_decoder)


def _give_latent_a_shape(graph) -> None:
    """ONNX's shape inference cannot follow Piper's fp32 graph to the latent frames, and a
    graph's inputs and outputs need a shape: [batch, channels, frames]."""
    for value in (*graph.input, *graph.output):
        tensor = value.type.tensor_type
        if value.name == LATENT and not tensor.HasField("shape"):
            for name in ("batch", "channels", "frames"):
                tensor.shape.dim.add().dim_param = name


def _named(timed_model: Path, part: str) -> Path:
    return timed_model.with_name(f"{timed_model.stem}-{part}-v{VERSION}.onnx")
