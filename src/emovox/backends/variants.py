"""Smaller or faster variants of a packaged model, made once with ONNX Runtime's own tools.

    fp32         the model as packaged
    int8         dynamic quantization, uint8 weights (`quantize_dynamic`, QUInt8). On this
                 CPU int8 *signed* weights made VITS 3x slower (ConvInteger's slow path);
                 unsigned weights are as fast as fp32 at 30 % of the size. Nodes under the
                 `keep_float` prefixes stay float: for VITS the duration predictor, whose
                 int8 version misplaced phonemes (Whisper WER 2.8 -> 4.2 %; 2.8 % kept float).
    int8-static  static quantization, activations calibrated on real phoneme sequences (QDQ)
    fp16         float16 weights with float32 inputs and outputs, for CUDA; on a CPU most
                 kernels are float32, so it saves disk, not time
    optimized    ORT's offline graph optimization, saved: the same weights, a faster load

A variant is written next to the other derived models in the cache directory, named by
the source's hash, the variant and this module's version, and written atomically.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path

from emovox.backends import assets
from emovox.errors import InvalidOptionError
from emovox.paths import cache_dir, written_atomically

PRECISIONS = ("fp32", "int8", "int8-static", "fp16", "optimized")
VARIANTS_VERSION = 3

#: Yields model inputs (name -> array) that exercise the model, for static calibration.
Calibration = Callable[[], Iterable[dict]]


def variant(source: Path, precision: str, calibration: Calibration | None = None,
            source_sha256: str | None = None, keep_float: tuple[str, ...] = ()) -> Path:
    """The model at `source` in `precision`, built on first use and reused after.

    `keep_float`: node-name prefixes that quantization leaves in float."""
    check_precision(precision)
    if precision == "fp32":
        return source
    digest = (source_sha256 or assets.sha256_of(source))[:12]
    if keep_float and precision.startswith("int8"):
        digest += "-" + hashlib.sha256("|".join(keep_float).encode()).hexdigest()[:6]
    target = cache_dir() / f"{source.stem}-{precision}-v{VARIANTS_VERSION}-{digest}.onnx"
    if target.is_file():
        return target
    if precision == "int8-static" and calibration is None:
        raise InvalidOptionError("static int8 quantization needs calibration inputs")
    build = {"int8": lambda s, t: _dynamic_int8(s, t, keep_float),
             "int8-static": lambda s, t: _static_int8(s, t, calibration, keep_float),
             "fp16": _fp16, "optimized": _optimized}[precision]
    with written_atomically(target) as partial:
        build(source, partial)
    return target


def check_precision(precision: str) -> None:
    if precision not in PRECISIONS:
        raise InvalidOptionError(f"unknown precision {precision!r}; choose one of {', '.join(PRECISIONS)}")


@contextmanager
def _quiet_quantizer():
    """The quantizer logs a warning per tensor it skips (hundreds) on the root logger."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.setLevel(level)


def _nodes_under(source: Path, prefixes: tuple[str, ...]) -> list[str]:
    import onnx

    if not prefixes:
        return []
    return [node.name for node in onnx.load(str(source), load_external_data=False).graph.node
            if node.name.startswith(prefixes)]


def _dynamic_int8(source: Path, target: Path, keep_float: tuple[str, ...]) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with _quiet_quantizer():
        quantize_dynamic(str(source), str(target), weight_type=QuantType.QUInt8,
                         nodes_to_exclude=_nodes_under(source, keep_float))


def _static_int8(source: Path, target: Path, calibration: Calibration, keep_float: tuple[str, ...]) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._inputs = iter(calibration())

        def get_next(self):
            return next(self._inputs, None)

    with _quiet_quantizer():
        quantize_static(str(source), str(target), Reader(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        nodes_to_exclude=_nodes_under(source, keep_float))


def _fp16(source: Path, target: Path) -> None:
    import onnx
    from onnxruntime.transformers.float16 import convert_float_to_float16

    model = convert_float_to_float16(onnx.load(str(source)), keep_io_types=True)
    _sort_topologically(model.graph)
    onnx.save(model, str(target))


def _sort_topologically(graph) -> None:
    """Nodes in an order where each comes after what it reads: onnxruntime's float16 converter
    (1.32) appends the casts of the kept float32 inputs at the end, which ONNX's checker refuses."""
    nodes = list(graph.node)
    produced_by = {name: index for index, node in enumerate(nodes) for name in node.output}
    done, order = [False] * len(nodes), []
    for root in range(len(nodes)):
        stack = [(root, False)]
        while stack:  # depth first, without recursion: graphs run thousands of nodes deep
            index, inputs_done = stack.pop()
            if done[index]:
                continue
            if inputs_done:
                done[index] = True
                order.append(nodes[index])
                continue
            stack.append((index, True))
            stack += [(produced_by[name], False) for name in nodes[index].input
                      if name in produced_by and not done[produced_by[name]]]
    del graph.node[:]
    graph.node.extend(order)


def _optimized(source: Path, target: Path) -> None:
    import onnxruntime as ort

    options = ort.SessionOptions()
    # "Extended" keeps the file portable across CPUs (layout-specific rewrites are "all").
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(target)
    options.log_severity_level = 3
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
