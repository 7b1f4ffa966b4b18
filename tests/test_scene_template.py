"""Each build of a scenario is a fresh scene, whatever the scenario keeps between builds."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from fuego.scenario.model import load

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_every_build_has_the_building_as_planned(path):
    scenario = load(str(path))
    planner = scenario._planner()
    planned = planner.building
    fire_areas = [planner.area_index(f.area, ()) for f in scenario.fires]
    starts = [i for i in fire_areas if i is not None]
    assert len(starts) == len(fire_areas)  # every fire's area is on the plan
    planned.title = scenario.title
    for seed in (1, 2):
        scene = scenario.build(seed)
        assert scene.building == planned
        assert scene.building.dynamic_state() == planned.dynamic_state()
        assert [h.area for h in scene.heroes] == [planner.area_index(h.start, ())
                                                  for h in scenario.heroes]
        assert sorted(scene.fires) == sorted(starts)


def test_builds_share_no_state():
    scenario = load(str(ROOT / "campaigns" / "tavern.yaml"))
    one, two = scenario.build(1), scenario.build(1)
    b1, b2 = one.building, two.building
    assert b1 is not b2 and b1 == b2
    door = next(x for x in b1.barriers if x.closed and x.kind.value == "door")
    fuel = b2.areas[0].fuel
    b1.open_barrier(door)
    b1.set_fuel(0, fuel + 1)
    b1.burn_out(1)
    assert b2.barriers[door.index].closed and b2.areas[0].fuel == fuel
    assert not b2.areas[1].burned_out and b2.version != b1.version
    assert scenario.build(1).building == b2 != b1
    # a scenario sent to a worker process builds the same scene there
    assert pickle.loads(pickle.dumps(scenario)).build(3).building == scenario.build(3).building


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_builds_share_the_parsed_cues_but_not_their_progress(path):
    # The script is parsed once per scenario (a forecast builds a scene per run): every build
    # has the cues a fresh parse gives, and its own record of what fired.
    from fuego.scenario.script.cues import Script
    from fuego.scenario.script.parse import build_script

    scenario = load(str(path))
    one, two = scenario.build(1), scenario.build(2)
    fresh = build_script(scenario.script, scenario.build(3))
    assert fresh is not None
    assert isinstance(one.script, Script) and isinstance(two.script, Script)
    assert one.script.cues is two.script.cues and one.script.cues == fresh.cues
    one.script.fired[0] += 1
    one.script.latches[0]["seen"] = True
    assert two.script.fired[0] == 0 and two.script.latches[0] == {}
    four = scenario.build(4).script  # built after one's progress: none of it
    assert isinstance(four, Script)
    assert one.script.state() != two.script.state() == four.state()
