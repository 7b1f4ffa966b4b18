"""Forecasts (issue 8): :func:`fuego.forecast.runner.forecast` and ``fuego forecast``.

The numbers are checked against odds computed by hand on a scene where the hand computation is
exact, and for reproducibility: the same seed gives the same JSON whatever ``--jobs`` and
however the runs are chunked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.dice.odds import chance
from fuego.dice.roller import Pool, Roller
from fuego.errors import FuegoError
from fuego.forecast.play import run_seed
from fuego.forecast.runner import forecast
from fuego.scenario.model import loads

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"

#: A one-die fire (Panache 1: exactly one action a round) beside a thin wooden wall (pass-through
#: TN 5) with fuel behind it. Nothing else to do: no route, no leap through the wall, growing is
#: worse for the hungry fire than burning through (TN 5 against a 2k1 spreading roll), breaking
#: the wall (TN 10) is not a fair chance. Resolve 9 fuel: the fire never burns out this soon.
#: Flashover ``all-lit`` (the older reading): a room flashes over the round its fuel catches,
#: which the flashover odds below count on.
WALL = """
format: 1
title: One thin wall
defaults: {wall: thin-wooden-wall}
rooms:
  a: {name: Fire side, fuel: 9}
  b: {name: Far side, fuel: 9}
legend: {a: a, b: b}
levels:
  - name: ground
    elevation: 0
    plan: |
      ab
fires:
  - {area: ground:A1, fd: 1}
rules: {smoke: false, max_rounds: 5, flashover: all-lit}
"""


@pytest.fixture(scope="module")
def wall():
    return loads(WALL)


@pytest.fixture(scope="module")
def wall_forecast(wall):
    return forecast(wall, runs=600, rounds=3, seed=11)


def test_the_scene_is_what_the_hand_computation_assumes(wall):
    from fuego.engine.fire_actions import ActionKind
    from fuego.engine.policy import hungry

    scene = wall.build(1)
    fire = scene.fires[0]
    barrier, = scene.building.barriers
    assert fire.fd == 1 and fire.panache == 1 and barrier.pass_through_tn == 5
    assert fire.spreading_pool() == Pool(2, 1)
    act = hungry(scene, fire)
    assert act is not None
    assert act.kind is ActionKind.BURN_THROUGH and act.tn == 5


def test_burning_by_round_matches_the_odds_of_the_spreading_roll(wall_forecast):
    p = chance(Pool(2, 1), 5)  # one spreading roll a round: 2k1 against TN 5
    assert p == pytest.approx(0.84)  # 1 - (4/10)^2
    d = wall_forecast.to_dict()
    far = d["areas"]["ground:B1"]["p_burning_by_round"]
    runs = d["runs"]
    for r in (1, 2, 3):
        exact = 1 - (1 - p) ** r  # it tries again each round until through
        sigma = (exact * (1 - exact) / runs) ** 0.5
        assert far[r] == pytest.approx(exact, abs=max(4 * sigma, 0.01)), r
    assert far[0] == 0.0
    assert d["areas"]["ground:A1"]["p_burning_by_round"] == [1.0] * 4
    assert d["areas"]["ground:A1"]["median_first_round"] == 0
    assert d["areas"]["ground:B1"]["median_first_round"] == 1
    # a one-area room flashes over at the end of the round its area catches
    assert d["rooms"]["b"]["p_flashover_by_round"] == d["rooms"]["b"]["p_burning_by_round"]
    assert d["rooms"]["a"]["p_flashover_by_round"][1:] == [1.0] * 3
    assert d["fire_out"]["p_still_burning"] == 1.0 and d["fire_out"]["median_round"] is None
    assert d["burning_areas_by_round"]["mean"][0] == 1.0


def test_one_run_is_the_scene_of_its_seed(wall):
    from fuego.engine.controllers import AutoController
    from fuego.engine.rounds import play_round, start_scene

    for seed in (2024, 7, 99):
        result = forecast(wall, runs=1, rounds=3, seed=seed).to_dict()
        # run 0 of a forecast is wall.build(run_seed(seed, 0)): play it by hand
        scene = wall.build(run_seed(seed, 0))
        start_scene(scene)
        controller = AutoController()
        burning = [set(scene.fires)]
        for _ in range(3):
            play_round(scene, controller)
            burning.append(set(scene.fires))
        for area in scene.building.areas:
            got = result["areas"][area.name]["p_burning_at_round"]
            assert got == [1.0 if area.index in s else 0.0 for s in burning]


#: A small fire on little fuel: it goes out within a few rounds in some runs, not in others.
EMBERS = """
format: 1
title: Embers
rooms:
  a: {name: Hearth, fuel: 2}
  b: {name: Store, fuel: 3}
