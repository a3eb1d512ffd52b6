"""`emovox serve` over the tiny voices, as a process of its own (the tests send it signals).

    python tests/tiny_serve.py PORT STORE_DIR [--voices DIR] [--drain S] [--api-key KEY] [--per-client RATE]

It builds the tiny voices (tests/tiny_models.py) under STORE_DIR, unless --voices names a
folder where the tests built them already (their `tiny_dir`), keeps cloned voices in a
SQLite store there, and serves through `emovox.server.lifecycle.serve`, the same loop as
`emovox serve`, so SIGTERM drains exactly as it does in production.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parent)]

from conftest import build_tiny_engine  # noqa: E402
from emovox.backends.session import SessionSettings  # noqa: E402
from emovox.server.app import ServerSettings, create_app  # noqa: E402
from emovox.server.guard import Limits  # noqa: E402
from emovox.server.lifecycle import serve  # noqa: E402
from emovox.server.scheduler import SchedulerSettings  # noqa: E402
from emovox.voices.sqlite_store import SqliteVoiceStore  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("home", type=Path)
    parser.add_argument("--voices", type=Path)
    parser.add_argument("--drain", type=float, default=30.0)
    parser.add_argument("--api-key", action="append", default=[])
    parser.add_argument("--per-client")
    parser.add_argument("--max-input-chars", type=int, default=4096)
    args = parser.parse_args()
    voices = args.voices or args.home / "voices"
    if not (voices / "zh").exists():
        import tiny_models  # onnx: only where the voices are built

        tiny_models.vits_voice(voices / "vits")
        tiny_models.kokoro_model(voices / "kokoro")
        tiny_models.kokoro_split_models(voices / "kokoro")
        tiny_models.mandarin_build(voices / "zh")
    settings = ServerSettings(scheduling=SchedulerSettings(workers=1), api_keys=tuple(args.api_key),
                              max_input_chars=args.max_input_chars,
                              limits=Limits(per_client=args.per_client))
    # the models' memory arena as every serving profile sets it (a server's arena would only grow)
    engine = build_tiny_engine(voices, session_settings=SessionSettings(memory_arena="shrinking"))
    app = create_app(engine, settings, SqliteVoiceStore(args.home / "store"))
    serve(app, "127.0.0.1", args.port, drain_s=args.drain, log_level="warning")


if __name__ == "__main__":
    main()
