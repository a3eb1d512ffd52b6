"""A book on the local Ray cluster (Ray Data, an engine per actor): the same files, byte for
byte, as the book made in this process, with chunks rendered on both nodes."""

from __future__ import annotations

import os

import pytest

from emovox.longform.book import ThreadRenderer, make_book
from emovox.longform.source import read_book
from emovox.options import SpeechOptions

pytestmark = pytest.mark.ray

BOOK = """# Two Rooms

## The Kitchen

The kettle sang at half past six. Nobody answered it. "Is anyone up?" she called.

## The Garden

Three sparrows argued over the bread. The cat watched them from the wall, and waited.
"""


def test_a_book_on_the_cluster_is_the_book_made_here(ray_cluster, tmp_path):
    import ray

    from emovox.backends.session import SessionSettings
    from emovox.compose import from_packages
    from emovox.longform.on_ray import RayRenderer

    os.environ.update({k: v for k, v in ray_cluster.items() if k not in ("EMOVOX_STORE", "RAY_TEMP_DIR", "CLUSTER_DIR")})
    source = tmp_path / "rooms.md"
    source.write_text(BOOK, "utf-8")
    # one ONNX Runtime thread per chunk, as the batch profile and each Ray Data actor run it
    # (a sum over more threads may round differently in the last bit)
    engine = from_packages(SessionSettings(intra_op_threads=1), backends=("vits",), audio_cache_bytes=0)
    options = SpeechOptions(voice="joe")
    here = make_book(engine, read_book(source), tmp_path / "here", options, "flac", renderer=ThreadRenderer(engine, 2))
    try:
        renderer = RayRenderer(ray_cluster["RAY_ADDRESS"], ("vits",))
        events = []
        there = make_book(engine, read_book(source), tmp_path / "there", options, "flac", on_progress=events.append,
                          renderer=renderer)
        assert len(renderer.nodes) == 2  # both nodes made chunks
        assert events[-1].rendered == sum(chapter["sentences"] for chapter in there["chapters"])
        again = []
        make_book(engine, read_book(source), tmp_path / "there", options, "flac", on_progress=again.append,
                  renderer=renderer)
        assert again[-1].rendered == 0  # resumed: every chunk was made
    finally:
        ray.shutdown()
    assert [c["title"] for c in there["chapters"]] == ["The Kitchen", "The Garden"]
    for mine, theirs in zip(here["chapters"], there["chapters"]):
        for name in ("audio", "srt", "vtt"):
            assert (tmp_path / "here" / mine[name]).read_bytes() == (tmp_path / "there" / theirs[name]).read_bytes()
