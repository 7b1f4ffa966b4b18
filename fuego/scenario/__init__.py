"""Scenario files: a GM's YAML with ASCII floor plans -> a checked :class:`Scenario`.

``load(path)`` / ``loads(text)`` return a :class:`Scenario` or raise
:class:`fuego.errors.ScenarioError` listing every problem (``FILE:LINE: key.path: message``).
``Scenario.build(seed)`` makes a fresh :class:`fuego.engine.scene.Scene`; ``Scenario.to_yaml()`` writes
it back. The format is documented in docs/scenario-format.md.
"""

from fuego.errors import ScenarioError
from fuego.scenario.model import KNOWN_KNACKS, Scenario, load, loads, make_settings

__all__ = ["KNOWN_KNACKS", "Scenario", "ScenarioError", "load", "loads", "make_settings"]
