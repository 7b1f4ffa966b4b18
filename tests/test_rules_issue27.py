"""Issue 27, the third reading of the texts: explosions are fire, burning oil clings, the
end-of-round burn is remembered per fire, the wind on smoke, incendiaries on their own fuel,
jets, magic and burning objects, Alpha Strike's arc, flame-and-blaze's Flames and Blazes, and the
options' missing pieces. Each rule is played through the engine or the CLI and read back from
the log; each older reading is a setting, played too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import TWO_ROOMS, LoadedRoller, grid, scene
from click.testing import CliRunner
from test_modules_support import area, field, module_events, module_of, scene_with

from fuego.cli import cli
from fuego.dice.odds import distribution
from fuego.dice.roller import Pool
from fuego.engine.controllers import AutoController, exit_costs
from fuego.engine.events import LOG_FORMAT, EventKind
from fuego.engine.explosion import explode
from fuego.engine.fire import FireState, Trigger
from fuego.engine.hero_actions import HeroActionKind, move, options
from fuego.engine.heroes import Hero, Status
from fuego.engine.injury import burn, dramatic_wounds
from fuego.engine.rounds import end_round
from fuego.engine.scene import Cause
from fuego.modules import wrecks as W
from fuego.modules.flame_and_blaze import SMOKE_RISE_LEVELS, SMOKE_RISE_LEVELS_MILD
from fuego.modules.ignition import INCENDIARY_FUEL, Ignition, kindle
from fuego.rules.charts import (
    CONTACT_EXPOSURE,
    CONTACT_HOT,
    EXTRA_WOUND_STEP,
    Contact,
    Density,
    Exposure,
    Temperature,
)
from fuego.rules.settings import (
    BurningOil,
    ExplosionRule,
    KnockedOutDeath,
    RoundBurn,
    Settings,
)
from fuego.table.overrides import apply_override, normalize_override
from fuego.world.places import Feature


def kinds(s, kind):
    return [e for e in s.log if e.kind is kind]


def row(**settings):
    """Three fuelled kitchen areas in a row (ground:A1-C1), then a hall, an empty area."""
    return scene(grid([("ground", 0, ["kkkhe"])], TWO_ROOMS), smoke=False, **settings)


def bare(**settings):
    """:func:`row` without burning clothes (a test of one burn at a time)."""
    return row(burning_clothes=False, **settings)


# -- the tables against 003 (Injury from Fire) ---------------------------------------------------
def test_each_contact_has_the_texts_wound_step_and_heat():
    per_10 = {Contact.CLOTHES, Contact.OIL, Contact.JET, Contact.MAGIC}  # 003's per-10 list
    for contact, exposure in CONTACT_EXPOSURE.items():
        assert EXTRA_WOUND_STEP[exposure] == (10 if contact in per_10 else 20), contact
    # 003: "Hot fires include chemical fires; burning gasses; explosives"
    assert {Contact.EXPLOSION, Contact.JET, Contact.OIL} == CONTACT_HOT


# -- 1. explosions are fire ----------------------------------------------------------------------
def test_an_explosion_burns_everyone_in_reach_as_a_hot_fire_of_its_dice():
    s = row()
    ana, bo = Hero("Ana", 1, brawn=3), Hero("Bo", 4, brawn=3)
    s.heroes += [ana, bo]
    explode(s, 0, 4, Cause.GM, radius=1)
    ev = kinds(s, EventKind.EXPLOSION)[0]
    assert ev.data["fd"] == 4 and ev.data["rule"] == "fire" and ev.data["caught"] == ["Ana"]
    assert ev.data["areas"] == ["ground:A1", "ground:B1"]
    hit = kinds(s, EventKind.HERO_DAMAGED)
    assert [e.actor for e in hit] == ["Ana"]
    d = hit[0].data
    # 003: the size of an explosion is its Fire Dice; hot fires keep all the dice
    assert (d["pool"], d["temperature"], d["contact"], d["exposure"]) == \
        ("4k4", "hot", "explosion", "fleeting")
    assert not kinds(s, EventKind.HERO_AVOIDED)  # no dodging a blast
    assert not kinds(s, EventKind.DEBRIS)
    assert s.fires[0].temperature is Temperature.HOT and s.fires[0].fd == 4


def test_an_explosions_odds_of_a_dramatic_wound_are_the_texts():
    """Brawn 2 against a 4-die blast: 2k2 must reach 4k4 (icepool), over 3000 seeded blasts."""
    dmg, check = distribution(Pool(4, 4)), distribution(Pool(2, 2))
    exact = sum(p * sum(q for t, q in check.items() if t < d) for d, p in dmg.items())
    hits = 0
    n = 3000
    for seed in range(n):
        s = scene(grid([("ground", 0, ["k"])], TWO_ROOMS), seed, smoke=False,
                  burning_clothes=False)
        s.heroes.append(Hero("Ana", 0, brawn=2))
        explode(s, 0, 4, Cause.GM)
        hits += any(not e.data["success"] for e in kinds(s, EventKind.WOUND_CHECK))
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(hits / n - exact) < 4 * sigma, (hits / n, exact)


def test_an_explosion_kills_a_knocked_out_hero_and_risks_clothes():
    s = row()
    ko = Hero("Ko", 0, brawn=1, resolve=1)
    ko.status, ko.dramatic = Status.KNOCKED_OUT, 2
    ana = Hero("Ana", 0, brawn=1, finesse=1)
    s.heroes += [ko, ana]
    s.roller = LoadedRoller(totals=[12, 1, 12, 1, 1])  # Ko: 12, fails; Ana: 12, fails; clothes 1
    explode(s, 0, 4, Cause.GM)
    assert ko.status is Status.DEAD  # the fire's Dramatic Wound (003, Knocked Out)
    assert kinds(s, EventKind.CLOTHES_CAUGHT)[0].actor == "Ana" and ana.clothes_fd == 2


def test_the_blasts_own_debris_is_separate_and_said_so():
    s = bare()
    s.heroes.append(Hero("Ana", 0, brawn=3))
    s.roller = LoadedRoller(totals=[9, 30, 0, 7, 30])  # blast 9, passes; no dodge; debris 7
    explode(s, 0, 4, Cause.GM, with_debris=True)
    hit = kinds(s, EventKind.HERO_DAMAGED)
    assert [(e.data["contact"], e.data["pool"], e.data["damage"]) for e in hit] == \
        [("explosion", "4k4", 9), ("debris", "4k2", 7)]
    assert kinds(s, EventKind.DEBRIS)[0].data["what"] == "the blast's debris"


def test_the_older_reading_an_explosion_is_debris_is_a_setting():
    s = row(explosions=ExplosionRule.DEBRIS)
    s.heroes.append(Hero("Ana", 0, brawn=3))
    s.roller = LoadedRoller(totals=[0])  # she fails to dodge
    explode(s, 0, 4, Cause.GM)
    assert kinds(s, EventKind.HERO_AVOIDED)
    d = kinds(s, EventKind.HERO_DAMAGED)[0].data
    assert (d["pool"], d["contact"], d["temperature"]) == ("4k2", "debris", "regular")
    assert kinds(s, EventKind.EXPLOSION)[0].data["rule"] == "debris"


def test_the_tavern_keg_burns_the_heroes_through_the_cli(tmp_path):
    log = tmp_path / "t.jsonl"
    tavern = Path(__file__).resolve().parent.parent / "campaigns" / "tavern.yaml"
    r = CliRunner().invoke(cli, ["run", str(tavern), "--seed", "7", "--log",
                                 str(log)])
    assert r.exit_code == 0, r.output
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    # the rules of format 3 and after (docs/events.md)
    assert [e["format"] for e in events if e["kind"] == "scene-start"] == [LOG_FORMAT] and LOG_FORMAT >= 3
    blasts = [e for e in events if e["kind"] == "explosion"]
    assert blasts and all(e["rule"] == "fire" for e in blasts)
    for e in events:
        if e["kind"] == "hero-damaged" and e.get("contact") == "explosion":
            assert e["temperature"] == "hot" and e["pool"] == f"{e['fd']}k{e['fd']}"


# -- 2. burning oil clings -------------------------------------------------------------------
def oily(**settings):
    s = row(**settings)
    s.building.add_feature(1, Feature.OIL)
    s.start_fire(1, 4, Cause.GM)
    hero = Hero("Ana", 0, brawn=2, panache=1)
    s.heroes.append(hero)
    return s, hero


def test_stepping_into_burning_oil_is_the_clinging_kind_and_covers_the_hero():
    s, ana = oily()
    s.roller = LoadedRoller(totals=[0, 30, 5])  # no dodge; 30 damage; wound check 5
    move(s, ana, 1)
    d = kinds(s, EventKind.HERO_DAMAGED)[0].data
    assert (d["contact"], d["exposure"], d["temperature"]) == ("oil", "clinging", "hot")
    w = kinds(s, EventKind.WOUND_CHECK)[0].data
    # failed by 25: one Dramatic Wound and one per full 10 (003), not per 20
    assert w["step"] == 10 and w["dramatic"] == 3 == dramatic_wounds(30, 5, Exposure.CLINGING)
    oil = kinds(s, EventKind.OIL_CLINGS)[0]
    assert oil.actor == "Ana" and oil.data["fd"] == 2 and ana.oiled and ana.clothes_fd == 2


def test_burning_oils_odds_of_three_dramatic_wounds_are_the_texts():
    """Brawn 2 stepping into a 6-die oil fire (hot, 6k6, per 10; Panache 1 to dodge against 30):
    the chance of 3 or more Dramatic Wounds, exact (icepool) against 3000 seeded steps."""
    from fuego.dice.odds import chance

    dodge = chance(Pool(1, 1), 30)
    dmg, check = distribution(Pool(6, 6)), distribution(Pool(2, 2))
    exact = (1 - dodge) * sum(p * q for d, p in dmg.items() for t, q in check.items()
                              if t < d and dramatic_wounds(d, t, Exposure.CLINGING) >= 3)
    n, hits = 3000, 0
    for seed in range(n):
        s = scene(grid([("ground", 0, ["kk"])], TWO_ROOMS), seed, smoke=False,
                  burning_clothes=False)
        s.building.add_feature(1, Feature.OIL)
        s.start_fire(1, 6, Cause.GM)
        ana = Hero("Ana", 0, brawn=2, panache=1)
        s.heroes.append(ana)
        move(s, ana, 1)
        hits += any(e.data.get("dramatic", 0) >= 3 for e in kinds(s, EventKind.WOUND_CHECK))
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(hits / n - exact) < 4 * sigma, (hits / n, exact)


def test_covered_in_oil_a_hero_burns_every_round_until_it_is_put_out():
    s, ana = oily()
    s.roller = LoadedRoller(totals=[0, 5, 20])
    move(s, ana, 1)
    ana.area = 4  # out of the fire: the oil still burns on her
    end_round(s)
    d = [e.data for e in kinds(s, EventKind.HERO_DAMAGED)][-1]
    assert (d["contact"], d["pool"], d["temperature"], d["cause"]) == \
        ("oil", "2k2", "hot", "burning oil")
    acts = options(s, ana)
    out = [a for a in acts if a.kind is HeroActionKind.PUT_OUT_CLOTHES]
    assert out
    from fuego.engine.hero_actions import perform

    s.roller = LoadedRoller(totals=[50])
    perform(s, ana, out[0])
    assert not ana.oiled and not ana.clothes_fd


def test_the_older_reading_oil_wounds_per_20_and_never_clings_is_a_setting():
    s, ana = oily(burning_oil=BurningOil.FLEETING)
    s.roller = LoadedRoller(totals=[0, 30, 5])
    move(s, ana, 1)
    d = kinds(s, EventKind.HERO_DAMAGED)[0].data
    assert (d["contact"], d["exposure"]) == ("moving", "fleeting")
    assert kinds(s, EventKind.WOUND_CHECK)[0].data["dramatic"] == 2
    assert not kinds(s, EventKind.OIL_CLINGS) and not ana.oiled


# -- 3. the end-of-round burn, per fire --------------------------------------------------------
def test_debris_or_another_fire_does_not_spare_the_burn_of_the_fire_a_hero_stands_in():
    s = bare()
    s.start_fire(1, 3, Cause.GM)
    s.start_fire(2, 3, Cause.GM)
    ana = Hero("Ana", 0, brawn=5, panache=1)
    s.heroes.append(ana)
    s.roller = LoadedRoller(totals=[0, 1, 50, 0, 1, 50])  # no dodge; 1 damage; passes (x2)
    move(s, ana, 1)  # burned by the fire in B1
    ana.area = 2  # (into C1's fire without crossing another)
    end_round(s)
    burns = [e for e in kinds(s, EventKind.HERO_DAMAGED) if e.data["cause"] == "standing in fire"]
    assert burns and burns[0].area == "ground:C1"  # C1's fire had not hurt her yet


def test_the_fire_that_hurt_a_hero_this_round_does_not_burn_them_again_at_its_end():
    s = bare()
    s.start_fire(1, 3, Cause.GM)
    ana = Hero("Ana", 0, brawn=5, panache=1)
    s.heroes.append(ana)
    s.roller = LoadedRoller(totals=[0, 1, 50])
    move(s, ana, 1)
    end_round(s)
    assert len(kinds(s, EventKind.HERO_DAMAGED)) == 1


def test_the_older_reading_any_fire_damage_spares_the_burn_is_a_setting():
    s = bare(round_burn=RoundBurn.ANY)
    s.start_fire(1, 3, Cause.GM)
    s.start_fire(2, 3, Cause.GM)
    ana = Hero("Ana", 0, brawn=5, panache=1)
    s.heroes.append(ana)
    s.roller = LoadedRoller(totals=[0, 1, 50])
    move(s, ana, 1)
    ana.area = 2
    end_round(s)
    assert len(kinds(s, EventKind.HERO_DAMAGED)) == 1


# -- 5. heavy winds and gusts on the core's smoke --------------------------------------------------
def windy(force, **wind):
    s = scene_with(field(["bbbbb"]), {"wind": {"force": force, "direction": "W",
                                               "changes": False, **wind}}, smoke=True)
    s.modules[0].scene_start(s)
    return s


def test_heavy_winds_blow_the_smoke_away_outdoors():
    s = windy("heavy-winds")
    s.start_fire(area(s, "C1"), 4, Cause.GM)
    s.smoke.update(s)
    assert not s.smoke.density  # 000 25.63: smoke has no effect in heavy winds
    calm = windy("none")
    calm.start_fire(area(calm, "C1"), 4, Cause.GM)
    calm.smoke.update(calm)
    assert calm.smoke.density


def test_in_heavy_winds_no_wreck_or_blaze_smoke_stays_outdoors_either():
    s = scene_with(field(["bbb"], [("ground", 0, ["bbb"]), ("air", 1, ["bbb"])]),
                   {"wind": {"force": "heavy-winds", "direction": "W", "changes": False},
                    "wrecks": {}, "flame-and-blaze": {}}, smoke=True)
    assert s.smoke is not None
    for m in s.modules:
        m.scene_start(s)
    W.place_wreck(s, "ground:A1", "cart")
    s.start_fire(area(s, "ground:C1"), 4, Cause.GM)
    s.smoke.update(s)
    assert not s.smoke.density


def test_the_older_reading_the_wind_leaves_smoke_alone_is_a_setting():
    s = windy("heavy-winds", smoke=False)
    s.start_fire(area(s, "C1"), 4, Cause.GM)
    s.smoke.update(s)
    assert s.smoke.density


def test_a_gust_clears_thin_smoke_and_thins_thick_but_not_over_the_fire():
    s = windy("mild-breeze")
    w = s.modules[0]
    s.start_fire(area(s, "C1"), 4, Cause.GM)
    s.smoke.density = {area(s, "A1"): Density.THIN, area(s, "B1"): Density.THICK,
                       area(s, "C1"): Density.THICK}
    w._gusts(s, (6, 6))
    assert s.smoke.density == {area(s, "B1"): Density.THIN, area(s, "C1"): Density.THICK}
    ev = [e for e in kinds(s, EventKind.SMOKE) if e.data.get("why") == "gusts"][0]
    assert ev.data["areas"] == {"ground:A1": "clear", "ground:B1": "thin"}


# -- 6. incendiaries burn on their own fuel -----------------------------------------------------
def test_an_incendiary_on_paving_burns_its_own_fuel_and_goes_out_when_spent():
    s = scene_with(field(["rrr"]), {"ignition": {"terrain": {"road": "paved"}}}, smoke=False)
    fire = kindle(s, area(s, "B1"), intentional=True, why="Greek fire", incendiary=True)
    assert fire is not None and fire.resolve == INCENDIARY_FUEL and fire.own_fuel
    started = kinds(s, EventKind.FIRE_STARTED)[0].data
    assert started["own_fuel"] == INCENDIARY_FUEL and started["temperature"] == "hot"
    assert "own fuel" in module_events(s, "ignition")[0].data["text"]
    for _ in range(40):
        if not s.fires:
            break
        s.round += 1
        end_round(s)
    assert not s.fires  # its fuel spent
    out = kinds(s, EventKind.FIRE_OUT)[0].data
    assert out["burned_out"] is False and s.building.areas[area(s, "B1")].fuel == 0


def test_the_older_reading_no_fuel_no_incendiary_fire_is_a_setting():
    s = scene_with(field(["rrr"]), {"ignition": {"incendiary_fuel": 0}}, smoke=False)
    assert kindle(s, area(s, "B1"), intentional=True, why="Greek fire", incendiary=True) is None


# -- 7. jets, magic, burning objects; the blast that blows fires out --------------------------------
@pytest.mark.parametrize("by, contact, pool, step", [
    ("jet", "jet", "4k4", 10), ("magic", "magic", "4k2", 10), ("object", "struck", "4k2", 20),
    ("oil", "oil", "4k4", 10)])
def test_the_gms_burn_names_how_the_fire_reached_the_hero(by, contact, pool, step):
    s = row()
    s.heroes.append(Hero("Isabela Soldano", 4, brawn=1))
    s.roller = LoadedRoller(totals=[30, 1])
    assert normalize_override(s, f"burn Isabela 4 {by}") == f"burn Isabela Soldano 4 {by}"
    apply_override(s, f"burn Isabela 4 {by}")
    d = kinds(s, EventKind.HERO_DAMAGED)[0].data
    assert (d["contact"], d["pool"]) == (contact, pool)
    assert kinds(s, EventKind.WOUND_CHECK)[0].data["step"] == step


def test_a_scripts_jet_of_gas_and_magic_fire_through_the_cli(tmp_path):
    text = MINIMAL + """script:
  - name: the gas main
    when: {round: 1}
    do:
      - burn: {who: Ana, fd: 5, by: jet}
      - burn: {at: ground:C1, fd: 3, by: magic}
