"""Reference-clip intake: from uploaded bytes to clean 16 kHz speech, or a specific error.

Each step stands alone: `decode` (PyAV: any container and codec FFmpeg reads, any rate and
channel count, to mono float), `resample` (soxr), `speech_frames` (WebRTC VAD),
`trim_silences`, `estimate_snr`, `clipped_fraction`, `normalize_loudness`, `best_window`.
`denoise` (DeepFilterNet3) runs when the estimated SNR is low, or always when asked.
`prepare` runs them in order and validates, returning the speech and a report of what
was done. Every rejection says what was wrong and what to do instead.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import asdict, dataclass, field

import numpy as np

from emovox.audio.ffmpeg_threads import single_threaded_resampler
from emovox.errors import EmovoxError, UnsupportedMediaError

SAMPLE_RATE = 16_000
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_DECODED_S = 600.0  # compressed silence can decode to hours; stop well before that
#: Speech needed after silences are trimmed: a recording of 3 s, the short end of what cloning
#: promises, holds less (ARCTIC a0009: 3.1 s, 2.9 s of speech; cloned at the default quality
#: it measured GE2E +0.084 and the second embedder +0.153 over the best stock voice, WER 0 %).
MIN_SPEECH_S = 2.5
LONG_CLIP_S = 30.0
WINDOW_S = 20.0  # what is kept of a clip longer than LONG_CLIP_S
MAX_PAUSE_S = 0.3  # internal pauses are shortened to this
TARGET_DBFS = -23.0  # speech RMS after normalisation
SILENT_PEAK_DBFS = -50.0
CLIPPED_ERROR, CLIPPED_WARNING = 0.01, 0.001  # fraction of samples at full scale
NOISY_ERROR_DB, NOISY_WARNING_DB = 10.0, 20.0  # estimated SNR of what is kept
DENOISE_BELOW_DB = 25.0  # `denoise="auto"` cleans clips whose estimated SNR is below this
NO_SPEECH_DB = 3.0  # below this there is hardly any speech above the noise to recover
DENOISE_MODES = ("auto", "on", "off")
_VAD_FRAME = 480  # 30 ms at 16 kHz
_VAD_MODE = 2


class ReferenceAudioError(EmovoxError, ValueError):
    """A reference clip that cannot be used for cloning; the message says why and what to do."""

    param = "file"


class NotAudioError(ReferenceAudioError, UnsupportedMediaError):
    """The file's own first bytes say it is something other than audio."""


#: The formats we ask for, named in every rejection.
ACCEPTED = "wav, flac, ogg/opus, mp3, m4a/aac or webm"


def sniff(data: bytes) -> None:
    """Refuse a file whose content says it is not audio (an image, a PDF, an archive, text)
    before any decoder parses it; the extension and declared content type are not trusted."""
    import filetype

    kind = filetype.guess(data[:8192])
    if kind is not None and not kind.mime.startswith(("audio/", "video/")):
        raise NotAudioError(f"the file is {kind.mime} ({kind.extension}), not audio; upload {ACCEPTED}")
    head = data[:512]
    if kind is None and head and _looks_like_text(head):
        raise NotAudioError(f"the file is text, not audio; upload {ACCEPTED}")


def _looks_like_text(head: bytes) -> bool:
    try:
        decoded = head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return all(ch.isprintable() or ch in "\t\r\n" for ch in decoded)


@dataclass(frozen=True)
class IntakeReport:
    source_rate: int
    source_channels: int
    source_s: float
    speech_s: float
    kept_s: float
    snr_db: float  # of the kept speech (after denoising, when it ran)
    snr_before_db: float
    denoised: bool
    clipped_fraction: float
    gain_db: float
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        values = asdict(self)
        return {k: round(v, 3) if isinstance(v, float) else (list(v) if isinstance(v, tuple) else v)
                for k, v in values.items()}


@dataclass(frozen=True)
class Reference:
    samples: np.ndarray  # mono float32 speech at SAMPLE_RATE
    report: IntakeReport


