"""Property tests: random buildings, fires, heroes and seeds, played for many rounds with the
invariants of tests/invariants.py checked after every round (docs/reliability.md).

Scenarios are generated as YAML text and read by the real loader (``fuego.scenario.model.loads``), so
every generated example also exercises the loader; ``builders.grid`` makes odd shapes in code
(holes, partitions, stairs) the loader would not draw. Every example is played twice from the
same seed and the two scenes are compared after every round (the replay check).

Bounded for CI: a fixed number of examples per test, derandomized (tests/conftest.py registers
the ``fuego`` hypothesis profile), ``deadline=None``.
"""

from __future__ import annotations

import copy
import os
from types import SimpleNamespace

import pytest
import yaml
from builders import Edge, RoomSpec, grid
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import InvariantError, RandomController, check_invariants, play_checked

from fuego.dice.roller import Roller
from fuego.engine.controllers import AutoController, ScriptedController
from fuego.engine.events import Event, EventKind
from fuego.engine.heroes import Hero, Status
from fuego.engine.scene import Cause, Scene
from fuego.rules.charts import Rank, Structure
from fuego.rules.settings import FlashoverMode, Settings, SmokeClears
from fuego.scenario.model import loads
from fuego.world.places import BarrierKind, Feature

#: FUEGO_EXAMPLES_SCALE=10 (with HYPOTHESIS_PROFILE=dev for fresh random examples) hunts longer.
SCALE = float(os.environ.get("FUEGO_EXAMPLES_SCALE", "1"))


def examples(n: int) -> settings:
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


PROPERTY = examples(30)
ROUNDS = 30

LEVEL_ROOMS = ["abc", "def", "ghi"]  # plan characters per level: a room lies on one level
WALLS = ["paper-wall", "thin-wooden-wall", "wooden-wall", "thick-wooden-wall", "thin-stone-wall",
         "stone-wall", "thick-stone-wall"]
DOORS = ["thin-wooden-door", "wooden-door", "thick-wooden-door"]
WINDOWS = ["papered-window", "glass-window"]
FLOORS = ["wooden-floor", "stone-floor"]
FUELS = [0, 1, 2, 3, 5, 9, "paper", "paper-stack", "beams-small", "log-pile", "beams", "none"]
FEATURES = ["oil", "gunpowder", "wooden-beam", "stone-beam", "large-stone-beam", "exit"]
MODULES = ["weather", "wind", "flame-and-blaze", "ignition", "firefighting", "structures",
           "drifting-smoke", "fire-breaks", "wrecks"]


def col(c: int) -> str:
    return chr(65 + c)


