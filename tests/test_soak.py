"""The long soak: seeded rounds over the shipped campaigns with every invariant checked.

By default (every ``pytest`` run, CI included) a reduced soak of ``DEFAULT_ROUNDS`` rounds. The
full soak of 10,000 rounds runs with ``FUEGO_SOAK_ROUNDS=10000 pytest tests/test_soak.py`` or
``pytest -m soak`` (docs/reliability.md, "The long soak"). Scenes are played by turns with
the scenario's own heroes (scripted or automatic) and with random heroes and GM overrides
(:class:`invariants.RandomController`); every fifth scene is also played by a twin built from
the same seed and compared after every round.
"""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import pytest
from invariants import RandomController, play_checked

from fuego.engine.controllers import AutoController, ScriptedController
from fuego.scenario.model import load

CAMPAIGNS = sorted((Path(__file__).resolve().parent.parent / "campaigns").glob("*.yaml"))
DEFAULT_ROUNDS = 400
FULL_ROUNDS = 10_000


def soak_rounds(config) -> int:
    env = os.environ.get("FUEGO_SOAK_ROUNDS")
    if env:
        return int(env)
    markexpr = getattr(config.option, "markexpr", "") or ""
    return FULL_ROUNDS if "soak" in markexpr and "not soak" not in markexpr else DEFAULT_ROUNDS


@pytest.mark.slow
@pytest.mark.soak
def test_soak_over_the_campaigns(request):
    target = soak_rounds(request.config)
    scenarios = [load(p) for p in CAMPAIGNS]
    assert scenarios, "no campaigns/*.yaml to soak"
    played = scenes = 0
    kinds = ("own", "random", "auto")
    started = time.perf_counter()
    for seed in itertools.count(1):
        for scenario in scenarios:
            kind = kinds[(seed + scenes) % len(kinds)]

            def controller(kind=kind, seed=seed, scenario=scenario):
                if kind == "random":
                    return RandomController(seed)
                if kind == "own" and scenario.actions:
                    return ScriptedController(scenario.actions)
                return AutoController()

            twin = scenario.build(seed) if scenes % 5 == 0 else None
            limit = min(scenario.settings.max_rounds, target - played)
            played += play_checked(scenario.build(seed), controller(), limit, twin=twin,
                                   twin_controller=controller())
            scenes += 1
            if played >= target:
                break
        if played >= target:
            break
    elapsed = time.perf_counter() - started
    print(f"\nsoak: {played} rounds in {scenes} scenes over {len(scenarios)} campaigns, "
          f"{elapsed:.1f} s, invariants checked after every round")
    assert played >= target
