"""What-if sweeps: one forecast over variants of a scenario, side by side, with the difference
each change makes and its uncertainty.

A variant is the scenario as written with some changes, each in one line of words the GM
types on the command line (``--vary``) or writes in a sweep file (:func:`read_sweep_file`)::

    fire=ground:E3          the starting fires replaced by one here (fire=ground:E3 5: 5 FD;
                            several fire= in one variant start several)
    fire+=upper:B1 2        a fire added to the starting ones
    door front door=locked  a door by its name, its place (door ground:G5-ground:G6=...) or
                            its rooms (door pantry/street=...): open, closed, locked (no
                            hero opens it) or broken; window NAME=open|closed|broken
    fuel hall=6             a room's fuel: a Resolve 0-9 or a fuel name (none, casks, ...)
    wind=strong             weather: wind=FORCE [DIRECTION], direction=W
    rules temperament=patient    any key of rules: (docs/scenario-format.md)
    plan=fight              the heroes' plans, as --plan (plan Gaston=rescue:Mother Hettie)

Changes are made to the scenario's spec and the result is checked again as a whole scenario
file is, so a variant is exactly the scenario a GM would get by editing the file. Every variant
plays the same run seeds (run ``i`` of each is seeded ``run_seed(seed, i)``), all of them as one
batch of work units on the same executor, so the numbers are the same whatever plays them.

Differences are those of each variant from the first (the scenario as written), with 95 %
intervals: Newcombe's hybrid score interval for a share, a normal interval for a mean
(:mod:`fuego.stats`). They treat the variants' runs as independent, which overstates the
uncertainty a little when runs share their seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.errors import FuegoError
from fuego.forecast.counts import STATUSES
from fuego.forecast.executors import Executor, chunk_size
from fuego.forecast.result import ForecastResult
from fuego.forecast.runner import (
    MAX_JOBS,
    MAX_RUNS,
    Setup,
    check_number,
    check_seed,
    executor_for,
    rounds_for,
)
from fuego.forecast.units import units_of
from fuego.stats import mean_difference, newcombe

if TYPE_CHECKING:
    from fuego.scenario.model import Scenario

__all__ = ["ChangeKind", "Change", "VariantSpec", "parse_change", "parse_vary",
           "read_sweep_file", "apply_changes", "sweep", "SweepResult", "SweepInterrupted",
           "MAX_VARIANTS", "BASELINE", "told_apart"]

#: Variants a sweep may hold, the scenario as written included.
MAX_VARIANTS = 200
#: The first variant's name: the scenario as written.
BASELINE = "as written"
#: The most bytes a sweep file may hold.
MAX_SWEEP_BYTES = 1 << 20

class ChangeKind(Enum):
    """What a change in a variant touches."""

    FIRE = "fire"  # the starting fires, replaced
    ADD_FIRE = "fire+"  # a starting fire added
    DOOR = "door"
    WINDOW = "window"
    FUEL = "fuel"  # a room's fuel
    WIND = "wind"
    DIRECTION = "direction"
    RULES = "rules"
    PLAN = "plan"


#: How each kind of change is written (the tips of the messages).
FORMS: dict[ChangeKind, str] = {
    ChangeKind.FIRE: "fire=AREA [FD]", ChangeKind.ADD_FIRE: "fire+=AREA [FD]",
    ChangeKind.DOOR: "door NAME=open|closed|locked|broken",
    ChangeKind.WINDOW: "window NAME=open|closed|broken", ChangeKind.FUEL: "fuel ROOM=0-9|FUEL",
    ChangeKind.WIND: "wind=FORCE [DIRECTION]", ChangeKind.DIRECTION: "direction=DIR",
    ChangeKind.RULES: "rules KEY=VALUE", ChangeKind.PLAN: "plan=PLAN or plan HERO=PLAN",
}
SYNTAX = ", ".join(FORMS.values())

#: The kinds that name what they change (door NAME=..., fuel ROOM=...); plan may.
_TARGETED = frozenset({ChangeKind.DOOR, ChangeKind.WINDOW, ChangeKind.FUEL, ChangeKind.RULES})


class BarrierState(str, Enum):
    """A door's or window's state as a change names it (``door NAME=locked``)."""

    OPEN = "open"
    CLOSED = "closed"
    LOCKED = "locked"  # (doors only)
    BROKEN = "broken"


#: Each state a change names -> the barrier's (closed, broken, locked).
BARRIER_STATES = {BarrierState.OPEN: (False, False, False),
                  BarrierState.CLOSED: (True, False, False),
                  BarrierState.LOCKED: (True, False, True),
                  BarrierState.BROKEN: (True, True, False)}


@dataclass(frozen=True)
class Change:
    """One change of a variant: ``kind target=value`` as written (``text``)."""

    kind: ChangeKind
    target: str | None
    value: str
    text: str


@dataclass(frozen=True)
class VariantSpec:
    """A variant's name, its changes, and where it was given (for messages)."""

    name: str
    changes: tuple[Change, ...]
    where: str


