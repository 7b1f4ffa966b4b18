"""The GM's table, second pass (issue 19): a round screen that fits (driven in tmux), odds in
every menu, the players' own dice, the GM's hand and a scene that offers to end."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_session import ANSWERS, SHOP

from fuego.cli import cli
from fuego.cli.gm_screen import cells
from fuego.dice.odds import chance
from fuego.dice.roller import Pool
from fuego.errors import RuleError
from fuego.names import short_names
from fuego.table.entry import read_action_dice, read_roll
from fuego.table.risk import percent

REPO = Path(__file__).resolve().parents[1]
TAVERN = REPO / "campaigns" / "tavern.yaml"
WAGON = REPO / "campaigns" / "wagon.yaml"
TMUX = shutil.which("tmux") or "/usr/bin/tmux"
#: Where each tavern hero stands before round 1, and the Dramatic Wounds that knock it out.
TAVERN_HEROES = {"Isabela Soldano": ("ground:F4", 6), "Gaston Allais": ("upper:B1", 4),
                 "Bjorn Haraldsson": ("cellar:C3", 6), "Mother Hettie": ("ground:D1", 2)}


@pytest.fixture
def shop(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    return tmp_path


def play(answers, *args, save="s.json", scenario="shop.yaml", seed="572"):
    result = CliRunner().invoke(cli, ["play", scenario, "--seed", seed, "--session", save, *args],
                                input="".join(a + "\n" for a in answers))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


def saved(path="s.json") -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# -- the round's screen in a real terminal ----------------------------------------------------------
class Tmux:
    """``fuego play`` in a detached tmux session of a given size; the pane read as the GM sees
    it (``capture-pane``: the visible lines only)."""

    def __init__(self, tmp: Path, width: int, height: int, args: str | None = None):
        self.sock = str(tmp / "tmux.sock")
        self.tmp = tmp
        args = args or f"play {TAVERN} --seed 7 --session s.json"
        cmd = (f"cd {tmp} && PYTHONPATH={REPO} {sys.executable} -c "
               f"'from fuego.cli import main; main()' {args}; sleep 60")
        env = dict(os.environ, TERM="xterm-256color")
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        subprocess.run([TMUX, "-S", self.sock, "new-session", "-d", "-x", str(width), "-y",
                        str(height), cmd], check=True, env=env)

    def pane(self) -> list[str]:
        out = subprocess.run([TMUX, "-S", self.sock, "capture-pane", "-p"], check=True,
                             capture_output=True, text=True).stdout
        return out.rstrip("\n").split("\n")

    def wait_for(self, text: str, timeout: float = 60) -> list[str]:
        end = time.monotonic() + timeout
        while True:
            lines = self.pane()
            if any(text in line for line in lines):
                return lines
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never showed:\n" + "\n".join(lines))
            time.sleep(0.2)

    def send(self, *keys: str) -> None:
        subprocess.run([TMUX, "-S", self.sock, "send-keys", *keys], check=True)

    def answer(self, text: str, then: str, timeout: float = 60, prompt: bool = True
               ) -> list[str]:
        """Type ``text`` and Enter, then wait until ``then`` shows after it and fuego waits at
        a prompt again; the pane's lines then."""
        before = len(self.history().rstrip("\n").split("\n"))
        if text:
            self.send("-l", text)
        self.send("Enter")
        end = time.monotonic() + timeout
        while True:
            fresh = self.history().rstrip("\n").split("\n")[before:]
            if any(then in line for line in fresh) and (fresh[-1].endswith(":") or not prompt):
                time.sleep(0.2)  # the prompt is written last; let the pane settle
                return self.pane()
            if time.monotonic() > end:
                raise AssertionError(f"{then!r} never showed after {text!r}:\n"
                                     + "\n".join(fresh[-60:]))
            time.sleep(0.2)

    def history(self) -> str:
        """Everything the pane has shown (the scrollback too), as one text."""
        return subprocess.run([TMUX, "-S", self.sock, "capture-pane", "-p", "-S", "-"],
                              check=True, capture_output=True, text=True).stdout

    def close(self) -> None:
        subprocess.run([TMUX, "-S", self.sock, "kill-server"], check=False,
                       capture_output=True)


@pytest.fixture
def tmux(tmp_path):
    if not os.path.exists(TMUX):
        pytest.skip("tmux is not installed")
    made: list[Tmux] = []

    def start(width: int, height: int, args: str | None = None) -> Tmux:
        t = Tmux(tmp_path, width, height, args)
        made.append(t)
        return t

    yield start
    for t in made:
        t.close()


def _assert_heroes_visible(lines: list[str]) -> None:
    for name, (area, knocked_out) in TAVERN_HEROES.items():
        row = [line for line in lines if line.strip().startswith((name, *short_names([name])))
               and area in line]
        assert row, f"{name}'s row (at {area}) is not on the screen:\n" + "\n".join(lines)
        assert f"0 FW 0/{knocked_out} DW" in row[0], row[0]


@pytest.mark.slow
def test_round_screen_fits_120_by_50(tmux):
    t = tmux(120, 50)
    lines = t.wait_for("Round 1: Enter to play it")
    # the whole round screen is on the terminal at once: from its title down to the prompt
    top = [i for i, line in enumerate(lines) if "The Gilded Goose - before round 1" in line]
    assert top, "the round screen's title scrolled off:\n" + "\n".join(lines)
    assert lines[-1].startswith("Round 1: Enter to play it")
    assert len(lines) - top[0] <= 50
    # the three plans side by side (a hero stands on each level), not stacked
    assert any("upper (level 1)" in line and "ground (level 0)" in line
               and "cellar (level -1)" in line for line in lines)
    _assert_heroes_visible(lines[top[0]:])
    assert all(len(line) <= 120 for line in lines)


