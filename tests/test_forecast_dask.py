"""Forecasts on a Dask cluster (issue 31): the same numbers as the process pool, and Ctrl-C
that leaves no task running.

The clusters are real: a ``distributed.LocalCluster`` of two single-threaded worker processes,
torn down after (``--dask local:2`` starts and closes its own; the interrupt test shares one).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_forecast_interrupts import HANG, assert_stopped, ctrl_c_in_a_gc_callback
from test_forecast_plans import _session_members

from fuego.cli import cli
from fuego.errors import FuegoError
from fuego.forecast.cluster import DaskCluster, fuego_build, parse_address
from fuego.forecast.result import ForecastInterrupted
from fuego.forecast.runner import forecast
from fuego.forecast.sweep import parse_vary, sweep
from fuego.scenario.model import load

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


def test_the_dask_address_is_a_scheduler_or_local():
    assert parse_address("local") == (None, None)
    assert parse_address("local:3") == (None, 3)
    assert parse_address("tcp://10.0.0.5:8786") == ("tcp://10.0.0.5:8786", None)
    for bad in ("local:0", "local:x", "nowhere"):
        with pytest.raises(FuegoError):
            parse_address(bad)


def test_without_dask_installed_the_error_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(FuegoError) as err:
        forecast(load(TAVERN), runs=4, rounds=2, executor=DaskCluster("local:1"))
    assert "fuego[dask]" in (err.value.tip or "")


def test_jobs_and_dask_together_are_a_usage_error():
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--jobs", "2",
                                 "--dask", "local"])
    assert r.exit_code == 2 and "--jobs" in r.output


@pytest.mark.slow
def test_jobs_1_jobs_2_and_a_local_dask_cluster_give_the_same_numbers():
    pytest.importorskip("distributed")
    runner = CliRunner()
    docs = {}
    for how in (["--jobs", "1"], ["--jobs", "2"], ["--dask", "local:2"]):
        r = runner.invoke(cli, ["forecast", str(TAVERN), "--runs", "12", "--rounds", "6",
                                "--seed", "4", "--json", *how], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        docs[how[-1]] = r.stdout
    assert docs["1"] == docs["2"] == docs["local:2"]  # byte for byte
    assert json.loads(docs["local:2"])["runs"] == 12


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as c, \
            distributed.Client(c) as client:
        yield c, client


def _ctrl_c_once_runs_are_back(done: int, total: int) -> None:
    """A forecast's progress that stops it as a Ctrl-C does, without a signal (one to pytest's
    own process crashed an xdist worker in .ci/run): the KeyboardInterrupt a Ctrl-C raises
    in the executor's loop (the handler's part is tested in test_forecast_interrupts.py)."""
    if done:
        raise KeyboardInterrupt


@pytest.mark.slow
def test_ctrl_c_during_a_dask_forecast_leaves_no_task_running(cluster):
    c, client = cluster
    tavern = load(TAVERN)
    with pytest.raises(ForecastInterrupted) as stop:
        forecast(tavern, runs=2000, rounds=10, seed=2, chunk=4,
                 progress=_ctrl_c_once_runs_are_back,
                 executor=DaskCluster(c.scheduler_address))
    result = stop.value.result
    assert 0 < result.runs < 2000 and result.asked == 2000
    # nothing of it runs or waits on the cluster, once what the scheduler still sent as it
    # stopped came back, and the runs kept are whole runs: the same counts as those runs
    # played here (a lambda: the workers cannot import this test file, cloudpickle sends it)
    _settled(client)
    executing = client.run(lambda dask_worker: len(dask_worker.state.executing)
                           + len(dask_worker.state.ready))
    assert sum(executing.values()) == 0
    assert not any(client.processing().values())
    assert result.counts.runs == result.runs
    # the cluster is fine for the next forecast, whose numbers are those of one process
    again = forecast(tavern, runs=6, rounds=4, seed=2, executor=DaskCluster(c.scheduler_address))
    assert again.to_dict() == forecast(tavern, runs=6, rounds=4, seed=2).to_dict()
    # and a sweep's: its variants' units share the cluster, their numbers those of one process
    variants = [parse_vary("plan=hold")]
    on_dask = sweep(tavern, variants, runs=4, rounds=4, seed=2,
                    executor=DaskCluster(c.scheduler_address))
    assert on_dask.to_dict() == sweep(tavern, variants, runs=4, rounds=4, seed=2).to_dict()


def _forecast_tasks(dask_scheduler: Any) -> int:
    """The forecasts' tasks the scheduler holds (``Client.run_on_scheduler`` passes it)."""
    return sum(1 for key in list(dask_scheduler.tasks) if str(key).startswith("fuego-forecast-"))


