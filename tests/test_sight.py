"""What each hero sees (fuego.engine.sight): line of sight against the plan's geometry, sight in
smoke against 003's distances, the building's outside from the street, hidden fires and why, and
the one rule every players' output reads: a fire no players' hero sees never reaches the
players' page, map or export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import LoadedRoller, RoomSpec, barrier_between, grid
from builders import scene as make_scene

from fuego.engine.events import EventKind
from fuego.engine.hero_actions import HeroAction, HeroActionKind, hidden_fires, options, perform
from fuego.engine.heroes import Hero, Status
from fuego.engine.scene import Cause
from fuego.engine.sight import (
    Blind,
    Unseen,
    hero_sight,
    look,
    players_sight,
    sees_fire,
    why_unseen,
)
from fuego.rules.charts import SMOKE_SIGHT_FEET, Density, Structure
from fuego.world.places import BarrierKind

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))

#: 003, Smoke: thin smoke, forms clearly to twenty feet and blurred shapes to forty; thick
#: smoke, two feet and six.
TEXT_SMOKE_FEET = {"thin": (20, 40), "thick": (2, 6)}

W, D, WIN = BarrierKind.WALL, BarrierKind.DOOR, BarrierKind.WINDOW
ROOMS: dict[str, RoomSpec] = {"a": {"key": "hall"}, "b": {"key": "parlour"}, "c": {"key": "study"},
         "s": {"key": "street", "outdoors": True, "fuel": 0}}


def place(scene, name: str, at: str, **kw) -> Hero:
    hero = Hero(name, scene.building.find(at), **kw)
    scene.heroes.append(hero)
    return hero


def burn(scene, *areas: str, fd: int = 2) -> list[int]:
    out = []
    for name in areas:
        i = scene.building.find(name)
        assert scene.start_fire(i, fd, Cause.START) is not None
        out.append(i)
    return out


def names(scene, areas) -> set[str]:
    return {scene.building.areas[i].name for i in areas}


# -- line of sight ---------------------------------------------------------------------------
def test_a_room_is_seen_whole_and_a_wall_hides_the_next():
    b = grid([("ground", 0, ["aaabbb", "aaabbb"])], ROOMS)
    scene = make_scene(b)
    hero = place(scene, "Ana", "ground:A1")
    hall, parlour = burn(scene, "ground:C2", "ground:D1")
    sight = hero_sight(scene, hero)
    assert names(scene, sight.areas) == {"ground:A1", "ground:B1", "ground:C1", "ground:A2",
                                         "ground:B2", "ground:C2"}
    assert sight.fires == {hall}
    assert why_unseen(scene, hero, parlour) is Unseen.OUT_OF_SIGHT
    assert why_unseen(scene, hero, hall) is None


def test_a_door_hides_until_it_opens_and_a_window_never_does():
    b = grid([("ground", 0, ["aabbcc"])], ROOMS,
             edges={("ground:B1", "ground:C1"): (D, Structure.WOODEN_DOOR, True),
                    ("ground:D1", "ground:E1"): (WIN, Structure.GLASS_WINDOW, True)})
    scene = make_scene(b)
    hero = place(scene, "Ana", "ground:A1")
    parlour, study = burn(scene, "ground:D1", "ground:F1")
    assert why_unseen(scene, hero, parlour) is Unseen.CLOSED_DOOR
    door = b.between(b.area("ground:B1").index, b.area("ground:C1").index)
    assert door is not None
    b.open_barrier(door)  # the building's version moves: the sight kept follows it
    sight = hero_sight(scene, hero)
    # through the open door, and on through the parlour's shut window into the study
    assert sight.fires == {parlour, study}
    assert why_unseen(scene, hero, study) is None
    b.close_barrier(door)
    assert hero_sight(scene, hero).fires == frozenset()


def test_a_papered_window_lets_only_shapes_through():
    b = grid([("ground", 0, ["ab"])], ROOMS,
             edges={("ground:A1", "ground:B1"): (WIN, Structure.PAPERED_WINDOW, True)})
    scene = make_scene(b)
    hero = place(scene, "Ana", "ground:A1")
    fire, = burn(scene, "ground:B1")
    sight = hero_sight(scene, hero)
    assert fire in sight.blurred and fire not in sight.areas and fire in sight.fires


def test_the_line_goes_round_a_corner_by_the_open_side():
    """A diagonal look through a corner: open when either area beside the corner is clear,
    shut when both are walled off."""
    plan = ["ab", "ca"]
    rooms: dict[str, RoomSpec] = {"a": {"key": "hall"}, "b": {"key": "parlour"},
                                  "c": {"key": "study"}}
    b = grid([("ground", 0, plan)], rooms)
    scene = make_scene(b)
    hero = place(scene, "Ana", "ground:A1")
    fire, = burn(scene, "ground:B2")  # the hall again, round the corner of both rooms
    assert why_unseen(scene, hero, fire) is Unseen.OUT_OF_SIGHT
    b.destroy_barrier(barrier_between(b, "ground:A1", "ground:B1"))
    b.destroy_barrier(barrier_between(b, "ground:B1", "ground:B2"))
    assert why_unseen(scene, hero, fire) is None


def test_floors_hide_and_open_links_show_the_area_across():
    b = grid([("ground", 0, ["aa"]), ("upper", 1, ["bb"])], ROOMS,
             links={"ground:B1": BarrierKind.STAIRS})
    scene = make_scene(b)
    hero = place(scene, "Ana", "ground:A1")
    above, stair_top = burn(scene, "upper:A1", "upper:B1")
    assert why_unseen(scene, hero, above) is Unseen.OTHER_LEVEL  # the ceiling over her
    assert why_unseen(scene, hero, stair_top) is Unseen.OTHER_LEVEL  # not from where she is
    hero.area = b.area("ground:B1").index  # at the stair's foot: up it
    assert hero_sight(scene, hero).fires == {stair_top}
    b.destroy_barrier(barrier_between(b, "ground:A1", "upper:A1"))
    hero.area = b.area("ground:A1").index  # the floor over her burned through
    assert above in hero_sight(scene, hero).fires


# -- from outside ----------------------------------------------------------------------------
def outside_building():
    """A house on a lane: a front room with a shut glass window and a shut door onto the lane;
    upstairs a bedroom with an open window onto a balcony over the lane; a back room."""
    return grid([("ground", 0, ["cbb", "cbb", "sss"]), ("upper", 1, ["aaa", "aaa", "ddd"])],
                {**ROOMS, "d": {"key": "balcony", "outdoors": True, "fuel": 1}},
                edges={("ground:B2", "ground:B3"): (WIN, Structure.GLASS_WINDOW, True),
                       ("ground:C2", "ground:C3"): (D, Structure.WOODEN_DOOR, True),
                       ("upper:B2", "upper:B3"): (WIN, Structure.GLASS_WINDOW, False)})


def test_from_the_street_flames_at_the_windows_and_a_flashed_roof():
    b = outside_building()
    scene = make_scene(b)
    hero = place(scene, "Ana", "ground:A3", )
    hero.status = Status.ESCAPED  # out in the lane, watching
    window, back, bedroom, balcony, back_room = burn(
        scene, "ground:B2", "ground:B1", "upper:B2", "upper:C3", "ground:A1")
    sight = hero_sight(scene, hero)
    assert window in sight.fires  # through the front room's glass
    assert bedroom in sight.fires  # at the open window over the balcony
    assert balcony in sight.fires  # the balcony above the lane she sees
    assert why_unseen(scene, hero, back_room) is Unseen.OUT_OF_SIGHT
    far_upstairs = b.find("upper:A1")
    assert why_unseen(scene, hero, far_upstairs) is Unseen.OTHER_LEVEL
    scene.start_fire(far_upstairs, 3, Cause.START)
    assert far_upstairs not in hero_sight(scene, hero).fires
    scene.flashed.add("hall")  # the upstairs hall flashes over: its roof is alight
    assert far_upstairs in hero_sight(scene, hero).fires
    assert why_unseen(scene, hero, far_upstairs) is None
    assert why_unseen(scene, hero, back_room) is Unseen.OUT_OF_SIGHT  # under that roof, unseen


# -- smoke: 003's distances ------------------------------------------------------------------
def test_the_tables_carry_the_texts_numbers():
    assert {k: (v.clear, v.shapes) for k, v in SMOKE_SIGHT_FEET.items()} == TEXT_SMOKE_FEET


def corridor(n: int = 6):
    b = grid([("ground", 0, ["a" * n])], ROOMS)
    return b, make_scene(b)


@pytest.mark.parametrize("density", [Density.THIN, Density.THICK])
def test_in_smoke_sight_ends_where_the_text_says(density):
    """A hero at one end of a corridor full of smoke: an area k squares away has its near side
    5 + 10 (k - 1) ft away; clear within the text's clear distance, shapes within its shapes
    distance, nothing beyond (and the reason says which smoke)."""
    b, scene = corridor()
    hero = place(scene, "Ana", "ground:A1")
    for a in b.areas:
        scene.smoke.density[a.index] = density
    clear, shapes = TEXT_SMOKE_FEET[density.name.lower()]
    sight = hero_sight(scene, hero)
    assert b.find("ground:A1") in sight.areas  # one always sees one's own area
    for k in range(1, 6):
        i = b.find(f"ground:{'ABCDEF'[k]}1")
        feet = 5 + 10 * (k - 1)
        assert look(scene, hero, i).feet == pytest.approx(feet)
        if feet <= clear:
            assert i in sight.areas, feet
        elif feet <= shapes:
            assert i in sight.blurred and i not in sight.areas, feet
        else:
            assert i not in sight.in_view, feet
            assert why_unseen(scene, hero, i) is (
                Unseen.THICK_SMOKE if density is Density.THICK else Unseen.TOO_FAR_IN_SMOKE)


def test_smoke_counts_on_the_way_not_at_the_far_side():
    """From clear air one sees into smoke (its near side); smoke between hides what is behind."""
    b, scene = corridor()
    hero = place(scene, "Ana", "ground:A1")
    smoky = b.find("ground:C1")
    scene.smoke.density[smoky] = Density.THICK
    fire, = burn(scene, "ground:C1")
    behind, = burn(scene, "ground:D1")
    sight = hero_sight(scene, hero)
    assert fire in sight.areas and smoky in sight.smoke  # the wall of smoke, a fire at its edge
    assert behind not in sight.fires  # 10 ft of thick smoke on the way: beyond 6 ft
    assert why_unseen(scene, hero, behind) is Unseen.THICK_SMOKE


def test_a_spot_in_smoke_says_what_hid_the_fire_and_how_far():
    """A fire in the hero's own room, 15 ft off through thick smoke: hidden (spotting no longer
    ignores distance in smoke), offered to spot, and the spot's event says why and how far."""
    b, scene = corridor()
    scene.roller = LoadedRoller(3, totals=[5, 30])  # the fire's Stealth 5, the hero's 30
    hero = place(scene, "Ana", "ground:A1", wits=3)
    for a in b.areas:
        scene.smoke.density[a.index] = Density.THICK
    fire, = burn(scene, "ground:C1")
    assert hidden_fires(scene, hero) == [fire]
    spot = HeroAction(HeroActionKind.SPOT, target=fire)
    assert spot in options(scene, hero)
    perform(scene, hero, spot)
    event = next(e for e in scene.log if e.kind is EventKind.FIRE_SPOTTED)
    assert event.data["unseen"] == "thick-smoke" and event.data["feet"] == 15.0
    assert fire in hero_sight(scene, hero).fires and hidden_fires(scene, hero) == []


