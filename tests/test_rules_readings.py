"""Readings of the 7th Sea fire text (003) fixed by issue 18: each test quotes the words it
follows."""

from __future__ import annotations

import pytest
from builders import TWO_ROOMS, LoadedRoller, grid, scene

from fuego.engine.events import EventKind
from fuego.engine.heroes import Hero, Status
from fuego.engine.injury import add_dramatic, debris, fall, fire_damage
from fuego.engine.rounds import check_flashover, needs_air
from fuego.engine.scene import Cause
from fuego.rules.charts import Exposure, Temperature
from fuego.rules.settings import FlashoverMode, KnockedOutDeath, SmokeClears, SuffocationFire
from fuego.world.places import Feature


def kinds(s, kind):
    return [e for e in s.log if e.kind is kind]


# -- 003, Fire Damage: "Hot fires include chemical fires; burning gasses; explosives" ----------
@pytest.mark.parametrize("feature", [Feature.GUNPOWDER, Feature.EXPLOSIVE, Feature.OIL])
def test_explosives_and_chemicals_burn_hot_from_the_start(feature):
    s = scene(grid([("ground", 0, ["kkk"])], TWO_ROOMS))
    b = s.building
    b.areas[0].features = frozenset({feature})
    hot = s.start_fire(0, 2, Cause.GM)
    assert hot is not None
    plain = s.start_fire(2, 2, Cause.GM)
    assert plain is not None
    assert hot.temperature is Temperature.HOT and plain.temperature is Temperature.REGULAR
    assert kinds(s, EventKind.FIRE_STARTED)[0].data["temperature"] == "hot"


# -- 003, Knocked Out: "killed by the fire when the fire causes them to take another dramatic
# wound" -------------------------------------------------------------------------------------
def _knocked_out(**settings):
    s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS), smoke=False, burning_clothes=False,
              **settings)
    hero = Hero("Ana", 0, brawn=1, resolve=1)
    hero.status, hero.dramatic = Status.KNOCKED_OUT, 2
    s.heroes.append(hero)
    return s, hero


def test_a_knocked_out_hero_dies_at_the_fires_next_dramatic_wound():
    s, hero = _knocked_out()
    s.roller = LoadedRoller(totals=[12, 1])  # damage 12, wound check 1: a Dramatic Wound
    fire_damage(s, hero, 4, Temperature.REGULAR, Exposure.FLEETING, "standing in fire")
    assert hero.status is Status.DEAD
    assert kinds(s, EventKind.HERO_DIED)[0].data["cause"] == "standing in fire"


@pytest.mark.parametrize("how", ["suffocation", "fall", "debris"])
def test_suffocation_a_fall_or_debris_wound_a_knocked_out_hero_as_usual(how):
    s, hero = _knocked_out()
    if how == "suffocation":
        add_dramatic(s, hero, 1, "suffocation", deadly=False)
    elif how == "fall":
        s.roller = LoadedRoller(totals=[15, 1])  # fall damage, failed wound check
        fall(s, hero, 10, 1)
    else:
        s.roller = LoadedRoller(totals=[15, 1])
        debris(s, hero, 4, "a beam")
    assert hero.status is Status.KNOCKED_OUT and hero.dramatic > 2
    assert not kinds(s, EventKind.HERO_DIED)


def test_the_older_reading_any_dramatic_wound_kills_is_a_setting():
    s, hero = _knocked_out(knocked_out_death=KnockedOutDeath.ANY)
    add_dramatic(s, hero, 1, "suffocation", deadly=False)
    assert hero.status is Status.DEAD


# -- 003, Hero on Fire: "A hero who takes damage from fire risks their clothing" --------------
def test_clothes_are_checked_only_when_fire_dealt_some_damage():
    s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS), smoke=False)
    hero = Hero("Ana", 0, brawn=3, finesse=1)
    s.heroes.append(hero)
    s.roller = LoadedRoller(totals=[0, 1])  # no damage: no wound check, no clothes roll
    fire_damage(s, hero, 4, Temperature.COLD, Exposure.FLEETING, "standing in fire")
    assert list(s.roller.queue) == [1] and hero.clothes_fd == 0
    s.roller.queue.clear()
    s.roller.load(3, 20, 1)  # damage 3, wound check passes, Finesse 1 vs 20: clothes catch
    fire_damage(s, hero, 4, Temperature.REGULAR, Exposure.FLEETING, "standing in fire")
    assert hero.clothes_fd == 2


