#!/usr/bin/env bash
# The prepared GPU check (see gpu_check.py): run on the GPU machine from the repository root.
#   benchmarks/gpu_check.sh [OUT_DIR]
# Needs the project installed with onnxruntime-gpu in place of onnxruntime:
#   .venv/bin/pip uninstall -y onnxruntime && .venv/bin/pip install onnxruntime-gpu
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || echo "nvidia-smi not found"
timeout 900 "$PYTHON" benchmarks/gpu_check.py --out "${1:-gpu-results}"
