"""The fire as a character: its sheet, its state machine, its actions and its fuel (issue 4)."""

from __future__ import annotations

import statistics

import pytest
from builders import TWO_ROOMS, LoadedRoller, barrier_between, grid, scene

from fuego.engine.events import EventKind
from fuego.engine.fire import Fire, FireState, Trigger
from fuego.engine.fire_actions import ActionKind, FireAction, candidates, perform, route_paths
from fuego.engine.heroes import Hero, Status
from fuego.engine.policy import hungry
from fuego.engine.rounds import check_flashover, end_round
from fuego.engine.scene import Cause, Scene
from fuego.errors import RuleError
from fuego.rules.charts import Rank, Structure, Temperature
from fuego.rules.formulas import fire_tn
from fuego.rules.settings import FlashoverMode, Settings
from fuego.world.places import BarrierKind, Feature, RouteKind

# The fire table of 003 as the text prints it: FD -> Brawn, Finesse/Panache, Wits,
# Destruction/Spreading, Stealth, damage cold, regular, hot, TN.
TEXT_TABLE = {
    1: (1, 1, 3, 1, 3, "1k0", "1k1", "1k1", 5),
    2: (2, 1, 3, 1, 3, "2k0", "2k1", "2k2", 10),
    3: (3, 2, 2, 2, 2, "3k0", "3k2", "3k3", 15),
    4: (4, 2, 2, 2, 2, "4k1", "4k2", "4k4", 20),
    5: (5, 3, 1, 3, 1, "5k1", "5k3", "5k5", 25),
    6: (6, 3, 1, 3, 1, "6k1", "6k3", "6k6", 30),
    7: (7, 4, 1, 4, 1, "7k1", "7k4", "7k7", 35),
    8: (8, 4, 1, 4, 1, "8k2", "8k4", "8k8", 40),
    9: (9, 5, 1, 5, 1, "9k2", "9k5", "9k9", 45),
    10: (10, 5, 1, 5, 1, "10k2", "10k5", "10k10", 50),
}


@pytest.mark.parametrize("fd", range(1, 11))
def test_fire_sheet_matches_every_row_of_the_text(fd):
    brawn, finesse, wits, knack, stealth, cold, regular, hot, tn = TEXT_TABLE[fd]
    fire = Fire(1, 0, fd, 5)
    s = fire.stats
    assert (s.brawn, s.finesse, s.panache, s.wits) == (brawn, finesse, finesse, wits)
    assert (s.destruction, s.spreading, s.stealth) == (knack, knack, stealth)
    for temp, text in ((Temperature.COLD, cold), (Temperature.REGULAR, regular),
                       (Temperature.HOT, hot)):
        fire.temperature = temp
        assert fire.damage_pool().notation == text
    assert fire_tn(fd) == tn == s.tn  # the one TN formula (rules.formulas) reads the table
    # The rolls the text builds from them: Skill = (Trait + Knack) k Trait.
    assert fire.spreading_pool().notation == f"{finesse + knack}k{finesse}"
    assert fire.destruction_pool().notation == f"{brawn + knack}k{brawn}"
    assert fire.stealth_pool().notation == f"{wits + stealth}k{wits}"


def test_traits_follow_fire_dice_when_they_change():
    fire = Fire(1, 0, 2, 5)
    assert fire.panache == 1
    fire.set_dice(7)
    assert (fire.brawn, fire.panache, fire.stats.wits) == (7, 4, 1)
    fire.set_dice(99)
    assert fire.fd == 10
    with pytest.raises(RuleError):
        Fire(1, 0, 0, 5)


