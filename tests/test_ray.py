"""emovox on a real local Ray cluster: two nodes on loopback addresses (one CPU each) and
PostgreSQL, started by tools/local_cluster.py for the test run (conftest's `ray_cluster`)
and stopped by PID after it.

The application (emovox.deploy) is deployed with Ray's own API, as `serve run` does, with
joe's family only (one model keeps the tier within a few minutes on two cores): an ingress,
two synthesis replicas, a cloning replica.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import io
import json
import os
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import pytest
import soundfile

pytestmark = pytest.mark.ray

SENTENCE = "The cluster speaks through its ingress, one chunk at a time."


@pytest.fixture(scope="module")
def cluster(ray_cluster):
    return ray_cluster


@pytest.fixture(scope="module")
def served(cluster):
    """The app deployed on the cluster; its HTTP address."""
    import local_postgres

    os.environ.update({k: v for k, v in cluster.items() if k not in ("EMOVOX_STORE", "RAY_TEMP_DIR", "CLUSTER_DIR")})
    import ray
    from ray import serve

    from emovox.deploy import build_app

    ray.init(address=cluster["RAY_ADDRESS"], log_to_driver=False)
    port = local_postgres.free_port()
    serve.start(proxy_location="HeadOnly", http_options={"host": "127.0.0.1", "port": port})
    args = {"backends": ["vits"], "num_cpus": 0.5, "cloning_cpus": 0.25, "ingress_cpus": 0.25,
            "autoscaling": {"min_replicas": 2, "max_replicas": 2, "initial_replicas": 2}}
    serve.run(build_app(args), name="emovox", route_prefix="/")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        serve.shutdown()
        ray.shutdown()


@contextlib.contextmanager
def _under_load(base: str, text: str, timeout: float, clients: int = 3):
    """`clients` threads asking for `text` back to back until the block ends; yields the
    outcomes as they come: (when asked, status; 0 where the connection broke)."""
    outcomes: list[tuple[float, int]] = []
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            asked = time.monotonic()
            try:
                code = _speech(base, text=text, timeout=timeout).status_code
            except httpx.HTTPError:
                code = 0
            outcomes.append((asked, code))

    threads = [threading.Thread(target=load) for _ in range(clients)]
    for thread in threads:
        thread.start()
    try:
        yield outcomes
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def _speech(base: str, voice: str = "joe", text: str = SENTENCE, timeout: float = 60) -> httpx.Response:
    return httpx.post(f"{base}/v1/audio/speech", json={"model": "tts-1", "voice": voice, "input": text,
                                                       "response_format": "wav"}, timeout=timeout)


def test_the_openai_client_streams_through_the_ingress(served):
    from openai import OpenAI

    client = OpenAI(base_url=f"{served}/v1", api_key="unused")
    pieces = []
    with client.audio.speech.with_streaming_response.create(model="tts-1", voice="joe", input=SENTENCE,
                                                            response_format="pcm") as response:
        pieces = list(response.iter_bytes())
    pcm = np.frombuffer(b"".join(pieces), dtype="<i2")
    assert len(pcm) / 24_000 > 2.0 and np.abs(pcm).max() > 1000  # seconds of real speech at 24 kHz
    bad = httpx.post(f"{served}/v1/audio/speech", json={"model": "tts-1", "voice": "nobody", "input": "Hi."})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "voice_not_found"


def test_a_voice_cloned_through_one_replica_speaks_through_the_others(served, cluster):
    from emovox.frontend.g2p.espeak import Espeak
    from emovox.voices.store import open_store

    espeak = Espeak.shared()
    clip = espeak.speak("My grandmother grew tomatoes and beans in her garden every single summer.", "en-us+f3")
    upload = io.BytesIO()
    soundfile.write(upload, clip, espeak.sample_rate, format="WAV")
    made = httpx.post(f"{served}/v1/voices", files={"file": ("ref.wav", upload.getvalue(), "audio/wav")},
                      data={"name": "espeak-f3", "backend": "vits", "quality": "fast"}, timeout=120)
    assert made.status_code == 201, made.text
    assert open_store(url=cluster["EMOVOX_STORE"]).get("espeak-f3") is not None  # in the shared store
    plain = _speech(served)
    for _ in range(4):  # the cloning replica made it; the ingress and both synthesis replicas read it
        cloned = _speech(served, voice="espeak-f3")
        assert cloned.status_code == 200, cloned.text
        assert cloned.content != plain.content
    gone = httpx.delete(f"{served}/v1/voices/espeak-f3", timeout=30)
    assert gone.status_code == 200
    deadline = time.monotonic() + 10
    while _speech(served, voice="espeak-f3").status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _speech(served, voice="espeak-f3").status_code == 400  # every process heard the delete


def test_a_killed_synthesis_replica_is_replaced_under_load(served):
    import ray
    from ray import serve

    with _under_load(served, "A short sentence under load.", timeout=30) as outcomes:
        time.sleep(2)
        replicas = [a for a in ray.util.list_named_actors(all_namespaces=True)
                    if "synthesis-vits" in a["name"] and "SERVE_REPLICA" in a["name"]]
        assert len(replicas) == 2
        before = len(outcomes)
        ray.kill(ray.get_actor(replicas[0]["name"], namespace=replicas[0]["namespace"]), no_restart=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status = serve.status().applications["emovox"].deployments["synthesis-vits"]
            if status.status == "HEALTHY" and status.replica_states.get("RUNNING", 0) == 2:
                break
            time.sleep(0.5)
        time.sleep(2)
    failed = [code for _, code in outcomes[before:] if code != 200]
    print(f"\nreplica killed under load: {len(outcomes) - before} requests after, {len(failed)} failed: {failed}")
    assert status.replica_states.get("RUNNING", 0) == 2  # replaced
    assert all(code in (200, 500, 503, 0) for _, code in outcomes)  # in-flight ones may fail; nothing else does
    after = [_speech(served).status_code for _ in range(4)]
    assert after == [200] * 4


def _serving_on_live_nodes() -> bool:
    """Every deployment of the app has a running replica, each on a node that is alive."""
    import ray
    from ray import serve
    from ray.util.state import list_actors

    alive = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    replicas = list_actors(filters=[("state", "=", "ALIVE")])
    placed = {r.class_name.rsplit(":", 1)[-1] for r in replicas
              if r.class_name.startswith("ServeReplica:emovox:") and r.node_id in alive}
    return set(serve.status().applications["emovox"].deployments) <= placed


def test_a_client_that_goes_away_stops_the_synthesis_replica(served, cluster):

    long_text = " ".join(f"This is sentence number {n} of a long text that nobody will hear." for n in range(1, 41))
    with httpx.stream("POST", f"{served}/v1/audio/speech", timeout=60,
                      json={"model": "tts-1", "voice": "joe", "input": long_text, "response_format": "pcm"}) as response:
        next(response.iter_bytes())  # the first audio, then the client hangs up
    logs = Path(cluster["RAY_TEMP_DIR"]) / "session_latest" / "logs" / "serve"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        said = "".join(p.read_text(errors="replace") for p in logs.glob("replica_emovox_synthesis-vits_*.log"))
        if "stream cancelled after" in said:
            break
        time.sleep(0.5)
    stopped = [line for line in said.splitlines() if "stream cancelled after" in line]
    assert stopped, "no synthesis replica stopped when the client went away"
    sent, total = (int(n) for n in stopped[-1].split("stream cancelled after ")[1].split(" chunks")[0].split(" of "))
    assert total == 40 and sent < total


def test_a_full_deployment_answers_429_before_any_audio(served):
    """A second application whose one synthesis replica takes one request and queues one:
    of six long requests at once, the refused get a 429 with Retry-After and the error
    envelope, and every 200 carries its whole body (Serve refuses only when the first chunk
    is asked for, so the app asks for it before it answers)."""
    from ray import serve

    from emovox.deploy import build_app

    args = {"backends": ["vits"], "num_cpus": 0, "cloning_cpus": 0, "ingress_cpus": 0,  # beside the main app
            "max_ongoing_requests": 1, "max_queued_requests": 1,
            "autoscaling": {"min_replicas": 1, "max_replicas": 1, "initial_replicas": 1}}
    serve.run(build_app(args), name="tight", route_prefix="/tight")
    text = " ".join(f"Sentence {n} of a request that keeps its replica busy for a while." for n in range(1, 9))
    try:
        deadline = time.monotonic() + 60  # the proxy may answer 500 for a moment after serve.run returns
        while _speech(f"{served}/tight").status_code != 200:
            assert time.monotonic() < deadline, "the second application never answered"
            time.sleep(1)
        def ask(_):
            with httpx.Client(timeout=120) as client:
                response = client.post(f"{served}/tight/v1/audio/speech", json={
                    "model": "tts-1", "voice": "joe", "input": text, "response_format": "pcm"})
                return response.status_code, response.headers, response.content

        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(ask, range(6)))
    finally:
        serve.delete("tight")
    refused = [(headers, body) for code, headers, body in answers if code == 429]
    spoken = [body for code, _, body in answers if code == 200]
    assert len(refused) + len(spoken) == 6 and refused and spoken, [code for code, _, _ in answers]
    for headers, body in refused:
        assert headers["retry-after"] and json.loads(body)["error"]["type"]
    for body in spoken:  # whole: eight sentences of speech, about 3 s each
        assert len(body) / 2 / 24_000 > 15


def test_a_node_killed_under_load_costs_only_its_in_flight_requests(served, cluster):
    """The second node dies (every process SIGKILLed) while three clients keep asking: requests
    fail until Ray knows the node is dead and Serve has a replica of every deployment on the
    head (an ingress that was on the node starts again there), everything asked after that
    succeeds, and when the node comes back a synthesis replica is placed on it again. Runs
    last: it restarts the node."""
    import ray
    from ray import serve
    from ray.util.state import list_actors

    import local_cluster

    directory = Path(cluster["CLUSTER_DIR"])
    with _under_load(served, "A short sentence while a node dies.", timeout=120) as outcomes:
        time.sleep(2)
        killed_at = time.monotonic()
        assert local_cluster.kill_worker(directory)
        deadline = killed_at + 90
        while any(n["Alive"] and n["NodeManagerAddress"] == local_cluster.WORKER_ADDRESS for n in ray.nodes()):
            assert time.monotonic() < deadline, "Ray never noticed the node died"
            time.sleep(0.5)
        known_dead_at = time.monotonic()
        while not _serving_on_live_nodes():  # an ingress or the last replica there: Serve starts it again
            assert time.monotonic() < deadline, "Serve never recovered from the lost node"
            time.sleep(0.5)
        recovered_at = time.monotonic()
        time.sleep(8)  # requests asked after recovery, served by the head alone
    lost = [code for asked, code in outcomes if killed_at - 30 < asked < recovered_at and code != 200]
    after = [code for asked, code in outcomes if asked >= recovered_at]
    print(f"\nnode killed under load: Ray noticed after {known_dead_at - killed_at:.0f} s, Serve served from the "
          f"head after {recovered_at - killed_at:.0f} s; {len(lost)} requests failed before that, "
          f"{sum(code == 200 for code in after)} of {len(after)} asked after it succeeded")
    assert after and all(code == 200 for code in after)

    local_cluster.restart_worker(directory)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = serve.status().applications["emovox"]
        if (status.status == "RUNNING"
                and status.deployments["synthesis-vits"].replica_states.get("RUNNING", 0) == 2):
            break
        time.sleep(0.5)
    worker = next(n["NodeID"] for n in ray.nodes() if n["Alive"] and n["NodeManagerAddress"] == local_cluster.WORKER_ADDRESS)
    replicas = list_actors(filters=[("state", "=", "ALIVE"), ("class_name", "=", "ServeReplica:emovox:synthesis-vits")])
    assert worker in {replica.node_id for replica in replicas}  # the head has no room for a second one
    assert [_speech(served).status_code for _ in range(4)] == [200] * 4
