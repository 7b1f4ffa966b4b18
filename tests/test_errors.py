"""The FuegoError family: every error survives pickling whole (a forecast's worker process, or
a Dask worker, sends it back pickled), so the forecast shows the one line it would show here."""

from __future__ import annotations

import copy
import importlib
import pickle
import pkgutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import fuego
from fuego.cli import cli
from fuego.errors import FuegoError, RuleError, ScenarioError
from fuego.modules.common import OptionError

TAVERN = Path(__file__).resolve().parents[1] / "campaigns" / "tavern.yaml"


def every_subclass() -> list[type[FuegoError]]:
    """FuegoError and every subclass in fuego, wherever it is defined."""
    for found in pkgutil.walk_packages(fuego.__path__, "fuego."):
        importlib.import_module(found.name)
    out: list[type[FuegoError]] = []
    todo = [FuegoError]
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(set(out), key=lambda c: (c.__module__, c.__qualname__))


#: The errors whose __init__ takes other arguments than (message, where=, tip=).
MAKERS = {
    ScenarioError: lambda text, where, tip: ScenarioError(
        [FuegoError(text, where=where, tip=tip), FuegoError("a second problem", where="x:9")],
        where="tavern.yaml"),
    OptionError: lambda text, where, tip: OptionError("wind", "force", text),
}


def make(cls: type[FuegoError], text: str, where: str | None, tip: str | None) -> FuegoError:
    # (a subclass with a new signature must be given a maker here: the test says which)
    assert cls in MAKERS or cls.__init__ is FuegoError.__init__, f"no maker for {cls}"
    return MAKERS[cls](text, where, tip) if cls in MAKERS else cls(text, where=where, tip=tip)


def plain(value: Any) -> Any:
    """An error as comparable data: its class, args and attributes, problems included."""
    if isinstance(value, FuegoError):
        return (type(value), value.args, str(value), value.render(),
                {k: plain(v) for k, v in vars(value).items()})
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@pytest.mark.parametrize("cls", every_subclass(), ids=lambda c: c.__qualname__)
@given(text=st.text(min_size=1, max_size=40),
       where=st.none() | st.text(max_size=20), tip=st.none() | st.text(max_size=20))
def test_every_error_round_trips_through_pickle_whole(cls, text, where, tip):
    error = make(cls, text, where, tip)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(error, protocol))
        assert plain(back) == plain(error)
        assert (back.message, back.where, back.tip) == (error.message, error.where, error.tip)
    assert plain(copy.deepcopy(error)) == plain(error)  # (copy uses the same protocol)


def test_a_scenario_error_back_from_pickle_keeps_its_lines_and_problems():
    # (it came back as ScenarioError('t\na\nv\ne\nr\nn...'): its line split char by char)
    error = ScenarioError(["rooms.hall: no fuel 'papr'", "fires[0].area: off the plan"],
                          where="tavern.yaml")
    back = pickle.loads(pickle.dumps(error))
    assert str(back) == str(error) == ("tavern.yaml: rooms.hall: no fuel 'papr'\n"
                                       "tavern.yaml: fires[0].area: off the plan")
    assert [p.render() for p in back.problems] == [p.render() for p in error.problems]


@pytest.mark.parametrize("error", [
    ScenarioError(["fires[0].area: no fuel at ground:A1"], where="tavern.yaml:3"),
    OptionError("wind", "force", "expected a force such as mild-breeze, not 'gusty'"),
    RuleError("no fire at ground:B2", where="smother ground:B2", tip="spot it first"),
], ids=lambda e: type(e).__name__)
def test_a_worker_that_raises_one_shows_its_one_line(error, monkeypatch):
    import fuego.forecast.pool as pool
    import fuego.forecast.units as units

    def raising(*args: Any, **kwargs: Any) -> Any:
        raise error

    # the workers are forked, so they play with this run (a spawned one would import its own);
    # before, an OptionError broke the pool: 'a worker process stopped unexpectedly'
    monkeypatch.setattr(units, "play_run", raising)
    monkeypatch.setattr(pool.ProcessPool, "_start_method", lambda self: "fork")
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "4", "--rounds", "2",
                                 "--jobs", "2"])
    assert r.exit_code == 2, r.output
    assert r.output == f"fuego: error: {error.render()}\n"


def test_a_dask_task_that_raises_one_is_that_error():
    pytest.importorskip("distributed")
    from fuego.forecast.cluster import task_error

    error = ScenarioError(["fires[0].area: no fuel at ground:A1"], where="tavern.yaml:3")
    back = pickle.loads(pickle.dumps(error))  # (as the Dask worker sends it)
    assert task_error(back) is back


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_stop_by_signal_round_trips_with_its_signal(protocol):
    """SIGTERM's Stopped, back from a worker: its signal number (the exit status is 128 + it),
    not the message where the number was."""
    from fuego.errors import Stopped

    back = pickle.loads(pickle.dumps(Stopped(15), protocol))
    assert type(back) is Stopped and back.signum == 15 and str(back) == "stopped by signal 15"
