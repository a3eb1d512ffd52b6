"""Every built-in voice is intelligible: Whisper tiny.en transcribes it with WER <= 5 %."""

import pytest

from emovox.bench.intelligibility import word_error_rate

MAX_WER = 0.05

SENTENCES = [
    "The train leaves at 6:45 AM from platform 9.",
    "Mrs. Lee bought 3 tickets for $24.50 each.",
    "Our office is closed on December 25th.",
    "The package weighs 2.5 kg and costs €18.",
    "Temperatures fell to -4°C overnight.",
    "Sales rose 12% in the second quarter.",
    "Please call 555-0199 after lunch.",
    "The report was due on 2025-11-03.",
    "We walked 3 km along the river at sunset.",
    "Prof. Brown met the team at 10 PM.",
    "The old bridge was built in 1887.",
    "Apples, grapes, plums, etc. are on sale.",
    "He finished 2nd in a field of 40 runners.",
    "My grandmother planted roses in the garden.",
    "Could you send the file to anna@example.com today?",
    "The library opens at 9 o'clock on weekdays.",
    "The flight to Boston departs at 7:15 PM from gate 22.",
    "Mr. Garcia lives at 42 Elm St. near the school.",
    "The company hired 1,200 new workers last year.",
    "Tickets are £12 for adults and £6 for kids.",
    "Please reply by 10/15/2025 if you can attend.",
    "Interest rates rose to 4.5% this spring.",
    "The children built a snowman in the yard.",
    "Dr. Patel will see you in about 20 minutes.",
]
VOICES = ["joe", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


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
