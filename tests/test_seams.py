"""The engine's typed seams (issue 17, item 6): rule modules found by type, a module switched on
that changes nothing, event payloads typed per kind, narration keyed by kind, the script's
Protocol."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import field_scene

from fuego.engine.controllers import AutoController
from fuego.engine.rounds import run_scene
from fuego.modules import RuleModule
from fuego.modules.registry import build
from fuego.modules.wind import Wind
from fuego.scenario import load

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))


class Idle(RuleModule):
    """A module that overrides nothing: every hook is RuleModule's default."""

    name = "idle"


def _log(make, idle: bool, rounds: int | None = None) -> list[dict]:
    scene = make()
    if idle:
        scene.modules.append(Idle())
    run_scene(scene, AutoController(), rounds)
    return [e.to_dict() for e in scene.log]


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 5])
def test_a_module_that_does_nothing_changes_nothing_in_a_campaign(path, seed):
    scenario = load(path)
    assert _log(lambda: scenario.build(seed), True) == _log(lambda: scenario.build(seed), False)


def test_a_module_that_does_nothing_changes_nothing_in_a_big_fire():
    # a field nearly all ablaze: the rounds where fires can only grow
    def make():
        return field_scene(14, 14, seed=3, fd=3, gaps=[(0, 0), (7, 7)])

    assert _log(make, True, rounds=6) == _log(make, False, rounds=6)


def test_modules_find_each_other_by_type():
    scene = field_scene(3, 3)
    assert scene.module(Wind) is None
    scene.modules = build({"weather": {}, "wind": {"force": "mild-breeze"}})
    wind = scene.module(Wind)
    assert isinstance(wind, Wind) and wind is scene.modules[1]
    assert scene.module(Idle) is None