legend: {a: a, b: b}
levels:
  - name: ground
    elevation: 0
    plan: |
      aab
fires:
  - {area: ground:A1, fd: 1}
rules: {smoke: false, max_rounds: 12}
"""


def test_the_runs_end_as_the_loop_says(tmp_path):
    """Each run is the scene loop's: the share of runs ending each way, by round, is what
    ``loop.run`` says of each run's seed played alone."""
    from collections import Counter

    from fuego.engine import loop
    from fuego.engine.controllers import AutoController

    embers = loads(EMBERS)
    runs, rounds, seed = 40, 6, 3
    d = forecast(embers, runs=runs, rounds=rounds, seed=seed).to_dict()
    seen: Counter[tuple[str, int]] = Counter()
    for i in range(runs):
        outcome = loop.run(embers.build(run_seed(seed, i)), AutoController(), rounds=rounds)
        seen[outcome.why.value, outcome.round] += 1
    assert {k for k, _ in seen} == {"fire-out", "round-limit"}  # the scene tries both ways
    for why in loop.Ending:
        got = d["endings"][why.value]
        want = {str(r): n / runs for (w, r), n in sorted(seen.items()) if w == why.value}
        assert got["by_round"] == pytest.approx(want)
        assert got["p"] == pytest.approx(sum(want.values()))
    assert set(d["endings"]["round-limit"]["by_round"]) == {str(rounds)}
    path = tmp_path / "embers.yaml"
    path.write_text(EMBERS, encoding="utf-8")
    text = CliRunner().invoke(cli, ["forecast", str(path), "--runs", str(runs), "--rounds",
                                    str(rounds), "--seed", str(seed)]).output
    p_out = d["endings"]["fire-out"]
    assert (f"Runs ended: fire out (no fire, no smoke) in {round(100 * p_out['p'])}% "
            in text), text
    assert f"median round {p_out['median_round']}; at the round limit ({rounds}) in " in text


def test_run_seeds_depend_on_the_seed_and_index_only():
    assert run_seed(7, 3) == Roller(7).spawn(3).seed == (7 * 1_000_003 + 3) % 2**48
    assert len({run_seed(7, i) for i in range(1000)}) == 1000


def test_chunking_does_not_change_the_numbers(wall):
    one = forecast(wall, runs=60, rounds=3, seed=5, chunk=1).to_dict()
    seven = forecast(wall, runs=60, rounds=3, seed=5, chunk=7).to_dict()
    assert one == seven
    other = forecast(wall, runs=60, rounds=3, seed=6).to_dict()
    assert other != one  # a different seed is a different forecast


def test_jobs_1_and_2_give_identical_json():
    runner = CliRunner()
    args = ["forecast", str(TAVERN), "--runs", "24", "--rounds", "4", "--seed", "3", "--json"]
    one = runner.invoke(cli, args + ["--jobs", "1"], catch_exceptions=False)
    two = runner.invoke(cli, args + ["--jobs", "2"], catch_exceptions=False)
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["runs"] == 24 and data["rounds"] == 4 and data["seed"] == 3
    assert "jobs" not in data
    assert set(data) >= {"areas", "rooms", "heroes", "fire_out", "burning_areas_by_round"}
    for hero in data["heroes"].values():
        total = (hero["p_escaped"] + hero["p_knocked_out"] + hero["p_killed"]
                 + hero["p_still_inside"])
        assert total == pytest.approx(1.0)
        assert sum(hero["dramatic_wounds"].values()) == pytest.approx(1.0)
        assert len(hero["mean_dramatic_wounds_by_round"]) == 5


