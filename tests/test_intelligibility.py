"""Every built-in voice is intelligible: Whisper tiny.en transcribes it with WER <= 5 %.

The 50 sentences (benchmarks/sentences_en.txt) are full of numbers, dates, times, money,
units, phone numbers, abbreviations and e-mail addresses, so they test the frontend too.
"""

from pathlib import Path

import pytest

from emovox.bench.intelligibility import corpus_wer

pytestmark = [pytest.mark.models, pytest.mark.paired]

MAX_WER = 0.05
SENTENCES = [line for line in (Path(__file__).parents[1] / "benchmarks" / "sentences_en.txt")
             .read_text("utf-8").splitlines() if line.strip()]
VOICES = ["joe", "heart", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


def test_the_sentence_set_is_large_enough():
    assert len(SENTENCES) >= 40 and len(set(SENTENCES)) == len(SENTENCES)


@pytest.mark.parametrize("voice", VOICES)
def test_voice_is_intelligible(engine, transcriber, voice):
    result = corpus_wer(engine, transcriber, voice, SENTENCES)
    misheard = "; ".join(f"{text!r} -> {heard!r}" for text, heard, _ in result.misheard)
    assert result.wer <= MAX_WER, f"{voice}: WER {result.wer:.3f}; {misheard}"