"""
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    log = tmp_path / "s.jsonl"
    r = CliRunner().invoke(cli, ["run", str(path), "--seed", "3", "--rounds", "1", "--log",
                                 str(log)])
    assert r.exit_code == 0, r.output
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    hits = [e for e in events if e["kind"] == "hero-damaged" and e["cause"].startswith("script")]
    assert [(e["contact"], e["pool"]) for e in hits[:2]] == [("jet", "5k5"), ("magic", "3k2")]
    assert "a jet of burning gas" in r.output
    bad = tmp_path / "b.yaml"
    bad.write_text(text.replace("by: jet", "by: dragon"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(bad)])
    assert r.exit_code != 0 and "jet, magic, object, oil" in r.output + (r.stderr or "")


def test_a_blast_effect_blows_fires_out_within_two_areas():
    s = scene(grid([("ground", 0, ["kkkkkkk"])], TWO_ROOMS), smoke=False)
    from fuego.engine.script import When
    from fuego.scenario.script.parse import build_script

    for i in (0, 2, 6):
        s.start_fire(i, 3, Cause.GM)
    s.script = build_script([{"name": "charge", "when": {"round": 1},
                              "do": {"blast": {"at": "ground:A1", "dice": 4}}}], s)
    assert s.script is not None
    s.round = 1
    s.script.check(s, When.START)
    assert sorted(s.fires) == [6]  # 001: 4 damage blows out a 2-inch radius
    # the narration counts them in words and names the cue once (it said "2 fire(s)" and
    # "goes out (the blast (charge))")
    texts = [e.data.get("text") for e in s.log]
    assert "the blast of charge at ground:A1 blows out 2 fires" in texts
    assert [e.data["reason"] for e in s.log if e.kind is EventKind.FIRE_OUT] \
        == ["the blast of charge"] * 2


def test_the_gms_explode_and_blast():
    s = row()
    s.heroes.append(Hero("Ana", 1, brawn=3))
    apply_override(s, "explode ground:A1 4")
    assert kinds(s, EventKind.EXPLOSION)[0].data["caught"] == ["Ana"]
    apply_override(s, "blast ground:A1")
    assert not s.fires


# -- 8. Alpha Strike's spread: no wind, no spread; the arc only -----------------------------------
def _leaps(s, fire):
    from fuego.engine.fire_actions import ActionKind, candidates

    return {s.area_name(a.target) for a in candidates(s, fire) if a.kind is ActionKind.LEAP}


def test_no_wind_no_spread_and_downwind_only_by_default():
    calm = scene_with(field(["bbbbb"]), {"wind": {"force": "none", "changes": False}})
    assert not _leaps(calm, calm.start_fire(area(calm, "C1"), 6, Cause.GM))
    breeze = scene_with(field(["bbbbb"]), {"wind": {"force": "mild-breeze", "direction": "W",
                                                    "changes": False}})
    leaps = _leaps(breeze, breeze.start_fire(area(breeze, "C1"), 6, Cause.GM))
    assert leaps and all(name[-2] in "DE" for name in leaps)  # east: downwind of a west wind


def test_asl_spreading_by_terrain_follows_the_arc_too():
    def need(wind, src, dst):
        s = scene_with(field(["bbb"]), {"ignition": {}, "wind": {"changes": False, **wind}})
        ig = module_of(s, Ignition)
        return ig.spread_need(s, area(s, src), area(s, dst), True)

    calm = {"force": "none"}
    west = {"force": "mild-breeze", "direction": "W"}
    assert need(calm, "B1", "C1") is None  # 001: no wind direction, no spreading
    assert need(west, "B1", "C1") == (6, 1)  # brush 6, downwind +1 (ASL 25.6, 25.64)
    assert need(west, "B1", "A1") is None  # upwind: outside the arc
    assert need({**west, "arc_only": False}, "B1", "A1") == (6, -1)  # the older reading
    assert need({**calm, "arc_only": False}, "B1", "C1") == (6, 0)


def test_the_older_reading_spread_every_way_is_arc_only_false():
    calm = scene_with(field(["bbbbb"]), {"wind": {"force": "none", "arc_only": False}})
    assert "ground:A1" in _leaps(calm, calm.start_fire(area(calm, "C1"), 6, Cause.GM))


# -- 9. flame-and-blaze: Flames harm no one, Blazes cannot be smothered ---------------------------
def flames(**opts):
    s = scene_with(field(["bbb"]), {"flame-and-blaze": opts}, smoke=False)
    s.round = 1
    flame = s.start_fire(area(s, "A1"), 2, Cause.GM)
    blaze = s.start_fire(area(s, "C1"), 2, Cause.GM)
    assert blaze is not None
    blaze.trigger(Trigger.BLAZE, s, "test")  # a Blaze, through the machine
    hero = Hero("Ana", area(s, "B1"), brawn=3)
    s.heroes.append(hero)
    return s, flame, blaze, hero


def test_a_flame_burns_no_one_and_a_blaze_cannot_be_smothered():
    s, flame, blaze, ana = flames()
    assert flame.state is FireState.FLAME
    smother = {a.target for a in options(s, ana) if a.kind is HeroActionKind.SMOTHER}
    assert smother == {flame.area}  # 25.7: no purposeful extinguishing of a Blaze
    ana.area = flame.area
    end_round(s)
    assert not kinds(s, EventKind.HERO_DAMAGED)  # 25.1: a Flame has no effect of its own


def test_the_older_readings_flames_burn_and_blazes_smother_are_settings():
    s, flame, blaze, ana = flames(flames_burn=True, smother_blazes=True)
    smother = {a.target for a in options(s, ana) if a.kind is HeroActionKind.SMOTHER}
    assert smother == {flame.area, blaze.area}
    ana.area = flame.area
    end_round(s)
    assert kinds(s, EventKind.HERO_DAMAGED)[0].data["pool"] == "2k1"


# -- 10. the missing pieces --------------------------------------------------------------------
def test_a_fire_resistant_character_ignores_fire_but_not_debris():
    s = row()
    sal = Hero("Salamander", 0, fire_resistant=True)
    s.heroes.append(sal)
    burn(s, sal, 6, Contact.JET, "a jet")
    explode(s, 0, 6, Cause.GM)
    assert not kinds(s, EventKind.HERO_DAMAGED)
    assert [e.data["contact"] for e in kinds(s, EventKind.FIRE_RESISTED)] == ["jet", "explosion"]
    s.roller = LoadedRoller(totals=[0, 10, 30])
    from fuego.engine.injury import debris

    debris(s, sal, 4, "a beam")
    assert kinds(s, EventKind.HERO_DAMAGED)[0].data["contact"] == "debris"


def test_a_scenarios_hero_may_be_fire_resistant(tmp_path):
    from fuego.scenario.model import loads

    sc = loads(MINIMAL.replace("start: ground:C1", "start: ground:C1\n    fire_resistant: true"))
    assert sc.build(1).heroes[0].fire_resistant


@pytest.mark.parametrize("dice, catches", [((6, 6), True), ((6, 5), False)])
def test_a_cart_driven_into_fire_catches_on_12(dice, catches):
    s = scene_with(field(["bbb"]), {"wrecks": {}}, faces=list(dice), smoke=False)
    s.start_fire(area(s, "B1"), 3, Cause.GM)
    got = W.drive_into(s, "ground:B1", "cart")
    ev = [e for e in module_events(s, "wrecks") if e.data.get("what") == "vehicle-enters"][0]
    assert ev.data["need"] == W.MOBILE_IGNITE_TARGET == 12 and ev.data["dice"] == list(dice)
    assert (got is not None) is catches
    assert [w.vehicle for w in W.burning_wrecks(s)] == (["cart"] if catches else [])


def test_a_cart_driven_into_a_flame_is_told_why_it_does_not_catch():
    s = scene_with(field(["bbb"]), {"wrecks": {}, "flame-and-blaze": {}}, smoke=False)
    s.start_fire(area(s, "B1"), 1, Cause.GM, flame=True)
    assert W.drive_into(s, "ground:B1", "cart") is None
    texts = [e.data["text"] for e in module_events(s, "wrecks")]
    # a Flame has no effect of its own (ASL 25.1); it said "nothing burns there"
    assert texts[-1] == "a cart is driven into ground:B1: only a Flame, which harms nothing"


def test_carts_driven_into_fire_catch_one_time_in_36():
    """001: 2d6 >= 12 with no modifier, 1 in 36: 3600 seeded carts, against the exact odds."""
    from fuego.dice.odds import chance
    from fuego.dice.roller import Plain

    exact = chance(Plain(2, 6), 12)
    n, caught = 3600, 0
    for seed in range(n):
        s = scene_with(field(["b"]), {"wrecks": {}}, seed=seed, smoke=False)
        s.start_fire(0, 3, Cause.GM)
        caught += W.drive_into(s, 0, "cart") is not None
    assert exact == pytest.approx(1 / 36)
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(caught / n - exact) < 4 * sigma, (caught / n, exact)


def tower(**modules):
    levels = [(f"l{k}", k, ["b"]) for k in range(6)]
    s = scene_with(field(["b"], levels), modules, smoke=True)
    for m in s.modules:
        m.scene_start(s)
    return s


@pytest.mark.parametrize("force, levels", [("none", SMOKE_RISE_LEVELS),
                                           ("mild-breeze", SMOKE_RISE_LEVELS_MILD)])
def test_a_blazes_smoke_rises_four_levels_two_in_a_mild_breeze(force, levels):
    s = tower(**{"flame-and-blaze": {}, "wind": {"force": force, "direction": "W",
                                               "changes": False}})
    s.start_fire(area(s, "l0:A1"), 4, Cause.GM)  # round 0: a starting Blaze
    s.smoke.update(s)
    above = [k for k in range(1, 6) if s.smoke.at(area(s, f"l{k}:A1"))]
    assert above == list(range(1, levels + 1))  # ASL 25.2 (4 and 2: SMOKE_RISE_LEVELS)
    assert (SMOKE_RISE_LEVELS, SMOKE_RISE_LEVELS_MILD) == (4, 2)


def test_the_older_reading_no_rising_smoke_is_a_setting():
    s = tower(**{"flame-and-blaze": {"rising_smoke": False}})
    s.start_fire(area(s, "l0:A1"), 4, Cause.GM)
    s.smoke.update(s)
    assert not s.smoke.at(area(s, "l3:A1"))


def test_a_wrecks_smoke_rises_too():
    s = tower(wrecks={})
    W.place_wreck(s, "l0:A1", "cart")
    s.smoke.update(s)
    assert all(s.smoke.at(area(s, f"l{k}:A1")) for k in range(1, 5))


def test_the_gms_wound_does_not_kill_a_knocked_out_hero():
    s = row()
    ko = Hero("Ko", 0, resolve=1)
    ko.status, ko.dramatic = Status.KNOCKED_OUT, 2
    s.heroes.append(ko)
    apply_override(s, "wound Ko 1 dw")
    assert (ko.status, ko.dramatic) == (Status.KNOCKED_OUT, 3)
    s.roller = LoadedRoller(totals=[20, 1])  # a burning object: 20, the check fails
    apply_override(s, "burn Ko 4 object")
    assert ko.status is Status.DEAD  # the fire's wound kills
    s2 = row(knocked_out_death=KnockedOutDeath.FIRE_AND_GM)
    ko2 = Hero("Ko", 0, resolve=1)
    ko2.status, ko2.dramatic = Status.KNOCKED_OUT, 2
    s2.heroes.append(ko2)
    apply_override(s2, "wound Ko 1 dw")
    assert ko2.status is Status.DEAD  # the older reading


def test_automatic_heroes_count_a_wrecks_extra_move():
    s = scene_with(field(["bbb", "bbb"]), {"wrecks": {}}, smoke=False)
    for name in ("ground:C1", "ground:C2"):
        s.building.add_feature(area(s, name), Feature.EXIT)
    before = exit_costs(s, ())[area(s, "ground:A1")]
    W.place_wreck(s, "ground:B1", "wagon")
    after = exit_costs(s, ())[area(s, "ground:A1")]
    assert after == before + W.EXTRA_MOVES  # the way past the wagon costs its extra move
    ana = Hero("Ana", area(s, "ground:B2"))
    s.heroes.append(ana)
    s.building.remove_feature(area(s, "ground:C2"), Feature.EXIT)
    # from B2 to C1: by C2 (2 moves), or by B1 and the wagon (2 moves + 1); without the wagon
    # the two tie and the lower area (B1) would win
    act = AutoController().choose(s, ana, options(s, ana))
    assert act is not None
    assert act.kind is HeroActionKind.MOVE and act.target == area(s, "ground:C2")


def test_a_script_places_a_wreck_and_drives_a_cart(tmp_path):
    text = MINIMAL.replace("fires:", "rules:\n  modules: {wrecks: {}}\nfires:") + """script:
  - name: the cart
    when: {round: 1}
    do:
      - wreck: {at: ground:B2, vehicle: cart, rounds: 3}
      - drive: {vehicle: boat, to: ground:A1}