def test_state_machine_refuses_illegal_transitions():
    s = _kitchen()
    fire = s.start_fire(0, 3, Cause.GM, flame=True, kind=Rank.VILLAIN)
    assert fire is not None
    with pytest.raises(RuleError):
        fire.trigger(Trigger.KINDLE, s, "test")  # born once
    assert fire.trigger(Trigger.BLAZE, s, "test")
    assert (fire.state,) == (FireState.BURNING,)  # a tuple: no narrowing kept past the next call
    with pytest.raises(RuleError):
        fire.trigger(Trigger.BLAZE, s, "test")
    # heat: the state stays, the temperature is hot; once hot, heat changes nothing
    assert fire.trigger(Trigger.HEAT, s, "test")
    assert (fire.state, fire.temperature) == (FireState.BURNING, Temperature.HOT)
    assert not fire.trigger(Trigger.HEAT, s, "test")
    # the machine's conditions: not crippled, so no guttering; not spent, so not out
    fire.dramatic = fire.resolve - 1
    assert not fire.trigger(Trigger.WOUND, s) and (fire.state,) == (FireState.BURNING,)
    fire.dramatic = fire.resolve  # a Villain is crippled at Resolve ...
    assert fire.trigger(Trigger.WOUND, s)
    assert (fire.state, fire.temperature) == (FireState.GUTTERING, Temperature.HOT)
    assert not fire.explodes and not fire.damage_pool().explode
    assert not fire.spreading_pool().explode
    assert not fire.trigger(Trigger.WOUND, s)  # ... and out at twice Resolve
    fire.dramatic = 2 * fire.resolve
    assert fire.trigger(Trigger.WOUND, s)
    assert fire.state is FireState.OUT and 0 not in s.fires
    assert s.building.areas[0].burned_out
    for trigger in Trigger:
        assert not fire.may(trigger)
        with pytest.raises(RuleError):
            fire.trigger(trigger, s, "test")
    states = [(e.data["before"], e.data["after"]) for e in s.log if e.kind is EventKind.FIRE_STATE]
    assert states == [("flame", "burning"), ("burning", "guttering")]  # heat is no state
    assert [e.data["why"] for e in s.log if e.kind is EventKind.FIRE_STATE][-1] == \
        "crippled: fuel running low"
    assert [e.kind for e in s.log][-2:] == [EventKind.FIRE_OUT, EventKind.AREA_BURNED_OUT]


def test_a_henchman_fire_goes_out_at_resolve():
    s = _kitchen()
    fire = s.start_fire(0, 3, Cause.GM)
    assert fire is not None
    fire.dramatic = fire.resolve - 1
    assert not fire.trigger(Trigger.WOUND, s) and 0 in s.fires  # a Henchman never gutters
    assert fire.state is FireState.BURNING
    fire.dramatic = fire.resolve
    assert fire.trigger(Trigger.WOUND, s) and 0 not in s.fires


def test_state_changes_run_the_machines_callbacks(monkeypatch):
    # The machine resolves its callbacks by name on the fire: replacing them on the class
    # shows every change of state goes through the machine (flashover and going out here).
    calls = []
    entered, went_out, heated = Fire.entered, Fire.went_out, Fire.heated

    def spy_entered(fire, event):
        calls.append(("entered", event.event.name, fire.state))
        entered(fire, event)

    def spy_went_out(fire, event):
        calls.append(("went_out", event.event.name, fire.state))
        went_out(fire, event)

    def spy_heated(fire, event):
        calls.append(("heated", event.event.name, fire.state))
        heated(fire, event)

    monkeypatch.setattr(Fire, "entered", spy_entered)
    monkeypatch.setattr(Fire, "went_out", spy_went_out)
    monkeypatch.setattr(Fire, "heated", spy_heated)
    s = _kitchen()
    kitchen = s.building.room_areas("kitchen")
    for i in kitchen:
        s.start_fire(i, 2, Cause.GM)
    s.round = 1  # a round after they started (all-burning)
    check_flashover(s)
    assert calls == [("heated", "heat", FireState.BURNING)] * len(kitchen)
    calls.clear()
    s.extinguish(s.fires[kitchen[0]], "doused", burned_out=False)
    fire = s.fires[kitchen[1]]
    fire.dramatic = fire.resolve
    s.lifecycle(fire, Trigger.WOUND, None)
    assert calls == [("went_out", "extinguish", FireState.OUT), ("went_out", "wound", FireState.OUT)]
    assert kitchen[0] not in s.fires and kitchen[1] not in s.fires


