"""Forecasts that tell the truth (issue 20): plans, Ctrl-C, bounded counts, the half-fuel round.

Ctrl-C is sent as a terminal sends it: SIGINT to the whole process group of a real
``fuego forecast --jobs 2``, which must end (workers too) within two seconds with status 130
and the summary of the runs it finished.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.engine.plans import Plan, PlanKind, parse_plans
from fuego.errors import FuegoError
from fuego.forecast.result import ForecastInterrupted
from fuego.forecast.runner import forecast
from fuego.scenario.model import load

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


@pytest.fixture(scope="module")
def tavern():
    return load(TAVERN)


@pytest.mark.slow
def test_a_fight_forecast_of_the_tavern_wounds_some_hero(tavern):
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "30", "--rounds", "15",
                                 "--plan", "fight", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    heroes = json.loads(r.stdout)["heroes"]
    fighters = {n: v for n, v in heroes.items() if v["plan"] == "fight"}
    assert set(fighters) == {"Isabela Soldano", "Gaston Allais", "Bjorn Haraldsson"}
    assert heroes["Mother Hettie"]["plan"] == "flee"  # an NPC keeps fleeing unless named
    assert any(v["mean_dramatic_wounds"] > 0 for v in fighters.values())
    # the same forecast with the heroes fleeing: the plan is what changed the numbers
    flee = forecast(tavern, runs=30, rounds=15, seed=1).to_dict()["heroes"]
    assert {v["plan"] for v in flee.values()} == {"flee"}
    assert flee != heroes


def test_the_summary_names_each_heroes_plan(tavern):
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "4", "--rounds", "3",
                                 "--plan", "hold", "--plan", "Gaston=rescue:Mother Hettie"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert ("Heroes' plans: Isabela Soldano: hold; Gaston Allais: rescue:Mother Hettie; "
            "Bjorn Haraldsson: hold; Mother Hettie: flee") in r.output


def test_plans_are_read_with_clear_errors(tavern):
    heroes = tavern.build(0).heroes
    plans = parse_plans(["fight", "bjorn=hold", "Gaston Allais=rescue:hettie"], heroes)
    by = {h.name: plans.for_hero(h) for h in heroes}
    assert by["Isabela Soldano"] == Plan(PlanKind.FIGHT)
    assert by["Bjorn Haraldsson"] == Plan(PlanKind.HOLD)
    assert by["Gaston Allais"] == Plan(PlanKind.RESCUE, "Mother Hettie")
    for bad, words in (("dance", "not a plan"), ("rescue", "rescue needs the NPC"),
                       ("Zorro=fight", "no hero 'Zorro'"), ("fight:Bjorn", "takes no name")):
        with pytest.raises(FuegoError, match=words):
            parse_plans([bad], heroes)


def test_a_mistyped_plans_example_is_an_npc_of_this_scenario(tavern):
    with pytest.raises(FuegoError) as tavern_error:
        parse_plans(["dance"], tavern.build(0).heroes)
    assert "e.g. rescue:Mother Hettie" in str(tavern_error.value.tip)
    wagon = load(ROOT / "campaigns" / "wagon.yaml").build(0).heroes
    assert not any(h.npc for h in wagon)
    with pytest.raises(FuegoError) as wagon_error:
        parse_plans(["dance"], wagon)
    # (the tavern's NPC would be no example in a scenario without her)
    assert "Hettie" not in str(wagon_error.value.tip)
    assert "this scenario has no NPC" in str(wagon_error.value.tip)


def test_hold_stays_put_and_rescue_reaches_the_npc(tavern):
    from fuego.engine.plans import HeroPlans, PlanController
    from fuego.engine.rounds import play_round, start_scene

    scene = tavern.build(5)
    gaston = next(h for h in scene.heroes if h.name == "Gaston Allais")
    hettie = next(h for h in scene.heroes if h.name == "Mother Hettie")
    isabela = next(h for h in scene.heroes if h.name == "Isabela Soldano")
    start = isabela.area
    controller = PlanController(HeroPlans(named={
        "gaston allais": Plan(PlanKind.RESCUE, "Mother Hettie"),
        "isabela soldano": Plan(PlanKind.HOLD)}))
    start_scene(scene)
    met = False
    for _ in range(6):
        play_round(scene, controller)
        met = met or gaston.area == hettie.area or "Gaston Allais" in controller._reached
    assert isabela.area == start or not isabela.in_play
    assert met  # Gaston went to her (she is fleeing too: they meet on the way)


def test_the_json_streamed_is_the_json_of_the_numbers(tavern):
    result = forecast(tavern, runs=6, rounds=5, seed=2)
    assert "".join(result.json_chunks()) == json.dumps(result.to_dict(), separators=(",", ":"))
    summary = result.summary()
    assert "areas" not in summary and all("p_burning_by_round" not in v
                                          for v in summary["rooms"].values())


def test_counts_do_not_grow_with_areas_times_rounds(tavern):
    """A run's record and the totals hold what happened (fires started and stopped), not a
    slot for every area in every round."""
    from fuego.forecast.counts import Counts
    from fuego.forecast.play import play_run

    b = tavern.build(0).building
    shape = (40, len(b.areas), list(b.rooms), [h.name for h in tavern.build(0).heroes])
    counts = Counts(*shape)
    run = play_run(tavern, 3, counts)
    counts.add_run(run)
    burned = len(run.area_first)
    assert len(run.spans) <= 2 * burned + len(b.areas)
    cells = sum(len(d) for d in counts.area_first) + sum(len(d) for d in counts.area_burning)
    assert cells <= 3 * burned < len(b.areas) * 41


def test_the_heat_map_defaults_to_the_half_fuel_round(tavern):
    from fuego.render.forecast_plot import plot_forecast

    result = forecast(tavern, runs=8, rounds=20, seed=4)
    half = result.half_fuel_round()
    fuel = sum(result.area_fuel)
    caught = sum(f * p for f, p in zip(result.area_fuel, result.p_burning_by(half)))
    before = sum(f * p for f, p in zip(result.area_fuel, result.p_burning_by(half - 1)))
    assert caught >= fuel / 2 - 1e-6 and before < fuel / 2
    fig, = plot_forecast(result)
    texts = " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
    assert f"burned by round {half} (half the fuel alight on average)" in texts
    # every curve panel has data; no heroes' label is cut
    heroes_ax = [ax for ax in fig.axes if ax.get_title().startswith("Heroes")][0]
    assert len([ln for ln in heroes_ax.lines if ln.get_gid()]) == 4
    key, = [leg for leg in fig.legends if leg.get_gid() == "key-panel-heroes"]
    labels = [t.get_text() for t in key.get_texts()]
    assert "Isabela Soldano (flee)" in labels


def test_ctrl_c_during_a_forecast_in_one_process_keeps_the_runs_finished(tavern):
    calls = []

    def progress(done, total):
        calls.append(done)
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(ForecastInterrupted) as stop:
        forecast(tavern, runs=50, rounds=4, seed=1, progress=progress)
    result = stop.value.result
    assert result.runs == 3 and result.asked == 50
    assert result.to_dict()["interrupted"] == {"runs_asked": 50, "runs_finished": 3}


def _session_members(sid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":  # field 6 of stat: the session
            out.append(int(entry))
    return out


def _workers_gone(sid: int, seconds: float = 30) -> bool:
    """Whether every process of session ``sid`` has ended, waiting up to ``seconds`` (the
    last worker may still be exiting when the parent has; a loaded machine takes longer)."""
    deadline = time.monotonic() + seconds
    while _session_members(sid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not _session_members(sid)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_a_two_job_forecast_and_every_worker(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from fuego.cli import main; "
            "sys.argv = ['fuego'] + sys.argv[1:]; main()")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "forecast", str(TAVERN), "--runs", "100000", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
        cwd=tmp_path)
    try:
        # wait until both workers are playing (three processes in the session)
        deadline = time.monotonic() + 60
        while len(_session_members(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(_session_members(proc.pid)) >= 3, "the workers never started"
        time.sleep(1.0)  # some runs finish
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        # (a hang guard, not a speed claim: how fast it stops is bench/'s to measure)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err.decode()
    text = out.decode()
    assert "Interrupted (Ctrl-C):" in text and "of 100000 runs finished" in text
    assert "Traceback" not in err.decode()
    assert _workers_gone(proc.pid)  # no worker left running


def _forecast_in_a_session(tmp_path, runs: int, path: Path = TAVERN,
                           *more: str) -> subprocess.Popen:
    """``fuego forecast PATH --runs RUNS --jobs 2`` in a session of its own (its workers
    are the session's other processes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from fuego.cli import main; "
            "sys.argv = ['fuego'] + sys.argv[1:]; main()")
    return subprocess.Popen(
        [sys.executable, "-c", code, "forecast", str(path), "--runs", str(runs), "--jobs", "2",
         *more],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
        cwd=tmp_path)


