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
