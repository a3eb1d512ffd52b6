"""Export resemble-perth's watermark network (MIT, its weights in its wheel) to ONNX, once.

PerthNet marks speech by adding a learned residual to the log-magnitude spectrogram below
2 kHz and detects the mark with a second network. Both are stacks of 1-D convolutions; this
script rebuilds the stacks, loads the packaged checkpoint with torch and writes two graphs
that take the spectrogram's low band and return what the stacks return. Everything around
them (STFT, masks, the multi-rate detector's pooling) runs in NumPy in
`emovox.audio.watermark`, so neither torch nor perth is needed at run time.

Run by `make watermark-model` in its own build venv (torch CPU + resemble-perth without its
dependencies): `python tools/export_watermark.py --out DIR`.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
from pathlib import Path

import torch
from torch import nn

HIDDEN = 256
KERNEL = 7
DEPTH = 5
SUBBAND = 128  # frequency bins below 2 kHz at 32 kHz, n_fft 2048
SOURCE = "resemble-perth==1.0.1"


def conv_stack(inputs: int, outputs: int) -> nn.Sequential:
    """Conv(1x1) -> DEPTH x Conv(k=7) -> Conv(1x1), LeakyReLU after all but the last:
    the layout of perth's Encoder.layers and each of its Decoder's three branches."""
    layers = [nn.Conv1d(inputs, HIDDEN, 1), nn.LeakyReLU()]
    for _ in range(DEPTH):
        layers += [nn.Conv1d(HIDDEN, HIDDEN, KERNEL, padding=KERNEL // 2), nn.LeakyReLU()]
    layers.append(nn.Conv1d(HIDDEN, outputs, 1))
    return nn.Sequential(*layers)


def load_stack(state: dict, prefix: str, outputs: int) -> nn.Sequential:
    stack = conv_stack(SUBBAND, outputs)
    # perth wraps each conv in a module (`layers.N.conv`); ours sit at every other index
    mapped = {}
    for index in range(DEPTH + 2):
        for kind in ("weight", "bias"):
            mapped[f"{2 * index}.{kind}"] = state[f"{prefix}.{index}.conv.{kind}"]
    stack.load_state_dict(mapped)
    return stack.eval()


class Detector(nn.Module):
    """The decoder's three branches (the band read at 1.25x, 1x and 0.75x time scale)."""

    def __init__(self, state: dict) -> None:
        super().__init__()
        self.slow = load_stack(state, "decoder.slow_layers", 2)
        self.normal = load_stack(state, "decoder.normal_layers", 2)
        self.fast = load_stack(state, "decoder.fast_layers", 2)

    def forward(self, slow, normal, fast):
        return self.slow(slow), self.normal(normal), self.fast(fast)


def checkpoint() -> Path:
    spec = importlib.util.find_spec("perth")  # located, not imported: perth's imports need librosa
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{SOURCE} is not installed in this venv")
    found = sorted(Path(spec.submodule_search_locations[0]).glob("perth_net/pretrained/implicit/*.pth.tar"))
    if not found:
        raise SystemExit("perth's packaged checkpoint is missing")
    return found[-1]


def export(out: Path) -> None:
    source = checkpoint()
    state = torch.load(source, map_location="cpu", weights_only=True)["model"]
    out.mkdir(parents=True, exist_ok=True)
    band = {0: "batch", 2: "frames"}
    with torch.no_grad():
        embedder = load_stack(state, "encoder.layers", SUBBAND)
        torch.onnx.export(embedder, (torch.zeros(1, SUBBAND, 64),), out / "embed.onnx", input_names=["band"],
                          output_names=["residual"], dynamic_axes={"band": band, "residual": band},
                          opset_version=17, dynamo=False)
        detector = Detector(state)
        names = ("slow", "normal", "fast")
        example = tuple(torch.zeros(1, SUBBAND, n) for n in (80, 64, 48))
        axes = {name: {0: "batch", 2: f"{name}_frames"} for name in names}
        axes.update({f"{name}_out": {0: "batch", 2: f"{name}_frames"} for name in names})
        torch.onnx.export(detector, example, out / "detect.onnx", input_names=list(names),
                          output_names=[f"{name}_out" for name in names], dynamic_axes=axes, opset_version=17,
                          dynamo=False)
    manifest = {"source": SOURCE, "checkpoint": source.name,
                "checkpoint_sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
                "files": {name: hashlib.sha256((out / name).read_bytes()).hexdigest()
                          for name in ("embed.onnx", "detect.onnx")}}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    export(parser.parse_args().out)


if __name__ == "__main__":
    main()
