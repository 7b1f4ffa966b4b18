"""A forecast counts its own Ctrl-Cs (:mod:`fuego.forecast.interrupts`), so one that Python
drops still stops it: the handler's rules here, and a real forecast stopped by a Ctrl-C that
lands while a garbage collector's callback runs, in a child process (a SIGINT to pytest's own
process crashed an xdist worker in .ci/run).
"""

from __future__ import annotations

import gc
import os
import re
import select
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from test_forecast_plans import _workers_gone

from fuego.forecast.interrupts import counted_interrupts

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"
#: How long a child may take to start, or to stop once told (a hang guard, not a timing assert).
HANG = 60
#: The runs the child is asked for: far more than it plays before the Ctrl-C.
RUNS = 20000


def _ctrl_c_in_a_gc_callback(gc_callback_ran: list[str]):
    """A garbage collection whose callback gets a Ctrl-C, as Dask's (distributed's
    GCDiagnosis) did when the bug lost one: Python prints what the callback raises, and drops it."""
    def callback(phase, info):
        if phase == "start" and not gc_callback_ran:
            gc_callback_ran.append(phase)
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, while the callback runs

    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(callback)


def test_a_ctrl_c_python_drops_is_counted_raised_at_the_next_check_and_not_reported():
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    reported: list = []  # (what Python's hook would print as "Exception ignored in: ...")
    hook, sys.unraisablehook = sys.unraisablehook, reported.append
    try:
        with counted_interrupts() as interrupts:
            assert signal.getsignal(signal.SIGINT) == interrupts.handle
            interrupts.check()  # no Ctrl-C yet
            ran: list[str] = []
            _ctrl_c_in_a_gc_callback(ran)
            # the KeyboardInterrupt was raised in the callback and dropped there, unreported...
            assert ran == ["start"] and reported == []
            # ...but the Ctrl-C was counted, and the forecast's next tick raises it
            assert interrupts.count == 1
            with pytest.raises(KeyboardInterrupt):
                interrupts.check()
            # anything else a callback raises is reported as before
            def raises(phase, info):
                if phase == "start":
                    raise ValueError("a callback's own bug")

            gc.callbacks.append(raises)
            try:
                gc.collect()
            finally:
                gc.callbacks.remove(raises)
            assert [d.exc_type for d in reported] == [ValueError]
    finally:
        sys.unraisablehook = hook
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert sys.unraisablehook is hook


def test_while_deferred_a_ctrl_c_is_only_counted_and_the_handler_is_restored_after():
    with pytest.raises(RuntimeError), counted_interrupts() as interrupts:
        with interrupts.deferred():
            _ctrl_c_in_a_gc_callback([])  # nothing raised in the callback, nothing dropped
            os.kill(os.getpid(), signal.SIGINT)  # nor here
            assert interrupts.count == 2
            with pytest.raises(KeyboardInterrupt):
                interrupts.check()
        with pytest.raises(KeyboardInterrupt):  # not deferred: raised where it lands
            os.kill(os.getpid(), signal.SIGINT)
        assert interrupts.count == 3
        raise RuntimeError("the forecast failed")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # on errors too


def test_a_handler_set_by_someone_else_or_another_thread_is_left_alone():
    def theirs(signum, frame):
        pass

    before = signal.signal(signal.SIGINT, theirs)
    try:
        with counted_interrupts() as interrupts:
            assert signal.getsignal(signal.SIGINT) is theirs
            os.kill(os.getpid(), signal.SIGINT)
        assert interrupts.count == 0 and signal.getsignal(signal.SIGINT) is theirs
    finally:
        signal.signal(signal.SIGINT, before)
    seen: list = []

    def elsewhere():  # only the main thread may set one: a forecast in a thread sets none
        with counted_interrupts():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]


#: ``fuego ARGS``, whose forecast, once some runs are back, collects garbage with a callback
#: that waits in select() for the test's Ctrl-C and then a line on its input (Python drops what
#: a gc callback raises). A forecast that ticks on after it lost the Ctrl-C; exit 3 says so.
IN_A_GC_CALLBACK = textwrap.dedent("""
    import gc, os, select, sys
    import fuego.forecast.runner as runner
    from fuego.cli import main

    forecast, called, ticks = runner.forecast, [], []

    def callback(phase, info):
        if phase == "start" and not called:
            called.append(phase)
            print("in a gc callback", file=sys.stderr, flush=True)
            select.select([sys.stdin], [], [], 60)

    def ticking(progress):
        def tick(done, total):
            progress(done, total)
            if called:
                ticks.append(done)
                if len(ticks) > 50:
                    print("played on after the Ctrl-C", file=sys.stderr, flush=True)
                    os._exit(3)
            elif done:
                gc.callbacks.append(callback)
                try:
                    gc.collect()
                finally:
                    gc.callbacks.remove(callback)
        return tick

    def ticking_forecast(*args, progress, **kw):
        return forecast(*args, progress=ticking(progress), **kw)

    runner.forecast = ticking_forecast
    sys.argv[0] = "fuego"
    main()
""")


def ctrl_c_in_a_gc_callback(*args: str) -> tuple[subprocess.Popen, str, str]:
    """``fuego forecast TAVERN --runs RUNS ARGS`` in a child process (its own session, so
    the cleanup can end its workers too), sent SIGINT, to it alone, while a gc callback runs
    in it: the ended process, its output and its errors. A hang is a TimeoutExpired."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))  # python -c puts the cwd first: ours too
    proc = subprocess.Popen(
        [sys.executable, "-c", IN_A_GC_CALLBACK, "forecast", str(TAVERN), "--runs", str(RUNS),
         *args], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)  # (a terminal's SIGINT: conftest)
    assert proc.stdin and proc.stderr
    try:
        seen = b""
        end = time.monotonic() + HANG
        while b"in a gc callback\n" not in seen:
            assert time.monotonic() < end and proc.poll() is None, seen.decode()
            if select.select([proc.stderr], [], [], 0.2)[0]:
                seen += os.read(proc.stderr.fileno(), 65536)
        proc.send_signal(signal.SIGINT)  # the child's main thread waits in select(): it
        out, err = proc.communicate(b"\n", timeout=HANG)  # takes it before the line comes
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc, out.decode(), (seen + err).decode()


def assert_stopped(proc: subprocess.Popen, out: str, err: str) -> None:
    """Stopped as a Ctrl-C stops a forecast: 130, the runs finished so far, no traceback."""
    assert proc.returncode == 130, err  # 3: it played on, the Ctrl-C lost
    finished = re.search(rf"Interrupted \(Ctrl-C\): (\d+) of {RUNS} runs finished", out)
    assert finished and 0 < int(finished[1]) < RUNS, out
    assert "Traceback" not in err and "Exception ignored" not in err, err


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_ctrl_c_while_a_gc_callback_runs_still_stops_the_pool_forecast():
    """Python's handler raised the KeyboardInterrupt inside the callback, which dropped it:
    the workers, told by nobody, played on."""
    proc, out, err = ctrl_c_in_a_gc_callback("--jobs", "2")
    assert_stopped(proc, out, err)
    assert _workers_gone(proc.pid)  # told to stop by the forecast, not by the terminal


@pytest.mark.slow
def test_a_ctrl_c_while_a_gc_callback_runs_still_stops_the_forecast_in_process():
    """One job: the run after the dropped Ctrl-C raises it (each run's end checks the count).
    The run plays in this thread, so the handler raises at once (no wait for a run's end), in
    the callback, which drops it; Python's report of that drop is not printed either."""
    proc, out, err = ctrl_c_in_a_gc_callback("--jobs", "1")
    assert_stopped(proc, out, err)
