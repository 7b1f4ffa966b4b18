"""Shared fixtures: small buildings and scenes built by hand (see tests/helpers.py)."""

from __future__ import annotations

import pytest
from helpers import make_building, room, two_room_building, two_room_scene  # noqa: F401


@pytest.fixture
def building():
    """Kitchen (fuel 5) + hall (fuel 3) + street, 7 x 3 areas (helpers.TWO_ROOM_PLAN)."""
    return two_room_building()


@pytest.fixture
def scene():
    """The two-room building with Isabela at ground:A1 and a 3-die fire at ground:A2, seed 7."""
    return two_room_scene(seed=7)


# -- hypothesis: one reproducible profile for CI (tests/test_invariants.py, test_fuzz.py) -------
# Derandomized (the same examples every run), no example database, no deadline: a failure in CI
# fails again on any machine. HYPOTHESIS_PROFILE=dev (or any registered name) overrides it.
try:
    import os as _os

    from hypothesis import HealthCheck as _HealthCheck
    from hypothesis import settings as _hsettings

    _hsettings.register_profile("fuego", derandomize=True, deadline=None, database=None,
                                suppress_health_check=[_HealthCheck.too_slow])
    _hsettings.register_profile("dev", deadline=None, max_examples=500)
    _hsettings.load_profile(_os.environ.get("HYPOTHESIS_PROFILE", "fuego"))
except ImportError:  # hypothesis is a test extra; the other tests run without it
    pass


# -- a terminal's signals ---------------------------------------------------------------------
# A shell's background job (CI started with `&`, a nohup) inherits SIGINT and SIGHUP ignored,
# and fuego rightly leaves an ignored signal alone: the tests of Ctrl-C and of a closed terminal
# would read that as fuego ignoring them. Every test process (and, by exec, every fuego it
# starts) gets a terminal's dispositions instead.
def _a_terminals_signals() -> None:
    import signal as _signal

    if _signal.getsignal(_signal.SIGINT) is _signal.SIG_IGN:
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    if _signal.getsignal(_signal.SIGHUP) is _signal.SIG_IGN:
        _signal.signal(_signal.SIGHUP, _signal.SIG_DFL)


_a_terminals_signals()
