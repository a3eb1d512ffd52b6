"""The composition root: which models, voices and defaults an emovox deployment has.

Everything product-specific is decided here, nowhere in the engine core: that `heart` is the
default voice, that heart reads English and baker Chinese inside mixed text, which
packages carry which model, how to build the Mandarin voice when it is missing, and that
the cloned voices in the user's store are loaded at start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from emovox.backends.base import Backend
from emovox.backends.session import SessionSettings
from emovox.caching import AUDIO_CACHE_BYTES
from emovox.engine import Defaults, Engine
from emovox.engine.planner import FIRST_SEGMENT_CHARS
from emovox.errors import InvalidOptionError

#: The best voice by measurement (benchmarks/README.md, "The heart voice"): native US English,
#: the lowest Whisper WER (1.2 % on the 50 tuning sentences, 2.3 % on 32 new ones, against
#: joe's 4.0 % and 6.0 %), the highest DistillMOS (4.53 neutral, joe 4.04) and the fastest
#: (RTF 0.0097 through the engine, about a third of joe's).
DEFAULT_VOICE = "heart"
#: Names of the Mandarin voice, to say why it is missing when it is not built.
MANDARIN_NAMES = ("baker", "zh", "biaobei")
BUILD_MANDARIN = "the Mandarin voice is not built here: run `make zh-models` once"
def embed_speaker(samples, sample_rate: int):
    """GE2E d-vector: the embedding registers.json was measured with (reference clips)."""
    from emovox.voices.encoder import SpeakerEncoder

    return SpeakerEncoder.packaged().embed(samples, sample_rate)


DEFAULTS = Defaults(
    voice=DEFAULT_VOICE,
    embed_speaker=embed_speaker,
    partners={"en": "heart", "zh": "baker"},
    missing_voices={name: BUILD_MANDARIN for name in MANDARIN_NAMES},
    missing_languages={"zh": "run `make zh-models` to build the Mandarin voice"},
)
#: Backends by name, in the order an engine lists their voices.
BACKENDS = ("vits", "hibari", "kokoro", "fastspeech2")
#: What static int8 quantization of the VITS model calibrates on: varied phonemes, questions, numbers.
CALIBRATION_SENTENCES = (
    "The quick brown fox jumps over the lazy dog.",
    "Would you like a cup of tea before we leave?",
    "On Monday, twelve thousand people visited the museum.",
    "She sells seashells by the seashore, doesn't she?",
    "Please remember to lock the door when you go out tonight.",
    "Wow! That was absolutely amazing.",
)


def available_backends() -> tuple[str, ...]:
    """Every backend whose model is installed here (the Mandarin one once `make zh-models` ran)."""
    from emovox.backends.fastspeech2 import models_ready

    return BACKENDS if models_ready() else tuple(b for b in BACKENDS if b != "fastspeech2")


def calibration_phonemes() -> list[str]:
    """The calibration sentences as the English frontend phonemizes them."""
    from emovox.frontend.english import EnglishFrontend

    frontend = EnglishFrontend()
    return [frontend.phonemize(frontend.normalize(sentence).text) for sentence in CALIBRATION_SENTENCES]


def backend_builders(settings: SessionSettings, cache: Path | None = None,
                     vits_precision: str = "fp32") -> dict[str, Callable[[], Backend]]:
    from emovox.backends.fastspeech2 import FastSpeech2Backend
    from emovox.backends.hibari import HibariBackend
    from emovox.backends.kokoro import KokoroBackend
    from emovox.backends.vits import VitsBackend

    return {"vits": lambda: VitsBackend.joe(settings, vits_precision, calibration_phonemes),
            "hibari": lambda: HibariBackend.from_package(settings, cache),
            "kokoro": lambda: KokoroBackend.from_packages(settings, cache),
            "fastspeech2": lambda: FastSpeech2Backend.from_build(settings)}


def from_packages(settings: SessionSettings = SessionSettings(), cache: Path | None = None, home: Path | None = None,
           backends: tuple[str, ...] | None = None, audio_cache_bytes: int = AUDIO_CACHE_BYTES,
           first_segment_chars: int | None = FIRST_SEGMENT_CHARS, vits_precision: str = "fp32",
           defaults: Defaults = DEFAULTS) -> Engine:
    """The built-in voices: `heart` (hibari), `joe` (Piper VITS), the five Kokoro-82M voices and, once built,
    the Mandarin `baker`, plus the cloned voices and the lexicon stored under `home` (default:
    $EMOVOX_HOME or the user data directory). `backends` picks which models to carry (an edge box may want
    only the small one; by default every one installed); `vits_precision` picks joe's model
    variant (backends/variants.py; Kokoro ships int8)."""
    from dataclasses import replace

    from emovox.lexicons import LexiconStore
    from emovox.voices.clone import follow_store, load_stored_voices
    from emovox.voices.store import open_store

    builders = backend_builders(settings, cache, vits_precision)
    backends = available_backends() if backends is None else backends
    unknown = set(backends) - set(builders)
    if unknown or not backends:
        raise InvalidOptionError(f"unknown backends {sorted(unknown)}; choose from {', '.join(builders)}")
    defaults = replace(defaults, lexicon=LexiconStore(home).load().with_entries(defaults.lexicon.entries))
    built = Engine([builders[name]() for name in backends], audio_cache_bytes=audio_cache_bytes,
                   first_segment_chars=first_segment_chars, defaults=defaults)
    store = open_store(home)
    load_stored_voices(built, store)
    follow_store(built, store)
    return built
