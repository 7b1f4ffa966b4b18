"""``fuego run``: headless runs of a scenario, their narration, log and summary.

The golden log ``tests/golden/tavern-seed-7.jsonl`` pins the whole event stream of the shipped
tavern at seed 7. Any change to the engine's rules, the dice or the tavern changes it, on
purpose or not. When the change is meant, regenerate the file and review its diff::

    FUEGO_REGEN_GOLDEN=1 python -m pytest tests/test_run.py -k golden
    git diff tests/golden/
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import two_room_scene

from fuego.cli import cli
from fuego.engine.events import Event
from fuego.engine.heroes import Hero
from fuego.rules.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
TAVERN = ROOT / "campaigns" / "tavern.yaml"
GOLDEN = Path(__file__).resolve().parent / "golden" / "tavern-seed-7.jsonl"
REGEN = os.environ.get("FUEGO_REGEN_GOLDEN") == "1"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, ["run", *map(str, args)], catch_exceptions=False)


# -- the shipped tavern ------------------------------------------------------------------------------
def test_tavern_runs_to_the_end():
    r = run(TAVERN, "--seed", 7)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "seed 7\n" in out and "rerun with" not in out
    assert "\nRound 1 begins:" in out
    assert "\nSummary: " in out
    assert "Rounds played: " in out and "Got out: " in out
    # plain text when piped: no ANSI colour codes
    assert "\x1b[" not in out


def test_the_rounds_count_the_characters_in_play_npcs_too():
    """The tavern's four: three players' heroes and Mother Hettie, the GM's NPC; the round's
    line counts all four, so it says characters (it said '4 heroes in play')."""
    from fuego.scenario.model import load

    heroes = load(TAVERN).build(7).heroes
    assert len(heroes) == 4 and [h.name for h in heroes if h.npc] == ["Mother Hettie"]
    out = run(TAVERN, "--seed", 7, "--rounds", 1).stdout
    assert "\nRound 1 begins: 1 fire burning, 4 characters in play\n" in out
    # and the header and the summary say which of them is the GM's (they called her a hero)
    assert ", Mother Hettie (NPC, automatic); round limit 1" in out
    assert "\n  Mother Hettie (NPC): still inside at " in out


def test_same_seed_same_output_and_log(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    r1 = run(TAVERN, "--seed", 11, "--log", a)
    r2 = run(TAVERN, "--seed", 11, "--log", b)
    assert r1.exit_code == r2.exit_code == 0
    assert r1.stdout == r2.stdout
    assert a.read_bytes() == b.read_bytes()
    assert a.stat().st_size > 0


def test_different_seeds_differ(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    r1 = run(TAVERN, "--seed", 1, "--log", a)
    r2 = run(TAVERN, "--seed", 2, "--log", b)
    assert r1.stdout != r2.stdout
    assert a.read_bytes() != b.read_bytes()


def test_rounds_stops_early(tmp_path):
    log = tmp_path / "two.jsonl"
    r = run(TAVERN, "--seed", 7, "--rounds", 2, "--log", log)
    assert r.exit_code == 0, r.output
    assert "Round 2 ends" in r.stdout
    assert "Round 3 begins" not in r.stdout
    assert "Rounds played: 2 (ended: the round limit)" in r.stdout
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert max(e["round"] for e in events) == 2
    assert events[-1]["kind"] == "scene-end" and events[-1]["rounds"] == 2
    assert events[-1]["why"] == "round-limit"


def test_a_scene_played_out_says_the_fire_is_out(tmp_path):
    """The tavern at seed 7 burns out in round 32 (the golden log): the log's last event, the
    narration's last line and the summary all say why it ended, and when."""
    log = tmp_path / "t.jsonl"
    r = run(TAVERN, "--seed", 7, "--log", log)
    assert r.exit_code == 0, r.output
    end = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert (end["kind"], end["why"], end["rounds"]) == ("scene-end", "fire-out", 32)
    assert "\nThe scene ends after 32 rounds (the fire is out): nothing burns" in r.stdout
    assert "\nRounds played: 32 (ended: the fire is out); the last fire went out in round " \
           in r.stdout