def test_a_lost_spot_says_stealth_won():
    b = grid([("ground", 0, ["aabb"])], ROOMS,
             edges={("ground:B1", "ground:C1"): (D, Structure.WOODEN_DOOR, True)})
    scene = make_scene(b)
    scene.roller = LoadedRoller(3, totals=[40, 2])
    hero = place(scene, "Ana", "ground:B1")
    fire, = burn(scene, "ground:C1")
    assert why_unseen(scene, hero, fire) is Unseen.CLOSED_DOOR
    perform(scene, hero, HeroAction(HeroActionKind.SPOT, target=fire))
    event = scene.log[-1]
    assert event.kind is EventKind.FIRE_HIDDEN and event.data["unseen"] == "closed-door"
    assert why_unseen(scene, hero, fire) is Unseen.HIDDEN
    assert Unseen.HIDDEN.words == "hidden: its Stealth won"


# -- the players' heroes ---------------------------------------------------------------------
def test_players_sight_is_their_watching_heroes_together():
    b = grid([("ground", 0, ["aabb"])], ROOMS)
    scene = make_scene(b)
    ana = place(scene, "Ana", "ground:A1")
    place(scene, "Bo", "ground:D1")
    gm = place(scene, "Hettie", "ground:D1", npc=True)
    hall, parlour = burn(scene, "ground:B1", "ground:C1")
    sight = players_sight(scene)
    assert sight.heroes == ("Ana", "Bo") and sight.fires == {hall, parlour}
    assert "Hettie" in sight.characters and "Ana" not in hero_sight(scene, ana).characters
    scene.heroes[1].status = Status.KNOCKED_OUT  # Bo sees nothing now
    assert players_sight(scene).fires == {hall}
    assert why_unseen(scene, scene.heroes[1], parlour) is Unseen.KNOCKED_OUT
    assert gm.name not in players_sight(scene).heroes


