"""Minutes of audio through the signal stages that read a whole clip: time and memory.

    .venv/bin/python benchmarks/long_audio.py [--seconds 60 180] [--repeats 3] [--compare REF]
        [--no-server] [--json results/long_audio.json]

The F0 tracker (`audio/pitch.track_f0`, 10 ms hop: what the captioned endpoint draws) and a
TD-PSOLA pitch change (`audio/effects.reshape_pitch`, -2 st and range x0.1, as the fuzzer's
slowest request asked) on a synthetic voiced clip at 24 kHz of each `--seconds`, then one
captioned MP3 request through the real server on loopback (heart, every sentence of
sentences_en.txt as one input, audio cache off). Each case runs in a fresh process: wall
seconds of the first call and the median of `--repeats` (a fresh process pays for the memory
it first touches), and the process's peak resident memory above its level just before the
first call. `--compare REF` runs the same cases on the code at git REF too (a
temporary worktree), side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent

ONE_CASE = """
import json, statistics, sys, time
import numpy as np

case, seconds, repeats = json.loads(sys.argv[1])
RATE = 24_000


def speech_like(seconds):
    t = np.arange(int(RATE * seconds)) / RATE
    phase = 2 * np.pi * np.cumsum(120 + 30 * np.sin(2 * np.pi * 0.3 * t)) / RATE
    voice = sum(np.sin(k * phase) / k for k in range(1, 12))
    gated = voice * (np.sin(2 * np.pi * 2 * t) > -0.3)
    noisy = gated + 0.01 * np.random.default_rng(0).standard_normal(len(t))
    return (0.3 * noisy / np.abs(noisy).max()).astype(np.float32)


def status_mb(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":")) / 1024


def start_peak():  # the resident memory now; the peak is counted from here (Linux resets VmHWM on "5")
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    return status_mb("VmRSS")


if case == "captioned":
    import tempfile
    from pathlib import Path

    import httpx

    from emovox import from_packages
    from emovox.server.app import ServerSettings, create_app
    from emovox.server.background import BackgroundServer
    from emovox.voices.sqlite_store import SqliteVoiceStore

    text = " ".join(line for line in Path("benchmarks/sentences_en.txt").read_text("utf-8").splitlines() if line)
    engine = from_packages(audio_cache_bytes=0)
    engine.synthesize("A first sentence loads the voice.", voice="heart")
    app = create_app(engine, ServerSettings(), SqliteVoiceStore(Path(tempfile.mkdtemp())))
    with BackgroundServer(app) as live:
        before, times = start_peak(), []
        for _ in range(repeats):
            start = time.perf_counter()
            reply = httpx.post(f"{live.url}/v1/audio/captioned_speech", timeout=900,
                               json={"input": text, "voice": "heart", "response_format": "mp3"})
            times.append(time.perf_counter() - start)
            reply.raise_for_status()
        audio_s = reply.json()["duration_s"]
else:
    from emovox.audio import effects, pitch

    clip = speech_like(seconds)
    audio_s = seconds
    before, times = start_peak(), []
    for _ in range(repeats):
        start = time.perf_counter()
        if case == "track":
            pitch.track_f0(clip, RATE, (60.0, 400.0), 0.01)
        else:
            effects.reshape_pitch(clip, RATE, -2.0, 0.1)
        times.append(time.perf_counter() - start)
print(json.dumps({"first_s": times[0], "seconds": statistics.median(times), "memory_mb": status_mb("VmHWM") - before,
                  "audio_s": audio_s}))
"""


def run_case(source: Path, case: str, seconds: float, repeats: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(source / "src")}
    done = subprocess.run([sys.executable, "-c", ONE_CASE, json.dumps([case, seconds, repeats])], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, nargs="+", default=[60.0, 180.0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compare", metavar="REF", help="also measure the code at this git ref")
    parser.add_argument("--no-server", action="store_true", help="leave out the captioned request (no models)")
    parser.add_argument("--json", type=Path, default=HERE / "results" / "long_audio.json")
    args = parser.parse_args()

    cases = [(case, seconds) for case in ("track", "reshape") for seconds in args.seconds]
    if not args.no_server:
        cases.append(("captioned", 0.0))
    with tempfile.TemporaryDirectory() as scratch:
        sources = {"this checkout": ROOT}
        if args.compare:
            other = Path(scratch) / "compare"
            subprocess.run(["git", "worktree", "add", "--detach", str(other), args.compare], cwd=ROOT, check=True,
                           capture_output=True)
            sources = {args.compare: other, **sources}
        try:
            results = {name: {f"{case} {seconds:g}": run_case(source, case, seconds, args.repeats)
                              for case, seconds in cases} for name, source in sources.items()}
        finally:
            if args.compare:
                subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False)
    print("| case | " + " | ".join(f"{name}: first s / median s / MB above" for name in results) + " |")
    print("|---|" + "---|" * len(results))
    first = next(iter(results.values()))
    for key in first:
        audio_s = first[key]["audio_s"]
        cells = " | ".join(f"{r[key]['first_s']:.2f} / {r[key]['seconds']:.2f} / {r[key]['memory_mb']:.0f}"
                          for r in results.values())
        print(f"| {key.split()[0]}, {audio_s:.0f} s of audio | {cells} |")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
