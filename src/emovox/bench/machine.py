"""What a measurement ran on: CPU, cores, memory, ONNX Runtime and its providers."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def describe() -> dict:
    import onnxruntime

    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.exists() else []
    cpu = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")),
               platform.processor() or platform.machine())
    meminfo = Path("/proc/meminfo")
    memory_kb = next((int(line.split()[1]) for line in (meminfo.read_text().splitlines() if meminfo.exists() else [])
                      if line.startswith("MemTotal:")), 0)
    return {"cpu": cpu, "cores": os.cpu_count() or 1, "memory_gb": round(memory_kb / 2**20, 1),
            "onnxruntime": onnxruntime.__version__, "providers": onnxruntime.get_available_providers(),
            "python": platform.python_version(), "system": f"{platform.system()} {platform.release()}"}
