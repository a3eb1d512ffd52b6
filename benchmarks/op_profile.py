"""Where a voice's synthesis time goes, by ONNX operator: ONNX Runtime's own profiler.

    .venv/bin/python benchmarks/op_profile.py [--voice jf_alpha] [--repeats 2]

Every session the voice's backend opens is profiled while the engine reads four sentences
(short to long, audio cache off) `--repeats` times; kernel time is summed by operator type
and by node, with the share of runs ONNX Runtime spread over its threads.
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
from pathlib import Path

SENTENCES = ("The committee will announce its final decision on Monday afternoon after the long meeting.",
             "Please bring the blue folder to the meeting, and remember to lock the door behind you.",
             "Short one.",
             "We walked along the river at sunset and talked about the summer ahead of us.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voice", default="jf_alpha")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="emovox-profile-"))
    _profile_every_session(folder)

    from emovox import from_packages

    engine = from_packages(audio_cache_bytes=0)
    for _ in range(args.repeats):
        for sentence in SENTENCES:
            engine.synthesize(sentence, voice=args.voice)
    for path in _end_profiles(engine.backend_of(args.voice)):
        report(json.loads(Path(path).read_text()), args.top)


def _profile_every_session(folder: Path) -> None:
    """Sessions made from now on write ONNX Runtime's profile into `folder`."""
    import onnxruntime as ort

    plain = ort.SessionOptions

    def profiled():
        options = plain()
        options.enable_profiling = True
        options.profile_file_prefix = str(folder / "ort")
        return options

    ort.SessionOptions = profiled


def _end_profiles(backend) -> list[str]:
    from emovox.backends.session import LazySession

    sessions = [value for value in vars(backend).values() if isinstance(value, LazySession)]
    split = getattr(backend, "_split", None)  # Kokoro's is an object holding sessions, VITS's a pair
    parts = split if isinstance(split, tuple) else vars(split).values() if split else ()
    sessions += [value for value in parts if isinstance(value, LazySession)]
    return [lazy.get().end_profiling() for lazy in sessions if lazy._session is not None]


def report(events: list[dict], top: int) -> None:
    kernels = [e for e in events if e.get("cat") == "Node" and e["name"].endswith("_kernel_time")]
    runs = sum(1 for e in events if e.get("cat") == "Session" and e["name"] == "model_run")
    if not kernels:
        return
    total = sum(e["dur"] for e in kernels)
    by_type, spread = collections.Counter(), collections.Counter()
    for e in kernels:
        by_type[e["args"]["op_name"]] += e["dur"]
        stats = e["args"].get("thread_scheduling_stats")  # absent or a bare string on one thread
        main_thread = stats.get("main_thread", {}) if isinstance(stats, dict) else {}
        if main_thread.get("block_size"):  # the op handed blocks of work to the pool's threads
            spread[e["args"]["op_name"]] += e["dur"]
    print(f"{runs} runs, kernel time {total / 1000:.0f} ms")
    print(f"  {'operator':26s} {'ms':>8s} {'share':>6s}  on several threads")
    for op, duration in by_type.most_common(top):
        print(f"  {op:26s} {duration / 1000:8.1f} {100 * duration / total:5.1f} %  "
              f"{100 * spread[op] / duration:3.0f} %")


if __name__ == "__main__":
    main()
