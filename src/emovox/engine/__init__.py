"""The engine: a voice catalogue, a pure planner and a renderer behind one façade."""

from emovox.engine.catalogue import Entry, VoiceCatalogue
from emovox.engine.facade import Defaults, Engine
from emovox.engine.plan import ChunkJob, Plan, Stretch
from emovox.engine.planner import Planner, PlannerSettings
from emovox.engine.render import Renderer

__all__ = ["ChunkJob", "Defaults", "Engine", "Entry", "Plan", "Planner", "PlannerSettings", "Renderer", "Stretch",
           "VoiceCatalogue"]