def test_debris_is_not_fire_and_does_not_set_clothes_alight():
    s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS), smoke=False)
    hero = Hero("Ana", 0, brawn=3, finesse=1, panache=1)
    s.heroes.append(hero)
    # avoid fails, damage 9, wound check passes; a Finesse roll would take the last 1
    s.roller = LoadedRoller(totals=[1, 9, 20, 1])
    debris(s, hero, 4, "a beam")
    assert hero.flesh == 9 and hero.clothes_fd == 0 and list(s.roller.queue) == [1]


# -- flashover: 003 "building fires after flashover" are hot (fuego's reading) ----------------
def _closet():
    """A stone closet: one area with fuel among bare stone."""
    s = scene(grid([("ground", 0, ["cc", "cc"])], {"c": {"key": "closet", "fuel": 0}}))
    s.building.areas[0].fuel = 5
    return s


def test_a_fresh_one_die_fire_in_a_stone_closet_is_no_flashover():
    s = _closet()
    s.round = 1
    fire = s.start_fire(0, 1, Cause.GM)
    check_flashover(s)
    assert not s.flashed and fire.temperature is Temperature.REGULAR
    s.round = 2  # a round later it is still a one-die fire: too small to heat the room
    check_flashover(s)
    assert not s.flashed


def test_all_burning_flashes_over_a_round_after_a_large_enough_fire_fills_the_fuel():
    s = _closet()
    s.round = 1
    fire = s.start_fire(0, 5, Cause.GM)  # 003's size column: 5 dice, "Large Fire"
    check_flashover(s)
    assert not s.flashed  # it started this round: the room has not heated yet
    s.round = 2
    check_flashover(s)
    assert s.flashed == {"closet"} and fire.temperature is Temperature.HOT


def test_the_older_reading_all_lit_is_a_setting():
    s = _closet()
    s.settings.flashover = FlashoverMode.ALL_LIT
    s.round = 1
    s.start_fire(0, 1, Cause.GM)
    check_flashover(s)
    assert s.flashed == {"closet"}


# -- the log shows every roll a rule makes (issue 18) ------------------------------------------
def test_the_fuel_check_logs_both_pools():
    s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS))
    fire = s.start_fire(0, 4, Cause.GM)  # kitchen fuel 5: a 5k5 check against a 4k2 roll
    assert fire is not None
    from fuego.engine.rounds import fuel_check

    fuel_check(s, fire)
    check = kinds(s, EventKind.FIRE_FUEL_CHECK)[0].data
    assert check["damage_pool"] == "4k2" and check["pool"] == "5k5"


def test_every_confusion_check_is_logged_passed_or_failed():
    # 003: "Anyone in thick smoke for more than two rounds must make a Wits check"
    from fuego.engine.rounds import _smoke_on_heroes

    s = scene(grid([("ground", 0, ["kkkk"])], TWO_ROOMS), suffocation=False)
    assert s.smoke is not None
    s.building.areas[0].wet = True
    hero = Hero("Ana", 2, wits=3)
    s.heroes.append(hero)
    s.start_fire(0, 1, Cause.GM)
    s.smoke.update(s)
    hero.thick_rounds = 2
    s.roller = LoadedRoller(totals=[15, 1])  # third round passes (TN 15), fourth fails (TN 20)
    _smoke_on_heroes(s)
    _smoke_on_heroes(s)
    checks = [e.data for e in kinds(s, EventKind.CONFUSION_CHECK)]
    assert [(c["tn"], c["total"], c["success"], c["rounds"]) for c in checks] == [
        (15, 15, True, 3), (20, 1, False, 4)]
    assert checks[0]["pool"] == "3k3" and hero.confused
    assert len(kinds(s, EventKind.HERO_CONFUSED)) == 1


def test_the_scene_start_says_where_each_hero_starts():
    from fuego.engine.rounds import start_scene

    s = scene(grid([("ground", 0, ["kkh"])], TWO_ROOMS))
    s.heroes += [Hero("Ana", 0), Hero("Tom", 2)]
    start_scene(s)
    assert kinds(s, EventKind.SCENE_START)[0].data["starts"] == {"Ana": "ground:A1",
                                                                 "Tom": "ground:C1"}


