"""What matters: the levers of a forecast's bad outcomes, read from the runs themselves.

In every run, :class:`Watch` notes for each hero what the hero went through before their
fate was sealed (went down or got out), and when:

- ``thick-smoke``: stood in a room in thick smoke; ``burning``: stood in a room while it
  burned; ``flashover``: was in a room when it flashed over;
- ``caught``, ``flashed``: a room had caught fire, or flashed over, by then (anywhere);
- ``open``, ``broken``: a door or window stood open; a door, window, wall or floor between
  two rooms was broken or burned through, by then.

:class:`LeverCounts` adds these up per hero, split by outcome: the runs in which the hero went
*down* (knocked out or killed at the end) and the *rest*. A lever that happened in 80 % of the
downs but 10 % of the rest is one the GM can pull (keep that door shut, get them out of the
stair hall before round 5); :func:`what_matters` ranks them by that difference and keeps those
whose 95 % interval (:func:`fuego.stats.newcombe`) is clear of zero; levers seen in
exactly as many downs and as many of the rest (most likely the same runs) make one entry, the
others listed as ``alike``. These are
associations in the runs, not proofs of cause: a hero who dies in the stair hall's smoke was
also, most often, one who did not get out in time.

Every count is an integer and adds up exactly (:meth:`LeverCounts.add`), so the levers are the
same whatever played the runs; a run's record is a few dozen small tuples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.stats import newcombe, wilson

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene
    from fuego.world.building import Building

__all__ = ["Lever", "Key", "Watch", "HeroLevers", "LeverCounts", "what_matters",
           "lever_words", "MIN_RUNS", "SHOWN"]

#: What matters is said for a hero down in at least this many runs and up in as many.
MIN_RUNS = 3
#: At most this many levers per hero of each kind: where the hero was, what had happened.
SHOWN = 3


class Lever(str, Enum):
    THICK_SMOKE = "thick-smoke"
    BURNING = "burning"
    FLASHOVER = "flashover"
    CAUGHT = "caught"
    FLASHED = "flashed"
    OPEN = "open"
    BROKEN = "broken"


#: (the levers' words, read once: an enum member's value is a descriptor call each time)
_CAUGHT, _FLASHED, _OPEN, _BROKEN = (Lever.CAUGHT.value, Lever.FLASHED.value, Lever.OPEN.value,
                                     Lever.BROKEN.value)
_THICK_SMOKE, _BURNING, _FLASHOVER = (Lever.THICK_SMOKE.value, Lever.BURNING.value,
                                      Lever.FLASHOVER.value)

#: The levers of where the hero was (the others: what had happened anywhere by then).
HERO_LEVERS = frozenset({Lever.THICK_SMOKE, Lever.BURNING, Lever.FLASHOVER})

#: The levers that are about a room (the others are about a barrier).
ROOM_LEVERS = frozenset({Lever.THICK_SMOKE, Lever.BURNING, Lever.FLASHOVER, Lever.CAUGHT,
                         Lever.FLASHED})

#: Which of levers that tell the same story is shown: what the hero went through first,
#: then the rooms, then the doors and windows, then what broke.
PRIORITY = {Lever.THICK_SMOKE: 0, Lever.BURNING: 0, Lever.FLASHOVER: 0, Lever.CAUGHT: 1,
            Lever.FLASHED: 1, Lever.OPEN: 2, Lever.BROKEN: 3}

#: (lever, room index or barrier index): one thing that may happen in a run.
Key = tuple[str, int]


@dataclass
class HeroLevers:
    """One hero in one run: down at the end or not, and the first round of each lever."""

    down: bool
    seen: dict[Key, int] = field(default_factory=dict)


class Watch:
    """One run's levers, looked at once at the end of each round: the heroes' own areas, the
    rooms on fire and the barriers between rooms (cheap next to the round itself)."""

    def __init__(self, scene: Scene, n_heroes: int, room_index: dict[str, int],
                 area_room: list[int]) -> None:
        from fuego.engine.heroes import Status
        from fuego.rules.charts import Density
        from fuego.world.places import BarrierKind

        # (imported here, once a run, not at each round's look)
        self.active, self.thick = Status.ACTIVE, Density.THICK
        b = scene.building
        self.building = b
        self.room_index = room_index
        self.area_room = area_room
        openable = (BarrierKind.DOOR, BarrierKind.WINDOW)
        #: doors and windows (may stand open), and what else stands between two rooms, not yet
        #: seen open or broken (a lever keeps the round it first happened: once is enough)
        self.openable = [bar for bar in b.barriers if bar.kind in openable]
        self.between = [bar for bar in b.barriers
                        if bar.kind in openable or (bar.kind in (BarrierKind.WALL,
                                                                 BarrierKind.FLOOR)
                                                    and b.areas[bar.a].room != b.areas[bar.b].room)]
        self.version = -1  # the building's version at the last look (no change: no barrier)
        self.anywhere: dict[Key, int] = {}
        self.seen: list[dict[Key, int]] = [{} for _ in range(n_heroes)]
        #: the round each hero's fate was sealed (down or out); None while it is open
        self.fate: list[int | None] = [None] * n_heroes

    def look(self, scene: Scene, r: int, heroes: list[Hero | None]) -> None:
        """The end of round ``r`` (0: the start); ``heroes`` in the counts' order (None: not
        in the scene yet)."""
        active, thick = self.active, self.thick
        burning = {self.area_room[i] for i in scene.fires}
        flashed_now = self._building(scene, r, burning)
        smoke = scene.smoke
        area_room = self.area_room
        for h, hero in enumerate(heroes):
            if hero is None or self.fate[h] is not None:
                continue
            if hero.status is not active:
                self.fate[h] = r
                continue
            seen = self.seen[h]
            room = area_room[hero.area]
            if smoke is not None and smoke.at(hero.area) is thick:
                seen.setdefault((_THICK_SMOKE, room), r)
            if room in burning:
                seen.setdefault((_BURNING, room), r)
            if room in flashed_now:
                seen.setdefault((_FLASHOVER, room), r)

    def _building(self, scene: Scene, r: int, burning: set[int]) -> set[int]:
        """What has happened anywhere by round ``r``; returns the rooms that flashed over in
        it."""
        anywhere = self.anywhere
        for k in burning:
            anywhere.setdefault((_CAUGHT, k), r)
        flashed_now = set()
        for key in scene.flashed:
            k = self.room_index[key]
            if (_FLASHED, k) not in anywhere:
                anywhere[(_FLASHED, k)] = r
                flashed_now.add(k)
        if self.building.version != self.version:  # a barrier may have changed
            self.version = self.building.version
            left = []
            for bar in self.between:
                if bar.destroyed:
                    anywhere[(_BROKEN, bar.index)] = r
                else:
                    left.append(bar)
            self.between, left = left, []
            for bar in self.openable:
                if not bar.closed and not bar.destroyed:
                    anywhere[(_OPEN, bar.index)] = r
                else:
                    left.append(bar)
            self.openable = left
        return flashed_now

    def levers(self, h: int, down: bool) -> HeroLevers:
        """Hero ``h``'s record of the run: what the hero went through, and what had happened
        anywhere by the round their fate was sealed (to the end if it never was)."""
        fate = self.fate[h]
        seen = dict(self.seen[h])
        for key, r in self.anywhere.items():
            if fate is None or r <= fate:
                seen[key] = r
        return HeroLevers(down, seen)


def _bump(d: dict[int, int], key: int, by: int = 1) -> None:
    d[key] = d.get(key, 0) + by


@dataclass
class LeverCounts:
    """Per hero: the runs down and the rest, and per lever the runs it happened in among each
    (``with_[key] = [among the downs, among the rest]``) and, among the downs, the round it
    first happened (``rounds[key] = {round: runs}``)."""

    heroes: int
    down: list[int] = field(default_factory=list)
    rest: list[int] = field(default_factory=list)
    with_: list[dict[Key, list[int]]] = field(default_factory=list)
    rounds: list[dict[Key, dict[int, int]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.down:
            self.down = [0] * self.heroes
            self.rest = [0] * self.heroes
            self.with_ = [{} for _ in range(self.heroes)]
            self.rounds = [{} for _ in range(self.heroes)]

    def add_run(self, levers: list[HeroLevers | None]) -> None:
        for h, one in enumerate(levers):
            if one is None:
                continue
            side = 0 if one.down else 1
            (self.down if one.down else self.rest)[h] += 1
            with_ = self.with_[h]
            for key, r in one.seen.items():
                pair = with_.get(key)
                if pair is None:
                    pair = with_[key] = [0, 0]
                pair[side] += 1
                if one.down:
                    _bump(self.rounds[h].setdefault(key, {}), r)

    def add(self, other: LeverCounts) -> None:
        for h in range(self.heroes):
            self.down[h] += other.down[h]
            self.rest[h] += other.rest[h]
            for key, (a, b) in other.with_[h].items():
                pair = self.with_[h].setdefault(key, [0, 0])
                pair[0] += a
                pair[1] += b
            for key, hist in other.rounds[h].items():
                mine = self.rounds[h].setdefault(key, {})
                for r, n in hist.items():
                    _bump(mine, r, n)


# -- reading them -------------------------------------------------------------------------------
def _barrier_name(b: Building, i: int) -> str:
    """A barrier as a GM names it: its name in the scenario, else the rooms it parts."""
    bar = b.barriers[i]
    what = bar.kind.value
    one, two = b.areas[bar.a], b.areas[bar.b]
    if bar.name and bar.name != f"{one.name}|{two.name}":  # the GM's own ("barn door")
        return bar.name if what in bar.name.lower() else f"the {what} {bar.name}"
    rooms = b.room_of(bar.a).name, b.room_of(bar.b).name
    if rooms[0] == rooms[1]:
        return f"the {what} in {rooms[0]} ({one.name}-{two.name})"
    return f"the {what} between {rooms[0]} and {rooms[1]}"


def lever_words(key: Key, building: Building, rooms: list[str]) -> str:
    """A lever in the GM's words: ``in Stair Hall in thick smoke``."""
    kind, index = Lever(key[0]), key[1]
    if kind in ROOM_LEVERS:
        room = building.rooms[rooms[index]].name
        return {Lever.THICK_SMOKE: f"in {room} in thick smoke",
                Lever.BURNING: f"in {room} while it burned",
                Lever.FLASHOVER: f"in {room} when it flashed over",
                Lever.CAUGHT: f"{room} on fire by then",
                Lever.FLASHED: f"{room} flashed over by then"}[kind]
    name = _barrier_name(building, index)
    return f"{name} open" if kind is Lever.OPEN else f"{name} broken or burned through"


