"""A book to chaptered audio: resumable, in parallel, never one waveform in memory.

For each chapter the engine plans the text once; each chunk (a sentence or a clause) is
keyed by its content (the job: ids, voice, speed, controls, pauses) and its finished audio
is kept in `DIR/.emovox-work/` as it is made. A chapter's audio file is encoded from those
chunks in the order of the text as they come, its `.srt` and `.vtt` written when its last
chunk is in, and `manifest.json` is rewritten after every chapter. Every file is written
atomically (paths.written_atomically), so a process killed at any moment, SIGKILL
included, leaves finished files or none; running the same command again renders only what
is missing and, the models being deterministic and the encoders bit-exact, writes the same
bytes an uninterrupted run would.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from emovox.audio.encode import audio_file
from emovox.audio.formats import check_format
from emovox.engine import ChunkJob, Engine
from emovox.longform.captions import Cue, srt_text, vtt_text
from emovox.longform.source import Book
from emovox.options import SpeechOptions
from emovox.paths import written_atomically

WORK_DIR = ".emovox-work"
MANIFEST = "manifest.json"
#: Chunks a worker may have made or be making ahead of the one the writer waits for (bounded memory).
CHUNKS_IN_FLIGHT_PER_WORKER = 4
#: Part of every chunk's key: bump it when what a key stands for changes.
KEY_VERSION = "book-chunk/1"


@dataclass(frozen=True)
class ChapterEntry:
    """One chapter in the manifest."""

    index: int
    title: str
    audio: str
    srt: str
    vtt: str
    duration_s: float
    sentences: int
    words: int
    key: str  # of everything the chapter's audio is made of: unchanged -> not rebuilt


@dataclass
class Progress:
    """Where a book stands; handed to the progress callback after every chunk and chapter."""

    event: str  # "chapter", "chunk", "chapter_done", "done"
    chapter: int
    chapters: int
    title: str = ""
    chunks_done: int = 0
    chunks: int = 0
    rendered: int = 0  # chunks synthesized in this run (the rest came from earlier runs)
    audio_s: float = 0.0  # audio made so far in this book, this run's and earlier runs'
    elapsed_s: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class _Run:
    started: float = field(default_factory=time.perf_counter)
    rendered: int = 0
    audio_s: float = 0.0


def chunk_key(job: ChunkJob) -> str:
    """What a chunk's audio depends on, hashed: the same sentence read the same way anywhere
    in the book (or in another book) is the same audio."""
    content = replace(job, index=0, warnings=())
    return hashlib.sha256(f"{KEY_VERSION}|{content!r}".encode()).hexdigest()


class _ChapterWriter:
    """A chapter's audio file, written chunk by chunk in the order of the text as the chunks
    are made (so encoding overlaps synthesis from the first chunk, and the book's last
    chapter leaves only its last chunk to encode), with the subtitle cues that go with it.
    The file appears under its name only when `close` is called: see `audio_file`."""

    def __init__(self, out: Path, index: int, title: str, sample_rate: int, fmt: str) -> None:
        stem = f"{index:02d}-{_slug(title)}"
        # every format's file extension is its name
        self.audio, self.srt, self.vtt = f"{stem}.{fmt}", f"{stem}.srt", f"{stem}.vtt"
        self._out, self._sample_rate, self._fmt = out, sample_rate, fmt
        self._file = contextlib.ExitStack()
        self._write = None
        self.cues: list[Cue] = []
        self.position = 0

    def add(self, job: ChunkJob, samples: np.ndarray) -> None:
        if self._write is None:
            self._write = self._file.enter_context(audio_file(self._out / self.audio, self._sample_rate, self._fmt))
        self._write(samples)
        start = self.position / self._sample_rate + job.pause_before_s
        end = (self.position + len(samples)) / self._sample_rate - job.pause_after_s
        self.cues.append(Cue(round(start, 3), round(max(start, end), 3), job.written or job.text))
        self.position += len(samples)

    def close(self) -> None:
        """The audio file complete and in place, then its subtitles."""
        self._file.close()
        _write_text(self._out / self.srt, srt_text(self.cues))
        _write_text(self._out / self.vtt, vtt_text(self.cues))

    def abandon(self) -> None:
        """A run that failed: the unfinished file is removed, never renamed into place."""
        self._file.__exit__(RuntimeError, RuntimeError("book abandoned"), None)


@dataclass
class _Chapter:
    """A chapter in flight: its plan, its chunks' keys, and how many of them are made."""

    index: int
    title: str
    text: str
    plan: object
    keys: list[str]
    key: str
    progress: Progress
    done: int = 0
    #: The manifest entry of an earlier run whose files are still there: nothing to write.
    reused: dict | None = None
    writer: _ChapterWriter | None = None