def decode(data: bytes) -> tuple[np.ndarray, int, int]:
    """(mono float32 samples, sample rate, source channel count) of the first audio stream.

    FFmpeg (through PyAV) converts any sample format and channel layout to mono float at the
    source rate; resampling is left to soxr."""
    import av

    try:
        with av.open(io.BytesIO(data), mode="r") as container:
            if not container.streams.audio:
                raise ReferenceAudioError("the file has no audio stream; upload a recording of someone speaking")
            stream = container.streams.audio[0]
            rate, channels = stream.codec_context.sample_rate, stream.codec_context.channels
            to_mono = single_threaded_resampler(stream.codec_context, format="flt", layout="mono", rate=rate)
            chunks, decoded = [], 0
            for frame in container.decode(stream):
                for converted in to_mono.resample(frame):
                    chunks.append(converted.to_ndarray().reshape(-1))
                    decoded += len(chunks[-1])
                if decoded > MAX_DECODED_S * rate:
                    raise ReferenceAudioError(f"the recording is longer than {MAX_DECODED_S / 60:.0f} minutes; "
                                              "upload 5-30 s of one person speaking")
            chunks += [converted.to_ndarray().reshape(-1) for converted in to_mono.resample(None)]
    except ReferenceAudioError:
        raise
    except (av.FFmpegError, UnicodeDecodeError, ValueError) as e:
        raise ReferenceAudioError(
            f"the file could not be decoded as audio; use {ACCEPTED} ({type(e).__name__})") from None
    if not chunks or not rate or not sum(len(c) for c in chunks):
        raise ReferenceAudioError("the file contains no audio samples")
    return np.concatenate(chunks).astype(np.float32), int(rate), int(channels or 1)


def resample(samples: np.ndarray, rate: int, target: int = SAMPLE_RATE) -> np.ndarray:
    import soxr

    return samples if rate == target else soxr.resample(samples, rate, target).astype(np.float32)


def speech_frames(samples: np.ndarray) -> np.ndarray:
    """One flag per 30 ms frame at 16 kHz: does it contain speech (WebRTC VAD)?"""
    import webrtcvad

    vad = webrtcvad.Vad(_VAD_MODE)
    count = len(samples) // _VAD_FRAME
    peak = float(np.abs(samples).max(initial=0.0)) or 1.0
    pcm = (np.clip(samples[: count * _VAD_FRAME] / peak, -1, 1) * 32767).astype("<i2").tobytes()
    step = _VAD_FRAME * 2
    return np.array([vad.is_speech(pcm[i * step:(i + 1) * step], SAMPLE_RATE) for i in range(count)], dtype=bool)


def trim_silences(samples: np.ndarray, speech: np.ndarray, max_pause_s: float = MAX_PAUSE_S) -> np.ndarray:
    """Speech frames, with leading/trailing silence removed and long pauses shortened."""
    keep = speech.copy()
    max_pause = int(max_pause_s * SAMPLE_RATE / _VAD_FRAME)
    # Short gaps between speech stay whole; long ones keep max_pause frames.
    idx = np.flatnonzero(speech)
    if len(idx) == 0:
        return samples[:0]
    for a, b in itertools.pairwise(idx):
        gap = b - a - 1
        if gap > 0:
            keep[a + 1: a + 1 + min(gap, max_pause)] = True
    mask = np.repeat(keep, _VAD_FRAME)
    return samples[: len(mask)][mask]


def estimate_snr(samples: np.ndarray, speech: np.ndarray) -> float:
    """Speech level over noise level in dB: loud speech frames against the quietest frames."""
    count = len(speech)
    frames = samples[: count * _VAD_FRAME].reshape(count, _VAD_FRAME)
    power = (frames.astype(np.float64) ** 2).mean(axis=1) + 1e-12
    speech_power = np.percentile(power[speech], 50) if speech.any() else np.percentile(power, 90)
    noise_power = np.percentile(power, 5)
    return float(min(60.0, 10 * np.log10(speech_power / noise_power)))


def clipped_fraction(samples: np.ndarray) -> float:
    """Fraction of samples at (or within 0.1 % of) full scale, from the decoded source."""
    return float(np.mean(np.abs(samples) >= 0.999)) if len(samples) else 0.0


def normalize_loudness(samples: np.ndarray, target_dbfs: float = TARGET_DBFS) -> tuple[np.ndarray, float]:
    rms = float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))
    gain_db = target_dbfs - 20 * np.log10(max(rms, 1e-9))
    out = samples * np.float32(10 ** (gain_db / 20))
    peak = float(np.abs(out).max(initial=0.0))
    if peak > 0.99:  # never clip what we normalise
        out = out * np.float32(0.99 / peak)
        gain_db -= 20 * np.log10(peak / 0.99)
    return out.astype(np.float32), float(gain_db)


