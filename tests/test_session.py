"""Saved sessions (fuego.table.session): the file, atomic saves, replay, undo, overrides."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest

from fuego.engine.events import EventKind
from fuego.engine.loop import Ending, Outcome
from fuego.errors import SaveError
from fuego.table import replay
from fuego.table import session as sessions
from fuego.table.replay import Player, QuestionKind, Quit, Rewind, state_digest
from fuego.table.session import Session

#: A small scene for sessions: a store on fire (open door to the shop), two heroes, a lane out.
SHOP = """\
format: 1
title: The Cooper's Shop
rooms:
  store: {name: Store, fuel: 5}
  shop: {name: Shop, fuel: 4}
  lane: {name: Lane, outdoors: true, fuel: none, features: [exit]}
legend:
  t: store
  s: shop
  l: lane
levels:
  - name: ground
    elevation: 0
    plan: |
      tttsss
      tttsss
      llllll
doors:
  - {at: ground:C1-ground:D1, name: store door, closed: false}
  - {at: ground:F2-ground:F3, name: shop door}
heroes:
  - name: Ana Vaz
    traits: {brawn: 3, finesse: 2, wits: 2, resolve: 2, panache: 3}
    knacks: {firefighting: 2, leaping: 1}
    start: ground:D1
  - name: Bo
    traits: {brawn: 2, finesse: 2, wits: 2, resolve: 2, panache: 2}
    start: ground:E2
fires:
  - {area: ground:B1, fd: 4}