@pytest.mark.slow
def test_round_screen_at_80_by_24_then_narration_scrolls(tmux):
    t = tmux(80, 24)
    lines = t.wait_for("Round 1: Enter to play it")
    top = [i for i, line in enumerate(lines) if "The Gilded Goose - before round 1" in line]
    assert top, "the round screen does not fit 24 lines:\n" + "\n".join(lines)
    assert any("map" in line for line in lines[top[0]:])  # where the plans went
    _assert_heroes_visible(lines[top[0]:])
    # the columns a GM needs are all there at 80 columns
    header = next(line for line in lines if "where" in line and "wounds" in line)
    for column in ("where", "wounds", "smoke", "confused", "clothes"):
        assert column in header
    t.send("", "Enter")
    lines = t.wait_for("Bjorn Haraldsson [")  # the first hero to act at seed 7
    assert all(len(line) <= 80 for line in lines)
    # narration wrapped between words: joined again, the words are whole
    text = " ".join(line.strip() for line in lines)
    assert "the hanging lamp lies smashed by the hearth and burning oil runs across the " \
           "flagstones" in text


@pytest.mark.slow
def test_a_terminal_too_short_for_every_plan_draws_those_that_fit(tmux):
    t = tmux(100, 40)
    lines = t.wait_for("Round 1: Enter to play it")
    top = next(i for i, line in enumerate(lines) if "before round 1" in line)
    # ground (two heroes) and upper fit beside each other; the cellar is named, not drawn
    assert any("upper (level 1)" in line and "ground (level 0)" in line for line in lines)
    assert not any("cellar (level -1)" in line for line in lines)
    assert "(not drawn, no room on this terminal: cellar - map LEVEL)" in lines
    _assert_heroes_visible(lines[top:])
    assert lines[-1].startswith("Round 1: Enter to play it")


@pytest.mark.slow
def test_a_long_title_is_cut_so_the_moment_and_the_fires_show(tmux):
    t = tmux(80, 24, f"play {WAGON} --seed 1 --session s.json")
    lines = t.wait_for("Round 1: Enter to play it")
    rule = next(line for line in lines if "before round 1" in line)
    assert rule.rstrip("─ ").endswith("before round 1: a wagon ablaze at ground:C2 (no other "
                                      "fire)")
    assert "The hay wag\u2026" in rule and cells(rule) <= 80


# -- odds before choosing ---------------------------------------------------------------------------
def test_a_menu_shows_each_choice_chance_before_it_is_picked(shop):
    out = play(ANSWERS[:5])
    menu = out[out.rindex("Phase 6 - Ana Vaz"):out.rindex("Ana Vaz [")]
    # Ana (Brawn 3, Firefighting 2) smothers the 4-die fire: 5k3 against TN 20
    assert f"smother ground:B1 (4 Fire Dice; 5k3 vs TN 20: {percent(chance(Pool(5, 3), 20))};" \
           in menu
    # stepping into fire: the avoid roll (Panache 3 + Leaping 1) and what a failure risks
    burning = [line for line in menu.splitlines() if "move ground:B1" in line]
    assert burning and "avoid 4k3 vs TN 20:" in burning[0], menu
    assert re.search(r"risks ~\d+\.\d FW, \d+% a Dramatic Wound", burning[0]), burning[0]
    # every choice that rolls says its chance; the others (doors, plain moves) none
    for line in menu.splitlines():
        if re.match(r"\s+\*?\s?\d+\. (smother|spot)", line):
            assert "%" in line, line


def test_back_at_a_roll_returns_to_the_menu_and_keeps_the_round(shop):
    out = play(ANSWERS[:6] + ["back", "wait", "quit"])
    assert "back to Ana Vaz's choices (round 1, phase 6)" in out
    inputs = saved()["inputs"]
    assert [e.get("a") for e in inputs][-2:] == ["move ground:C1", "wait"]
    assert inputs[0] == {"q": "round", "round": 1, "a": "next"}  # round 1 was not undone


# -- the players' dice ------------------------------------------------------------------------------
def test_dice_as_rolled_keep_the_highest():
    assert read_roll("3 7 9 10+4 2", Pool(5, 3)) == (30, [3, 7, 9, 14, 2])
    assert read_roll("3, 7, 9, 14, 2", Pool(5, 3)) == (30, [3, 7, 9, 14, 2])
    assert read_roll("17", Pool(5, 3)) == (17, None)
    assert read_roll("10+10+3 1", Pool(2, 1, 5)) == (28, [23, 1])
    # the ten-dice rule: 12k6 rolls ten dice and keeps eight
    assert read_roll("1 2 3 4 5 6 7 8 9 1", Pool(12, 6))[0] == 44


@pytest.mark.parametrize("text, pool, reason", [
    ("3 7 0 4 2", Pool(5, 3), "a d10 reads 1-10, not 0"),
    ("3 7 9 11 2", Pool(5, 3, explode=False), "a die over 10 needs ten again"),
    ("3 7 9 10+4 2", Pool(5, 3, explode=False), "this roll has no ten again"),
    ("3 7 9 10 2", Pool(5, 3), "a 10 rolls again"),
    ("3 7 9 2", Pool(5, 3), "5k3 rolls 5 dice: 4 given"),
    ("3 7 9 4+2 1", Pool(5, 3), "only a 10 rolls again"),
    ("3 7 x 4 2", Pool(5, 3), "'x' is not a die"),
])
def test_dice_the_pool_cannot_roll_are_refused_with_the_reason(text, pool, reason):
    with pytest.raises(RuleError, match=re.escape(reason)):
        read_roll(text, pool)


@pytest.mark.parametrize("total, pool, reason", [
    (1, Pool(2, 2), "2k2 cannot total 1: its lowest total is 2"),
    (10, Pool(1, 1), "1k1 cannot total 10 (a die that shows 10 rolls again)"),
    (21, Pool(2, 2, explode=False), "its highest total is 20"),
    ("9" * 5000, Pool(2, 2), "too long"),
])
def test_impossible_totals_are_refused(total, pool, reason):
    with pytest.raises(RuleError, match=re.escape(reason)):
        read_roll(str(total), pool)


