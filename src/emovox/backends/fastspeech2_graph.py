"""An F0 level input for the Mandarin FastSpeech2, added by editing its graph once.

The model predicts one F0 value per phoneme, normalized by the speaker's mean and standard
deviation (in Hz), multiplies it by the `f0_ratios` input and embeds the product into the
hidden sequence its decoder turns into mel frames. Scaling a z-score widens or narrows the
contour around the mean but cannot move its level; a level change was therefore made on the
waveform by TD-PSOLA, which the judge hears (DistillMOS on eight sentences: sad 2.39 against
neutral 3.99, disgusted 2.84). The edit adds a float input `f0_offset[1]` to the scaled
prediction before its embedding:

    z' = z · f0_ratios + f0_offset           (neutral: 1 and 0, every output exactly as before)

A level of r = 2^(st/12) is z' = r·z + (r − 1)·mean/std, so the backend sets f0_ratios to
r times the range it wants and f0_offset to (r − 1)·`MEAN_OVER_STD`. The decoder then
renders the new contour itself: sad measured 3.33 and disgusted 4.02 that way
(benchmarks/README.md, "Mandarin naturalness"). The model follows a raised level less well
(+6.3 st asked, +1.8 measured, 2.26), so a raise goes into the model only up to
`MODEL_RAISE_LIMIT_ST` and TD-PSOLA does the rest.

The F0 tensor is found by structure, not by name: the first `Mul` that `f0_ratios` reaches
through reshapes. The edited model is cached beside the user's other models, named by the
source's hash and the edit's version.
"""

from __future__ import annotations

from pathlib import Path

from emovox.backends import assets
from emovox.errors import ModelAssetError

LEVEL_INPUT = "f0_offset"
EDIT_VERSION = 1
#: The speaker's mean F0 over its standard deviation in the model's normalization, measured:
#: offsets of +1 and -1 moved the median F0 of eight sentences by +2.15 and -2.70 st, that
#: is by 13.2 % and 14.5 % of the mean (std/mean 0.14).
MEAN_OVER_STD = 7.2
#: Semitones of a raise the model takes; TD-PSOLA does the rest. Splitting happy (+4.5 st)
#: and surprised (+6.3 st) at +1.5 or +2.5 st measured DistillMOS 3.27-3.34 and 3.66-3.73,
#: against 2.96 and 3.29 by TD-PSOLA alone (eight sentences; fearful preferred the lower
#: split, 3.36 against 3.07), so the split is between them.
MODEL_RAISE_LIMIT_ST = 2.0
_PASS_THROUGH = {"Reshape", "Unsqueeze", "Squeeze", "Identity", "Cast", "Expand"}


def level_model(source: Path, cache: Path, source_sha256: str) -> Path:
    """The edited model for `source`, built on first use and reused after."""
    target = cache / assets.edited_name("fastspeech2-level", EDIT_VERSION, source_sha256)
    return assets.edited_model(source, target, add_level_input)


def add_level_input(model) -> None:
    from onnx import TensorProto, helper

    graph = model.graph
    position, scaled = _scaled_f0(graph)
    moved = "emovox_f0_scaled"
    graph.node[position].output[0] = moved  # its consumers (and a graph output) keep reading `scaled`
    graph.input.append(helper.make_tensor_value_info(LEVEL_INPUT, TensorProto.FLOAT, [1]))
    graph.node.insert(position + 1, helper.make_node("Add", [moved, LEVEL_INPUT], [scaled], name="emovox_f0_level"))


def _scaled_f0(graph) -> tuple[int, str]:
    """(index, output) of the first Mul that `f0_ratios` reaches through shape-only nodes."""
    consumers: dict[str, list[int]] = {}
    for index, node in enumerate(graph.node):
        for name in node.input:
            consumers.setdefault(name, []).append(index)
    frontier = ["f0_ratios"]
    while frontier:
        name = frontier.pop(0)
        for index in consumers.get(name, []):
            node = graph.node[index]
            if node.op_type == "Mul":
                return index, node.output[0]
            if node.op_type in _PASS_THROUGH:
                frontier.extend(node.output)
    raise ModelAssetError("the Mandarin acoustic model has no F0 scaled by f0_ratios; rebuild it with "
                          "`make zh-models`")
