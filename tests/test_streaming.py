"""Streaming inside the model: a segment's waveform decoded window by window.

The fast tests run the tiny Kokoro-format voice cut at its decoder (tests/tiny_models.py),
whose frames are independent, so its pieces must join into exactly the whole segment. The
slow tests run the real voices: windows of joe, heart and baker are their whole decode;
Kokoro's, normalized with its voice's statistics, and joe's in an emotion, his pitch moved
window by window, are compared by what a listener hears.
"""

import asyncio
import dataclasses

import numpy as np
import pytest

from emovox.backends.base import Frames
from emovox.engine import windows
from emovox.server.scheduler import Scheduler, SchedulerSettings

LONG = "The quick brown fox jumps over the lazy dog near the riverbank, today and tomorrow."


def test_a_windowed_voice_streams_pieces_that_join_into_the_whole(tiny_engine):
    pieces = list(tiny_engine.stream(LONG, voice="af_kiko"))
    whole = tiny_engine.synthesize(LONG, voice="af_kiko")

    assert len(pieces) >= 3
    assert [piece.final for piece in pieces] == [False] * (len(pieces) - 1) + [True]
    assert pieces[0].words and not any(piece.words for piece in pieces[1:])
    joined = np.concatenate([piece.samples for piece in pieces])
    assert len(joined) == len(whole.samples)
    np.testing.assert_allclose(joined, whole.samples, atol=1e-5)
    assert [w.word for w in pieces[0].words] == [w.word for w in whole.info.words]


def test_a_voice_without_windows_streams_one_piece_per_sentence(tiny_engine):
    pieces = list(tiny_engine.stream("One sentence here. And another one.", voice="tiny"))
    assert len(pieces) == 2 and all(piece.final for piece in pieces)


def test_a_streamed_segment_comes_back_from_the_cache_in_one_piece(tiny_dir):
    from conftest import build_tiny_engine

    engine = build_tiny_engine(tiny_dir, audio_cache_bytes=1 << 24)
    text = "我们明天早上八点在学校门口集合，然后一起坐车去博物馆参观，中午在公园里吃饭。"
    streamed = list(engine.stream(text, voice="baker"))
    again = list(engine.stream(text, voice="baker"))
    assert len(streamed) > 1 and len(again) < len(streamed)
    np.testing.assert_allclose(np.concatenate([p.samples for p in again]),
                               np.concatenate([p.samples for p in streamed]), atol=1e-5)


def _frames(voiced: np.ndarray, speech: tuple[int, int], per_frame: int = 600) -> Frames:
    return Frames(count=len(voiced), samples_per_frame=per_frame, spans=np.zeros((0, 2), np.int64),
                  voiced=voiced, speech=speech,
                  decode=lambda start, end: np.arange(start * per_frame, end * per_frame, dtype=np.float32))


def test_windows_cover_the_speech_grow_and_join_where_the_voice_is_unvoiced():
    voiced = np.ones(400, bool)
    voiced[::5] = False  # an unvoiced frame every 5, closer than the slack
    frames = _frames(voiced, speech=(5, 390))
    planned = windows.windows(frames, 24_000)

    first, last = windows.decoded_range(frames, 24_000)
    assert planned[0][0] == first and planned[-1][1] == last
    assert all(a[1] == b[0] for a, b in zip(planned, planned[1:]))
    lengths = [end - start for start, end in planned]
    assert lengths[0] * 0.025 < windows.FIRST_WINDOW_S + windows.CUT_SLACK_S
    assert lengths[1] > lengths[0] and lengths[2] > lengths[1]
    assert all(not voiced[end] for _, end in planned[:-1])


def test_a_cheap_decoder_streams_its_first_window_then_the_rest_in_one_piece():
    voiced = np.zeros(400, bool)
    frames = dataclasses.replace(_frames(voiced, speech=(5, 390)), cheap=True)
    (first_start, first_end), (rest_start, rest_end) = windows.windows(frames, 24_000)
    assert (first_start, rest_end) == windows.decoded_range(frames, 24_000) and first_end == rest_start
    assert (first_end - first_start) * 0.025 < windows.FIRST_WINDOW_S + windows.CUT_SLACK_S