def _stopped_by_a_dead_worker(proc: subprocess.Popen) -> None:
    """The forecast ends (a hang guard, not a speed claim) with the error of a dead worker,
    and no worker is left."""
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        with contextlib.suppress(OSError):  # (a worker stopped by the test goes on to die)
            os.killpg(proc.pid, signal.SIGCONT)
    assert proc.returncode == 2, err.decode()
    assert "a worker process stopped unexpectedly" in err.decode()
    assert "Traceback" not in err.decode()
    assert _workers_gone(proc.pid)


def _workers(proc: subprocess.Popen) -> list[int]:
    return [p for p in _session_members(proc.pid) if p != proc.pid]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_worker_is_an_error_not_a_hang(tmp_path):
    """Killed while it plays, a worker loses its unit for good: the forecast says so."""
    proc = _forecast_in_a_session(tmp_path, 100000)
    try:
        # a worker that has played for half a second of its own CPU time
        deadline = time.monotonic() + 60
        while not (playing := [p for p in _workers(proc) if _cpu_ticks(p) >= 50]):
            assert time.monotonic() < deadline, "no worker played"
            time.sleep(0.1)
        os.kill(playing[0], signal.SIGKILL)  # as the out-of-memory killer would
    finally:
        _stopped_by_a_dead_worker(proc)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_as_it_appears_is_an_error_not_a_hang(tmp_path):
    """Killed before it plays, a worker may die holding the lock of the queue the units come
    in by (multiprocessing's Pool then waited for it forever as it stopped: 3 in 12 such
    kills with the CPUs busy); the executor ends the others, and the forecast says so."""
    proc = _forecast_in_a_session(tmp_path, 100000)
    try:
        deadline = time.monotonic() + 60
        while not (workers := _workers(proc)):
            assert time.monotonic() < deadline and proc.poll() is None, "no worker started"
            time.sleep(0.002)
        os.kill(workers[0], signal.SIGKILL)
    finally:
        _stopped_by_a_dead_worker(proc)