def test_one_machine_serves_every_fire():
    a, b = Fire(1, 0, 3, 5), Fire(2, 1, 3, 5)
    assert a.machine is b.machine is Fire.machine
    assert not hasattr(a, "__dict__")  # slots: a fire is small


# -- starting fires ------------------------------------------------------------------------------
def _kitchen(**kw) -> Scene:
    b = grid([("ground", 0, ["kkkhh", "kkkhh"])], TWO_ROOMS, **kw)
    return scene(b)


def test_start_fire_merges_keeping_the_larger_dice_and_refuses_no_fuel():
    s = scene(grid([("ground", 0, ["kke"])], TWO_ROOMS))
    a1, c1 = s.building.find("A1"), s.building.find("C1")
    assert a1 is not None and c1 is not None
    first = s.start_fire(a1, 3, Cause.GM)
    assert first is not None
    again = s.start_fire(a1, 2, Cause.GM)
    assert again is first and first.fd == 3
    s.start_fire(a1, 6, Cause.GM)
    assert first.fd == 6 and len(s.fires) == 1
    assert s.start_fire(c1, 4, Cause.GM) is None  # no fuel
    assert [e.kind for e in s.log].count(EventKind.FIRE_MERGED) == 2


def test_fire_takes_resolve_from_fuel_and_oil_burns_hot():
    s = _kitchen()
    b = s.building
    b.add_feature(b.area("A1").index, Feature.OIL)
    oil = s.start_fire(b.area("A1").index, 2, Cause.GM)
    assert oil is not None
    plain = s.start_fire(b.area("D1").index, 2, Cause.GM)
    assert plain is not None
    assert oil.temperature is Temperature.HOT and plain.temperature is Temperature.REGULAR
    assert oil.resolve == 5 and plain.resolve == 3


# -- actions -------------------------------------------------------------------------------
def _act(s, fire, kind, **where):
    for a in candidates(s, fire):
        if a.kind is kind and all(getattr(a, k) == v for k, v in where.items()):
            return a
    raise AssertionError(f"no {kind} among {candidates(s, fire)}")


def test_grow_rolls_spreading_against_five_times_fire_dice():
    s = _kitchen()
    s.roller = LoadedRoller(totals=[15, 14])
    fire = s.start_fire(s.building.area("B1").index, 3, Cause.GM)
    assert fire is not None
    grow = _act(s, fire, ActionKind.GROW)
    assert grow.tn == 15
    assert perform(s, fire, grow) and fire.fd == 4
    grow = _act(s, fire, ActionKind.GROW)
    assert grow.tn == 20
    assert not perform(s, fire, grow) and fire.fd == 4
    fire.set_dice(10)
    assert all(a.kind is not ActionKind.GROW for a in candidates(s, fire))


def test_leap_tn_is_five_per_yard_and_starts_a_one_die_fire():
    s = _kitchen()
    s.roller = LoadedRoller(totals=[5, 99])
    b = s.building
    fire = s.start_fire(b.area("A1").index, 4, Cause.GM)
    assert fire is not None
    near = _act(s, fire, ActionKind.LEAP, target=b.find("B1"))
    far = _act(s, fire, ActionKind.LEAP, target=b.find("C1"))
    assert near.tn == 5  # next area: one yard
    assert far.tn == 5 * 4  # one empty area between: 10 ft = 4 yards (rounded up)
    assert perform(s, fire, near)
    assert s.fires[b.area("B1").index].fd == 1
    assert s.log[-1].data["cause"] == Cause.LEAP
    # Leaps never go through the wall into the hall.
    assert all(a.target is not None and a.target < b.area("D1").index or a.kind is not ActionKind.LEAP
               for a in candidates(s, fire) if a.target in (b.find("D1"), b.find("D2")))


