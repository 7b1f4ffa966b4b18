"""Helpers for the optional-module tests (imported by tests/test_modules_*.py), and their tests.

- :class:`Dice`: a roller whose plain dice (d6, d8, the 2d6 of ``dr``) and roll-and-keep totals
  can be queued, so a module's table roll is forced exactly; the rest rolls from the seed.
- :func:`field`: an outdoor grid (every character one 10-ft area) built with tests/builders.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any, TypeVar

from builders import RoomSpec, barrier_between, grid

from fuego.dice.roller import Pool, Roller
from fuego.engine.events import Event, EventKind
from fuego.engine.rule_module import RuleModule
from fuego.engine.scene import Scene
from fuego.modules.registry import build
from fuego.rules.settings import Settings
from fuego.world.building import Building

#: Plan characters for outdoor test maps.
OUTDOOR: dict[str, RoomSpec] = {
    "w": {"key": "woods", "outdoors": True, "fuel": 7},
    "b": {"key": "brush", "outdoors": True, "fuel": 3},
    "g": {"key": "field", "outdoors": True, "fuel": 2},
    "r": {"key": "road", "outdoors": True, "fuel": 0},
    "h": {"key": "house", "fuel": 5},
    "s": {"key": "shed", "fuel": 3},
    "u": {"key": "loft", "fuel": 4},
}


class Dice(Roller):
    """Queued d6/d8/dr faces (``faces``) and pool totals (``totals``); then the seed."""

    def __init__(self, seed: int = 0, faces: Iterable[int] = (), totals: Iterable[int] = ()) -> None:
        super().__init__(seed)
        self.faces = deque(faces)
        self.queued = deque(totals)

    def die(self, sides: int) -> int:
        if self.faces:
            face = self.faces.popleft()
            assert 1 <= face <= sides, f"queued {face} on a d{sides}"
            return face
        return super().die(sides)

    def total(self, pool: Pool, dice: list[int] | None = None) -> int:
        if self.queued:
            return self.queued.popleft()
        return super().total(pool, dice)

    def totals(self, pools: list[Pool]) -> list[int]:
        return [self.total(pool) for pool in pools]


def field(plan: list[str] | None, levels: list[tuple[str, int, list[str]]] | None = None,
          **kw: Any) -> Building:
    """``plan`` on one level, "ground"; or the ``levels`` given (then ``plan`` is None)."""
    if not levels:
        assert plan is not None, "a plan or levels"
        levels = [("ground", 0, plan)]
    return grid(levels, OUTDOOR, **kw)


def scene_with(building: Building, modules: dict[str, Any] | None = None, *,
               faces: Iterable[int] = (), totals: Iterable[int] = (), seed: int = 0,
               **settings: Any) -> Scene:
    """A scene on ``building`` with the given modules on and a :class:`Dice` roller."""
    s = Scene(building, Settings(modules=dict(modules or {}), **settings),
              Dice(seed, faces, totals))
    s.modules = build(s.settings.modules)
    return s


def area(s: Scene, name: str) -> int:
    i = s.building.find(name)
    assert i is not None, name
    return i


M = TypeVar("M", bound=RuleModule)


def module_of(s: Scene, kind: type[M]) -> M:
    """The scene's module of class ``kind``, which the test turned on (its own state read)."""
    m = s.module(kind)
    assert m is not None, f"the {kind.name} module is off"
    return m


def module_events(s: Scene, module: str) -> list[Event]:
    """The module's own events (not the fires it started)."""
    own = (EventKind.MODULE, EventKind.WIND, EventKind.WEATHER)
    return [e for e in s.log if e.kind in own and e.data.get("module") == module]


# -- the helpers' own tests ----------------------------------------------------------------------
def test_dice_serves_queued_faces_then_the_seed():
    d = Dice(3, faces=[6, 6, 1], totals=[17])
    assert d.dr() == (6, 6) and d.d6() == 1
    assert d.total(Pool(3, 2)) == 17
    fresh = Roller(3)
    assert d.d6() == fresh.d6()


def test_field_builds_outdoor_areas_joined_openly():
    b = field(["wr", "bh"])
    assert b.rooms["woods"].outdoors and not b.rooms["house"].outdoors
    assert barrier_between(b, "A1", "B1").passable
    assert not barrier_between(b, "A2", "B2").passable  # brush | house wall
