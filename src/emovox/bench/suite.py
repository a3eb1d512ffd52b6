"""`emovox bench`: what each profile costs and delivers on this machine.

Per profile (each in its own process, so load time and peak memory are its own) and per
voice family it carries: model load time, RTF (median of repeated runs), time to the first
audio when streaming, throughput and time to first audio at rising concurrency through the
server's scheduler (in process, no HTTP), how many live listeners it keeps playing without
a gap, and peak RSS. All of it with the audio cache off
and, for first audio and concurrency, a sentence no request used before every time
(emovox.bench.sentences): the figures are synthesis. What a cache hit costs is measured
apart (`cache_hit_ms`). The peer runtime of each model runs side by side on the same
sentences when installed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
import multiprocessing
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from emovox.bench.sentences import mixed
from emovox.profiles import Profile, profile

SENTENCES = (
    "The meeting moved to half past three on Friday afternoon.",
    "Please turn left after the bridge and keep going for a mile.",
    "I can't believe we actually won the game tonight!",
    "She whispered that the children were finally asleep.",
    "Why would anyone leave the door open in this weather?",
    "The quarterly revenue grew by seventeen percent.",
    "Our train is twenty minutes late again this morning.",
    "Could you send me the report before lunch, please?",
    "A small boat drifted slowly across the quiet harbour.",
    "Thank you for calling; an agent will be with you shortly.",
)
#: The voice measured for each model family a profile carries.
FAMILY_VOICE = {"vits": "joe", "hibari": "heart", "kokoro": "jf_alpha"}


@dataclass(frozen=True)
class BenchConfig:
    repeats: int = 5
    sentences: int = 10
    concurrency: tuple[int, ...] = (1, 2, 4, 8, 16)
    seconds_per_level: float = 8.0
    peers: bool = True
    #: Live listeners: counts tried in turn until one runs dry, the sentences each hears, and
    #: the seconds within which they arrive (at random; a burst of arrivals is another test).
    streams: tuple[int, ...] = (1, 2, 4, 8, 16, 24, 32, 48)
    sentences_per_stream: int = 3
    stream_arrivals_s: float = 6.0

    @classmethod
    def quick(cls) -> BenchConfig:
        return cls(repeats=2, sentences=3, concurrency=(1, 2, 4), seconds_per_level=2.0, streams=(1, 2, 4),
                   sentences_per_stream=1, stream_arrivals_s=1.0)


def run(names, config: BenchConfig, step: Callable[[str], None] = lambda _: None) -> dict:
    """Every profile in `names` (each in a fresh process), then the peers: the results."""
    from emovox.bench.machine import describe

    results = {"machine": describe(), "date": datetime.datetime.now().isoformat(timespec="seconds"),
               "config": dataclasses.asdict(config), "profiles": [], "peers": []}
    for name in names:
        results["profiles"].append(in_child(run_profile, name, config))
        step(f"measured profile {name}")
    if config.peers:
        results["peers"] = in_child(run_peers, config)
        step("measured the peer runtimes")
    return results


def run_profile(name: str, config: BenchConfig) -> dict:
    """Measure one profile in this process (call it in a fresh one: load time and peak RSS)."""
    chosen = dataclasses.replace(profile(name), audio_cache_mb=0)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as home:  # stock voices only
        engine = chosen.engine(home=Path(home))
        engine.warmup()
    load_s = time.perf_counter() - started
    sentences = SENTENCES[: config.sentences]
    voices = []
    fresh = iter(mixed(seed=len(name)))
    for backend in chosen.backends:
        voice = FAMILY_VOICE[backend]
        rtf = _rtf(engine, voice, sentences, config.repeats)
        first = _first_chunk_ms(engine, voice, max(3, config.repeats), fresh)
        levels = [_concurrent(engine, chosen, voice, n, config.seconds_per_level, fresh) for n in config.concurrency]
        streams = _live_streams(engine, chosen, voice, config, fresh)
        voices.append({"voice": voice, "backend": backend, "rtf": rtf, "first_chunk_ms": first,
                       "cache_hit_ms": _cache_hit_ms(engine, voice, next(fresh)),
                       "concurrency": levels, "live_streams": streams, "model_mb": _model_mb(engine, voice)})
    return {"profile": chosen.to_dict() | {"audio_cache_mb": profile(name).audio_cache_mb}, "load_s": load_s,
            "voices": voices, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run_peers(config: BenchConfig) -> list[dict]:
    """Our runtime and the peer of each model, side by side on the same sentences."""
    from emovox.bench.peers import emovox_synth, measure, peer_for
    from emovox.compose import from_packages

    engine = from_packages(audio_cache_bytes=0)
    rows = []
    for backend, voice in FAMILY_VOICE.items():
        peer = peer_for(voice, backend)
        if peer is None:
            rows.append({"voice": voice, "peer": None, "reason": "peer runtime not installed (pip install emovox[bench])"})
            continue
        peer_name, synth = peer
        result = measure({"emovox": emovox_synth(engine, voice), peer_name: synth}, SENTENCES[: config.sentences],
                         config.repeats)
        ours, theirs = result["emovox"]["rtf_median"], result[peer_name]["rtf_median"]
        rows.append({"voice": voice, "peer": peer_name, "emovox_rtf": ours, "peer_rtf": theirs, "ratio": ours / theirs})
    return rows


def results_file() -> Path:
    """Where the latest bench results are kept for `emovox profiles` and `emovox plan`."""
    from emovox.paths import home_dir

    return home_dir() / "bench" / "latest.json"


def remember(results: dict) -> None:
    from emovox.paths import written_atomically

    with written_atomically(results_file()) as partial:
        partial.write_text(json.dumps(results, indent=2))


def in_child(function: Callable, *args):
    """`function(*args)` in a fresh process; its result comes back through a pipe."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.apply(function, args)


