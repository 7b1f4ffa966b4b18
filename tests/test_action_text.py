"""A hero action's one text form and its exact inverse (``HeroAction.text``/``from_text``), the
table's shorthand read against what the hero may do (``read_action``), old saves, and the one
roll description (``action_roll``) that both the odds shown and the roll made consume."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path

import pytest
from builders import TWO_ROOMS, LoadedRoller, grid, scene
from hypothesis import given
from hypothesis import strategies as st

from fuego.engine import hero_actions
from fuego.engine.events import EventKind
from fuego.engine.hero_actions import (
    MAX_RAISES,
    RAISABLE,
    HeroAction,
    HeroActionKind,
    action_kinds,
    options,
    perform,
    read_action,
)
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.errors import FuegoError, RuleError
from fuego.rules import charts
from fuego.scenario.model import loads
from fuego.table import session as sessions
from fuego.table.replay import Player, Quit
from fuego.table.risk import choice_odds
from fuego.world.places import OPENABLE

#: Two levels, a named door, two doors sharing one name (in another case), an unnamed one,
#: heroes whose names have spaces, and the two modules that add hero actions (firefighting,
#: ignition).
HOUSE = """\
format: 1
title: The Two Cellar Doors
rooms:
  hall: {name: Hall, fuel: 4}
  den: {name: Den, fuel: 3}
  loft: {name: Loft, fuel: 2}
  yard: {name: Yard, outdoors: true, fuel: none, features: [exit]}
legend:
  h: hall
  d: den
  l: loft
  y: yard
levels:
  - name: ground
    elevation: 0
    plan: |
      hhdd
      hhdd
      yyyy
  - name: upper-floor
    elevation: 1
    plan: |
      ll##
doors:
  - {at: ground:B1-ground:C1, name: den door}
  - {at: ground:A2-ground:A3, name: cellar door}
  - {at: ground:D2-ground:D3, name: Cellar Door}
  - {at: ground:B2-ground:B3}
links:
  - {kind: stairs, at: ground:A1-upper-floor:A1}
rules:
  modules:
    firefighting: {sand: 2}
    ignition: {}
heroes:
  - name: Ana Vaz
    traits: {brawn: 3, finesse: 2, wits: 2, resolve: 2, panache: 3}
    start: ground:B1
  - name: Mother Hettie
    traits: {brawn: 2, finesse: 2, wits: 2, resolve: 2, panache: 2}
    start: ground:B1
fires:
  - {area: ground:C1, fd: 3}