def _idle(pid: int, seconds: float = 1.0) -> bool:
    """Whether ``pid`` used no CPU time for ``seconds`` (a worker waiting for a unit)."""
    before = _cpu_ticks(pid)
    time.sleep(seconds)
    return _cpu_ticks(pid) == before


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_while_it_waits_near_the_end_is_an_error_not_a_hang(tmp_path):
    """One worker is stopped (SIGSTOP) holding a unit, so the forecast cannot end; the other
    plays the rest and then waits for a unit that never comes, holding the units' queue's
    lock: killed there, it is the error of a dead worker, not a hang."""
    proc = _forecast_in_a_session(tmp_path, 64)  # (16 units of 4 runs)
    try:
        deadline = time.monotonic() + 60
        while not (playing := [p for p in _workers(proc) if _cpu_ticks(p) >= 5]):
            assert time.monotonic() < deadline and proc.poll() is None, "no worker played"
            time.sleep(0.01)
        held = playing[0]
        os.kill(held, signal.SIGSTOP)
        # (the other: stopped, the held one may hold the queue's lock; it waits all the same)
        other = [p for p in _workers(proc) if p != held]
        assert other, "one worker only"
        while not _idle(other[0]):
            assert time.monotonic() < deadline and proc.poll() is None, "the other never waited"
        os.kill(other[0], signal.SIGKILL)
    finally:
        _stopped_by_a_dead_worker(proc)


