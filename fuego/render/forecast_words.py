"""A forecast in the GM's words: who is at risk, of what, by which round, and what matters.

Pure functions of a forecast's summary (:meth:`fuego.forecast.ForecastResult.summary`, or its
JSON): the terminal summary of ``fuego forecast`` prints them first, and the PDF report's first
page shows the same lines.

- :func:`in_short`: per hero, the risk in a word with the shares and their 95 % intervals
  (killed, knocked out) and the round by which half of the downs have happened; who is never
  down; who is still inside or out in the open when the runs stop; who comes in by the script;
- :func:`what_matters_lines`: per hero at risk, the things that happened more often in the
  runs where they went down than in the rest (:mod:`fuego.forecast.levers`): the levers.
"""

from __future__ import annotations

import math
from typing import Any

from fuego.forecast.levers import MIN_RUNS
from fuego.words import plural

__all__ = ["pct", "share", "in_short", "what_matters_lines", "risk_word"]


def pct(p: float) -> str:
    """A share in whole percent; ``<1%`` and ``>99%`` rather than a misleading 0 or 100."""
    if p > 0 and round(100 * p) == 0:
        return "<1%"
    if p < 1 and round(100 * p) == 100:
        return ">99%"
    return f"{100 * p:.0f}%"


def share(p: float, ci: list[float] | None) -> str:
    """A share with its 95 % interval in points: ``80% (74-85)``."""
    if not ci:
        return pct(p)
    # the ends rounded outwards, so a share seen in some run never shows a 0-0 interval
    lo, hi = math.floor(100 * ci[0]), math.ceil(100 * ci[1])
    return f"{pct(p)} ({lo}-{hi})"


def risk_word(hero: dict[str, Any]) -> str:
    """How bad it is for a hero, in a word: from the chance of being killed or down."""
    if hero["p_killed"] >= 0.5:
        return "likely to die"
    if hero.get("p_down", 0) >= 0.25:
        return "in grave danger"
    if hero.get("p_down", 0) >= 0.05:
        return "at risk"
    return "at small risk"


def _down(hero: dict[str, Any]) -> float:
    return hero.get("p_down", hero["p_knocked_out"] + hero["p_killed"])


def in_short(data: dict[str, Any]) -> list[str]:
    """The deadliness summary: one line a hero at risk, then who is safe, still inside, in
    the open or comes in later (each line without indentation)."""
    runs = data["runs"]
    heroes: dict[str, dict[str, Any]] = data["heroes"]
    if not runs or not heroes:
        return []
    lines = []
    at_risk = sorted((n for n, v in heroes.items() if _down(v) > 0),
                     key=lambda n: (-_down(heroes[n]), -heroes[n]["p_killed"], n))
    for name in at_risk:
        v = heroes[name]
        parts = []
        for key, what in (("p_killed", "killed"), ("p_knocked_out", "knocked out")):
            if v[key] > 0:
                parts.append(f"{what} in {share(v[key], v.get(key + '_ci95'))}")
        when = v.get("median_down_round_when_down")
        line = f"{name} ({v.get('plan', 'flee')}) is {risk_word(v)}: " + ", ".join(parts)
        if when is not None:
            line += f"; down by round {when} in half of those runs"
        wounds = v.get("mean_dramatic_wounds")
        if wounds:
            line += f"; {wounds:.1f} Dramatic Wounds on average"
        lines.append(line + ".")
    return lines + _the_others(data)


def _the_others(data: dict[str, Any]) -> list[str]:
    """The lines after those of the heroes at risk: the safe, where they stand, late-comers."""
    runs, R = data["runs"], data["rounds"]
    heroes: dict[str, dict[str, Any]] = data["heroes"]
    lines = []
    safe = [n for n, v in heroes.items() if _down(v) == 0 and v.get("p_not_arrived", 0) < 1]
    if safe:
        ci = next(iter(heroes[n].get("p_killed_ci95") for n in safe), None)
        most = f" (at most {math.ceil(100 * ci[1])}% each, by the 95% interval)" if ci else ""
        lines.append(f"Never down in {runs} runs: {', '.join(safe)}{most}.")
    inside = [(n, v["p_still_inside"]) for n, v in heroes.items() if v["p_still_inside"] > 0]
    if inside:
        lines.append(f"Still standing inside when the runs stop (round {R} at most): "
                     + ", ".join(f"{n} {pct(p)}" for n, p in inside)
                     + (": the fire outlasts the forecast (more --rounds show how it ends)."
                        if data["fire_out"]["p_still_burning"] >= 0.5 else "."))
    outside = [(n, v["p_outside"]) for n, v in heroes.items() if v.get("p_outside", 0) > 0]
    if outside:
        lines.append("In the open at the end (outdoors, not gone by a way out): "
                     + ", ".join(f"{n} {pct(p)}" for n, p in outside) + ".")
    for name, v in heroes.items():
        if v.get("arrives_later"):
            when = v.get("median_arrival_round")
            missing = v.get("p_not_arrived", 0)
            line = f"{name} comes in by the script"
            line += f", by round {when} in half the runs" if when is not None else \
                " in fewer than half the runs"
            if missing:
                line += f"; not there at the end in {pct(missing)}"
            lines.append(line + ".")
    return lines


def what_matters_lines(data: dict[str, Any]) -> list[str]:
    """Per hero who went down: the levers, or why none is shown (indented lines under a
    hero's name; empty when nobody went down)."""
    heroes: dict[str, dict[str, Any]] = data["heroes"]
    lines = []
    for name, v in heroes.items():
        counted = v.get("what_matters_runs") or {}
        down, rest = counted.get("down", 0), counted.get("rest", 0)
        if not down:
            continue
        lines.append(f"{name}: down in {plural(down, 'run')}, "
                     f"up in {rest}")
        levers = v.get("what_matters") or []
        if down < MIN_RUNS:
            lines.append("  too few downs to say what matters (more --runs will)")
            continue
        if rest < MIN_RUNS:
            lines.append("  down in nearly every run: nothing to compare with (another "
                         "--plan shows what saves them)")
            continue
        if not levers:
            lines.append("  nothing stands out: no room, door or flashover was clearly more "
                         "common in the downs than in the rest")
            continue
        for lever in levers:
            when = lever.get("median_round_among_down")
            lines.append(f"  {lever['words']}: "
                         f"{share(lever['p_among_down'], lever['p_among_down_ci95'])} of the "
                         f"downs, {share(lever['p_among_rest'], lever['p_among_rest_ci95'])} "
                         "of the rest" + (f", by round {when}" if when is not None else ""))
            alike = lever.get("alike") or []
            if alike:
                more = "; ".join(alike[:2]) + (f"; and {len(alike) - 2} more"
                                                if len(alike) > 2 else "")
                lines.append(f"    (as often: {more})")
    return lines