def test_a_forecast_counts_the_scripted_actions_the_rules_refused_and_plays_on(tmp_path):
    from test_run import BROKEN_DOOR

    scenario = tmp_path / "door.yaml"
    scenario.write_text(BROKEN_DOOR, encoding="utf-8")
    args = ["forecast", str(scenario), "--runs", "12", "--rounds", "4", "--seed", "3"]
    runner = CliRunner()
    r = runner.invoke(cli, [*args, "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["runs"] == 12
    assert data["skipped_actions"] == {"actions.Ana.2[0]": {
        "runs": 12, "p": 1.0, "p_ci95": data["skipped_actions"]["actions.Ana.2[0]"]["p_ci95"]}}
    assert data["heroes"]["Ana"]["p_escaped"] == 1.0  # her next action, the step out, was played
    two = runner.invoke(cli, [*args, "--json", "--jobs", "2"], catch_exceptions=False)
    assert two.stdout == r.stdout  # counted alike whoever plays the runs
    text = runner.invoke(cli, args, catch_exceptions=False).stdout
    assert "Scripted actions the rules refused when their turn came, skipped: " \
           "actions.Ana.2[0] in 100% (" in text
    # a scenario whose scripted actions all stay legal says nothing of it
    tavern = json.loads(runner.invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds",
                                            "1", "--json"], catch_exceptions=False).stdout)
    assert "skipped_actions" not in tavern


def test_worker_start_methods_do_not_change_the_numbers(wall):
    one = forecast(wall, runs=40, rounds=3, seed=8).to_dict()
    for method in ("fork", "spawn"):
        assert forecast(wall, runs=40, rounds=3, seed=8, jobs=2, chunk=10,
                        start_method=method).to_dict() == one


def test_progress_is_reported_after_every_run(wall):
    seen = []
    forecast(wall, runs=30, rounds=2, seed=1, progress=lambda done, total: seen.append(
        (done, total)), chunk=8)
    assert seen == [(n, 30) for n in range(1, 31)]
    seen.clear()
    forecast(wall, runs=30, rounds=2, seed=1, jobs=2, chunk=8,
             progress=lambda done, total: seen.append((done, total)))
    # workers count each run as it ends: never backwards, up to the last
    assert seen[-1] == (30, 30) and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))


@pytest.mark.parametrize("kw,words", [
    ({"runs": 0}, "runs must be between 1 and 100000"),
    ({"runs": 100_001}, "runs must be between 1 and 100000"),
    ({"rounds": 6}, "rounds must be between 1 and 5"),
    ({"rounds": 0}, "rounds must be between 1 and 5"),
    ({"jobs": 0}, "jobs must be between 1 and 64"),
    ({"jobs": 65}, "jobs must be between 1 and 64"),
    ({"runs": "many"}, "runs must be a whole number"),
    ({"seed": -1}, "seed must be a whole number"),
])
def test_limits_are_clear_errors(wall, kw, words):
    args = {"runs": 10, "rounds": 2, "seed": 1, "jobs": 1, **kw}
    with pytest.raises(FuegoError, match=words):
        forecast(wall, **args)