def _said(text: str, where: str) -> str:
    """How a message about the change ``text`` starts: with the change quoted, unless ``where``
    already ends with it (a ``--vary`` of one change: ``--vary 'fire': nothing ...``, not
    ``--vary 'fire': 'fire': nothing ...``)."""
    return "" if where.endswith(repr(text)) else f"{text!r}: "


def parse_change(text: str, where: str) -> Change:
    """One change in the GM's words (module docstring), or a FuegoError naming ``where``."""
    subject, sep, value = text.partition("=")
    subject, value = subject.strip(), value.strip()
    word, _, target = subject.partition(" ")
    kinds = {k.value: k for k in ChangeKind}
    text = text.strip()
    start = _said(text, where)
    if not sep or word.lower() not in kinds:
        raise FuegoError(f"{start}not a change: expected one of {', '.join(kinds)}, then '=' "
                         "and a value", where=where,
                         tip=f"a change is one of: {SYNTAX}")
    kind = kinds[word.lower()]
    named = target.strip() or None
    form = f"write it {FORMS[kind]}"
    if kind in _TARGETED and named is None:
        raise FuegoError(f"{start}say which {kind.value} to change, before the '='",
                         where=where, tip=form)
    if kind not in _TARGETED and kind is not ChangeKind.PLAN and named is not None:
        raise FuegoError(f"{start}{kind.value}= takes no name before '=', not {named!r}",
                         where=where, tip=form)
    if not value:
        raise FuegoError(f"{start}nothing after '=': expected a value there",
                         where=where, tip=form)
    states = [s.value for s in BarrierState
              if kind is ChangeKind.DOOR or s is not BarrierState.LOCKED]
    if kind in (ChangeKind.DOOR, ChangeKind.WINDOW) and value.lower() not in states:
        raise FuegoError(f"{start}a {kind.value} can be made {', '.join(states[:-1])} or "
                         f"{states[-1]}, not {value!r}", where=where, tip=form)
    return Change(kind, named, value, text)


def parse_vary(text: str, where: str | None = None) -> VariantSpec:
    """One ``--vary`` value: changes separated by ``;``, the variant named by its text."""
    where = where or f"--vary {text.strip()!r}"
    parts = [p for p in (p.strip() for p in text.split(";")) if p]
    if not parts:
        raise FuegoError("no change in it: expected one change, or several separated by "
                         "semicolons", where=where, tip=f"a change is one of: {SYNTAX}")
    return VariantSpec("; ".join(parts), tuple(parse_change(p, where) for p in parts), where)


