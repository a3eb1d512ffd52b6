"""The `emovox` command: say, voices, phonemize, demo.

Bad input ends with a one-line message and a non-zero exit; `--verbose` adds details.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from emovox.errors import EmovoxError, InvalidOptionError, InvalidTextError

EXIT_BAD_INPUT = 2
#: Segment size for `phonemize` without --voice: the smallest limit among our backends.
DEFAULT_MAX_PHONEMES = 400
DEMO_LINES = (
    ("joe", "Hello! I'm Joe. The meeting moved to 3:30 PM on Friday, March 14th."),
    ("jf_alpha", "Dr. Smith paid $12.75 for two coffees at St. Mary's."),
    ("jm_kumo", "Please turn left after 250 meters and keep going for 1.5 km."),
    ("jf_tebukuro", "The quarterly revenue grew by 17% to 4.2 million dollars."),
)


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
    import soundfile

    from emovox.audio.encode import FORMATS, format_of
    from emovox.engine import Engine

    text = _read_text(args.text)
    fmt = args.format or (format_of(args.output) if args.output else "wav")
    if fmt not in FORMATS:
        raise InvalidOptionError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    output = args.output or _default_output(text, fmt)
    engine = Engine.from_packages()
    started = time.perf_counter()
    chunks = engine.stream(text, voice=args.voice, speed=args.speed)
    container, subtype = FORMATS[fmt]
    sample_rate = engine.voice(args.voice).sample_rate
    seconds = 0.0
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=output.parent, prefix=f".{output.name}.", suffix=".partial")
    os.close(handle)
    try:
        with soundfile.SoundFile(partial, "w", sample_rate, 1, subtype, format=container) as out:
            for chunk in chunks:
                out.write(chunk.samples.clip(-1.0, 1.0))
                seconds += chunk.duration
                for warning in chunk.warnings:
                    print(f"warning: {warning}", file=sys.stderr)
        os.replace(partial, output)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    elapsed = time.perf_counter() - started
    print(f"wrote {output} ({seconds:.1f} s of audio, voice {args.voice}, {elapsed:.1f} s to make)")
    return 0


def _cmd_voices(args: argparse.Namespace) -> int:
    from emovox.engine import Engine

    voices = Engine.from_packages().voices()
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


def _cmd_phonemize(args: argparse.Namespace) -> int:
    from emovox.frontend.english import EnglishFrontend

    text = _read_text(args.text)
    if args.lang == "zh" or (args.lang == "auto" and re.search(r"[\u4e00-\u9fff]", text)):
        raise InvalidOptionError("Chinese text is not supported yet; use --lang en")
    frontend = EnglishFrontend()
    limit = DEFAULT_MAX_PHONEMES
    if args.voice:
        from emovox.engine import Engine

        limit = Engine.from_packages().backend_of(args.voice).max_phonemes
    normalized = frontend.normalize(text)
    segments = list(frontend.segments(normalized.text, limit))
    if args.json:
        print(json.dumps({
            "normalized": normalized.text,
            "dropped": list(normalized.dropped),
            "max_phonemes": limit,
            "segments": [{"text": s.text, "phonemes": s.phonemes} for s in segments],
        }, indent=2, ensure_ascii=False))
        return 0
    print(f"normalized: {normalized.text}")
    if normalized.dropped:
        print(f"dropped:    {' '.join(normalized.dropped)}")
    for number, s in enumerate(segments, 1):
        print(f"[{number}] {s.text}\n    {s.phonemes}")
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from emovox.audio.encode import write
    from emovox.engine import Engine

    engine = Engine.from_packages()
    args.out.mkdir(parents=True, exist_ok=True)
    for voice, line in DEMO_LINES:
        audio = engine.synthesize(line, voice=voice)
        path = write(args.out / f"{voice}.wav", audio.samples, audio.sample_rate)
        print(f"{path}  ({voice}, {audio.duration:.1f} s, real-time factor {audio.info.real_time_factor:.2f}): {line}")
    print(f"demo WAV files are in {args.out.resolve()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from emovox.engine import DEFAULT_VOICE

    parser = argparse.ArgumentParser(prog="emovox", description="Expressive offline text-to-speech.")
    parser.add_argument("--verbose", "-v", action="store_true", help="show details and tracebacks")
    commands = parser.add_subparsers(dest="command", required=True)

    say = commands.add_parser("say", help="synthesize text to an audio file")
    say.add_argument("text", help="text to speak, or - to read UTF-8 from standard input")
    say.add_argument("-o", "--output", type=Path, help="output file (default: named from the text)")
    say.add_argument("--voice", default=DEFAULT_VOICE, help=f"voice name or alias (default {DEFAULT_VOICE})")
    say.add_argument("--speed", type=float, default=1.0, help="speaking rate, 0.25 to 4.0")
    say.add_argument("--format", choices=["wav", "flac", "ogg", "mp3"], help="default: from -o, else wav")
    say.set_defaults(run=_cmd_say)

    voices = commands.add_parser("voices", help="list the voices")
    voices.add_argument("--json", action="store_true")
    voices.set_defaults(run=_cmd_voices)

    phonemize = commands.add_parser("phonemize", help="show normalization, segments and phonemes (no model)")
    phonemize.add_argument("text", help="text, or - for standard input")
    phonemize.add_argument("--lang", choices=["en", "zh", "auto"], default="auto")
    phonemize.add_argument("--voice", help="use this voice's phoneme alphabet and input limit")
    phonemize.add_argument("--json", action="store_true")
    phonemize.set_defaults(run=_cmd_phonemize)

    demo = commands.add_parser("demo", help="write a few demo WAV files with different voices")
    demo.add_argument("--out", type=Path, default=Path("demo"))
    demo.set_defaults(run=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
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