def _fails_once_runs_are_back(done: int, total: int) -> None:
    """A forecast's progress that fails (a bug in whatever reads the forecast)."""
    if done:
        raise RuntimeError("the progress bar broke")


def _settled(client: Any) -> None:
    """Wait until every task of the forecasts that ran has returned: once the scheduler has
    dropped them, a task on each worker: the scheduler's messages to a worker come in order
    and each worker has one thread, so it runs once every task of the forecast sent there has
    returned (HANG: hang guards, not timing asserts)."""
    import distributed

    end = time.monotonic() + HANG
    while client.run_on_scheduler(_forecast_tasks):
        assert time.monotonic() < end, "the scheduler kept the forecast's tasks"
        time.sleep(0.05)
    workers = list(client.scheduler_info()["workers"])
    marks = [client.submit(time.sleep, 0, workers=[w], allow_other_workers=False, pure=False)
             for w in workers]
    distributed.wait(marks, timeout=HANG)


@pytest.mark.slow
@pytest.mark.parametrize("progress, raised", [(_ctrl_c_once_runs_are_back, ForecastInterrupted),
                                              (_fails_once_runs_are_back, RuntimeError)],
                         ids=["ctrl-c", "an-error"])
def test_a_stopped_dask_forecast_plays_no_run_after_it_returns(cluster, progress, raised):
    """The race: the cancel was still on its way to the scheduler, or a task on its way to a
    worker, when the forecast last looked at the workers, and tasks of it started after it
    returned, playing all their runs (it had cleared its stop event). Many tasks, so that the
    scheduler is sending some at the cancel. Any error stops them too (only a Ctrl-C or a
    FuegoError did: after another, the whole forecast played on on the workers)."""

    c, client = cluster

    def count_runs(dask_worker: Any) -> None:
        # each worker counts the runs it plays, until the patch is undone (closures:
        # cloudpickle sends them whole, as the workers cannot import this file)
        import fuego.forecast.units as units
        from fuego.forecast.play import play_run

        runs = dask_worker.fuego_runs = [0]

        def counted(*args: Any, **kw: Any) -> Any:
            runs[0] += 1
            return play_run(*args, **kw)

        dask_worker.fuego_patch = pytest.MonkeyPatch()
        dask_worker.fuego_patch.setattr(units, "play_run", counted)

    def runs_played(dask_worker: Any) -> int:
        return dask_worker.fuego_runs[0]

    client.run(count_runs)
    try:
        with pytest.raises(raised):
            forecast(load(TAVERN), runs=100000, rounds=10, seed=3, progress=progress,
                     executor=DaskCluster(c.scheduler_address))
        played = client.run(runs_played)
        _settled(client)
        assert client.run(runs_played) == played  # no task of it played on
        executing = client.run(lambda dask_worker: len(dask_worker.state.executing)
                               + len(dask_worker.state.ready))
        assert sum(executing.values()) == 0  # none runs or waits to
    finally:
        client.run(lambda dask_worker: dask_worker.fuego_patch.undo())


@pytest.mark.slow
def test_a_ctrl_c_while_a_gc_callback_runs_still_stops_the_dask_forecast(cluster):
    """The CI failure: the Ctrl-C came while distributed's garbage-collector callback ran,
    Python dropped the KeyboardInterrupt, and the forecast played on."""
    c, client = cluster
    proc, out, err = ctrl_c_in_a_gc_callback("--dask", c.scheduler_address)
    assert_stopped(proc, out, err)
    # the scheduler holds none of its tasks (the workers' states lag the scheduler's: a task
    # sent to one just before the cancel can start there after the forecast looked)
    assert not any(client.processing().values())


