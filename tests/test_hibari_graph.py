"""heart's graph edit (backends/hibari_graph.py) on the real model: neutral is the model's own
output, and a speed is the rate heard (durations rounded together, not one by one)."""

import numpy as np
import onnxruntime as ort
import pytest

from emovox.backends import assets, hibari, hibari_graph

pytestmark = [pytest.mark.models, pytest.mark.paired]

SENTENCE = "The ferry leaves the harbour every forty minutes in the summer, weather permitting."


@pytest.fixture(scope="module")
def graphs(engine, tmp_path_factory):
    source = assets.package_file(hibari.PACKAGE, "assets", "hibari.onnx", pip_name=hibari.PIP_NAME)
    edited = hibari_graph.prosody_model(source, tmp_path_factory.mktemp("hibari"), assets.sha256_of(source))
    ids = engine.plan(SENTENCE, voice="heart").jobs[0].ids
    return ort.InferenceSession(str(source)), ort.InferenceSession(str(edited)), [hibari.PAD_ID, *ids, hibari.PAD_ID]


def _run(session, ids, speed, edited=True):
    inputs = {"ids": np.array([ids], np.int64), "speed": np.array([speed], np.float32)}
    if edited:
        inputs.update(f0_scale=np.ones(1, np.float32), f0_range=np.ones(1, np.float32),
                      energy_shift=np.zeros(1, np.float32))
    names = [output.name for output in session.get_outputs()]
    return dict(zip(names, session.run(None, inputs)))


def test_at_neutral_the_edited_graph_gives_the_models_own_output(graphs):
    source, edited, ids = graphs
    before, after = _run(source, ids, 1.0, edited=False), _run(edited, ids, 1.0)
    assert set(before) < set(after)
    for name, value in before.items():  # the F0 edit's arithmetic moves the last float bit
        np.testing.assert_allclose(after[name], value, rtol=1e-5, atol=1e-5, err_msg=name)
    units = after[hibari_graph.DURATIONS_OUTPUT]
    frames = before["f0"].shape[-1]
    assert units.sum() * hibari_graph.SAMPLES_PER_DURATION // hibari.HOP == frames  # the same durations


@pytest.mark.parametrize("speed", [1.1, 0.85])
def test_a_speed_changes_the_sentence_by_what_it_asks(graphs, speed):
    _, edited, ids = graphs
    neutral = _run(edited, ids, 1.0)[hibari_graph.DURATIONS_OUTPUT].sum()
    changed = _run(edited, ids, speed)[hibari_graph.DURATIONS_OUTPUT].sum()
    # rounded one by one, 1.1 had shortened eight sentences by 2.4 % instead of 9.1 %
    assert changed / neutral == pytest.approx(1 / speed, abs=0.015)
