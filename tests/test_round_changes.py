"""What changed this round, on the GM's round screen: a line over the plans and new fires
underlined on them (issue 26: 'nothing marks what changed this round ... on the GM's plan')."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fuego.cli import cli
from fuego.engine.events import EventKind
from fuego.render.changes import round_changes
from fuego.render.terminal import plan_text
from fuego.scenario.model import load

CAMPAIGNS = Path(__file__).resolve().parent.parent / "campaigns"


def _tavern_after_one_round():
    from fuego.engine.controllers import AutoController
    from fuego.engine.rounds import play_round

    scene = load(str(CAMPAIGNS / "tavern.yaml")).build(seed=7)
    play_round(scene, AutoController())
    return scene


def test_round_changes_are_the_rounds_events():
    scene = _tavern_after_one_round()
    started = {e.area for e in scene.log if e.kind is EventKind.FIRE_STARTED and e.round == 1}
    changed = round_changes(scene.log, 1)
    assert changed.new == started and started
    assert not round_changes(scene.log, 2)  # nothing has happened in round 2 yet


def test_fires_lit_this_round_are_underlined_on_the_plan():
    scene = _tavern_after_one_round()
    level = scene.building.areas[next(iter(scene.fires))].level
    drawn = plan_text(scene, level, title=False, legend=False)
    styles = {str(span.style) for line in drawn for span in line.spans}
    assert any("underline" in s for s in styles)
    for fire in scene.fires.values():
        fire.born = 0  # as if every fire were older: nothing is underlined
    drawn = plan_text(scene, level, title=False, legend=False)
    assert not any("underline" in str(span.style) for line in drawn for span in line.spans)


def test_the_round_screen_says_what_the_last_round_changed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tavern.yaml").write_text((CAMPAIGNS / "tavern.yaml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    out = CliRunner().invoke(cli, ["play", "tavern.yaml", "--seed", "7", "--session", "s.json"],
                             input="\n" * 60 + "quit\n").output
    head, _, after = out.partition("before round 2")
    assert "Round 1: 5 new fires, 2 doors opened" in after.splitlines()[1]
    assert "new fires" not in head  # nothing to say before the first round


def test_a_floor_that_gave_way_is_not_also_a_wall_that_broke():
    from fuego.engine.controllers import AutoController
    from fuego.engine.rounds import play_round

    scene = load(str(CAMPAIGNS / "tavern.yaml")).build(seed=7)
    for _ in range(5):
        play_round(scene, AutoController())
    broke = [e.data["structure"] for e in scene.log
             if e.round == 5 and e.kind is EventKind.STRUCTURE_DESTROYED]
    assert broke.count("wooden-floor") == 4 and len(broke) == 5  # and one door
    words = round_changes(scene.log, 5).words(scene.building)
    assert "a wall or door broke, 4 floors gave way" in words
    assert "walls and doors" not in words  # the floors were counted as walls too


def test_a_door_closed_this_round_is_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tavern.yaml").write_text((CAMPAIGNS / "tavern.yaml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    # seed 11: Hettie steps to the kitchen door in phase 5 and shuts it in phase 7
    answers = ["", "4", "12", "move E4", "hold", "2", "move D2", "3", "4",
               "close kitchen door"] + [""] * 12
    out = CliRunner().invoke(cli, ["play", "tavern.yaml", "--seed", "11", "--session", "s.json"],
                             input="\n".join(answers) + "\nquit\n").output
    assert "Mother Hettie closes the kitchen door (wooden door)" in out
    line = out.partition("before round 2")[2].splitlines()[1]
    assert line.startswith("Round 1: ") and "a door closed" in line, line


def test_a_fire_lit_put_out_and_lit_again_counts_twice_so_the_words_add_up(tmp_path,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    # the GM's hand in round 1 (at Bjorn's prompt): a fire in the bar, put out, lit again
    answers = ["", "fire ground:D2 3", "fd ground:D2 0", "fire ground:D2 3"] + [""] * 40
    out = CliRunner().invoke(cli, ["play", str(CAMPAIGNS / "tavern.yaml"), "--seed", "7",
                                   "--session", "s.json"],
                             input="\n".join(answers) + "\nquit\n").output
    before, after = (out.partition("before round 2")[2].splitlines()[i] for i in (0, 1))
    # "before round 2: N fires": 1 fire before round 1, plus those started, less those out
    now = int(before.split(": ")[1].split()[0])
    words = after.removeprefix("Round 1: ")
    started = int(words.split(" new fires")[0])
    assert "a fire went out" in words, words
    assert 1 + started - 1 == now, (before, after)
