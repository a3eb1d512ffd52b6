"""Prosody from a reference clip ("say it like this"), transferred as deltas.

The clip's F0 level and range, speaking rate and loudness are measured and compared with
the typical values of the clip's speaker: one of our voices read neutrally when the caller
names it (`voice_norms`), else the register of the stock voice whose timbre is nearest to
the clip's (GE2E d-vectors against `registers.json`, measured by
benchmarks/voice_registers.py), so a happy clip is "happy for that kind of speaker", not
"high for a person". Population norms by F0 (below 165 Hz counts as a low voice) remain
for an install without that table. The differences become explicit overrides on a neutral
Emotion, kept within the range the presets use. Results are cached by the clip's content
hash.

Rate is the weak measure without the clip's words: syllables per second move by 10-30 %
with the text alone (a sentence of short words reads "faster" on every voice), so only about
half of our own voices' emotional clips transferred a rate within 10 % of their preset. Given
the words, every delta is taken against a neutral reading of the same words by the clip's
speaker's voice (`emotion_against_reading`; rate as the ratio of speech spans), which leaves
the text out of the comparison.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from emovox.emotion.model import Emotion
from emovox.errors import EmovoxError, InvalidOptionError

ANALYSIS_RATE = 16_000
#: Where F0 is sought in a clip of an unknown speaker (a stock voice's register narrows it).
SPEECH_BAND = (71.0, 800.0)
#: In a band no higher than this (a low voice's register: joe's), F0 is read by the
#: band-limited autocorrelation tracker that drives PSOLA, elsewhere by Harvest. Harvest read
#: joe's 85 Hz voice at 141 Hz even within his band (octave errors on a weak fundamental), so
#: clips of him transferred -4 to -9 st; the tracker reads him within 2 Hz of pYIN, but reads
#: the raised contours of higher voices up to 1.5 st low (heart happy: 220 Hz, pYIN 241).
LOW_VOICE_BAND_TOP_HZ = 250.0
_HOP_S = 0.01


_REGISTER_SPLIT_HZ = 165.0
#: Transferred deltas stay within what the presets themselves ask (surprised +6 st; sad x0.8
#: rate): a clip spoken in a far register must not strain the voice that imitates it.
_LIMITS = {"pitch_st": (-6.0, 6.0), "pitch_range": (0.5, 2.0), "speed": (0.75, 1.3), "energy_db": (-8.0, 8.0)}
REGISTERS_FILE = Path(__file__).with_name("registers.json")
#: Speech (samples, rate) -> a unit speaker embedding.
Embedder = Callable[[np.ndarray, int], np.ndarray]


class ReferenceClipError(EmovoxError, ValueError):
    """A reference clip that cannot be read or measured."""

    param = "style_ref"


@dataclass(frozen=True)
class SpeechProsody:
    """Median F0, its P90-P10 range, syllable rate and voiced RMS level of some speech."""

    f0_hz: float
    range_st: float
    syllables_per_s: float
    energy_dbfs: float

    def relative_to(self, norms: SpeechProsody) -> Emotion:
        return Emotion(
            "neutral", 0.0,
            pitch_st=_within_limits("pitch_st", 12 * np.log2(self.f0_hz / norms.f0_hz)),
            pitch_range=_within_limits("pitch_range", self.range_st / norms.range_st),
            speed=_within_limits("speed", self.syllables_per_s / norms.syllables_per_s),
            energy_db=_within_limits("energy_db", self.energy_dbfs - norms.energy_dbfs),
        )


def _within_limits(name: str, value: float) -> float:
    low, high = _LIMITS[name]
    return round(float(min(high, max(low, value))), 3)


def _bytes_of(path_or_bytes: Path | bytes) -> bytes:
    return path_or_bytes if isinstance(path_or_bytes, bytes) else Path(path_or_bytes).read_bytes()


#: Conversational read speech, for a clip whose speaker is unknown.
LOW_VOICE = SpeechProsody(f0_hz=115.0, range_st=7.0, syllables_per_s=4.5, energy_dbfs=-22.0)
HIGH_VOICE = SpeechProsody(f0_hz=210.0, range_st=7.0, syllables_per_s=4.5, energy_dbfs=-22.0)

#: What a voice reads to establish its typical values.
NORM_SENTENCES = (
    "The library keeps its old maps in a room on the second floor.",
    "We usually take the early train and have breakfast on the way.",
    "Her report explains how the river changed course over the years.",
)


def emotion_from_clip(path_or_bytes: Path | bytes, norms: SpeechProsody | None = None,
                      embed_speaker: Embedder | None = None) -> Emotion:
    """The prosody deltas of a clip as an Emotion (neutral plus explicit overrides).

    `norms`: the typical values of the clip's speaker (see `voice_norms`), when known; else,
    given a speaker embedding, the register of the nearest stock voice (`nearest_register`);
    else population norms."""
    data = _bytes_of(path_or_bytes)
    digest = hashlib.sha256(data).hexdigest()
    if norms is not None:
        return _measure_cached(digest, data, SPEECH_BAND).relative_to(norms)
    nearest = _nearest_cached(digest, data, embed_speaker) if embed_speaker else None
    if nearest is None:
        measured = _measure_cached(digest, data, SPEECH_BAND)
        return measured.relative_to(LOW_VOICE if measured.f0_hz < _REGISTER_SPLIT_HZ else HIGH_VOICE)
    # the clip's F0 is read in the band its nearest voice's norms were read in (an octave
    # error on a low voice would otherwise pass for a register)
    return _measure_cached(digest, data, nearest.f0_band).relative_to(nearest.norms)


@dataclass(frozen=True)
class Register:
    """A stock voice's timbre (mean GE2E d-vector), neutral norms and the F0 band they were read in."""

    voice: str
    embedding: np.ndarray
    norms: SpeechProsody
    f0_band: tuple[float, float]


