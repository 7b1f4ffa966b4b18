"""flame-and-blaze: fires start as Flames and become Blazes (ASL 25.15, 25.6)."""

from __future__ import annotations

import pytest
from builders import TWO_ROOMS, grid, lit
from test_modules_support import area, field, module_events, module_of, scene_with

from fuego.engine.controllers import Controller
from fuego.engine.events import EventKind
from fuego.engine.fire import FireState
from fuego.engine.hero_actions import HeroAction, HeroActionKind
from fuego.engine.hero_actions import perform as hero_perform
from fuego.engine.heroes import Hero
from fuego.engine.rounds import play_round
from fuego.engine.scene import Cause
from fuego.modules import flame_and_blaze as F
from fuego.modules.flame_and_blaze import FlameAndBlaze


class Waiter(Controller):
    def choose(self, scene, hero, legal):
        return legal[-1]


def test_blaze_numbers_come_from_the_spreading_table_by_terrain():
    # 000 ASL 25.6: stone building or orchard 9, wooden building or woods-road 8, woods 7,
    # grain or brush 6.
    s = scene_with(field(["wbgh"]), {"ignition": {"terrain": {"woods": "woods",
                                                              "ground:C1": "orchard"}}})
    got = {n: F.blaze_need(s, area(s, n)) for n in ("A1", "B1", "C1", "D1")}
    assert got == {"A1": 7, "B1": 6, "C1": 9, "D1": 8}
    s2 = scene_with(field(["r"]), {"ignition": {"terrain": {"road": "paved"}}})
    assert F.blaze_need(s2, 0) == F.DEFAULT_BLAZE_NEED == 8


def test_fires_in_play_start_as_flames_those_of_the_scenario_as_blazes():
    s = scene_with(field(["hhh"]), {"flame-and-blaze": {}})
    start = s.start_fire(0, 3, Cause.START)
    assert start is not None
    s.round = 1
    new = s.start_fire(1, 1, Cause.LEAP)
    assert new is not None
    assert start.state is FireState.BURNING and new.state is FireState.FLAME
    started = [e for e in s.log if e.kind is EventKind.FIRE_STARTED]
    assert started[-1].data["state"] == "flame"
    s2 = scene_with(field(["hhh"]), {"flame-and-blaze": {"start_as": "flame"}})
    assert lit(s2, 0, 3, Cause.START).state is FireState.FLAME


def test_a_flame_neither_acts_nor_smokes_nor_burns_its_fuel():
    s = scene_with(grid([("ground", 0, ["kkk"])], TWO_ROOMS), {"flame-and-blaze": {
        "start_as": "flame", "blaze_on": 13}})  # 13: never blazes
    assert s.smoke is not None
    s.start_fire(0, 4, Cause.START)
    play_round(s, Waiter())
    kinds = {e.kind for e in s.log}
    assert EventKind.FIRE_LEAPT not in kinds and EventKind.FIRE_GREW not in kinds
    assert EventKind.FIRE_FUEL_CHECK not in kinds
    assert not s.smoke.density
    assert s.log[[e.kind for e in s.log].index(EventKind.ACTION_DICE)].data["fire_actions"] == 0


def test_a_flame_becomes_a_blaze_from_the_round_after_it_appears():
    s = scene_with(field(["hhh"]), {"flame-and-blaze": {}}, faces=[4, 4, 4, 3])
    fab = s.modules[0]
    s.round = 1
    fire = s.start_fire(0, 1, Cause.LEAP)
    assert fire is not None
    fab.end_of_round(s)  # its own round: no roll
    # a tuple: no narrowing kept past the next call
    assert (fire.state,) == (FireState.FLAME,) and not module_events(s, fab.name)
    s.round = 2
    fab.end_of_round(s)  # 4+4 = 8 >= 8 (wooden building)
    assert fire.state is FireState.BURNING
    state = [e for e in s.log if e.kind is EventKind.FIRE_STATE][-1]
    assert (state.data["before"], state.data["after"], state.data["trigger"]) == \
        ("flame", "burning", "blaze")


def test_the_weather_counts_but_the_wind_does_not():
    s = scene_with(field(["bbb"]), {"weather": {"ec": "very-dry"}, "flame-and-blaze": {},
                                    "wind": {"force": "mild-breeze", "direction": "W"}},
                   faces=[2, 2])
    s.round = 1
    fire = s.start_fire(area(s, "C1"), 1, Cause.LEAP)
    assert fire is not None
    s.round = 2
    module_of(s, FlameAndBlaze).end_of_round(s)
    e = module_events(s, "flame-and-blaze")[-1]
    assert (e.data["drm"], e.data["need"], e.data["success"]) == (2, 6, True)  # 2+2+2 vs brush 6
    assert fire.state is FireState.BURNING


def test_a_flame_someone_fought_this_round_is_hampered():
    s = scene_with(field(["hh"]), {"flame-and-blaze": {"blaze_on": 2}}, totals=[1])
    hero = Hero("Ana", 0, brawn=3)
    s.heroes.append(hero)
    s.round = 1
    fire = s.start_fire(1, 2, Cause.LEAP)
    assert fire is not None
    s.round = 2
    hero_perform(s, hero, HeroAction(HeroActionKind.SMOTHER, target=1))  # fails: total 1
    s.modules[0].end_of_round(s)
    assert (fire.state,) == (FireState.FLAME,)  # a tuple: no narrowing kept past the next call
    assert module_events(s, "flame-and-blaze")[-1].data["hampered"] is True
    s.round = 3
    s.modules[0].end_of_round(s)
    assert fire.state is FireState.BURNING


def test_bad_start_as():
    assert F.FlameAndBlaze.check_options({"start_as": "ember"}) == [
        "start_as: expected one of blaze, flame, got 'ember'"]
    with pytest.raises(Exception) as exc:
        F.FlameAndBlaze({"blaze_on": 1})
    assert "rules.modules.flame-and-blaze.blaze_on" in str(exc.value)


def test_a_flame_does_not_burn_those_who_stand_in_or_walk_into_it():
    from builders import TWO_ROOMS, grid, scene

    from fuego.engine.events import EventKind
    from fuego.engine.fire import Trigger
    from fuego.engine.hero_actions import move
    from fuego.engine.heroes import Hero
    from fuego.engine.rounds import _exposure
    from fuego.engine.scene import Cause

    s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS))
    ana, bo = Hero("Ana", 0), Hero("Bo", 1)
    s.heroes += [ana, bo]
    fire = s.start_fire(0, 4, Cause.GM, flame=True)
    assert fire is not None
    _exposure(s)
    move(s, bo, 0)
    assert not [e for e in s.log if e.kind in (EventKind.HERO_DAMAGED, EventKind.HERO_AVOIDED)]
    fire.trigger(Trigger.BLAZE, s, "test")  # the Flame becomes a Blaze, through the machine
    _exposure(s)
    assert [e.actor for e in s.log if e.kind is EventKind.HERO_DAMAGED] == ["Ana", "Bo"]