def test_on_the_ship_the_galley_fire_is_in_plain_view_from_the_gun_deck():
    """Issue 26's stumble: the galley is open to the gun deck along its length."""
    from fuego.scenario.model import load

    scene = load(ROOT / "campaigns" / "ship.yaml").build(3)
    yusuf = scene.hero("Yusuf al-Tariq")
    galley = scene.building.find("gundeck:B2")
    assert galley in hero_sight(scene, yusuf).fires
    assert why_unseen(scene, yusuf, galley) is None


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_one_look_agrees_with_the_whole_sight(path):
    """``sees_fire`` (one look: the spot rule) and ``hero_sight`` (everything: the outputs)
    give the same answer for every fire, from every area a hero may stand in, indoors and out."""
    from fuego.scenario.model import load

    scene = load(path).build(1)
    assert scene.smoke is not None
    b = scene.building
    for a in b.areas[::3]:
        scene.start_fire(a.index, 2, Cause.START)
    for k, a in enumerate(b.areas[1::2]):
        if k % 3 == 0:
            scene.smoke.density[a.index] = Density.THIN if k % 2 else Density.THICK
    hero = Hero("Watcher", 0)
    scene.heroes.append(hero)
    for a in b.areas[::2]:
        hero.area = a.index
        seen = hero_sight(scene, hero).fires
        assert seen == {i for i in scene.fires if sees_fire(scene, hero, i)}, a.name
        assert all((why_unseen(scene, hero, i) is None) == (i in seen) for i in scene.fires)


