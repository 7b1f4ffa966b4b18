"""Scenario files: the shipped campaigns load, build and round-trip through to_yaml."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from fuego.engine.rule_module import RuleModule
from fuego.errors import ScenarioError
from fuego.modules import REGISTRY
from fuego.rules.charts import Rank, Temperature, Wind
from fuego.rules.settings import FlashoverMode
from fuego.scenario.model import Scenario, load, loads
from fuego.world.places import BarrierKind

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMPAIGNS = sorted(glob.glob(os.path.join(ROOT, "campaigns", "*.yaml")))
TAVERN = os.path.join(ROOT, "campaigns", "tavern.yaml")
MINIMAL = os.path.join(ROOT, "tests", "scenarios", "good", "minimal.yaml")


def signature(b):
    """Everything that makes a building what it is, as comparable data."""
    return (
        [(lv.name, lv.elevation, lv.floor) for lv in b.levels],
        sorted((k, r.name, r.level, r.outdoors, r.wall, r.description) for k, r in b.rooms.items()),
        [(a.name, a.col, a.row, a.level, a.room, a.fuel, a.fuel_name, a.wet, a.smoky,
          sorted(f.value for f in a.features)) for a in b.areas],
        [(x.a, x.b, x.kind, x.structure, x.closed, x.destroyed, x.name) for x in b.barriers],
        [(r.kind, r.areas, r.name) for r in b.routes],
    )


def scene_signature(scene):
    b = scene.building
    return (
        signature(b),
        [(h.name, b.areas[h.area].name, h.brawn, h.finesse, h.wits, h.resolve, h.panache,
          sorted(h.knacks.items()), h.rank, h.npc) for h in scene.heroes],
        sorted((b.areas[i].name, f.fd, f.temperature, f.kind) for i, f in scene.fires.items()),
        scene.settings,
    )


@pytest.fixture(scope="module")
def tavern() -> Scenario:
    return load(TAVERN)


def test_campaigns_exist_and_load():
    assert TAVERN in CAMPAIGNS
    for path in CAMPAIGNS:
        scenario = load(path)
        assert scenario.title
        assert scenario.building().areas


def test_tavern_is_small_and_complete(tavern):
    b = tavern.building()
    assert [lv.name for lv in sorted(b.levels, key=lambda lv: lv.elevation)] == [
        "cellar", "ground", "upper"]
    width, height = b.size()
    assert width <= 10 and height <= 8
    assert tavern.description and tavern.briefing
    assert 2 <= len([h for h in tavern.heroes if not h.npc]) <= 4
    kinds = {x.kind for x in b.barriers}
    assert {BarrierKind.DOOR, BarrierKind.WINDOW, BarrierKind.STAIRS, BarrierKind.FLOOR,
            BarrierKind.WALL, BarrierKind.OPEN} <= kinds
    assert any(b.is_exit(a.index) for a in b.areas)
    oil = [r for r in b.routes if r.kind.value == "oil"]
    assert oil and b.areas[oil[0].areas[0]].room == "kitchen"
    assert b.areas[oil[0].areas[-1]].room == "common"
    # the stairs join the stair hall to the landing above and the cellar below
    hall = b.find("ground:D4")
    up = b.vertical_neighbour(hall, up=True)
    assert up is not None and up[1].kind is BarrierKind.STAIRS
    assert b.areas[up[0]].room == "landing"
    down = b.vertical_neighbour(b.find("ground:C5"), up=False)
    assert down[1].kind is BarrierKind.STAIRS and b.areas[down[0]].room == "cellarfoot"


def test_build_places_fires_and_heroes_where_the_file_says(tavern):
    scene = tavern.build(seed=7)
    b = scene.building
    assert scene.title == "The Gilded Goose"
    assert scene.roller.seed == 7
    fires = {b.areas[i].name: f for i, f in scene.fires.items()}
    assert list(fires) == ["ground:B2"]
    fire = fires["ground:B2"]
    assert fire.fd == 3 and fire.temperature is Temperature.HOT and fire.kind is Rank.HENCHMAN
    assert fire.resolve == b.area("ground:B2").fuel
    where = {h.name: b.areas[h.area].name for h in scene.heroes}
    assert where == {spec.name: b.area(spec.start).name for spec in tavern.heroes}
    assert where["Bjorn Haraldsson"] == "cellar:C3"
    hettie = scene.hero("Mother Hettie")
    assert hettie.npc and hettie.rank is Rank.HENCHMAN
    isabela = scene.hero("Isabela Soldano")
    assert isabela.finesse == 3 and isabela.knack("leaping") == 2
    assert scene.hero("Gaston Allais").night_trained
    assert scene.settings.wind is Wind.LIGHT
    assert scene.settings.max_rounds == 40
    assert scene.settings.flashover is FlashoverMode.ALL_BURNING
    assert scene.smoke is not None
    assert [e.kind.value for e in scene.log] == ["fire-started"]
    assert scene.log[0].data["cause"] == "start"


def test_each_build_is_fresh_and_seeded(tavern):
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController

    one, two = tavern.build(seed=3), tavern.build(seed=3)
    assert one.building is not two.building
    loop.run(one, AutoController(), rounds=5)
    assert two.round == 0 and len(two.fires) == 1  # untouched by the other run
    loop.run(two, AutoController(), rounds=5)
    assert one.snapshot() == two.snapshot()


@pytest.mark.parametrize("path", CAMPAIGNS + [MINIMAL])
def test_round_trip_gives_the_same_building(path):
    first = load(path)
    text = first.to_yaml()
    second = loads(text, "written.yaml")
    assert signature(second.building()) == signature(first.building())
    assert scene_signature(second.build(5)) == scene_signature(first.build(5))
    assert second.to_yaml().split("\n", 1)[1] == text.split("\n", 1)[1]  # stable
    assert second.spec == first.spec


def test_round_trip_keeps_actions_script_and_modules_options(tmp_path):
    text = Path(MINIMAL).read_text() + (
        "actions:\n  Ana:\n    1: [move ground:D1]\n    2: wait\n"
        "script:\n  - {name: bell, when: {round: 3}, do: {say: The bell rings}}\n"
        "weather: {wind: gale, direction: NE, description: A storm}\n"
        "rules: {flashover: off, breath_rounds: 4, temperament: wild}\n"
    )
    s = loads(text, "x.yaml")
    assert s.actions == {"Ana": {1: ["move ground:D1"], 2: ["wait"]}}
    assert s.script == [{"name": "bell", "when": {"round": 3}, "do": {"say": "The bell rings"}}]
    assert s.settings.flashover is FlashoverMode.OFF  # YAML's bare `off` is read as "off"
    assert s.settings.wind is Wind.GALE and s.settings.breath_rounds == 4
    again = loads(s.to_yaml(), "y.yaml")
    assert again.actions == s.actions and again.script == s.script
    assert again.build(1).script is not None or s.build(1).script is None
    assert again.settings == s.settings


def test_scripted_actions_drive_the_scripted_controller():
    from fuego.engine.controllers import ScriptedController
    from fuego.engine.rounds import play_round, start_scene

    text = Path(MINIMAL).read_text() + "actions:\n  Ana:\n    1: [move ground:D1]\n"
    s = loads(text)
    scene = s.build(1)
    start_scene(scene)
    play_round(scene, ScriptedController(s.actions))
    ana = scene.hero("Ana")
    assert scene.building.areas[ana.area].name == "ground:D1" or ana.status.value != "active"


def test_summary(tavern):
    s = tavern.summary()
    assert s["title"] == "The Gilded Goose"
    assert s["levels"] == 3 and s["rooms"] == 17
    assert s["doors"] == 11 and s["windows"] == 3 and s["routes"] == 4 and s["links"] == 3
    assert s["fires"] == [{"area": "ground:B2", "fd": 3, "temperature": "hot",
                           "kind": "henchman"}]
    assert [h["name"] for h in s["heroes"]][:2] == ["Isabela Soldano", "Gaston Allais"]
    text = tavern.summary_text()
    assert "\n" not in text and "The Gilded Goose" in text and "4 routes" in text


def test_loads_accepts_bytes_and_names_the_source():
    s = loads(Path(MINIMAL).read_bytes(), "bytes.yaml")
    assert s.source == "bytes.yaml"
    with pytest.raises(ScenarioError) as info:
        loads(b"title: \xff", "bad.yaml")
    where = info.value.problems[0].where
    assert where is not None and where.startswith("bad.yaml")


def test_yaml_11_words_stay_text_as_keys():
    text = """
