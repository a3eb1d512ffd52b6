"""The planner's answer deployed with Ray's own CLI: `emovox plan --target cluster
--emit-serve-config FILE`, then `serve deploy FILE` on the local cluster, then a request."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.ray


def _results(cores: int = 2) -> dict:
    """Bench results as `emovox bench` writes them, for joe on the realtime profile."""
    levels = [{"clients": n, "requests": 10, "audio_s_per_s": 20.0, "ttfa_p50_ms": 80.0, "ttfa_p95_ms": 90.0}
              for n in (1, 2, 4)]
    voice = {"voice": "joe", "backend": "vits", "rtf": {"median": 0.04}, "first_chunk_ms": 70.0,
             "concurrency": levels, "model_mb": 60.0}
    profile = {"name": "realtime", "intra_op_threads": None, "batch_window_ms": 0.0, "max_batch": 1}
    return {"machine": {"cores": cores}, "profiles": [{"profile": profile, "voices": [voice]}]}


def test_the_planners_config_deploys_with_serve_deploy(ray_cluster, tmp_path):
    import local_postgres

    bench, config = tmp_path / "bench.json", tmp_path / "serve.yaml"
    bench.write_text(json.dumps(_results()))
    port = local_postgres.free_port()
    planned = subprocess.run([sys.executable, "-m", "emovox.cli", "plan", "--target", "cluster", "--concurrency", "1",
                              "--latency-ms", "1000", "--cores", "1", "--bench", str(bench), "--emit-serve-config",
                              str(config), "--http-host", "127.0.0.1", "--http-port", str(port)],
                             capture_output=True, text=True, timeout=120)
    assert planned.returncode == 0, planned.stderr
    environment = {**os.environ, **{k: v for k, v in ray_cluster.items() if k not in ("RAY_TEMP_DIR", "CLUSTER_DIR")}}
    serve = str(Path(sys.executable).with_name("serve"))
    deployed = subprocess.run([serve, "deploy", str(config)], env=environment, capture_output=True, text=True,
                              timeout=120)
    assert deployed.returncode == 0, deployed.stderr
    try:
        deadline, answer = time.monotonic() + 180, None
        while time.monotonic() < deadline:
            try:
                answer = httpx.post(f"http://127.0.0.1:{port}/v1/audio/speech", timeout=60, json={
                    "model": "tts-1", "voice": "joe", "input": "Planned, then deployed.", "response_format": "wav"})
                if answer.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(1)
        assert answer is not None and answer.status_code == 200 and len(answer.content) > 20_000
    finally:
        subprocess.run([serve, "shutdown", "-y"], env=environment, capture_output=True, timeout=120)