def test_log_lines_are_json_with_the_common_keys(tmp_path):
    log = tmp_path / "t.jsonl"
    assert run(TAVERN, "--seed", 7, "--log", log).exit_code == 0
    raw = log.read_bytes()
    assert raw.endswith(b"\n") and b"\r" not in raw
    lines = raw.decode("utf-8").splitlines()
    kinds = set()
    for line in lines:
        obj = json.loads(line)
        assert {"kind", "round", "phase"} <= obj.keys(), line
        assert isinstance(obj["round"], int) and 0 <= obj["phase"] <= 11
        # deterministic form: sorted keys, no spaces; reads back to the same event
        assert line == json.dumps(obj, sort_keys=True, separators=(",", ":"))
        assert Event.from_dict(obj).to_json() == line
        kinds.add(obj["kind"])
    assert {"scene-start", "round-start", "round-end", "scene-end", "fire-started"} <= kinds
    assert json.loads(lines[-1])["kind"] == "scene-end"
    rounds = [json.loads(x)["round"] for x in lines]
    assert rounds == sorted(rounds)


def test_quiet_prints_only_the_summary():
    full = run(TAVERN, "--seed", 7).stdout
    r = run(TAVERN, "--seed", 7, "--quiet")
    assert r.exit_code == 0
    assert r.stdout.startswith("Summary: ")
    assert "Round 1 begins" not in r.stdout
    assert full.endswith(r.stdout)  # the same summary


def test_verbose_says_more():
    normal = run(TAVERN, "--seed", 7, "--rounds", 3).stdout
    verbose = run(TAVERN, "--seed", 7, "--rounds", 3, "--verbose").stdout
    assert "Action dice:" in verbose and "Action dice:" not in normal
    assert len(verbose.splitlines()) > len(normal.splitlines())


def test_json_events_on_stdout(tmp_path):
    log = tmp_path / "t.jsonl"
    r = run(TAVERN, "--seed", 7, "--rounds", 3, "--json-events", "--log", log)
    assert r.exit_code == 0
    # standard output carries the events only, exactly the log's lines
    assert r.stdout == log.read_text(encoding="utf-8")
    assert "Summary: " in r.stderr and "seed 7" in r.stderr


def test_random_seed_is_printed_and_replays():
    r = run(TAVERN, "--rounds", 2)
    assert r.exit_code == 0
    m = re.search(r"^seed (\d+) — rerun with --seed \1$", r.stdout, re.M)
    assert m, r.stdout[:300]
    again = run(TAVERN, "--rounds", 2, "--seed", m.group(1))
    assert again.stdout == r.stdout.replace(m.group(0), f"seed {m.group(1)}")


def test_quiet_with_a_random_seed_still_names_it():
    r = run(TAVERN, "--rounds", 1, "--quiet")
    assert re.search(r"^seed \d+ — rerun with --seed \d+$", r.stdout, re.M)


def test_golden_log(tmp_path):
    """The tavern at seed 7, event by event (regenerate: see the module docstring)."""
    log = tmp_path / "tavern.jsonl"
    r = run(TAVERN, "--seed", 7, "--log", log)
    assert r.exit_code == 0, r.output
    got = log.read_text(encoding="utf-8")
    if REGEN or not GOLDEN.exists():
        if not REGEN:
            pytest.fail(f"{GOLDEN.relative_to(ROOT)} is missing: create it with "
                        "FUEGO_REGEN_GOLDEN=1 python -m pytest tests/test_run.py -k golden")
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(got, encoding="utf-8", newline="\n")
        pytest.skip(f"regenerated {GOLDEN.relative_to(ROOT)}: review it with git diff")
    want = GOLDEN.read_text(encoding="utf-8")
    if got != want:
        pytest.fail(_golden_diff(want.splitlines(), got.splitlines()), pytrace=False)


