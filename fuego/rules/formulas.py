"""The rule formulas: every computation the rules make from their numbers, written once.

The numbers live in ``charts.py`` (the rule charts); whatever combines them (a TN with raises called, the Fire
Dice of a new fire, the range Fire Dice are kept in) lives here, so a house rule on a TN changes
the roll and the odds shown together.
"""

from __future__ import annotations

import math

from fuego.rules.charts import (
    AREA_FEET,
    FIRE_STATS,
    LEAP_TN_PER_YARD,
    MAX_FIRE_DICE,
    MIN_FIRE_DICE,
    RAISE_STEP,
    WOUND_LIMIT,
    Rank,
)


def raise_bonus(raises: int) -> int:
    """What called raises add to the number a roll must reach: 5 each (RULES-NOTES, Dice)."""
    return RAISE_STEP * raises


def with_raises(tn: int, raises: int) -> int:
    """The number a roll against ``tn`` must reach with ``raises`` called."""
    return tn + raise_bonus(raises)


def fire_tn(fd: int) -> int:
    """A fire's TN, 5 x its Fire Dice (003's TN column): to slip past it, smother it, put out
    clothes burning at that many dice, or withstand a blast of that strength."""
    return FIRE_STATS[fd].tn


def clamp_fire_dice(fd: int) -> int:
    """Fire Dice kept to the scale's 1-10 (003: "rated on a scale from 1 to 10")."""
    return max(MIN_FIRE_DICE, min(MAX_FIRE_DICE, fd))


def is_fire_dice(fd: int) -> bool:
    """Whether ``fd`` is on the Fire Dice scale."""
    return MIN_FIRE_DICE <= fd <= MAX_FIRE_DICE


def half_dice(fd: int) -> int:
    """Half the Fire Dice, rounded down, at least 1: a fire a fire starts (route, burn-through;
    RULES-NOTES) and clothes caught from a fire (003)."""
    return max(MIN_FIRE_DICE, fd // 2)


def knocked_out_at(rank: Rank, resolve: int) -> int:
    """Dramatic Wounds that knock a character out or put a fire out (its fuel spent): its
    Resolve (at least 1) times its rank's :data:`WOUND_LIMIT`."""
    return WOUND_LIMIT[rank] * max(1, resolve)


def crippled_at(rank: Rank, resolve: int) -> int | None:
    """Dramatic Wounds that cripple (no ten again): Resolve, for all but Henchmen (None)."""
    return None if rank is Rank.HENCHMAN else resolve


def fuel_eaten(rank: Rank, dramatic: int) -> int:
    """The fuel a fire has eaten by its Dramatic Wounds (the wound limit read backwards)."""
    return dramatic // WOUND_LIMIT[rank]


def yards(feet: float) -> int:
    """Feet to whole yards, rounding up, at least one (a leap is never free)."""
    return max(1, math.ceil(feet / 3 - 1e-9))


def leap_tn(columns: int, rows: int, levels: int, moves: int) -> int:
    """A leap's TN (003): 5 x yards across the gap, plus 2 x yards up or down, for areas
    ``columns`` and ``rows`` apart on the plan, ``levels`` apart in height, ``moves`` apart
    through open space.

    The gap is geometric, edge to edge: areas whose sides or only corners touch are 0 ft apart,
    one yard (TN 5). That holds where open space runs straight there (``moves`` no more than
    the squares and levels between); a leap that must go around a wall counts its walk, 10 ft
    for each area between (fuego's reading, docs/rules.md)."""
    if moves <= columns + rows + levels:  # straight across: the geometric gap
        across = bool(columns or rows)
        feet = math.hypot(max(0, columns - 1), max(0, rows - 1)) * AREA_FEET
    else:  # around a wall: the walk's areas between
        flat = max(0, moves - levels)
        across, feet = bool(flat), max(0, flat - 1) * AREA_FEET
    tn = LEAP_TN_PER_YARD["horizontal"] * yards(feet) if across else 0
    if levels:
        tn += LEAP_TN_PER_YARD["vertical"] * yards(levels * AREA_FEET)
    return tn