def _spares_sigint(pid: int) -> bool:
    """Whether process ``pid`` blocks or ignores SIGINT (or has ended), from /proc."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
    except OSError:
        return True
    bit = 1 << (signal.SIGINT - 1)
    return bool((int(fields["SigBlk"], 16) | int(fields["SigIgn"], 16)) & bit)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_a_local_dask_forecast_and_its_cluster(tmp_path):
    pytest.importorskip("distributed")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from fuego.cli import main; "
            "sys.argv = ['fuego'] + sys.argv[1:]; main()")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "forecast", str(TAVERN), "--runs", "100000",
         "--dask", "local:2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
        cwd=tmp_path)
    try:
        # the forecast and the cluster's two worker processes (its nannies live in the
        # forecast's process)
        deadline = time.monotonic() + 120
        while len(_session_members(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_session_members(proc.pid)) >= 3, "the cluster never started"
        # its workers never get the terminal's Ctrl-C: the forecast stops them in order
        workers = [pid for pid in _session_members(proc.pid) if pid != proc.pid]
        assert all(_spares_sigint(pid) for pid in workers), workers
        time.sleep(5.0)  # the workers start and some runs finish
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err.decode()
    assert "Interrupted (Ctrl-C):" in out.decode(), err.decode()
    assert "Traceback" not in err.decode()
    deadline = time.monotonic() + 10
    while _session_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _session_members(proc.pid) == []  # no worker, nanny or task left behind


def test_fuego_build_tells_code_apart_by_its_files(tmp_path):
    """A worker's fuego is its version and a digest of its modules' source: two copies of one
    tree agree, a byte changed in a module does not, and compiled files count for nothing."""
    import shutil

    package = ROOT / "fuego"
    a, b = tmp_path / "a", tmp_path / "b"
    for copy in (a, b):
        shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert fuego_build(a) == fuego_build(b) == fuego_build(package)
    (b / "__pycache__").mkdir(exist_ok=True)
    (b / "__pycache__" / "stale.cpython-311.pyc").write_bytes(b"\0")
    assert fuego_build(b) == fuego_build(a)
    charts = b / "rules" / "charts.py"
    charts.write_text(charts.read_text(encoding="utf-8") + "\n# a house rule\n",
                      encoding="utf-8")
    assert fuego_build(b)[0] == fuego_build(a)[0] and fuego_build(b)[1] != fuego_build(a)[1]


def _pretend(build: tuple[str, str] | None) -> Any:
    """A function for ``client.run``: the worker's fuego_build answers ``build`` (None: its
    own again), as a worker with other files or another version would."""
    def pretend() -> None:
        import fuego.forecast.cluster as module

        own = module.__dict__.setdefault("_own_build", module.fuego_build)
        module.fuego_build = own if build is None else (lambda package=None: build)

    return pretend


@pytest.mark.slow
@pytest.mark.parametrize("theirs, says", [("other code", "runs other code than this forecast"),
                                          ("other version", "has fuego 0.0.1, this is")])
def test_a_dask_worker_with_other_code_or_version_is_refused(cluster, theirs, says):
    c, client = cluster
    version, code = fuego_build()
    client.run(_pretend((version, "0" * 16) if theirs == "other code" else ("0.0.1", code)))
    try:
        with pytest.raises(FuegoError) as err:
            forecast(load(TAVERN), runs=4, rounds=2, executor=DaskCluster(c.scheduler_address))
        assert says in str(err.value) and "every worker" in (err.value.tip or "")
    finally:
        client.run(_pretend(None))
    # its own build again: the cluster plays, as one process does
    again = forecast(load(TAVERN), runs=4, rounds=2, executor=DaskCluster(c.scheduler_address))
    assert again.to_dict() == forecast(load(TAVERN), runs=4, rounds=2).to_dict()


# -- what goes wrong under a forecast on a cluster: one line, never a hang nor a Ctrl-C ---------
@pytest.mark.parametrize("address", ["foo://10.0.0.5:8786", "tcp://127.0.0.1:port",
                                     "tls://127.0.0.1:1"])
def test_an_address_dask_cannot_use_is_one_line(address):
    """An unknown scheme, a port that is no number, tls:// without Dask's TLS settings: a
    ValueError or TypeError traceback from inside Dask."""
    pytest.importorskip("distributed")
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--dask", address])
    assert r.exit_code == 2, r.output
    [line] = r.output.strip().splitlines()
    assert line.startswith(f"fuego: error: --dask {address!r}: Dask cannot use this address ("), line
    assert "(tip: give the scheduler's address as `dask scheduler` prints it" in line


@pytest.mark.slow
def test_a_scheduler_with_no_worker_is_one_line(monkeypatch):
    """It was a WorkerStartTimeoutError traceback, after a minute."""
    distributed = pytest.importorskip("distributed")
    import logging

    import fuego.forecast.cluster as cluster

    monkeypatch.setattr(cluster, "WORKERS_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=0, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as c:
        r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--dask",
                                     c.scheduler_address])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        f"fuego: error: the scheduler at {c.scheduler_address} has no worker (none came within "
        "1 seconds) (tip: start them on the machines that will play: dask worker ADDRESS "
        "--nthreads 1 (docs/maps-and-forecasts.md, Scaling out))"]


def _kill_a_worker_once_runs_are_back(pid: int) -> Any:
    """A forecast's progress that kills the worker process ``pid`` (SIGKILL: the
    out-of-memory killer) once some runs are back, once."""
    killed: list[int] = []

    def progress(done: int, total: int) -> None:
        if done and not killed:
            killed.append(pid)
            os.kill(pid, signal.SIGKILL)

    return progress


def _worker_pids(client: Any) -> list[int]:
    return sorted(client.run(os.getpid).values())


@pytest.mark.slow
def test_the_last_worker_killed_and_started_again_plays_on_and_the_numbers_hold():
    """The lone worker, which held the scenario, killed (out of memory, say): its nanny starts
    another, and the scheduler makes the scenario again there from its task. When it was
    scattered data, Dask cancelled every task with it and the forecast failed."""
    distributed = pytest.importorskip("distributed")
    import logging

    tavern = load(TAVERN)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as c, \
            distributed.Client(c) as client:
        [pid] = _worker_pids(client)
        on_dask = forecast(tavern, runs=60, rounds=6, seed=2, chunk=4,
                           progress=_kill_a_worker_once_runs_are_back(pid),
                           executor=DaskCluster(c.scheduler_address))
        assert _worker_pids(client) != [pid]  # (it did die, and another played on)
    assert on_dask.to_dict() == forecast(tavern, runs=60, rounds=6, seed=2).to_dict()


@pytest.mark.slow
def test_one_worker_killed_of_two_the_other_plays_its_runs_and_the_numbers_hold():
    """Dask plays a dead worker's tasks again on the others (the scenario is on each): the
    same numbers as one process, every run counted once."""
    distributed = pytest.importorskip("distributed")
    import logging

    tavern = load(TAVERN)
    # (the test's client stays open beside the forecast's: the forecast's futures are followed
    # on its own client's loop, not on the process's default client's)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as c, \
            distributed.Client(c) as client:
        pid = _worker_pids(client)[0]
        on_dask = forecast(tavern, runs=120, rounds=6, seed=5, chunk=4,
                           progress=_kill_a_worker_once_runs_are_back(pid),
                           executor=DaskCluster(c.scheduler_address))
    assert on_dask.to_dict() == forecast(tavern, runs=120, rounds=6, seed=5).to_dict()


@contextlib.contextmanager
def _real_cluster(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen, subprocess.Popen]]:
    """A `dask scheduler` process and one `dask worker --no-nanny` (none starts it again):
    their address and processes, both killed after."""
    file = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--port", "0", "--dashboard-address", ":0",
                                  "--scheduler-file", str(file)], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        end = time.monotonic() + HANG
        while not file.exists() or not file.read_text():
            assert time.monotonic() < end, "the scheduler never started"
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                   address, "--nthreads", "1", "--no-nanny"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        yield address, scheduler, worker
    finally:
        for proc in (scheduler, worker):
            if proc is not None and proc.poll() is None:
                proc.kill()
            if proc is not None:
                proc.wait(HANG)


@pytest.mark.slow
def test_a_lost_scheduler_is_one_line_not_a_ctrl_c(tmp_path, monkeypatch):
    """The scheduler killed (its machine gone) while the forecast runs: the client gives up
    reconnecting and cancels every task. It said "Interrupted (Ctrl-C)", status 130, under
    Dask's own ERROR log line."""
    pytest.importorskip("distributed")
    import fuego.forecast.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_WAIT", 2.0)  # (the client's wait to reconnect)
    with _real_cluster(tmp_path) as (address, scheduler, _worker), \
            pytest.raises(FuegoError) as err:
        forecast(load(TAVERN), runs=2000, rounds=10, seed=2, chunk=4,
                 progress=_kill_a_worker_once_runs_are_back(scheduler.pid),
                 executor=DaskCluster(address))
    assert err.value.message == (f"lost the scheduler at {address}: the connection to it "
                                 "broke and did not come back within 2 seconds")
    assert "check that the scheduler still runs" in (err.value.tip or "")