def test_action_dice_never_explode():
    assert read_action_dice("7 2 10", 3) == [2, 7, 10]
    with pytest.raises(RuleError, match="needs ten again"):
        read_action_dice("7 2 14", 3)
    with pytest.raises(RuleError, match="Panache 3 rolls 3 action dice: 2 given"):
        read_action_dice("7 2", 3)


def test_the_dice_at_a_roll_prompt(shop):
    out = play(ANSWERS[:6] + ["3 7 0 4 2", "3 7 9 10+4 2", "quit"])
    assert "! '0': a d10 reads 1-10, not 0 (tip: the face marked 0 is a 10" in out
    assert "Ana Vaz's dice keep 30" in out
    roll = saved()["inputs"][-1]
    assert roll["purpose"] == "smother fire" and roll["a"] == 30
    assert roll["dice"] == "3 7 9 10+4 2"


def test_an_impossible_total_is_refused_at_the_prompt(shop):
    # the clothes roll after the fire leapt onto Ana is Finesse 2: 2k2
    out = play(ANSWERS[:9] + ["1", "12", "quit"])
    assert "! 2k2 cannot total 1: its lowest total is 2" in out
    last = saved()["inputs"][-1]
    assert last["purpose"] == "clothes" and last["a"] == 12


def test_a_certain_roll_is_not_asked(shop):
    out = play(ANSWERS[:9] + ["quit"])
    # Ana's wound check against 1 Flesh Wound (3k3 vs TN 1) cannot fail: no prompt for it
    assert "wound check" in out
    assert not any(e.get("purpose") == "wound check" for e in saved()["inputs"])


def test_players_roll_their_action_dice(shop):
    out = play(["", "9 9 9", "", "", "", "quit"], "--action-dice", "players")
    assert "Ana Vaz's action dice (3 d10, no ten again; Enter: fuego's" in out
    inputs = saved()["inputs"]
    assert saved()["options"] == {"action_dice": "players"}
    given = [e for e in inputs if e["q"] == "dice"]
    assert given[0]["hero"] == "Ana Vaz" and given[0]["a"] == [9, 9, 9]
    assert "Phase 9 - Ana Vaz" in out


def test_drama_dice_add_a_kept_die(shop, tmp_path):
    (tmp_path / "drama.yaml").write_text(SHOP.replace(
        "    knacks: {firefighting: 2, leaping: 1}\n",
        "    knacks: {firefighting: 2, leaping: 1}\n    drama: 2\n"), encoding="utf-8")
    out = play(ANSWERS[:6] + ["drama drama drama 30", "drama 3 7 9 10+4 2 6", "quit"],
               scenario="drama.yaml", save="d.json")
    assert "drama: +1 kept die, 2 left" in out
    assert "! Ana Vaz has 2 Drama Dice left, not 3 (tip: one 'drama' for each die spent, " \
        "at most 2)" in out
    # 5k3 and one Drama die: 6k4, the dice keep 14 + 9 + 7 + 6
    assert "Ana Vaz spends 1 Drama Die: 6k4, 1 left; Ana Vaz's dice keep 36" in out
    roll = saved("d.json")["inputs"][-1]
    assert roll["a"] == 36 and roll["drama"] == 1
    assert saved("d.json")["state"]["heroes"][0]["drama"] == 1
    assert re.search(r"^  Ana Vaz +ground:D1 \(Shop\) .* 2$", out, re.M)  # the drama column


def test_raises_are_called_with_the_tn_shown(shop):
    out = play(ANSWERS[:5] + ["smother ground:B1 raise 1", "quit"])
    assert "Ana Vaz rolls to smother the fire: 5k3 vs TN 25" in out
    assert saved()["inputs"][-1]["a"] == "smother ground:B1 raise 1"


def test_a_single_smother_target_is_picked():
    from test_session import new_session

    from fuego.engine.hero_actions import HeroActionKind, read_action
    from fuego.table import gm

    scene = new_session().build()
    ana = scene.hero("Ana Vaz")
    gm.move_hero(scene, "Ana Vaz", "ground:C1")  # beside the one fire, ground:B1 (same room)
    act = read_action(scene, ana, "smother")
    assert act.target is not None
    assert act.kind is HeroActionKind.SMOTHER and scene.area_name(act.target) == "ground:B1"
    gm.start_fire(scene, "ground:C2", 1)  # two fires in reach: the words must say which
    with pytest.raises(RuleError, match="'smother' alone could be any of 2: smother "
                                        "ground:B1, smother ground:C2"):
        read_action(scene, ana, "smother")


# -- the GM's hand ---------------------------------------------------------------------------------
def test_wounds_add_remove_move_look_and_briefing(shop):
    out = play(["wound Bo 2 dw", "add Watchman ground:E1 npc henchman", "move Watchman ground:F1",
                "remove Ana Vaz", "look store", "briefing", "quit"])
    assert "GM: gives Bo 2 Dramatic Wounds" in out
    assert "GM: brings Watchman in at ground:E1" in out
    assert "GM: takes Ana Vaz out of the scene" in out
    assert "Store (store, t on the ground plan): 6 areas, fuel 30" in out
    assert "fires: ground:B1 4 FD" in out
    gms = [e["gm"] for e in saved()["inputs"] if "gm" in e]
    assert gms == ["wound Bo 2 dramatic", "add Watchman ground:E1 npc henchman",
                   "move Watchman ground:F1", "remove Ana Vaz"]
    # replayed on resume: the same characters stand in the same places
    state = saved()["state"]
    out = CliRunner().invoke(cli, ["play", "--resume", "s.json"], input="status\nquit\n").output
    assert "Watchman" in out and saved()["state"]["heroes"] == state["heroes"]


