"""The `emovox` command: say, voices, emotions, phonemize, demo.

Bad input ends with a one-line message and a non-zero exit; `--verbose` adds details.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import re
import sys
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

from emovox.errors import EmovoxError, InvalidOptionError, InvalidTextError

EXIT_BAD_INPUT = 2
#: Segment size for `phonemize` without --voice: the smallest limit among our backends.
DEFAULT_MAX_PHONEMES = 400
def _read_text(text: str) -> str:
    if text != "-":
        return text
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidTextError(
            f"standard input is not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "convert it first, e.g. `iconv -f latin1 -t utf-8`"
        ) from None


def _default_output(text: str, fmt: str) -> Path:
    words = re.findall(r"[A-Za-z0-9]+", text)[:6]
    stem = "-".join(words).lower() or "speech"
    return Path(f"{stem}.{fmt}")


def _cmd_say(args: argparse.Namespace) -> int:
    from emovox.audio.encode import audio_file
    from emovox.audio.formats import format_of
    from emovox.compose import from_packages
    from emovox.profiles import profile

    text = _read_text(args.text)
    options = _options_from(args)
    fmt = options.format or (format_of(args.output) if args.output else "wav")
    output = args.output or _default_output(text, fmt)
    engine = profile(args.profile).engine() if args.profile else from_packages()
    captions = _caption_outputs(args)
    started = time.perf_counter()
    plan = engine.plan(text, options=options)
    seconds, words = 0.0, []
    with audio_file(output, plan.sample_rate, fmt) as write_samples:
        for chunk in map(engine.render, plan):
            write_samples(chunk.samples)
            words.extend(word.shifted(seconds) for word in chunk.words)
            seconds += chunk.duration
    _write_captions(captions, words)
    for warning in plan.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(f"wrote {output} ({seconds:.1f} s of audio, voice {plan.voice.name}, {elapsed:.1f} s to make)")
    if plan.resolution.emotion.name != "neutral" or not plan.controls.is_neutral:
        print(f"emotion: {_describe(plan.resolution)}")
    return 0


def _caption_outputs(args: argparse.Namespace) -> dict[str, Path]:
    """Where `--timestamps` and `--subtitles` go, checked before any audio is made."""
    outputs = {}
    if args.timestamps:
        outputs["json"] = args.timestamps
    if args.subtitles:
        kind = args.subtitles.suffix.lower().lstrip(".")
        if kind not in ("srt", "vtt"):
            raise InvalidOptionError(f"--subtitles writes .srt or .vtt files, not {args.subtitles.name!r}")
        outputs[kind] = args.subtitles
    return outputs


def _write_captions(outputs: dict[str, Path], words) -> None:
    """Word timestamps as JSON, and subtitles of a few words per cue."""
    from emovox.longform.captions import cues_from_words, srt_text, vtt_text
    from emovox.paths import written_atomically

    texts = {"json": lambda: json.dumps({"words": [w.to_dict() for w in words]}, indent=2, ensure_ascii=False),
             "srt": lambda: srt_text(cues_from_words(words)), "vtt": lambda: vtt_text(cues_from_words(words))}
    for kind, path in outputs.items():
        with written_atomically(path) as partial:
            partial.write_text(texts[kind](), "utf-8")


def _options_from(args: argparse.Namespace):
    """The request options of `say`, from the flags `add_speech_options` made."""
    from emovox.options import OPTIONS, SpeechOptions

    values = {option.name: getattr(args, option.name) for option in OPTIONS}
    if values["style_ref"] is not None:
        values["style_ref"] = _read_clip(values["style_ref"])
    if values["lexicon"] is not None:
        from emovox.frontend.lexicon import Lexicon

        values["lexicon"] = Lexicon.load(values["lexicon"])
    return SpeechOptions(**{k: v for k, v in values.items() if v is not None})


def _read_clip(path: Path) -> bytes:
    if not path.is_file():
        raise InvalidOptionError(f"no such style reference clip: {path}", param="style_ref")
    return path.read_bytes()


def add_speech_options(parser: argparse.ArgumentParser) -> None:
    """One flag per request option (emovox/options.py), with its help, choices and type."""
    from emovox.options import OPTIONS

    for option in OPTIONS:
        kwargs: dict = {"help": option.help, "dest": option.name}
        if option.kind == "number":
            kwargs["type"] = float
        elif option.kind == "choice":  # listed here, checked by SpeechOptions (one message for both surfaces)
            kwargs["metavar"] = "{" + ",".join(option.choices) + "}"
        elif option.kind == "clip":
            kwargs.update(type=Path, metavar="CLIP")
        elif option.kind == "lexicon":
            kwargs.update(type=Path, metavar="FILE")
        parser.add_argument(option.flag, **kwargs)


def _cmd_book(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from emovox.longform.book import make_book
    from emovox.longform.source import read_book
    from emovox.profiles import profile

    book = read_book(args.input)
    options = _options_from(args)
    chosen = profile(args.profile)
    engine = chosen.engine()
    workers = args.workers or chosen.worker_count
    renderer = None
    if args.ray:
        from emovox.longform.on_ray import RayRenderer

        renderer = RayRenderer(args.ray, chosen.backends)
    if args.json:
        def report(progress) -> None:
            print(json.dumps(progress.to_dict()), flush=True)

        manifest = make_book(engine, book, args.output, options, options.format or "mp3", workers, report, args.m4b,
                             renderer)
    else:
        columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                   TextColumn("{task.fields[audio]}"), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns) as bar:
            whole = bar.add_task(f"[bold]{book.title}", total=len(book.chapters), audio="")
            tasks: dict[int, int] = {}

            def report(progress) -> None:
                audio = f"{progress.audio_s / 60:.1f} min of audio"
                if progress.event == "chapter":
                    tasks[progress.chapter] = bar.add_task(f"  {progress.chapter}. {progress.title[:40]}",
                                                           total=progress.chunks, audio="")
                elif progress.event in ("chunk", "chapter_done"):
                    bar.update(tasks[progress.chapter], completed=progress.chunks_done, audio=audio)
                    bar.update(whole, audio=audio)
                    if progress.event == "chapter_done":
                        bar.update(whole, completed=progress.chapter)

            manifest = make_book(engine, book, args.output, options, options.format or "mp3", workers, report,
                                 args.m4b, renderer)
    total = sum(chapter["duration_s"] for chapter in manifest["chapters"])
    if not args.json:
        print(f"wrote {len(manifest['chapters'])} chapters ({total / 60:.1f} min of audio, voice {manifest['voice']}) "
              f"to {args.output}; see {args.output / 'manifest.json'}")
    return 0


def _cmd_lexicon(args: argparse.Namespace) -> int:
    from emovox.frontend.lexicon import KINDS, Entry, Lexicon
    from emovox.lexicons import LexiconStore

    store = LexiconStore()
    if args.action == "add":
        if len(args.operands) != 2:
            raise InvalidOptionError("usage: emovox lexicon add TEXT PRONUNCIATION [--kind ipa|pinyin|alias]")
        text, say = args.operands
        kind = args.kind or next(iter(e.kind for e in Lexicon.from_data({text: say}).entries))
        store.add([Entry(text, say, kind)])
        print(f"added {text!r} -> {say!r} ({kind})")
    elif args.action == "rm":
        if len(args.operands) != 1:
            raise InvalidOptionError("usage: emovox lexicon rm TEXT")
        store.remove(args.operands[0])
        print(f"removed {args.operands[0]!r}")
    elif args.action == "import":
        if len(args.operands) != 1:
            raise InvalidOptionError("usage: emovox lexicon import FILE (JSON, YAML or W3C PLS)")
        imported = Lexicon.load(Path(args.operands[0]))
        store.add(list(imported.entries))
        print(f"imported {len(imported.entries)} entries into {store.path}")
    else:
        entries = store.load().to_list()
        if args.json:
            print(json.dumps(entries, indent=2, ensure_ascii=False))
        else:
            for entry in entries:
                kind = next(k for k in KINDS if k in entry)
                print(f"{entry['text']}\t{entry[kind]}\t({kind})")
            if not entries:
                print(f"no entries yet ({store.path}); add one with `emovox lexicon add TEXT PRONUNCIATION`")
    return 0


def _describe(resolution) -> str:
    emotion = resolution.emotion
    extras = ", ".join(f"{k} {v}" for k, v in emotion.to_dict().items() if k not in ("name", "intensity"))
    matched = f" from {', '.join(repr(m) for m in resolution.matched)}" if resolution.matched else ""
    return f"{emotion.name} at intensity {emotion.intensity:g}{matched}" + (f" ({extras})" if extras else "")


def _cmd_emotions(args: argparse.Namespace) -> int:
    from emovox.emotion.model import EMOTIONS
    from emovox.emotion.presets import DESCRIPTIONS, TARGETS
    from emovox.emotion.prompt import parse_prompt

    if args.parse is not None:
        parsed = parse_prompt(args.parse)
        if args.json:
            print(json.dumps(parsed.to_dict(), indent=2, ensure_ascii=False))
        else:
            e = parsed.emotion
            print(f"{e.name} at intensity {e.intensity:g}" + ("" if parsed.understood else " (not understood)"))
            for key, value in e.to_dict().items():
                if key not in ("name", "intensity"):
                    print(f"  {key}: {value}")
            print(f"  from: {', '.join(parsed.matched) or 'nothing recognized'}")
            for note in parsed.notes:
                print(f"  note: {note}")
        return 0
    if args.json:
        print(json.dumps([{"name": n, "description": DESCRIPTIONS[n], "target": TARGETS[n].to_dict()}
                          for n in EMOTIONS], indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("emotion", "F0 (st)", "range", "rate", "energy (dB)", "tilt (dB)", "what it does",
                  title="targets at intensity 1, as measured against neutral")
    for name in EMOTIONS:
        t = TARGETS[name]
        table.add_row(name, f"{t.pitch_st:+.1f}", f"x{t.pitch_range:.2f}", f"x{t.speed:.2f}",
                      f"{t.energy_db:+.1f}", f"{t.tilt_db:+.1f}", DESCRIPTIONS[name])
    Console().print(table)
    return 0


def _cmd_voices(args: argparse.Namespace) -> int:
    from emovox.compose import from_packages
    from emovox.voices.store import open_store

    if args.action != "list":
        store = open_store()
        expected = {"rm": 1, "export": 2, "import": 1}[args.action]
        if len(args.operands) != expected:
            usage = {"rm": "voices rm NAME", "export": "voices export NAME FILE", "import": "voices import FILE"}
            raise InvalidOptionError(f"usage: emovox {usage[args.action]}")
        if args.action == "rm":
            store.delete(args.operands[0])
            store.record("delete", args.operands[0], _cli_actor())
            print(f"deleted {args.operands[0]}")
        elif args.action == "export":
            store.export(args.operands[0], Path(args.operands[1]), actor=_cli_actor())
            print(f"exported {args.operands[0]} to {args.operands[1]}")
        else:
            voice = store.import_file(Path(args.operands[0]), force=args.force, actor=_cli_actor())
            print(f"imported {voice.name}")
        return 0
    voices = from_packages().voices()
    if args.json:
        print(json.dumps([v.to_dict() for v in voices], indent=2, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("name", "aliases", "backend", "language", "gender", "sample rate")
    for v in voices:
        table.add_row(v.name, ", ".join(v.aliases), v.backend, v.language, v.gender, str(v.sample_rate))
    Console().print(table)
    return 0


def _cli_actor() -> str:
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no name for this uid (a container)
        return f"cli:uid {os.getuid()}"


def _cmd_clone(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from emovox.compose import from_packages
    from emovox.voices.adapt import BUDGETS
    from emovox.voices.clone import clone
    from emovox.voices.consent import ConsentClaim, required
    from emovox.voices.store import open_store

    if not args.reference.is_file():
        raise InvalidOptionError(f"no such file: {args.reference}")
    if args.consent_clip is None and not args.consent_by:
        raise required("--consent-clip FILE", "--consent-by NAME")
    if args.consent_clip is not None and not args.consent_clip.is_file():
        raise InvalidOptionError(f"no such file: {args.consent_clip}")
    claim = ConsentClaim(by=args.consent_by or "",
                         clip=args.consent_clip.read_bytes() if args.consent_clip is not None else None)
    data = args.reference.read_bytes()
    engine, budget = from_packages(), BUDGETS[args.quality]
    with Progress(TextColumn("cloning"), BarColumn(), TextColumn("{task.fields[similarity]}"),
                  TimeElapsedColumn(), disable=args.json, transient=True) as bar:
        task = bar.add_task("clone", total=budget, similarity="")
        result = clone(engine, open_store(), data, args.name, args.quality, args.force, args.denoise, args.backend,
                       progress=lambda elapsed, similarity: bar.update(
                           task, completed=elapsed, similarity=f"similarity {similarity:.3f}"),
                       consent=claim, actor=_cli_actor())
    summary = result.to_dict()
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    source = "from the clone cache" if result.cached else f"in {result.seconds:.1f} s"
    adapted = "timbre and pitch" if summary["timbre_adapted"] else "pitch register only"
    print(f"cloned {summary['name']} on {summary['backend']} ({adapted}) {source}: similarity "
          f"{summary['similarity']:.3f} to the reference, starting from {summary['start']} "
          f"({summary['start_similarity']})")
    consent = summary["consent"]
    print(f"consent: {consent['method']} by {consent['by'] or 'the speaker'}"
          + (f" (heard {consent['heard']!r})" if consent["heard"] else ""))
    for warning in (summary["intake"] or {}).get("warnings", []):
        print(f"warning: {warning}")
    return 0


def _cmd_detect(args: argparse.Namespace) -> int:
    """Exit status 0 when the file carries the mark, 1 when it does not (2: bad input)."""
    from emovox.audio.watermark import shared
    from emovox.voices.intake import ReferenceAudioError, decode, sniff

    if not args.file.is_file():
        raise InvalidOptionError(f"no such file: {args.file}")
    data = args.file.read_bytes()
    sniff(data)
    samples, rate, _ = decode(data)
    try:
        detection = shared().detect(samples, rate)
    except ValueError as e:
        raise ReferenceAudioError(str(e)) from None
    result = {"file": str(args.file), **detection.to_dict(), "voice": None,
              "note": "the mark says 'made by an emovox cloned voice'; which voice is in the audit log, not the audio"}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        verdict = "carries the emovox cloned-voice watermark" if detection.watermarked else "carries no emovox watermark"
        print(f"{args.file}: {verdict} (confidence {detection.confidence:.2f}, threshold {result['threshold']})")
    return 0 if detection.watermarked else 1


def _cmd_audit(args: argparse.Namespace) -> int:
    from emovox.voices.audit import verify
    from emovox.voices.store import open_store

    everything = open_store().audit()
    entries = [e for e in everything if not args.voice or e.voice == args.voice]
    broken = verify(everything) if args.verify else None
    if args.json:
        out = {"entries": [e.to_dict() for e in entries]}
        if args.verify:
            out["chain_intact"], out["first_broken_seq"] = broken is None, broken
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        import datetime

        for e in entries:
            when = datetime.datetime.fromtimestamp(e.at, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
            extra = {k: v for k, v in e.detail.items() if v not in (None, "", {})}
            print(f"{e.seq:>6}  {when}  {e.event:<7} {e.voice:<24} {e.actor:<24} {json.dumps(extra, ensure_ascii=False)}")
        if args.verify:
            print("chain intact" if broken is None else f"chain broken at entry {broken}")
    return 0 if broken is None else 1


def _cmd_serve(args: argparse.Namespace) -> int:
    if args.ray:
        return _serve_on_ray(args)
    if args.config:
        raise InvalidOptionError("--config is a Ray Serve config file: use it with --ray ADDRESS")
    from emovox.profiles import profile
    from emovox.server.app import ServerSettings, create_app
    from emovox.server.guard import Limits, default_client_rate
    from emovox.server.lifecycle import serve
    from emovox.server.scheduler import SchedulerSettings
    from emovox.server.voice_map import read_map

    chosen = profile(args.profile)
    overrides = {"workers": args.workers, "intra_op_threads": args.threads}
    chosen = dataclasses.replace(chosen, **{k: v for k, v in overrides.items() if v is not None})
    settings = ServerSettings(scheduling=SchedulerSettings.from_profile(chosen), default_voice=chosen.default_voice,
                              api_keys=_api_keys(args), cors_origins=tuple(args.cors_origin or ()),
                              require_consent=args.require_consent,
                              voice_map=read_map(args.voice_map) if args.voice_map else None,
                              limits=Limits(per_key=_off_or(args.rate_limit_key),
                                            per_client=_off_or(args.rate_limit_client or default_client_rate(args.host))))
    print(f"profile {chosen.name}: {chosen.description}", file=sys.stderr)
    limits = [f"{kind} {rate}" for kind, rate in (("per key", settings.limits.per_key),
                                                   ("per client", settings.limits.per_client)) if rate]
    print(f"rate limits: {', '.join(limits) or 'off'}", file=sys.stderr)
    app = create_app(chosen.engine(), settings)
    serve(app, args.host, args.port, drain_s=args.drain_seconds)
    return 0


def _off_or(rate: str | None) -> str | None:
    """A rate limit from the command line, where "off" turns it off."""
    return None if rate in (None, "", "off") else rate


def _api_keys(args: argparse.Namespace) -> tuple[str, ...]:
    """--api-key flags, then $EMOVOX_API_KEYS (comma-separated)."""
    return tuple(args.api_key or ()) + tuple(k for k in os.environ.get("EMOVOX_API_KEYS", "").split(",") if k)


def _serve_on_ray(args: argparse.Namespace) -> int:
    """`serve run`, from emovox: deploy emovox.deploy on the cluster at `args.ray` (the
    applications of `args.config` when given), serve until interrupted, then take them down."""
    import signal

    import yaml

    try:
        import ray
        from ray import serve
    except ImportError:
        raise InvalidOptionError("--ray needs Ray Serve: pip install 'emovox[ray]'") from None
    from emovox.deploy import build_app

    applications = [{"name": "emovox", "route_prefix": "/", "args": {"api_keys": list(_api_keys(args)),
                                                                     "require_consent": args.require_consent}}]
    if args.config:
        try:
            config = yaml.safe_load(args.config.read_text("utf-8")) or {}
        except (OSError, yaml.YAMLError) as e:
            raise InvalidOptionError(f"cannot read the Serve config {args.config}: {e}") from None
        applications = config.get("applications") or []
        if not all(a.get("import_path", "").startswith("emovox.deploy:") for a in applications) or not applications:
            raise InvalidOptionError(f"{args.config} must list applications with import_path emovox.deploy:build_app")
    ray.init(address=args.ray, log_to_driver=False)
    serve.start(proxy_location="HeadOnly", http_options={"host": args.host, "port": args.port})
    for application in applications:
        serve.run(build_app(application.get("args") or {}), name=application.get("name", "emovox"),
                  route_prefix=application.get("route_prefix", "/"))
    print(f"emovox on Ray at {args.ray}: http://{args.host}:{args.port}/ (Ctrl-C to take it down)", file=sys.stderr)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        for application in applications:
            serve.delete(application.get("name", "emovox"))
    return 0


def _cmd_profiles(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from emovox.bench import suite
    from emovox.profiles import PROFILES

    results_path = suite.results_file()
    measured = {}
    if results_path.is_file():
        results = json.loads(results_path.read_text("utf-8"))
        measured = {run["profile"]["name"]: run for run in results["profiles"]}
    if args.json:
        print(json.dumps([p.to_dict() | {"measured": measured.get(p.name)} for p in PROFILES.values()], indent=2))
        return 0
    table = Table("profile", "models", "precision", "threads", "workers, batching", "first cut", "cache",
                  "measured here: RTF / first audio / live streams / peak RSS")
    for p in PROFILES.values():
        run = measured.get(p.name)
        figures = "; ".join(f"{v['voice']} {v['rtf']['median']:.3f} / {v['first_chunk_ms']:.0f} ms / "
                            f"{_live_streams(v)}" for v in run["voices"]) \
            + f"; {run['peak_rss_mb']:.0f} MB" if run else "not measured (emovox bench)"
        table.add_row(p.name, "+".join(p.backends), p.precision, str(p.intra_op_threads or "all cores"),
                      f"{p.workers or '1 per core'}, "
                      + (f"≤{p.max_batch} in {p.batch_window_ms:g} ms" if p.max_batch > 1 else "none"),
                      f"{p.first_segment_chars} chars" if p.first_segment_chars else "never",
                      f"{p.audio_cache_mb} MB", figures)
    console = Console()
    console.print(table)
    for p in PROFILES.values():
        console.print(f"[bold]{p.name}[/bold]: {p.description}")
    if measured:
        console.print(f"figures from {results_path} ({results['date']})")
    return 0


def _live_streams(voice: dict) -> str:
    """How many listeners at once this voice kept playing without a gap, as bench measured
    (results from before it measured them say so)."""
    streams = voice.get("live_streams")
    if streams is None:
        return "streams not measured"
    tried = streams["levels"][-1]["streams"] if streams["levels"] else 0
    more = "" if streams["levels"] and streams["levels"][-1]["underran"] else f" (all {tried} tried)"
    return f"{streams['realtime']} streams{more}"


def _cmd_bench(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from emovox.bench import report, suite
    from emovox.profiles import PROFILES, profile

    names = [profile(n).name for n in args.profile] if args.profile else [n for n in PROFILES if n != "gpu"]
    config = suite.BenchConfig.quick() if args.quick else suite.BenchConfig()
    if args.concurrency:
        config = dataclasses.replace(config, concurrency=tuple(args.concurrency))
    if args.seconds:
        config = dataclasses.replace(config, seconds_per_level=args.seconds)
    config = dataclasses.replace(config, peers=not args.no_peers)
    with Progress() as progress:
        task = progress.add_task("benchmarking", total=len(names) + config.peers)

        def step(description: str) -> None:
            progress.update(task, description=description)
            progress.advance(task)

        results = suite.run(names, config, step)
    written = report.write(results, args.out)
    suite.remember(results)
    print(report.markdown(results))
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def _cmd_plan(args: argparse.Namespace) -> int:
    from emovox.bench import suite
    from emovox.capacity import TARGET_PROFILES, Need, describe, plan

    if args.audio_hours is None and args.within_hours is not None:
        raise InvalidOptionError("--within-hours goes with --audio-hours (offline planning)")
    if args.audio_hours is not None and not args.within_hours:
        raise InvalidOptionError("offline planning needs --within-hours: how long the job may take")
    if args.concurrency < 1 or (args.latency_ms is not None and args.latency_ms <= 0):
        raise InvalidOptionError("--concurrency must be at least 1 and --latency-ms positive")
    need = Need(target=args.target, concurrency=args.concurrency, latency_ms=args.latency_ms,
                cores_per_machine=args.cores, audio_hours=args.audio_hours, within_hours=args.within_hours,
                voice=args.voice)
    if args.bench:
        results = json.loads(args.bench.read_text("utf-8"))
    elif suite.results_file().is_file():
        results = json.loads(suite.results_file().read_text("utf-8"))
    else:
        print("no bench results yet: running a quick calibration (emovox bench --quick) first...", file=sys.stderr)
        profiles = [name for name in TARGET_PROFILES[args.target] if name != "gpu"]
        if not profiles:
            raise InvalidOptionError("no GPU measurements to plan from: run benchmarks/gpu_check.sh on the GPU "
                                     "machine and pass its results with --bench")
        results = suite.run(profiles, dataclasses.replace(suite.BenchConfig.quick(), peers=False))
        suite.remember(results)
    result = plan(need, results)
    if args.emit_serve_config:
        if not result.feasible:
            raise InvalidOptionError("no feasible option to write a Serve config for: " + result.to_dict()["reason"])
        import yaml

        from emovox.capacity import serve_config
        from emovox.paths import written_atomically

        with written_atomically(args.emit_serve_config) as partial:
            partial.write_text(yaml.safe_dump(serve_config(result, args.http_host, args.http_port), sort_keys=False),
                               "utf-8")
        print(f"wrote {args.emit_serve_config}: serve deploy {args.emit_serve_config}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(describe(result))
    return 0 if result.feasible else 1


def _cmd_phonemize(args: argparse.Namespace) -> int:
    from emovox.frontend.english import EnglishFrontend

    text = _read_text(args.text)
    lexicon = _phonemize_lexicon(args)
    used = [{"text": m.entry.text, m.entry.kind: m.entry.say} for m in lexicon.matches(text, ("alias",))]
    text = lexicon.with_aliases(text)
    if args.lang == "zh" or (args.lang == "auto" and re.search(r"[\u4e00-\u9fff]", text)):
        return _phonemize_chinese(text, args.json, lexicon, used)
    frontend = EnglishFrontend()
    limit = DEFAULT_MAX_PHONEMES
    if args.voice:
        from emovox.compose import from_packages

        engine = from_packages()
        limit = engine.backend_of(args.voice).max_phonemes
        frontend = engine.frontend_for(engine.voice(args.voice))  # heart reads misaki, the others IPA
    normalized = frontend.normalize(text)
    used += [{"text": m.entry.text, m.entry.kind: m.entry.say} for m in lexicon.matches(normalized.text, ("ipa",))]
    segments = list(frontend.segments(normalized.text, limit, lexicon=lexicon))
    return _print_phonemized(normalized, segments, args.json, {"max_phonemes": limit, "lexicon": used},
                             _lexicon_lines(used))


def _phonemize_lexicon(args: argparse.Namespace):
    """The stored user lexicon, with a --lexicon file's entries over it."""
    from emovox.frontend.lexicon import Lexicon
    from emovox.lexicons import LexiconStore

    lexicon = LexiconStore().load()
    return lexicon.with_entries(Lexicon.load(args.lexicon).entries) if args.lexicon else lexicon


