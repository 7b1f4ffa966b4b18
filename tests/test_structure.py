"""One module acts on the building's structure (issue 29, step 2): heroes, fires, explosions,
scripts, the GM and the modules all open, close, break, burn through and bring down through
``fuego.engine.structure``, and none of them writes the change or its event itself."""

from __future__ import annotations

import pytest
from helpers import make_building, make_scene, room

from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.fire_actions import ActionKind, FireAction
from fuego.engine.fire_actions import perform as fire_does
from fuego.engine.hero_actions import HeroAction, HeroActionKind
from fuego.engine.hero_actions import perform as hero_does
from fuego.engine.heroes import Hero
from fuego.engine.script import When
from fuego.modules.common import collapse as module_collapse
from fuego.rules.settings import Settings
from fuego.scenario.script.parse import build_script
from fuego.table import gm
from fuego.world.places import Feature

#: the events only the structure module writes
STRUCTURAL = {EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED, EventKind.STRUCTURE_DESTROYED,
              EventKind.FLOOR_COLLAPSED, EventKind.FIRE_BURNED_THROUGH}
ACTS = ("open_barrier", "close_barrier", "break_barrier", "burn_through", "destroy_beam",
        "collapse")


def world():
    """A kitchen and hall with a bedroom over the kitchen; a closed door kitchen-hall (C2-D2),
    an open one to the street (F2-G2); wooden beams at ground:B2 and C1, where a fire of four
    dice burns; Ana in the kitchen."""
    b = make_building(plans={"ground": (0, ["kkkhhhs", "kkkhhhs"]), "upper": (1, ["bbb", "bbb"])},
                      rooms={"k": room("kitchen", fuel=5), "h": room("hall", fuel=3),
                             "s": room("street", outdoors=True), "b": room("bedroom", fuel=4)},
                      doors={("ground:C2", "ground:D2"): True, ("ground:F2", "ground:G2"): False},
                      stairs=[("ground:C1", "upper:C1")],
                      features={"ground:B2": [Feature.WOODEN_BEAM], "ground:C1": [Feature.WOODEN_BEAM]})
    return make_scene(b, heroes=[Hero("Ana", b.area("ground:C2").index)], fires={"ground:C1": 4},
                      settings=Settings(smoke=False, burning_clothes=False))


@pytest.fixture
def calls(monkeypatch):
    """Every structural act, replaced by a stub that records who asked and does nothing."""
    seen: list[tuple[str, object]] = []
    for name in ACTS:
        def stub(scene, *args, _name=name, **kw):
            seen.append((_name, args))
            return False
        monkeypatch.setattr(structure, name, stub)
    return seen


def _untouched(s, before):
    """Nothing changed the building or logged a structural event but the (stubbed) module."""
    assert s.building.version == before
    assert not [e for e in s.log if e.kind in STRUCTURAL]


def test_heroes_open_and_close_through_the_structure_module(calls):
    s = world()
    b, before = s.building, s.building.version
    door = b.between(b.find("ground:C2"), b.find("ground:D2"))
    hero = s.heroes[0]
    hero_does(s, hero, HeroAction(HeroActionKind.OPEN, barrier=door.index))
    hero_does(s, hero, HeroAction(HeroActionKind.CLOSE, barrier=door.index))
    assert calls == [("open_barrier", (door, "Ana", hero.area)),
                     ("close_barrier", (door, "Ana", hero.area))]
    _untouched(s, before)


def test_fires_burn_through_break_and_bring_beams_down_through_it(calls):
    s = world()
    b = s.building
    fire = s.fires[b.find("ground:C1")]
    wall = b.between(b.find("ground:C1"), b.find("ground:D1"))
    before = b.version
    fire_does(s, fire, FireAction(ActionKind.BURN_THROUGH, 0, b.find("ground:D1"), wall.index))
    fire_does(s, fire, FireAction(ActionKind.DESTROY, 0, b.find("ground:D1"), wall.index))
    fire_does(s, fire, FireAction(ActionKind.DESTROY, 0, fire.area, beam=Feature.WOODEN_BEAM))
    assert [name for name, _ in calls] == ["burn_through", "break_barrier", "destroy_beam"]
    assert calls[1][1][:3] == (wall, fire.fd, s.fire_name(fire))
    assert calls[2][1][:4] == (fire.area, Feature.WOODEN_BEAM, fire.fd, s.fire_name(fire))
    _untouched(s, before)


def test_scripts_open_close_break_and_collapse_through_it(calls):
    s = world()
    s.script = build_script([{"name": "set piece", "when": {"round": 1}, "do": [
        {"open": "ground:C2-ground:D2"}, {"close": "ground:F2|ground:G2"},
        {"break": {"barrier": ["ground:C1", "ground:D1"], "fd": 4}},
        {"collapse": {"floor": "upper:A2"}}]}], s)
    s.round = 1
    before = s.building.version
    s.script.check(s, When.START)
    assert [name for name, _ in calls] == ["open_barrier", "close_barrier", "break_barrier",
                                           "break_barrier"]
    _untouched(s, before)


def test_the_gm_and_explosions_act_through_it(calls):
    s = world()
    before = s.building.version
    gm.barrier(s, "ground:C2 ground:D2", "open")
    gm.barrier(s, "ground:C2 ground:D2", "close")
    gm.barrier(s, "ground:C1 ground:D1", "break")
    _untouched(s, before)
    gm.explode(s, "ground:D1", 8, 1)  # TN 40: the wooden kitchen wall gives way
    names = [name for name, _ in calls]
    assert names[:3] == ["open_barrier", "close_barrier", "break_barrier"]
    assert names[3:] and set(names[3:]) == {"break_barrier"}
    assert all(args[1:3] == (8, "the explosion") for _, args in calls[3:])


def test_a_module_collapse_goes_through_it(calls):
    s = world()
    i = s.building.find("ground:B2")
    before = s.building.version
    module_collapse(s, i, 3, "its structure burned through", "structures")
    assert calls == [("collapse", (i, 3, "structures"))]
    _untouched(s, before)


def test_each_act_logs_its_event_once():
    s = world()
    b = s.building
    door = b.between(b.find("ground:C2"), b.find("ground:D2"))
    assert structure.open_barrier(s, door, "Ana") and not structure.open_barrier(s, door, "Ana")
    assert structure.close_barrier(s, door, "Ana")
    floor = b.between(b.find("ground:A1"), b.find("upper:A1"))
    assert structure.break_barrier(s, floor, 3, "the GM")
    assert not structure.break_barrier(s, floor, 3, "the GM")  # a hole breaks once
    kinds = [e.kind for e in s.log if e.kind in STRUCTURAL]
    assert kinds == [EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED,
                     EventKind.STRUCTURE_DESTROYED, EventKind.FLOOR_COLLAPSED]
    structure.collapse(s, b.find("ground:B2"), 3, "structures")
    assert Feature.WOODEN_BEAM not in b.areas[b.find("ground:B2")].features
    assert b.between(b.find("ground:B2"), b.find("upper:B2")).destroyed