@st.composite
def scenarios(draw, modules: bool = False) -> str:  # noqa: C901
    """A random, valid scenario as YAML text."""
    n_levels = draw(st.integers(1, 3))
    elevations = draw(st.sampled_from({1: [[0]], 2: [[0, 1], [-1, 0]],
                                       3: [[0, 1, 2], [-1, 0, 1]]}[n_levels]))
    outdoor = draw(st.booleans())
    levels, cells = [], {}  # cells: (level, col, row) -> char
    rooms_used: dict[str, int] = {}
    for li in range(n_levels):
        w, h = draw(st.integers(2, 7)), draw(st.integers(2, 6))
        chars = LEVEL_ROOMS[li] + ("o" if li == 0 and outdoor else "")
        seeds = draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1),
                                        st.sampled_from(chars)), min_size=1, max_size=4))
        holes = draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)),
                             max_size=w * h // 3))
        rows = []
        for r in range(h):
            row = ""
            for c in range(w):
                if (c, r) in holes:
                    row += draw(st.sampled_from("# "))
                    continue
                near = min(seeds, key=lambda s: (abs(s[0] - c) + abs(s[1] - r), s))
                row += near[2]
                cells[(li, c, r)] = near[2]
                rooms_used[near[2]] = li
            rows.append(row)
        if all(ch in "# " for ch in "".join(rows)):  # every level holds an area
            rows[0] = chars[0] + rows[0][1:]
            cells[(li, 0, 0)] = chars[0]
            rooms_used[chars[0]] = li
        levels.append({"name": f"l{li}", "elevation": elevations[li], "plan": rows})
    if n_levels == 1:
        del levels[0]["elevation"]

    def name(pos) -> str:
        li, c, r = pos
        return f"l{li}:{col(c)}{r + 1}"

    rooms = {}
    for ch in sorted(rooms_used):
        spec = {"fuel": draw(st.sampled_from(FUELS))}
        if ch == "o":
            spec["outdoors"] = True
        else:
            spec["wall"] = draw(st.sampled_from(WALLS))
            if draw(st.booleans()):
                spec["wet"] = True
        rooms[f"r{ch}"] = spec
    doc: dict = {"title": "generated", "rooms": rooms,
                 "legend": {ch: f"r{ch}" for ch in sorted(rooms_used)}, "levels": levels}
    for lv in levels:
        if draw(st.booleans()):
            lv["floor"] = draw(st.sampled_from(FLOORS))

    positions = sorted(cells)
    side = [(p, (p[0], p[1] + dc, p[2] + dr)) for p in positions for dc, dr in ((1, 0), (0, 1))
            if (p[0], p[1] + dc, p[2] + dr) in cells]
    by_elev = {elevations[i]: i for i in range(n_levels)}
    stacked = [(p, (by_elev[elevations[p[0]] + 1], p[1], p[2])) for p in positions
               if elevations[p[0]] + 1 in by_elev
               and (by_elev[elevations[p[0]] + 1], p[1], p[2]) in cells]
    taken: set = set()
    for key, mats in (("doors", DOORS), ("windows", WINDOWS), ("walls", WALLS),
                      ("openings", None)):
        picks = draw(st.lists(st.sampled_from(side), max_size=4, unique=True)) if side else []
        out = []
        for a, b in picks:
            if (a, b) in taken or cells[a] == "o" and cells[b] == "o":
                continue
            taken.add((a, b))
            entry: dict = {"at": f"{name(a)}-{name(b)}"}
            if mats:
                entry["material"] = draw(st.sampled_from(mats))
            if key in ("doors", "windows"):
                entry["closed"] = draw(st.booleans())
            if key != "openings" and draw(st.integers(0, 5)) == 0:
                entry["broken"] = True
            out.append(entry)
        if out:
            doc[key] = out
    links = []
    for a, b in draw(st.lists(st.sampled_from(stacked), max_size=3, unique=True)) if stacked \
            else []:
        kind = draw(st.sampled_from(["stairs", "ladder", "hole", "floor"]))
        link = {"kind": kind, "at": f"{name(a)}-{name(b)}"}
        if kind == "floor":
            link["material"] = draw(st.sampled_from(FLOORS))
            link["broken"] = draw(st.booleans())
        links.append(link)
    if links:
        doc["links"] = links

    neighbours: dict = {}
    for a, b in side + stacked:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    routes = []
    for _ in range(draw(st.integers(0, 3))):
        if not neighbours:
            break
        walk = [draw(st.sampled_from(sorted(neighbours)))]
        for _ in range(draw(st.integers(1, 5))):
            nxt = [p for p in neighbours.get(walk[-1], []) if p not in walk]
            if not nxt:
                break
            walk.append(draw(st.sampled_from(sorted(nxt))))
        if len(walk) >= 2:
            routes.append({"kind": draw(st.sampled_from(["carpet", "curtains", "hangings", "oil",
                                                         "fuse", "other"])),
                           "areas": [name(p) for p in walk]})
    if routes:
        doc["routes"] = routes

    areas: dict = {}
    for p in draw(st.lists(st.sampled_from(positions), max_size=6, unique=True)):
        over: dict = {}
        if draw(st.booleans()):
            over["fuel"] = draw(st.sampled_from(FUELS))
        if draw(st.booleans()):
            over["features"] = draw(st.lists(st.sampled_from(FEATURES), max_size=2, unique=True))
        if draw(st.integers(0, 3)) == 0:
            over["smoky"] = True
        areas[name(p)] = over
    fire_at = draw(st.lists(st.sampled_from(positions), min_size=1, max_size=4, unique=True))
    fires = []
    for p in fire_at:  # a fire needs fuel: give its area some where it might have none
        over = areas.setdefault(name(p), {})
        over["fuel"] = draw(st.integers(1, 9))
        fire: dict = {"area": name(p), "fd": draw(st.integers(1, 10))}
        if draw(st.booleans()):
            fire["temperature"] = draw(st.sampled_from(["cold", "regular", "hot"]))
        if draw(st.booleans()):
            fire["kind"] = draw(st.sampled_from(["henchman", "villain"]))
        fires.append(fire)
    doc["areas"] = areas
    doc["fires"] = fires
    heroes = []
    for n in range(draw(st.integers(0, 3))):
        traits = {t: draw(st.integers(0, 5)) for t in
                  ("brawn", "finesse", "wits", "resolve", "panache")}
        knacks = {k: draw(st.integers(0, 4)) for k in
                  draw(st.lists(st.sampled_from(["leaping", "rolling", "sprinting", "climbing",
                                                 "night-trained", "perception",
                                                 "firefighting"]), max_size=3, unique=True))}
        heroes.append({"name": f"Hero {n}", "traits": traits, "knacks": knacks,
                       "rank": draw(st.sampled_from(["hero", "villain", "henchman"])),
                       "start": name(draw(st.sampled_from(positions)))})
    if heroes:
        doc["heroes"] = heroes
    doc["weather"] = {"wind": draw(st.sampled_from(["gale", "strong", "moderate", "light",
                                                    "calm"])),
                      "direction": draw(st.sampled_from(["N", "NE", "E", "SE", "S", "SW", "W",
                                                         "NW"]))}
    rules = {
        "temperament": draw(st.sampled_from(["hungry", "patient", "wild"])),
        "flashover": draw(st.sampled_from(["off", "all-burning", "dice"])),
        "flashover_dice_per_area": draw(st.integers(1, 10)),
        "fire_kind": draw(st.sampled_from(["henchman", "villain"])),
        "smoke": draw(st.sampled_from([True, True, False])),
        "burning_clothes": draw(st.booleans()),
        "suffocation": draw(st.booleans()),
        "suffocation_fire": draw(st.sampled_from(["room", "area"])),
        "smoke_clears": draw(st.sampled_from(["fire", "room"])),
        "max_leap_areas": draw(st.integers(0, 5)),
        "confused_wander": draw(st.booleans()),
        "breath_rounds": draw(st.one_of(st.none(), st.integers(0, 5))),
        "max_rounds": ROUNDS,
    }
    if modules:
        rules["modules"] = {m: {} for m in draw(st.lists(st.sampled_from(MODULES), min_size=1,
                                                          max_size=3, unique=True))}
    doc["rules"] = rules
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def controllers(kind: str, seed: int):
    """Two controllers of one kind that decide alike: automatic, or random heroes and GM."""
    if kind == "auto":
        return AutoController(), AutoController()
    return RandomController(seed), RandomController(seed)