@pytest.mark.slow
def test_every_worker_gone_for_good_is_one_line_not_a_hang(tmp_path, monkeypatch):
    """The one worker, without a nanny, killed with runs still to play: the scheduler holds
    the tasks for a worker that never comes, and the forecast waited for ever."""
    pytest.importorskip("distributed")
    import fuego.forecast.cluster as cluster

    monkeypatch.setattr(cluster, "WORKERS_WAIT", 2.0)
    monkeypatch.setattr(cluster, "WORKERS_ASK", 0.5)
    with _real_cluster(tmp_path) as (address, _scheduler, worker), \
            pytest.raises(FuegoError) as err:
        forecast(load(TAVERN), runs=2000, rounds=10, seed=2, chunk=4,
                 progress=_kill_a_worker_once_runs_are_back(worker.pid),
                 executor=DaskCluster(address))
    assert err.value.message == (f"the scheduler at {address} lost every worker: none "
                                 "for 2 seconds, with runs still to play")
    assert "start workers again" in (err.value.tip or "")


@pytest.mark.slow
def test_a_local_cluster_on_a_full_disk_is_one_line(tmp_path):
    """Its scratch space could not be made: "RuntimeError: Cluster failed to start: [Errno
    28] No space left on device", a traceback (a tmpfs out of inodes: its probe passes, the
    scheduler's folder does not)."""
    pytest.importorskip("distributed")
    from helpers import small_tmpfs

    with small_tmpfs(tmp_path / "disk", "64k,nr_inodes=3") as disk:
        (disk / "filler").write_bytes(b"")
        r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds", "2",
                                     "--dask", "local:1"], env={"TMPDIR": str(disk)})
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        f"fuego: error: {disk}: cannot write the local Dask cluster's working files: No space "
        "left on device (tip: free some space there, set TMPDIR to a folder with room, or use "
        "--jobs)"]