def best_window(samples: np.ndarray, speech: np.ndarray, seconds: float = WINDOW_S) -> tuple[np.ndarray, np.ndarray]:
    """The `seconds`-long stretch with the most speech in it (samples and its VAD flags)."""
    width = int(seconds * SAMPLE_RATE / _VAD_FRAME)
    if len(speech) <= width:
        return samples, speech
    totals = np.convolve(speech.astype(np.int32), np.ones(width, np.int32), mode="valid")
    start = int(np.argmax(totals))
    return samples[start * _VAD_FRAME:(start + width) * _VAD_FRAME], speech[start:start + width]


def prepare(data: bytes, denoise: str = "auto") -> Reference:
    """Decode, check and clean a reference clip for cloning, or raise ReferenceAudioError.

    `denoise`: "auto" (when the estimated SNR is below DENOISE_BELOW_DB), "on" or "off"."""
    if denoise not in DENOISE_MODES:
        raise ValueError(f"denoise must be one of {', '.join(DENOISE_MODES)}, not {denoise!r}")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ReferenceAudioError(f"the file is {len(data) / 2**20:.0f} MB; the limit is "
                                  f"{MAX_UPLOAD_BYTES // 2**20} MB (10-20 s of speech is plenty)")
    if not data:
        raise ReferenceAudioError("the file is empty")
    sniff(data)
    decoded, rate, channels = decode(data)
    source_s = len(decoded) / rate
    warnings: list[str] = []
    clipped = clipped_fraction(decoded)
    peak_dbfs = 20 * np.log10(max(float(np.abs(decoded).max(initial=0.0)), 1e-9))
    if peak_dbfs < SILENT_PEAK_DBFS:
        raise ReferenceAudioError(f"the clip is silent (peak {peak_dbfs:.0f} dBFS); check the microphone and record again")
    if clipped > CLIPPED_ERROR:
        raise ReferenceAudioError(f"the clip is heavily clipped ({clipped:.1%} of samples at full scale); "
                                  "record again with a lower input level")
    if clipped > CLIPPED_WARNING:
        warnings.append(f"{clipped:.2%} of samples are clipped; a lower input level would be better")

    samples = resample(decoded, rate)
    speech = speech_frames(samples)
    if not speech.any():
        raise ReferenceAudioError(f"no speech found in {source_s:.1f} s of audio; "
                                  "upload 5-10 s of one person speaking")
    if len(samples) / SAMPLE_RATE > LONG_CLIP_S:
        samples, speech = best_window(samples, speech)
        warnings.append(f"the clip is {source_s:.0f} s long; kept the {WINDOW_S:.0f} s with the most speech")
    snr_before = snr = estimate_snr(samples, speech)
    advice = "record in a quieter place or closer to the microphone"
    if snr < NO_SPEECH_DB or (denoise == "off" and snr < NOISY_ERROR_DB):
        raise ReferenceAudioError(f"the clip is too noisy (estimated SNR {snr:.0f} dB, need {NOISY_ERROR_DB:.0f}); "
                                  + advice)
    denoised = denoise == "on" or (denoise == "auto" and snr < DENOISE_BELOW_DB)
    if denoised:
        from emovox.voices.denoise import shared_denoiser

        samples = shared_denoiser()(samples, SAMPLE_RATE)
        speech = speech_frames(samples)
        snr = estimate_snr(samples, speech)
        if snr < NOISY_ERROR_DB:
            raise ReferenceAudioError(f"the clip is still too noisy after denoising (estimated SNR {snr_before:.0f} dB "
                                      f"before, {snr:.0f} dB after); " + advice)
    speech_s = float(speech.sum()) * _VAD_FRAME / SAMPLE_RATE
    if speech_s < MIN_SPEECH_S:
        raise ReferenceAudioError(f"got {speech_s:.1f} s of speech, need at least {MIN_SPEECH_S:g} s; "
                                  "upload 5-10 s of one person speaking")
    if snr_before < NOISY_WARNING_DB:
        warnings.append(f"background noise (estimated SNR {snr_before:.0f} dB) "
                        + ("was removed with DeepFilterNet; check the clone" if denoised
                           else "is audible; the clone may carry it"))
    trimmed = trim_silences(samples, speech)
    normalized, gain_db = normalize_loudness(trimmed)
    report = IntakeReport(source_rate=rate, source_channels=channels, source_s=source_s, speech_s=speech_s,
                          kept_s=len(normalized) / SAMPLE_RATE, snr_db=snr, snr_before_db=snr_before,
                          denoised=denoised, clipped_fraction=clipped,
                          gain_db=gain_db, warnings=tuple(warnings))
    return Reference(normalized, report)
