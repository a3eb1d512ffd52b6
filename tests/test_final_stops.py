"""joe's word-final stops, a few frames longer than his model times them (final_stops.py):
which ids get the frames, and that the timed graph adds them to the model's own durations."""

from __future__ import annotations

import numpy as np
import pytest

from emovox.backends import final_stops
from emovox.backends.vits import HOP, JOE_FINAL_STOP_FRAMES, VitsBackend
from emovox.types import Prosody


def _stop_frames(backend: VitsBackend, phonemes: str, frames: int) -> dict[int, str]:
    """{offset in `phonemes`: symbol} of the symbols whose ids get extra frames."""
    encoded = backend.encode(phonemes)
    extra = final_stops.extra_frames(encoded.ids, backend._symbol_of, frames)
    assert set(extra.tolist()) <= {0.0, float(frames)}
    return {encoded.sources[i]: phonemes[encoded.sources[i]] for i in np.flatnonzero(extra)}


def test_only_a_stop_that_ends_its_word_is_held_longer(tiny_engine):
    backend = tiny_engine.backend_of("tiny")
    phonemes = "ɹˈiːtʃt θɹˈiː stˈɑːp, ɡˈʊd bˈæɡ ˈæktɪd."
    held = _stop_frames(backend, phonemes, 2)
    # reached (its last t, not the t of tʃ), stop before a comma, good, bag, acted before the end;
    # not the s-t onset, the g and b that begin words, or the k-t inside "acted"
    ends = [phonemes.index("tʃt") + 2, phonemes.index("p,"), phonemes.index("d bˈ"),
            phonemes.index("ɡ ˈæ"), phonemes.index("d.")]
    assert sorted(held) == sorted(ends)
    assert _stop_frames(backend, phonemes, 0) == {}


def test_the_timed_graph_adds_the_frames_to_the_model_s_durations(tiny_dir):
    """The extra frames are an input of the timed model, added to the durations the model
    predicted before they expand into frames: each word-final stop's span is that much longer,
    every other id's is the model's own."""
    model, config = tiny_dir / "vits" / "tiny.onnx", tiny_dir / "vits" / "tiny.onnx.json"
    plain = VitsBackend.from_files(model, config, name="tiny", gender="female")
    careful = VitsBackend.from_files(model, config, name="tiny", gender="female", final_stop_frames=3)
    encoded = plain.encode("hiː juːzd ɪt.")
    row = (encoded.ids, "tiny", 1.0, Prosody())
    _, plain_spans = plain.infer_batch_timed([row])[0]
    _, careful_spans = careful.infer_batch_timed([row])[0]
    lengthened = (np.diff(careful_spans, axis=1) - np.diff(plain_spans, axis=1)).reshape(-1) // HOP
    expected = final_stops.extra_frames(encoded.ids, plain._symbol_of, 3)
    assert np.count_nonzero(expected) == 2  # the d of "used", the t of "it"
    assert np.array_equal(lengthened, expected)


@pytest.mark.slow
def test_joe_holds_his_word_final_stops_and_nothing_else(engine):
    """On the real model: the same sentence, with and without the extra frames, differs in
    the word-final stops' durations only, and the audio by exactly those frames."""
    joe = engine.backend_of("joe")
    job = next(iter(engine.plan("The rainfall reached three inches, and he used it.", voice="joe")))
    model = joe.model_path
    plain = VitsBackend.from_files(model, model.with_name(model.name + ".json"), name="joe", gender="male",
                                   streaming=True)
    row = (list(job.ids), job.model_voice, job.speed, job.controls)
    plain_audio, plain_spans = plain.infer_timed(*row)
    audio, careful_spans = joe.infer_timed(*row)
    lengthened = (np.diff(careful_spans, axis=1) - np.diff(plain_spans, axis=1)).reshape(-1) // HOP
    expected = final_stops.extra_frames(list(job.ids), joe._symbol_of, JOE_FINAL_STOP_FRAMES)
    assert np.count_nonzero(expected) == 4  # reached, and, used, it
    assert np.array_equal(lengthened, expected)
    assert len(audio) - len(plain_audio) == int(expected.sum()) * HOP