def _play_twice(text: str, seed: int, kind: str) -> Scene:
    scenario = loads(text, source="generated.yaml")  # a generated scenario is always valid
    scene, twin = scenario.build(seed), scenario.build(seed)
    one, two = controllers(kind, seed)
    play_checked(scene, one, ROUNDS, twin=twin, twin_controller=two)
    return scene


@pytest.mark.slow
@PROPERTY
@given(text=scenarios(), seed=st.integers(0, 2**32), kind=st.sampled_from(["auto", "random"]))
def test_generated_scenarios_keep_every_invariant(text, seed, kind):
    _play_twice(text, seed, kind)


@examples(20)
@given(text=scenarios(modules=True), seed=st.integers(0, 2**32),
       kind=st.sampled_from(["auto", "random"]))
@pytest.mark.slow
def test_generated_scenarios_with_modules_keep_every_invariant(text, seed, kind):
    _play_twice(text, seed, kind)


# -- odd shapes, built in code -------------------------------------------------------------------
@st.composite
def odd_scenes(draw) -> tuple[Scene, Scene]:  # noqa: C901
    """Two identical scenes (same seed) on a ``builders.grid`` building with holes ('.'),
    partition doors and windows, holes and stairs between levels."""
    n_levels = draw(st.integers(1, 2))
    w, h = draw(st.integers(1, 8)), draw(st.integers(1, 5))
    chars = "kho"
    plans = []
    for li in range(n_levels):
        rows = ["".join(draw(st.sampled_from(chars[:2] + (chars[2] if li == 0 else "") + "."))
                        for _ in range(w)) for _ in range(h)]
        if all(ch == "." for ch in "".join(rows)):
            rows[0] = "k" + rows[0][1:]
        # a room lies on one level: upper levels use their own keys
        plans.append((f"l{li}", li, [r.replace("k", "k" if li == 0 else "K")
                                     .replace("h", "h" if li == 0 else "H") for r in rows]))
    rooms: dict[str, RoomSpec] = {
        "k": {"key": "kitchen", "fuel": draw(st.integers(0, 9))},
        "h": {"key": "hall", "fuel": draw(st.integers(0, 9))},
        "o": {"key": "yard", "outdoors": True, "fuel": draw(st.integers(0, 3))},
        "K": {"key": "loft", "fuel": draw(st.integers(0, 9))},
        "H": {"key": "attic", "fuel": draw(st.integers(0, 9))}}
    # areas of each level, by name, to choose edges from
    names = [f"l{li}:{col(c)}{r + 1}" for li, (_n, _e, rows) in enumerate(plans)
             for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    pairs = []
    for li, (_n, _e, rows) in enumerate(plans):
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "." or c + 1 >= len(row) or row[c + 1] == ".":
                    continue
                pairs.append((f"l{li}:{col(c)}{r + 1}", f"l{li}:{col(c + 1)}{r + 1}"))
    edge_kinds = [(BarrierKind.DOOR, Structure.WOODEN_DOOR),
                  (BarrierKind.DOOR, Structure.THIN_WOODEN_DOOR),
                  (BarrierKind.WINDOW, Structure.GLASS_WINDOW),
                  (BarrierKind.WALL, Structure.PAPER_WALL),
                  (BarrierKind.WALL, Structure.STONE_WALL),
                  (BarrierKind.OPEN, None)]
    edges: dict[tuple[str, str], Edge] = {}
    for pair in draw(st.lists(st.sampled_from(pairs), max_size=4, unique=True)) if pairs else []:
        kind, structure = draw(st.sampled_from(edge_kinds))
        edges[pair] = (kind, structure, draw(st.booleans()))
    links = {}
    if n_levels == 2:
        lower = [n for n in names if n.startswith("l0:")]
        upper = {n.split(":")[1] for n in names if n.startswith("l1:")}
        stack = [n for n in lower if n.split(":")[1] in upper]
        for n in draw(st.lists(st.sampled_from(stack), max_size=2, unique=True)) if stack else []:
            links[n] = draw(st.sampled_from([BarrierKind.STAIRS, BarrierKind.HOLE]))
    b1 = grid(plans, rooms, edges=edges, links=links)
    b2 = grid(plans, rooms, edges=edges, links=links)
    seed = draw(st.integers(0, 2**32))
    s = Settings(temperament=draw(st.sampled_from(["hungry", "patient", "wild"])),
                 flashover=draw(st.sampled_from(list(FlashoverMode))),
                 max_leap_areas=draw(st.integers(0, 4)), max_rounds=ROUNDS)
    scenes = []
    burnable = [a.index for a in b1.areas if a.burnable]
    fires = draw(st.lists(st.sampled_from(burnable), max_size=3, unique=True)) if burnable else []
    fds = [draw(st.integers(1, 10)) for _ in fires]
    starts = [draw(st.integers(0, len(b1.areas) - 1)) for _ in range(draw(st.integers(0, 2)))]
    for b in (b1, b2):
        scene = Scene(b, copy.deepcopy(s), Roller(seed), title="odd shape")
        for n, i in enumerate(starts):
            scene.heroes.append(Hero(f"H{n}", i, brawn=2, finesse=2, wits=2, resolve=2, panache=3,
                                     knacks={"leaping": 1}, rank=Rank.HERO))
        for i, fd in zip(fires, fds):
            scene.start_fire(i, fd, Cause.START)
        scenes.append(scene)
    return scenes[0], scenes[1]


@pytest.mark.slow
@examples(30)
@given(pair=odd_scenes(), kind=st.sampled_from(["auto", "random"]))
def test_odd_shapes_keep_every_invariant(pair, kind):
    scene, twin = pair
    one, two = controllers(kind, scene.roller.seed)
    play_checked(scene, one, ROUNDS, twin=twin, twin_controller=two)


# -- the campaigns, with their scripts and modules ----------------------------------------------
@pytest.mark.parametrize("name", ["tavern", "ship", "village", "wagon"])
@examples(2)  # tests/test_soak.py plays the campaigns for many more seeds
@given(seed=st.integers(0, 2**32))
def test_campaigns_keep_every_invariant(name, seed):
    from pathlib import Path

    from fuego.scenario.model import load

    path = Path(__file__).resolve().parent.parent / "campaigns" / f"{name}.yaml"
    scenario = load(path)

    def controller():
        return ScriptedController(scenario.actions) if scenario.actions else AutoController()

    play_checked(scenario.build(seed), controller(), 200, twin=scenario.build(seed),
                 twin_controller=controller())


# -- the checks themselves catch what they should ------------------------------------------------
PLAN = """\
title: checker
rooms:
  k: {fuel: 5}
  h: {fuel: 3, wall: stone-wall}
  s: {outdoors: true}
legend: {k: k, h: h, s: s}
levels:
  - name: g
    plan: |
      kkhhs
      kkhhs
heroes:
  - {name: Ana, start: g:A1}
fires:
  - {area: g:B1, fd: 3}
"""


def _started(seed: int = 3) -> tuple[Scene, dict]:
    scene = loads(PLAN).build(seed)
    play_checked(scene, AutoController(), 1)
    return scene, scene.snapshot()


def _broken(scene: Scene, prev: dict, events=()) -> str:
    with pytest.raises(InvariantError) as info:
        check_invariants(scene, prev, list(events))
    return str(info.value)


def test_the_checker_passes_a_quiet_round():
    scene, prev = _started()
    check_invariants(scene, prev, [])


def test_the_checker_sees_fire_dice_out_of_range():
    scene, prev = _started()
    fire = next(iter(scene.fires.values()))
    fire.fd = 11
    assert "11 Fire Dice" in _broken(scene, prev)


def test_the_checker_sees_a_fire_without_its_event():
    scene, prev = _started()
    i = scene.building.find("g:A2")  # put in the active set behind the scene's back
    assert i is not None
    from fuego.engine.fire import Fire

    scene.fires[i] = Fire(scene.next_fire_id, i, 2, 5)
    scene.next_fire_id += 1
    assert "differ from what the log says" in _broken(scene, prev)


def test_the_checker_sees_a_fire_where_nothing_burns():
    scene, prev = _started()
    fire = next(iter(scene.fires.values()))
    scene.building.areas[fire.area].fuel = 0
    assert "no fuel" in _broken(scene, prev)


def test_the_checker_sees_a_leap_through_a_wall():
    scene, prev = _started()
    src = next(iter(scene.fires.values()))
    target = scene.building.find("g:C1")  # behind the stone wall
    assert target is not None
    mark = len(scene.log)
    scene.emit(EventKind.FIRE_LEAPT, scene.fire_name(src), src.area, to="g:C1", pool="3k2",
               tn=5, total=9, success=True)
    scene.start_fire(target, 1, Cause.LEAP, source=src)
    assert "crossed an intact barrier" in _broken(scene, prev, scene.log[mark:])


def test_the_checker_sees_a_leap_without_a_roll_that_met_its_tn():
    scene, prev = _started()
    src = next(iter(scene.fires.values()))
    mark = len(scene.log)
    scene.emit(EventKind.FIRE_LEAPT, scene.fire_name(src), src.area, to="g:A2", pool="3k2",
               tn=25, total=9, success=True)
    scene.start_fire(scene.building.area("g:A2").index, 1, Cause.LEAP, source=src)
    text = _broken(scene, prev, scene.log[mark:])
    assert "success does not match" in text and "met its TN" in text


def test_the_checker_sees_a_fire_with_no_cause():
    scene, prev = _started()
    mark = len(scene.log)
    unknown = SimpleNamespace(value="spontaneous")  # not a Cause: the typing would refuse it
    scene.start_fire(scene.building.find("g:A2"), 2, unknown)  # type: ignore[arg-type]
    assert "no known cause" in _broken(scene, prev, scene.log[mark:])


def test_the_checker_sees_wounds_heal_and_the_dead_rise():
    scene, prev = _started()
    ana = scene.heroes[0]
    prev["heroes"][0].update(dramatic=3, flesh=9, status="dead")
    ana.dramatic, ana.flesh, ana.status = 1, 0, Status.ACTIVE
    text = _broken(scene, prev)
    assert "Dramatic Wounds fell" in text and "without a failed wound check" in text
    assert "went from dead to active" in text


def test_the_checker_sees_a_walk_through_a_wall():
    scene, prev = _started()
    ana = scene.heroes[0]
    mark = len(scene.log)
    prev["heroes"][0]["area"] = scene.building.find("g:B1")
    ana.area = scene.building.area("g:C1").index
    scene.emit(EventKind.HERO_MOVED, "Ana", ana.area, frm="g:B1", why="move")
    assert "through an intact barrier" in _broken(scene, prev, scene.log[mark:])


def test_the_checker_sees_smoke_clear_in_a_closed_burning_room():
    text = PLAN.replace("  s: {outdoors: true}\n", "  s: {fuel: 0}\n")
    scene = loads(text).build(1)
    assert scene.smoke is not None
    play_checked(scene, AutoController(), 2)
    assert scene.fires and scene.smoke.density
    prev = scene.snapshot()
    scene.smoke.density.clear()
    assert "smoky areas, but the fire" in _broken(scene, prev)  # fire by fire: its own four
    scene.settings.smoke_clears = SmokeClears.ROOM  # the older reading: none of the room's
    assert "smoke cleared" in _broken(scene, prev)


def test_the_replay_check_sees_two_runs_differ():
    a, b = loads(PLAN).build(5), loads(PLAN).build(6)
    with pytest.raises(InvariantError, match="differ"):
        play_checked(a, AutoController(), 5, twin=b, twin_controller=AutoController())


def test_events_read_back_from_json_check_the_same():
    """The checks work from the events alone: the JSON lines a run writes serve as well."""
    import json

    scene = loads(PLAN).build(11)
    prev = scene.snapshot()
    from fuego.engine.rounds import play_round, start_scene

    start_scene(scene)
    mark = len(scene.log)
    play_round(scene, AutoController())
    read = [Event.from_dict(json.loads(e.to_json())) for e in scene.log[mark:]]
    check_invariants(scene, prev, read)


def test_the_generator_draws_the_engines_names():
    assert set(FEATURES) <= {f.value for f in Feature}
    from fuego.scenario.model import module_registry

    assert set(MODULES) == set(module_registry())


def test_the_checker_sees_smoke_through_a_wall_and_a_fire_without_smoke():
    from fuego.rules.charts import Density

    scene, prev = _started()
    assert scene.smoke is not None
    behind = scene.building.find("g:C2")  # the hall, behind a stone wall from the fire
    assert behind is not None
    scene.smoke.density[behind] = Density.THIN
    text = _broken(scene, prev)
    assert "smoke appeared at g:C2" in text
    scene.smoke.density.clear()
    play_checked(scene, AutoController(), 1)
    prev = scene.snapshot()
    scene.smoke.density.clear()
    assert "its own area has no smoke" in _broken(scene, prev)


def test_a_row_of_open_air_on_top_keeps_the_coordinates():
    """Regression (found by the generator): a plan written as a list whose first row is all
    spaces (open air) lost that row, so every area of the level moved up one row and names like
    A3 fell outside the plan. The row stays; an empty first line of a block is still no row."""
    text = ("title: x\nrooms: {k: {fuel: 1}}\nlegend: {k: k}\nlevels:\n  - name: g\n"
            "    plan: PLAN\nfires:\n  - {area: A3, fd: 2}\n")
    listed = loads(text.replace("PLAN", '["  ", "kk", "kk"]'))
    assert [a.name for a in listed.building().areas] == ["g:A2", "g:B2", "g:A3", "g:B3"]
    again = loads(listed.to_yaml())
    assert [a.name for a in again.building().areas] == ["g:A2", "g:B2", "g:A3", "g:B3"]
    block = loads(text.replace("PLAN", "|\n\n      ##\n      kk\n      kk"))
    assert [a.name for a in block.building().areas] == ["g:A2", "g:B2", "g:A3", "g:B3"]
