"""The renderer: a `ChunkJob` -> the finished `AudioChunk` a listener gets.

All signal shaping happens here, in one order, for every backend:

    model call (pitch inside the model where the backend says so)
    -> pitch on the waveform (Praat's overlap-add or our TD-PSOLA) where the backend says it
       is not in the model
    -> loudness and spectral tilt of the emotion, where the model does not make them,
       and a cloned voice's equalizer (its finish, voices/finish.py)
                                                             [cached up to here]
    -> edge silence trimmed -> a partner voice brought to the requested voice's level
    -> resampled to the stream's rate -> soft limiter
    -> the watermark, on every output of a cloned voice -> the job's pauses

Both models run without sampling noise, so the cached waveform of a job is the waveform
the same job would compute again.

`stream` gives the same chunk in pieces where the backend decodes in windows (`Frames`):
the text side runs once, then each window is shaped, levelled, resampled and limited as it
comes, and the first piece carries the job's words. The model's leading silence is mostly
not decoded at all (its own prediction of where speech starts); what is left of it is cut
from the first piece, and the trailing silence from the last, by level, as `finish` cuts them.
Pitch left to the signal is reshaped as the windows come where the voice has a centre of
its own (`Capabilities.f0_center_hz`; `praat_pitch.PraatPitch` hands on a stretch once the
quiet gap after it has come, so a piece may be empty); elsewhere it needs the whole
waveform, and the chunk comes in one piece. The whole waveform is cached when the last piece
is done: as the segment's where windows give the samples a whole segment has (`Frames.exact`,
and no pitch reshaped on the way: its marks start elsewhere), else apart, for the next stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import soxr

from emovox.audio import effects, post, praat_pitch, watermark
from emovox.backends.base import Backend
from emovox.caching import AUDIO_CACHE_BYTES, AudioCache, CacheStats, read_only
from emovox.engine import windows
from emovox.engine.catalogue import VoiceCatalogue
from emovox.engine.plan import ChunkJob
from emovox.engine.timing import word_times
from emovox.types import AudioChunk, Equalizer, Prosody


def shape(samples: np.ndarray, backend: Backend, controls: Prosody, equalizer: Equalizer | None = None) -> np.ndarray:
    """What the model did not do itself: pitch on the signal where the backend declares it,
    then the emotion's loudness and tilt, and a cloned voice's equalizer."""
    capabilities = backend.capabilities
    pitch_st, pitch_range = backend.signal_pitch(controls)
    if (pitch_st, pitch_range) != (0.0, 1.0) and capabilities.pitch_shifter == "praat":
        samples = praat_pitch.move_pitch(samples, capabilities.sample_rate, pitch_st, pitch_range,
                                         capabilities.f0_center_hz, windows.FIRST_WINDOW_S)
    elif (pitch_st, pitch_range) != (0.0, 1.0):
        samples = effects.reshape_pitch(samples, capabilities.sample_rate, pitch_st, pitch_range,
                                        capabilities.f0_band, capabilities.pitch_keeps_level,
                                        capabilities.f0_center_hz)
    if capabilities.level_in_model:
        return samples if equalizer is None else effects.shape_level(samples, capabilities.sample_rate, 0.0, 0.0,
                                                                      equalizer)
    return effects.shape_level(samples, capabilities.sample_rate, controls.energy_db, controls.tilt_db, equalizer)


@dataclass(frozen=True)
class Waveform:
    """A job's shaped audio and where each of its ids sounds ([ids, 2] samples; may be empty).
    `trimmed`: its edge silence is already cut (a streamed segment's, as its pieces were)."""

    samples: np.ndarray
    spans: np.ndarray
    trimmed: bool = False

    @property
    def nbytes(self) -> int:
        return self.samples.nbytes + self.spans.nbytes

    def read_only(self) -> Waveform:
        return Waveform(read_only(self.samples), read_only(self.spans), self.trimmed)

    def __len__(self) -> int:
        return len(self.samples)


class Renderer:
    def __init__(self, catalogue: VoiceCatalogue, speech_level_db: Callable[[str], float],
                 audio_cache_bytes: int = AUDIO_CACHE_BYTES, windowed: bool = True) -> None:
        """`speech_level_db(voice)` gives a voice's measured speech level, for loudness matching.
        `windowed`: stream a chunk in pieces where its backend can (off: one piece per chunk,
        as before streaming inside the models; benchmarks compare the two)."""
        self.windowed = windowed
        self._catalogue = catalogue
        self._speech_level_db = speech_level_db
        self._cache = AudioCache(audio_cache_bytes)

    def render(self, job: ChunkJob) -> AudioChunk:
        return self.finish(job, self.infer(job))

    def infer(self, job: ChunkJob) -> Waveform:
        """The job's shaped waveform, from the audio cache when the same job ran before."""
        waveform = self._cache.get(job.cache_key)
        return self._computed(job) if waveform is None else waveform

    def _computed(self, job: ChunkJob) -> Waveform:
        backend = self._catalogue.backend(job.backend)
        raw, spans = backend.infer_timed(list(job.ids), job.model_voice, job.speed, job.controls)
        waveform = Waveform(shape(raw, backend, job.controls, job.equalizer), spans)
        self._cache.put(job.cache_key, waveform)
        return waveform

    def infer_batch(self, jobs: list[ChunkJob]) -> list[Waveform]:
        """Waveforms of jobs that `batch_key` groups together, in one padded forward pass
        (cached jobs are not recomputed)."""
        backend = self._catalogue.backend(jobs[0].backend)
        if len(jobs) == 1 or not backend.capabilities.batching:
            return [self.infer(job) for job in jobs]
        results = [self._cache.get(job.cache_key) for job in jobs]
        missing = [i for i, waveform in enumerate(results) if waveform is None]
        if missing:
            rows = backend.infer_batch_timed([(list(jobs[i].ids), jobs[i].model_voice, jobs[i].speed,
                                               jobs[i].controls) for i in missing])
            for i, (raw, spans) in zip(missing, rows):
                results[i] = Waveform(shape(raw, backend, jobs[i].controls, jobs[i].equalizer), spans)
                self._cache.put(jobs[i].cache_key, results[i])
        return results

    def batch_key(self, job: ChunkJob) -> tuple | None:
        """Jobs with equal keys can share a forward pass; None: this job runs alone."""
        backend = self._catalogue.backend(job.backend)
        if not backend.capabilities.batching:
            return None
        key = backend.batch_key(job.speed, job.controls)
        return None if key is None else (backend.name, key)

    def finish(self, job: ChunkJob, waveform: Waveform) -> AudioChunk:
        """Trim, level, resample, limit and pad a job's waveform into the chunk a listener
        gets, with each word's time in it."""
        source_rate = self._catalogue.backend(job.backend).sample_rate
        start, end = (0, len(waveform.samples)) if waveform.trimmed else post.speech_bounds(waveform.samples,
                                                                                             source_rate)
        samples = waveform.samples[start:end]
        words = word_times(job.words, job.id_words, waveform.spans, source_rate, job.pause_before_s, start,
                           end - start)
        if job.match_level_of:
            gain = 10 ** ((self._speech_level_db(job.match_level_of) - self._speech_level_db(job.voice)) / 20)
            samples = samples * np.float32(gain)
        rate = job.output_rate or source_rate
        if rate != source_rate:
            samples = soxr.resample(samples, source_rate, rate).astype(np.float32)
        samples = self._marked(job, effects.limit(samples), rate)
        samples = np.concatenate([np.zeros(int(rate * job.pause_before_s), dtype=np.float32), samples,
                                  np.zeros(int(rate * job.pause_after_s), dtype=np.float32)])
        return AudioChunk(samples=samples, sample_rate=rate, text=job.text, phonemes=job.phonemes,
                          index=job.index, warnings=job.warnings, words=words)

    def windowed_for(self, job: ChunkJob) -> bool:
        """Whether this job's backend decodes it in windows: it can, and any pitch left for the
        signal can be reshaped as the windows come (around the voice's own centre)."""
        backend = self._catalogue.backend(job.backend)
        whole_pitch = backend.signal_pitch(job.controls) != (0.0, 1.0) and backend.capabilities.f0_center_hz is None
        return self.windowed and backend.capabilities.streaming and not whole_pitch

    def stream(self, job: ChunkJob) -> Iterator[AudioChunk]:
        """The chunk of `job` in pieces as its windows are decoded (one piece when it is
        cached or not `windowed_for`); concatenated, the pieces are the chunk, and only the
        last has `final`."""
        cached = self._cache.get(job.cache_key, _streamed_key(job))
        if cached is not None or not self.windowed_for(job):
            yield self.finish(job, self._computed(job) if cached is None else cached)
            return
        backend = self._catalogue.backend(job.backend)
        source_rate = backend.sample_rate
        frames = backend.prepare(list(job.ids), job.model_voice, job.speed, job.controls)
        first, last = windows.decoded_range(frames, source_rate)
        start = first * frames.samples_per_frame
        pitch = self._signal_pitch(backend, job)
        shaper = effects.LevelShaper(source_rate, job.controls.energy_db, job.controls.tilt_db, job.equalizer)
        rate = job.output_rate or source_rate
        resampler = soxr.ResampleStream(source_rate, rate, 1, dtype="float32") if rate != source_rate else None
        gain = np.float32(10 ** ((self._speech_level_db(job.match_level_of) - self._speech_level_db(job.voice)) / 20)) \
            if job.match_level_of else np.float32(1)
        shaped_pieces, peak_rms = [], 0.0
        for samples, final in windows.decoded(frames, source_rate):
            shaped = shaper.process(samples if pitch is None else pitch.process(samples, final), final=final)
            if not len(shaped) and not final:  # the pitch shaper holds it until its stretch is whole
                continue
            opening = not shaped_pieces
            if opening:  # what silence is left before the speech, cut as `finish` cuts it
                lead = post.speech_start(shaped, source_rate, self._voice_peak_rms(job.voice)) if len(shaped) else 0
                shaped, start = shaped[lead:], start + lead
                length = (last - first) * frames.samples_per_frame - lead
                words = word_times(job.words, job.id_words, frames.spans, source_rate, job.pause_before_s, start,
                                   length)
            peak_rms = max(peak_rms, float(post.frame_rms(shaped, source_rate).max(initial=0.0)))
            if final:  # the model's trailing silence, cut as `finish` cuts it from a whole segment
                shaped = shaped[:post.speech_end(shaped, source_rate, peak_rms)]
            shaped_pieces.append(shaped)
            out = shaped * gain
            if resampler is not None:
                out = resampler.resample_chunk(out, last=final).astype(np.float32)
            out = self._marked(job, effects.limit(out), rate)
            before = np.zeros(int(rate * job.pause_before_s) if opening else 0, dtype=np.float32)
            after = np.zeros(int(rate * job.pause_after_s) if final else 0, dtype=np.float32)
            if final:  # cached before the last piece is handed over: nobody asks past it
                spans = frames.spans - start if len(frames.spans) else frames.spans
                self._cache.put(job.cache_key if frames.exact and pitch is None else _streamed_key(job),
                                Waveform(np.concatenate(shaped_pieces), spans, trimmed=True))
            yield AudioChunk(samples=np.concatenate([before, out, after]), sample_rate=rate, text=job.text,
                             phonemes=job.phonemes, index=job.index, warnings=job.warnings if opening else (),
                             words=words if opening else (), final=final)

    @staticmethod
    def _signal_pitch(backend: Backend, job: ChunkJob) -> effects.PitchShaper | praat_pitch.PraatPitch | None:
        """What reshapes the pitch the model leaves to the signal, window by window (None: nothing)."""
        pitch_st, pitch_range = backend.signal_pitch(job.controls)
        if (pitch_st, pitch_range) == (0.0, 1.0):
            return None
        capabilities = backend.capabilities
        if capabilities.pitch_shifter == "praat":
            return praat_pitch.PraatPitch(capabilities.sample_rate, pitch_st, pitch_range, capabilities.f0_center_hz,
                                          windows.FIRST_WINDOW_S)
        return effects.PitchShaper(capabilities.sample_rate, pitch_st, pitch_range, capabilities.f0_center_hz,
                                   capabilities.f0_band, capabilities.pitch_keeps_level)

    @staticmethod
    def _marked(job: ChunkJob, samples: np.ndarray, rate: int) -> np.ndarray:
        """A cloned voice's audio with its watermark (each streamed piece marked alone: the
        detector pools over whatever length it is given)."""
        return watermark.shared().mark(samples, rate) if job.watermark else samples

    def _voice_peak_rms(self, voice: str) -> float:
        """What a whole segment's loudest 10 ms frame usually is for `voice` (its speech
        level and a typical crest of 6 dB): the first piece alone may hold only an onset."""
        return 10 ** ((self._speech_level_db(voice) + 6.0) / 20)

    def clear_cache(self) -> None:
        self._cache.clear()

    def cache_stats(self) -> CacheStats:
        return self._cache.stats()


def _streamed_key(job: ChunkJob) -> tuple:
    """Where a segment streamed in windows that only sound like its whole is cached."""
    return (*job.cache_key, "windows")
