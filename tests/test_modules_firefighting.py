"""firefighting: Alpha Strike's group firefighting, area-effect blasts and killing the fuel, and
their 7th Sea readings (bucket chain, blankets, sand, tearing down)."""

from __future__ import annotations

import pytest
from test_modules_support import area, field, module_events, module_of, scene_with

from fuego.cli.gm_screen import choice_label
from fuego.engine.events import EventKind
from fuego.engine.hero_actions import options, read_action
from fuego.engine.hero_actions import perform as hero_perform
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.errors import FuegoError
from fuego.modules import firefighting as FF
from fuego.modules.structures import Structures
from fuego.table.risk import choice_odds
from fuego.world.places import Feature

K = FF.FirefightingAction


def test_alpha_strike_numbers():
    # 001: 2D6, +1 for each additional unit fighting the same fire, 10+ extinguishes;
    # 4 points of area-effect damage extinguish a 2-inch radius.
    assert (FF.GROUP_NEEDED, FF.PER_EXTRA_HELPER) == (10, 1)
    assert (FF.BLAST_MIN, FF.BLAST_RADIUS) == (4, 2)


def _crew(faces=(), totals=(), **opts):
    s = scene_with(field(["hhh"]), {"firefighting": opts}, faces=faces, totals=totals)
    heroes = [Hero("Ana", 1, brawn=3, finesse=3, knacks={"firefighting": 2}),
              Hero("Bea", 1, brawn=2, finesse=2)]
    s.heroes.extend(heroes)
    s.round = 1
    fire = s.start_fire(2, 5, Cause.GM)
    return s, heroes, fire


def test_a_bucket_chain_of_two_puts_out_a_fire_on_ten():
    s, (ana, bea), fire = _crew(faces=[4, 5])
    for h in (ana, bea):
        hero_perform(s, h, read_action(s, h, "bucket-chain ground:C1"))
    module_of(s, FF.Firefighting).end_of_round(s)  # 4+5 +1 = 10
    assert 2 not in s.fires
    e = module_events(s, "firefighting")[-1]
    assert (e.data["bonus"], e.data["success"], e.data["crew"]) == (1, True, ["Ana", "Bea"])
    assert not s.building.areas[2].burned_out  # its unburnt fuel stays


def test_alone_the_same_roll_fails_and_the_chain_breaks_up_after_the_round():
    s, (ana, _), fire = _crew(faces=[4, 5])
    hero_perform(s, ana, read_action(s, ana, "bucket-chain ground:C1"))
    module_of(s, FF.Firefighting).end_of_round(s)
    assert 2 in s.fires and module_of(s, FF.Firefighting).chains == {}


def test_helpers_join_every_chain():
    s, (ana, _), fire = _crew(faces=[3, 4], helpers=3)
    hero_perform(s, ana, read_action(s, ana, "bucket-chain ground:C1"))
    module_of(s, FF.Firefighting).end_of_round(s)  # 7 + 3 = 10
    assert 2 not in s.fires


def test_the_7th_sea_chain_roll_adds_a_free_raise_per_helper():
    s, (ana, bea), fire = _crew(totals=[15], roll="7th-sea")
    for h in (ana, bea):
        hero_perform(s, h, read_action(s, h, "bucket-chain ground:C1"))
    module_of(s, FF.Firefighting).end_of_round(s)
    e = module_events(s, "firefighting")[-1]
    assert (e.actor, e.data["pool"], e.data["tn"]) == ("Ana", "5k3+5", 25)
    assert e.data["success"] is False and 2 in s.fires  # the loaded total is the roll's


def test_no_buckets_on_burning_oil_and_none_without_water():
    s, (ana, _), fire = _crew()
    s.building.add_feature(2, Feature.OIL)
    kinds = {a.kind for a in options(s, ana)}
    assert K.BUCKET_CHAIN not in kinds and K.BLANKET not in kinds  # 5 dice: too big to beat
    s2, (ana2, _), _ = _crew(water=False)
    assert K.BUCKET_CHAIN not in {a.kind for a in options(s2, ana2)}


def test_water_within_reach():
    b = field(["hhhhhhhhh"])
    s = scene_with(b, {"firefighting": {"water": ["ground:I1"]}})
    ff = module_of(s, FF.Firefighting)
    assert ff.has_water(s, area(s, "C1")) and not ff.has_water(s, 0)


def test_blankets_beat_a_small_fire_down():
    s, (ana, _), fire = _crew(totals=[20])
    s.set_fire_dice(fire, 4, "test")
    act = read_action(s, ana, "blanket ground:C1")
    assert act.text(s) == "blanket ground:C1"
    hero_perform(s, ana, act)  # (3 + 2) k 3 = 20 vs TN 20
    assert fire.fd == 3


