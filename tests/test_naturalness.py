"""Naturalness under emotion: on every English voice, no emotion at intensity 1.0 takes the
median DistillMOS more than 0.3 below the voice's neutral reading (issue 15's gate; the
per-voice table is benchmarks/naturalness.py's)."""

import pytest

from emovox.bench.naturalness import ALLOWED_DROP, DistillMos, drops, scores_by_emotion

pytestmark = pytest.mark.models

#: Written for this test; neither the calibration nor the naturalness benchmark reads them.
SENTENCES = [
    "The library closes early on Sundays, so bring the books back by noon.",
    "Our neighbours planted three apple trees along the fence last spring.",
    "He finally found his keys under a pile of old newspapers.",
    "The ferry leaves the harbour every forty minutes in the summer.",
    "Nobody expected the quiet student to win the debate.",
    "Please leave your umbrella by the door before you come in.",
    "The bakery on the corner sells bread until seven in the evening.",
    "My cousin is learning to play the violin in her spare time.",
]
#: The native voices, whose emotion paths this gate was built for, and one Kokoro voice (all
#: seven are in benchmarks/naturalness.py's table; at 1.4 s a clip, all seven here took 9 min).
#: heart's happy measured -0.32 on these sentences (2026-12-02): the gate is not met for it yet.
VOICES = [
    "joe",
    pytest.param("heart", marks=pytest.mark.xfail(strict=True, reason="happy -0.32 below neutral (gate 0.3)")),
    "jm_kumo",
]


@pytest.fixture(scope="module")
def mos():
    pytest.importorskip("torch", reason="DistillMOS runs on torch (the parity extra; make test installs it)")
    return DistillMos()


@pytest.mark.parametrize("voice", VOICES)
def test_no_emotion_costs_the_voice_more_than_the_allowed_naturalness(engine, mos, voice):
    by_emotion = drops(scores_by_emotion(engine, mos, voice, SENTENCES))
    too_costly = {emotion: round(drop, 2) for emotion, drop in by_emotion.items() if drop < -ALLOWED_DROP}
    assert not too_costly, (voice, too_costly)
