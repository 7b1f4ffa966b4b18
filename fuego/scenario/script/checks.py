"""Checks every part of a script's parsing shares: problems reported with their key path, and
the names (areas, rooms, characters, barriers) and values (numbers, mappings, flags) a script
gives, each checked against the building and the cast.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from fuego.errors import FuegoError, RuleError, ScenarioError, one_of, suggest
from fuego.names import called
from fuego.scenario.script.words import Path
from fuego.text import fold_name
from fuego.world.building import Building
from fuego.world.places import BarrierKind

if TYPE_CHECKING:
    from fuego.rules.settings import Settings

E = TypeVar("E", bound=Enum)


# -- problems --------------------------------------------------------------------------------
class Collector:
    """Stands in for the loader's ``Problems`` when the script is checked on its own."""

    def __init__(self, source: str = "script"):
        self.source = source
        self.items: list[FuegoError] = []

    def add(self, path: Path, message: str, *, tip: str | None = None, **_: Any) -> None:
        self.items.append(FuegoError(message, where=_where(self.source, path), tip=tip))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.items)


def _path_text(path: Path) -> str:
    try:
        from fuego.scenario.source import path_text
    except ImportError:  # pragma: no cover - the loader ships source.py
        return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in path)
    return path_text(path)


def _where(source: str, path: Path) -> str:
    return f"{source}: {_path_text(path)}" if path else source