@pytest.mark.parametrize(("verb", "tn"), [("blanket", 5 * 4), ("tear-down", 5 * 5)])
def test_the_table_shows_the_odds_of_the_roll_a_firefighting_action_makes(verb, tn):
    """The module describes its roll once (``action_roll``): the odds the table shows and the
    roll made have one pool and one TN (blanket: the fire's TN; tearing down: 5 x the fuel)."""
    s, (ana, _), fire = _crew(totals=[1, 0, 30, 40])
    s.set_fire_dice(fire, 4, "test")
    act = read_action(s, ana, f"{verb} ground:C1")
    shown = choice_odds(s, ana, act)
    assert shown is not None and shown.tn == tn and 0.0 < shown.chance < 1.0
    assert f"({shown.words()})" in choice_label(s, ana, act)  # the GM's prompt shows them
    hero_perform(s, ana, act)
    rolled = next(e for e in s.log if e.kind is EventKind.MODULE and "tn" in e.data)
    assert (rolled.data["tn"], rolled.data["pool"]) == (shown.tn, shown.pool.notation)


def test_sand_and_the_bucket_chain_roll_nothing_now():
    s, (ana, _), fire = _crew(sand=1)
    for verb in ("sand", "bucket-chain"):
        assert choice_odds(s, ana, read_action(s, ana, f"{verb} ground:C1")) is None


def test_sand_needs_no_roll_and_runs_out():
    s, (ana, _), fire = _crew(sand=1)
    before = s.roller.getstate()
    hero_perform(s, ana, read_action(s, ana, "sand ground:C1"))
    assert fire.fd == 3 and s.roller.getstate() == before
    assert "(0 loads left)" in module_events(s, "firefighting")[0].data["text"]
    assert K.SAND not in {a.kind for a in options(s, ana)}


def test_tearing_down_kills_the_fuel_and_the_structure():
    s = scene_with(field(["hh"]), {"firefighting": {}, "structures": {"cf": {"house": 6}}},
                   totals=[20, 20])
    ana = Hero("Ana", 0, brawn=3)
    s.heroes.append(ana)
    s.building.set_fuel(1, 2)
    fire = s.start_fire(1, 3, Cause.GM)
    assert fire is not None
    hero_perform(s, ana, read_action(s, ana, "tear-down ground:B1"))  # 20 vs 5 x 2
    assert s.building.areas[1].fuel == 1 and fire.resolve == 1
    assert module_of(s, Structures).cf[1] == 2
    hero_perform(s, ana, read_action(s, ana, "tear-down ground:B1"))
    assert 1 not in s.fires and s.building.areas[1].burned_out


def test_a_failed_tear_down_brings_debris_on_the_hero():
    s, (ana, _), fire = _crew(totals=[1, 0, 30, 40])  # fails, fails to dodge, damage, check
    hero_perform(s, ana, read_action(s, ana, "tear-down ground:C1"))
    assert [e for e in s.log if e.kind is EventKind.DEBRIS][-1].actor == "Ana"


def test_a_blast_of_four_dice_blows_out_fires_within_two_areas():
    s = scene_with(field(["hhhhh", "hhhhh", "hhhhh"]), {"firefighting": {}})
    for name in ("A1", "C1", "C3", "D3", "E1"):
        s.start_fire(area(s, name), 3, Cause.GM)
    assert FF.blast(s, "ground:C2", 3) == []
    assert FF.blast(s, "ground:C2", 6, incendiary=True) == []
    out = FF.blast(s, "ground:A1", 4, why="a powder keg")
    assert {s.area_name(i) for i in out} == {"ground:A1", "ground:C1"}  # C3, D3: too far
    assert {s.area_name(i) for i in s.fires} == {"ground:C3", "ground:D3", "ground:E1"}


def test_bad_options():
    assert FF.Firefighting.check_options({"roll": "3d6"}) == [
        "roll: expected one of 2d6, 7th-sea, got '3d6'"]
    assert FF.Firefighting.check_options({"helpers": -2}) == [
        "helpers: expected a whole number from 0 to 50, got -2"]


def test_actions_reach_only_fires_nearby_and_come_before_waiting():
    s, (ana, _), fire = _crew()
    legal = options(s, ana)
    assert legal[-1].kind.value == "wait"
    assert {a.target for a in legal if isinstance(a.kind, K)} == {2}
    with pytest.raises(FuegoError):
        read_action(s, ana, "bucket-chain ground:A1")  # no fire there