def read_sweep_file(path: str) -> list[VariantSpec]:
    """The variants of a sweep file (YAML, read by :func:`fuego.files.read_text`)::

        variants:
          - name: front door open        # optional: the changes' text by default
            change: door front door=open  # one change, or a list of them
          - change: [fire=ground:E3, wind=strong]
    """
    from fuego.files import read_text
    from fuego.scenario.source import parse

    text = read_text(path, limit=MAX_SWEEP_BYTES, what="a sweep file")
    located, _ = parse(text, path)

    def where(*keys: Any) -> str:
        line = located.line(keys)
        key = ".".join(str(k) for k in keys)
        return f"{path}:{line}: {key}" if line else f"{path}: {key}"

    data = located.data
    example = "variants: [{name: front door open, change: 'door front door=open'}]"
    if not isinstance(data, dict) or not isinstance(data.get("variants"), list):
        raise FuegoError("a sweep file holds 'variants:', a list", where=path,
                         tip=f"for example: {example}")
    unknown = sorted(set(data) - {"variants"})
    if unknown:
        raise FuegoError(f"unknown key {unknown[0]!r}", where=where(unknown[0]),
                         tip="a sweep file holds only 'variants:' (runs, rounds and seed are "
                             "given on the command line)")
    out = []
    for n, entry in enumerate(data["variants"]):
        if not isinstance(entry, dict) or "change" not in entry:
            raise FuegoError("a variant is a mapping with 'change:' (and 'name:')",
                             where=where("variants", n), tip=f"for example: {example}")
        extra = sorted(set(entry) - {"name", "change"})
        if extra:
            raise FuegoError(f"unknown key {extra[0]!r}", where=where("variants", n, extra[0]),
                             tip="a variant has 'name:' and 'change:'")
        changes = entry["change"]
        changes = [changes] if isinstance(changes, str) else changes
        if not isinstance(changes, list) or not changes or not all(
                isinstance(c, str) for c in changes):
            raise FuegoError("'change:' is a change or a list of them, in words",
                             where=where("variants", n, "change"),
                             tip=f"a change is one of: {SYNTAX}")
        parsed = tuple(parse_change(c, where("variants", n, "change", k))
                       for k, c in enumerate(changes))
        name = entry.get("name")
        if name is not None and not isinstance(name, str):
            raise FuegoError("'name:' is text", where=where("variants", n, "name"))
        out.append(VariantSpec(name or "; ".join(c.text for c in parsed), parsed,
                               where("variants", n)))
    return out


# -- a variant's scenario -------------------------------------------------------------------------
def _fire(value: str, like: Any, where: str, text: str) -> Any:
    from fuego.scenario.spec import FireSpec

    area, _, fd = value.partition(" ")
    fd = fd.strip()
    if fd and not fd.isdigit():
        raise FuegoError(f"{_said(text, where)}the Fire Dice after the area are a number, not "
                         f"{fd!r}", where=where, tip=f"for example {text.partition('=')[0]}="
                                                     f"{area.strip()} 4")
    dice = int(fd) if fd else (like.fd if like is not None else 3)
    return FireSpec.model_construct(
        area=area.strip(), fd=dice,
        temperature=like.temperature if like is not None else None,
        kind=like.kind if like is not None else None)


def _barrier(entries: list, change: Change, where: str) -> int:
    """The index of the door or window ``change`` names: by its name, its place
    (``ground:G5-ground:G6``) or its two rooms (``pantry/street``)."""
    name = (change.target or "").lower()
    for k, entry in enumerate(entries):
        if entry.name and entry.name.lower() == name:
            return k
    for k, entry in enumerate(entries):
        at = entry.at
        if at is not None and name in {"-".join(at).lower() if isinstance(at, (tuple, list))
                                       else str(at).lower()}:
            return k
    pair = {p.strip().lower() for p in name.split("/")}
    if len(pair) == 2:
        for k, entry in enumerate(entries):
            if entry.between and {r.lower() for r in entry.between} == pair:
                return k
    from fuego.errors import one_of

    named = [e.name for e in entries if e.name] + [
        "/".join(e.between) for e in entries if e.between and not e.name]
    raise FuegoError(f"{_said(change.text, where)}no {change.kind.value} {change.target!r}",
                     where=where, tip=f"name one of: {one_of(named)}" if named else
                     f"the scenario has no {change.kind.value} to change")