@pytest.mark.slow
def test_a_full_disk_under_dask_s_own_scratch_setting_names_that_setting(tmp_path):
    """Dask's temporary-directory setting wins over TMPDIR, so its full disk's tip names the
    setting (it said to set TMPDIR, which would move nothing)."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    from helpers import small_tmpfs

    with small_tmpfs(tmp_path / "disk", "64k,nr_inodes=3") as disk, \
            dask.config.set({"temporary-directory": str(disk)}):
        (disk / "filler").write_bytes(b"")
        r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds", "2",
                                     "--dask", "local:1"])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        f"fuego: error: {disk}: cannot write the local Dask cluster's working files: No space "
        "left on device (tip: free some space there, set Dask's temporary-directory setting "
        "(DASK_TEMPORARY_DIRECTORY) to a folder with room, or use --jobs)"]


@pytest.mark.slow
def test_a_local_worker_that_fails_to_start_is_one_line_at_once(tmp_path, monkeypatch):
    """Its nanny says it failed (here a start-up hook that raises; a full disk, say) and does
    not try again: the forecast waited out its 120 seconds before saying the workers did not
    start."""
    distributed = pytest.importorskip("distributed")
    import fuego.forecast.cluster as cluster

    (tmp_path / "fuego_test_failing_start.py").write_text(
        "def dask_setup(worker):\n    raise RuntimeError('cannot start here')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(ROOT)]))
    monkeypatch.setattr(cluster, "LOCAL_START_WAIT", 60.0)
    made = distributed.LocalCluster

    def failing(*args, **kwargs):
        kwargs["preload"] = [*kwargs.get("preload", []), "fuego_test_failing_start"]
        return made(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", failing)
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds", "2",
                                 "--dask", "local:1"])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        "fuego: error: 1 of the local Dask cluster's 1 worker failed to start (a full disk, "
        "too little memory, or a broken install) (tip: use --jobs)"]  # (not the wait's line)


def test_a_task_that_kills_its_workers_says_so():
    """Dask gives up on a task after it killed workers ``allowed-failures`` times
    (KilledWorker); the words say what that means, not Dask's repr. (In this process: a real
    one needs a task that kills every worker that takes it, restarted ones too.)"""
    distributed = pytest.importorskip("distributed")
    from fuego.forecast.cluster import task_error

    error = task_error(distributed.KilledWorker("fuego-forecast-x-0", None, 3))
    assert error.message == ("a Dask task's worker died playing it, on one worker after "
                             "another (out of memory, or killed)")
    assert "their memory" in (error.tip or "")
    assert task_error(ValueError("bad")).message == "a Dask task failed (ValueError: bad)"