def test_joined_windows_are_the_decoded_range_sample_for_sample():
    frames = _frames(np.zeros(200, bool), speech=(10, 180))
    joined = np.concatenate([samples for samples, _ in windows.decoded(frames, 24_000)])
    first, last = windows.decoded_range(frames, 24_000)
    np.testing.assert_allclose(joined, np.arange(first * 600, last * 600, dtype=np.float32), rtol=1e-6)


def test_the_scheduler_hands_a_request_each_piece_as_it_is_made(tiny_engine):
    scheduler = Scheduler(tiny_engine, SchedulerSettings(workers=1))
    jobs = list(tiny_engine.plan(LONG, voice="af_kiko"))

    async def collect():
        return [piece async for piece in scheduler.chunks(jobs)]

    try:
        pieces = asyncio.run(collect())
    finally:
        scheduler.close()
    assert len(pieces) > len(jobs) and pieces[-1].final
    whole = tiny_engine.synthesize(LONG, voice="af_kiko")
    np.testing.assert_allclose(np.concatenate([p.samples for p in pieces]), whole.samples, atol=1e-5)


@pytest.mark.slow
def test_kokoro_streamed_sounds_like_kokoro_whole(engine):
    from emovox.bench.intelligibility import Transcriber, word_error_rate
    from emovox.bench.naturalness import DistillMos

    sentences = ["A small boat drifted past the harbour lights just after midnight.",
                 "Her grandmother kept every letter in a tin box under the stairs."]
    mos, transcriber = DistillMos(), Transcriber()
    streamed_scores, whole_scores = [], []
    for sentence in sentences:
        pieces = list(engine.stream(sentence, voice="jf_alpha"))
        assert len(pieces) >= 3
        streamed = np.concatenate([piece.samples for piece in pieces])
        whole = engine.synthesize(sentence, voice="jf_alpha").samples
        assert abs(len(streamed) - len(whole)) < 0.1 * len(whole)
        streamed_scores.append(mos(streamed, 24_000))
        whole_scores.append(mos(whole, 24_000))
        assert word_error_rate([sentence], transcriber.transcribe(streamed, 24_000))[0] <= \
            word_error_rate([sentence], transcriber.transcribe(whole, 24_000))[0] + 0.1
    assert np.mean(streamed_scores) > np.mean(whole_scores) - 0.15, (streamed_scores, whole_scores)


@pytest.mark.slow
def test_joe_in_an_emotion_streams_in_windows_and_sounds_like_his_whole(engine):
    """joe's pitch is moved on the signal (Praat's overlap-add) around his own centre, a stretch
    between quiet gaps at a time, as the windows come: the streamed reading starts where the
    model's speech starts, so its stretches are cut elsewhere than the whole one's, and the two
    are compared by ear (DistillMOS, Whisper) and by the pitch they land on. A stretch is handed
    on once the gap after it has come, so the first window (a quarter second) may give nothing."""
    from emovox.audio.pitch import track_f0
    from emovox.backends.vits import JOE_MODAL_F0_BAND
    from emovox.bench.intelligibility import Transcriber, word_error_rate
    from emovox.bench.naturalness import DistillMos

    sentence = "A small boat drifted past the harbour lights just after midnight."
    pieces = list(engine.stream(sentence, voice="joe", emotion="happy"))
    assert len(pieces) >= 2
    streamed = np.concatenate([piece.samples for piece in pieces])
    whole = engine.synthesize(sentence, voice="joe", emotion="happy")
    rate = whole.sample_rate
    assert abs(len(streamed) - len(whole.samples)) < 0.05 * len(whole.samples)

    def median_f0(samples):
        f0 = track_f0(samples, rate, JOE_MODAL_F0_BAND, 0.005)
        return np.median(f0[f0 > 0])

    assert abs(12 * np.log2(median_f0(streamed) / median_f0(whole.samples))) < 0.5
    mos = DistillMos()
    assert mos(streamed, rate) > mos(whole.samples, rate) - 0.15
    transcriber = Transcriber()
    assert word_error_rate([sentence], transcriber.transcribe(streamed, rate))[0] <= \
        word_error_rate([sentence], transcriber.transcribe(whole.samples, rate))[0] + 0.1


@pytest.mark.slow
@pytest.mark.parametrize(("voice", "text"), [("joe", "Windows of a decoder like this one join without a seam."),
                                             ("heart", "Windows of a decoder like this one join without a seam."),
                                             ("baker", "我们明天早上八点在学校门口集合，然后一起去博物馆。")])