def _golden_diff(want: list[str], got: list[str]) -> str:
    i = next((n for n, (w, g) in enumerate(zip(want, got)) if w != g), min(len(want), len(got)))
    where = want[i] if i < len(want) else got[i] if i < len(got) else ""
    try:
        obj = json.loads(where)
        when = f" (round {obj['round']}, phase {obj['phase']}, {obj['kind']})"
    except (ValueError, KeyError):
        when = ""
    lines = [
        f"the tavern's seed-7 event log differs from {GOLDEN.relative_to(ROOT)} "
        f"at line {i + 1}{when}: {len(want)} lines expected, {len(got)} now.",
        f"  expected: {want[i] if i < len(want) else '<end of file>'}",
        f"  got:      {got[i] if i < len(got) else '<end of file>'}",
        "If the engine, the dice or the tavern changed on purpose, regenerate and review:",
        "  FUEGO_REGEN_GOLDEN=1 python -m pytest tests/test_run.py -k golden && git diff tests/golden/",
        "To compare by hand:  fuego run campaigns/tavern.yaml --seed 7 --log /tmp/now.jsonl && "
        f"diff {GOLDEN.relative_to(ROOT)} /tmp/now.jsonl",
    ]
    return "\n".join(lines)


# -- errors ------------------------------------------------------------------------------------------
def test_missing_file_is_exit_2(tmp_path):
    r = CliRunner().invoke(cli, ["run", str(tmp_path / "nowhere.yaml"), "--seed", "1"])
    assert r.exit_code == 2
    assert "fuego: error" in r.stderr or "Error" in r.stderr
    assert "Traceback" not in r.output


def test_bad_scenario_is_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: [unclosed\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["run", str(bad), "--seed", "1"])
    assert r.exit_code == 2
    assert "fuego: error" in r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_quiet_and_verbose_together_is_a_usage_error():
    r = CliRunner().invoke(cli, ["run", str(TAVERN), "--quiet", "--verbose"])
    assert r.exit_code == 2
    assert "--quiet and --verbose" in r.stderr


# -- the command on scenes built by hand (no scenario file) --------------------------------------------
@dataclass
class HandScenario:
    """What ``fuego.scenario.model.load`` returns, for a scene built in code."""

    title: str = "two rooms and a street"
    actions: dict = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    extra_heroes: bool = True

    def build(self, seed: int):
        scene = two_room_scene(seed, settings=self.settings)
        scene.title = self.title
        if self.extra_heroes:
            b = scene.building
            scene.heroes.append(Hero("Diego", b.area("B3").index, brawn=2, resolve=2, panache=2))
        return scene


@pytest.fixture
def hand(monkeypatch):
    import fuego.scenario.model as scenario_model

    box = {"scenario": HandScenario()}
    monkeypatch.setattr(scenario_model, "load", lambda path: box["scenario"])
    return box


def test_hand_scene_runs(hand, tmp_path):
    log = tmp_path / "h.jsonl"
    r = run("hand.yaml", "--seed", 7, "--log", log)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("fuego run: two rooms and a street\nseed 7\n")
    assert "Heroes: Isabela (automatic), Diego (automatic); round limit 60" in r.stdout
    assert "Fire in ground:A2 (Kitchen, FD 3)" in r.stdout
    assert "  Isabela: got out in round" in r.stdout
    first = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert first["kind"] == "fire-started" and first["round"] == 0  # the starting fire


def test_scripted_heroes_follow_their_actions(hand, tmp_path):
    hand["scenario"] = HandScenario(actions={"Isabela": {1: ["wait", "wait", "wait"],
                                                         2: ["move ground:B1"]}})
    log = tmp_path / "s.jsonl"
    r = run("hand.yaml", "--seed", 7, "--rounds", 2, "--log", log)
    assert r.exit_code == 0, r.output
    assert "Isabela (scripted), Diego (automatic)" in r.stdout
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    acts = [(e["round"], e["action"]) for e in events
            if e["kind"] == "hero-action" and e.get("actor") == "Isabela"]
    assert acts[:3] == [(1, "wait")] * 3
    assert (2, "move ground:B1") in acts