def test_diagonal_neighbours_are_a_zero_foot_leap():
    # 003: "5 times the distance in yards": corners touching are 0 ft apart (one yard, as the
    # next area), not two moves; the gap is edge to edge, straight across open space.
    s = _kitchen()
    b = s.building
    fire = s.start_fire(b.area("A1").index, 4, Cause.GM)
    assert _act(s, fire, ActionKind.LEAP, target=b.find("B2")).tn == 5
    assert _act(s, fire, ActionKind.LEAP, target=b.find("C2")).tn == 5 * 4  # 10 ft across


def test_a_leap_round_a_wall_counts_its_walk():
    # Only through open space: with the wall C1|D1 standing and the door C2|D2 open, D1 is
    # three moves from C1 (not the 0 ft the map shows): 20 ft between, 7 yards.
    s = _kitchen(edges={("C2", "D2"): (BarrierKind.DOOR, Structure.WOODEN_DOOR, False)})
    b = s.building
    fire = s.start_fire(b.area("C1").index, 4, Cause.GM)
    assert _act(s, fire, ActionKind.LEAP, target=b.find("D1")).tn == 5 * 7
    assert _act(s, fire, ActionKind.LEAP, target=b.find("D2")).tn == 5  # corner, door open


def test_a_one_or_two_dice_fire_leaps_only_to_adjacent_areas():
    # 003: "A one or two dice fire can only start fires in adjacent areas" (leaps too).
    s = _kitchen()
    b = s.building
    fire = s.start_fire(b.area("A1").index, 2, Cause.GM)
    assert fire is not None
    leaps = {a.target for a in candidates(s, fire) if a.kind is ActionKind.LEAP}
    assert leaps == {b.find("B1"), b.find("A2"), b.find("B2")}  # corners touching count
    fire.set_dice(3)
    leaps = {a.target for a in candidates(s, fire) if a.kind is ActionKind.LEAP}
    assert {b.find("C1"), b.find("C2")} <= leaps


def test_failed_leap_starts_nothing():
    s = _kitchen()
    s.roller = LoadedRoller(totals=[4])
    b = s.building
    fire = s.start_fire(b.area("A1").index, 4, Cause.GM)
    assert fire is not None
    assert not perform(s, fire, _act(s, fire, ActionKind.LEAP, target=b.find("B1")))
    assert list(s.fires) == [b.find("A1")]
    assert s.log[-1].kind is EventKind.FIRE_ACTION_FAILED and s.log[-1].data["tn"] == 5


def test_vertical_leap_uses_two_per_yard():
    b = grid([("ground", 0, ["kk"]), ("upper", 1, ["kk"])], TWO_ROOMS,
             links={"ground:A1": BarrierKind.STAIRS})
    s = scene(b)
    fire = s.start_fire(b.area("ground:A1").index, 3, Cause.GM)
    assert fire is not None
    up = _act(s, fire, ActionKind.LEAP, target=b.find("upper:A1"))
    assert up.tn == 2 * 4  # 10 ft up = 4 yards
    # no leap up through the intact floor above B1
    assert not any(a.kind is ActionKind.LEAP and a.target == b.find("upper:B1")
                   and a.tn is not None and a.tn < 8 for a in candidates(s, fire))


@pytest.mark.parametrize("structure,tn", [
    (Structure.THIN_WOODEN_WALL, 5), (Structure.WOODEN_WALL, 10), (Structure.THIN_STONE_WALL, 10),
    (Structure.THICK_WOODEN_WALL, 15), (Structure.STONE_WALL, 20), (Structure.THICK_STONE_WALL, 25),
    (Structure.GLASS_WINDOW, 5), (Structure.WOODEN_DOOR, 10), (Structure.THICK_WOODEN_DOOR, 15),
])
def test_burn_through_uses_the_pass_through_table(structure, tn):
    kind = (BarrierKind.WINDOW if "window" in structure.value
            else BarrierKind.DOOR if "door" in structure.value else BarrierKind.WALL)
    s = scene(grid([("ground", 0, ["kh"])], TWO_ROOMS,
                   edges={("A1", "B1"): (kind, structure, True)}))
    s.roller = LoadedRoller(totals=[tn, tn - 1])
    b = s.building
    fire = s.start_fire(b.area("A1").index, 6, Cause.GM)
    assert fire is not None
    act = _act(s, fire, ActionKind.BURN_THROUGH)
    assert act.tn == tn and act.target == b.find("B1")
    assert perform(s, fire, act)
    new = s.fires[b.area("B1").index]
    assert new.fd == 3  # half of 6
    assert not barrier_between(b, "A1", "B1").passable  # the barrier still stands


