"""joe's word-final stops and nasals, a few frames longer than his model times them (word_endings.py):
which ids get the frames, and that the timed graph adds them to the model's own durations."""

from __future__ import annotations

import numpy as np
import pytest

from emovox.backends import word_endings
from emovox.backends.vits import HOP, JOE_WORD_ENDING_FRAMES, VitsBackend
from emovox.types import Prosody

pytestmark = pytest.mark.paired


def _held(backend: VitsBackend, phonemes: str, frames: int) -> dict[int, str]:
    """{offset in `phonemes`: symbol} of the symbols whose ids get extra frames."""
    encoded = backend.encode(phonemes)
    extra = word_endings.extra_frames(encoded.ids, backend._symbol_of, frames)
    assert set(extra.tolist()) <= {0.0, float(frames)}
    return {encoded.sources[i]: phonemes[encoded.sources[i]] for i in np.flatnonzero(extra)}


def test_only_a_stop_or_a_nasal_that_ends_its_word_is_held_longer(tiny_engine):
    backend = tiny_engine.backend_of("tiny")
    phonemes = "ɹˈiːtʃt θɹˈiː stˈɑːp, ɡˈʊd bˈæɡ ˈæktɪd; sˈʌn nˈaɪn sˈɪŋɪŋ hˈɪm."
    held = _held(backend, phonemes, 2)
    # reached (its last t, not the t of tʃ), stop before a comma, good, bag, acted before the
    # semicolon, sun, nine (its last n), singing (its last ŋ), him before the end; not the s-t
    # onset, the g and b that begin words, the k-t inside "acted", the first n of "nine" or ŋ of "singing"
    ends = [phonemes.index("tʃt") + 2, phonemes.index("p,"), phonemes.index("d bˈ"), phonemes.index("ɡ ˈæ"),
            phonemes.index("d;"), phonemes.index("n nˈ"), phonemes.index("n sˈɪŋ"), phonemes.index("ŋ hˈ"),
            phonemes.index("m.")]
    assert sorted(held) == sorted(ends)
    assert _held(backend, phonemes, 0) == {}


def test_the_timed_graph_adds_the_frames_to_the_model_s_durations(tiny_dir):
    """The extra frames are an input of the timed model, added to the durations the model
    predicted before they expand into frames: each word-final stop's or nasal's span is that much longer,
    every other id's is the model's own."""
    model, config = tiny_dir / "vits" / "tiny.onnx", tiny_dir / "vits" / "tiny.onnx.json"
    plain = VitsBackend.from_files(model, config, name="tiny", gender="female")
    careful = VitsBackend.from_files(model, config, name="tiny", gender="female", word_ending_frames=3)
    encoded = plain.encode("hiː juːzd ɪt.")
    row = (encoded.ids, "tiny", 1.0, Prosody())
    _, plain_spans = plain.infer_batch_timed([row])[0]
    _, careful_spans = careful.infer_batch_timed([row])[0]
    lengthened = (np.diff(careful_spans, axis=1) - np.diff(plain_spans, axis=1)).reshape(-1) // HOP
    expected = word_endings.extra_frames(encoded.ids, plain._symbol_of, 3)
    assert np.count_nonzero(expected) == 2  # the d of "used", the t of "it"
    assert np.array_equal(lengthened, expected)


@pytest.mark.slow
def test_joe_holds_his_word_word_endings_and_nothing_else(engine):
    """On the real model: the same sentence, with and without the extra frames, differs in
    the word-final stops' and nasals' durations only, and the audio by exactly those frames."""
    joe = engine.backend_of("joe")
    job = next(iter(engine.plan("The rainfall reached three inches in the storm, and he used it.", voice="joe")))
    model = joe.model_path
    plain = VitsBackend.from_files(model, model.with_name(model.name + ".json"), name="joe", gender="male",
                                   streaming=True)
    row = (list(job.ids), job.model_voice, job.speed, job.controls)
    plain_audio, plain_spans = plain.infer_timed(*row)
    audio, careful_spans = joe.infer_timed(*row)
    lengthened = (np.diff(careful_spans, axis=1) - np.diff(plain_spans, axis=1)).reshape(-1) // HOP
    expected = word_endings.extra_frames(list(job.ids), joe._symbol_of, JOE_WORD_ENDING_FRAMES)
    assert np.count_nonzero(expected) == 5  # reached, storm, and, used, it
    assert np.array_equal(lengthened, expected)
    assert len(audio) - len(plain_audio) == int(expected.sum()) * HOP
