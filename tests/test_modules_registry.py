"""The module registry, modules combined in one scene, and scenes without modules unchanged."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from helpers import two_room_scene
from test_modules_support import field, scene_with

from fuego.engine import loop
from fuego.engine.controllers import AutoController, ScriptedController
from fuego.engine.events import EventKind
from fuego.engine.fire import FireState
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.errors import FuegoError
from fuego.modules import REGISTRY
from fuego.modules.fire_breaks import FireBreaks
from fuego.modules.registry import NAMES, build, enable

HERE = os.path.dirname(os.path.abspath(__file__))

# A run of the shared two-room scene (tests/helpers.py), as a digest of its JSON-lines log.
RUN = """
import hashlib, sys
sys.path.insert(0, {here!r})
from helpers import two_room_scene
from fuego.engine.controllers import AutoController
from fuego.engine import loop
s = two_room_scene(seed={seed})
loop.run(s, AutoController(), rounds=12)
assert "fuego.modules.registry" not in sys.modules
print(hashlib.sha256("\\n".join(e.to_json() for e in s.log).encode()).hexdigest())
"""


def digest(scene) -> str:
    return hashlib.sha256("\n".join(e.to_json() for e in scene.log).encode()).hexdigest()


def test_the_registry_holds_every_module():
    assert sorted(REGISTRY) == sorted(NAMES)
    for name in NAMES:
        cls = REGISTRY[name]
        assert cls.name == name and cls.source and cls.check_options({}) == []
        assert cls.__module__ == "fuego.modules." + name.replace("-", "_")


def test_unknown_module_names_its_key():
    with pytest.raises(FuegoError) as exc:
        build({"lava": {}})
    assert str(exc.value).startswith("rules.modules.lava: unknown module 'lava'")


@pytest.mark.parametrize("seed", [7, 21])
def test_a_scene_without_modules_plays_as_before_the_registry_existed(seed):
    out = subprocess.run([sys.executable, "-c", RUN.format(here=HERE, seed=seed)],
                         capture_output=True, text=True, check=True)
    s = two_room_scene(seed=seed)
    enable(s, {})
    assert s.modules == []
    loop.run(s, AutoController(), rounds=12)
    assert digest(s) == out.stdout.strip()


def test_modules_that_cannot_act_leave_the_run_alone():
    # firefighting nobody uses, fire breaks with nothing to spend, moderate weather indoors
    plain = two_room_scene(seed=5)
    loop.run(plain, AutoController(), rounds=10)
    inert = two_room_scene(seed=5)
    enable(inert, {"firefighting": {}, "fire-breaks": {}, "weather": {"ec": "moderate"}})
    loop.run(inert, AutoController(), rounds=10)
    same = [e.to_json() for e in inert.log if e.kind is not EventKind.WEATHER]
    assert same == [e.to_json() for e in plain.log]


# -- all modules in one scene ----------------------------------------------------------------
PLAN = ["wwwwrbbbb",
        "wwwwrbbbb",
        "wwwwrhhhh",
        "wwwwrhhhh",
        "bbbbrhhhh"]
ALL = {
    "weather": {"month": "aug", "rain": "light"},
    "wind": {"force": "mild-breeze", "direction": "W"},
    "flame-and-blaze": {},
    "ignition": {"terrain": {"woods": "woods", "road": "paved"}, "incendiaries": {"Villain": 1}},
    "firefighting": {"helpers": 2, "sand": 2},
    "structures": {},
    "drifting-smoke": {},
    "fire-breaks": {"factors": 2, "areas": {"ground:D1": "clear"}},
}


class Busy(AutoController):
    """The villain throws his incendiary; Ana fights any fire she can reach; else run."""

    WANT = ("throw-incendiary", "bucket-chain", "sand", "blanket", "set-fire")

    def choose(self, scene, hero, legal):
        for verb in self.WANT:
            for act in legal:
                if act.kind.value == verb:
                    return act
        return super().choose(scene, hero, legal)


def _combined(seed: int, order: list[str], rounds: int = 14):
    b = field(PLAN)
    mods = {name: ALL[name] for name in order}
    s = scene_with(b, mods, seed=seed)
    s.heroes.extend([Hero("Ana", b.area("H4").index, brawn=3, knacks={"firefighting": 2}),
                     Hero("Villain", b.area("G4").index, npc=True)])
    s.start_fire(b.area("A1").index, 3, Cause.START)
    loop.run(s, Busy(), rounds=rounds)
    return s


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("reverse", [False, True])
def test_every_module_together(seed, reverse):
    order = list(ALL)[::-1] if reverse else list(ALL)
    s = _combined(seed, order)
    kinds = {e.kind for e in s.log}
    assert EventKind.SCENE_END in kinds and EventKind.WIND in kinds
    acted = {e.data.get("module") for e in s.log}
    assert {"weather", "wind", "flame-and-blaze", "ignition", "firefighting",
            "fire-breaks"} <= acted
    for e in s.log:
        if e.kind is EventKind.FIRE_STARTED:
            assert e.data["cause"]
    for fire in s.fires.values():
        assert fire.state is not FireState.OUT
    assert s.module(FireBreaks).cleared == {s.building.find("D1"): "clear"}
    for m in s.modules:  # saves: every module's state is plain JSON
        json.dumps(m.state())
        fresh = type(m)(m.options)
        fresh.load_state(json.loads(json.dumps(m.state())))
        assert json.dumps(fresh.state(), sort_keys=True) == json.dumps(m.state(), sort_keys=True)


def test_wind_drifting_smoke_and_firefighting_in_one_scene():
    b = field(["bbbbbb", "bbbbbb", "bbbbbb"])
    s = scene_with(b, {"wind": {"force": "mild-breeze", "direction": "W", "changes": False},
                       "drifting-smoke": {}, "firefighting": {"helpers": 9}}, seed=3)
    assert s.smoke is not None
    hero = Hero("Ana", b.area("D2").index, brawn=3)
    s.heroes.append(hero)
    s.start_fire(b.area("C2").index, 2, Cause.START)
    controller = ScriptedController({"Ana": {1: ["bucket-chain ground:C2"]}}, AutoController())
    loop.run(s, controller, rounds=1)
    # the smoke drifted east over Ana's area; her chain of 10 (+9) cannot miss
    assert b.find("C2") not in s.fires
    joined = [e for e in s.log if e.data.get("module") == "firefighting"]
    assert joined and joined[-1].data["success"] is True
    # the smoke of C2 (and of any fire it set this round) trails two areas east, none west
    burning_cols = {s.building.areas[i].col for i in s.fires} | {2}
    smoked_cols = {s.building.areas[i].col for i in s.smoke.density}
    assert 4 in smoked_cols and min(smoked_cols) >= min(burning_cols)


def test_enable_reads_the_settings():
    s = scene_with(field(["bb"]), {"wind": {"force": "none"}})
    s.modules = []
    enable(s)
    assert [m.name for m in s.modules] == ["wind"]


@pytest.mark.parametrize("order", [["wind", "firefighting"], ["firefighting", "wind"]])
def test_a_fire_put_out_at_the_round_end_does_not_also_spread(order):
    from fuego.engine.rounds import end_round

    opts = {"wind": {"force": "heavy-winds", "direction": "W"}, "firefighting": {}}
    b = field(["bbb", "bbb", "bbb"])
    # change check 3+4; fuel check: 0 damage, 99 to pass; the chain rolls 6+6
    s = scene_with(b, {k: opts[k] for k in order}, faces=[3, 4, 6, 6], totals=[0, 99],
                   smoke=False, burning_clothes=False)
    ana = Hero("Ana", b.area("A2").index)
    s.heroes.append(ana)
    s.start_fire(b.area("B2").index, 3, Cause.START)
    s.round = 1
    for m in s.modules:
        m.round_start(s)
    from fuego.engine.hero_actions import perform as hero_perform
    from fuego.engine.hero_actions import read_action

    hero_perform(s, ana, read_action(s, ana, "bucket-chain ground:B2"))
    end_round(s)
    assert not s.fires  # out before the heavy winds could carry it east


def test_check_names_the_line_of_a_module_option_naming_no_room(tmp_path):
    from click.testing import CliRunner

    from fuego.cli import cli

    path = tmp_path / "barn.yaml"
    path.write_text("""\