def test_cli_summary_report_and_errors(tmp_path):
    runner = CliRunner()
    out = tmp_path / "report.png"
    r = runner.invoke(cli, ["forecast", str(TAVERN), "--runs", "12", "--rounds", "3",
                            "--out", str(out), "--by-round", "2", "--dpi", "40"],
                      catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "12 runs of up to 3 rounds, seed 1" in r.output
    assert "Kitchen" in r.output and "Isabela Soldano" in r.output
    assert f"wrote {out}" in r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(cli, ["forecast", str(TAVERN), "--runs", "0"])
    assert r.exit_code == 2 and "runs must be between 1 and 100000" in r.output
    r = runner.invoke(cli, ["forecast", str(TAVERN), "--rounds", "3", "--by-round", "4"])
    assert r.exit_code == 2 and "--by-round must be between 0 and 3" in r.output
    r = runner.invoke(cli, ["forecast", str(TAVERN), "--out", "x.txt"])
    assert r.exit_code == 2 and ".svg, .png or .pdf" in r.output


def test_report_figures(wall_forecast, tmp_path):
    import matplotlib

    from fuego.render.forecast_plot import plot_forecast

    fig, = plot_forecast(wall_forecast, by_round=1)
    out = tmp_path / "r.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(out)
    text = out.read_text()
    assert 'id="heat-ground:B1"' in text and 'id="curve-burning-mean"' in text
    pages = plot_forecast(wall_forecast, layout="pages")
    assert len(pages) == 2  # one level, then the curves
    # the heat map's labels are the chances of burning by that round
    labels = {t.get_text() for ax in fig.axes for t in ax.texts}
    p1 = wall_forecast.to_dict()["areas"]["ground:B1"]["p_burning_by_round"][1]
    assert f"{round(100 * p1)}%" in labels and "100%" in labels


@pytest.mark.parametrize("collecting", [True, False])
def test_the_collector_is_left_as_it_was_and_changes_nothing(wall, collecting):
    import gc

    before = forecast(wall, runs=12, rounds=4, seed=3).to_dict()
    (gc.enable if collecting else gc.disable)()
    try:
        assert forecast(wall, runs=12, rounds=4, seed=3, chunk=5).to_dict() == before
        assert gc.isenabled() is collecting
    finally:
        gc.enable()


def test_a_forecast_log_keeps_what_its_script_reads_and_drops_the_rest():
    # The engine appends every event alike; a forecast's sink keeps only the kinds its script
    # reads (nobody else reads a forecast's log), so the script sees what it would in a run.
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController
    from fuego.forecast.play import ScriptReads, log_for
    from fuego.scenario.model import load

    scenario = load(str(Path(__file__).resolve().parent.parent / "campaigns" / "tavern.yaml"))
    whole, kept = scenario.build(3), scenario.build(3)
    kept.log = log_for(kept)
    assert isinstance(kept.log, ScriptReads) and kept.script is not None
    reads = kept.script.reads
    assert reads
    loop.run(whole, AutoController(), rounds=6)
    loop.run(kept, AutoController(), rounds=6)
    assert [e for e in whole.log if e.kind in reads] == list(kept.log)
    assert whole.snapshot() == kept.snapshot()  # the same play either way
    assert len(kept.log) < len(whole.log)


@pytest.mark.parametrize("kinds", [
    frozenset(),
    frozenset({"fire-action-failed", "fire-fuel-check", "fire-out"}),
    frozenset({"smoke", "fire-grew", "fire-leapt"}),
])
def test_a_log_that_drops_kinds_makes_none_of_them_and_plays_the_same(kinds):
    # Events a log would drop are not made at all (Scene.logs: a pass's failed rolls, the fuel
    # checks, the smoke's areas): the story, the draws and the events kept are the same.
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController
    from fuego.engine.events import EventKind, EventLog
    from fuego.scenario.model import load

    keep = frozenset(EventKind(k) for k in kinds)
    scenario = load(str(Path(__file__).resolve().parent.parent / "campaigns" / "tavern.yaml"))
    whole, kept = scenario.build(5), scenario.build(5)
    kept.log = EventLog([e for e in kept.log if e.kind in keep], kinds=keep)
    kept.script = None  # (its cues read kinds this log may drop)
    whole.script = None
    assert all(kept.logs(k) == (k in keep) for k in EventKind)
    loop.run(whole, AutoController(), rounds=8)
    loop.run(kept, AutoController(), rounds=8)
    assert [e for e in whole.log if e.kind in keep] == list(kept.log)
    assert {e.kind for e in kept.log} == keep  # (each kept kind happens in these rounds)
    assert whole.snapshot() == kept.snapshot()
    assert whole.roller.getstate() == kept.roller.getstate()
    heard: list = []
    kept.listeners.append(heard.append)  # a listener hears every kind: all are made again
    assert all(kept.logs(k) for k in EventKind)


def test_a_forecast_puts_no_hero_action_in_words_its_log_drops(monkeypatch):
    """The words of a hero's action (``HeroAction.text``, the door's name among them) are made
    for the log only where it keeps them: a forecast of the tavern, whose script reads no
    ``hero-action``, makes none; a table's log makes one a hero's action."""
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController
    from fuego.engine.events import EventKind
    from fuego.engine.hero_actions import HeroAction
    from fuego.scenario.model import load

    told: list = []
    text = HeroAction.text

    def telling(self, scene):
        told.append(self)
        return text(self, scene)

    monkeypatch.setattr(HeroAction, "text", telling)
    scenario = load(Path(__file__).resolve().parent.parent / "campaigns" / "tavern.yaml")
    script = scenario.build(1).script
    assert script is not None
    assert EventKind.HERO_ACTION not in (script.reads or {EventKind.HERO_ACTION})
    forecast(scenario, 3, 10, 1, 1)
    assert told == []
    scene = scenario.build(1)
    loop.run(scene, AutoController(), rounds=10)
    assert len(told) == sum(e.kind is EventKind.HERO_ACTION and e.data["action"] != "roll"
                            for e in scene.log) > 0