# -- every players' output reads the same sight ----------------------------------------------
def _view_fires(scene) -> set[str]:
    from fuego.web.view import players_view

    view = json.loads(json.dumps(players_view(scene)))
    return {f["area"] for lv in view["levels"] for f in lv["fires"]}


def _svg_fires(scene) -> set[str]:
    from xml.etree import ElementTree

    from fuego.web.svg import level_svg
    from fuego.web.view import players_view

    out = set()
    for lv in players_view(scene)["levels"]:
        root = ElementTree.fromstring(level_svg(lv))
        out |= {el.attrib["data-area"] for el in root.iter() if el.get("data-fd") is not None}
    return out


def _map_fires(scene) -> set[str]:
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    figs = draw_map(scene.building, scene, MapOptions(gm=False))
    gids = {a.get_gid() or "" for f in figs for ax in f.axes for a in ax.patches}
    return {g.removeprefix("fire-") for g in gids if g.startswith("fire-")}


def _export_fires(scene) -> set[str]:
    from fuego.render.vtt_export import SQUARES_PER_AREA, export_level

    b = scene.building
    out = set()
    for lv in b.levels:
        data = export_level(b, scene, lv.index, image=False)
        here = [a for a in b.areas if a.level == lv.index]
        c0, r0 = min(a.col for a in here), min(a.row for a in here)
        for light in data["lights"]:
            col = int(light["position"]["x"] / SQUARES_PER_AREA) + c0
            row = int(light["position"]["y"] / SQUARES_PER_AREA) + r0
            out.add(b.areas[b.at(lv.index, col, row)].name)
    return out