"""

SEED = 572


def new_session(seed: int = SEED) -> Session:
    return sessions.new("shop.yaml", seed, text=SHOP)


class ScriptLive:
    """A table that answers from a list; ``"undo"`` undoes; the end of the list quits."""

    def __init__(self, answers, *, save_to: str | None = None):
        self.answers = list(answers)
        self.asked: list[dict] = []
        self.offered: list[tuple[list[str], str]] = []  # (choices, default) of action questions
        self.errors: list[str] = []
        self.saves = 0
        self.save_to = save_to
        self.player: Player | None = None
        self.done = False
        self.digests_at_round: dict[int, str] = {}

    def answer(self, q):
        self.asked.append(q.key())
        if q.kind is QuestionKind.ACTION:
            self.offered.append(([c.text(q.scene) for c in q.choices],
                                 q.default.text(q.scene)))
        if q.kind is QuestionKind.ROUND:
            self.digests_at_round[q.round] = state_digest(q.scene)
        if not self.answers:
            raise Quit()
        a = self.answers.pop(0)
        if a == "undo":
            assert self.player is not None
            keep = self.player.undo_point()
            assert keep is not None
            raise Rewind(keep)
        if a == "undo answer":
            assert self.player is not None
            keep = self.player.answer_point()
            assert keep is not None
            raise Rewind(keep)
        return a

    def rejected(self, q, error):
        self.errors.append(error.render())

    def recorded(self, player):
        self.saves += 1
        if self.save_to:
            sessions.save(player.session, self.save_to)

    def finished(self, player):
        self.done = True


def play(session: Session, answers, **kw) -> tuple[Player, ScriptLive]:
    live = ScriptLive(answers, **kw)
    player = Player(session, live)
    live.player = player
    with contextlib.suppress(Quit):
        player.run()
    return player, live


def log_json(scene) -> list[str]:
    return [e.to_json() for e in scene.log]


#: Answers for the first three rounds of SHOP at seed 572: Enter (the automatic pick, or "let
#: fuego roll"), wait, hold, words, a player's total, and the end-of-round rolls.
ANSWERS = [
    "",                   # round 1
    "wait",               # Bo, phase 2
    "hold",               # Bo holds his other phase-2 die ...
    "",                   # ... and moves in phase 3
    "move ground:C1",     # Ana steps through the store door in phase 4, beside the fire
    "smother ground:B1",  # phase 6
    "12",                 # Ana's player rolled 12: not enough
    "smother ground:B1",  # phase 8
    "",                   # fuego rolls
    "",                   # the fire leapt onto Ana: the clothes check (fuego rolls)
    "",                   # round 2
    "", "", "", "", "",
    "",                   # round 3
    "", "",
]


def test_replay_is_exact_at_every_cut():
    """Stopping anywhere and replaying the saved answers continues exactly: the same state, the
    same log and the same random stream as one uninterrupted run."""
    whole, live = play(new_session(), ANSWERS)
    assert whole.scene is not None
    assert not live.errors
    n = len(whole.session.inputs)
    assert n >= 8
    want_digest = state_digest(whole.scene)
    want_log = log_json(whole.scene)
    for cut in range(0, n + 1):
        first, _ = play(new_session(), ANSWERS[:cut])
        saved = sessions.loads(first.session.dumps(), "cut.json")  # through the file format
        assert saved.inputs == whole.session.inputs[:cut]
        again, live2 = play(saved, ANSWERS[cut:])
        assert again.scene is not None
        assert not live2.errors
        assert again.session.inputs == whole.session.inputs
        assert state_digest(again.scene) == want_digest, cut
        assert log_json(again.scene) == want_log, cut


def test_answers_are_recorded_in_canonical_words():
    player, live = play(new_session(), ANSWERS[:8])
    assert player.scene is not None
    inputs = player.session.inputs
    assert inputs[0] == {"q": "round", "round": 1, "a": "next"}
    assert inputs[1] == {"q": "action", "round": 1, "phase": 2, "hero": "Bo", "a": "wait"}
    assert inputs[2]["a"] == "hold"
    assert inputs[4] == {"q": "action", "round": 1, "phase": 4, "hero": "Ana Vaz",
                         "a": "move ground:C1"}
    assert inputs[6] == {"q": "roll", "round": 1, "phase": 6, "hero": "Ana Vaz",
                         "purpose": "smother fire", "a": 12}
    # the player's total is the one the rule used
    rolled = [e for e in player.scene.log if e.kind is EventKind.HERO_ACTION
              and e.data.get("purpose") == "smother fire"]
    assert rolled[0].data["total"] == 12 and rolled[0].data["success"] is False


def test_numbers_pick_from_the_listed_choices_and_enter_takes_the_default():
    player, live = play(new_session(), ["", "2", ""])
    choices, _ = live.offered[0]
    _, default = live.offered[1]
    assert player.session.inputs[1]["a"] == choices[1]
    assert player.session.inputs[2]["a"] == default


def test_the_default_does_not_move_the_random_stream():
    from fuego.engine.controllers import AutoController

    session = new_session()
    player = Player(session, ScriptLive([]))
    player.scene = scene = session.build()
    player._auto = AutoController()
    hero = scene.heroes[0]
    hero.confused = True  # a confused automatic hero stumbles at random
    before = repr(scene.roller.getstate())
    q = player._action_question(scene, hero)
    assert q.default is not None
    assert repr(scene.roller.getstate()) == before


def test_hold_asks_again_in_the_next_phase():
    player, live = play(new_session(), ["", "hold", "", ""])
    actions = [k for k in live.asked if k["q"] == "action"]
    first = actions[0]
    again = [k for k in actions[1:] if k["hero"] == first["hero"]]
    assert again and again[0]["phase"] == first["phase"] + 1
    assert player.session.inputs[1]["a"] == "hold"


def test_undo_goes_back_to_the_start_of_the_round_then_further():
    # round 1 in full, then the first answers of round 2
    player, live = play(new_session(), ANSWERS)
    rounds = [i for i, e in enumerate(player.session.inputs) if e["q"] == "round"]
    assert len(rounds) >= 2
    r2 = rounds[1]
    mid_round_2 = player.session.inputs[: r2 + 2]
    script = [_answer_text(e) for e in mid_round_2]
    p, live = play(new_session(), script + ["undo"])
    # back at the boundary before round 2: its answer and everything after are gone
    assert p.session.inputs == player.session.inputs[:r2]
    assert live.asked[-1] == {"q": "round", "round": 2}
    # the state there is the state the first time round 2 was about to start
    assert live.digests_at_round[2] == _digest_before_round(2)
    # undo again: back before round 1; and again: nothing left to undo
    p, live = play(new_session(), script + ["undo", "undo"])
    assert p.session.inputs == []
    assert live.asked[-1] == {"q": "round", "round": 1}
    assert replay.undo_point([]) is None


def _answer_text(entry: dict) -> str:
    if "gm" in entry:
        return entry["gm"]
    a = entry["a"]
    return "" if a in ("next", "auto") else str(a)


def _digest_before_round(n: int) -> str:
    """The state when round ``n`` was first about to start, in one uninterrupted run."""
    _, live = play(new_session(), ANSWERS)
    return live.digests_at_round[n]


def test_undo_by_the_answer_at_every_cut_replays_the_same_log():
    """Take back any one answer and give it again: the same log, byte for byte (fuego's dice
    fall the same), and the same answers saved."""
    whole, _ = play(new_session(), ANSWERS)
    want = log_json(whole.scene)
    for k in range(1, len(ANSWERS) + 1):
        p, live = play(new_session(), ANSWERS[:k] + ["undo answer"] + ANSWERS[k - 1:])
        assert not live.errors
        assert log_json(p.scene) == want, f"undo after answer {k}"
        assert p.session.inputs == whole.session.inputs


def test_undo_by_the_answer_passes_over_the_rounds_the_table_played():
    inputs = [{"q": "round", "round": 1, "a": "next"},
              {"q": "action", "round": 1, "phase": 2, "hero": "Bo", "a": "wait"},
              {"q": "round", "round": 2, "a": "play-out"},
              {"q": "round", "round": 3, "a": "next", "by": "play-out"},
              {"q": "round", "round": 4, "a": "next", "by": "play-out"}]
    assert replay.answer_point(inputs) == 2
    assert replay.answer_point(inputs[:2]) == 1
    assert replay.answer_point([]) is None
    assert replay.undo_point(inputs) == 4  # undo round: the last round begun


@pytest.mark.parametrize("entry", [
    {"q": "action", "round": 1, "phase": 2, "hero": "Bo", "a": "wait", "by": "go"},
    {"q": "round", "round": 2, "a": "next", "by": "someone"},
    {"q": "round", "round": 2, "a": "play-out", "by": "go"},
])
def test_by_marks_only_a_round_the_table_played(tmp_path, entry):
    path, text = _good(tmp_path)
    data = json.loads(text)
    data["inputs"] = [entry]
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="'by' marks a round the table played on by itself"):
        sessions.load(path)


def test_undo_keeps_the_same_random_stream_afterwards():
    """Undoing a round and answering it the same way again gives the same round."""
    whole, _ = play(new_session(), ANSWERS)
    assert whole.scene is not None
    script = [_answer_text(e) for e in whole.session.inputs]
    rounds = [i for i, e in enumerate(whole.session.inputs) if e["q"] == "round"]
    r2 = rounds[1]
    redo = script[: r2 + 3] + ["undo"] + script[r2:]
    p, live = play(new_session(), redo)
    assert p.scene is not None
    assert p.session.inputs == whole.session.inputs
    assert state_digest(p.scene) == state_digest(whole.scene)
    assert log_json(p.scene) == log_json(whole.scene)


def test_overrides_are_recorded_replayed_and_undone():
    answers = ["fire ground:E1 3", "", "gm open ground:F2 ground:F3", ""]
    player, live = play(new_session(), answers)
    assert player.scene is not None
    gm = [e for e in player.session.inputs if "gm" in e]
    assert [e["gm"] for e in gm] == ["fire ground:E1 3", "open ground:F2 ground:F3"]
    assert gm[0]["q"] == "round" and gm[1]["q"] == "action"
    assert any(e.kind is EventKind.GM and e.data["action"] == "start-fire"
               for e in player.scene.log)
    again, _ = play(sessions.loads(player.session.dumps()), [])
    assert again.scene is not None
    assert state_digest(again.scene) == state_digest(player.scene)
    # undo at round 1 takes the overrides typed before it too
    assert replay.undo_point(player.session.inputs) == 0
    assert replay.undo_point(player.session.inputs[:1]) == 0


def test_undo_drops_the_overrides_typed_before_the_round():
    whole, _ = play(new_session(), ANSWERS)
    r2 = [i for i, e in enumerate(whole.session.inputs) if e["q"] == "round"][1]
    script = [_answer_text(e) for e in whole.session.inputs[:r2]]
    p, live = play(new_session(), script + ["fd ground:B1 6", "", "", "undo"])
    assert p.session.inputs == whole.session.inputs[:r2]  # the override went too
    assert live.asked[-1] == {"q": "round", "round": 2}
    assert live.digests_at_round[2] == _digest_before_round(2)


def test_a_failed_override_is_not_recorded():
    player, live = play(new_session(), ["fire ground:A3 3", "fd ground:E1 3", "open ground:A1",
                                        "move Zed ground:A1", ""])
    assert player.session.inputs == [{"q": "round", "round": 1, "a": "next"}]
    assert len(live.errors) == 4
    assert "nothing burns in ground:A3" in live.errors[0]
    assert "no fire burns in ground:E1" in live.errors[1]
    assert "no character named 'Zed'" in live.errors[3]


def test_move_override_takes_a_first_name():
    player, live = play(new_session(), ["move Ana ground:A2", ""])
    assert player.scene is not None
    assert player.session.inputs[0]["gm"] == "move Ana Vaz ground:A2"
    assert player.scene.area_name(player.scene.hero("Ana Vaz").area) != "ground:D1"


def test_end_override_ends_the_scene_mid_round():
    player, live = play(new_session(), ["", "end", "anything"])
    assert player.scene is not None
    assert player.scene.ended
    assert live.done
    assert player.session.inputs[-1]["gm"] == "end"
    assert player.scene.log[-1].kind is EventKind.SCENE_END
    assert player.scene.log[-1].data["why"] == "gm-ended"
    assert player.outcome == Outcome(Ending.GM_ENDED, 1, len(player.scene.fires))
    # replaying it ends it the same way
    again, live2 = play(sessions.loads(player.session.dumps()), [])
    assert again.scene is not None
    assert again.scene.ended and live2.done and live2.asked == []
    assert again.outcome == player.outcome


def test_a_session_played_through_to_the_end():
    """Enter at every question: the heroes get out, the fire burns out, and the outcome says
    so in the scene's last event, the player and the save's position; a replay of the save
    ends the same way without asking anything."""
    player, live = play(new_session(), [""] * 2000)
    scene = player.scene
    assert scene is not None
    assert live.done and scene.ended and not scene.fires
    assert player.outcome == Outcome(Ending.FIRE_OUT, scene.round, 0)
    end = scene.log[-1]
    assert end.kind is EventKind.SCENE_END and end.data["why"] == "fire-out"
    assert end.data["rounds"] == scene.round
    assert player.position()["outcome"] == {"why": "fire-out", "round": scene.round,
                                            "burning": 0}
    again, live2 = play(sessions.loads(player.session.dumps()), [])
    assert live2.done and live2.asked == [] and again.outcome == player.outcome
    assert log_json(again.scene) == log_json(scene)


class EndWhenNobodyActs(ScriptLive):
    """Enter at every question; ``end`` at the first round boundary that offers it."""

    def answer(self, q):
        if q.offer_end:
            self.asked.append(q.key())
            return "end"
        return super().answer(q)


def test_ending_the_scene_when_no_hero_is_left_to_act():
    live = EndWhenNobodyActs([""] * 2000)
    player = Player(new_session(), live)
    live.player = player
    player.run()
    scene = player.scene
    assert scene is not None
    assert not any(h.in_play for h in scene.heroes) and scene.fires  # it was still burning
    assert player.outcome == Outcome(Ending.HEROES_OUT, scene.round, len(scene.fires))
    assert scene.log[-1].data["why"] == "heroes-out"
    assert player.session.inputs[-1] == {"q": "round", "round": scene.round + 1, "gm": "end"}


def test_bad_answers_are_rejected_and_asked_again():
    player, live = play(new_session(), ["", "fly away", "99", "", "seventeen"])
    assert any("'fly' is not a hero action: expected one of move, open" in e
               and "legal now: move" in e for e in live.errors)
    assert any("no choice 99" in e for e in live.errors)
    assert len(player.session.inputs) == 2


def test_a_replay_that_does_not_fit_says_so():
    player, _ = play(new_session(), ANSWERS[:4])
    data = json.loads(player.session.dumps())
    assert data["inputs"][1]["hero"] == "Bo"
    data["inputs"][1]["hero"] = "Ana Vaz"  # an answer for someone else
    session = sessions.loads(json.dumps(data))
    with pytest.raises(SaveError, match="no longer replay"):
        play(session, [])


# -- the file -----------------------------------------------------------------------------------
def test_save_and_load_round_trip(tmp_path):
    player, _ = play(new_session(), ANSWERS[:5])
    assert player.scene is not None
    path = str(tmp_path / "s.json")
    sessions.save(player.session, path, position=player.position(),
                  state=player.scene.snapshot())
    text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == "fuego-session" and data["version"] == 5
    assert data["scenario"]["text"] == SHOP and data["seed"] == SEED
    assert data["state"]["round"] == player.scene.round
    # one answer per line
    for entry in data["inputs"]:
        assert json.dumps(entry, separators=(",", ":"), ensure_ascii=False) in text
    back = sessions.load(path)
    assert back.inputs == player.session.inputs and back.scenario_text == SHOP


def test_save_is_atomic_and_keeps_the_previous_as_bak(tmp_path):
    path = str(tmp_path / "s.json")
    s = new_session()
    sessions.save(s, path)
    assert not os.path.exists(path + ".bak")
    first = Path(path).read_text(encoding="utf-8")
    s.inputs.append({"q": "round", "round": 1, "a": "next"})
    sessions.save(s, path)
    assert Path(path + ".bak").read_text(encoding="utf-8") == first
    assert len(sessions.load(path).inputs) == 1
    assert sorted(os.listdir(tmp_path)) == ["s.json", "s.json.bak"]  # no temporary files left


def test_a_damaged_save_never_replaces_the_backup(tmp_path):
    path = str(tmp_path / "s.json")
    s = new_session()
    sessions.save(s, path)
    s.inputs.append({"q": "round", "round": 1, "a": "next"})
    sessions.save(s, path)
    good_bak = Path(path + ".bak").read_text(encoding="utf-8")
    with open(path, "w") as f:
        f.write('{"format": "fuego-session", "vers')
    s.inputs.append({"q": "action", "round": 1, "phase": 1, "hero": "Bo", "a": "wait"})
    sessions.save(s, path)  # saving over a damaged file: the .bak stays the good one
    assert Path(path + ".bak").read_text(encoding="utf-8") == good_bak
    assert len(sessions.load(path).inputs) == 2


def test_a_save_with_no_new_answer_keeps_the_backup(tmp_path):
    path = str(tmp_path / "s.json")
    s = new_session()
    sessions.save(s, path)
    s.inputs.append({"q": "round", "round": 1, "a": "next"})
    sessions.save(s, path, position={"round": 0})
    bak = Path(path + ".bak").read_text(encoding="utf-8")
    sessions.save(s, path, position={"round": 1})  # only the state moved on
    assert json.loads(Path(path).read_text(encoding="utf-8"))["position"] == {"round": 1}
    assert Path(path + ".bak").read_text(encoding="utf-8") == bak


def test_stale_temporary_files_are_cleaned(tmp_path):
    path = str(tmp_path / "s.json")
    stale = tmp_path / ".s.json.abc123.tmp"
    stale.write_text("half")
    other = tmp_path / ".other.json.abc.tmp"
    other.write_text("not ours")
    assert sessions.clean_stale(path) == [str(stale)]
    assert other.exists()


def _good(tmp_path) -> tuple[str, str]:
    path = str(tmp_path / "s.json")
    s = new_session()
    sessions.save(s, path)
    s.inputs.append({"q": "round", "round": 1, "a": "next"})
    sessions.save(s, path)  # now s.json.bak is a good save too
    return path, Path(path).read_text(encoding="utf-8")


@pytest.mark.parametrize("damage, message", [
    (lambda t: t[: len(t) // 2], "cut off (truncated)"),
    (lambda t: "", "is empty"),
    (lambda t: t.replace('"inputs": [', '"inputs": [}', 1), "is damaged"),
    (lambda t: "[1, 2]", "not a fuego session file"),
    (lambda t: t.replace('"fuego-session"', '"something-else"'), "not a fuego session file"),
    (lambda t: t.replace('"version": 5', '"version": 6'), "reads versions 5 to 5"),
    (lambda t: t.replace('"version": 5', '"version": 4'), "older than version 5"),
    (lambda t: t.replace("The Cooper", "The Baker"), "does not match its sha256"),
    (lambda t: t.replace('"a":"next"', '"a":"later"'), "inputs[0]"),
    (lambda t: t.replace('"seed": 572', '"seed": "three"'), "seed"),
])
def test_damaged_saves_say_what_and_offer_the_bak(tmp_path, damage, message):
    path, text = _good(tmp_path)
    with open(path, "w", encoding="utf-8") as f:
        f.write(damage(text))
    with pytest.raises(SaveError) as err:
        sessions.load(path)
    rendered = err.value.render()
    assert message in rendered
    assert rendered.startswith(path)
    assert f"fuego play --resume {path}.bak" in rendered
    assert sessions.load(path + ".bak").inputs == []  # the backup is untouched and good


def test_a_scenario_given_as_a_save_is_said_to_be_one(tmp_path):
    path = tmp_path / "shop.yaml"
    path.write_text(SHOP, encoding="utf-8")
    with pytest.raises(SaveError) as err:
        sessions.load(str(path))
    assert err.value.render() == (f"{path}: this is a scenario, not a saved session (tip: start "
                                  f"a scene of it with: fuego play {path})")  # not "damaged"


def test_a_newer_version_names_the_fuego_that_saved_it(tmp_path):
    path, text = _good(tmp_path)
    data = json.loads(text)
    data["version"], data["fuego"] = 7, "9.9"
    with open(path, "w") as f:
        json.dump(data, f)
    with pytest.raises(SaveError, match="saved by fuego 9.9 in session format version 7; this "
                                        "fuego reads versions 5 to 5"):
        sessions.load(path)


def test_missing_save(tmp_path):
    with pytest.raises(SaveError, match="no saved session here"):
        sessions.load(str(tmp_path / "nope.json"))


def test_a_modules_action_keeps_its_area():
    """Module actions (here firefighting's sand) are recorded with their area, so the one the
    GM picked is the one replayed, not the first of its kind."""
    text = SHOP.replace("start: ground:D1", "start: ground:B2").replace(
        "  - {area: ground:B1, fd: 4}\n",
        "  - {area: ground:B1, fd: 2}\n  - {area: ground:A2, fd: 2}\n"
        "rules:\n  modules:\n    firefighting: {sand: 3}\n")
    session = sessions.new("ff.yaml", 1, text=text)
    probe, live = play(session, [""])
    assert live.asked[-1]["q"] == "action" and live.asked[-1]["hero"] == "Ana Vaz"
    choices, _ = live.offered[-1]
    assert "sand ground:B1" in choices and "sand ground:A2" in choices
    n = choices.index("sand ground:A2") + 1
    player, _ = play(sessions.new("ff.yaml", 1, text=text), ["", str(n)])
    assert player.scene is not None
    assert player.session.inputs[-1]["a"] == "sand ground:A2"
    a2 = player.scene.building.find("ground:A2")
    b1 = player.scene.building.find("ground:B1")
    assert b1 is not None
    assert a2 not in player.scene.fires and player.scene.fires[b1].fd == 2
    again, _ = play(sessions.loads(player.session.dumps()), [])
    assert again.scene is not None
    assert state_digest(again.scene) == state_digest(player.scene)


def test_put_out_a_companions_clothes_by_first_name():
    from fuego.engine.hero_actions import HeroActionKind, read_action

    session = new_session()
    scene = session.build()
    ana, bo = scene.hero("Ana Vaz"), scene.hero("Bo")
    bo.area = ana.area
    ana.clothes_fd = 2
    act = read_action(scene, bo, "put-out-clothes Ana")
    assert act.kind is HeroActionKind.PUT_OUT_CLOTHES and act.other == "Ana Vaz"
    assert act.text(scene) == "put-out-clothes Ana Vaz"


def test_a_save_from_before_the_debris_roll_had_its_purpose_still_replays():
    """Older saves keyed a debris roll's answer "avoid fire (...)"; it answers the question
    now asked as "avoid debris (...)", and nothing else changes what an answer answers."""
    from fuego.engine.heroes import Hero
    from fuego.table.replay import Question

    hero = Hero("Bo", 0)
    q = Question(QuestionKind.ROLL, None, 3, 4, hero, purpose="avoid debris (leaping)")  # type: ignore[arg-type]
    base = {"q": "roll", "round": 3, "phase": 4, "hero": "Bo", "a": "auto"}
    assert q.answered_by({**base, "purpose": "avoid debris (leaping)"})
    assert q.answered_by({**base, "purpose": "avoid fire (leaping)"})
    assert not q.answered_by({**base, "purpose": "avoid fire (climbing)"})
    assert not q.answered_by({**base, "purpose": "avoid debris (leaping)", "phase": 5})
    fire = Question(QuestionKind.ROLL, None, 3, 4, hero, purpose="avoid fire (leaping)")  # type: ignore[arg-type]
    assert not fire.answered_by({**base, "purpose": "avoid debris (leaping)"})