def _lexicon_lines(used: list[dict]) -> tuple[str, ...]:
    return tuple(f"lexicon:    {entry['text']} -> {next(v for k, v in entry.items() if k != 'text')} "
                 f"({next(k for k in entry if k != 'text')})" for entry in used)


def _print_phonemized(normalized, segments, as_json: bool, extra: dict, extra_lines: tuple[str, ...] = ()) -> int:
    """What `phonemize` shows, for either language: `extra` joins the JSON, `extra_lines` the text."""
    if as_json:
        print(json.dumps({
            "normalized": normalized.text,
            "dropped": list(normalized.dropped),
            **extra,
            "segments": [{"text": s.text, "phonemes": s.phonemes} for s in segments],
        }, indent=2, ensure_ascii=False))
        return 0
    print(f"normalized: {normalized.text}")
    if normalized.dropped:
        print(f"dropped:    {' '.join(normalized.dropped)}")
    for line in extra_lines:
        print(line)
    for number, s in enumerate(segments, 1):
        print(f"[{number}] {s.text}\n    {s.phonemes}")
    return 0


def _phonemize_chinese(text: str, as_json: bool, lexicon, used: list[dict]) -> int:
    """Pinyin with tone digits after sandhi, one syllable per character, as the model gets it."""
    from emovox.backends.fastspeech2 import MAX_PHONEMES
    from emovox.frontend.chinese import ChineseFrontend, Syllable

    frontend = ChineseFrontend()
    normalized = frontend.normalize(text)
    used = used + [{"text": m.entry.text, m.entry.kind: m.entry.say}
                   for m in lexicon.matches(normalized.text, ("pinyin",))]
    syllables = [item for item in frontend.syllables(normalized.text, lexicon) if isinstance(item, Syllable)]
    if not syllables:
        raise InvalidTextError("no Chinese characters to read after normalization; use --lang en for English")
    segments = list(frontend.segments(normalized.text, MAX_PHONEMES, lexicon=lexicon))
    pinyin = " ".join(s.pinyin for s in syllables)
    return _print_phonemized(
        normalized, segments, as_json,
        {"pinyin": pinyin, "syllables": [{"char": s.char, "pinyin": s.pinyin} for s in syllables], "lexicon": used},
        (f"pinyin:     {pinyin}", "            " + " ".join(f"{s.char}:{s.pinyin}" for s in syllables),
         *_lexicon_lines(used)))


