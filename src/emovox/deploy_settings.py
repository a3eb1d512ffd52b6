"""What an emovox deployment on Ray Serve is configured with, without Ray: `emovox plan`
writes configs from it on machines that do not carry Ray; emovox.deploy reads it."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Measured against alternatives under a step from 1 to 8 clients (benchmarks/autoscaling.py,
#: benchmarks/README.md): with Ray's own look-back (30 s of metrics, sent every 10 s) a second
#: replica came 24-44 s after the step; sent every 2 s over 10 s and acted on after 3 s it
#: came in 7-11 s (a replica is ready about 5 s after it is asked for), with first audio
#: p50 0.83 s instead of 1.12-1.19 s while it scaled. Target 2 scaled as fast as 1 and served as
#: well (4: 11 s). Down after 30 s idle: replicas start in seconds, so idle ones go soon.
#: Ray 2.60 warns that `metrics_interval_s` will move to environment variables
#: (RAY_SERVE_*_AUTOSCALING_METRIC_PUSH_INTERVAL_S); it still acts today. Every one can be
#: set in the config (`emovox plan --emit-serve-config` sets the replica counts it computes).
AUTOSCALING = {"min_replicas": 1, "max_replicas": 4, "initial_replicas": 1, "target_ongoing_requests": 2,
               "metrics_interval_s": 2.0, "look_back_period_s": 10.0, "upscale_delay_s": 3.0,
               "downscale_delay_s": 30.0}
#: Requests one synthesis replica interleaves chunk by chunk: 8 against 2 under 32 clients
#: gave first audio p50 3.7 s against 4.3 s and 16.1 against 13.5 audio s/s.
MAX_ONGOING_REQUESTS = 8
#: Requests the ingress holds for the synthesis deployment once its replicas are full; past
#: it a request is refused with 429 and Retry-After before any audio. 64 held a burst of 32
#: clients on two replicas without refusing one.
MAX_QUEUED_REQUESTS = 64
#: Streams one ingress replica carries at once. The ingress only plans, encodes and relays, so
#: it must hold every stream its synthesis replicas can: with Serve's default (5) the rest
#: waited in the proxy, out of sight of the synthesis deployment's autoscaling and admission
#: (32 clients against a queue of 8: none refused, first audio p50 4.7 s; with this bound the
#: queue holds: benchmarks/autoscaling.py).
INGRESS_MAX_ONGOING_REQUESTS = 256


@dataclass
class AppArgs:
    """What `build_app` takes (a Serve config's `args`)."""

    #: Model families, each its own synthesis deployment (default: every one installed).
    backends: list[str] = field(default_factory=list)
    #: CPUs per synthesis replica; ONNX Runtime gets as many intra-op threads (at least one).
    num_cpus: float = 1.0
    #: CPUs reserved for the cloning replica (a clone takes a core while it runs) and the ingress.
    cloning_cpus: float = 0.5
    ingress_cpus: float = 0.25
    #: The voice of a request that names none.
    default_voice: str = "heart"
    api_keys: list[str] = field(default_factory=list)
    #: Refuse clones that bring no consent (emovox serve --require-consent).
    require_consent: bool = False
    autoscaling: dict = field(default_factory=lambda: dict(AUTOSCALING))
    max_ongoing_requests: int = MAX_ONGOING_REQUESTS
    max_queued_requests: int = MAX_QUEUED_REQUESTS
    ingress_max_ongoing_requests: int = INGRESS_MAX_ONGOING_REQUESTS