OUTPUTS = {"page-json": _view_fires, "page-svg": _svg_fires, "map": _map_fires,
           "export": _export_fires}


@pytest.mark.parametrize("output", list(OUTPUTS))
def test_hidden_fires_never_reach_a_players_output(output):
    """The tavern at the start: the kitchen fire is hidden from every players' hero, Isabela
    sees the bar fire a GM starts. Each output draws exactly the fires the players' sight
    holds; once Gaston has spotted the kitchen fire, it too."""
    from fuego.scenario.model import load

    scene = load(ROOT / "campaigns" / "tavern.yaml").build(1)
    b = scene.building
    kitchen, bar = b.find("ground:B2"), b.find("ground:D3")
    assert bar is not None and kitchen is not None
    scene.start_fire(bar, 2, Cause.GM)
    scene.start_fire(b.area("upper:H1").index, 2, Cause.GM)  # the Anchor: behind its door, upstairs
    drawn = OUTPUTS[output](scene)
    want = names(scene, players_sight(scene).fires)
    assert drawn == want == {"ground:D3"}
    assert "ground:B2" not in drawn and "upper:H1" not in drawn
    scene.hero("Gaston Allais").known_fires.add(kitchen)
    assert OUTPUTS[output](scene) == {"ground:D3", "ground:B2"}


# -- the GM asks why -------------------------------------------------------------------------
def test_status_and_look_say_why_a_hero_does_not_see_a_fire():
    """The table's ``status`` lines and ``look ROOM``'s: each hidden fire near a hero with why."""
    from fuego.cli.gm_screen import sight_lines, watchers_line

    b = grid([("ground", 0, ["aabbbb"])], ROOMS,
             edges={("ground:B1", "ground:C1"): (D, Structure.WOODEN_DOOR, True)})
    scene = make_scene(b)
    assert scene.smoke is not None
    ana = place(scene, "Ana", "ground:B1")
    place(scene, "Bo", "ground:F1")
    fire, = burn(scene, "ground:C1")
    lines = [text for text, _ in sight_lines(scene)]
    assert lines == ["Ana sees: no fire  [GM only: hidden from Ana: ground:C1 2 FD "
                     "(behind a closed door)]", "Bo sees: ground:C1 2 FD"]
    assert watchers_line(scene, fire) == ("ground:C1 2 FD seen by Bo; hidden from Ana (behind a "
                                          "closed door)")
    scene.smoke.density[b.area("ground:D1").index] = Density.THICK
    scene.smoke.density[b.area("ground:E1").index] = Density.THICK
    assert why_unseen(scene, scene.hero("Bo"), fire) is Unseen.THICK_SMOKE
    assert "Bo (in thick smoke)" in watchers_line(scene, fire)
    ana.status = Status.KNOCKED_OUT
    assert [text for text, _ in sight_lines(scene)] == ["Bo sees: no fire"]  # not near: no spot
    # nobody left to look: no fire is hidden from anyone, and the GM is told what the players see
    assert players_sight(scene).hides(fire) and players_sight(scene).blind is None
    scene.hero("Bo").status = Status.KNOCKED_OUT
    sight = players_sight(scene)
    assert sight.blind is Blind.DOWN and not sight.fires and not sight.hides(fire)
    assert [text for text, _ in sight_lines(scene)] == [
        "[GM only: every hero of the players' is down: the players' screen shows no fire and "
        "says \"no hero is conscious to see\"; reveal shows them what you choose]"]
    assert watchers_line(scene, fire) == "ground:C1 2 FD seen by nobody"
