"""``fuego play``: the GM's table driven by scripted input (click's CliRunner, pipes and a real
pseudo-terminal), killed at a prompt and in the middle of a save, resumed, undone."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_session import ANSWERS, SHOP

from fuego.cli import cli
from fuego.table import session as sessions

SEED = "572"


@pytest.fixture
def shop(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    return tmp_path


def feed(answers) -> str:
    return "".join(a + "\n" for a in answers)


def run(args, answers=(), env=None):
    result = CliRunner().invoke(cli, args, input=feed(answers), env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def new_game(answers, save="s.json"):
    return run(["play", "shop.yaml", "--seed", SEED, "--session", save], answers)


def saved(path="s.json") -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def after(text: str, marker: str) -> str:
    """The output from the last ``marker`` on (what follows a given point of play)."""
    i = text.rfind(marker)
    assert i >= 0, f"{marker!r} not in the output"
    return text[i:].replace("whole.json", "s.json")  # the save's name is not the story


# -- a session at the table -----------------------------------------------------------------------
def test_several_rounds_with_scripted_input(shop):
    result = new_game(ANSWERS)
    out = result.output
    assert result.exit_code == 0, out
    # the state at a glance before round 1: plan, heroes, what they see and what is hidden
    assert "The Cooper's Shop - before round 1: 1 fire, 4 Fire Dice" in out
    assert "rooms - ground: t Store, s Shop, l Lane" in out
    assert re.search(r"Ana Vaz +ground:D1 \(Shop\) +0 FW 0/4 DW", out)
    # the store door stands open: both see the fire through it (fuego.engine.sight)
    assert "Ana Vaz sees: ground:B1 4 FD\nBo sees: ground:B1 4 FD\n" in out
    assert "Round 1: Enter to play it, or a command (help): \n" in out
    # a hero's prompt: who, where, the dice, the kinds of action, numbered choices, the default
    assert "Phase 2 - Bo (Shop, ground:E2; 2 action dice: 2, 2) - move to / wait?" in out
    assert re.search(r"\* ?\d\. move ground:F2 \(Shop\)", out)
    assert "  Bo [3: move ground:F2]: wait\n" in out
    assert "Phase 4 - Ana Vaz (Shop, ground:D1; 3 action dice: 4, 6, 8)" in out
    assert "2. close store door (open wooden door to Store, ground:C1)" in out
    # a roll: the pool, the TN and the exact chance; the GM typed the player's total
    assert "Ana Vaz rolls to smother the fire: 5k3 vs TN 20 - " in out
    assert re.search(r"5k3 vs TN 20 - \d+% to succeed", out)
    assert "  Ana Vaz's total or dice (Enter: fuego rolls; back: the choices): 12\n" in out
    # narration of the phases and the end of the round
    assert ("Phase 6: Ana Vaz tries to smother the fire in ground:B1 (Store): rolled 12 vs "
            "TN 20: failed") in out
    assert "Round 1 ends:" in out and "Round 2 begins:" in out
    # the end of input: saved, and how to resume
    assert out.rstrip().endswith("Session saved to s.json (fuego play --resume s.json reopens it).")
    data = saved()
    assert data["format"] == "fuego-session" and data["seed"] == 572
    assert data["scenario"]["path"] == "shop.yaml" and data["scenario"]["text"] == SHOP
    assert len(data["inputs"]) == len(ANSWERS)
    assert data["inputs"][6] == {"q": "roll", "round": 1, "phase": 6, "hero": "Ana Vaz",
                                 "purpose": "smother fire", "a": 12}
    assert data["position"]["round"] == data["state"]["round"] == 3
    assert sorted(data["checks"]) == ["1", "2", "3"]  # a digest at the end of each round
    assert os.path.exists("s.json.bak")


def test_resume_continues_exactly(shop):
    whole = new_game(ANSWERS, save="whole.json")
    cut = 9  # at the end of round 1: Ana's wound check
    first = new_game(ANSWERS[:cut], save="s.json")
    assert first.exit_code == 0
    assert len(saved()["inputs"]) == cut
    again = run(["play", "--resume", "s.json"], ANSWERS[cut:])
    assert again.exit_code == 0, again.output
    assert "fuego play: resuming s.json (9 answers, seed 572)" in again.output
    assert "-- back at round 1, end of round (9 answers replayed) --" in again.output
    assert "Round 1 so far:" in again.output
    a, b = saved("whole.json"), saved("s.json")
    assert a["inputs"] == b["inputs"]
    assert a["checks"] == b["checks"]  # the same state and random stream at each round's end
    assert a["state"] == b["state"]
    # what follows the resume point is told word for word as in the uninterrupted run
    assert after(again.output, "Round 2 begins") == after(whole.output, "Round 2 begins")


def test_commands_at_every_prompt(shop):
    result = new_game(["help", "map", "map ground", "map attic", "status", "save", "",
                       "help", "status", "wait", "quit"])
    out = result.output
    assert result.exit_code == 0
    assert "map [LEVEL|all]" in out and "fire AREA FD [hot|regular|cold]" in out
    assert "Here: Enter plays the round." in out
    assert "Here: a number from the list" in out
    assert "Legend:" in out  # map LEVEL draws the full legend
    assert "! no level 'attic' (levels: ground (0), or all)" in out
    assert "== Status - before round 1 ==" in out and "Fires" in out
    assert "saved to s.json" in out
    assert [e["a"] for e in saved()["inputs"]] == ["next", "wait"]
    assert out.rstrip().endswith("Session saved to s.json (fuego play --resume s.json reopens it).")


def test_help_shows_a_heros_choices_once_and_save_not_again(shop):
    out = new_game(["", "help", "save", "wait", "quit"]).output
    heading = "Phase 2 - Bo (Shop, ground:E2; 2 action dice: 2, 2) - move to / wait?"
    assert out.count(heading) == 2  # asked, then once after help (it was drawn twice)
    tail = out[out.index("  Bo [3: move ground:F2]: save"):]
    assert heading not in tail and "saved to s.json" in tail  # save: a line, no menu again


def test_a_roll_the_gm_made_offers_no_way_back_to_choices(shop):
    out = new_game(["", "wound Bo 3", "back", "2", "quit"]).output
    check = "  Bo's total or dice (Enter: fuego rolls): back\n"
    assert check in out  # no "back: the choices": the GM's wound made this roll, not an action
    assert "! back goes from a roll to the choices of the action that made it" in out
    assert "wound check: 2 vs TN 3: failed" in out


def test_a_level_by_its_name_in_any_case_or_its_number_and_look_alone(shop):
    out = new_game(["map GROUND", "map 0", "map 1", "look", "quit"]).output
    assert out.count("Legend:") == 2  # GROUND and 0 are the ground floor (ground (level 0))
    assert "! no level '1' (levels: ground (0), or all)" in out
    assert "! look ROOM: which room? (its name, its key or an area in it; rooms: Store, " \
        "Shop, Lane)" in out


def test_the_menu_shows_a_raise_on_a_choice_that_rolls_and_none_where_none_does(shop):
    out = new_game(["", "wait", "hold", "", "move ground:C1", "quit"]).output
    hints = [line.strip() for line in out.splitlines() if "keep the die for later" in line]
    assert hints[0] == "hold: keep the die for later; help"  # Bo: moves and a wait
    assert hints[-1] == ("hold: keep the die for later; smother ground:B1 raise 1: call a "
                         "raise (+5 TN); help")  # Ana beside the fire: its own words


def test_a_paste_gone_astray_is_refused_without_being_quoted_back(shop):
    out = new_game(["x" * 3000, "note " + "y" * 200, "quit"]).output
    assert "! 3000 characters is longer than any answer (at most 250)" in out
    assert "x" * 300 not in out.replace("x" * 3000, "")  # only the echo of what was typed
    assert "GM: tells the players" in out  # the longest note still goes


def test_a_scenario_given_to_resume_is_said_to_be_one_and_left_alone(shop):
    result = run(["play", "--resume", "shop.yaml"])
    assert result.exit_code == 2
    assert "shop.yaml: this is a scenario, not a saved session" in result.output
    assert sorted(os.listdir(".")) == ["shop.yaml"]  # no shop.yaml.lock left beside it


def test_a_mistyped_verb_gets_its_nearest_once(shop):
    out = new_game(["", "mvoe ground:E1", "quit"]).output
    assert out.count("did you mean 'move'?") == 1  # the action's tip and the table's hint


def test_clothes_that_do_not_catch_are_told_whose_and_when(shop):
    out = new_game(["", "burn Ana Vaz 2 object", "", "18", "quit"]).output
    assert "  Phase 2: Ana Vaz's clothes do not catch: rolled 18 vs TN 10\n" in out


def test_a_saved_session_given_to_play_says_to_resume_it(shop):
    new_game(["", "quit"])
    for args in (["play", "s.json"], ["play", "--session", "s.json"]):
        result = run(args)
        assert result.exit_code == 2
        assert "s.json is a saved session: continue it with fuego play --resume s.json" \
            in result.output
        assert "missing required section" not in result.output
    assert "give a scenario FILE" in run(["play", "--session", "new.json"]).output


def test_overrides_at_the_prompts(shop):
    result = new_game(["fire ground:E1 3", "fd ground:B1 6", "open ground:F2 ground:F3", "",
                       "move Ana ground:A2", "end", ""])
    out = result.output
    assert result.exit_code == 0, out
    assert "GM: " in out
    gm = [e["gm"] for e in saved()["inputs"] if "gm" in e]
    assert gm == ["fire ground:E1 3", "fd ground:B1 6", "open ground:F2 ground:F3",
                  "move Ana Vaz ground:A2", "end"]
    assert "The scene is over: Enter to finish" in out
    assert "Session saved to s.json" in out
    assert saved()["state"]["ended"] is True


def test_an_override_that_changes_nothing_is_refused_but_an_old_save_of_one_replays(shop):
    result = new_game(["close store door", "close store door", "open shop door",
                       "fd ground:B1 4", "move Ana ground:D1", "move Bo ground:A2", "quit"])
    out = result.output
    assert result.exit_code == 0, out
    assert "! the store door is already shut" in out
    assert "! the shop door is already shut" not in out and "GM: opens the shop door" in out
    assert "! the fire at ground:B1 already has 4 Fire Dice" in out
    assert "! Ana Vaz already stands at ground:D1" in out
    assert out.count("GM: closes the store door") == 1
    gm = [e["gm"] for e in saved()["inputs"] if "gm" in e]
    assert gm == ["close ground:C1 ground:D1", "open ground:F2 ground:F3", "move Bo ground:A2"]
    # a save from before the refusal holds the second close: it replays, and play goes on
    old = saved()
    twice = old["inputs"][0]
    old["inputs"].insert(1, dict(twice))
    Path("s.json").write_text(json.dumps(old), encoding="utf-8")
    resumed = run(["play", "--resume", "s.json"], ["close store door", "quit"])
    assert resumed.exit_code == 0, resumed.output
    assert "! the store door is already shut" in resumed.output
    assert [e.get("gm") for e in saved()["inputs"]][:2] == [twice["gm"]] * 2


def test_a_reveal_of_what_is_shown_or_a_hide_of_what_is_not_is_refused(shop):
    """Like a door shut that is shut: a reveal the players' screen already shows (a room
    inside a revealed building too) and a hide of what the GM never revealed change nothing,
    so the prompt refuses them; they were logged and saved as if they did."""
    result = new_game(["reveal shop", "reveal shop", "hide store", "hide shop", "hide shop",
                       "reveal all", "reveal store", "hide ground", "quit"])
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("! the players' screen already shows the Shop") == 1
    assert "! you have not revealed the Store (the heroes' own sight is not yours to hide)" in out
    assert out.count("! you have not revealed the Shop") == 1
    assert "! the players' screen already shows the Store" in out
    gm = [e["gm"] for e in saved()["inputs"] if "gm" in e]
    assert gm == ["reveal room shop", "hide room shop", "reveal all", "hide level ground"]


def test_the_gms_hand_is_indented_alike_before_round_one_and_after(shop):
    out = new_game(["fire ground:E1 3", "", "fire ground:E2 3", "quit"]).output
    told = [line for line in out.splitlines() if "GM: starts a fire" in line]
    assert told == ["  GM: starts a fire in ground:E1 (Shop, FD 3)",
                    "  Phase 3: GM: starts a fire in ground:E2 (Shop, FD 3)"], told
    # the scene's own opening stays flush left
    assert any(line.startswith("Fire in ground:B1") for line in out.splitlines())


def test_a_blast_too_small_to_blow_a_fire_out_is_refused_at_the_prompt_as_check_refuses_it(shop):
    from fuego.modules.firefighting import BLAST_MIN

    small = BLAST_MIN - 1
    result = new_game([f"blast ground:B1 {small}", "end", ""])
    out = result.output
    assert result.exit_code == 0, out
    # the words and tip of fuego check's refusal of a script's blast (test_script)
    assert f"! a blast of {small} dice blows no fire out: it takes {BLAST_MIN} or more (001, " \
           f"Extinguishing Fires) (tip: give it dice: {BLAST_MIN} or more (the default); a " \
           "blast that sets things alight is 'explode')" in out
    assert "too small to blow fires out" not in out  # never set off to fizzle
    assert [e["gm"] for e in saved()["inputs"] if "gm" in e] == ["end"]


def test_a_bad_answer_is_asked_again(shop):
    result = new_game(["", "fly", "42", "fire ground:A3 2", ""])
    out = result.output
    assert "! Bo cannot 'fly' now" in out
    assert "! no choice 42 (tip: pick 1-4)" in out
    assert "! nothing burns in ground:A3" in out
    assert [e.get("a") for e in saved()["inputs"]] == ["next", "move ground:F2"]


def test_undo_round(shop):
    whole = new_game(ANSWERS, save="whole.json")
    rounds = [i for i, e in enumerate(saved("whole.json")["inputs"]) if e["q"] == "round"]
    r2 = rounds[1]
    # play into round 2, undo round (back to its start), then answer round 2 again the same way
    script = ANSWERS[: r2 + 2] + ["undo round"] + ANSWERS[r2:]
    result = new_game(script)
    out = result.output
    assert result.exit_code == 0, out
    assert "undone: back to the start of round 2 (2 answers dropped)" in out
    assert "-- back before round 2 (10 answers replayed) --" in out
    a, b = saved("whole.json"), saved("s.json")
    assert a["inputs"] == b["inputs"] and a["checks"] == b["checks"] and a["state"] == b["state"]
    assert after(out, "Round 2 begins") == after(whole.output, "Round 2 begins")


def test_undo_round_as_often_as_needed_then_nothing(shop):
    result = new_game(ANSWERS[:13] + ["undo round", "undo round", "undo round", "quit"])
    out = result.output
    assert "undone: back to the start of round 2" in out
    assert "undone: back to the start of round 1" in out
    assert "nothing to undo: no answer given yet" in out
    assert saved()["inputs"] == []


def test_undo_takes_back_one_answer_at_a_time(shop):
    whole = new_game(ANSWERS, save="whole.json")
    # Ana's player typed 12 for her smother roll (answer 7): undo it, then her action too
    script = ANSWERS[:7] + ["undo", "undo"] + ANSWERS[5:]
    result = new_game(script)
    out = result.output
    assert result.exit_code == 0, out
    # in the prompt's words, not the engine's name for the roll ('roll for smother fire')
    assert ("undone: Ana Vaz's roll to smother the fire (round 1, phase 6: 12) (1 answer "
            "dropped)" in out)
    assert "undone: Ana Vaz's action (round 1, phase 6: smother ground:B1) (1 answer dropped)" \
        in out
    # each time the question before it is asked again, not the round's start
    i = out.index("undone: Ana Vaz's roll")
    assert out.index("Ana Vaz's total or dice", i) < out.index("undone: Ana Vaz's action", i)
    assert "Round 1: Enter to play it" not in out[i:]
    a, b = saved("whole.json"), saved("s.json")
    assert a["inputs"] == b["inputs"] and a["state"] == b["state"]
    assert after(out, "Phase 7: Ana") == after(whole.output, "Phase 7: Ana")


def test_an_undone_roll_is_named_as_its_prompt_named_it():
    """The words the roll was asked with (gm_screen's purpose_words), without the rule in
    brackets; a roll with no words (a module's) keeps its own name."""
    from fuego.cli.gm_prompts import undone_words

    def roll(purpose: str) -> str:
        return undone_words({"q": "roll", "round": 2, "phase": 4, "hero": "Ana",
                             "purpose": purpose, "a": 14})

    assert roll("spot fire") == ("Ana's roll to spot a hidden fire, against its Stealth roll "
                                 "(round 2, phase 4: 14)")
    assert roll("avoid debris (climbing)") == "Ana's roll to avoid the falling debris (round 2, " \
        "phase 4: 14)"
    assert roll("wound check") == "Ana's roll to make a wound check (round 2, phase 4: 14)"
    assert roll("ford the river") == "Ana's roll for ford the river (round 2, phase 4: 14)"


def test_undo_a_roll_fuego_made_and_the_dice_fall_the_same(shop):
    whole = new_game(ANSWERS, save="whole.json")
    # answer 9 is fuego's roll (Enter): undone and rolled again, it is the same roll
    result = new_game(ANSWERS[:9] + ["undo"] + ANSWERS[8:])
    out = result.output
    assert "undone: Ana Vaz's roll to smother the fire (round 1, phase 8: fuego's roll)" in out
    a, b = saved("whole.json"), saved("s.json")
    assert a["inputs"] == b["inputs"] and a["checks"] == b["checks"] and a["state"] == b["state"]
    assert after(out, "Round 2 begins") == after(whole.output, "Round 2 begins")


def test_undo_after_the_scene_ended(shop):
    result = new_game(["", "end", ""])
    assert saved()["position"]["ended"] is True and saved()["state"]["ended"] is True
    # the end of the scene on the screen and in the save: why, after which round
    assert saved()["position"]["outcome"] == {"why": "gm-ended", "round": 1, "burning": 1}
    assert "The scene ends after 1 round (the GM ended it): still 1 fire burning" in \
        result.output
    assert "Rounds played: 1 (ended: the GM ended it); still burning: 1 fire" in result.output
    result = new_game(["", "end", "undo", "quit"], save="u.json")
    out = result.output
    assert "The scene is over" in out
    assert "undone: the GM's 'end' (round 1, phase 2) (1 answer dropped)" in out
    assert out.rindex("Bo [") > out.index("undone: the GM's 'end'")  # Bo is asked again
    assert saved("u.json")["inputs"] == [{"q": "round", "round": 1, "a": "next"}]
    assert saved("u.json")["state"]["ended"] is False
    # undo round from the end: back to the start of round 1
    result = new_game(["", "end", "undo round", "quit"], save="r.json")
    assert "undone: back to the start of round 1 (2 answers dropped)" in result.output
    assert saved("r.json")["inputs"] == []


# -- bad save files -------------------------------------------------------------------------------
@pytest.fixture
def two_saves(shop):
    """s.json after five answers, and s.json.bak (the save before): both good."""
    new_game(ANSWERS[:5])
    return Path("s.json").read_text(encoding="utf-8"), Path("s.json.bak").read_text(encoding="utf-8")


@pytest.mark.parametrize("damage, message", [
    (lambda t: t[: len(t) * 2 // 3], "the saved session is cut off (truncated)"),
    (lambda t: t.replace('"inputs": [', '"inputs": [[', 1), "the saved session is damaged"),
    (lambda t: t.replace('"version": 5', '"version": 6'),
     "saved by fuego 0.1.0 in session format version 6; this fuego reads versions 5 to 5 "
     "(tip: upgrade fuego to resume it"),
    (lambda t: t.replace('"version": 5', '"version": 4'),
     "this session is in session format version 4, older than version 5 that this fuego reads"),
    (lambda t: "\x00\x01garbage", "is damaged"),
])
def test_damaged_save_files(two_saves, damage, message):
    good, bak = two_saves
    with open("s.json", "w", encoding="utf-8") as f:
        f.write(damage(good))
    result = run(["play", "--resume", "s.json"], ["", ""])
    assert result.exit_code == 2
    assert result.stderr.startswith("fuego: error: s.json: ")
    assert message in result.stderr
    assert "the previous good save is kept in s.json.bak" in result.stderr
    assert "fuego play --resume s.json.bak" in result.stderr
    assert Path("s.json.bak").read_text(encoding="utf-8") == bak  # the backup is untouched
    # and it resumes
    ok = run(["play", "--resume", "s.json.bak"], [])
    assert ok.exit_code == 0 and "resuming s.json.bak (4 answers" in ok.output


def test_missing_and_misused(shop):
    r = run(["play", "--resume", "nope.json"])
    assert r.exit_code == 2 and "nope.json: no saved session here" in r.stderr
    r = run(["play"])
    assert r.exit_code == 2 and "give a scenario FILE to play, or --resume SAVE" in r.output
    new_game([])
    r = run(["play", "--resume", "s.json", "--seed", "4"])
    assert r.exit_code == 2 and "--resume SAVE goes alone" in r.output
    r = new_game([])
    assert r.exit_code == 2 and "s.json already exists: continue it with fuego play --resume" \
        in r.output
    r = run(["play", "missing.yaml"])
    assert r.exit_code == 2 and "missing.yaml: no such file" in r.stderr


def test_default_save_name_never_overwrites(shop):
    first = run(["play", "shop.yaml", "--seed", SEED], [])
    second = run(["play", "shop.yaml", "--seed", SEED], [])
    assert "Saved after every answer to shop.session.json" in first.output
    assert "Saved after every answer to shop-2.session.json" in second.output


def test_a_seed_is_drawn_and_kept(shop):
    r = run(["play", "shop.yaml", "--session", "s.json"], [])
    seed = saved()["seed"]
    assert f"(seed {seed})" in r.output


# -- killed and resumed ---------------------------------------------------------------------------
FUEGO = [sys.executable, "-c", "from fuego.cli import main; main()"]


class Proc:
    """``fuego`` in a subprocess over pipes; its output collected by a thread."""

    def __init__(self, args, cwd, env=None):
        full_env = dict(os.environ, **(env or {}))
        self.p = subprocess.Popen(FUEGO + args, cwd=cwd, env=full_env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.buf = b""
        self.mark = 0  # where the output stood when the last answer was sent
        self.lock = threading.Lock()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        out = self.p.stdout
        assert isinstance(out, io.BufferedReader)  # read1: what has come, not waiting for more
        while True:
            chunk = out.read1(65536)
            if not chunk:
                return
            with self.lock:
                self.buf += chunk

    @property
    def text(self) -> str:
        with self.lock:
            return self.buf.decode("utf-8", "replace")

    def wait_prompt(self, timeout: float = 30) -> None:
        """Until fuego waits at a prompt it wrote after the last answer sent."""
        end = time.time() + timeout
        while time.time() < end:
            with self.lock:
                fresh = self.buf[self.mark:]
            if fresh.endswith(b": ") and b"\n" in fresh:  # the answer's echo, then a prompt
                return
            if self.p.poll() is not None:
                raise AssertionError(f"fuego exited early:\n{self.text}")
            time.sleep(0.01)
        raise AssertionError(f"no prompt within {timeout}s:\n{self.text[-2000:]}")

    def wait_first_prompt(self, timeout: float = 30) -> None:
        end = time.time() + timeout
        while not self.text.endswith(": "):
            if self.p.poll() is not None or time.time() > end:
                raise AssertionError(f"no first prompt:\n{self.text}")
            time.sleep(0.01)

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        with self.lock:
            self.mark = len(self.buf)
        self.p.stdin.write(line.encode() + b"\n")
        self.p.stdin.flush()

    def kill(self) -> None:
        self.p.send_signal(signal.SIGKILL)
        self.p.wait(timeout=10)


def _answers_then(proc: Proc, answers) -> None:
    proc.wait_first_prompt()
    for a in answers[:-1]:
        proc.send(a)
        proc.wait_prompt()
    if answers:
        proc.send(answers[-1])


@pytest.mark.slow
def test_killed_at_a_prompt_resumes_with_nothing_lost(shop):
    whole = new_game(ANSWERS, save="whole.json")
    cut = 14  # in round 2
    proc = Proc(["play", "shop.yaml", "--seed", SEED, "--session", "s.json", "--plain"], shop)
    _answers_then(proc, ANSWERS[:cut])
    proc.wait_prompt()  # waiting for the next answer ...
    proc.kill()  # ... when the terminal goes away
    assert proc.p.returncode == -signal.SIGKILL
    assert len(saved()["inputs"]) == cut  # every answer given was saved
    again = run(["play", "--resume", "s.json"], ANSWERS[cut:])
    assert again.exit_code == 0, again.output
    a, b = saved("whole.json"), saved("s.json")
    assert a["inputs"] == b["inputs"] and a["checks"] == b["checks"] and a["state"] == b["state"]
    assert after(again.output, "Round 3 begins") == after(whole.output, "Round 3 begins")


@pytest.mark.slow
def test_killed_in_the_middle_of_a_save_resumes_from_the_last_good_one(shop):
    whole = new_game(ANSWERS, save="whole.json")
    cut = 6
    proc = Proc(["play", "shop.yaml", "--seed", SEED, "--session", "s.json"], shop,
                env={sessions.SLOW_SAVE_ENV: "0.4"})
    _answers_then(proc, ANSWERS[:cut - 1])
    proc.wait_prompt()
    before = Path("s.json").read_text(encoding="utf-8")
    proc.send(ANSWERS[cut - 1])  # its save sleeps between the temporary file and the rename
    end = time.time() + 20
    while not any(n.startswith(".s.json.") and n.endswith(".tmp") for n in os.listdir(shop)):
        assert time.time() < end, "the save never started"
        time.sleep(0.005)
    proc.kill()  # mid-save
    stale = [n for n in os.listdir(shop) if n.endswith(".tmp")]
    assert stale  # the half-done save is left behind ...
    assert Path("s.json").read_text(encoding="utf-8") == before  # ... and the last good one intact
    assert len(saved()["inputs"]) == cut - 1
    again = run(["play", "--resume", "s.json"], ANSWERS[cut - 1:])
    assert again.exit_code == 0, again.output
    assert not [n for n in os.listdir(shop) if n.endswith(".tmp")]  # cleaned on resume
    a, b = saved("whole.json"), saved("s.json")
    assert a["inputs"] == b["inputs"] and a["checks"] == b["checks"] and a["state"] == b["state"]
    assert after(again.output, "Round 2 begins") == after(whole.output, "Round 2 begins")


@pytest.mark.slow
def test_end_of_input_over_a_pipe_saves_and_exits_cleanly(shop):
    proc = Proc(["play", "shop.yaml", "--seed", SEED, "--session", "s.json"], shop)
    assert proc.p.stdin is not None
    _answers_then(proc, ANSWERS[:3])
    proc.wait_prompt()
    proc.p.stdin.close()
    assert proc.p.wait(timeout=20) == 0
    assert "Session saved to s.json (fuego play --resume s.json reopens it)." in proc.text
    assert len(saved()["inputs"]) == 3


# -- a real terminal ------------------------------------------------------------------------------
class _Pty:
    """fuego on a pseudo-terminal: what it printed so far, read as it comes."""

    def __init__(self, shop, args, timeout: float) -> None:
        import pty

        self.master, slave = pty.openpty()
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="50")
        env.pop("NO_COLOR", None)
        self.p = subprocess.Popen(FUEGO + args, cwd=shop, env=env, stdin=slave, stdout=slave,
                                  stderr=slave, close_fds=True)
        os.close(slave)
        self.out, self.timeout = b"", timeout

    def read(self, wait: float) -> bytes:
        """What came within ``wait`` seconds (nothing once the terminal is closed)."""
        import select

        r, _, _ = select.select([self.master], [], [], wait)
        if not r:
            return b""
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            return b""
        self.out += chunk
        return chunk

    def read_until(self, needle: bytes) -> None:
        end = time.time() + self.timeout
        while needle not in self.out:
            if time.time() > end:
                raise AssertionError(f"{needle!r} never came:\n{self.text}")
            self.read(0.1)

    def drain_until_stopped(self) -> int:
        """Read while waiting for fuego to stop: a full terminal buffer would block it."""
        end = time.time() + self.timeout
        while True:
            if self.read(0.05):
                continue
            if self.p.poll() is not None:
                return self.p.returncode
            if time.time() > end:
                raise AssertionError("fuego did not stop:\n" + self.text)

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "replace")


def _pty_run(shop, args, steps, timeout=30):
    """Run fuego on a pseudo-terminal; ``steps``: (text to wait for, bytes to type, or a
    signal to send)."""
    term = _Pty(shop, args, timeout)
    try:
        for wait, typed in steps:
            term.read_until(wait.encode())
            if isinstance(typed, int):
                time.sleep(0.3)  # as a person would: once the prompt is really waiting
                term.p.send_signal(typed)
            elif typed is not None:
                os.write(term.master, typed)
        code = term.drain_until_stopped()
    finally:
        if term.p.poll() is None:
            term.p.kill()
        os.close(term.master)
    return code, term.text


@pytest.mark.slow
def test_on_a_terminal_colours_and_ctrl_d(shop):
    code, out = _pty_run(shop, ["play", "shop.yaml", "--seed", SEED, "--session", "s.json"], [
        ("Enter to play it", b"\n"),
        ("Bo [3: move ground:F2]", b"1\n"),
        ("Bo [", b"\x04"),  # Ctrl-D: end of input
    ])
    assert code == 0, out
    assert "\x1b[" in out  # rich colours on a terminal
    assert "wounds" in out and "Ana Vaz" in out
    assert "Session saved to s.json (fuego play --resume s.json reopens it)." in out
    assert len(saved()["inputs"]) == 2


@pytest.mark.slow
def test_on_a_terminal_ctrl_c_at_a_prompt_saves(shop):
    code, out = _pty_run(shop, ["play", "shop.yaml", "--seed", SEED, "--session", "s.json"], [
        ("Enter to play it", b"\n"),
        ("Bo [3: move ground:F2]", signal.SIGINT),
    ])
    assert code == 130, out  # as an interrupted program does, after saving
    assert "\r\nSession saved to s.json" in out  # on a line of its own, not after the prompt
    assert "Session saved to s.json (fuego play --resume s.json reopens it)." in out
    assert saved()["inputs"] == [{"q": "round", "round": 1, "a": "next"}]


def test_plain_over_a_pipe_has_no_colours(shop):
    result = new_game(ANSWERS[:3])
    assert "\x1b[" not in result.output
