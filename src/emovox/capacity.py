"""`emovox plan`: from measured results to hardware — which profile, how many workers and machines.

The arithmetic, for each profile and voice that bench measured:

    capacity per core   = best measured throughput (audio s per s) / cores of the bench machine
    demand              = live: one second of audio per second per stream (N streams);
                          offline: audio hours / hours allowed
    first audio         = p95 time to first audio of one client alone (typical sentences,
                          through the scheduler), the latency before any queueing
    usable utilization  = live: the load at which queueing keeps time to first audio in the
                          budget, TTFA(rho) ~ first audio / (1 - rho)  (M/M/1 response time),
                          so rho <= 1 - first audio / budget, and at most 0.8 for bursts;
                          offline: 0.9
    cores needed        = demand / capacity per core / usable utilization
    live streams        = live: bench also plays N listeners at once and finds the most whose
                          audio never ran dry; cores needed is at least streams / (that N per core)
    machines            = ceil(cores needed / cores per machine)

A candidate is infeasible when its first audio alone exceeds the budget, or when the
target has no measurements (a GPU, before gpu_check has run on one). The cheapest feasible
candidate (fewest cores, then the quality voice) is recommended; the others are listed.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from emovox.profiles import profile

MAX_LIVE_UTILIZATION = 0.8
OFFLINE_UTILIZATION = 0.9
#: Profiles a target may use.
TARGET_PROFILES = {"cpu": ("realtime", "quality", "batch", "edge"), "edge": ("edge",), "gpu": ("gpu",),
                   "cluster": ("realtime", "quality", "batch", "edge")}
#: The model family of each voice bench measures (a family is one synthesis deployment).
VOICE_FAMILY = {"joe": "vits", "jf_alpha": "kokoro"}
#: Live streams one synthesis replica is asked to carry at once (autoscaling's target):
#: requests take turns chunk by chunk inside a replica, so a few at once keep it busy.
STREAMS_PER_REPLICA = 2


@dataclass(frozen=True)
class Need:
    """What the deployment must do: live streams under a latency budget, or offline audio."""

    target: str = "cpu"
    concurrency: int = 1
    latency_ms: float | None = 1000.0
    cores_per_machine: int | None = None  # default: the bench machine's
    audio_hours: float | None = None  # offline: this much audio...
    within_hours: float | None = None  # ...within this long
    voice: str | None = None  # only plans for this voice family

    @property
    def offline(self) -> bool:
        return self.audio_hours is not None


@dataclass(frozen=True)
class Option:
    profile: str
    voice: str
    feasible: bool
    reason: str
    workers: int = 0
    threads: int = 0
    batch_window_ms: float = 0.0
    machines: int = 0
    cores_needed: float = 0.0
    arithmetic: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Plan:
    need: Need
    recommended: Option | None
    options: list[Option]

    @property
    def feasible(self) -> bool:
        return self.recommended is not None

    def to_dict(self) -> dict:
        best = self.recommended
        reason = best.reason if best else "; ".join(f"{o.profile}/{o.voice}: {o.reason}" for o in self.options) \
            or f"no measurements for target {self.need.target!r}"
        return {"feasible": self.feasible, "profile": best.profile if best else None,
                "voice": best.voice if best else None, "workers": best.workers if best else None,
                "threads": best.threads if best else None, "batch_window_ms": best.batch_window_ms if best else None,
                "machines": best.machines if best else None, "reason": reason, "need": asdict(self.need),
                "options": [asdict(o) for o in self.options]}


def plan(need: Need, results: dict) -> Plan:
    """The cheapest way to meet `need`, from `emovox bench` results measured on some machine."""
    bench_cores = results["machine"]["cores"]
    cores_per_machine = need.cores_per_machine or bench_cores
    options = []
    for run in results["profiles"]:
        name = run["profile"]["name"]
        if name not in TARGET_PROFILES.get(need.target, ()):
            continue
        for voice in run["voices"]:
            if need.voice and voice["voice"] != need.voice:
                continue
            options.append(_option(need, run, voice, bench_cores, cores_per_machine))
    feasible = [o for o in options if o.feasible]
    # Fewest cores; on a tie prefer the Kokoro voice (the expressive one) over VITS.
    feasible.sort(key=lambda o: (o.machines, round(o.cores_needed, 2), o.voice == "joe"))
    return Plan(need, feasible[0] if feasible else None, options)


def _option(need: Need, run: dict, voice: dict, bench_cores: int, cores_per_machine: int) -> Option:
    name = run["profile"]["name"]
    best = max(voice["concurrency"], key=lambda level: level["audio_s_per_s"])
    per_core = best["audio_s_per_s"] / bench_cores
    threads = run["profile"]["intra_op_threads"] or min(cores_per_machine, bench_cores)
    workers = max(1, cores_per_machine // threads)
    alone = min(voice["concurrency"], key=lambda level: level["clients"])
    first_ms = alone["ttfa_p95_ms"] if alone["clients"] == 1 and alone["ttfa_p95_ms"] else voice["first_chunk_ms"]
    lines = [f"capacity: {best['audio_s_per_s']:.1f} audio s/s on {bench_cores} cores (at {best['clients']} clients) "
             f"= {per_core:.2f} per core"]
    if need.offline:
        if not need.within_hours:
            return Option(name, voice["voice"], False, "offline planning needs --within-hours", arithmetic=lines)
        demand = need.audio_hours / need.within_hours
        utilization = OFFLINE_UTILIZATION
        lines.append(f"demand: {need.audio_hours:g} h of audio in {need.within_hours:g} h = {demand:.2f} audio s/s")
    else:
        demand = float(need.concurrency)
        budget = need.latency_ms
        lines.append(f"demand: {need.concurrency} live streams x 1 audio s/s = {demand:.0f} audio s/s")
        lines.append(f"first audio alone (one client, p95): {first_ms:.0f} ms (RTF {voice['rtf']['median']:.3f}); "
                     f"budget {budget:g} ms")
        if first_ms >= budget:
            return Option(name, voice["voice"], False,
                          f"its first audio alone takes {first_ms:.0f} ms (p95), over the {budget:g} ms budget",
                          arithmetic=lines)
        utilization = min(MAX_LIVE_UTILIZATION, 1 - first_ms / budget)
        lines.append(f"usable utilization: min({MAX_LIVE_UTILIZATION}, 1 - {first_ms:.0f}/{budget:g}) = {utilization:.2f}")
    if per_core <= 0:
        return Option(name, voice["voice"], False, "no throughput was measured", arithmetic=lines)
    cores = demand / per_core / utilization
    lines.append(f"cores needed: {demand:.2f} / {per_core:.2f} / {utilization:.2f} = {cores:.2f}")
    streams = voice.get("live_streams")
    if not need.offline and streams and streams["realtime"] > 0:
        per_core_streams = streams["realtime"] / bench_cores
        by_streams = need.concurrency / per_core_streams
        lines.append(f"live streams measured without a gap: {streams['realtime']} on {bench_cores} cores; "
                     f"{need.concurrency} / {per_core_streams:.2f} per core = {by_streams:.2f} cores")
        cores = max(cores, by_streams)
    machines = max(1, math.ceil(cores / cores_per_machine))
    lines.append(f"-> {cores:.2f} cores: {machines} machine(s) of {cores_per_machine} cores")
    batch_window = run["profile"]["batch_window_ms"] if run["profile"]["max_batch"] > 1 else 0.0
    load = demand / (machines * cores_per_machine * per_core)
    reason = (f"{machines} machine(s) of {cores_per_machine} cores, {workers} worker(s) x {threads} thread(s) each, "
              f"each machine loaded to {load:.0%} of its measured capacity")
    return Option(name, voice["voice"], True, reason, workers=workers, threads=threads, batch_window_ms=batch_window,
                  machines=machines, cores_needed=cores, arithmetic=lines)


def describe(result: Plan) -> str:
    """The plan for a person: the recommendation, its arithmetic, and why others fell out."""
    need = result.need
    asked = (f"{need.audio_hours:g} h of audio within {need.within_hours:g} h" if need.offline
             else f"{need.concurrency} live stream(s), first audio within {need.latency_ms:g} ms")
    lines = [f"Need: {asked}, target {need.target}."]
    if result.recommended:
        best = result.recommended
        lines += [f"Recommended: profile {best.profile} with voice {best.voice}: {best.reason}.",
                  f"  on each machine: emovox serve --profile {best.profile} --workers {best.workers} "
                  f"--threads {best.threads}   (batch window {best.batch_window_ms:g} ms)"]
        lines += [f"  {line}" for line in best.arithmetic]
    else:
        lines.append("Cannot be met with the measured profiles:")
    for option in result.options:
        if option is result.recommended:
            continue
        mark = "also possible" if option.feasible else "not possible"
        lines.append(f"- {option.profile}/{option.voice} ({mark}): {option.reason}")
    if need.target == "gpu" and not result.options:
        lines.append("No GPU measurements in these results: run benchmarks/gpu_check.sh on the GPU machine and "
                     "pass its results with --bench.")
    if need.target == "edge":
        lines.append(f"Edge figures are this bench machine's; scale capacity by the edge CPU's speed per core "
                     f"(profile {profile('edge').name} carries only the {profile('edge').precision} VITS model).")
    return "\n".join(lines)


def serve_config(result: Plan, host: str = "0.0.0.0", port: int = 8000) -> dict:
    """The recommended option as a Ray Serve config (`serve deploy FILE`, or `emovox serve
    --ray ADDRESS --config FILE`): one synthesis deployment for the voice's family, a
    replica per worker the plan counts (each with the plan's threads as its CPUs), room to
    grow to every core of the planned machines, and the measured defaults of emovox.deploy."""
    from emovox.deploy_settings import AUTOSCALING, MAX_ONGOING_REQUESTS, MAX_QUEUED_REQUESTS

    best = result.recommended
    if best is None:
        raise ValueError("no feasible option to deploy")
    threads = max(1, best.threads)
    needed = max(1, math.ceil(best.cores_needed / threads))
    room = max(needed, best.machines * (result.need.cores_per_machine or best.workers * threads) // threads)
    autoscaling = {**AUTOSCALING, "min_replicas": needed, "initial_replicas": needed, "max_replicas": room,
                   "target_ongoing_requests": STREAMS_PER_REPLICA}
    return {
        "proxy_location": "EveryNode" if best.machines > 1 else "HeadOnly",
        "http_options": {"host": host, "port": port},
        "applications": [{
            "name": "emovox",
            "route_prefix": "/",
            "import_path": "emovox.deploy:build_app",
            "args": {"backends": [VOICE_FAMILY.get(best.voice, "vits")], "num_cpus": threads,
                     "default_voice": best.voice, "autoscaling": autoscaling,
                     "max_ongoing_requests": MAX_ONGOING_REQUESTS, "max_queued_requests": MAX_QUEUED_REQUESTS},
        }],
    }