@lru_cache(maxsize=1)
def registers() -> tuple[Register, ...]:
    """Every stock voice's register, as measured (none without the table)."""
    import json

    if not REGISTERS_FILE.is_file():
        return ()
    table = json.loads(REGISTERS_FILE.read_text("utf-8"))["voices"]
    return tuple(Register(voice, np.asarray(entry["embedding"], np.float32), SpeechProsody(**entry["norms"]),
                          tuple(entry["f0_band"])) for voice, entry in table.items())


def nearest_register(mono: np.ndarray, rate: int, embed_speaker: Embedder) -> Register | None:
    """The register of the stock voice whose timbre is nearest to the speech (cosine of the
    embeddings `embed_speaker` gives: GE2E, as the table was made with)."""
    known = registers()
    if not known:
        return None
    embedding = embed_speaker(mono, rate)
    return max(known, key=lambda register: float(np.dot(register.embedding, embedding)))


@lru_cache(maxsize=64)
def _nearest_cached(digest: str, data: bytes, embed_speaker: Embedder) -> Register | None:
    return nearest_register(*_decode(data), embed_speaker)


@lru_cache(maxsize=32)
def voice_norms(engine, voice: str, f0_band: tuple[float, float] = SPEECH_BAND) -> SpeechProsody:
    """A voice's typical values: medians over its neutral reading of NORM_SENTENCES.

    `f0_band` bounds the F0 search to where the voice is known to speak (see vits.py: joe)."""
    readings = [engine.synthesize(sentence, voice=voice) for sentence in NORM_SENTENCES]
    measured = [measure_samples(audio.samples, audio.sample_rate, f0_band) for audio in readings]
    return SpeechProsody(*(float(np.median([getattr(m, field) for m in measured]))
                           for field in ("f0_hz", "range_st", "syllables_per_s", "energy_dbfs")))


@lru_cache(maxsize=64)
def _measure_cached(digest: str, data: bytes, f0_band: tuple[float, float]) -> SpeechProsody:
    return measure_clip(data, f0_band)


def measure_clip(data: bytes, f0_band: tuple[float, float] = SPEECH_BAND) -> SpeechProsody:
    mono, rate = _decode(data)
    if len(mono) < rate:
        raise ReferenceClipError(f"the reference clip is {len(mono) / rate:.1f} s long; give at least 1 s")
    return measure_samples(mono, rate, f0_band)


def _decode(data: bytes) -> tuple[np.ndarray, int]:
    import soundfile

    try:
        samples, rate = soundfile.read(io.BytesIO(data), dtype="float32", always_2d=True)
    except Exception as e:  # libsndfile raises its own error types for undecodable input
        raise ReferenceClipError(f"the reference clip is not readable audio (wav, flac, ogg, mp3): {e}") from None
    return samples.mean(axis=1), rate