title: The Barn
rooms:
  barn: {fuel: 5}
  yard: {outdoors: true}
legend: {b: barn, y: yard}
levels:
  - {name: ground, plan: "bby"}
rules:
  modules:
    structures:
      cf: {bran: 24}
""", encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 2
    # it named no line and offered no room
    assert f"{path}:11: rules.modules.structures.cf.bran: no room or area of that name (did " \
        "you mean 'barn'?); rooms: barn, yard" in r.output, r.output


def test_check_puts_a_bad_module_option_on_its_own_line_and_key(tmp_path):
    from click.testing import CliRunner

    from fuego.cli import cli

    path = tmp_path / "barn.yaml"
    path.write_text("""\
title: The Barn
rooms:
  barn: {fuel: 5}
legend: {b: barn}
levels:
  - {name: ground, plan: "bb"}
rules:
  modules:
    firefighting:
      helper: 2
    ignition:
      terrain:
        barn: orchrd
""", encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 2
    # they were both on the module's line, as 'rules.modules.ignition: terrain.barn: ...'
    assert f"{path}:10: rules.modules.firefighting.helper: unknown option (did you mean " \
        "'helpers'?)" in r.output, r.output
    assert f"{path}:13: rules.modules.ignition.terrain.barn: expected one of clear" \
        in r.output, r.output
