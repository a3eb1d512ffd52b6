"""What an emovox deployment on Ray Serve is configured with, without Ray: `emovox plan`
writes configs from it on machines that do not carry Ray; emovox.deploy reads it."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Starting points for 2-core nodes, not yet measured against alternatives; every one can be
#: set in the config (`emovox plan --emit-serve-config` sets the replica counts it computes).
AUTOSCALING = {"min_replicas": 1, "max_replicas": 4, "initial_replicas": 1, "target_ongoing_requests": 2,
               "upscale_delay_s": 10.0, "downscale_delay_s": 60.0}
MAX_ONGOING_REQUESTS = 8
MAX_QUEUED_REQUESTS = 64


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
    default_voice: str = "joe"
    api_keys: list[str] = field(default_factory=list)
    autoscaling: dict = field(default_factory=lambda: dict(AUTOSCALING))
    max_ongoing_requests: int = MAX_ONGOING_REQUESTS
    max_queued_requests: int = MAX_QUEUED_REQUESTS


