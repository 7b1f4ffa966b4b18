"""Scenario files: a GM's YAML with ASCII floor plans -> a checked :class:`Scenario`.

``fuego.scenario.model``'s ``load(path)`` / ``loads(text)`` return a :class:`Scenario` or raise
:class:`fuego.errors.ScenarioError` listing every problem (``FILE:LINE: key.path: message``).
``Scenario.build(seed)`` makes a fresh :class:`fuego.engine.scene.Scene`; ``Scenario.to_yaml()`` writes
it back. The format is documented in docs/scenario-format.md.
"""
