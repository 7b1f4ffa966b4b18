"""fuego.render.narrate: every event kind in game language, the stream narrator, the summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import make_building, room, two_room_scene

from fuego.engine import loop
from fuego.engine.controllers import AutoController
from fuego.engine.events import END_PHASE, START_PHASE, Event, EventKind
from fuego.engine.heroes import Hero
from fuego.render.narrate import Narrator
from fuego.render.phrases import QUIET_KINDS, narrate
from fuego.render.summary import summarize

K = EventKind
ROOT = Path(__file__).resolve().parent.parent


def ev(kind: EventKind, rnd: int = 3, phase: int = 4, actor=None, area=None, /, **data) -> Event:
    return Event(kind, rnd, phase, actor, area, data)


# One event of every kind, with the data the engine emits (docs/events.md).
SAMPLES: dict[EventKind, Event] = {
    K.SCENE_START: ev(K.SCENE_START, 0, START_PHASE, title="The Tavern", seed=7, fires=1,
                      heroes=["Isabela", "Diego"], format=2,
                      starts={"Isabela": "ground:A1", "Diego": "ground:B1"}),
    K.ROUND_START: ev(K.ROUND_START, 3, START_PHASE, fires=7, heroes=2),
    K.ACTION_DICE: ev(K.ACTION_DICE, 3, START_PHASE, heroes={"Isabela": [1, 6, 7]},
                      fire_actions=9),
    K.ROUND_END: ev(K.ROUND_END, 3, END_PHASE, fires=7, fire_dice=19,
                    heroes={"Isabela": ["active", 12, 1]}),
    K.SCENE_END: ev(K.SCENE_END, 23, END_PHASE, rounds=23, why="fire-out", burning=0, burned_out=18,
                    heroes={"Isabela": "escaped"}),
    K.FIRE_STARTED: ev(K.FIRE_STARTED, 2, 4, "fire@ground:A1", "ground:A1", fd=1, cause="leap",
                       source="fire@ground:A2", temperature="regular", fire_kind="henchman",
                       resolve=5, state="burning"),
    K.FIRE_MERGED: ev(K.FIRE_MERGED, 2, 4, "fire@ground:B2", "ground:B2", fd=3, cause="leap",
                      source="fire@ground:A2", grew=True),
    K.FIRE_GREW: ev(K.FIRE_GREW, 2, 7, "fire@ground:A2", "ground:A2", fd=4, before=3,
                    why="grow", pool="4k2", tn=15, total=20, success=True),
    K.FIRE_SHRANK: ev(K.FIRE_SHRANK, 2, 7, "fire@ground:A2", "ground:A2", fd=2, before=3,
                      why="smothered by Isabela"),
    K.FIRE_SPREAD: ev(K.FIRE_SPREAD, 2, 5, "fire@ground:A2", "ground:A2", to="ground:C2",
                      path=["ground:B2", "ground:C2"], fd=2),
    K.FIRE_LEAPT: ev(K.FIRE_LEAPT, 1, 2, "fire@ground:A2", "ground:A2", to="ground:A1",
                     pool="4k2", tn=5, total=10, success=True),
    K.FIRE_BURNED_THROUGH: ev(K.FIRE_BURNED_THROUGH, 3, 4, "fire@ground:C2", "ground:C2",
                              to="ground:D2", barrier="closed wooden-door", pool="6k3", tn=10,
                              total=23, success=True),
    K.FIRE_ACTION_FAILED: ev(K.FIRE_ACTION_FAILED, 3, 2, "fire@ground:A2", "ground:A2",
                             action="leap", target="ground:C3", pool="4k2", tn=15, total=11,
                             success=False),
    K.FIRE_HELD: ev(K.FIRE_HELD, 3, 2, "fire@ground:A2", "ground:A2"),
    K.STRUCTURE_DESTROYED: ev(K.STRUCTURE_DESTROYED, 5, 4, "fire@ground:C1", "ground:C1",
                              structure="wooden-wall", barrier="ground:C1|ground:D1",
                              pool="4k2", tn=15, total=19, success=True),
    K.FIRE_FUEL_CHECK: ev(K.FIRE_FUEL_CHECK, 3, END_PHASE, "fire@ground:A2", "ground:A2",
                          damage=20, damage_pool="5k3", flesh=20, pool="5k5", total=19,
                          success=False, dramatic=1, resolve=5),
    K.FIRE_STATE: ev(K.FIRE_STATE, 6, END_PHASE, "fire@ground:A2", "ground:A2",
                     trigger="gutter", before="burning", after="guttering",
                     why="crippled: fuel running low"),
    K.FIRE_OUT: ev(K.FIRE_OUT, 6, END_PHASE, "fire@ground:A2", "ground:A2",
                   reason="fuel spent", burned_out=True),
    K.FLASHOVER: ev(K.FLASHOVER, 4, END_PHASE, room="kitchen", fires=9),
    K.AREA_BURNED_OUT: ev(K.AREA_BURNED_OUT, 6, END_PHASE, None, "ground:A2"),
    K.FIRE_SPOTTED: ev(K.FIRE_SPOTTED, 2, 3, "Isabela", "ground:E2", pool="4k2", tn=8,
                       total=12, success=True, unseen="thick-smoke", feet=15.0),
    K.FIRE_HIDDEN: ev(K.FIRE_HIDDEN, 2, 3, "Isabela", "ground:E2", pool="4k2", tn=14,
                      total=12, success=False, unseen="closed-door"),
    K.BARRIER_OPENED: ev(K.BARRIER_OPENED, 2, 3, "Isabela", "ground:C2",
                         barrier="ground:C2|ground:D2", what="open wooden-door"),
    K.BARRIER_CLOSED: ev(K.BARRIER_CLOSED, 2, 5, "Isabela", "ground:D2",
                         barrier="ground:C2|ground:D2", what="closed wooden-door"),
    K.FLOOR_COLLAPSED: ev(K.FLOOR_COLLAPSED, 7, 6, "fire@upper:B2", "upper:B2",
                          below="ground:B2"),
    K.HERO_ACTION: ev(K.HERO_ACTION, 2, 5, "Isabela", "ground:C2", action="roll",
                      purpose="smother fire", pool="5k3", tn=10, total=14, success=True,
                      target="ground:C3"),
    K.ACTION_SKIPPED: ev(K.ACTION_SKIPPED, 2, 4, "Isabela", "ground:C2",
                         action="open shop door", where="actions.Isabela.2[0]",
                         why="Isabela cannot 'open shop door' now",
                         tip="legal now: move ground:C3, wait"),
    K.HERO_MOVED: ev(K.HERO_MOVED, 1, 1, "Isabela", "ground:B1", frm="ground:A1", why="move"),
    K.HERO_AVOIDED: ev(K.HERO_AVOIDED, 2, 6, "Isabela", "ground:B2", pool="5k3", tn=15,
                       total=8, success=False, knack="sprinting"),
    K.HERO_DAMAGED: ev(K.HERO_DAMAGED, 2, END_PHASE, "Isabela", "ground:B2", pool="5k3",
                       damage=14, flesh=14, fd=5, temperature="regular", exposure="fleeting",
                       cause="standing in fire"),
    K.WOUND_CHECK: ev(K.WOUND_CHECK, 2, END_PHASE, "Isabela", "ground:B2", pool="3k3", tn=14,
                      total=11, success=False, dramatic=1, step=20),
    K.CLOTHES_CAUGHT: ev(K.CLOTHES_CAUGHT, 2, END_PHASE, "Isabela", "ground:B2", pool="3k3",
                         tn=25, total=12, fd=2),
    K.CLOTHES_OUT: ev(K.CLOTHES_OUT, 3, 2, "Isabela", "ground:B2", by="Diego"),
    K.OIL_CLINGS: ev(K.OIL_CLINGS, 2, 4, "Isabela", "ground:B2", fd=2, cause="moved into fire"),
    K.FIRE_RESISTED: ev(K.FIRE_RESISTED, 2, END_PHASE, "Salamander", "ground:B2", fd=5,
                        cause="standing in fire", contact="standing"),
    K.EXPLOSION: ev(K.EXPLOSION, 3, 5, None, "cellar:C3", fd=8, radius=1, tn=40, rule="fire",
                    areas=["cellar:C3", "cellar:C2"], broken=["cellar:C2|ground:C2"],
                    caught=["Diego"], why="the explosion", cue="the vault"),
    K.HERO_KNOCKED_OUT: ev(K.HERO_KNOCKED_OUT, 5, END_PHASE, "Diego", "ground:B3",
                           cause="standing in fire", dramatic=4),
    K.HERO_CRIPPLED: ev(K.HERO_CRIPPLED, 4, END_PHASE, "Diego", "ground:B3", dramatic=2),
    K.HERO_DIED: ev(K.HERO_DIED, 6, END_PHASE, "Diego", "ground:B3", cause="standing in fire",
                    dramatic=5),
    K.HERO_ESCAPED: ev(K.HERO_ESCAPED, 3, 5, "Isabela", "ground:G2"),
    K.CONFUSION_CHECK: ev(K.CONFUSION_CHECK, 4, END_PHASE, "Diego", "ground:B3", pool="2k2",
                          tn=15, total=17, success=True, rounds=3),
    K.HERO_CONFUSED: ev(K.HERO_CONFUSED, 4, END_PHASE, "Diego", "ground:B3", pool="2k2",
                        tn=15, total=7, rounds=3),
    K.HERO_UNCONFUSED: ev(K.HERO_UNCONFUSED, 5, END_PHASE, "Diego", "ground:D2"),
    K.HERO_BREATH: ev(K.HERO_BREATH, 4, END_PHASE, "Diego", "ground:B3", breath=1, limit=2),
    K.HERO_SUFFOCATING: ev(K.HERO_SUFFOCATING, 6, END_PHASE, "Diego", "ground:B3", pool="2k2",
                           tn=5, total=4, success=False, breath=3),
    K.HERO_FELL: ev(K.HERO_FELL, 7, 6, "Isabela", "ground:B2", feet=10, pool="2k1", damage=7,
                    flesh=7),
    K.DEBRIS: ev(K.DEBRIS, 7, 6, "Isabela", "ground:C1", what="wooden-wall", fd=3),
    K.SMOKE: ev(K.SMOKE, 2, END_PHASE, thin=7, thick=2, rooms=["hall", "kitchen"], cleared=0),
    K.SMOKE_CLEARED: ev(K.SMOKE_CLEARED, 23, END_PHASE),
    K.SCRIPT: ev(K.SCRIPT, 3, START_PHASE, text="The cellar door bursts open."),
    K.READ_ALOUD: ev(K.READ_ALOUD, 1, START_PHASE, text="Smoke curls under the kitchen door."),
    K.GM: ev(K.GM, 3, 5, "GM", "ground:C3", action="start-fire", fd=4),
    K.WEATHER: ev(K.WEATHER, 1, START_PHASE, text="rain"),
    K.WIND: ev(K.WIND, 2, START_PHASE, strength="strong", direction="north"),
    K.MODULE: ev(K.MODULE, 2, END_PHASE, module="flame-and-blaze", message="the flame blazes"),
    K.ROLL: ev(K.ROLL, 2, 4, "Isabela", None, purpose="climb", pool="4k2", tn=15, total=17,
               success=True),
}


def test_every_kind_has_a_sample():
    assert set(SAMPLES) == set(EventKind), "add a sample for the new kind (and to docs/events.md)"


@pytest.mark.parametrize("kind", list(EventKind), ids=lambda k: k.value)
def test_each_kind_narrates_or_is_quiet(kind):
    e = SAMPLES[kind]
    text = narrate(e)
    assert text is None or (isinstance(text, str) and text.strip() and "\n" not in text)
    if kind in QUIET_KINDS:
        assert text is None
    loud = narrate(e, verbose=True)
    assert isinstance(loud, str) and loud.strip() and "\n" not in loud
    # data the narration reads never comes out as a Python repr
    assert "None" not in loud and "{" not in loud and "[" not in loud


@pytest.mark.parametrize("kind", list(EventKind), ids=lambda k: k.value)
@pytest.mark.parametrize("verbose", [False, True])
def test_bare_events_do_not_crash(kind, verbose):
    """An event with no data (an older log, a module's own event) still narrates."""
    for e in (Event(kind, 1, 5), Event(kind, 0, 0, "Someone", "ground:A1"),
              Event(kind, 2, 11, "fire@ground:B2", "ground:B2")):
        text = narrate(e, verbose=verbose)
        assert text is None or isinstance(text, str)


def test_samples_through_json_give_the_same_text():
    for e in SAMPLES.values():
        back = Event.from_dict(json.loads(e.to_json()))
        assert narrate(back, verbose=True) == narrate(e, verbose=True)


# -- the wording of the important lines ------------------------------------------------------------
def test_burn_through_line():
    e = SAMPLES[K.FIRE_BURNED_THROUGH]
    assert narrate(e, fd=5) == ("Phase 4: the fire in ground:C2 (FD 5) burns through the wooden "
                                "door to ground:D2: rolled 23 vs TN 10")
    assert narrate(e) == ("Phase 4: the fire in ground:C2 burns through the wooden door to "
                          "ground:D2: rolled 23 vs TN 10")


def test_scene_end_line_says_why():
    assert narrate(SAMPLES[K.SCENE_END]) == (
        "The scene ends after 23 rounds (the fire is out): nothing burns, 18 areas burned out; "
        "Isabela escaped")
    e = ev(K.SCENE_END, 30, END_PHASE, rounds=30, why="round-limit", burning=2, burned_out=4,
           heroes={})
    assert narrate(e) == ("The scene ends after 30 rounds (the round limit): still 2 fires "
                          "burning, 4 areas burned out")
    older = ev(K.SCENE_END, 5, END_PHASE, rounds=5, burning=0, burned_out=1, heroes={})
    assert narrate(older) == "The scene ends after 5 rounds: nothing burns, 1 area burned out"
    # none: in words, as the other counts of the line ("0 areas burned out" read as a blank)
    early = ev(K.SCENE_END, 1, END_PHASE, rounds=1, why="gm-ended", burning=3, burned_out=0,
               heroes={})
    assert narrate(early) == ("The scene ends after 1 round (the GM ended it): still 3 fires "
                              "burning, no area burned out")
    # ended by the GM before any round: not "after 0 rounds"
    at_once = ev(K.SCENE_END, 0, END_PHASE, rounds=0, why="gm-ended", burning=1, burned_out=0,
                 heroes={})
    assert (narrate(at_once) or "").startswith("The scene ends before round 1 (the GM ended it): ")


def test_round_end_line():
    assert narrate(SAMPLES[K.ROUND_END]) == (
        "Round 3 ends: 7 fires (19 Fire Dice); Isabela 12 Flesh Wounds, 1 Dramatic Wound")
    e = ev(K.ROUND_END, 9, END_PHASE, fires=0, fire_dice=0,
           heroes={"Isabela": ["escaped", 0, 0], "Diego": ["knocked-out", 3, 4]})
    assert narrate(e) == ("Round 9 ends: no fire left; Isabela (escaped) unhurt; "
                          "Diego (knocked out) 3 Flesh Wounds, 4 Dramatic Wounds")


def test_damage_and_wound_check_join_in_the_stream():
    n = Narrator()
    assert n.feed(SAMPLES[K.HERO_DAMAGED]) == []  # held for the wound check
    assert n.feed(SAMPLES[K.WOUND_CHECK]) == [
        "Isabela takes 14 fire damage standing in the fire "
        "(wound check 11 vs TN 14: failed, 1 Dramatic Wound)"]
    # damage without a wound check after it comes out with the next event, or at the flush
    n.feed(SAMPLES[K.HERO_DAMAGED])
    lines = n.feed(SAMPLES[K.HERO_CRIPPLED])
    assert lines == ["Isabela takes 14 fire damage standing in the fire",
                     "Diego is crippled (2 Dramatic Wounds)"]
    n.feed(SAMPLES[K.HERO_DAMAGED])
    assert n.flush() == ["Isabela takes 14 fire damage standing in the fire"]
    assert n.flush() == []


def test_narrator_follows_fire_dice():
    n = Narrator()
    n.feed(ev(K.FIRE_STARTED, 0, 0, "fire@ground:C2", "ground:C2", fd=4, cause="start"))
    n.feed(ev(K.FIRE_GREW, 2, 3, "fire@ground:C2", "ground:C2", fd=5, before=4, why="grow",
              pool="6k3", tn=20, total=22, success=True))
    assert n.feed(SAMPLES[K.FIRE_BURNED_THROUGH]) == [
        "Phase 4: the fire in ground:C2 (FD 5) burns through the wooden door to ground:D2: "
        "rolled 23 vs TN 10"]
    n.feed(ev(K.FIRE_OUT, 4, END_PHASE, "fire@ground:C2", "ground:C2", reason="fuel spent",
              burned_out=True))
    assert "ground:C2" not in n.fire_dice


def told(e: Event, **kw: Any) -> str:
    """The phrase of an event that is not quiet."""
    line = narrate(e, **kw)
    assert line is not None, f"{e.kind} said nothing"
    return line


def test_quiet_and_verbose():
    ok = ev(K.FIRE_FUEL_CHECK, 3, END_PHASE, "fire@ground:A2", "ground:A2", damage=5, flesh=9,
            total=30, success=True, dramatic=0, resolve=5)
    assert narrate(ok) is None
    assert "passed" in told(ok, verbose=True)
    assert "failed" in told(SAMPLES[K.FIRE_FUEL_CHECK])
    assert narrate(SAMPLES[K.ACTION_DICE]) is None
    assert narrate(SAMPLES[K.ACTION_DICE], verbose=True) == (
        "Action dice: Isabela 1, 6, 7; the fires have 9 actions")
    idle = ev(K.ACTION_DICE, 3, START_PHASE, heroes={"Isabela": [1]}, fire_actions=0)
    assert narrate(idle, verbose=True) == "Action dice: Isabela 1; the fires have no action"
    move = ev(K.HERO_ACTION, 1, 1, "Isabela", "ground:A1", action="move ground:B1")
    assert narrate(move) is None
    assert narrate(move, verbose=True) == "Phase 1: Isabela acts: move ground:B1"


def test_phase_prefix_only_inside_the_phases():
    assert told(SAMPLES[K.FIRE_LEAPT]).startswith("Phase 2: the fire in ground:A2 leaps")
    assert narrate(SAMPLES[K.FIRE_OUT]) == "The fire in ground:A2 burns out: its fuel is spent"
    # the count is of every character acting, NPCs too: not "2 heroes" (one may be the GM's)
    assert narrate(SAMPLES[K.ROUND_START]) == "Round 3 begins: 7 fires burning, 2 characters in play"
    one = ev(K.ROUND_START, 4, START_PHASE, fires=1, heroes=1)
    assert narrate(one) == "Round 4 begins: 1 fire burning, 1 character in play"
    none = ev(K.ROUND_START, 5, START_PHASE, fires=1, heroes=0)
    assert narrate(none) == "Round 5 begins: 1 fire burning, no character in play"


def test_room_names_from_the_building():
    b = make_building(["kkhs"], {"k": room("kitchen", "Kitchen", fuel=5),
                                 "h": room("hall", "Hall", fuel=3),
                                 "s": room("street", "Street", outdoors=True)},
                      doors={("B1", "C1"): True})
    e = ev(K.FIRE_BURNED_THROUGH, 3, 4, "fire@ground:B1", "ground:B1", to="ground:C1",
           barrier="closed wooden-door", pool="6k3", tn=10, total=23, success=True)
    assert narrate(e, building=b, fd=5) == (
        "Phase 4: the fire in ground:B1 (Kitchen, FD 5) burns through the wooden door to "
        "ground:C1 (Hall): rolled 23 vs TN 10")
    moved = ev(K.HERO_MOVED, 1, 1, "Isabela", "ground:B1", frm="ground:A1", why="move")
    # the room is named once when both areas lie in it
    assert narrate(moved, building=b) == "Phase 1: Isabela moves from ground:A1 (Kitchen) to ground:B1"
    assert narrate(SAMPLES[K.FLASHOVER], building=b) == (
        "Flashover! The Kitchen flashes over: 9 fires there burn hot")
    assert "Hall and Kitchen" in told(SAMPLES[K.SMOKE], building=b)
    # an area the building does not know keeps its bare name
    assert narrate(SAMPLES[K.HERO_ESCAPED], building=b) == "Phase 5: Isabela gets out at ground:G2"


def test_gm_overrides():
    assert narrate(SAMPLES[K.GM]) == "Phase 5: GM: starts a fire in ground:C3 (FD 4)"
    e = ev(K.GM, 3, 5, "GM", "ground:C2", action="open-barrier", barrier="ground:C2|ground:D2")
    assert narrate(e) == "Phase 5: GM: opens the barrier between ground:C2 and ground:D2"
    e = ev(K.GM, 3, 5, "GM", "ground:C2", action="set-fire-dice", fd=0)
    assert narrate(e) == "Phase 5: GM: puts out the fire in ground:C2"


def test_the_gm_and_the_script_said_as_a_table_says_them():
    """The words a GM noticed at the table: a door with its article (not "closes wardroom
    door"), a door by its name before its kind, the GM with "the", a fire's cause not the
    code's word ("gm"), one hero not "heroes", an actor not named twice, an explosion in
    lower case after its phase."""
    b = make_building(["kkhs"], {"k": room("kitchen", "Kitchen", fuel=5),
                                 "h": room("hall", "Hall", fuel=3),
                                 "s": room("street", "Street", outdoors=True)},
                      doors={("B1", "C1"): True})
    gm = ev(K.GM, 3, 5, "GM", "ground:B1", action="close-barrier", barrier="kitchen door")
    assert narrate(gm, building=b) == "Phase 5: GM: closes the kitchen door"
    own = ev(K.GM, 3, 5, "GM", "ground:B1", action="open-barrier", barrier="Ruiz's door")
    assert narrate(own, building=b) == "Phase 5: GM: opens Ruiz's door"
    shut = ev(K.BARRIER_CLOSED, 3, 5, "GM", "ground:B1", barrier="kitchen door",
              what="closed wooden-door")
    assert narrate(shut, building=b) == (
        "Phase 5: the GM closes the kitchen door (wooden door) by ground:B1 (Kitchen)")
    before = ev(K.BARRIER_OPENED, 0, 0, "GM", "ground:B1", barrier="kitchen door",
                what="closed wooden-door")
    assert narrate(before, building=b) == (
        "The GM opens the kitchen door (wooden door) by ground:B1 (Kitchen)")
    lit = ev(K.FIRE_STARTED, 3, 5, None, "ground:B1", fd=2, cause="gm", temperature="hot")
    assert narrate(lit, building=b) == (
        "Phase 5: ground:B1 (Kitchen) catches fire (FD 2, hot, set by the GM)")
    scripted = ev(K.FIRE_STARTED, 3, 5, None, "ground:B1", fd=2, cause="script")
    assert narrate(scripted, building=b) == (
        "Phase 5: ground:B1 (Kitchen) catches fire (FD 2, set by the script)")
    one = ev(K.SCENE_START, 0, 0, None, None, title="The Shop", fires=1, heroes=["Tomas"],
             starts={"Tomas": "ground:B1"})
    assert narrate(one) == "The Shop begins: 1 fire burning; hero Tomas at ground:B1"
    # the GM's characters apart from the players' heroes (they were all called heroes)
    cast = ev(K.SCENE_START, 0, 0, None, None, title="The Goose", fires=1,
              heroes=["Isabela", "Hettie", "Bjorn"], npcs=["Hettie"],
              starts={"Isabela": "ground:F4", "Hettie": "ground:D1", "Bjorn": "cellar:C3"})
    assert narrate(cast) == ("The Goose begins: 1 fire burning; heroes Isabela at ground:F4 and "
                             "Bjorn at cellar:C3; NPC Hettie at ground:D1")
    alone = ev(K.SCENE_START, 0, 0, None, None, title="The Goose", fires=0, heroes=["Hettie"],
               npcs=["Hettie"])
    assert narrate(alone) == "The Goose begins: no fire burning; no heroes; NPC Hettie"
    cue = ev(K.SCRIPT, 2, 0, "Pip", "hold:G2", text="Pip appears in hold:G2")
    assert narrate(cue) == "Script: Pip appears in hold:G2"
    other = ev(K.SCRIPT, 2, 0, "the crew", None, text="Axes thud overhead")
    assert narrate(other) == "Script (the crew): Axes thud overhead"
    boom = ev(K.EXPLOSION, 3, 2, None, "ground:B1", fd=8, areas=["ground:B1"], broken=[],
              caught=[])
    assert narrate(boom, building=b) == (
        "Phase 2: the explosion (FD 8) reaches 1 area around ground:B1 (Kitchen)")


def test_the_gms_reveal_names_the_whole_map_and_a_room_as_said():
    # (an outdoor village read "shows the players the whole building")
    from fuego.scenario.model import load

    b = load(ROOT / "campaigns" / "village.yaml").build(1).building

    def gm(verb: str, **data: Any) -> str | None:
        return narrate(ev(K.GM, 3, 5, "GM", None, action=verb, **data), building=b)

    assert gm("reveal", what="all") == "Phase 5: GM: shows the players the whole map"
    assert gm("reveal", what="room", name="field") == (
        "Phase 5: GM: shows the players the Wheat Field")
    assert gm("hide", what="room", name="lane") == (
        "Phase 5: GM: takes back the players' view of The Lane")


# -- a whole scene ---------------------------------------------------------------------------------
def _played(seed: int, rounds: int | None = None):
    return _played_with_outcome(seed, rounds)[0]


def _played_with_outcome(seed: int, rounds: int | None = None):
    scene = two_room_scene(seed)
    b = scene.building
    scene.heroes.append(Hero("Diego", b.area("B3").index, brawn=2, resolve=2, panache=2))
    scene.heroes.append(Hero("Ana", b.area("A3").index, brawn=1, resolve=1, panache=1))
    return scene, loop.run(scene, AutoController(), rounds=rounds)


@pytest.mark.parametrize("verbose", [False, True])
def test_a_played_scene_narrates_deterministically(verbose):
    scene = _played(3)
    lines = Narrator(verbose=verbose, building=scene.building).narrate_all(scene.log)
    again = Narrator(verbose=verbose, building=scene.building).narrate_all(_played(3).log)
    assert lines == again
    assert all(isinstance(x, str) and x for x in lines)
    assert any(x.startswith("Round 1 begins") for x in lines)
    if verbose:
        assert len(lines) >= len(scene.log) - sum(
            1 for e in scene.log if e.kind in (K.WOUND_CHECK,))


def test_a_played_scene_log_reads_back():
    """No event's data may shadow a common key (kind, round, phase, actor, area)."""
    for e in _played(3).log:
        assert Event.from_dict(json.loads(e.to_json())) == e, e


def test_summary_of_a_finished_scene():
    scene, outcome = _played_with_outcome(7)
    assert outcome == loop.Outcome(loop.Ending.FIRE_OUT, scene.round, 0)
    text = "\n".join(summarize(scene, outcome))
    assert text.startswith("Summary: two rooms and a street (seed 7)")
    assert f"Rounds played: {scene.round} (ended: the fire is out); the last fire went out in " \
           "round" in text
    # of the rooms that could burn: the street has no fuel (it said "2 of 3")
    assert "Rooms burned: 2 of 2 that could burn, first to last" in text
    assert "\n  Kitchen: 9 of 9 areas, alight from the start" in text
    for hero in scene.heroes:
        assert f"  {hero.name}: " in text
    assert "Got out:" in text


def test_summary_of_a_scene_stopped_at_the_limit():
    scene, outcome = _played_with_outcome(7, rounds=2)
    assert outcome.why is loop.Ending.ROUND_LIMIT and outcome.round == 2
    text = "\n".join(summarize(scene, outcome))
    assert "Rounds played: 2 (ended: the round limit); still burning: " in text
    assert "still burning at the stop" in "\n".join(summarize(scene))  # stopped, no outcome
    assert "still inside" in text or "got out" in text


def test_summary_leaves_out_the_counts_that_are_none():
    """Two rounds: nothing has burned out yet, and nothing was put out (it read '(0 burned
    out, 9 still burning)')."""
    scene, outcome = _played_with_outcome(7, rounds=2)
    line = next(x for x in summarize(scene, outcome) if x.startswith("Areas burned:"))
    assert not any(a.burned_out for a in scene.building.areas)
    n = len(scene.fires)
    assert line.endswith(f"that could burn ({n} still burning)"), line
    nothing = two_room_scene(7, fires={})
    assert "Areas burned: none of 18 that could burn\nRooms burned: none of 2 that could burn\n" \
        in "\n".join(summarize(nothing))


def test_docs_name_every_kind():
    doc = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    missing = [k.value for k in EventKind if f"`{k.value}`" not in doc]
    assert not missing, f"docs/events.md does not describe: {missing}"


def test_script_cues_and_effects():
    cue = ev(K.SCRIPT, 2, 11, None, "ground:B2", cue="lamp-falls", text="cue: lamp-falls", times=1)
    assert narrate(cue) is None
    assert narrate(cue, verbose=True) == "Script: cue lamp-falls fires"
    said = ev(K.READ_ALOUD, 2, 11, None, "ground:B2", cue="lamp-falls",
              text="The lamp crashes to the floor.")
    assert narrate(said) == 'Read aloud: "The lamp crashes to the floor."'
    wind = ev(K.WIND, 3, 0, cue="gust", text="The wind rises to strong from the N",
              strength="strong", direction="N")
    assert narrate(wind) == "The wind rises to strong from the N"


def test_a_fire_a_module_starts_says_what_started_it():
    carried = ev(K.FIRE_STARTED, 4, END_PHASE, "fire@ground:F3", "ground:F3", fd=1,
                 cause="module", source="fire@ground:E3", temperature="regular",
                 fire_kind="henchman", resolve=2, state="burning", module="wind",
                 why="heavy winds carry the fire downwind")
    assert narrate(carried) == \
        "ground:F3 catches fire (FD 1, heavy winds carry the fire downwind)"
    bare = Event(carried.kind, 4, END_PHASE, carried.actor, carried.area,
                 {k: v for k, v in carried.data.items() if k != "why"})
    assert narrate(bare) == "ground:F3 catches fire (FD 1, wind)"  # was "(FD 1, module)"


def test_a_scene_ended_with_heroes_in_play_says_so_in_words():
    end = ev(K.SCENE_END, 1, END_PHASE, rounds=1, why="gm-ended", burning=4, burned_out=0,
             heroes={"Isabela": "active", "Bjorn": "knocked-out", "Ana": "escaped"})
    said = narrate(end)
    assert said is not None
    assert said.endswith("; Isabela still in play, Bjorn knocked out, Ana escaped")


@pytest.mark.parametrize(("actor", "said"), [
    ("fire@ground:A1", "the fire in ground:A1 brings down the wooden floor between"),
    ("the crew's axes", "the wooden floor between ground:A1 and upper:A1 is brought down by "
                        "the crew's axes"),  # it said "the crew's axes brings down"
    ("GM", "is brought down by the GM"),
    (None, "the wooden floor between ground:A1 and upper:A1 comes down"),
])
def test_what_brings_down_a_barrier_reads_right_whoever_it_is(actor, said):
    text = narrate(ev(K.STRUCTURE_DESTROYED, 4, 3, actor, "ground:A1",
                      structure="wooden-floor", barrier="ground:A1|upper:A1"))
    assert text is not None and said in text