"""
    path = tmp_path / "w.yaml"
    path.write_text(text, encoding="utf-8")
    log = tmp_path / "w.jsonl"
    r = CliRunner().invoke(cli, ["run", str(path), "--seed", "3", "--rounds", "1", "--log",
                                 str(log)])
    assert r.exit_code == 0, r.output
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    whats = [e.get("what") for e in events if e["kind"] == "module"]
    assert "wreck" in whats and "vehicle-enters" in whats
    off = tmp_path / "off.yaml"
    off.write_text(text.replace("rules:\n  modules: {wrecks: {}}\n", ""), encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(off)])
    assert r.exit_code != 0 and "wrecks module" in r.output + (r.stderr or "")


def test_new_settings_are_read_from_a_scenario():
    from fuego.scenario.model import loads

    sc = loads(MINIMAL.replace("fires:", "rules:\n  explosions: debris\n  burning_oil: fleeting"
                               "\n  round_burn: any\n  knocked_out_death: fire-and-gm\nfires:"))
    st = sc.settings
    assert (st.explosions, st.burning_oil, st.round_burn, st.knocked_out_death) == \
        (ExplosionRule.DEBRIS, BurningOil.FLEETING, RoundBurn.ANY, KnockedOutDeath.FIRE_AND_GM)
    assert Settings().explosions is ExplosionRule.FIRE


MINIMAL = """title: Issue 27
rooms:
  shop: {fuel: 3}
  street: {outdoors: true}