#: Ana is scripted to open the shop door in round 2 and step out; the script breaks the door in
#: round 1, so her "open" is no longer legal when its turn comes (her step through the gap is).
BROKEN_DOOR = """\
title: The broken door
rooms:
  shop: {fuel: 3}
  back: {fuel: 2, wall: stone-wall}
  street: {outdoors: true}
legend: {s: shop, b: back, o: street}
levels:
  - name: ground
    elevation: 0
    plan: |
      bbss
      bbss
      oooo
doors:
  - {at: ground:C2-ground:C3, name: shop door}
heroes:
  - name: Ana
    traits: {brawn: 3, finesse: 3, wits: 2, resolve: 3, panache: 3}
    start: ground:C2
fires:
  - {area: ground:A1, fd: 2}
script:
  - name: the door gives
    when: {round: 1}
    do:
      - break: {barrier: ground:C2-ground:C3, fd: 1, by: "a falling beam"}
actions:
  Ana:
    1: wait
    2: [open shop door, move ground:C3]
"""


def test_a_scripted_action_the_rules_refuse_is_skipped_and_the_run_goes_on(tmp_path):
    scenario = tmp_path / "door.yaml"
    scenario.write_text(BROKEN_DOOR, encoding="utf-8")
    log = tmp_path / "door.jsonl"
    r = run(scenario, "--seed", 7, "--log", log)
    assert r.exit_code == 0, r.output
    # the narration says which action and why (the log names its key path); then Ana goes on
    assert "Round 2 begins" in r.stdout.split("Ana skips the scripted")[0]
    assert "Ana skips the scripted 'open shop door': Ana cannot 'open shop door' now (legal " \
           "now: " in r.stdout
    assert "Ana gets out at ground:C3" in r.stdout and "Traceback" not in r.output
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    skipped = [e for e in events if e["kind"] == "action-skipped"]
    assert [(e["round"], e["actor"], e["action"], e["where"]) for e in skipped] == \
        [(2, "Ana", "open shop door", "actions.Ana.2[0]")]
    assert skipped[0]["why"] == "Ana cannot 'open shop door' now"
    assert skipped[0]["tip"].startswith("legal now: ")
    after = events[events.index(skipped[0]) + 1:]
    assert next(e for e in after if e["kind"] == "hero-action")["action"] == "move ground:C3"


def test_round_limit_from_the_settings(hand):
    hand["scenario"] = HandScenario(settings=Settings(max_rounds=3))
    r = run("hand.yaml", "--seed", 7)
    assert "round limit 3" in r.stdout
    assert "Rounds played: 3 (ended: the round limit); still burning: " in r.stdout
    assert "The scene ends after 3 rounds (the round limit): still " in r.stdout


def test_log_that_cannot_be_written_is_exit_2(hand, tmp_path):
    r = CliRunner().invoke(cli, ["run", "hand.yaml", "--seed", "7", "--log",
                                 str(tmp_path / "no" / "such" / "dir.jsonl")])
    assert r.exit_code == 2
    assert "cannot write the event log" in r.stderr


@pytest.mark.parametrize("command", ["run", "play", "show", "map"])
@pytest.mark.parametrize("seed", ["-3", "9223372036854775808", "7.5", "x"])
def test_a_seed_is_a_whole_number_a_gm_can_type_back(command, seed):
    # random.Random would take -3 as 3: the same scene under two seeds. Refused, exit 2.
    out = CliRunner().invoke(cli, [command, str(TAVERN), "--seed", seed])
    assert out.exit_code == 2
    assert "Invalid value for '--seed'" in out.output and "Traceback" not in out.output
