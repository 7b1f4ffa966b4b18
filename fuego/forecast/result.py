"""A forecast's result: its counts turned into chances, medians and intervals, for the
terminal, the plots and the JSON (:class:`ForecastResult`).

Definitions (docs/maps-and-forecasts.md, "Reading a forecast"):

- round 0 is the scene as it starts; round ``r`` is the state at the end of round ``r``;
- an area is *burning by round r* when a fire has burned in it at the end of some round
  ``<= r`` (it may have burned out since); *burning at round r* when it burns then;
- a room burns when any of its areas burns; its flashover counts at the end of the round it
  happens;
- a run that ends early (no fire, no smoke) keeps its last state for the remaining rounds;
- the *median round* of an event is the first round by which it has happened in at least half
  of the runs, or None when it happens in fewer than half;
- the fire is *out* at the end of the first round after which no fire burns for the rest of
  the run; runs still burning at ``rounds`` are counted as ``still burning``.

The probabilities are the integer counts divided by ``runs`` at the very end, so they are the
same whatever played the runs. The summary and the JSON stream are computed an area at a time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.forecast.counts import ENDINGS, STATUSES, Counts, burning_at, dense
from fuego.forecast.levers import what_matters
from fuego.stats import mean_interval, runs_for, wilson

if TYPE_CHECKING:
    from fuego.world.building import Building

__all__ = ["ForecastResult", "ForecastInterrupted", "MAX_SERIES_VALUES"]

#: Numbers the JSON's per-area and per-room series may hold in all (a few MB); past it they
#: are cut at their last change, then left out (ForecastResult.trimmed, with a note).
MAX_SERIES_VALUES = 500_000
#: A hero's shares at the end, their JSON keys and the statuses they count; they add up to 1.
SHARES = (("p_escaped", "escaped"), ("p_knocked_out", "knocked-out"), ("p_killed", "dead"),
          ("p_still_inside", "active"), ("p_outside", "outside"), ("p_not_arrived", "absent"))


class ForecastInterrupted(Exception):
    """Ctrl-C during a forecast: ``result`` holds the runs finished before it (any order)."""

    def __init__(self, result: ForecastResult) -> None:
        super().__init__(f"interrupted after {result.runs} runs")
        self.result = result



def _median_round(hist: list[int], runs: int) -> int | None:
    """First round by which at least half the runs have seen it (the last bin is 'never')."""
    total = 0
    for r, n in enumerate(hist[:-1]):
        total += n
        if 2 * total >= runs and total:
            return r
    return None


def _conditional_median(hist: list[int]) -> int | None:
    """Median round among the runs in which it happened at all."""
    seen = sum(hist[:-1])
    if not seen:
        return None
    total = 0
    for r, n in enumerate(hist[:-1]):
        total += n
        if 2 * total >= seen:
            return r
    return None


def _cumulative(hist: list[int], runs: int) -> list[float]:
    out, total = [], 0
    for n in hist[:-1]:
        total += n
        out.append(_p(total, runs))
    return out


def _until_last_change(changes: dict[int, int], runs: int, cumulative: bool) -> list[float]:
    """A per-round chance from sparse counts, up to its last change only (the last value holds
    to the end): a round-by-round list whose length follows what happened, not the rounds."""
    last = max((r for r, n in changes.items() if n), default=0)
    out, total = [], 0
    for r in range(last + 1):
        total += changes.get(r, 0)
        out.append(_p(total, runs))
    return out


def _first_half(by_round: list[int], of: int | None = None) -> int | None:
    """The first round by which a count that grows over the rounds reaches half of ``of``
    (default: its value at the end), or None when it stays at zero: the median round of an
    event among the runs in which it happened."""
    total = by_round[-1] if of is None else of
    if not total or not by_round[-1]:
        return None
    return next((r for r, n in enumerate(by_round) if 2 * n >= total), None)


def _p(count: int, runs: int) -> float:
    return round(count / runs, 6) if runs else 0.0


def _ci(count: int, runs: int) -> list[float]:
    """The 95 % Wilson interval of a share, as JSON's ``[low, high]``."""
    return [round(x, 6) for x in wilson(count, runs)]


