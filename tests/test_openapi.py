"""The OpenAPI document tells the truth: schemathesis drives the server from it with every check.

Schemathesis reads `/openapi.json`, generates requests from it (examples, boundary cases,
fuzzing, and chains that follow the document's links: a clone, then its deletion) and checks
every response against the document: its status declared, its media type and headers
declared, its body in the declared schema, no 5xx, schema-valid data accepted and invalid data
refused, 405 with the right Allow. Its one setting is tests/schemathesis.toml (which
statuses a well-formed but unusable request may get, and why).

The server is the real app on the tiny voices, on loopback; the input limit is cut to 100
characters (and the document says so) so that no generated text asks for half an hour of audio.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer
from emovox.server.scheduler import SchedulerSettings
from emovox.voices.sqlite_store import SqliteVoiceStore

pytestmark = pytest.mark.slow  # no model, but a minute of generated requests
CONFIG = Path(__file__).with_name("schemathesis.toml")
MIN_CASES = 1000


@pytest.fixture(scope="module")
def server(tiny_engine, tmp_path_factory):
    settings = ServerSettings(scheduling=SchedulerSettings(workers=2), max_input_chars=100)
    app = create_app(tiny_engine, settings, SqliteVoiceStore(tmp_path_factory.mktemp("store")))
    with BackgroundServer(app) as live:
        yield live


def test_the_document_lists_real_statuses_media_types_and_voices(server, tiny_engine):
    doc = httpx.get(f"{server.url}/openapi.json").json()
    speech = doc["paths"]["/v1/audio/speech"]["post"]["responses"]
    assert {"audio/mpeg", "audio/ogg", "audio/wav", "audio/pcm", "text/event-stream"} <= set(speech["200"]["content"])
    assert {"400", "401", "413", "429", "500", "503"} <= set(speech) and "422" not in speech
    assert speech["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorEnvelope")
    assert speech["429"]["headers"]["Retry-After"]["required"]
    upload = doc["paths"]["/v1/voices"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert upload["required"] == ["file"] and not upload["additionalProperties"]
    assert upload["properties"]["consent_clip"]["contentMediaType"] == "application/octet-stream"
    voice = doc["components"]["schemas"]["SpeechRequest"]["properties"]["voice"]["anyOf"][0]
    assert {"tiny", "af_kiko", "alloy"} <= set(voice["enum"])


def test_schemathesis_finds_nothing_in_a_thousand_generated_requests(server, tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run", f"{server.url}/openapi.json",
         "--checks", "all", "--max-examples", "30", "--workers", "2", "--seed", "20261202", "--request-timeout", "60",
         "--report", "junit", "--report-dir", str(tmp_path), "--no-color"],
        capture_output=True, text=True, timeout=900)
    # the findings (errors and failures, each with a curl line to reproduce it), then the summary
    findings = run.stdout[run.stdout.find("= ERRORS =") if "= ERRORS =" in run.stdout else
                          run.stdout.find("= FAILURES ="):]
    summary = findings[:30000] + "\n...\n" + run.stdout[-1500:]
    generated = re.search(r"(\d+) generated", run.stdout)
    assert run.returncode == 0, summary
    assert generated and int(generated.group(1)) >= MIN_CASES, summary