def shorten(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def barrier_words(bar) -> str:
    return "opening" if bar.kind is BarrierKind.OPEN else bar.describe()


def barrier_called(bar) -> str:
    """A barrier as a message names it, with its verb: ``the stairs at ground:C1|upper:C1
    are``, or by the name the file gave it, ``'belfry ladder' (the ladder at
    ringing:B2|belfry:B2) is``."""
    plural = bar.kind is BarrierKind.STAIRS and not bar.label
    return f"{barrier_phrase(bar)} {'are' if plural else 'is'}"


def barrier_phrase(bar) -> str:
    """:func:`barrier_called` without its verb."""
    at = f"the {barrier_words(bar)} at {bar.areas[bar.a].name}|{bar.areas[bar.b].name}"
    return f"{bar.label!r} ({at})" if bar.label else at


class Reader:
    """The checks of names and values the trigger and effect readers share (the parser's base)."""

    def __init__(self, building: Building, problems, heroes: Iterable[str],
                 settings: Settings | None, path: Path):
        self.b = building
        self.problems = problems
        self.heroes = {fold_name(h): h for h in heroes}  # (as the loader compares them)
        self.settings = settings
        self.root = path
        self.npc_names: dict[str, str] = {}
        self.oil_areas: set[int] = set()
        self._node = 0
        self._provides: frozenset[str] | None = None

    def add(self, path: Path, message: str, tip: str | None = None) -> None:
        self.problems.add(tuple(path), message, tip=tip)

    # -- names ---------------------------------------------------------------------------
    def area(self, value: Any, path: Path, *, fuel: bool = False) -> int | None:
        if not isinstance(value, str) or not value.strip():
            self.add(path, f"expected an area name such as ground:C4, got {shorten(value)}")
            return None
        name = value.strip()
        i = self.b.find(name)
        if i is None:
            names = [a.name for a in self.b.areas]
            self.add(path, f"no area {name!r}{suggest(name, names)}",
                     tip="name areas as level:C4 (column letter, row number)")
            return None
        if fuel and self.b.areas[i].fuel <= 0 and i not in self.oil_areas:
            self.add(path, f"nothing burns in {self.b.areas[i].name} (it has no fuel), so no "
                     "fire can reach it", tip="give the area fuel, or spill oil there first")
        return i

    def room(self, value: Any, path: Path) -> str | None:
        if not isinstance(value, str) or value not in self.b.rooms:
            self.add(path, f"no room {shorten(value)}{suggest(value, self.b.rooms)}; rooms: "
                     f"{one_of(self.b.rooms)}")
            return None
        return value

    def place(self, value: Any, path: Path) -> tuple[set[str], set[str]] | None:
        """A room key or an area name -> (areas, rooms)."""
        if isinstance(value, str) and value in self.b.rooms:
            return set(), {value}
        i = self.b.find(value.strip()) if isinstance(value, str) else None
        if i is not None:
            return {self.b.areas[i].name}, set()
        choices = list(self.b.rooms) + [a.name for a in self.b.areas]
        self.add(path, f"no room or area {shorten(value)}{suggest(value, choices)}",
                 tip=f"rooms: {one_of(self.b.rooms)}; areas are named like ground:C4")
        return None

    def places(self, value: Any, path: Path) -> tuple[set[str], set[str]] | None:
        items = value if isinstance(value, list) else [value]
        if not items:
            self.add(path, "expected a room or an area (or a list of them), got an empty list")
            return None
        areas, rooms, ok = set(), set(), True
        for n, item in enumerate(items):
            got = self.place(item, path + (n,) if isinstance(value, list) else path)
            if got is None:
                ok = False
            else:
                areas |= got[0]
                rooms |= got[1]
        return (areas, rooms) if ok else None

    def hero(self, value: Any, path: Path) -> str | None:
        if not isinstance(value, str) or not value.strip():
            self.add(path, f"expected a character's name, got {shorten(value)}")
            return None
        key = fold_name(value)
        if key in self.heroes:
            return self.heroes[key]
        if key in self.npc_names:
            return self.npc_names[key]
        known = list(self.heroes.values()) + list(self.npc_names.values())
        # (as the table reads a typed name: whole words of it, or their starts, when they
        # name one character: Gaston for Gaston Leroux, Hettie for Mother Hettie)
        found = called(value, known)
        if len(found) == 1:
            return known[found[0]]
        if found:
            self.add(path, f"{value.strip()!r} names {len(found)} characters: "
                     f"{one_of(known[k] for k in found)}",
                     tip=f"name the one you mean in full, e.g. {known[found[0]]}")
            return None
        self.add(path, f"no character named {value!r}{suggest(value, known)}; characters: "
                 f"{one_of(known)}", tip="name one of the scenario's heroes or an npc the "
                 "script adds")
        return None

    def barrier(self, value: Any, path: Path, *, one: bool = False) -> int | None:
        """A barrier by name, by its two areas (``ground:C4-ground:D4``, ``a|b``, ``[a, b]``),
        as the building reads it (:meth:`fuego.world.building.Building.barrier`, the table's
        reading too). ``one``: the name must name one barrier (an effect acts on one; a
        trigger hears any barrier of that name, as every edge of a wall between two rooms)."""
        if isinstance(value, list) and len(value) == 2 and all(isinstance(p, str) for p in value):
            value = "|".join(p.strip() for p in value)
        if not isinstance(value, str) or not value.strip():
            self.add(path, f"not a barrier: {shorten(value)} (name it by its two areas, e.g. "
                     "ground:C4-ground:D4, or by the name the scenario gives it)")
            return None
        named = self.b.barriers_named(value)
        if named and not one:
            return named[0].index
        try:
            return self.b.barrier(value, tip="name a barrier by its two areas, e.g. "
                                             "ground:C4-ground:D4, or by the name: its entry "
                                             "gives it").index
        except RuleError as err:
            self.add(path, err.message, tip=err.tip)
            return None

    def same_name(self, bar) -> set[str]:
        """The names the log gives ``bar`` and every barrier called as it is (in any case)."""
        group = self.b.barriers_named(bar.label) if bar.label else []
        return {bar.name} | {x.name for x in group}

    def _by(self, value: Any, path: Path) -> str | None:
        """Who or what does it, as the narration names it ("the crew's axes")."""
        if not isinstance(value, str) or not value.strip() or len(value) > 60:
            self.add(path, f"expected a short text naming who or what does it (e.g. 'the "
                     f"crew's axes'), got {shorten(value)}")
            return None
        return value.strip()

    def integer(self, value: Any, path: Path, lo: int, hi: int, what: str) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(path, f"expected a whole number for {what}, got {shorten(value)}")
            return None
        if not lo <= value <= hi:
            self.add(path, f"{what} must be {lo}-{hi}, not {value}")
            return None
        return value

    def choice(self, value: Any, path: Path, kind: type[E], expected: str,
               among: Iterable[E] | None = None) -> E | None:
        """``value`` read as one of ``kind``'s words (``among`` them, when given), or None with
        the problem reported: ``expected ...``, got what was written."""
        if isinstance(value, str):
            try:
                found = kind(value)
            except ValueError:
                pass
            else:
                if among is None or found in among:
                    return found
        self.add(path, f"expected {expected}, got {shorten(value)}")
        return None

    def optional_choice(self, spec: dict, key: str, path: Path, kind: type[E], expected: str,
                        among: Iterable[E] | None = None) -> tuple[bool, E | None]:
        """``spec[key]`` read by :meth:`choice` where it is given (not null): (read well?, the
        word or None)."""
        if spec.get(key) is None:
            return True, None
        found = self.choice(spec[key], path + (key,), kind, expected, among)
        return found is not None, found

    def mapping(self, value: Any, path: Path, allowed: tuple[str, ...],
                required: tuple[str, ...] = ()) -> dict | None:
        if not isinstance(value, dict):
            self.add(path, f"expected a mapping with {one_of(allowed)}, got {shorten(value)}")
            return None
        ok = True
        for k in value:
            if k not in allowed:
                self.add(path + (k,), f"unknown key {k!r}{suggest(k, allowed)}; expected one "
                         f"of: {one_of(allowed)}")
                ok = False
        for k in required:
            if k not in value:
                self.add(path, f"missing required key {k!r}")
                ok = False
        return value if ok else None

    def flag(self, value: Any, path: Path, what: str) -> bool:
        if value is not True:
            self.add(path, f"expected true (or a name) for {what}, got {shorten(value)}")
            return False
        return True
