"""A book's chunks rendered across a Ray cluster with Ray Data (`emovox book --ray ADDRESS`).

The driver plans the whole book (planning never loads a model), hands the chunks no
earlier run made to a Ray Data pipeline, `map_batches` over a pool of actors that each
build their own engine once (an engine does not pickle; a chunk job does), and takes the
audio back in the order of the text (`preserve_order`), as it comes. Everything else is
`make_book`'s: the content-keyed pieces, resume, encoding, subtitles, the manifest and
progress, so a book made on a cluster is the same bytes as one made here.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import numpy as np

from emovox.errors import InvalidOptionError


class _ChunkActor:
    """One Ray Data actor: an engine for the book's voices, kept for every batch it is given."""

    def __init__(self, backends: tuple[str, ...], threads: int) -> None:
        import ray

        from emovox.backends.session import SessionSettings
        from emovox.compose import from_packages

        # from_packages follows the store: a voice cloned anywhere is read through on first use
        self._engine = from_packages(SessionSettings(intra_op_threads=threads), backends=backends, audio_cache_bytes=0)
        self._node = ray.get_runtime_context().get_node_id()

    def __call__(self, batch: dict) -> dict:
        samples, nodes = [], []
        for data in batch["job"]:
            job = pickle.loads(data)
            self._engine.catalogue.entry(job.voice)
            samples.append(np.ascontiguousarray(self._engine.render(job).samples, dtype="<f4").tobytes())
            nodes.append(self._node)
        return {"position": batch["position"], "samples": np.array(samples, dtype=object),
                "node": np.array(nodes, dtype=object)}


class RayRenderer:
    """`make_book`'s renderer on the Ray cluster at `address` ("auto": the one this machine
    is part of), one actor per `cpus_per_actor` CPUs of the cluster."""

    def __init__(self, address: str, backends: tuple[str, ...], cpus_per_actor: float = 1.0,
                 actors: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise InvalidOptionError("--ray needs Ray Data: pip install 'emovox[ray]'") from None
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False)
        self._backends, self._cpus = tuple(backends), cpus_per_actor
        self._actors = actors or max(1, int(ray.cluster_resources().get("CPU", 1) // cpus_per_actor))
        #: The nodes that rendered chunks of the last book.
        self.nodes: set[str] = set()

    def in_order(self, items, made) -> Iterator:
        import ray

        items = list(items)  # the whole book planned: Ray Data schedules all of it at once
        first_of: dict[str, int] = {}  # a sentence said twice is made once (its key is its content)
        for position, (_, _, key) in enumerate(items):
            if key not in first_of and not made(key):
                first_of[key] = position
        wanted = [{"position": position, "job": pickle.dumps(items[position][1])} for position in first_of.values()]
        rows = iter(())
        if wanted:
            context = ray.data.DataContext.get_current()
            context.execution_options.preserve_order = True
            rendered = ray.data.from_items(wanted, override_num_blocks=len(wanted)).map_batches(
                _ChunkActor, fn_constructor_kwargs={"backends": self._backends, "threads": max(1, int(self._cpus))},
                batch_size=1, compute=ray.data.ActorPoolStrategy(size=self._actors), num_cpus=self._cpus)
            rows = iter(rendered.iter_rows())
        for position, (state, job, key) in enumerate(items):
            if first_of.get(key) != position:  # made earlier, by another run or above
                yield state, job, key, None
                continue
            row = next(rows)
            if row["position"] != position:
                raise RuntimeError(f"Ray Data returned chunk {row['position']} where {position} was due")
            self.nodes.add(row["node"])
            yield state, job, key, np.frombuffer(row["samples"], dtype="<f4")