def _cmd_demo(args: argparse.Namespace) -> int:
    from emovox.compose import from_packages
    from emovox.demo import make_demo

    made, notes = make_demo(from_packages(), args.out)
    for item in made:
        print(f"{item.path}  ({item.duration_s:.1f} s, real-time factor {item.real_time_factor:.3f}): {item.what}")
    for note in notes:
        print(f"note: {note}")
    print(f"{len(made)} demo WAV files are in {args.out.resolve()}; README.txt there says what each shows")
    return 0


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    from emovox.capacity import TARGET_PROFILES
    from emovox.frontend.lexicon import KINDS as LEXICON_KINDS
    from emovox.profiles import DEFAULT_PROFILE, PROFILES
    from emovox.voices.adapt import BUDGETS
    from emovox.voices.clone import METHODS
    from emovox.voices.intake import DENOISE_MODES

    parser = argparse.ArgumentParser(prog="emovox", description="Expressive offline text-to-speech.")
    parser.add_argument("--verbose", "-v", action="store_true", help="show details and tracebacks")
    commands = parser.add_subparsers(dest="command", required=True)

    say = commands.add_parser("say", help="synthesize text to an audio file")
    say.add_argument("text", help="text to speak, or - to read UTF-8 from standard input")
    say.add_argument("-o", "--output", type=Path, help="output file (default: named from the text); its extension "
                                                       "gives the format unless --format does")
    say.add_argument("--profile", choices=list(PROFILES), help="models, threads and caches to run with")
    say.add_argument("--timestamps", type=Path, metavar="FILE.json",
                     help='write each word\'s start and end: {"words": [{"word", "start", "end"}]}')
    say.add_argument("--subtitles", type=Path, metavar="FILE.srt|FILE.vtt", help="write subtitles, a few words a cue")
    add_speech_options(say)
    say.set_defaults(run=_cmd_say)

    book = commands.add_parser("book", help="a text, Markdown or EPUB file to chaptered audio with subtitles "
                                             "(resumable: run it again after an interruption)")
    book.add_argument("input", type=Path, help="plain text, Markdown (headings start chapters) or EPUB")
    book.add_argument("-o", "--output", type=Path, required=True, help="directory for the chapters, their "
                                                                      "subtitles and manifest.json")
    book.add_argument("--profile", choices=list(PROFILES), default="batch",
                      help="models, threads and workers (default batch: one single-threaded worker per core)")
    book.add_argument("--workers", type=_positive_int, help="chunks synthesized at once (default: the profile's)")
    book.add_argument("--json", action="store_true", help="print progress as JSON lines")
    book.add_argument("--m4b", action="store_true", help="also one .m4b audiobook with a mark per chapter")
    book.add_argument("--ray", metavar="ADDRESS", help="render the chunks across the Ray cluster at ADDRESS "
                                                       "('auto': this machine's) with Ray Data; needs emovox[ray]")
    add_speech_options(book)
    book.set_defaults(run=_cmd_book)

    lexicon = commands.add_parser("lexicon", help="the stored pronunciation lexicon: list, add, rm or import")
    lexicon.add_argument("action", nargs="?", default="list", choices=["list", "add", "rm", "import"])
    lexicon.add_argument("operands", nargs="*", metavar="TEXT|PRONUNCIATION|FILE")
    lexicon.add_argument("--kind", choices=list(LEXICON_KINDS), help="what PRONUNCIATION is (default: "
                         "pinyin when it is tone-numbered syllables, else alias)")
    lexicon.add_argument("--json", action="store_true")
    lexicon.set_defaults(run=_cmd_lexicon)

    emotions = commands.add_parser("emotions", help="list the emotions, or show how a prompt is understood")
    emotions.add_argument("--parse", metavar="PROMPT", help="resolve a free-text prompt and show why")
    emotions.add_argument("--json", action="store_true")
    emotions.set_defaults(run=_cmd_emotions)

    voices = commands.add_parser("voices", help="list the voices; rm, export or import a cloned voice")
    voices.add_argument("action", nargs="?", default="list", choices=["list", "rm", "export", "import"])
    voices.add_argument("operands", nargs="*", metavar="NAME|FILE")
    voices.add_argument("--force", action="store_true", help="import over a voice of the same name")
    voices.add_argument("--json", action="store_true")
    voices.set_defaults(run=_cmd_voices)

    clone = commands.add_parser("clone", help="clone a voice from 3-30 s of someone speaking")
    clone.add_argument("reference", type=Path, help="audio file: wav, flac, ogg/opus, mp3, m4a/aac, webm")
    clone.add_argument("--name", required=True, help="name of the new voice")
    clone.add_argument("--quality", choices=list(BUDGETS), default="balanced",
                       help="time budget: fast 10 s, balanced 30 s (60 s of CPU), best 10 min (default balanced)")
    clone.add_argument("--backend", choices=list(METHODS), default="kokoro",
                       help="kokoro adapts timbre and pitch; vits (joe) matches the pitch register only")
    clone.add_argument("--denoise", choices=list(DENOISE_MODES), default="auto",
                       help="DeepFilterNet3 denoising: auto (when the clip is noisy), on or off")
    clone.add_argument("--force", action="store_true", help="replace a stored voice of the same name")
    consent = clone.add_mutually_exclusive_group()
    consent.add_argument("--consent-clip", type=Path, metavar="FILE",
                         help="the speaker reading the consent sentence (checked with Whisper and against the "
                              "reference's voice; needs emovox[consent])")
    consent.add_argument("--consent-by", metavar="NAME", help="you, the operator, declare you hold the speaker's consent")
    clone.add_argument("--json", action="store_true")
    clone.set_defaults(run=_cmd_clone)

    detect = commands.add_parser("detect", help="does an audio file carry the watermark of a cloned voice? "
                                                "(exit 0: yes, 1: no)")
    detect.add_argument("file", type=Path, help="any audio file FFmpeg reads")
    detect.add_argument("--json", action="store_true")
    detect.set_defaults(run=_cmd_detect)

    audit = commands.add_parser("audit", help="the append-only log of clones, API uses, exports, imports and deletes")
    audit.add_argument("--voice", help="only this voice's entries")
    audit.add_argument("--verify", action="store_true", help="check the hash chain of the whole log (exit 1 if broken)")
    audit.add_argument("--json", action="store_true")
    audit.set_defaults(run=_cmd_audit)

    phonemize = commands.add_parser("phonemize", help="show normalization, segments and phonemes (no model)")
    phonemize.add_argument("text", help="text, or - for standard input")
    phonemize.add_argument("--lang", choices=["en", "zh", "auto"], default="auto")
    phonemize.add_argument("--voice", help="use this voice's phoneme alphabet and input limit")
    phonemize.add_argument("--lexicon", type=Path, metavar="FILE", help="pronunciations on top of the stored lexicon")
    phonemize.add_argument("--json", action="store_true")
    phonemize.set_defaults(run=_cmd_phonemize)

    serve = commands.add_parser("serve", help="run the OpenAI-compatible HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--profile", choices=list(PROFILES), default=DEFAULT_PROFILE,
                       help=f"models, threads, workers, batching and caches (default {DEFAULT_PROFILE}; "
                            "see 'emovox profiles')")
    serve.add_argument("--workers", type=_positive_int, help="chunks each backend synthesizes at once (overrides the profile)")
    serve.add_argument("--threads", type=_positive_int, help="ONNX Runtime threads per session (overrides the profile)")
    serve.add_argument("--api-key", action="append", metavar="KEY",
                       help="require 'Authorization: Bearer KEY' (repeatable; also $EMOVOX_API_KEYS, comma-separated)")
    serve.add_argument("--cors-origin", action="append", metavar="ORIGIN", help="allow browser calls from ORIGIN")
    serve.add_argument("--voice-map", type=Path, metavar="FILE",
                       help="JSON or YAML {name: voice}: OpenAI's voice names (or any) to our voices, over the defaults")
    serve.add_argument("--rate-limit-client", metavar="RATE",
                       help="requests per client address, e.g. 120/minute; 'off' for none (default: off on "
                            "loopback, 120/minute when listening beyond it)")
    serve.add_argument("--rate-limit-key", metavar="RATE", help="requests per API key, e.g. 600/minute (default off)")
    serve.add_argument("--drain-seconds", type=float, default=30.0, metavar="S",
                       help="on SIGTERM, answer new requests 503 and let streams in flight finish for up to S "
                            "seconds before stopping (default 30)")
    serve.add_argument("--require-consent", action="store_true",
                       help="refuse clones without the speaker's consent (consent_clip or consent_by)")
    serve.add_argument("--ray", metavar="ADDRESS",
                       help="deploy on a Ray cluster instead (ADDRESS: host:port of its head, or 'auto'; "
                            "needs emovox[ray]); HTTP on --host/--port of the head node")
    serve.add_argument("--config", type=Path, metavar="FILE",
                       help="with --ray: a Ray Serve config file (e.g. from 'emovox plan --emit-serve-config')")
    serve.set_defaults(run=_cmd_serve)

    bench = commands.add_parser("bench", help="measure the profiles on this machine (RTF, latency, throughput, "
                                               "memory, peers side by side)")
    bench.add_argument("--profile", action="append", choices=list(PROFILES), help="profile(s) to measure (default: "
                       "every CPU profile)")
    bench.add_argument("--quick", action="store_true", help="fewer repeats and levels: about a minute per profile")
    bench.add_argument("--out", type=Path, default=Path("bench-results"))
    bench.add_argument("--concurrency", type=int, nargs="*", help="client counts to measure throughput at")
    bench.add_argument("--seconds", type=float, help="seconds per concurrency level")
    bench.add_argument("--no-peers", action="store_true", help="skip the peer runtimes (piper-tts, kokoro-onnx)")
    bench.set_defaults(run=_cmd_bench)

    plan_ = commands.add_parser("plan", help="how much hardware for this latency, concurrency and target")
    plan_.add_argument("--latency-ms", type=float, default=1000.0, help="time to first audio budget (default 1000)")
    plan_.add_argument("--concurrency", type=int, default=1, help="live streams at once (default 1)")
    plan_.add_argument("--target", choices=list(TARGET_PROFILES), default="cpu")
    plan_.add_argument("--cores", type=int, help="cores per machine (default: this machine's)")
    plan_.add_argument("--audio-hours", type=float, help="offline: hours of audio to produce...")
    plan_.add_argument("--within-hours", type=float, help="...within this many hours")
    plan_.add_argument("--voice", help="plan for this voice only (joe or jf_alpha)")
    plan_.add_argument("--bench", type=Path, help="results.json from emovox bench (default: the latest run here)")
    plan_.add_argument("--json", action="store_true")
    plan_.add_argument("--emit-serve-config", type=Path, metavar="FILE",
                       help="write the answer as a Ray Serve config (for 'serve deploy FILE' or "
                            "'emovox serve --ray ADDRESS --config FILE')")
    plan_.add_argument("--http-host", default="0.0.0.0", help="the config's HTTP host (default 0.0.0.0)")
    plan_.add_argument("--http-port", type=int, default=8000, help="the config's HTTP port (default 8000)")
    plan_.set_defaults(run=_cmd_plan)

    profiles = commands.add_parser("profiles", help="list the deployment profiles and their settings")
    profiles.add_argument("--json", action="store_true")
    profiles.set_defaults(run=_cmd_profiles)

    demo = commands.add_parser("demo", help="write a few demo WAV files with different voices")
    demo.add_argument("--out", type=Path, default=Path("demo"))
    demo.set_defaults(run=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # pyworld imports pkg_resources at import time; its deprecation notice is not for our users.
    warnings.filterwarnings("ignore", message="pkg_resources is deprecated")
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.ERROR, format="%(levelname)s %(message)s")
    try:
        return args.run(args)
    except EmovoxError as e:
        if args.verbose:
            raise
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