def _value(text: str) -> Any:
    """A rules value as YAML would read it (a number, true/false, or text)."""
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _set_fires(spec: Any, changes: Sequence[Change], where: str) -> None:
    """fire= replaces the scenario's starting fires (all of them, once), fire+= adds one."""
    fires = [c for c in changes if c.kind in (ChangeKind.FIRE, ChangeKind.ADD_FIRE)]
    like = spec.fires[0] if spec.fires else None
    if any(c.kind is ChangeKind.FIRE for c in fires):
        spec.fires = []
    for change in fires:
        spec.fires.append(_fire(change.value, like, where, change.text))


def _set_barrier(spec: Any, change: Change, where: str) -> None:
    door = change.kind is ChangeKind.DOOR
    entries: list[Any] = spec.doors if door else spec.windows
    i = _barrier(entries, change, where)
    closed, broken, locked = BARRIER_STATES[BarrierState(change.value.lower())]
    state = {"closed": closed, "broken": broken, **({"locked": locked} if door else {})}
    entries[i] = entries[i].model_copy(update=state)


def _set_fuel(spec: Any, change: Change, where: str) -> None:
    name = (change.target or "").lower()
    key = next((r for r, room in spec.rooms.items()
                if name in (r.lower(), (room.name or "").lower())), None)
    if key is None:
        from fuego.errors import one_of

        raise FuegoError(f"{_said(change.text, where)}no room {change.target!r}", where=where,
                         tip=f"name one of: {one_of(list(spec.rooms))}")
    fuel: Any = int(change.value) if change.value.isdigit() else change.value
    spec.rooms[key] = spec.rooms[key].model_copy(update={"fuel": fuel})


def _set_wind(spec: Any, change: Change, where: str) -> None:
    force, _, direction = change.value.partition(" ")
    update = {"wind": force.strip(), **({"direction": direction.strip()}
                                        if direction.strip() else {})}
    spec.weather = spec.weather.model_copy(update=update)


def _set_direction(spec: Any, change: Change, where: str) -> None:
    spec.weather = spec.weather.model_copy(update={"direction": change.value})


def _set_rule(spec: Any, change: Change, where: str) -> None:
    from fuego.scenario.spec import RulesSpec

    key = (change.target or "").replace("-", "_")
    if key not in RulesSpec.model_fields:
        from fuego.errors import one_of

        raise FuegoError(f"{_said(change.text, where)}no rule {change.target!r}", where=where,
                         tip=f"name one of: {one_of(list(RulesSpec.model_fields))}")
    spec.rules = spec.rules.model_copy(update={key: _value(change.value)})


#: How each kind of change edits the spec (fires are set together; plans are the sweep's).
_SETTERS: dict[ChangeKind, Callable[[Any, Change, str], None]] = {
    ChangeKind.DOOR: _set_barrier, ChangeKind.WINDOW: _set_barrier, ChangeKind.FUEL: _set_fuel,
    ChangeKind.WIND: _set_wind, ChangeKind.DIRECTION: _set_direction,
    ChangeKind.RULES: _set_rule,
}


