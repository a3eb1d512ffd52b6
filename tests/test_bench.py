"""`emovox bench` end to end on a tiny configuration, and `emovox plan` on its results."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.models


def _emovox(*args: str, home) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "emovox.cli", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "EMOVOX_HOME": str(home)})


def test_bench_measures_a_profile_and_writes_json_markdown_and_plots(tmp_path):
    out = tmp_path / "bench"
    run = _emovox("bench", "--profile", "edge", "--quick", "--concurrency", "1", "2", "--seconds", "1",
                  "--out", str(out), home=tmp_path)
    assert run.returncode == 0, run.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["machine"]["cores"] >= 1 and results["machine"]["onnxruntime"]
    (edge,) = results["profiles"]
    joe, heart = edge["voices"]
    assert edge["profile"]["name"] == "edge" and edge["load_s"] > 0 and edge["peak_rss_mb"] > 50
    assert 0 < joe["rtf"]["median"] < 1 and joe["first_chunk_ms"] > 0 and joe["model_mb"] < 30
    assert 0 < joe["cache_hit_ms"] < joe["first_chunk_ms"]  # measured apart: a hit is no synthesis
    assert [level["clients"] for level in joe["concurrency"]] == [1, 2]
    assert all(level["audio_s_per_s"] > 1 and level["requests"] > 0 for level in joe["concurrency"])
    live = joe["live_streams"]
    assert [level["streams"] for level in live["levels"]][:1] == [1] and live["realtime"] >= 1
    assert heart["voice"] == "heart" and 0 < heart["rtf"]["median"] < joe["rtf"]["median"] and heart["model_mb"] < 10
    assert {p["voice"] for p in results["peers"]} == {"joe", "heart", "jf_alpha"}  # run, or a reason it could not be
    report = (out / "report.md").read_text()
    assert "| edge | joe | int8 |" in report and "| edge | joe | 1 | 0 |" in report
    assert (out / "concurrency.png").stat().st_size > 5000 and (out / "rtf_by_profile.png").stat().st_size > 5000

    # The planner reads the latest results by default and answers in JSON.
    planned = _emovox("plan", "--latency-ms", "500", "--concurrency", "2", "--target", "edge", "--json", home=tmp_path)
    answer = json.loads(planned.stdout)
    assert planned.returncode == 0 and answer["feasible"] and answer["profile"] == "edge" and answer["machines"] == 1
    impossible = _emovox("plan", "--latency-ms", "5", "--target", "edge", home=tmp_path)
    assert impossible.returncode == 1 and "over the 5 ms budget" in impossible.stdout


def test_plan_without_results_calibrates_first(tmp_path):
    planned = _emovox("plan", "--target", "edge", "--concurrency", "1", "--latency-ms", "300", "--json", home=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert "quick calibration" in planned.stderr and json.loads(planned.stdout)["feasible"]
    assert (tmp_path / "bench" / "latest.json").is_file()