def test_the_gm_names_a_door_in_any_case_with_a_did_you_mean_and_never_one_of_two(shop):
    out = play(["close STORE  door", "open shop dor", "quit"])
    assert "GM: closes the store door" in out  # it said "no barrier 'STORE door'"
    assert "no door, window, wall or link named 'shop dor' (did you mean 'shop door'?)" in out
    assert [e["gm"] for e in saved()["inputs"] if "gm" in e] == ["close ground:C1 ground:D1"]
    # two doors of one name: the GM is told both, not given whichever was read first
    (shop / "twins.yaml").write_text(SHOP.replace("name: shop door", "name: Store Door"),
                                     encoding="utf-8")
    out = play(["close store door", "open STORE dor", "quit"], scenario="twins.yaml",
               save="t.json")
    assert "'store door' names 2 barriers: ground:C1|ground:D1, ground:F2|ground:F3 (tip: " \
        "name the one you mean by its two areas, e.g. ground:C1|ground:D1)" in out, out
    # the did-you-mean is found in any case too, and the one name listed once, as first written
    assert "named 'STORE dor' (did you mean 'store door'?); named here: store door (tip" in out
    assert not [e for e in saved("t.json")["inputs"] if "gm" in e]


def test_a_character_removed_at_its_own_prompt_acts_no_more(shop):
    out = play(["", "remove Bo", "", "quit"])
    assert "GM: takes Bo out of the scene" in out
    assert out.count("- Bo (Shop") == 1  # asked once, not again for his other phase-2 die
    assert [h["name"] for h in saved()["state"]["heroes"]] == ["Ana Vaz"]


def test_a_mistyped_command_gets_a_did_you_mean(shop):
    out = play(["stauts", "", "stauts", "quit"])
    assert out.count("did you mean 'status'?") == 2  # between rounds and at a hero's prompt


def test_undecodable_input_is_text_not_a_crash(shop):
    result = CliRunner().invoke(cli, ["play", "shop.yaml", "--seed", "572", "--session", "s.json"],
                                input=b"add \xff ground:E1\nquit\n")
    assert result.exit_code == 0, result.output
    assert saved()["inputs"] == [{"q": "round", "round": 1, "gm": "add \ufffd ground:E1"}]


def test_names_are_drawn_literally_on_a_terminal(capsys):
    from fuego.cli.gm_screen import Screen

    screen = Screen(rich=True, width=60)
    screen.line("Bo [/] [bold]x\ud800\x1b[2J wraps at words across the width of the terminal "
                "here")
    screen.rule("[/] title")
    screen.table("", ["hero", "where"], [["Bo [/]", "ground:A1"]], flex=1)
    screen.blocks([("[/] level", ["[red]plan[/red]"])])
    out = capsys.readouterr().out
    # half a surrogate pair and an escape sequence shown as their escapes (fuego.text)
    assert "Bo [/] [bold]x\\ud800\\x1b[2J wraps" in out and "[/] title" in out
    assert "\x1b[2J" not in out
    assert "[red]plan[/red]" in out and "Bo [/]" in out


def test_huge_numbers_and_markup_at_the_table(shop, tmp_path):
    out = play(["go " + "9" * 5000, "", "9" * 200, "9" * 5000, "quit"])
    assert "go N: a number of rounds" in out
    assert "no choice 999999999999..." in out
    assert "5000 characters is longer than any answer (at most 250)" in out
    # names are printed literally: rich markup in names and a script's words (a lone surrogate
    # is refused at check now; the screen draws one as U+FFFD: the terminal test below)
    marked = SHOP.replace("title: The Cooper's Shop", 'title: "[/] [bold]Shop"')
    marked = marked.replace("name: Bo", 'name: "Bo [/]"') + (
        "script:\n  - name: a cry\n    when: {round: 1}\n    do:\n"
        '      - say: "Help [/red]!"\n')
    (tmp_path / "marked.yaml").write_text(marked, encoding="utf-8")
    out = play(["", "quit"], scenario="marked.yaml", save="m.json")
    assert "[/] [bold]Shop" in out and "Bo [/]" in out and "Help [/red]!" in out


# -- a scene that begins and ends --------------------------------------------------------------------
#: The shop with both heroes one step from the lane, open along its whole length.
DOORSTEP = SHOP.replace("    start: ground:D1\n", "    start: ground:D2\n").replace(
    "    start: ground:E2\n", "    start: ground:F2\n").replace(
    "  - {at: ground:F2-ground:F3, name: shop door}\n", "") + \
    "openings:\n  - {between: [shop, lane], all: true}\n"


def test_every_hero_escapes_and_fuego_offers_to_end_at_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("out.yaml").write_text(DOORSTEP, encoding="utf-8")
    # round 1: each hero takes the way out (Enter: the automatic pick), then the offer
    out = play(["", "", "", "y"], scenario="out.yaml", seed="5")
    assert "Round 2: Enter to play it" not in out
    offer = out.index("No hero is left to act (Ana Vaz escaped, Bo escaped)")
    assert "End the scene now?" in out[offer:]
    assert "The scene is over" in out[offer:]
    inputs = saved()["inputs"]
    assert inputs[-1] == {"q": "round", "round": 2, "gm": "end"}