def apply_changes(scenario: Scenario, variant: VariantSpec) -> Scenario:
    """The scenario with ``variant``'s changes (plans aside), checked as a whole file is."""
    from fuego.errors import ScenarioError
    from fuego.scenario.model import Scenario, loads

    spec = scenario.spec.model_copy(deep=True)
    _set_fires(spec, variant.changes, variant.where)
    for change in variant.changes:
        setter = _SETTERS.get(change.kind)
        if setter is not None:
            setter(spec, change, variant.where)
    text = Scenario(spec, scenario.source, dict(scenario.symbols)).to_yaml()
    try:
        return loads(text, source=f"{scenario.source} as varied by {variant.name!r}")
    except ScenarioError as exc:
        # the problem's place is in the varied text, not a file the GM wrote: say the key
        first = exc.problems[0] if exc.problems else exc
        key = (first.where or "").rsplit(": ", 1)[-1] if first.where else ""
        raise FuegoError(f"this variant is not a valid scenario: {key + ': ' if key else ''}"
                         f"{first.message}", where=variant.where,
                         tip=first.tip or "check the names and values of its changes") from None


# -- the sweep ------------------------------------------------------------------------------------
#: The shares compared between variants: (JSON key, the hero statuses counted).
HERO_SHARES = (("p_escaped", ("escaped",)), ("p_down", ("knocked-out", "dead")),
               ("p_killed", ("dead",)))


@dataclass
class SweepResult:
    """One :class:`ForecastResult` per variant (the first: the scenario as written)."""

    variants: list[VariantSpec]
    results: list[ForecastResult]
    runs: int
    rounds: int
    seed: int
    label: str = ""
    #: the runs asked for each variant, when Ctrl-C stopped the sweep before all were played
    asked: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def _hero_count(self, result: ForecastResult, h: int, statuses: Sequence[str]) -> int:
        row = result.counts.hero_status[h][result.rounds]
        return sum(row[STATUSES.index(s)] for s in statuses)

    def shares(self, v: int) -> dict[str, Any]:
        """Variant ``v``'s shares as integer counts: (runs it happened in, runs)."""
        r = self.results[v]
        out: dict[str, Any] = {"fire_still_burning": (r.counts.out_round[r.rounds + 1], r.runs)}
        for h, name in enumerate(r.counts.heroes):
            for key, statuses in HERO_SHARES:
                out[f"{name}: {key}"] = (self._hero_count(r, h, statuses), r.runs)
        for k, room in enumerate(r.counts.rooms):
            hist = r.counts.room_first[k]
            out[f"room {room}: p_ever"] = (sum(hist.values()), r.runs)
        return out

    def difference(self, v: int) -> dict[str, Any]:
        """Variant ``v`` minus the first: per share ``[difference, low, high]`` (95 %), and
        per hero the mean Dramatic Wounds' difference."""
        base, mine = self.shares(0), self.shares(v)
        out: dict[str, Any] = {}
        for key, (k, n) in mine.items():
            k0, n0 = base.get(key, (0, 0))
            if not n or not n0:
                continue
            low, high = newcombe(k, n, k0, n0)
            out[key] = [round(k / n - k0 / n0, 6), round(low, 6), round(high, 6)]
        r, r0 = self.results[v], self.results[0]
        for h, name in enumerate(r.counts.heroes):
            if name in r0.counts.heroes and r.runs and r0.runs:
                h0 = r0.counts.heroes.index(name)
                a, b = r.counts.hero_final_wounds[h], r0.counts.hero_final_wounds[h0]
                d, low, high = mean_difference(a, r.runs, b, r0.runs)
                out[f"{name}: mean_dramatic_wounds"] = [round(d, 6), round(low, 6),
                                                        round(high, 6)]
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every variant's summary and difference from the first, as plain JSON data."""
        out: dict[str, Any] = {
            "sweep": {
                "scenario": self.results[0].title if self.results else "",
                "runs": self.runs, "rounds": self.rounds, "seed": self.seed,
                "run_seed": "Roller(seed).spawn(i).seed = (seed * 1000003 + i) mod 2**48, "
                            "the same in every variant",
                "difference": "variant minus the first, with its 95% interval: "
                              "[difference, low, high] (shares: Newcombe's hybrid score "
                              "interval; means: normal)",
            },
            "variants": [],
        }
        if self.asked is not None:
            out["sweep"]["interrupted"] = {"runs_asked": self.asked,
                                           "runs_finished": [r.runs for r in self.results]}
        for v, (spec, result) in enumerate(zip(self.variants, self.results)):
            out["variants"].append({
                "name": spec.name,
                "changes": [c.text for c in spec.changes],
                "forecast": result.summary(),
                **({"difference": self.difference(v)} if v else {}),
            })
        return out