def make_book(engine: Engine, book: Book, out: Path, options: SpeechOptions, fmt: str = "mp3", workers: int = 1,
              on_progress: Callable[[Progress], None] | None = None, m4b: bool = False,
              renderer: ChunkRenderer | None = None) -> dict:
    """Every chapter of `book` into `out`; returns the manifest (also in `out/manifest.json`).

    The chunks of the whole book go through `workers` synthesis threads as one stream in the
    order of the text (a chapter is planned when the stream reaches it, so a short chapter
    never leaves a worker idle at its end); one writer thread encodes each chapter chunk by
    chunk, in order, as the chunks come, while the next ones are synthesized. With `m4b`,
    the whole book also goes into one `.m4b` with chapter marks. `renderer` runs the chunks
    elsewhere (a Ray cluster: longform/on_ray.py); `engine` then only plans."""
    check_format(fmt)
    out = Path(out)
    work = out / WORK_DIR
    work.mkdir(parents=True, exist_ok=True)
    _remove_partials(out, work)
    voice = engine.voice(options.voice or engine.default_voice)
    options = options.replace(voice=voice.name)
    earlier = _read_manifest(out)
    previous = {entry["index"]: entry for entry in earlier.get("chapters", [])}
    manifest = {"title": book.title, "voice": voice.name, "format": fmt, "complete": False, "chapters": []}
    _write_manifest(out, manifest)
    run, report = _Run(), on_progress or (lambda _: None)

    states: list[_Chapter] = []

    def chunks() -> Iterator[tuple[_Chapter, ChunkJob, str]]:
        for index, chapter in enumerate(book.chapters, 1):
            plan = engine.plan(chapter.text, options=options)
            keys = [chunk_key(job) for job in plan]
            state = _Chapter(index, chapter.title, chapter.text, plan, keys,
                             hashlib.sha256("|".join([fmt, chapter.title, *keys]).encode()).hexdigest(),
                             Progress("chapter", index, len(book.chapters), chapter.title, chunks=len(keys)))
            entry = previous.get(index)
            if entry and entry.get("key") == state.key and _outputs_exist(out, entry):
                state.reused = entry
            else:
                state.writer = _ChapterWriter(out, index, chapter.title, plan.sample_rate, fmt)
            states.append(state)
            report(state.progress)
            for job, key in zip(plan.jobs, keys):
                yield state, job, key

    def finish_chapter(state: _Chapter) -> None:
        entry = state.reused
        if entry is None:
            writer = state.writer
            writer.close()
            entry = asdict(ChapterEntry(index=state.index, title=state.title, audio=writer.audio, srt=writer.srt,
                                        vtt=writer.vtt, duration_s=round(writer.position / state.plan.sample_rate, 3),
                                        sentences=len(state.keys), words=len(re.findall(r"\w+", state.text)),
                                        key=state.key))
        manifest["chapters"].append(entry)
        _write_manifest(out, manifest)
        report(replace(state.progress, event="chapter_done", chunks_done=len(state.keys), elapsed_s=_since(run)))

    window = CHUNKS_IN_FLIGHT_PER_WORKER * max(1, workers)  # chunks waiting for the writer
    renderer = renderer or ThreadRenderer(engine, workers)
    try:
        with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="emovox-chapter") as assembler:
            # one writer thread, fed in the order of the text: chunks, then their chapter's end
            assembled = []
            for state, job, key, samples in renderer.in_order(chunks(), lambda k: _piece(work, k).is_file()):
                if samples is not None:  # made now (else: by an earlier run)
                    with written_atomically(_piece(work, key)) as partial:
                        partial.write_bytes(np.ascontiguousarray(samples, dtype="<f4").tobytes())
                    run.rendered += 1
                elif state.writer is not None:  # an earlier run's piece, for a chapter still to write
                    samples = np.fromfile(_piece(work, key), dtype="<f4")
                length = len(samples) if samples is not None else _piece(work, key).stat().st_size // 4
                run.audio_s += length / job.output_rate
                if state.writer is not None:
                    assembled.append(assembler.submit(state.writer.add, job, samples))
                state.done += 1
                report(replace(state.progress, event="chunk", chunks_done=state.done, rendered=run.rendered,
                               audio_s=run.audio_s, elapsed_s=_since(run)))
                if state.done == len(state.keys):
                    assembled.append(assembler.submit(finish_chapter, state))
                while assembled and (assembled[0].done() or len(assembled) > window):
                    assembled.pop(0).result()  # an encoder's error surfaces here; a slow one holds the stream back
            for future in assembled:
                future.result()
    except BaseException:
        for state in states:
            if state.writer is not None:
                state.writer.abandon()
        raise
    if m4b:
        manifest["m4b"], manifest["m4b_key"] = _audiobook(out, work, book.title, states, earlier.get("m4b_key"))
    manifest["complete"] = True
    _write_manifest(out, manifest)
    report(Progress("done", len(book.chapters), len(book.chapters), rendered=run.rendered, audio_s=run.audio_s,
                    elapsed_s=_since(run)))
    return manifest