def measure_samples(mono: np.ndarray, rate: int, f0_band: tuple[float, float] = SPEECH_BAND) -> SpeechProsody:
    import pyworld
    import soxr

    from emovox.audio.pitch import track_f0

    if rate != ANALYSIS_RATE:
        mono = soxr.resample(mono, rate, ANALYSIS_RATE)
    x = mono.astype(np.float64)
    if f0_band[1] <= LOW_VOICE_BAND_TOP_HZ:
        f0 = track_f0(x, ANALYSIS_RATE, f0_band, _HOP_S)
    else:
        f0, _ = pyworld.harvest(x, ANALYSIS_RATE, f0_floor=f0_band[0], f0_ceil=f0_band[1],
                                frame_period=_HOP_S * 1000)
    voiced = f0 > 0
    if voiced.sum() < 20:
        raise ReferenceClipError("the reference clip has almost no voiced speech; is it silent or noise?")
    frame = int(_HOP_S * ANALYSIS_RATE)
    count = min(len(x) // frame, len(f0))
    rms = np.sqrt((x[: count * frame].reshape(count, frame) ** 2).mean(axis=1) + 1e-12)
    voiced = voiced[:count]
    f = f0[:count][voiced]
    return SpeechProsody(
        f0_hz=float(np.median(f)),
        range_st=float(12 * np.log2(np.percentile(f, 90) / np.percentile(f, 10))),
        syllables_per_s=_syllable_rate(rms, voiced),
        energy_dbfs=float(20 * np.log10(np.sqrt((rms[voiced] ** 2).mean()))),
    )


def emotion_against_reading(path_or_bytes: Path | bytes, reading: np.ndarray, reading_rate: int,
                            f0_band: tuple[float, float] = SPEECH_BAND) -> Emotion:
    """The clip's deltas against a neutral reading of its own words by its speaker's voice
    (`reading`): F0, range and loudness against the reading's, measured alike in `f0_band`;
    rate as the ratio of the two speech spans. Kept within the presets' range."""
    data = _bytes_of(path_or_bytes)
    clip, clip_rate = _decode(data)
    clip_span = speech_span_s(clip, clip_rate)
    if clip_span < 0.3:
        raise ReferenceClipError(f"the reference clip holds {clip_span:.1f} s of speech; give at least 1 s")
    measured = _measure_cached(hashlib.sha256(data).hexdigest(), data, f0_band)
    try:
        neutral = measure_samples(reading, reading_rate, f0_band)
    except ReferenceClipError:
        raise InvalidOptionError("style_ref_text: a neutral reading of these words has too little voiced speech "
                                 "to compare the clip with; give the clip's whole sentence",
                                 param="style_ref_text") from None
    rate = speech_span_s(reading, reading_rate) / clip_span  # the same words on both sides
    return replace(measured.relative_to(neutral), speed=_within_limits("speed", rate))


def register_band(voice: str) -> tuple[float, float]:
    """Where a stock voice's F0 is sought (its register's band), else the whole speech band."""
    return next((register.f0_band for register in registers() if register.voice == voice), SPEECH_BAND)


def nearest_voice(path_or_bytes: Path | bytes, embed_speaker: Embedder | None) -> str | None:
    """The stock voice whose timbre is nearest to the clip's speaker (None without the table
    or an embedder)."""
    if embed_speaker is None:
        return None
    data = _bytes_of(path_or_bytes)
    nearest = _nearest_cached(hashlib.sha256(data).hexdigest(), data, embed_speaker)
    return nearest.voice if nearest else None


def speech_span_s(mono: np.ndarray, rate: int) -> float:
    """Seconds from the first to the last 10 ms frame within 26 dB of the loudest (pauses
    inside count; edge silence and a quiet noise floor do not)."""
    frame = int(_HOP_S * rate)
    count = len(mono) // frame
    rms = np.sqrt((mono[: count * frame].astype(np.float64).reshape(count, frame) ** 2).mean(axis=1) + 1e-12)
    return _span_s(rms)


def _span_s(rms: np.ndarray) -> float:
    speech_frames = np.flatnonzero(rms > 0.05 * rms.max()) if len(rms) else rms
    return (speech_frames[-1] - speech_frames[0] + 1) * _HOP_S if len(speech_frames) else 0.0


def _syllable_rate(rms: np.ndarray, voiced: np.ndarray) -> float:
    """Syllable nuclei per second of speech: peaks of the smoothed voiced-energy envelope."""
    envelope = np.convolve(np.where(voiced, rms, 0.0), np.hanning(7) / np.hanning(7).sum(), mode="same")
    threshold = 0.25 * envelope.max()
    peaks = [i for i in range(1, len(envelope) - 1)
             if envelope[i] > threshold and envelope[i] >= envelope[i - 1] and envelope[i] > envelope[i + 1]]
    kept: list[int] = []
    for peak in peaks:  # nuclei are at least 100 ms apart
        if not kept or peak - kept[-1] >= 10:
            kept.append(peak)
    return len(kept) / (_span_s(rms) or 1.0)
