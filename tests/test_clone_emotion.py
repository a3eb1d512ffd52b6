"""Issue 17's gate: emotion keeps a cloned voice's identity and naturalness.

Apart from tests/test_clone.py because nothing here is budgeted in seconds (the style search
takes a fixed number of steps, a register clone has none), so make test runs it among the
`paired` tests, on a worker and a thread of its own.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import THREADS
from emovox import from_packages
from emovox.backends.session import SessionSettings
from emovox.bench.naturalness import DistillMos
from emovox.bench.speaker_judge import SecondEmbedder
from emovox.emotion.model import EMOTIONS
from emovox.options import SpeechOptions
from emovox.voices.clone import clone
from emovox.voices.encoder import SpeakerEncoder, similarity
from emovox.voices.sqlite_store import SqliteVoiceStore as VoiceStore
from test_clone import ENROLL, HELD_OUT_CLIP, _wav_bytes  # the cloning tests' speaker and texts

pytestmark = [pytest.mark.models, pytest.mark.paired]


@pytest.fixture(scope="module")
def gate_engine(tmp_path_factory):
    """An engine over a store of this module's own, its models on this worker's share of the cores."""
    home = tmp_path_factory.mktemp("clone-gate-home")
    return from_packages(SessionSettings(intra_op_threads=THREADS), home=home), VoiceStore(home)


#: Issue 17's limits on what emotion at intensity 1.0 may cost a clone, from its neutral:
#: similarity by each embedder, and DistillMOS.
LIMITS = {"ge2e": 0.05, "second": 0.08, "mos": 0.3}
#: Written for this test; the clone benchmarks read other sentences. Eight, so that one
#: sentence's reading does not decide an emotion's mean.
EMOTION_TEXTS = ("The lighthouse keeper counted the ships passing in the fog.",
                 "A parcel with no return address arrived on Friday afternoon.",
                 "They rebuilt the wooden bridge after the spring flood.",
                 "My uncle keeps bees at the bottom of his long garden.",
                 "The last bus leaves the station at a quarter past eleven.",
                 "Fresh snow covered the playground before the children woke up.",
                 "The orchestra rehearsed the second movement three more times.",
                 "We borrowed a canoe and paddled slowly across the lake.")


#: A fast clone's search is 4 s, which was 3 steps here on a slow day (2026-12-07) and more on
#: a fast one, so a slower machine made another clone (one whose surprised cost 0.46 of
#: DistillMOS, 2026-12-03); the gate's clone searches a fixed number of steps instead.
GATE_SEARCH_STEPS = 8


# heart's clones are gated, one of each kind: into Kokoro (its style searched) and onto joe
# (joe moved 8 st up to heart's register, as far as a register clone goes). The others are in
# benchmarks/clone_emotion.py's table (espeak's en-us+m3, en+f4 and joe's clones; all within
# the limits on 2026-12-07): a test per clone would add minutes to the suite for each.
@pytest.mark.parametrize("backend", ["kokoro", "vits"])
def test_emotion_keeps_a_clones_identity_and_naturalness(gate_engine, backend):
    """Each emotion's mean similarity to a held-out clip of heart, by both embedders (the
    second a held-out judge: the search never sees it), and its median DistillMOS, for a clone
    of heart, stay within issue 17's limits of its neutral reading's."""
    engine, store = gate_engine
    judges = {"ge2e": SpeakerEncoder.packaged(), "second": SecondEmbedder()}
    mos = DistillMos()
    voice = f"gate-heart-{backend}"
    search = {"search_steps": GATE_SEARCH_STEPS} if backend == "kokoro" else {}
    clone(engine, store, _wav_bytes(engine.synthesize(ENROLL, voice="heart")), voice, quality="fast",
          backend=backend, **search)
    held = engine.synthesize(HELD_OUT_CLIP, voice="heart")
    held_by = {name: judge.embed(held.samples, held.sample_rate) for name, judge in judges.items()}
    scores = {}
    for emotion in EMOTIONS:
        audio = [engine.synthesize(text, options=SpeechOptions(voice=voice, emotion=emotion, intensity=1.0))
                 for text in EMOTION_TEXTS]
        scores[emotion] = {name: np.mean([similarity(judge.embed(a.samples, a.sample_rate), held_by[name])
                                          for a in audio]) for name, judge in judges.items()}
        scores[emotion]["mos"] = np.median([mos(a.samples, a.sample_rate) for a in audio])
    costs = {(emotion, name): round(float(scores["neutral"][name] - by_judge[name]), 3)
             for emotion, by_judge in scores.items() for name in LIMITS}
    too_costly = {key: cost for key, cost in costs.items() if cost > LIMITS[key[1]]}
    assert not too_costly, too_costly