def _audiobook(out: Path, work: Path, title: str, states: list[_Chapter], earlier_key: str | None) -> tuple[str, str]:
    """The whole book as one .m4b with a mark per chapter (rebuilt only when a chapter changed):
    its file name and key."""
    from emovox.longform.m4b import write_m4b

    name = f"{_slug(title)}.m4b"
    key = hashlib.sha256("|".join(state.key for state in states).encode()).hexdigest()
    if earlier_key != key or not (out / name).is_file():
        write_m4b(out / name, title, [(state.title, (np.fromfile(_piece(work, k), dtype="<f4") for k in state.keys))
                                      for state in states], states[0].plan.sample_rate)
    return name, key


class ChunkRenderer(Protocol):
    """Renders a book's chunks wherever it runs them, handing them back in the order of the text."""

    def in_order(self, items: Iterator[tuple[_Chapter, ChunkJob, str]],
                 made: Callable[[str], bool]) -> Iterator[tuple[_Chapter, ChunkJob, str, np.ndarray | None]]:
        """(chapter, job, key, samples) for each item, in order; samples are None for a chunk
        whose key is already `made` (by an earlier run)."""


class ThreadRenderer:
    """`workers` threads of this process's engine, at most a few chunks each in flight
    (bounded memory)."""

    def __init__(self, engine: Engine, workers: int) -> None:
        self._engine, self._workers = engine, max(1, workers)

    def in_order(self, items, made):
        window = CHUNKS_IN_FLIGHT_PER_WORKER * self._workers
        with concurrent.futures.ThreadPoolExecutor(self._workers) as pool:
            pending: list = []
            for state, job, key in items:
                future = None if made(key) else pool.submit(self._engine.render, job)
                pending.append((state, job, key, future))
                while len(pending) >= window or (pending and pending[0][3] is None):
                    state_, job_, key_, future_ = pending.pop(0)
                    yield state_, job_, key_, None if future_ is None else future_.result().samples
            for state_, job_, key_, future_ in pending:
                yield state_, job_, key_, None if future_ is None else future_.result().samples


def _piece(work: Path, key: str) -> Path:
    return work / f"{key}.f32"


def _slug(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40].strip("-")
    return slug or "chapter"


def _outputs_exist(out: Path, entry: dict) -> bool:
    return all((out / entry[name]).is_file() for name in ("audio", "srt", "vtt"))


def _read_manifest(out: Path) -> dict:
    try:
        return json.loads((out / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def _write_manifest(out: Path, manifest: dict) -> None:
    _write_text(out / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


def _write_text(path: Path, text: str) -> None:
    with written_atomically(path) as partial:
        partial.write_text(text, "utf-8")


def _remove_partials(*directories: Path) -> None:
    """Temporary files a killed run left behind (never finished files)."""
    for directory in directories:
        for leftover in directory.glob(".*.partial"):
            leftover.unlink(missing_ok=True)


def _since(run: _Run) -> float:
    return round(time.perf_counter() - run.started, 3)