def _wide_field(tmp_path: Path, side: int = 140) -> Path:
    """A scenario of ``side`` x ``side`` areas (a little fuel, one fire, one hero): a unit's
    counts of it pickle to some 80 kB, more than a pipe holds (64 kB on Linux)."""
    plan = "\n".join("      " + "f" * side for _ in range(side))
    path = tmp_path / "field.yaml"
    path.write_text(f"""format: 1
title: A wide field
rooms:
  field: {{name: Field, fuel: none}}
legend:
  f: field
levels:
  - name: ground
    elevation: 0
    plan: |
{plan}
areas:
  ground:A1: {{fuel: 4}}
  ground:B1: {{fuel: 4}}
heroes:
  - name: Ana
    traits: {{brawn: 2, finesse: 2, wits: 2, resolve: 2, panache: 2}}
    start: ground:C3
fires:
  - {{area: ground:A1, fd: 2}}
""", encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_as_it_sends_a_big_result_is_an_error_not_a_hang(tmp_path):
    """With the forecast's process stopped, a worker that finished a unit of a big map used to
    block writing its counts to the executor's pipe, half of them in it; killed there, the
    executor's thread waited for the other half for ever (a hang, before the fix). The counts
    now come back by a file and only the unit by the pipe: the workers are found waiting for
    units, and their death is the error of a dead worker."""
    proc = _forecast_in_a_session(tmp_path, 64, _wide_field(tmp_path), "--rounds", "5")
    try:
        deadline = time.monotonic() + 120
        while len(playing := [p for p in _workers(proc) if _cpu_ticks(p) >= 5]) < 2:
            assert time.monotonic() < deadline and proc.poll() is None, "no two workers played"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGSTOP)  # nothing reads the pipe, nothing feeds the units
        try:
            # (one stops sending, or waiting for units; the other waiting for the pipe's lock,
            # or for units): both killed, the one half-way through sending among them
            while not all(_idle(p) for p in playing):
                assert time.monotonic() < deadline, "the workers never came to a stop"
            for pid in playing:
                os.kill(pid, signal.SIGKILL)
        finally:
            os.kill(proc.pid, signal.SIGCONT)
    finally:
        _stopped_by_a_dead_worker(proc)


def test_the_counts_folder_of_a_forecast_killed_outright_goes_with_the_next_forecast():
    """A forecast killed with kill -9 leaves its folder of counts behind; the next forecast on
    worker processes removes it, and leaves alone the folder of one still running."""
    import tempfile

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = Path(tempfile.gettempdir()) / f"fuego-forecast-{gone.stdout.strip()}-left"
    alive = Path(tempfile.gettempdir()) / f"fuego-forecast-{os.getppid()}-running"
    for folder in (dead, alive):
        folder.mkdir(exist_ok=True)
        (folder / "0-0.counts.part").write_bytes(b"half")
    try:
        result = forecast(load(str(TAVERN)), runs=4, rounds=2, jobs=2)
        assert result.runs == 4
        assert not dead.exists()
        assert alive.exists()
    finally:
        import shutil

        for folder in (dead, alive):
            shutil.rmtree(folder, ignore_errors=True)