def _median(hist: dict[int, int]) -> int | None:
    total, seen = 0, sum(hist.values())
    for r in sorted(hist):
        total += hist[r]
        if 2 * total >= seen:
            return r
    return None


def _where(key: Key, building: Building, rooms: list[str]) -> dict[str, str]:
    kind = Lever(key[0])
    if kind in ROOM_LEVERS:
        return {"room": rooms[key[1]]}
    bar = building.barriers[key[1]]
    return {"barrier": bar.name or f"{building.areas[bar.a].name}-{building.areas[bar.b].name}"}


def what_matters(counts: LeverCounts, h: int, building: Building,
                 rooms: list[str]) -> list[dict[str, Any]]:
    """Hero ``h``'s levers: those that happened more often in the runs where the hero went
    down than in the rest, with the difference's 95 % interval clear of zero; first where the
    hero was, then what had happened anywhere, each strongest first and at most
    :data:`SHOWN` (none unless the hero was down in :data:`MIN_RUNS` runs and up in as
    many)."""
    down, rest = counts.down[h], counts.rest[h]
    if down < MIN_RUNS or rest < MIN_RUNS:
        return []
    rows = []
    for key, (a, b) in counts.with_[h].items():
        low, high = newcombe(a, down, b, rest)
        if low <= 0:
            continue
        rows.append((-(a / down - b / rest), -low, PRIORITY[Lever(key[0])], key, a, b, low,
                     high))
    rows.sort(key=lambda row: row[:4])
    groups: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    shown: dict[tuple[int, int], dict[str, Any]] = {}
    for *_, key, a, b, low, high in rows:
        words = lever_words(key, building, rooms)
        theirs = Lever(key[0]) in HERO_LEVERS
        alike = shown.get((a, b))
        if alike is not None:  # the same runs, most likely: one line, the others named
            alike["alike"].append(words)
            continue
        group = groups[0 if theirs else 1]
        if len(group) == SHOWN:
            continue
        shown[(a, b)] = entry = {
            "lever": key[0], **_where(key, building, rooms),
            "words": words,
            "p_among_down": round(a / down, 6),
            "p_among_down_ci95": [round(x, 6) for x in wilson(a, down)],
            "p_among_rest": round(b / rest, 6),
            "p_among_rest_ci95": [round(x, 6) for x in wilson(b, rest)],
            "difference": round(a / down - b / rest, 6),
            "difference_ci95": [round(low, 6), round(high, 6)],
            "median_round_among_down": _median(counts.rounds[h].get(key, {})),
            "alike": [],
        }
        group.append(entry)
    return groups[0] + groups[1]