@pytest.mark.parametrize("structure,tn", [
    (Structure.PAPER_WALL, 5), (Structure.THIN_WOODEN_WALL, 10), (Structure.WOODEN_WALL, 15),
    (Structure.THIN_STONE_WALL, 20), (Structure.THICK_WOODEN_WALL, 25), (Structure.STONE_WALL, 35),
    (Structure.THICK_STONE_WALL, 40),
])
def test_destroy_uses_the_structure_table_and_opens_the_way(structure, tn):
    s = scene(grid([("ground", 0, ["kh"])], TWO_ROOMS, wall=structure))
    b = s.building
    s.roller = LoadedRoller(totals=[tn])
    fire = s.start_fire(b.area("A1").index, 8, Cause.GM)
    assert fire is not None
    act = _act(s, fire, ActionKind.DESTROY)
    assert act.tn == tn
    assert perform(s, fire, act)
    barrier = b.between(b.area("A1").index, b.area("B1").index)
    assert barrier is not None
    assert barrier.destroyed and barrier.passable


def test_debris_threatens_both_sides_and_a_floor_drops_those_on_it():
    b = grid([("ground", 0, ["kh"]), ("upper", 1, ["kh"])], TWO_ROOMS)
    s = scene(b)
    upstairs = Hero("Ana", b.area("upper:A1").index, panache=1)
    beside = Hero("Bo", b.area("ground:B1").index, panache=1)
    s.heroes += [upstairs, beside]
    fire = s.start_fire(b.area("ground:A1").index, 5, Cause.GM)
    assert fire is not None
    # Floor above the fire: destruction 15 (wooden floor, fuego's reading).
    s.roller = LoadedRoller(totals=[15, 6, 50])  # destroy, Ana's fall, her wound check
    act = next(a for a in candidates(s, fire) if a.kind is ActionKind.DESTROY
               and a.target == b.find("upper:A1"))
    assert act.tn == 15
    perform(s, fire, act)
    assert upstairs.area == b.find("ground:A1") and upstairs.flesh == 6
    kinds = [e.kind for e in s.log]
    assert EventKind.FLOOR_COLLAPSED in kinds and EventKind.HERO_FELL in kinds
    # Now the wall between ground A1 and B1: Bo stands beside it and must avoid the debris.
    # destroy; Ana (now in ground:A1, beside the wall) avoids; Bo fails, is hit for 12, checks 30
    s.roller = LoadedRoller(totals=[15, 40, 0, 12, 30])
    wall = next(a for a in candidates(s, fire) if a.kind is ActionKind.DESTROY
                and a.target == b.find("ground:B1"))
    perform(s, fire, wall)
    assert any(e.kind is EventKind.DEBRIS and e.actor == "Bo" for e in s.log)
    assert beside.flesh == 12 and upstairs.flesh == 6