def test_windows_join_into_the_whole_decode(engine, voice, text):
    """joe's decoder and baker's vocoder are convolutions only, heart's signal stage
    overlap-adds STFT frames: windows with their context are the whole decode."""
    backend = engine.backend_of(voice)
    job = next(iter(engine.plan(text, voice=voice)))
    frames = backend.prepare(list(job.ids), job.model_voice, job.speed, job.controls)
    snr_db = windows.join_snr_db(frames, backend.sample_rate)
    assert len(windows.windows(frames, backend.sample_rate)) >= (2 if frames.cheap else 3)
    assert snr_db > 40, snr_db


@pytest.mark.slow
def test_joe_cut_before_its_flow_speaks_as_piper_s_whole_graph(engine):
    """The text side, then flow and decoder on one window over every frame, is the whole
    graph to within float rounding: the cut moved the flow, it did not change it."""
    backend = engine.backend_of("joe")
    job = next(iter(engine.plan("Windows of a decoder like this one join without a seam.", voice="joe")))
    row = (list(job.ids), job.model_voice, job.speed, job.controls)
    whole, whole_spans = backend.infer_batch_timed([row])[0]
    split, split_spans = backend.infer_timed(*row)
    assert len(split) == len(whole) and np.array_equal(split_spans, whole_spans)
    assert 10 * np.log10(np.sum(whole ** 2) / np.sum((whole - split) ** 2)) > 60


def test_workers_take_new_requests_first_then_the_stream_about_to_run_dry(tiny_engine):
    """A request nobody has heard yet goes first (by arrival); then streams in progress by the
    moment their listener would run dry, a later sentence's first step being one of them."""
    from emovox.server.metrics import Metrics
    from emovox.server.playback import Listener
    from emovox.server.scheduler import Lane, _Task

    lane = Lane(tiny_engine, "kokoro", SchedulerSettings(workers=1), Metrics())
    lane._workers = [None]  # queue only: this test takes the steps itself
    job = next(iter(tiny_engine.plan(LONG, voice="af_kiko")))
    now = 1000.0
    listeners = {"ahead": Listener(opened=now - 5, first=now - 4, heard_s=6.0),  # 2 s of audio in hand
                 "running dry": Listener(opened=now - 1, first=now - 0.9, heard_s=1.0),  # 0.1 s in hand
                 "new": Listener(opened=now),
                 "newer": Listener(opened=now + 0.5)}
    names = {id(listener): name for name, listener in listeners.items()}
    for listener in listeners.values():
        lane.submit(_Task(job, lambda _: None, listener))
    order = [names[id(lane._gather()[0].listener)] for _ in range(len(listeners))]
    assert order == ["new", "newer", "running dry", "ahead"]


def test_after_a_chunk_ends_the_worker_waits_a_moment_for_a_returning_client(tiny_engine):
    """A client that asks again as soon as its audio is done finds the worker free instead of
    one step into another stream: after a chunk's last piece the worker waits a small share of
    a typical step for a new request, and stops waiting the moment one is in line."""
    import threading
    import time

    from emovox.server.metrics import Metrics
    from emovox.server.playback import Listener
    from emovox.server.scheduler import ANTICIPATION_MAX_S, Lane, _Task

    lane = Lane(tiny_engine, "kokoro", SchedulerSettings(workers=1), Metrics())
    lane._workers = [None]  # queue only: this test plays the worker
    lane._typical_later_s = 10.0  # a slow backend: the wait is at its most, ANTICIPATION_MAX_S
    job = next(iter(tiny_engine.plan(LONG, voice="af_kiko")))
    now = time.perf_counter()
    lane.submit(_Task(job, lambda _: None, Listener(opened=now - 10, first=now - 9, heard_s=9)))

    def anticipate() -> float:
        started = time.perf_counter()
        with lane._changed:
            lane._anticipate()
        return time.perf_counter() - started

    assert anticipate() >= 0.9 * ANTICIPATION_MAX_S  # nobody came: the stream's step is next
    assert lane._steps[0][2].listener.first is not None

    returning = threading.Timer(ANTICIPATION_MAX_S / 4, lambda: lane.submit(
        _Task(job, lambda _: None, Listener(opened=time.perf_counter()))))
    returning.start()
    waited = anticipate()
    returning.join()
    assert waited < 0.9 * ANTICIPATION_MAX_S and lane._steps[0][2].listener.first is None  # the new request is next