def test_a_merge_that_makes_a_fire_hot_is_logged():
    s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS))
    s.start_fire(0, 3, Cause.GM)
    s.start_fire(0, 2, Cause.GM)  # no change of temperature: no key
    s.start_fire(0, 2, Cause.GM, temperature=Temperature.HOT)
    merged = [e.data for e in kinds(s, EventKind.FIRE_MERGED)]
    assert "temperature" not in merged[0] and merged[1]["temperature"] == "hot"
    assert s.fires[0].temperature is Temperature.HOT


# -- 003, Suffocation: "trapped in a room that is on fire or filled with smoke" ---------------
@pytest.mark.parametrize("how,trapped", [(SuffocationFire.ROOM, True),
                                         (SuffocationFire.AREA, False)])
def test_a_room_on_fire_anywhere_leaves_a_hero_without_air(how, trapped):
    # A closed kitchen burning at one end: the hero at the other end lacks air (the room is on
    # fire); the older reading (suffocation_fire: area) asked for the hero's own area.
    s = scene(grid([("ground", 0, ["kkkk"])], TWO_ROOMS), smoke=False, suffocation_fire=how)
    hero = Hero("Ana", 3)
    s.heroes.append(hero)
    assert not needs_air(s, hero)
    s.start_fire(0, 2, Cause.GM)
    assert needs_air(s, hero) is trapped
    s.start_fire(3, 2, Cause.GM)
    assert needs_air(s, hero)


# -- 003, Smoke: "Once a fire is put out the smoke it produced dissipates" ---------------------
@pytest.mark.parametrize("how", [SmokeClears.FIRE, SmokeClears.ROOM])
def test_smoke_clears_fire_by_fire(how):
    # A closed hall, fires at both ends: once the one at A1 is out, its smoke clears after the
    # wind's rounds (strong: two) while the fire at H1 keeps its own; the older reading (room)
    # kept it all while any fire in the room burned.
    s = scene(grid([("ground", 0, ["kkkkkkkk"])], TWO_ROOMS), wind="strong", smoke_clears=how)
    assert s.smoke is not None
    west, east = s.start_fire(0, 2, Cause.GM), s.start_fire(7, 2, Cause.GM)
    assert east is not None and west is not None
    east.resolve = 9
    s.smoke.update(s)
    assert sorted(s.smoke.density) == [0, 1, 2, 3, 4, 5, 6, 7]
    s.extinguish(west, "test", burned_out=True)
    for _ in range(2):
        s.smoke.update(s)
    if how is SmokeClears.FIRE:
        assert sorted(s.smoke.density) == [2, 3, 4, 5, 6, 7]  # east's six: 4, 5, 6 areas
    else:
        assert sorted(s.smoke.density) == [0, 1, 2, 3, 4, 5, 6, 7]


# -- issue 18: the log shows smoke by area when it changes --------------------------------------
def test_the_smoke_event_names_each_area_whose_smoke_changed():
    from fuego.render.phrases import narrate

    s = scene(grid([("ground", 0, ["kkkk"])], TWO_ROOMS), wind="gale")
    assert s.smoke is not None
    s.building.areas[0].wet = True
    fire = s.start_fire(0, 2, Cause.GM)
    assert fire is not None
    s.smoke.update(s)
    first = kinds(s, EventKind.SMOKE)[-1]
    assert first.data["areas"] == {"ground:A1": "thick", "ground:B1": "thick",
                                   "ground:C1": "thick", "ground:D1": "thick"}
    s.smoke.update(s)  # the same four: nothing changed, nothing logged
    assert kinds(s, EventKind.SMOKE) == [first]
    s.extinguish(fire, "test", burned_out=True)
    s.smoke.update(s)  # a gale clears it in one round
    last = kinds(s, EventKind.SMOKE)[-1]
    assert last.data["areas"] == dict.fromkeys(["ground:A1", "ground:B1", "ground:C1",
                                                "ground:D1"], "clear")
    line = narrate(first, building=s.building)
    assert line is not None and "now thick: ground:A1, ground:B1, ground:C1 and ground:D1" in line