def test_the_debris_roll_is_asked_as_debris_not_as_the_fire():
    """The table words a roll by its purpose: under falling structure a hero is not told to
    avoid the fire (the same avoid roll, 003)."""
    from fuego.cli.gm_screen import purpose_words

    b = grid([("ground", 0, ["kh"])], TWO_ROOMS)
    s = scene(b)
    s.heroes.append(Hero("Bo", b.area("ground:B1").index, panache=1))
    fire = s.start_fire(b.area("ground:A1").index, 5, Cause.GM)
    assert fire is not None
    asked: list[str] = []

    def ask(hero, pool, tn, purpose: str) -> int:
        asked.append(purpose)
        return 40  # (avoided)

    s.ask_roll = ask
    s.roller = LoadedRoller(totals=[15])  # the wall's destruction; Bo's avoid roll is asked
    wall = next(a for a in candidates(s, fire) if a.kind is ActionKind.DESTROY
                and a.target == b.find("ground:B1"))
    perform(s, fire, wall)
    assert len(asked) == 1 and asked[0].startswith("avoid debris (")
    words = purpose_words(asked[0])
    assert words is not None and words[0].startswith("avoid the falling debris (Panache + ")
    fire_words = purpose_words("avoid fire (leaping)")
    assert fire_words is not None and fire_words[0].startswith("avoid the fire (Panache + Leap")


def test_a_beam_brought_down_collapses_the_floor_above():
    b = grid([("ground", 0, ["k"]), ("upper", 1, ["k"])], TWO_ROOMS)
    b.add_feature(b.area("ground:A1").index, Feature.WOODEN_BEAM)
    s = scene(b)
    s.roller = LoadedRoller(totals=[30])
    fire = s.start_fire(b.area("ground:A1").index, 9, Cause.GM)
    assert fire is not None
    act = _act(s, fire, ActionKind.DESTROY, beam=Feature.WOODEN_BEAM)
    assert act.tn == 30
    perform(s, fire, act)
    assert barrier_between(b, "ground:A1", "upper:A1").destroyed
    assert Feature.WOODEN_BEAM not in b.areas[b.area("ground:A1").index].features


def _carpet_scene():
    s = scene(grid([("ground", 0, ["kkkkk"])], TWO_ROOMS))
    b = s.building
    b.add_route(RouteKind.CARPET, [b.area(n).index for n in ("A1", "B1", "C1", "D1", "E1")])
    return s, b


def test_route_spreading_needs_no_roll_and_lights_the_way():
    s, b = _carpet_scene()
    fire = s.start_fire(b.find("A1"), 6, Cause.GM)
    act = _act(s, fire, ActionKind.SPREAD)
    assert act.tn is None and act.path[-1] == b.find("E1")
    state = s.roller.getstate()
    perform(s, fire, act)
    assert s.roller.getstate() == state  # no dice were rolled
    assert [s.fires[b.find(n)].fd for n in ("B1", "C1", "D1")] == [2, 2, 2]
    assert s.fires[b.find("E1")].fd == 3  # half of 6 at the end of the run


def test_small_fires_reach_only_the_next_area_along_a_route():
    s, b = _carpet_scene()
    fire = s.start_fire(b.find("C1"), 2, Cause.GM)
    paths = route_paths(s, fire)
    assert sorted(p[-1] for p in paths) == [b.find("B1"), b.find("D1")]
    assert all(len(p) == 1 for p in paths)
    perform(s, fire, FireAction(ActionKind.SPREAD, path=(b.find("D1"),), target=b.find("D1")))
    assert s.fires[b.find("D1")].fd == 1


def test_routes_stop_at_a_closed_door():
    s = scene(grid([("ground", 0, ["kkhh"])], TWO_ROOMS,
                   edges={("B1", "C1"): (BarrierKind.DOOR, Structure.WOODEN_DOOR, True)}))
    b = s.building
    b.add_route(RouteKind.CARPET, [b.area(n).index for n in ("A1", "B1", "C1", "D1")])
    fire = s.start_fire(b.area("A1").index, 6, Cause.GM)
    assert fire is not None
    assert [p[-1] for p in route_paths(s, fire)] == [b.find("B1")]
    b.open_barrier(barrier_between(b, "B1", "C1"))
    assert [p[-1] for p in route_paths(s, fire)] == [b.find("D1")]


