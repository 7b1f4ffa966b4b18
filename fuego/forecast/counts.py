"""What a forecast counts: one run's record (:class:`Run`) and the integer totals of many
(:class:`Counts`), which add up exactly whatever order the runs come back in.

Memory does not grow with areas x rounds: a run is recorded as what happened in it and added
to sparse totals when it ends. Every statistic is an integer count (a histogram), so the
totals of ``--jobs 1``, ``--jobs 8`` or a Dask cluster are the same to the last bit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from fuego.engine.loop import Ending
from fuego.forecast.levers import HeroLevers, LeverCounts

__all__ = ["STATUSES", "DOWN", "ENDINGS", "Run", "Counts", "dense", "burning_at"]

#: Hero statuses counted at the end of every round, in this order: ``active`` is standing
#: inside the building (still inside), ``outside`` standing in the open without having left
#: by a way out (the barnyard, the deck), ``absent`` not in the scene yet (an NPC the script
#: brings in later).
STATUSES = ("active", "escaped", "knocked-out", "dead", "outside", "absent")
#: The statuses of a hero who is down.
DOWN = (STATUSES.index("knocked-out"), STATUSES.index("dead"))
#: How a run can end (the loop's :class:`~fuego.engine.loop.Ending`), counted in this order.
ENDINGS = tuple(Ending)


def _bump(d: dict[int, int], key: int, by: int = 1) -> None:
    d[key] = d.get(key, 0) + by


@dataclass
class Run:
    """What one run adds to the counts: its events by round, never a table of areas x rounds
    (a run's memory grows with what happened in it)."""

    #: area -> the round it first burned
    area_first: dict[int, int] = field(default_factory=dict)
    #: (area, first round burning, first round not burning; R+1: burning to the end)
    spans: list[tuple[int, int, int]] = field(default_factory=list)
    room_first: dict[int, int] = field(default_factory=dict)
    room_flash: dict[int, int] = field(default_factory=dict)
    #: areas burning at the end of each round played (the last value holds to round R)
    burning: list[int] = field(default_factory=list)
    out: int = 0
    #: per hero (None: not in this scene): per round played, (status index, Dramatic Wounds)
    heroes: list[list[tuple[int, int]] | None] = field(default_factory=list)
    #: per hero (None: not in this scene): what the hero went through (what matters)
    levers: list[HeroLevers | None] = field(default_factory=list)
    #: how the run ended (the loop's outcome) and after which round
    ending: Ending = Ending.ROUND_LIMIT
    ended: int = 0
    #: the key paths of the scripted actions the rules refused when their turn came
    skipped: list[str] = field(default_factory=list)


@dataclass
class Counts:
    """Integer tallies over some runs; two of them add up exactly (:meth:`add`).

    Per area and room the tallies are sparse histograms over rounds (``{round: runs}``), and
    an area's burning rounds are kept as the changes of its count (``+1`` where a run's fire
    starts, ``-1`` where it stops), so memory grows with what happened, not with areas x
    rounds. Per round: the distribution of areas burning, the fire's end, the heroes."""

    rounds: int
    n_areas: int
    rooms: list[str]
    heroes: list[str]
    runs: int = 0
    #: [area] {r: runs in which the area first burned at round r}
    area_first: list[dict[int, int]] = field(default_factory=list)
    #: [area] {r: change at round r of the runs in which the area burns}
    area_burning: list[dict[int, int]] = field(default_factory=list)
    room_first: list[dict[int, int]] = field(default_factory=list)
    room_flash: list[dict[int, int]] = field(default_factory=list)
    #: [r] {n: runs with n areas burning at the end of round r}
    burning_hist: list[dict[int, int]] = field(default_factory=list)
    #: [r] runs after whose round r no fire burns again (R+1: still burning at the end)
    out_round: list[int] = field(default_factory=list)
    #: [hero][r][status] runs in which the hero has that status at the end of round r
    hero_status: list[list[list[int]]] = field(default_factory=list)
    #: [hero][r] total Dramatic Wounds over the runs at the end of round r
    hero_wounds: list[list[int]] = field(default_factory=list)
    #: [hero] {dramatic wounds at the end: runs}
    hero_final_wounds: list[dict[int, int]] = field(default_factory=list)
    #: per hero, what the runs in which they went down went through, against the rest
    levers: LeverCounts | None = None
    #: [ending, in ENDINGS order] {r: runs that ended that way after round r}
    endings: list[dict[int, int]] = field(default_factory=list)
    #: {key path of a scripted action: runs in which the rules refused it when its turn came}
    skipped: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        r1 = self.rounds + 1
        if not self.area_first:
            self.area_first = [{} for _ in range(self.n_areas)]
            self.area_burning = [{} for _ in range(self.n_areas)]
            self.room_first = [{} for _ in self.rooms]
            self.room_flash = [{} for _ in self.rooms]
            self.burning_hist = [{} for _ in range(r1)]
            self.out_round = [0] * (self.rounds + 2)
            self.hero_status = [[[0] * len(STATUSES) for _ in range(r1)] for _ in self.heroes]
            self.hero_wounds = [[0] * r1 for _ in self.heroes]
            self.hero_final_wounds = [{} for _ in self.heroes]
            self.endings = [{} for _ in ENDINGS]
        if self.levers is None:
            self.levers = LeverCounts(len(self.heroes))

    def add_run(self, run: Run) -> None:
        R = self.rounds
        for i, r in run.area_first.items():
            _bump(self.area_first[i], r)
        for i, start, stop in run.spans:
            _bump(self.area_burning[i], start)
            if stop <= R:
                _bump(self.area_burning[i], stop, -1)
        for k, r in run.room_first.items():
            _bump(self.room_first[k], r)
        for k, r in run.room_flash.items():
            _bump(self.room_flash[k], r)
        last = len(run.burning) - 1
        for r in range(R + 1):
            _bump(self.burning_hist[r], run.burning[min(r, last)])
        self.out_round[run.out] += 1
        for h, rows in enumerate(run.heroes):
            if rows is None:
                continue
            status, wounds = self.hero_status[h], self.hero_wounds[h]
            end = len(rows) - 1
            for r in range(R + 1):
                st, dw = rows[min(r, end)]
                status[r][st] += 1
                wounds[r] += dw
            _bump(self.hero_final_wounds[h], rows[end][1])
        assert self.levers is not None
        self.levers.add_run(run.levers)
        _bump(self.endings[ENDINGS.index(run.ending)], run.ended)
        self.skipped = dict(Counter(self.skipped) + Counter(set(run.skipped)))  # (once a run)
        self.runs += 1

    def add(self, other: Counts) -> None:
        self.runs += other.runs
        for mine_l, theirs_l in ((self.area_first, other.area_first),
                                 (self.area_burning, other.area_burning),
                                 (self.room_first, other.room_first),
                                 (self.room_flash, other.room_flash),
                                 (self.burning_hist, other.burning_hist),
                                 (self.hero_final_wounds, other.hero_final_wounds),
                                 (self.endings, other.endings)):
            for mine_d, theirs_d in zip(mine_l, theirs_l):
                for k, v in theirs_d.items():
                    _bump(mine_d, k, v)
        for k, v in enumerate(other.out_round):
            self.out_round[k] += v
        self.skipped = dict(Counter(self.skipped) + Counter(other.skipped))
        for mine_w, theirs_w in zip(self.hero_wounds, other.hero_wounds):
            for k, v in enumerate(theirs_w):
                mine_w[k] += v
        for mine_h, theirs_h in zip(self.hero_status, other.hero_status):
            for row, add in zip(mine_h, theirs_h):
                for k, v in enumerate(add):
                    row[k] += v
        assert self.levers is not None and other.levers is not None
        self.levers.add(other.levers)


def dense(hist: dict[int, int], rounds: int, runs: int) -> list[int]:
    """A sparse first-round histogram as a list over rounds 0..R and 'never' (R+1)."""
    out = [0] * (rounds + 2)
    for r, n in hist.items():
        out[r] += n
    out[rounds + 1] = runs - sum(out[: rounds + 1])
    return out


def burning_at(changes: dict[int, int], rounds: int) -> list[int]:
    """Runs burning at each round 0..R from the changes of their count."""
    out, now = [], 0
    for r in range(rounds + 1):
        now += changes.get(r, 0)
        out.append(now)
    return out