def _cpu_ticks(pid: int) -> int:
    """The process's CPU time so far, in clock ticks (user + system; 0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # (stat's utime and stime, fields 14 and 15)


class _ExitsWhenUnpickled:
    """A variant whose unpickling ends the worker process at once (no test module needed
    in it, so fork and spawn alike)."""

    def __reduce__(self):
        return (os._exit, (1,))


def test_a_worker_that_dies_before_it_plays_is_an_error_not_a_replacement():
    """A worker that dies as it starts (here, unpickling the variants) is an error: the
    executor starts none in its place, and every unit fails (multiprocessing's Pool started
    another, unseen, and played on)."""
    from fuego.forecast.pool import ProcessPool
    from fuego.forecast.units import Unit

    with pytest.raises(FuegoError, match="a worker process stopped unexpectedly"):
        ProcessPool(2).run([_ExitsWhenUnpickled()],  # type: ignore[list-item]  # (never played)
                           [Unit(0, 1, 0, 1), Unit(0, 1, 1, 2)], [])


SHIP = ROOT / "campaigns" / "ship.yaml"
VILLAGE = ROOT / "campaigns" / "village.yaml"


@pytest.mark.parametrize("path, plan", [(SHIP, "rescue:Pip"), (VILLAGE, "rescue:Anselm")])
def test_a_script_arrival_can_be_rescued(path, plan):
    """Pip (the ship) and Old Anselm (the village) arrive by a script cue: a plan may name
    them; until they arrive, their rescuers wait where they are instead of leaving."""
    runner = CliRunner()
    args = ["forecast", str(path), "--runs", "2", "--rounds", "1", "--json"]
    flee = json.loads(runner.invoke(cli, args, catch_exceptions=False).stdout)
    r = runner.invoke(cli, args + ["--plan", plan], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    rescue = json.loads(r.stdout)
    for hero in rescue["heroes"].values():
        if hero["plan"].startswith("rescue"):
            assert hero["p_escaped"] == 0.0
            assert (hero["p_still_inside"] + hero["p_outside"] + hero["p_knocked_out"]
                    + hero["p_killed"]) == 1.0
    if path == SHIP:  # fleeing, Elena is off the ship in round 1; waiting for Pip, she stays
        assert flee["heroes"]["Elena Ruiz"]["p_escaped"] == 1.0
    if path == VILLAGE:  # Rafael waits in the lane, in the open: not "still inside"
        rafael = rescue["heroes"]["Rafael Ortiz"]
        assert rafael["p_outside"] == 1.0 and rafael["p_still_inside"] == 0.0
    # the arrival has a row of its own: not there yet after round 1
    late = rescue["heroes"]["Pip" if path == SHIP else "Old Anselm"]
    assert late["arrives_later"] and late["p_not_arrived"] == 1.0


def test_plans_know_the_scripts_arrivals():
    scene = load(str(SHIP)).build(0)
    assert scene.script is not None and scene.script.arrivals == ["Pip"]
    plans = parse_plans(["rescue:Pip"], scene.heroes, scene.script.arrivals)
    assert str(plans.for_hero(scene.heroes[0])) == "rescue:Pip"
    assert plans.awaited == frozenset({"pip"})
    with pytest.raises(FuegoError, match="no hero or NPC 'Pip'"):
        parse_plans(["rescue:Pip"], scene.heroes)


def _ship_with(plan_line: str) -> str:
    text = SHIP.read_text(encoding="utf-8")
    return text.replace("    start: gundeck:I2\n", f"    start: gundeck:I2\n    {plan_line}\n", 1)


def test_a_scenarios_own_plan_may_rescue_a_script_arrival():
    from fuego.scenario.model import loads

    scenario = loads(_ship_with("plan: rescue:Pip"))
    assert scenario.arrivals == ["Pip"]
    plans = scenario.plans
    assert plans is not None and plans.awaited == frozenset({"pip"})
    elena = scenario.build(0).heroes[0]
    assert str(plans.for_hero(elena)) == "rescue:Pip"
    # a name neither in the cast nor brought in by the script is still an error, on its line
    with pytest.raises(FuegoError, match="no hero or NPC 'Pippa'"):
        loads(_ship_with("plan: rescue:Pippa"))


def test_a_named_plan_on_the_command_line_keeps_the_scenarios_other_plans(tmp_path):
    path = tmp_path / "ship.yaml"
    path.write_text(_ship_with("plan: rescue:Pip"), encoding="utf-8")
    runner = CliRunner()
    args = ["forecast", str(path), "--runs", "2", "--rounds", "1", "--json"]
    own = json.loads(runner.invoke(cli, args, catch_exceptions=False).stdout)["heroes"]
    assert own["Elena Ruiz"]["plan"] == "rescue:Pip" and own["Yusuf al-Tariq"]["plan"] == "fight"
    r = runner.invoke(cli, args + ["--plan", "Aldo=hold"], catch_exceptions=False)
    named = json.loads(r.stdout)["heroes"]
    assert (named["Elena Ruiz"]["plan"], named["Aldo Brandt"]["plan"],
            named["Yusuf al-Tariq"]["plan"]) == ("rescue:Pip", "hold", "fight")
    r = runner.invoke(cli, args + ["--plan", "flee"], catch_exceptions=False)
    every = json.loads(r.stdout)["heroes"]  # a plan for every player hero replaces theirs
    assert {every[n]["plan"] for n in ("Elena Ruiz", "Aldo Brandt", "Yusuf al-Tariq")} == {"flee"}


def test_a_fighter_does_not_stand_by_a_blaze_no_one_may_smother():
    """With flame-and-blaze a Blaze cannot be smothered (ASL 25.7): a fighter beside one and
    no Flame goes (it waited there for the whole scene)."""
    from fuego.engine.hero_actions import HeroActionKind, options
    from fuego.engine.plans import HeroPlans, PlanController
    from fuego.scenario.model import loads

    text = """\