legend: {s: shop, o: street}
levels:
  - name: ground
    elevation: 0
    plan: |
      ssss
      ssss
      oooo
heroes:
  - name: Ana
    traits: {brawn: 3, finesse: 3, wits: 2, resolve: 3, panache: 2}
    start: ground:C1
fires:
  - {area: ground:A1, fd: 3}
"""




def test_the_gms_jet_explosion_and_blast_at_the_table_replay_on_resume(tmp_path, monkeypatch):
    """``fuego play``: the GM's burn, explode and blast are overrides, saved as typed words and
    replayed on resume to the same state."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(MINIMAL, encoding="utf-8")
    answers = ["burn Ana 4 jet", "explode ground:B2 4", "blast ground:A1", "status", "quit"]
    r = CliRunner().invoke(cli, ["play", "s.yaml", "--seed", "5", "--session", "s.json"],
                           input="".join(a + "\n" for a in answers))
    assert r.exit_code == 0, r.output
    assert "GM: a jet of burning gas (FD 4) hits Ana" in r.output
    assert "from a jet of burning gas (hot; an extra Dramatic Wound per 10)" in r.output
    assert "GM: sets off an explosion (FD 4)" in r.output
    with open("s.json", encoding="utf-8") as f:
        saved = json.load(f)
    assert [e["gm"] for e in saved["inputs"] if "gm" in e] == \
        ["burn Ana 4 jet", "explode ground:B2 4 1", "blast ground:A1 4"]
    again = CliRunner().invoke(cli, ["play", "--resume", "s.json"], input="quit\n")
    assert again.exit_code == 0, again.output
    with open("s.json", encoding="utf-8") as f:
        assert json.load(f)["state"]["heroes"] == saved["state"]["heroes"]


def test_a_jet_of_gas_burns_whoever_the_trigger_names(tmp_path):
    text = MINIMAL + """script:
  - name: the gas main
    when: {hero-enters: ground:D1}
    do:
      - burn: {who: "{hero}", fd: 4, by: jet}
"""
    from fuego.engine.script import When
    from fuego.scenario.model import loads

    s = loads(text).build(2)
    assert s.script is not None
    ana = s.hero("Ana")
    move(s, ana, s.building.area("ground:D1").index)
    s.script.check(s, When.PHASE)
    hit = [e for e in kinds(s, EventKind.HERO_DAMAGED) if e.data["cause"].startswith("script")]
    assert hit and hit[0].actor == "Ana" and hit[0].data["contact"] == "jet"
    bad = text.replace("{hero-enters: ground:D1}", "{round: 1}")
    from fuego.errors import ScenarioError

    with pytest.raises(ScenarioError, match="names a hero"):
        loads(bad)