def _rtf(engine, voice: str, sentences, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        compute = audio = 0.0
        for sentence in sentences:
            result = engine.synthesize(sentence, voice=voice)
            compute += result.info.compute_seconds
            audio += result.duration
        runs.append(compute / audio)
    return {"median": statistics.median(runs), "runs": runs}


def _first_chunk_ms(engine, voice: str, repeats: int, fresh: Iterator[str]) -> float:
    """Median time to the first piece of a new sentence's stream."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        stream = engine.stream(next(fresh), voice=voice)
        next(stream)
        times.append(1000 * (time.perf_counter() - started))
        stream.close()
    return statistics.median(times)


def _cache_hit_ms(engine, voice: str, sentence: str) -> float:
    """Time to the first audio of a sentence said a moment before, by a renderer with an
    audio cache (the engine's own runs without one here)."""
    from emovox.engine.render import Renderer

    renderer = Renderer(engine.catalogue, engine.speech_level_db, audio_cache_bytes=16 << 20)
    job = next(iter(engine.plan(sentence, voice=voice)))
    renderer.render(job)
    started = time.perf_counter()
    next(renderer.stream(job))
    return 1000 * (time.perf_counter() - started)


def _concurrent(engine, chosen: Profile, voice: str, clients: int, seconds: float, fresh: Iterator[str]) -> dict:
    """`clients` requests at a time, back to back for `seconds`, through the scheduler, each
    a new sentence."""
    from emovox.server.scheduler import Scheduler, SchedulerSettings

    scheduler = Scheduler(engine, SchedulerSettings.from_profile(chosen))
    first_audio: list[float] = []
    audio_s = [0.0]

    async def client(deadline: float) -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            jobs = engine.plan(next(fresh), voice=voice)
            heard = False
            async for chunk in scheduler.chunks(jobs):
                if not heard:
                    first_audio.append(time.perf_counter() - started)
                    heard = True
                audio_s[0] += chunk.duration

    async def run() -> float:
        started = time.perf_counter()
        await asyncio.gather(*(client(started + seconds) for _ in range(clients)))
        return time.perf_counter() - started

    try:
        wall = asyncio.run(run())
    finally:
        scheduler.close()
    return {"clients": clients, "requests": len(first_audio), "audio_s_per_s": audio_s[0] / wall,
            "ttfa_p50_ms": 1000 * float(np.percentile(first_audio, 50)) if first_audio else None,
            "ttfa_p95_ms": 1000 * float(np.percentile(first_audio, 95)) if first_audio else None}


def _live_streams(engine, chosen: Profile, voice: str, config: BenchConfig, fresh: Iterator[str]) -> dict:
    """The most listeners at once whose streams never ran dry (emovox.server.playback), trying
    `config.streams` in turn until one count fails; each listener arrives at random within
    `config.stream_arrivals_s` and hears `config.sentences_per_stream` new sentences."""
    levels = []
    for count in config.streams:
        texts = [" ".join(next(fresh) for _ in range(config.sentences_per_stream)) for _ in range(count)]
        level = _listeners(engine, chosen, voice, texts, config.stream_arrivals_s)
        levels.append(level)
        if level["underran"]:
            break
    kept_up = [level["streams"] for level in levels if not level["underran"]]
    return {"realtime": max(kept_up, default=0), "levels": levels}


def _listeners(engine, chosen: Profile, voice: str, texts: list[str], arrivals_s: float) -> dict:
    from emovox.server.playback import Listener
    from emovox.server.scheduler import Scheduler, SchedulerSettings

    scheduler = Scheduler(engine, SchedulerSettings.from_profile(chosen, max_waiting=max(64, len(texts))))
    arrivals = np.random.default_rng(len(texts)).uniform(0, arrivals_s, len(texts))

    async def listen(text: str, delay: float) -> Listener:
        await asyncio.sleep(delay)
        listener = Listener(opened=time.perf_counter())
        async for chunk in scheduler.chunks(engine.plan(text, voice=voice)):
            listener.received(time.perf_counter(), chunk.duration)
        return listener

    async def run() -> list[Listener]:
        return await asyncio.gather(*(listen(text, delay) for text, delay in zip(texts, arrivals)))

    try:
        listeners = asyncio.run(run())
    finally:
        scheduler.close()
    firsts = [1000 * listener.first_audio_s for listener in listeners]
    return {"streams": len(texts), "underran": sum(listener.underran for listener in listeners),
            "worst_late_ms": 1000 * max(listener.late_s for listener in listeners),
            "ttfa_p95_ms": float(np.percentile(firsts, 95))}


def _model_mb(engine, voice: str) -> float | None:
    path = engine.backend_of(voice).model_path
    return path.stat().st_size / 2**20 if path else None
