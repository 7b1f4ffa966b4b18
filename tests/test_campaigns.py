"""The shipped set pieces (issue 7): each checks, runs to its end with ``fuego run``, and its key
scripted moment happens for a fixed seed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli

CAMPAIGNS = Path(__file__).resolve().parent.parent / "campaigns"
SHIPPED = ("tavern", "ship", "village")
SEED = "3"


def run(path: Path, tmp_path: Path, *args: str) -> tuple[str, list[dict]]:
    log = tmp_path / f"{path.stem}.jsonl"
    r = CliRunner().invoke(cli, ["run", str(path), "--seed", SEED, "--log", str(log), *args])
    assert r.exit_code == 0, r.output
    return r.output, [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def cues(events: list[dict]) -> dict[str, int]:
    """Cue name -> the round it first fired."""
    out: dict[str, int] = {}
    for e in events:
        if e["kind"] == "script" and "times" in e:
            out.setdefault(e["cue"], e["round"])
    return out


def test_every_campaign_checks():
    files = sorted(str(p) for p in CAMPAIGNS.glob("*.yaml"))
    assert {Path(f).stem for f in files} >= set(SHIPPED)
    r = CliRunner().invoke(cli, ["check", *files])
    assert r.exit_code == 0, r.output
    for name in SHIPPED:
        assert f"{name}.yaml" in r.output


@pytest.mark.parametrize("name", SHIPPED)
def test_each_campaign_has_a_gm_briefing_and_a_script(name):
    from fuego.scenario.model import load
    from fuego.scenario.script.cues import Script

    scenario = load(CAMPAIGNS / f"{name}.yaml")
    assert len(scenario.briefing) > 200
    scene = scenario.build(1)
    assert isinstance(scene.script, Script) and len(scene.script) >= 6


def is_ending(cue: dict) -> bool:
    """A cue on the last fire going out (alone, or with what else happened: ``all:``)."""
    when = cue["when"]
    return bool(when.get("last-fire-out")) or any(
        part.get("last-fire-out") for part in when.get("all", []))


@pytest.mark.parametrize("path", sorted(CAMPAIGNS.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_last_fire_out_line_names_its_room_once_wherever_it_dies(path):
    # (the wagon's read "The last flames die in the Calle de los Toneleros. The Calle de los
    # Toneleros counts its losses.": the last fire can die in any room)
    import yaml

    from fuego.scenario.model import load
    from fuego.scenario.script.effects import say_text

    rooms = load(path).build(1).building.rooms.values()
    cues = yaml.safe_load(path.read_text(encoding="utf-8"))["script"]
    texts = [step["say"] for cue in cues if is_ending(cue)
             for step in cue["do"] if "say" in step]
    assert texts, path.stem
    for text in texts:
        for room in rooms:
            said = say_text(text, {"room": room.spoken})
            assert said.count(room.name) == 1, said


@pytest.mark.parametrize("name", SHIPPED)
def test_each_campaign_runs_to_its_end(name, tmp_path):
    output, events = run(CAMPAIGNS / f"{name}.yaml", tmp_path)
    assert "The scene ends" in output and "Read aloud:" in output
    assert events[0]["kind"] in ("fire-started", "scene-start") and events[-1]["kind"] == "scene-end"
    kinds = {e["kind"] for e in events}
    assert {"script", "read-aloud"} <= kinds
    fired = cues(events)
    # it ran until the last fire went out (the ship's ending says whether the magazine blew,
    # the tavern's whether the fire took her)
    assert fired.keys() & {"the fire is out", "the wreck settles", "the Goose still stands"}
    assert all(e["round"] <= events[-1]["round"] for e in events)


def test_the_tavern_spirits_vault_flares_then_explodes(tmp_path):
    output, events = run(CAMPAIGNS / "tavern.yaml", tmp_path)
    fired = cues(events)
    assert fired["the lamp falls"] == 1
    assert fired["the casks catch"] < fired["the spirits vault goes up"]
    blast = [e for e in events if e["kind"] == "script" and e.get("effect") == "explode"
             and e["cue"] == "the spirits vault goes up"]
    assert blast and blast[0]["area"] == "cellar:C3" and blast[0]["fd"] == 8
    # a hot 8-die fire in the vault, and the blast breaks walls, doors and floors around it
    assert any(e["kind"] in ("fire-started", "fire-merged") and e.get("explosion")
               and e["area"] == "cellar:C3" and e["fd"] == 8 for e in events)
    assert any(e["kind"] == "structure-destroyed" and e.get("actor") == "the explosion"
               for e in events)
    assert "the spirits vault goes up with a roar" in output


SHELL = "The Gilded Goose is a shell of black timbers."
STANDS = "the Gilded Goose still stands."


def fighting_tavern(tmp_path: Path) -> Path:
    """The tavern with its three player heroes on ``plan: fight`` (they flee by default, and the
    fire then always takes the whole tavern)."""
    text = (CAMPAIGNS / "tavern.yaml").read_text(encoding="utf-8")
    fought = re.sub(r"(    start: (?:ground:F4|upper:B1|cellar:C3)\n)", r"\1    plan: fight\n", text)
    assert fought.count("plan: fight") == 3
    path = tmp_path / "tavern-fight.yaml"
    path.write_text(fought, encoding="utf-8")
    return path


def endings(events: list[dict]) -> tuple[list[str], list[str]]:
    """The ending cues that fired, and every text read aloud."""
    fired = [e["cue"] for e in events if e["kind"] == "script" and "times" in e
             and e["cue"] in ("the fire is out", "the Goose still stands")]
    return fired, [e["text"] for e in events if e["kind"] == "read-aloud"]


@pytest.mark.parametrize("seed", ["23", "24"])
def test_the_tavern_put_out_early_still_stands(seed, tmp_path):
    # (at these seeds the fighting heroes put the fire out by round 14, the common room never
    # flashed over: the tavern read "a shell of black timbers" all the same)
    output, events = run(fighting_tavern(tmp_path), tmp_path, "--seed", seed)
    fired, said = endings(events)
    assert fired == ["the Goose still stands"]
    assert any(STANDS in text for text in said) and not any(SHELL in text for text in said)
    assert not any(e["kind"] == "flashover" and e.get("room") == "common" for e in events)
    assert "Rooms burned: 17 of 17" not in output and "ended: the fire is out" in output


@pytest.mark.parametrize("fight", [False, True], ids=["flee", "fight"])
def test_the_tavern_the_fire_took_is_a_shell(fight, tmp_path):
    # (fled at seed 3, fought and lost at seed 1: the common room flashed over and the fire
    # climbed upstairs before it went out)
    path = fighting_tavern(tmp_path) if fight else CAMPAIGNS / "tavern.yaml"
    _, events = run(path, tmp_path, *(["--seed", "1"] if fight else []))
    fired, said = endings(events)
    assert fired == ["the fire is out"]
    assert any(SHELL in text for text in said) and not any(STANDS in text for text in said)
    assert any(e["kind"] == "flashover" and e.get("room") == "common" for e in events)


def test_the_ship_powder_magazine_explodes(tmp_path):
    output, events = run(CAMPAIGNS / "ship.yaml", tmp_path)
    fired = cues(events)
    assert "the magazine blows" in fired
    boom = fired["the magazine blows"]
    blasted = [e for e in events if e["kind"] in ("fire-started", "fire-merged")
               and e.get("explosion") and e["round"] == boom]
    assert any(e["area"] == "hold:I2" and e["fd"] == 10 for e in blasted)
    assert len(blasted) > 3  # and fires scattered around it
    assert any(e["kind"] == "script" and e.get("npc") == "Pip" for e in events)
    assert "the magazine goes up" in output


def test_the_village_fire_break_holds_and_without_it_the_fire_reaches_the_village(tmp_path):
    path = CAMPAIGNS / "village.yaml"
    output, events = run(path, tmp_path)
    fired = cues(events)
    assert "the hayloft falls" in fired and "the storm breaks" in fired
    assert any(e["kind"] == "floor-collapsed" and e.get("area", "").startswith("loft:")
               for e in events)
    assert any(e["kind"] == "module" and "fire breaks" in e.get("text", "") for e in events) \
        or "fire breaks" in output
    assert "the fire jumps the break" not in fired
    # the same afternoon without the fire break
    text = path.read_text(encoding="utf-8")
    bare = re.sub(r"    fire-breaks:\n(?:      .*\n)+", "", text)
    assert bare != text
    no_break = tmp_path / "village-no-break.yaml"
    no_break.write_text(bare, encoding="utf-8")
    # (at seed 3 the storm of round 8 saves the village even so: since issue 27 an outdoor fire
    # spreads only downwind, Alpha Strike's arc, and reaches the lane later; at seed 1 it does
    # not wait for the rain)
    _, events = run(no_break, tmp_path, "--seed", "1")
    assert "the fire jumps the break" in cues(events)
    _, events = run(path, tmp_path, "--seed", "1", "--force")
    assert "the fire jumps the break" not in cues(events)