def told_apart(difference: Sequence[float]) -> bool:
    """Can the runs tell this difference from none? ``[difference, low, high]``
    (:meth:`SweepResult.difference`): its interval leaves out 0 (the table's ``*``)."""
    return difference[1] > 0 or difference[2] < 0


class SweepInterrupted(Exception):
    """Ctrl-C during a sweep: ``result`` holds the runs finished before it."""

    def __init__(self, result: SweepResult) -> None:
        super().__init__("sweep interrupted")
        self.result = result


def sweep(scenario: Scenario, variants: Sequence[VariantSpec], runs: int = 200,
          rounds: int | None = None, seed: int = 1, jobs: int = 1,
          plans: Sequence[str] = (), progress: Callable[[int, int], None] | None = None,
          executor: Executor | None = None) -> SweepResult:
    """Forecast the scenario as written and each of ``variants``, ``runs`` runs each.

    ``plans``: the ``--plan`` texts for every variant (a variant's ``plan=`` changes come
    after them; both change the scenario's own plans, as ``--plan`` does). The runs of all the variants are
    work units of one batch for ``executor`` (default: ``jobs`` processes). Ctrl-C raises
    :class:`SweepInterrupted` with the runs finished.
    """
    from fuego.engine.plans import parse_plans

    check_number("runs", runs, 1, MAX_RUNS, f"a forecast plays 1 to {MAX_RUNS} runs")
    rounds = rounds_for(scenario, rounds)
    check_number("jobs", jobs, 1, MAX_JOBS, f"use 1 to {MAX_JOBS} processes")
    check_seed(seed)
    every = [VariantSpec(BASELINE, (), "the scenario"), *variants]
    if len(every) > MAX_VARIANTS:
        raise FuegoError(f"a sweep holds at most {MAX_VARIANTS} variants, not {len(every)}",
                         tip="split it into several sweeps")
    cast = scenario.build(0)
    arrivals = scenario.arrivals
    setups = []
    for spec in every:
        varied = apply_changes(scenario, spec) if spec.changes else scenario
        texts = [*plans, *(c.value if c.target is None else f"{c.target}={c.value}"
                           for c in spec.changes if c.kind is ChangeKind.PLAN)]
        try:
            hero_plans = (parse_plans(texts, cast.heroes, arrivals, base=varied.plans)
                          if texts else varied.plans)
        except FuegoError as exc:
            if not spec.changes:  # (the scenario as written: the --plan alone is wrong)
                raise FuegoError(exc.message, where="--plan", tip=exc.tip) from None
            raise FuegoError(f"{_said(spec.name, spec.where)}{exc.message}", where=spec.where,
                             tip=exc.tip) from None
        setups.append(Setup.of(varied, rounds, seed, hero_plans))
    del cast
    if executor is None:
        chunk = chunk_size(runs * len(every), jobs)
        executor = executor_for(jobs if runs * len(every) > chunk else 1)
    else:
        chunk = executor.unit_runs(runs * len(every))
    units = [u for v in range(len(every)) for u in units_of(v, seed, runs, chunk)]
    totals = [s.variant.counts() for s in setups]

    def result(asked: int | None = None) -> SweepResult:
        return SweepResult(list(every), [s.result(t, jobs, asked) for s, t in zip(setups, totals)],
                           runs, rounds, seed, executor.label if executor else "", asked)

    try:
        executor.run([s.variant for s in setups], units, totals, progress)
    except KeyboardInterrupt:
        raise SweepInterrupted(result(runs)) from None
    return result()
