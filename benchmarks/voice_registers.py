"""Each stock voice's register, for reading reference clips: its timbre and neutral norms.

    .venv/bin/python benchmarks/voice_registers.py

For every English stock voice (the norm sentences are English: the Mandarin voice would
hand them to its English partner): the neutral norms `voice_norms` measures (median F0, range, syllable
rate, level over three neutral sentences), read in the voice's own F0 band widened by 6 st
upwards (joe's F0 outside his band is mostly octave errors), and the mean GE2E d-vector of those readings.
Writes src/emovox/emotion/registers.json, which `emotion_from_clip` reads to find the stock
voice nearest to a clip's speaker when the caller does not name one.
"""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np

from emovox import from_packages
from emovox.emotion.reference import NORM_SENTENCES, REGISTERS_FILE, voice_norms
from emovox.voices.encoder import SpeakerEncoder


def main() -> None:
    engine = from_packages(audio_cache_bytes=0)
    encoder = SpeakerEncoder.packaged()
    table = {}
    for voice in (v for v in engine.voices() if v.language == "en"):  # the norm sentences are English
        readings = [engine.synthesize(sentence, voice=voice.name) for sentence in NORM_SENTENCES]
        embedding = np.mean([encoder.embed(a.samples, a.sample_rate) for a in readings], axis=0)
        embedding /= np.linalg.norm(embedding)
        low, high = engine.backend_of(voice.name).capabilities.f0_band
        band = (low, round(high * 2 ** (6 / 12), 1))  # room for an emotion's +6 st
        norms = voice_norms(engine, voice.name, band)
        table[voice.name] = {"norms": {k: round(v, 3) for k, v in asdict(norms).items()}, "f0_band": band,
                             "embedding": [round(float(x), 5) for x in embedding]}
        print(voice.name, table[voice.name]["norms"], flush=True)
    REGISTERS_FILE.write_text(json.dumps({"voices": table}) + "\n", "utf-8")
    print(f"wrote {REGISTERS_FILE}")


if __name__ == "__main__":
    main()