"""


@pytest.fixture(scope="module")
def house():
    return loads(HOUSE).build(seed=1)


def every_action(s) -> st.SearchStrategy[HeroAction]:
    """Every action a hero could take in ``s``, of every kind (legal now or not)."""
    b = s.building
    areas = st.sampled_from(range(len(b.areas)))
    doors = st.sampled_from([x.index for x in b.barriers if x.kind in OPENABLE])
    names = st.none() | st.sampled_from([h.name for h in s.heroes])
    raises = st.integers(0, MAX_RAISES)
    on_area = [k for k in HeroActionKind if k.value in RAISABLE]
    modules = [k for k in action_kinds(s) if not isinstance(k, HeroActionKind)]
    assert modules, "the scene's modules add actions"
    return st.one_of(
        st.builds(HeroAction, st.sampled_from(on_area), target=areas, raises=raises),
        st.builds(HeroAction, st.sampled_from([HeroActionKind.OPEN, HeroActionKind.CLOSE]),
                  barrier=doors),
        st.builds(HeroAction, st.just(HeroActionKind.PUT_OUT_CLOTHES), other=names),
        st.just(HeroAction(HeroActionKind.WAIT)),
        st.builds(HeroAction, st.sampled_from(modules), target=st.none() | areas),
    )


_HOUSE = loads(HOUSE).build(seed=1)


@given(every_action(_HOUSE))
def test_from_text_is_the_exact_inverse_of_text(act):
    text = act.text(_HOUSE)
    assert HeroAction.from_text(text, _HOUSE) == act
    named = act.barrier is not None and "|" not in text
    assert HeroAction.from_text(f"  {text.upper() if named else text}  ",
                                _HOUSE) == act  # spacing, and a door's name in any case


def test_the_text_form_names_doors_areas_and_companions_as_the_gm_reads_them(house):
    b = house.building
    den_door = next(x for x in b.barriers if x.name == "den door")
    cellar = b.barriers_named("cellar door")
    assert HeroAction(HeroActionKind.OPEN, barrier=den_door.index).text(house) \
        == "open den door"
    # two doors share a name (in any case): each is written by its two areas, so it reads back
    # as itself
    assert HeroAction(HeroActionKind.CLOSE, barrier=cellar[0].index).text(house) \
        == "close ground:A2|ground:A3"
    upper = b.find("upper-floor:A1")
    assert HeroAction(HeroActionKind.MOVE, target=upper, raises=2).text(house) \
        == "move upper-floor:A1 raise 2"
    assert HeroAction(HeroActionKind.PUT_OUT_CLOTHES, other="Mother Hettie").text(house) \
        == "put-out-clothes Mother Hettie"
    assert HeroAction.from_text("PUT-OUT-CLOTHES mother hettie", house).other == "Mother Hettie"


@pytest.mark.parametrize(("text", "said", "tip"), [
    ("", "an empty action: expected a verb", "e.g. 'move ground:C4' or 'wait'"),
    ("fly ground:A1", "'fly' is not a hero action: expected one of move, open, close",
     "e.g. 'move ground:C4'"),
    ("mvoe ground:A1", "'mvoe' is not a hero action", "did you mean 'move'?"),
    ("move", "'move' needs an area: expected e.g. 'move ground:A1'", "name the area"),
    ("smother ground:Z9", "no area 'ground:Z9' to smother: expected an area's name",
     "level:COLUMNROW"),
    ("spot groudn:A1", "no area 'groudn:A1' to spot", "did you mean 'ground:A1'?"),
    ("open", "'open' needs a door or window: expected e.g. 'open den door'",
     "by its name or its two areas"),
    ("open back door", "no door, window, wall or link named 'back door'",
     "e.g. 'open den door'"),
    ("close cellar door", "'cellar door' names 2 barriers: ground:A2|ground:A3, "
     "ground:D2|ground:D3", "by its two areas, e.g. ground:A2|ground:A3"),
    ("open ground:A1|ground:B1", "cannot open: only doors and windows open and close",
     "gm break"),
    ("wait a moment", "'wait' takes nothing after it, not 'a moment'", "type 'wait' alone"),
    ("open den door raise 1", "no raise can be called on open",
     "raises go on the rolls of move, smother, spot"),
    ("smother ground:C1 raise 11", f"at most {MAX_RAISES} raises, not 11", "call 1 to 10"),
    ("put-out-clothes Zed", "no character named 'Zed' whose clothes to put out",
     "characters here: Ana Vaz, Mother Hettie"),
])
def test_bad_text_says_what_was_expected_with_a_tip(house, text, said, tip):
    with pytest.raises(FuegoError) as caught:
        HeroAction.from_text(text, house)
    assert isinstance(caught.value, RuleError)  # the table reads it as "not a hero's action"
    assert said in caught.value.message
    assert caught.value.tip and tip in caught.value.tip


def test_the_table_reads_the_exact_form_first_then_its_shorthand(house):
    ana = house.hero("Ana Vaz")
    legal = options(house, ana)
    for act in legal:  # every choice shown reads back as itself
        assert read_action(house, ana, act.text(house), legal) == act
    c1 = house.building.find("ground:C1")
    door = next(x for x in house.building.barriers if x.name == "den door")
    assert read_action(house, ana, "spot ground:C1 raise 2") == \
        HeroAction(HeroActionKind.SPOT, target=c1, raises=2)  # behind the shut den door
    assert read_action(house, ana, "spot raise 1") == \
        HeroAction(HeroActionKind.SPOT, target=c1, raises=1)  # the only spot in reach
    assert read_action(house, ana, "open ground:C1") == \
        HeroAction(HeroActionKind.OPEN, barrier=door.index)  # the door by the area beyond it
    with pytest.raises(RuleError, match="cannot 'move ground:D2' now") as caught:
        read_action(house, ana, "move ground:D2")  # well-formed, but not beside her
    assert caught.value.tip is not None and caught.value.tip.startswith("legal now: ")
    with pytest.raises(RuleError, match="not a hero action") as caught:
        read_action(house, ana, "fly away")
    assert caught.value.tip is not None and "legal now: " in caught.value.tip


def test_a_session_saved_before_the_one_text_form_loads_and_replays_to_the_same_state():
    """tests/data/session-every-action.json was first saved by fuego at 514ea03 (session format
    3), before the one text form, and re-recorded the same way for session formats 4 (the dice
    in batches) and 5 (smoke vents wherever its region's air does): a move and a smother with
    raises, doors by name and by their two areas, a spot, a companion's clothes and a module's
    action (sand), all typed in words. (A session version bump that refuses it re-records it:
    tests/make_every_action_save.py.)"""
    path = Path(__file__).parent / "data" / "session-every-action.json"
    saved = json.loads(path.read_text())
    session = sessions.load(str(path))

    class Replay:
        def answer(self, q):
            raise Quit()

        def rejected(self, q, error):
            raise AssertionError(error)

        def recorded(self, player):
            pass

        def finished(self, player):
            pass

    player = Player(session, Replay())
    with contextlib.suppress(Quit):
        player.run()
    # every answer replays; the digests were taken when a flashed-over fire was in a "hot" state
    # (log format 3: docs/events.md), so a round after the flashover says the state differs
    assert all("does not replay to the same state" in w for w in player.warnings)
    assert player.pos == len(saved["inputs"])
    scene = player.scene
    assert scene is not None
    done = [e.data["action"] for e in scene.log
            if e.kind is EventKind.HERO_ACTION and "purpose" not in e.data
            and e.data["action"] != "drama"]
    kinds = {text.split()[0] for text in done}
    assert {"move", "smother", "open", "close", "spot", "sand", "put-out-clothes"} <= kinds
    # what the log says each hero did is what the save says the GM answered
    answered = [e["a"] for e in saved["inputs"] if e.get("q") == "action" and "a" in e
                and e["a"] != "hold"]
    assert done == answered


# -- one roll description: a house rule on a TN changes the roll and the odds shown together --
def _at_the_fire(seed: int = 3):
    s = scene(grid([("ground", 0, ["kkh"])], TWO_ROOMS), seed=seed)
    s.roller = LoadedRoller(seed)
    b = s.building
    hero = Hero("Ana", b.area("B1").index, panache=3, brawn=3)
    s.heroes.append(hero)
    s.start_fire(b.area("A1").index, 4, Cause.START)
    return s, hero, b.find("A1")


@pytest.mark.parametrize("kind", [HeroActionKind.MOVE, HeroActionKind.SMOTHER])
def test_a_house_rule_on_the_fire_tn_moves_the_roll_and_its_odds(monkeypatch, kind):
    s, hero, fire_at = _at_the_fire()
    act = HeroAction(kind, target=fire_at, raises=1)
    before = choice_odds(s, hero, act)
    assert before is not None and before.tn == 4 * 5 + 5
    # a house rule: a 4-dice fire's TN is 12 (the rule table is where a TN lives)
    monkeypatch.setitem(charts.FIRE_STATS, 4, dataclasses.replace(charts.FIRE_STATS[4], tn=12))
    shown = choice_odds(s, hero, act)
    assert shown is not None and shown.tn == 12 + 5 and shown.chance > before.chance
    perform(s, hero, act)
    rolled = next(e for e in s.log if e.kind in (EventKind.HERO_AVOIDED, EventKind.HERO_ACTION)
                  and "tn" in e.data)
    assert rolled.data["tn"] == shown.tn


def test_the_roll_made_is_the_one_action_roll_describes(monkeypatch):
    """Whatever ``action_roll`` says (here: 3 more on every TN), the move rolls and the table
    shows: there is no second place that works a TN out."""
    real = hero_actions.action_roll

    def harder(scene, hero, act):
        spec = real(scene, hero, act)
        return None if spec is None or spec.tn is None else dataclasses.replace(
            spec, tn=spec.tn + 3)

    monkeypatch.setattr(hero_actions, "action_roll", harder)
    for kind, logged in ((HeroActionKind.MOVE, EventKind.HERO_AVOIDED),
                         (HeroActionKind.SMOTHER, EventKind.HERO_ACTION)):
        s, hero, fire_at = _at_the_fire()
        act = HeroAction(kind, target=fire_at)
        shown = choice_odds(s, hero, act)
        assert shown is not None and shown.tn == 4 * 5 + 3
        perform(s, hero, act)
        assert next(e for e in s.log if e.kind is logged and "tn" in e.data).data["tn"] \
            == shown.tn


TWO_DOORS = """\
format: 1
title: Two doors
rooms:
  a: {name: West Room, fuel: 4}
  h: {name: Hall, fuel: 4}
  b: {name: East Room, fuel: 4}
legend: {a: a, h: h, b: b}
levels:
  - name: ground
    elevation: 0
    plan: |
      ahb
      hhh
doors:
  - {at: ground:A1-ground:B1, name: west door}
  - {at: ground:B1-ground:C1, name: east door}
heroes:
  - {name: Ana, start: ground:B1}
"""


def test_a_verb_alone_with_several_in_reach_says_which_there_are():
    scene = loads(TWO_DOORS).build(seed=1)
    ana = scene.heroes[0]
    with pytest.raises(RuleError, match="'open' alone could be any of 2: open west door, "
                                        "open east door") as caught:
        read_action(scene, ana, "open")  # it opened the west door, unasked
    assert caught.value.tip == "say which, e.g. 'open west door'"


def test_a_door_by_the_start_of_its_name_and_a_move_by_its_area_alone():
    scene = loads(TWO_DOORS).build(seed=1)
    ana = scene.heroes[0]
    b = scene.building
    east = next(x for x in b.barriers if x.name == "east door")
    assert read_action(scene, ana, "open East") == HeroAction(HeroActionKind.OPEN,
                                                               barrier=east.index)
    with pytest.raises(RuleError):
        read_action(scene, ana, "open ea")  # whole words only
    assert read_action(scene, ana, "B2") == HeroAction(HeroActionKind.MOVE,
                                                        target=b.find("ground:B2"))
    assert read_action(scene, ana, "ground:b2").target == b.find("ground:B2")
    with pytest.raises(RuleError, match="not a hero action"):
        read_action(scene, ana, "C1")  # behind a shut door: no move goes there