def test_hungry_policy_prefers_a_route_then_fuel_then_growing():
    s, b = _carpet_scene()
    fire = s.start_fire(b.area("A1").index, 3, Cause.GM)
    assert fire is not None
    choice = hungry(s, fire)
    assert choice is not None and choice.kind is ActionKind.SPREAD
    boxed = scene(grid([("ground", 0, ["kee"])], TWO_ROOMS))
    lone = boxed.start_fire(boxed.building.area("A1").index, 3, Cause.GM)
    assert lone is not None
    choice = hungry(boxed, lone)
    assert choice is not None and choice.kind is ActionKind.GROW


# -- fuel -----------------------------------------------------------------------------------
def _rounds_to_burn_out(fuel: int, seed: int) -> int:
    s = scene(grid([("ground", 0, ["k"])], {"k": {"key": "kitchen", "fuel": fuel}}), seed=seed,
              smoke=False)
    s.start_fire(0, 3, Cause.GM)
    while s.fires and s.round < 200:
        s.round += 1
        end_round(s)
    return s.round


def test_small_fuel_goes_out_fast_and_beams_last_much_longer():
    paper = [_rounds_to_burn_out(1, seed) for seed in range(150)]
    beams = [_rounds_to_burn_out(9, seed) for seed in range(150)]
    assert max(paper) <= 4 and statistics.mean(paper) <= 2
    assert statistics.mean(beams) >= 4 * statistics.mean(paper)
    assert statistics.median(beams) > max(paper)


def test_burned_out_area_cannot_burn_again():
    s = scene(grid([("ground", 0, ["k"])], {"k": {"key": "kitchen", "fuel": 1}}), smoke=False)
    fire = s.start_fire(0, 3, Cause.GM)
    assert fire is not None
    s.extinguish(fire, "test", burned_out=True)
    assert s.building.areas[0].burned_out and s.building.areas[0].fuel == 0
    assert s.start_fire(0, 3, Cause.GM) is None


def test_villain_fire_gutters_before_it_goes_out():
    s = scene(grid([("ground", 0, ["k"])], {"k": {"key": "kitchen", "fuel": 2}}), smoke=False)
    fire = s.start_fire(0, 6, Cause.GM, kind=Rank.VILLAIN)
    assert fire is not None
    states = []
    while s.fires:
        s.round += 1
        end_round(s)
        states.append(fire.state)
    assert FireState.GUTTERING in states and states[-1] is FireState.OUT
    assert fire.dramatic >= 2 * fire.resolve


# -- flashover -------------------------------------------------------------------------------
def test_flashover_turns_an_enclosed_room_hot_when_all_of_it_burns():
    s = _kitchen()
    b = s.building
    kitchen = b.room_areas("kitchen")
    for i in kitchen[:-1]:
        s.start_fire(i, 2, Cause.GM)
    s.round = 1
    check_flashover(s)
    assert "kitchen" not in s.flashed
    s.start_fire(kitchen[-1], 2, Cause.GM)
    check_flashover(s)
    assert "kitchen" not in s.flashed  # the last fire started this round
    s.round = 2
    check_flashover(s)
    assert "kitchen" in s.flashed
    assert all(f.temperature is Temperature.HOT and f.state is FireState.BURNING
               for f in s.room_fires("kitchen"))
    # a fire started later in a flashed room starts hot
    late = s.start_fire(b.area("D1").index, 2, Cause.GM)
    assert late is not None
    assert late.temperature is Temperature.REGULAR


def test_flashover_setting_off_and_dice_mode():
    s = Scene(grid([("ground", 0, ["kk"])], TWO_ROOMS), Settings(flashover=FlashoverMode.OFF))
    for i in (0, 1):
        s.start_fire(i, 5, Cause.GM)
    check_flashover(s)
    assert not s.flashed
    s.settings.flashover = FlashoverMode.DICE
    s.settings.flashover_dice_per_area = 6
    check_flashover(s)
    assert not s.flashed
    s.fires[0].set_dice(7)
    check_flashover(s)
    assert s.flashed == {"kitchen"}


def test_heroes_do_not_escape_from_inside():
    s = _kitchen()
    hero = Hero("Ana", s.building.area("A1").index)
    s.heroes.append(hero)
    assert hero.status is Status.ACTIVE