title: Words
rooms: {a: {fuel: 1}, b: {fuel: 2}, c: {fuel: 3}}
legend: {y: a, n: b, '~': c}
levels:
  - name: main
    plan: |
      yn~
"""
    b = loads(text).building()
    assert [a.room for a in b.areas] == ["a", "b", "c"]


def test_modules_are_built_from_the_registry():
    class Dummy(RuleModule):
        name = "test-dummy"

    REGISTRY["test-dummy"] = Dummy
    try:
        text = Path(MINIMAL).read_text() + "rules:\n  modules:\n    test-dummy: {strength: 2}\n"
        s = loads(text)
        scene = s.build(1)
        assert [m.name for m in scene.modules] == ["test-dummy"]
        assert scene.modules[0].options == {"strength": 2}
        assert s.summary()["modules"] == ["test-dummy"]
    finally:
        del REGISTRY["test-dummy"]
    with pytest.raises(ScenarioError, match="unknown module 'test-dummy'"):
        loads(text)


def test_every_problem_is_reported_at_once():
    text = Path(MINIMAL).read_text()
    text = text.replace("fd: 2}", "fd: 12}").replace("brawn: 2", "brawn: 20")
    text = text.replace("start: ground:C1", "start: ground:Q9")
    text += "rules: {temperament: sleepy}\n"
    with pytest.raises(ScenarioError) as info:
        loads(text, "many.yaml")
    messages = [p.render() for p in info.value.problems]
    assert len(messages) == 4, messages
    assert all(m.startswith("many.yaml:") for m in messages)
    joined = "\n".join(messages)
    for fragment in ("fires[0].fd", "heroes[0].traits.brawn", "heroes[0].start",
                     "rules.temperament"):
        assert fragment in joined
    lines = [int(m.split(":")[1]) for m in messages]
    assert lines == sorted(lines)  # in file order


def test_the_worked_example_in_the_docs_loads_and_draws_as_documented():
    import re

    from fuego.render.terminal import plan_plain

    doc = Path(ROOT, "docs", "scenario-format.md").read_text(encoding="utf-8")
    example = re.findall(r"```yaml\n(.*?)```", doc, re.S)[0]
    scenario = loads(example, "wine-shop.yaml")
    assert scenario.title == "The Wine Shop"
    drawing = re.search(r"draws it.*?```\n(.*?)```", doc, re.S)
    assert drawing is not None, "the format's page draws the example"
    drawn = drawing.group(1).rstrip("\n").splitlines()
    lines = plan_plain(scenario.build(1), "ground", symbols=scenario.symbols, ascii=True)
    assert lines[:len(drawn)] == drawn


def test_the_script_example_in_the_docs_plays_on_the_worked_example():
    import re

    from fuego.engine import loop
    from fuego.engine.controllers import AutoController
    from fuego.engine.events import EventKind

    doc = Path(ROOT, "docs", "scenario-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", doc, re.S)
    script = next(b for b in blocks if b.startswith("script:"))
    scenario = loads(blocks[0] + script, "wine-shop.yaml")  # check's every problem, or none
    scene = scenario.build(1)
    loop.run(scene, AutoController(), rounds=1)
    said = [e.data["text"] for e in scene.log if e.kind is EventKind.READ_ALOUD]
    assert said[:1] == ["A lamp crashes to the floor!"]


def test_levels_listed_top_first_take_links_as_bottom_first():
    """'Levels may be listed in any order': a link between a level and the one below it listed
    after it was refused ('are not neighbours')."""
    head = ("title: Cellar\nrooms:\n  bar: {fuel: 3}\n  cellar: {fuel: 4}\n"
            "legend: {b: bar, l: cellar}\nlevels:\n")
    ground = "  - {name: ground, elevation: 0, plan: bbb}\n"
    below = "  - {name: cellar, elevation: -1, plan: lll}\n"
    links = ("links:\n  - {kind: hole, at: ground:B1-cellar:B1}\n"
             "  - {kind: floor, at: cellar:C1-ground:C1, material: stone-floor}\n")
    kinds = []
    for levels in (ground + below, below + ground):
        b = loads(head + levels + links).build(1).building
        kinds.append(sorted((*sorted((b.areas[x.a].name, b.areas[x.b].name)), x.kind.value,
                             x.structure.value if x.structure else None)
                            for x in b.barriers if x.vertical))
    assert kinds[0] == kinds[1]
    assert kinds[0] == [("cellar:A1", "ground:A1", "floor", "wooden-floor"),
                        ("cellar:B1", "ground:B1", "hole", None),
                        ("cellar:C1", "ground:C1", "floor", "stone-floor")]