def test_letting_the_fire_play_out_asks_no_more(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("out.yaml").write_text(DOORSTEP, encoding="utf-8")
    out = play(["", "", "", "n", ""], scenario="out.yaml", seed="5")
    assert out.count("End the scene now?") == 1
    assert "Round 3: Enter to play it" not in out
    assert "The scene is over" in out
    assert {"q": "round", "round": 2, "a": "play-out"} in saved()["inputs"]


def test_undo_after_letting_the_fire_play_out_goes_back_before_that_answer(tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("out.yaml").write_text(DOORSTEP, encoding="utf-8")
    out = play(["", "", "", "n", "undo", "undo", "quit"], scenario="out.yaml", seed="5")
    played = [e for e in saved()["inputs"] if e.get("by")]
    assert not played  # the rounds the table played by itself went with the answer
    # the first undo: back to the offer (not straight back to the end: the trap)
    first = out.index("undone: letting the fire play out (before round 2), and ")
    assert "End the scene now?" in out[first:]
    assert out.count("The scene is over") == 1
    # the second: back to the last hero's action in round 1
    assert "undone: Bo's action (round 1, phase" in out
    assert saved()["inputs"][-1]["q"] == "action"


def test_undo_round_at_the_end_of_a_played_out_scene_stops_at_that_round(tmp_path,
                                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("out.yaml").write_text(DOORSTEP, encoding="utf-8")
    out = play(["", "", "", "n", "undo round", "undo round", "", ""], scenario="out.yaml",
               seed="5")
    inputs = saved()["inputs"]
    last = max(e["round"] for e in inputs if e["q"] == "round")
    # both undos stop at a round's prompt, one round further back each time
    assert f"undone: back to the start of round {last - 1}" in out
    assert f"Round {last - 1}: Enter to play it" in out
    assert out.count("The scene is over") == 2  # played out again to the end
    assert saved()["position"]["ended"] is True
    assert [e for e in inputs if e.get("by") == "play-out"]


def test_go_rounds_are_recorded_as_the_tables_and_undone_with_the_answer_before(shop):
    out = play(["go 3", "wait", "hold", "", "move ground:C1", "", "", "undo", "", "quit"])
    # at Bo's first prompt of round 2: the round boundary go played goes with Ana's last answer
    assert ("undone: Ana Vaz's action (round 1, phase 8: move ground:E1), and 1 round played "
            "on after it (2 answers dropped)") in out
    # and the undo stops go: round 2 is asked for again
    assert out.index("Round 2: Enter to play it") > out.index("undone: Ana Vaz's action")
    inputs = saved()["inputs"]
    assert inputs[-1] == {"q": "action", "round": 1, "phase": 8, "hero": "Ana Vaz",
                          "a": "move ground:E1"}
    assert not [e for e in inputs if "by" in e]


def test_the_scene_begins_with_its_texts(shop, tmp_path):
    text = SHOP.replace("title: The Cooper's Shop\n", "title: The Cooper's Shop\n"
                        "description: Barrels to the rafters.\nbriefing: The lamp fell.\n")
    (tmp_path / "told.yaml").write_text(text, encoding="utf-8")
    out = play(["quit"], scenario="told.yaml", save="t.json")
    assert "Read aloud:\n  | Barrels to the rafters." in out
    assert "GM briefing (not for the players):\n  The lamp fell." in out
    assert out.index("Read aloud") < out.index("before round 1")


def test_the_odds_shown_are_those_of_the_roll_the_engine_makes():
    """For every choice that rolls, in smoke and fire: the pool and TN the menu shows are the
    ones the engine then asks for (one rule: hero_actions.action_roll)."""
    import copy

    from test_session import new_session

    from fuego.engine.controllers import AutoController
    from fuego.engine.hero_actions import options, perform
    from fuego.engine.rounds import play_round, start_scene
    from fuego.table.risk import choice_odds

    scene = new_session().build()
    start_scene(scene)
    play_round(scene, AutoController())
    from fuego.table import gm

    fire = min(scene.fires)  # both heroes beside a fire, in its smoke
    near = [j for j, _ in scene.building.neighbours(fire)]
    for hero, j in zip(scene.heroes, near):
        gm.move_hero(scene, hero.name, scene.area_name(j))
        hero.dice = [5]
    checked = 0
    for hero in [h for h in scene.heroes if h.in_play]:
        for act in options(scene, hero):
            odds = choice_odds(scene, hero, act)
            if odds is None:
                continue
            twin = copy.deepcopy(scene)
            asked: list = []

            def ask(h, pool, tn, purpose, asked=asked):
                asked.append((pool, tn, purpose))
                return 0

            twin.ask_roll = ask
            perform(twin, twin.hero(hero.name), act)
            pool, tn, purpose = asked[0]
            assert (pool, purpose) == (odds.pool, odds.purpose)
            if odds.tn is not None:
                assert tn == odds.tn
            checked += 1
    assert checked >= 2


def test_an_older_save_that_answered_a_certain_roll_still_replays():
    from test_session import new_session
    from test_session import play as replay

    whole, _ = replay(new_session(), ANSWERS)
    assert whole.scene is not None
    inputs = whole.session.inputs
    clothes = next(i for i, e in enumerate(inputs) if e.get("purpose") == "clothes")
    older = new_session()
    # fuego used to ask Ana's wound check against 1 Flesh Wound (it cannot fail), just before
    older.inputs = inputs[:clothes] + [dict(inputs[clothes], purpose="wound check", a="auto")] \
        + inputs[clothes:]
    again, live = replay(older, [])
    assert again.scene is not None
    assert not live.errors and not again.warnings
    assert again.scene.snapshot() == whole.scene.snapshot()


def test_only_levels_where_a_hero_stands_or_something_changed_are_drawn():
    from fuego.cli.gm_prompts import GMPrompts
    from fuego.cli.gm_screen import Screen
    from fuego.table import gm
    from fuego.table import session as sessions

    out: list[str] = []
    table = GMPrompts(Screen(rich=False, echo=out.append, width=120), "unused.json")
    scene = sessions.new(str(TAVERN), 7).build()
    table.show_state(scene, before_round=1)
    assert any("upper (level 1)" in line and "cellar (level -1)" in line for line in out)
    for hero in scene.heroes:
        gm.move_hero(scene, hero.name, "ground:G4")
    del out[:]
    table.show_state(scene, before_round=2)  # the heroes left upper and cellar: drawn once more
    assert any("upper (level 1)" in line and "cellar (level -1)" in line for line in out)
    del out[:]
    table.show_state(scene, before_round=3)  # nothing changed there since
    assert not any("upper (level 1)" in line for line in out)
    assert any(line.startswith("(not drawn, nothing changed: ") and "upper" in line
               and "cellar" in line for line in out)


# -- heroes who stay: a plan in the scenario ------------------------------------------------------
def _planned(plan_ana: str, plan_bo: str = "flee") -> str:
    return SHOP.replace("    start: ground:D1\n", f"    start: ground:D1\n    plan: {plan_ana}\n"
                        ).replace("    start: ground:E2\n",
                                  f"    start: ground:E2\n    plan: {plan_bo}\n")


def test_a_heros_plan_is_the_suggested_choice_at_the_table(shop):
    (shop / "hold.yaml").write_text(_planned("fight", "hold"), encoding="utf-8")
    out = play(["", "", "", "", "quit"], scenario="hold.yaml")
    # Bo holds (waits where he is); Ana, who fights, goes to the fire and smothers it
    assert "Bo [4: wait]" in out and "Bo moves" not in out
    assert "Ana Vaz [1: move ground:C1]" in out
    assert "Ana Vaz [5: smother ground:B1]" in out


def test_heroes_who_stay_are_still_in_play_after_round_one(shop):
    (shop / "stay.yaml").write_text(_planned("fight", "hold"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["run", "stay.yaml", "--seed", "572", "--rounds", "1"])
    assert r.exit_code == 0, r.output
    ends = next(line for line in r.output.splitlines() if line.startswith("Round 1 ends"))
    assert "escaped" not in ends, ends
    # and without plans both make for the door
    r = CliRunner().invoke(cli, ["run", "shop.yaml", "--seed", "572", "--rounds", "3"])
    assert "escaped" in r.output


def test_a_plan_that_names_no_one_is_refused_by_check(shop):
    (shop / "bad.yaml").write_text(_planned("rescue:Nobody"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", "bad.yaml"])
    assert r.exit_code != 0
    assert "heroes[0].plan" in r.output + (r.stderr if r.stderr_bytes else "")
    (shop / "worse.yaml").write_text(_planned("run away"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", "worse.yaml"])
    assert r.exit_code != 0 and "plan" in r.output + (r.stderr if r.stderr_bytes else "")


# -- the GM's terminal, third pass (issue 26), in a real terminal -----------------------------------
@pytest.mark.slow
def test_undo_by_the_answer_in_a_real_terminal(tmux):
    t = tmux(120, 40)
    t.wait_for("Round 1: Enter to play it")
    t.answer("", "Bjorn Haraldsson [")  # the first hero to act at seed 7
    t.answer("1", "Isabela Soldano [")  # Bjorn's phase-1 action: move cellar:C2; then Isabela
    lines = t.answer("undo", "undone: Bjorn Haraldsson's action (round 1, phase 1: move cellar:C2)")
    # the question before it is asked again, at once: his phase-1 choices, not round 1's start
    assert lines[-1].startswith("  Bjorn Haraldsson [")
    since = "\n".join(lines[max(i for i, line in enumerate(lines) if "undone:" in line):])
    assert "-- back at round 1, phase 1 --" in since
    assert "Round 1: Enter to play it" not in since and "Phase 1 - Bjorn Haraldsson" in since
    lines = t.answer("undo", "undone: the start of round 1")
    assert lines[-1].startswith("Round 1: Enter to play it")
    assert all(len(line) <= 120 for line in lines)


@pytest.mark.slow
def test_undo_at_the_end_of_a_played_out_scene_in_a_real_terminal(tmux, tmp_path):
    (tmp_path / "out.yaml").write_text(DOORSTEP, encoding="utf-8")
    t = tmux(80, 24, "play out.yaml --seed 5 --session s.json")
    t.wait_for("Round 1: Enter to play it")
    t.answer("", "Ana Vaz [")
    t.answer("", "[")
    t.answer("", "End the scene now?")
    t.answer("n", "The scene is over: Enter to finish")
    lines = t.answer("undo", "End the scene now?")  # back before 'let the fire play out'
    text = "\n".join(lines)
    assert "undone: letting the fire play out (before round 2)" in text
    assert lines[-1].startswith("End the scene now?")
    t.answer("y", "The scene is over: Enter to finish")
    t.answer("", "Session saved to s.json", prompt=False)
    assert saved(str(tmp_path / "s.json"))["position"]["ended"] is True
    assert all(len(line) <= 80 for line in t.pane())


@pytest.mark.slow
def test_the_burning_wagon_in_the_gms_terminal(tmux):
    t = tmux(120, 40, f"play {WAGON} --seed 1 --session s.json")
    lines = t.wait_for("Round 1: Enter to play it")
    text = "\n".join(lines)
    assert "before round 1: a wagon ablaze at ground:C2 (no other fire)" in text
    plan_row = next(line for line in lines if line.startswith("2 "))
    assert "s2&" in plan_row  # the wagon on the plan, in its area
    assert "& wreck ablaze" in text  # and in the key under it
    lines = t.answer("status", "ablaze (to round 12)")
    row = next(line for line in lines if "ablaze (to round 12)" in line)
    assert row.split()[:2] == ["ground:C2", "wagon"]
    assert "No fire burns" not in "\n".join(lines)
    lines = t.answer("look street", "fires: a wagon ablaze at ground:C2")
    assert "Tomas sees: no fire\n" in t.history()  # the shut door hides the wagon
    t.answer("", "Tomas [")  # round 1
    lines = t.answer("open", "Tomas [")
    lines = t.answer("status", "Tomas [")
    assert "Tomas sees: no fire but a wagon ablaze at ground:C2" in lines  # the door open
    lines = t.answer("wait", "Round 2: Enter to play it")
    assert "Round 1 ends: no fire left but a wagon ablaze (ground:C2)" in t.history()


SHIP = REPO / "campaigns" / "ship.yaml"
SMITHY = SHOP.replace("title: The Cooper's Shop", "title: \"Zoë's 火事 smithy\"").replace(
    "name: Ana Vaz", "name: 李小龍").replace("name: Bo", "name: عمر")


@pytest.mark.slow
def test_the_scene_opens_readable_at_80_columns(tmux):
    t = tmux(80, 60, f"play {SHIP} --seed 3 --session s.json")
    t.wait_for("Round 1: Enter to play it")
    lines = t.history().split("\n")
    start = lines.index("Read aloud:") + 1
    told = lines[start:lines.index("GM briefing (not for the players):")]
    # the description rewrapped to the width, every line of it marked as read aloud
    assert len(told) == 6 and all(line.startswith("  | ") for line in told), told
    assert "  | coast at night. Three levels, bow (column A) to stern (column J): the open" \
        in told
    # the briefing's list of set pieces, an item to a line
    assert "  - round 2: Pip the powder monkey turns up in the hold with a lantern; someone" \
        in lines
    assert any(line.startswith("  - round 4: the crew chop a hole") for line in lines)


@pytest.mark.slow
def test_wide_names_keep_the_columns_and_the_plan_aligned(tmux, tmp_path):
    (tmp_path / "smithy.yaml").write_text(SMITHY, encoding="utf-8")
    t = tmux(100, 40, "play smithy.yaml --seed 5 --session s.json")
    lines = t.wait_for("Round 1: Enter to play it")
    rows = [line for line in lines if ("ground:D1 (Shop)" in line or "ground:E2 (Shop)" in line)
            and " DW " in line or line.startswith("  hero ")]
    assert len(rows) == 3  # the header, 李小龍's row and عمر's
    at = {cells(line[:line.index("where" if "hero" in line else "ground")]) for line in rows}
    assert len(at) == 1, rows  # the where column starts at one column on every row
    plan_row = next(line for line in lines if line.startswith("1 "))
    assert "@1" in plan_row and cells(plan_row) == len(plan_row)  # the hero by number
    assert cells(plan_row) == cells(next(line for line in lines if line.startswith("2 ")))


def test_a_step_into_a_burning_wrecks_area_says_what_it_costs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = play(["", "open", "quit"], scenario=str(WAGON), seed="1")
    assert "move ground:C2 (Calle de los Toneleros; a wagon ablaze, an extra move to get " \
           "round it)" in out


def _rooms_line(lines: list[str]) -> str:
    start = next(i for i, line in enumerate(lines) if line.startswith("rooms - "))
    out = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  ") or line.startswith("  hero"):
            break
        out.append(line.strip())
    return " ".join(out)


@pytest.mark.slow
def test_room_letters_are_unique_in_the_scene_in_a_real_terminal(tmux):
    t = tmux(120, 50)
    lines = t.wait_for("Round 1: Enter to play it")
    rooms = _rooms_line(lines).removeprefix("rooms - ")
    letters = [entry.strip().split(" ", 1)[0] for level in rooms.split("; ")
               for entry in level.split(": ", 1)[1].split(", ")]
    assert len(letters) == 17  # every room of the tavern, on three levels
    assert len(set(letters)) == len(letters), rooms
    # the key names every mark the plans draw: doors, windows, stairs, the ladder, oil...
    key = " ".join(line.strip() for line in lines
                   if line.startswith("key: ") or line.startswith("  ") and "(map LEVEL" in line)
    for mark in ("D door shut", "d door open", "W window shut", "w window open",
                 "< > stairs up/down", "L ladder", "E exit", "g gunpowder", "o oil", "b beam",
                 ". no fuel", "*N hot fire"):
        assert mark in key, (mark, key)


# -- the GM's terminal, unit by unit ----------------------------------------------------------------
def test_what_burns_of_its_own_is_told_in_the_rounds_and_the_scenes_words():
    from fuego.engine.events import Event, EventKind
    from fuego.render.phrases import narrate

    wagon = [["ground:C2", "wagon"]]
    heroes = {"Tomas": ["active", 0, 0]}
    said = [narrate(Event(EventKind.ROUND_START, 1, 0, None, None,
                          {"fires": 0, "heroes": 1, "also_burning": wagon})),
            narrate(Event(EventKind.ROUND_END, 1, 11, None, None,
                          {"fires": 2, "fire_dice": 3, "heroes": heroes, "also_burning": wagon})),
            narrate(Event(EventKind.SCENE_END, 4, 11, None, None,
                          {"rounds": 4, "burning": 0, "burned_out": 0,
                           "heroes": {"Tomas": "escaped"}, "also_burning": wagon})),
            narrate(Event(EventKind.ROUND_END, 1, 11, None, None,
                          {"fires": 0, "fire_dice": 0, "heroes": heroes}))]
    assert said[0] == ("Round 1 begins: no fire burning but a wagon ablaze (ground:C2), 1 "
                       "character in play")
    assert said[1] == "Round 1 ends: 2 fires (3 Fire Dice) and a wagon ablaze (ground:C2); Tomas unhurt"
    end = said[2]
    assert end is not None and end.startswith(
        "The scene ends after 4 rounds: no fire left but a wagon ablaze (ground:C2), no area burned out")
    assert said[3] == "Round 1 ends: no fire left; Tomas unhurt"  # nothing else: as before


def test_every_mark_a_plan_draws_is_in_its_key():
    from fuego.engine.controllers import AutoController
    from fuego.engine.rounds import play_round, start_scene
    from fuego.render.terminal import MARKS, key_entries, plan_text
    from fuego.rules.charts import Structure
    from fuego.scenario.model import load

    walls = {s.value for s in Structure}
    for name in ("tavern", "ship", "village", "wagon"):
        sc = load(str(REPO / "campaigns" / f"{name}.yaml"))
        scene = sc.build(3)
        start_scene(scene)
        for _ in range(6):  # fires, smoke, burned areas, broken doors, heroes in fire...
            marks: set[str] = set()
            plan_text(scene, None, symbols=sc.symbols, legend=False, marks=marks)
            assert marks <= set(MARKS) | walls, (name, marks - set(MARKS) - walls)
            named = key_entries(marks)
            assert len(named) == 1 + len(marks)  # the cell's layout, then one entry per mark
            play_round(scene, AutoController())


def test_a_short_area_name_is_the_one_in_reach():
    from fuego.engine.hero_actions import HeroActionKind, read_action
    from fuego.scenario.model import load

    scene = load(str(TAVERN)).build(7)
    gaston = scene.hero("Gaston Allais")  # upper:B1: upper:B2 is in reach, ground:B2 is not
    act = read_action(scene, gaston, "move B2")
    assert act.kind is HeroActionKind.MOVE and scene.area_name(act.area) == "upper:B2"
    with pytest.raises(RuleError, match="cannot 'move D4' now"):
        read_action(scene, gaston, "move D4")  # no D4 in his reach on any level


def test_room_letters_are_unique_across_levels_and_never_a_mark():
    from fuego.render.terminal import MARK_CHARS, room_symbols
    from fuego.scenario.model import load

    for name in ("tavern", "ship", "village", "wagon"):
        sc = load(str(REPO / "campaigns" / f"{name}.yaml"))
        b = sc.build(1).building
        syms = room_symbols(b, sc.symbols)
        assert sorted(syms) == sorted(b.rooms)
        assert len(set(syms.values())) == len(syms), name
        assert not set(syms.values()) & MARK_CHARS
    # where the GM's own letters are free they are kept (the tavern's kitchen is k)
    sc = load(str(TAVERN))
    assert room_symbols(sc.build(1).building, sc.symbols)["kitchen"] == "k"


def test_what_a_failure_risks_reads_as_a_gm_reads_it():
    from fuego.table.risk import Odds, flesh_wounds

    assert [flesh_wounds(x) for x in (0.0, 0.004, 0.049, 0.05, 4.24)] == \
        ["0", "<0.1", "<0.1", "~0.1", "~4.2"]
    # (a step into a one-die fire: a trace of wounds, never "~0.0 FW" beside a chance)
    odds = Odds("avoid", Pool(5, 3), 0.999, tn=5, flesh=0.01, dramatic=0.0004)
    assert odds.words() == "5k3 vs TN 5: >99%; risks <0.1 FW, <0.1% a Dramatic Wound"


def test_an_undo_back_to_a_round_draws_its_screen_as_it_was(tmp_path, monkeypatch):
    """Seed 5 of the ship: before round 2 the hold is drawn (Aldo climbed out of it, the
    smoke came down). The GM moves Aldo and undoes it: the same screen again, the hold
    drawn, not 'nothing changed: hold' (the screen compared with itself)."""
    monkeypatch.chdir(tmp_path)
    args = ["play", str(SHIP), "--seed", "5"]
    first = CliRunner().invoke(cli, [*args, "--session", "a.json"], input="\n" * 40)
    assert first.exit_code == 0, first.output
    upto = next(i for i, x in enumerate(saved("a.json")["inputs"])
                if x["q"] == "round" and x["round"] == 2)
    out = CliRunner().invoke(cli, [*args, "--session", "b.json"],
                             input="\n" * upto + "move Aldo hold:A2\nundo\nquit\n").output
    screens = [s.split("Round 2: Enter")[0] for s in out.split("- before round 2:")[1:]]
    assert len(screens) == 2 and "hold (level -1)" in screens[0]
    assert screens[1] == screens[0]


@pytest.mark.slow
def test_a_terminal_resized_mid_scene_is_used_from_its_next_line(tmux):
    """Started at 80x24 (no plan fits), the window made 120x50: the next screen draws the
    plans and wraps at 120 (it kept 80 columns and 24 lines for the whole scene while the
    title's rule ran the new width)."""
    t = tmux(80, 24)
    lines = t.wait_for("Round 1: Enter to play it")
    assert any("do not fit this terminal" in line for line in lines)
    subprocess.run([TMUX, "-S", t.sock, "resize-window", "-x", "120", "-y", "50"], check=True)
    lines = t.answer("briefing", "Round 1: Enter to play it")
    told = [line for line in lines if line.startswith("  | ")]
    assert told and max(len(line) for line in told) > 100
    assert all(len(line) <= 120 for line in lines)
    lines = t.answer("", "Bjorn Haraldsson [")
    lines = t.answer("undo", "Round 1: Enter to play it")
    assert any(line.startswith("upper (level 1)") for line in lines), "\n".join(lines)


def test_the_summary_counts_the_areas_put_out_so_the_areas_burned_add_up(tmp_path, monkeypatch):
    """The tavern, seed 7: one round, then the GM's blast in the kitchen puts its fires out
    and the GM ends the scene: the areas that burned are those burned out, put out and
    still burning (it said '6 of 108 ... (0 burned out, 1 still burning)')."""
    monkeypatch.chdir(tmp_path)
    first = CliRunner().invoke(cli, ["play", str(TAVERN), "--seed", "7", "--session", "a.json"],
                               input="\n" * 40)
    upto = next(i for i, x in enumerate(saved("a.json")["inputs"])
                if x["q"] == "round" and x["round"] == 2)
    assert first.exit_code == 0
    out = CliRunner().invoke(cli, ["play", str(TAVERN), "--seed", "7", "--session", "b.json"],
                             input="\n" * upto + "blast ground:B2\nend\n\n").output
    line = next(x for x in out.splitlines() if x.startswith("Areas burned:"))
    # none burned out in one round: that part is left out, not "0 burned out"
    assert line == "Areas burned: 6 of 108 that could burn (5 put out, 1 still burning)"
