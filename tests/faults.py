"""Faults the tests inject where a real one cannot be made on demand."""

from __future__ import annotations


class FailingOnOneWord:
    """The engine, except that rendering a chunk with the word "kaboom" in it raises, the way a
    model can fail on one input (a shape it was not exported for, a file read lazily and found
    damaged). The scheduler runs chunks through this; the planner and everything else are the
    real engine's."""

    def __init__(self, engine) -> None:
        self._engine = engine

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def render_pieces(self, job):
        if "kaboom" in job.text.lower():
            raise RuntimeError("[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input")
        return self._engine.render_pieces(job)