title: The Blaze
rooms:
  shop: {fuel: 5}
  street: {outdoors: true, features: [exit]}
legend: {s: shop, o: street}
levels:
  - {name: ground, elevation: 0, plan: "ssss\\nssss\\noooo"}
doors:
  - {between: [shop, street], closed: false}
heroes:
  - {name: Marguerite, start: ground:B1, plan: fight}
fires:
  - {area: ground:A1, fd: 2}
rules: {modules: {flame-and-blaze: {}}}
"""
    scene = loads(text).build(1)
    hero = scene.heroes[0]
    legal = options(scene, hero)
    assert not any(a.kind is HeroActionKind.SMOTHER for a in legal)
    act = PlanController(HeroPlans(default=Plan(PlanKind.FIGHT))).choose(scene, hero, legal)
    assert act is not None and act.kind is HeroActionKind.MOVE


def test_a_name_is_one_name_whatever_its_spaces_and_case_for_plans_and_the_scene():
    """A hero written "Isabela  Soldano" (two spaces) is the Isabela Soldano a plan names and
    the GM types: names are compared folded everywhere (fuego.text.fold_name)."""
    from fuego.scenario.model import loads

    text = TAVERN.read_text(encoding="utf-8").replace("name: Isabela Soldano",
                                                      "name: Isabela  Soldano")
    scene = loads(text, source="t.yaml").build(5)
    isabela = scene.hero("isabela soldano")
    assert isabela.name == "Isabela  Soldano"  # (printed as written)
    plans = parse_plans(["isabela soldano=hold"], scene.heroes)
    assert plans.for_hero(isabela).kind is PlanKind.HOLD


@pytest.mark.parametrize("closed, goes", [(True, "ground:B2"), (False, "ground:C1")])
def test_a_fighter_goes_for_the_fire_they_see_not_one_behind_a_shut_door(closed, goes):
    """A fighter knows of the fires their way out knows of (``AutoController.known``): the
    fire behind the shut store door is out of sight, so they make for the street (B2); with
    the door open they see it and walk to it (C1)."""
    from fuego.engine.hero_actions import options
    from fuego.engine.plans import HeroPlans, PlanController
    from fuego.scenario.model import loads

    text = f"""\
title: The Back Room
rooms:
  hall: {{fuel: 5}}
  store: {{fuel: 5}}
  street: {{outdoors: true, features: [exit]}}
legend: {{h: hall, s: store, o: street}}
levels:
  - {{name: ground, elevation: 0, plan: "hhhss\\nhhhss\\nooooo"}}
doors:
  - {{between: [hall, store], closed: {str(closed).lower()}}}
  - {{between: [hall, street], closed: false}}
heroes:
  - {{name: Marguerite, start: ground:B1, plan: fight}}
fires:
  - {{area: ground:E1, fd: 2}}
"""
    scene = loads(text).build(1)
    hero = scene.heroes[0]
    act = PlanController(HeroPlans(default=Plan(PlanKind.FIGHT))).choose(
        scene, hero, options(scene, hero))
    assert act is not None and act.text(scene) == f"move {goes}"
