"""Profiles: resolved by name, carried by the engine, and by `emovox serve --profile`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest

from emovox.errors import InvalidOptionError
from emovox.profiles import PROFILES, profile
from emovox.server.background import ServerProcess
from emovox.server.scheduler import SchedulerSettings

pytestmark = pytest.mark.models


def test_profiles_resolve_by_name_and_unknown_names_list_the_choices():
    assert set(PROFILES) >= {"edge", "realtime", "quality", "batch"}
    assert profile("edge").backends == ("vits", "hibari")
    with pytest.raises(InvalidOptionError, match="edge, realtime, quality, batch"):
        profile("turbo")


def test_batch_profile_runs_a_single_threaded_worker_per_core():
    batch = profile("batch")
    assert batch.session_settings().intra_op_threads == 1
    assert SchedulerSettings.from_profile(batch).workers == os.cpu_count()


def test_edge_engine_carries_only_the_small_models(tmp_path):
    engine = profile("edge").engine(home=tmp_path)
    assert [v.name for v in engine.voices()] == ["joe", "heart"]
    assert engine.synthesize("Small and quick.").duration > 0.5


def test_profiles_command_lists_them_as_json():
    listed = subprocess.run([sys.executable, "-m", "emovox.cli", "profiles", "--json"], capture_output=True,
                            text=True, check=True)
    names = [p["name"] for p in json.loads(listed.stdout)]
    assert names == list(PROFILES)


def test_serve_with_a_profile_answers_with_that_profile(tmp_path):
    server = ServerProcess([sys.executable, "-m", "emovox.cli", "serve", "--profile", "edge", "--port", "{port}"],
                           env={**os.environ, "EMOVOX_HOME": str(tmp_path)}, ready_within_s=120)
    url = server.url
    try:
        voices = [v["name"] for v in httpx.get(f"{url}/v1/voices").json()["data"]]
        assert voices == ["joe", "heart"]
        speech = httpx.post(f"{url}/v1/audio/speech", json={"input": "Served at the edge.", "response_format": "wav"},
                            timeout=60)
        assert speech.status_code == 200 and speech.content[:4] == b"RIFF" and len(speech.content) > 20_000
        kokoro = httpx.post(f"{url}/v1/audio/speech", json={"input": "Hello.", "voice": "jf_alpha"}, timeout=60)
        assert kokoro.status_code == 400 and kokoro.json()["error"]["code"] == "voice_not_found"
    finally:
        server.process.terminate()
        server.process.wait(timeout=30)