def _mean_ci(hist: dict[int, int], runs: int) -> list[float]:
    """The 95 % normal interval of a mean from its histogram, as ``[low, high]``."""
    return [round(x, 6) for x in mean_interval(hist, runs)]


def _quantile(hist: dict[int, int], runs: int, q: float) -> int:
    """The smallest n with at least q of the runs at or below it."""
    need = math.ceil(q * runs)
    total = 0
    for n in sorted(hist):
        total += hist[n]
        if total >= max(1, need):
            return n
    return max(hist, default=0)


@dataclass
class ForecastResult:
    """Counts from :func:`forecast` and what to call things; :meth:`to_dict` for the numbers."""

    title: str
    seed: int
    runs: int
    rounds: int
    area_names: list[str]
    area_rooms: list[str]
    area_fuel: list[int]
    room_names: dict[str, str]
    counts: Counts
    building: Building | None = None  # the building as it starts (for heat maps)
    jobs: int = 1  # not part of the numbers: they do not depend on it
    #: hero -> the plan the forecast played ("flee", "fight", "rescue:NAME", "hold")
    plans: dict[str, str] = field(default_factory=dict)
    #: the runs asked for, when Ctrl-C stopped the forecast before all were played
    asked: int | None = None
    #: the NPCs the script brings in later (counted as absent until they come)
    arrivals: list[str] = field(default_factory=list)

    # -- per area ---------------------------------------------------------------------------
    @property
    def trimmed(self) -> bool:
        """Whether the JSON's per-area and per-room series are cut at their last change: when
        written whole they would hold more than :data:`MAX_SERIES_VALUES` numbers."""
        per_round = 2 * (len(self.area_names) + len(self.counts.rooms)) * (self.rounds + 1)
        return per_round > MAX_SERIES_VALUES

    def p_burning_by(self, round_: int) -> list[float]:
        """Per area, the chance it has burned by the end of ``round_``."""
        return [_p(sum(n for r, n in h.items() if r <= round_), self.runs)
                for h in self.counts.area_first]

    def half_fuel_round(self) -> int:
        """The first round by which, on average over the runs, areas holding half the fuel
        have caught fire (the heat map's default round); the last round if never."""
        total = sum(max(0, f) for f in self.area_fuel)
        if not total or not self.runs:
            return self.rounds
        caught = [0.0] * (self.rounds + 1)
        for fuel, hist in zip(self.area_fuel, self.counts.area_first):
            if fuel > 0:
                for r, n in hist.items():
                    caught[r] += fuel * n
        so_far = 0.0
        for r, amount in enumerate(caught):
            so_far += amount
            if 2 * so_far >= total * self.runs:
                return r
        return self.rounds

    def half_fuel_reached(self) -> bool:
        """Whether :meth:`half_fuel_round` is a round by which half the fuel caught fire on
        average (False: it never did, and the round is the last as a fallback)."""
        total = sum(max(0, f) for f in self.area_fuel)
        caught = sum(max(0, fuel) * n for fuel, hist in zip(self.area_fuel,
                                                            self.counts.area_first)
                     for n in hist.values())
        return bool(total and self.runs) and 2 * caught >= total * self.runs

    def p_out_by_round(self) -> list[float]:
        """Per round, the chance that no fire burns from then on."""
        return _cumulative(self.counts.out_round, self.runs)

    def burning_areas(self) -> dict[str, list[Any]]:
        c = self.counts
        hists = c.burning_hist
        runs = max(1, self.runs)
        mean = [round(sum(n * k for n, k in h.items()) / runs, 6) for h in hists]
        return {
            "mean": mean,
            "mean_ci95": [_mean_ci(h, self.runs) for h in hists],
            "p10": [_quantile(h, self.runs, 0.10) for h in hists],
            "p50": [_quantile(h, self.runs, 0.50) for h in hists],
            "p90": [_quantile(h, self.runs, 0.90) for h in hists],
        }

    def bands(self) -> dict[str, Any]:
        """95 % intervals of the curves over rounds (for plots): ``fire_out`` and
        ``burning_mean`` as lists of ``(low, high)`` per round, and per hero ``p_down`` and
        ``p_escaped`` (Wilson for the shares, normal for the mean)."""
        c, n = self.counts, self.runs
        ko, dead, esc = (STATUSES.index(s) for s in ("knocked-out", "dead", "escaped"))
        total = 0
        out = []
        for k in c.out_round[:-1]:
            total += k
            out.append(wilson(total, n))
        heroes = {}
        for h, name in enumerate(c.heroes):
            st = c.hero_status[h]
            heroes[name] = {"p_down": [wilson(row[ko] + row[dead], n) for row in st],
                            "p_escaped": [wilson(row[esc], n) for row in st]}
        return {"fire_out": out,
                "burning_mean": [mean_interval(h, n) for h in c.burning_hist],
                "heroes": heroes}

    def confidence(self) -> dict[str, Any]:
        """How sure the numbers are: the intervals' method, the widest a share's 95 % interval
        can be with these runs, and the runs that would give a share to +/- 1, 2, 5 points."""
        worst = wilson(self.runs // 2, self.runs) if self.runs else (0.0, 1.0)
        return {
            "level": 0.95,
            "shares": "Wilson score interval (each *_ci95: [low, high])",
            "means": "normal interval of the mean (sample variance)",
            "widest_half_width": round((worst[1] - worst[0]) / 2, 6),
            "runs_for_half_width": {f"{h:g}": runs_for(h) for h in (0.01, 0.02, 0.05)},
        }

    def hero_curves(self) -> dict[str, dict[str, list[float]]]:
        """Per hero and round: mean Dramatic Wounds, chance of being down (KO or dead), out."""
        out = {}
        ko, dead, esc = (STATUSES.index(s) for s in ("knocked-out", "dead", "escaped"))
        for h, name in enumerate(self.counts.heroes):
            st = self.counts.hero_status[h]
            out[name] = {
                "mean_dramatic_wounds": [round(w / max(1, self.runs), 6)
                                         for w in self.counts.hero_wounds[h]],
                "p_down": [_p(row[ko] + row[dead], self.runs) for row in st],
                "p_dead": [_p(row[dead], self.runs) for row in st],
                "p_escaped": [_p(row[esc], self.runs) for row in st],
            }
        return out

    def _area(self, i: int, left: list[int] | None = None) -> dict[str, Any]:
        c, R = self.counts, self.rounds
        hist = dense(c.area_first[i], R, self.runs) if left is None else None
        first = c.area_first[i]
        if left is None:
            assert hist is not None
            by: list[float] | None = _cumulative(hist, self.runs)
            at: list[float] | None = [_p(n, self.runs)
                                      for n in burning_at(c.area_burning[i], R)]
        else:  # a huge forecast: the series up to their last change, while the budget lasts
            by = _until_last_change(first, self.runs, True)
            at = _until_last_change(c.area_burning[i], self.runs, False)
            by, at = _spend(left, by), _spend(left, at)
            hist = dense(first, max(first, default=0), self.runs)  # medians: the same
        return {
            "room": self.area_rooms[i],
            "fuel": self.area_fuel[i],
            "p_burning_by_round": by,
            "p_burning_at_round": at,
            "p_ever": _p(sum(hist[:-1]), self.runs),
            "median_first_round": _median_round(hist, self.runs),
            "median_first_round_when_it_burns": _conditional_median(hist),
        }

    def _room(self, k: int, per_round: bool = True,
              left: list[int] | None = None) -> dict[str, Any]:
        c, R = self.counts, self.rounds
        key = c.rooms[k]
        # trimmed, the histograms stop at their last round (the medians are the same)
        ends = ((R, R) if left is None else
                (max(c.room_first[k], default=0), max(c.room_flash[k], default=0)))
        hist = dense(c.room_first[k], ends[0], self.runs)
        flash = dense(c.room_flash[k], ends[1], self.runs)
        by_round: Callable[[list[int], dict[int, int]], list[float] | None] = (
            (lambda dense, _sparse: _cumulative(dense, self.runs)) if left is None else
            (lambda _dense, sparse: _spend(left, _until_last_change(sparse, self.runs, True))))
        out = {
            "name": self.room_names.get(key, key),
            "p_burning_by_round": by_round(hist, c.room_first[k]) if per_round else None,
            "p_ever": _p(sum(hist[:-1]), self.runs),
            "median_first_round": _median_round(hist, self.runs),
            "median_first_round_when_it_burns": _conditional_median(hist),
            "p_flashover": _p(sum(flash[:-1]), self.runs),
            "p_flashover_by_round": by_round(flash, c.room_flash[k]) if per_round else None,
            "median_flashover_round_when_it_happens": _conditional_median(flash),
        }
        if not per_round:
            del out["p_burning_by_round"], out["p_flashover_by_round"]
        out["p_ever_ci95"] = _ci(sum(hist[:-1]), self.runs)
        out["p_flashover_ci95"] = _ci(sum(flash[:-1]), self.runs)
        return out

    def _heroes(self) -> dict[str, Any]:
        c, R = self.counts, self.rounds
        heroes = {}
        curves = self.hero_curves()
        ko, dead, absent = (STATUSES.index(s) for s in ("knocked-out", "dead", "absent"))
        for h, name in enumerate(c.heroes):
            st = c.hero_status[h]
            final = st[R]
            wounds = c.hero_final_wounds[h]
            runs = max(1, self.runs)
            down = final[ko] + final[dead]
            entry: dict[str, Any] = {"plan": self.plans.get(name, "flee")}
            for key, status in SHARES:
                entry[key] = _p(final[STATUSES.index(status)], self.runs)
            entry.update({f"{key}_ci95": _ci(final[STATUSES.index(status)], self.runs)
                          for key, status in SHARES})
            entry.update({
                "p_down": _p(down, self.runs),
                "p_down_ci95": _ci(down, self.runs),
                "median_escape_round_when_escaping": _first_half(
                    [row[STATUSES.index("escaped")] for row in st]),
                "median_down_round_when_down": _first_half([row[ko] + row[dead] for row in st]),
                "median_death_round_when_killed": _first_half([row[dead] for row in st]),
                "dramatic_wounds": {str(k): _p(wounds[k], self.runs) for k in sorted(wounds)},
                "mean_dramatic_wounds": round(sum(k * v for k, v in wounds.items()) / runs, 6),
                "mean_dramatic_wounds_ci95": _mean_ci(wounds, self.runs),
            })
            if name in self.arrivals:
                entry["arrives_later"] = True
                entry["median_arrival_round"] = _first_half(
                    [self.runs - row[absent] for row in st], self.runs)
            entry["what_matters"] = self.what_matters(h)
            lc = c.levers
            entry["what_matters_runs"] = ({"down": lc.down[h], "rest": lc.rest[h]}
                                          if lc is not None else {"down": 0, "rest": 0})
            entry.update({f"{key}_by_round": value for key, value in curves[name].items()})
            heroes[name] = entry
        return heroes

    def what_matters(self, h: int) -> list[dict[str, Any]]:
        """Hero ``h``'s levers (:func:`fuego.forecast.levers.what_matters`)."""
        if self.building is None or self.counts.levers is None:
            return []
        return what_matters(self.counts.levers, h, self.building, self.counts.rooms)

    def _head(self) -> dict[str, Any]:
        out = self.counts.out_round
        R = self.rounds
        head: dict[str, Any] = {
            "scenario": self.title,
            "seed": self.seed,
            "runs": self.runs,
            "rounds": R,
            "run_seed": "Roller(seed).spawn(i).seed = (seed * 1000003 + i) mod 2**48",
        }
        if self.asked is not None:
            head["interrupted"] = {"runs_asked": self.asked, "runs_finished": self.runs}
        if self.trimmed:
            head["per_round_series"] = (
                "trimmed: each area's and room's per-round series stops at its last change "
                f"(its last value holds to round {R}); past {MAX_SERIES_VALUES:,} numbers in "
                "all, the rest are null (fewer --rounds, or fewer areas, give them whole)")
        head["fire_out"] = {
            "p_out_by_round": self.p_out_by_round(),
            "p_still_burning": _p(out[R + 1], self.runs),
            "median_round": _median_round(out, self.runs),
            "median_round_when_out": _conditional_median(out),
            "distribution": {**{str(r): _p(n, self.runs) for r, n in enumerate(out[:-1]) if n},
                             **({"still burning": _p(out[R + 1], self.runs)}
                                if out[R + 1] else {})},
        }
        head["fire_out"]["p_still_burning_ci95"] = _ci(out[R + 1], self.runs)
        head["endings"] = self.endings()
        if self.counts.skipped:  # (only where the rules refused a scripted action)
            head["skipped_actions"] = self.skipped_actions()
        head["burning_areas_by_round"] = self.burning_areas()
        head["confidence"] = self.confidence()
        head["half_fuel_round"] = self.half_fuel_round()
        return head

    def endings(self) -> dict[str, dict[str, Any]]:
        """How the runs ended (the loop's outcome: ``fire-out``, ``round-limit``; a forecast
        has no GM to end one), each way: the share of runs, its 95 % interval, the median
        round among them and the share ending after each round."""
        out: dict[str, dict[str, Any]] = {}
        for why, hist in zip(ENDINGS, self.counts.endings):
            n = sum(hist.values())
            dense_hist = [hist.get(r, 0) for r in range(self.rounds + 1)] + [0]
            out[why.value] = {
                "p": _p(n, self.runs),
                "p_ci95": _ci(n, self.runs),
                "median_round": _conditional_median(dense_hist),
                "by_round": {str(r): _p(hist[r], self.runs) for r in sorted(hist)},
            }
        return out

    def skipped_actions(self) -> dict[str, dict[str, Any]]:
        """The scripted actions the rules refused when their turn came (a door the fire had
        burned away): by key path, in the scenario's order, the share of runs that skipped
        it and its 95 % interval."""
        def order(where: str) -> tuple:
            hero, _, rest = where.removeprefix("actions.").rpartition(".")
            rnd, _, k = rest.partition("[")
            return hero, int(rnd), int(k.rstrip("]"))

        return {where: {"runs": n, "p": _p(n, self.runs), "p_ci95": _ci(n, self.runs)}
                for where, n in sorted(self.counts.skipped.items(), key=lambda kv: order(kv[0]))}

    def summary(self) -> dict[str, Any]:
        """The numbers the terminal summary shows: no per-area or per-round table (its size
        does not grow with areas x rounds)."""
        return {**self._head(),
                "rooms": {key: self._room(k, per_round=False)
                          for k, key in enumerate(self.counts.rooms)},
                "heroes": self._heroes()}

    def _budget(self) -> list[int] | None:
        """The numbers the trimmed series may still spend (None: the series are whole)."""
        return [MAX_SERIES_VALUES] if self.trimmed else None

    def to_dict(self) -> dict[str, Any]:
        """Every number of the forecast as plain JSON data (identical for any ``jobs``)."""
        left = self._budget()
        return {**self._head(),
                "areas": {name: self._area(i, left) for i, name in enumerate(self.area_names)},
                "rooms": {key: self._room(k, left=left)
                          for k, key in enumerate(self.counts.rooms)},
                "heroes": self._heroes()}

    def json_chunks(self):
        """:meth:`to_dict` as compact JSON text, an area or room at a time (the same bytes as
        ``json.dumps(self.to_dict(), separators=(",", ":"))``, without holding it whole)."""
        import json

        def dump(value: Any) -> str:
            return json.dumps(value, separators=(",", ":"))

        left = self._budget()
        yield dump(self._head())[:-1]
        for key, items in (("areas", ((n, lambda i=i: self._area(i, left))
                                      for i, n in enumerate(self.area_names))),
                           ("rooms", ((n, lambda k=k: self._room(k, left=left))
                                      for k, n in enumerate(self.counts.rooms)))):
            yield f",{dump(key)}:{{"
            for n, (name, entry) in enumerate(items):
                yield ("," if n else "") + f"{dump(name)}:{dump(entry())}"
            yield "}"
        yield f",{dump('heroes')}:{dump(self._heroes())}}}"


def _spend(left: list[int], series: list[float]) -> list[float] | None:
    """``series`` if the budget ``left[0]`` still holds it (and take it), else None."""
    if len(series) > left[0]:
        left[0] = 0
        return None
    left[0] -= len(series)
    return series
