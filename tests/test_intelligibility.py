"""Every built-in voice is intelligible: Whisper tiny.en transcribes it with WER <= 5 %.

The 50 sentences (benchmarks/sentences_en.txt) are full of numbers, dates, times, money,
units, phone numbers, abbreviations and e-mail addresses, so they test the frontend too.
"""

from pathlib import Path

import pytest

from emovox.bench.intelligibility import word_error_rate

MAX_WER = 0.05
SENTENCES = [line for line in (Path(__file__).parents[1] / "benchmarks" / "sentences_en.txt")
             .read_text("utf-8").splitlines() if line.strip()]
VOICES = ["joe", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


def test_the_sentence_set_is_large_enough():
    assert len(SENTENCES) >= 40 and len(set(SENTENCES)) == len(SENTENCES)


@pytest.mark.parametrize("voice", VOICES)
def test_voice_is_intelligible(engine, transcriber, voice):
    errors = words = 0.0
    misheard = []
    for sentence in SENTENCES:
        audio = engine.synthesize(sentence, voice=voice)
        heard = transcriber.transcribe(audio.samples, audio.sample_rate)
        spoken = engine.frontend.normalize(sentence).text
        wer, count = word_error_rate([sentence, spoken], heard)
        errors += wer * count
        words += count
        if wer:
            misheard.append(f"{sentence!r} -> {heard!r}")
    assert errors / words <= MAX_WER, f"{voice}: WER {errors / words:.3f}; " + "; ".join(misheard)
