"""The rule formulas: every computation the rules make from their numbers, written once.

The numbers live in ``charts.py`` (the rule charts); whatever combines them (a TN with raises called, the Fire
Dice of a new fire, the range Fire Dice are kept in) lives here, so a house rule on a TN changes
the roll and the odds shown together.
"""

from __future__ import annotations

from fuego.rules.charts import (
    FIRE_STATS,
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
