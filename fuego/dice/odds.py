"""Exact odds of roll-and-keep pools (and plain dice), computed with ``icepool``.

The distribution is that of :class:`fuego.dice.roller.Roller`: the ten-dice rule first, then each die a
d10 whose 10s roll again and add to the same die (ten again), then the highest ``kept`` dice
summed, plus the bonus. Keeping 0 dice totals the bonus alone.

Ten again has no end, so one die's chain is cut after :data:`EXPLODE_DEPTH` extra rolls; the
cut chain keeps its value so far. The part of the distribution that moves is at most
``10 * 10 ** -(EXPLODE_DEPTH + 1)`` (ten dice), far below :data:`MAX_ERROR`.

``icepool`` is imported inside the functions, never at module level: ``fuego --help`` and every
command that needs no odds start without it. Results are cached per folded pool.
"""

from __future__ import annotations

import math
from functools import lru_cache

from fuego.dice.roller import Plain, Pool
from fuego.errors import DiceError, LimitError

#: Extra rolls of one die's ten-again chain that the exact computation follows.
EXPLODE_DEPTH = 7
#: Bound on the probability mass that the cut chain may misplace (ten dice, depth above).
MAX_ERROR = 1e-6
#: Plain dice whose ``count * sides`` exceeds this are refused (the convolution gets slow).
MAX_PLAIN_OUTCOMES = 2000

assert 10 * 10.0 ** -(EXPLODE_DEPTH + 1) < MAX_ERROR


#: The tags of a roll-and-keep pool's and a plain roll's keys in the distributions' cache.
_POOL, _PLAIN = "pool", "plain"


def distribution(pool: Pool | Plain) -> dict[int, float]:
    """Exact distribution ``{total: probability}`` of a pool's total (or a plain roll's sum).

    The dict is a fresh copy, sorted by total; its probabilities sum to 1 (within float error).
    """
    return dict(_table(pool))


def chance(pool: Pool | Plain, tn: int) -> float:
    """Probability that the total meets ``tn`` (raises called are in it: rules.formulas)."""
    return _chance(pool, tn)


def mean(pool: Pool | Plain) -> float:
    """Expected total of a pool (or plain roll)."""
    return _mean(pool)


# -- cached internals ---------------------------------------------------------------------------
def _key(pool: Pool | Plain) -> tuple:
    """What the distribution depends on: the folded pool without its bonus, or the plain roll."""
    if isinstance(pool, Pool):
        p = pool.normalized()
        kept = p.kept if p.rolled else 0
        return (_POOL, p.rolled, kept, p.explode), p.bonus
    if isinstance(pool, Plain):
        if pool.count * pool.sides > MAX_PLAIN_OUTCOMES:
            raise LimitError(
                f"exact odds of {pool} are beyond fuego's limits",
                tip=f"plain dice with count x sides up to {MAX_PLAIN_OUTCOMES}, e.g. 2d6 or 100d20",
            )
        return (_PLAIN, pool.count, pool.sides), pool.bonus
    raise DiceError(f"not a dice pool: {pool!r}", tip="parse it first with fuego.dice.roller.parse")


@lru_cache(maxsize=256)
def _shape(key: tuple) -> tuple[tuple[int, float], ...]:
    """Distribution of the dice alone (no bonus) as sorted ``(total, probability)`` pairs."""
    import icepool

    if key[0] == _POOL:
        _, rolled, kept, explode = key
        if kept == 0:
            return ((0, 1.0),)
        die = icepool.d10.explode(depth=EXPLODE_DEPTH) if explode else icepool.d10
        result = die.pool(rolled).highest(kept).sum()
    else:
        _, count, sides = key
        result = _sum_of(icepool.d(sides), count)
    denominator = result.denominator()
    return tuple((int(outcome), q / denominator) for outcome, q in sorted(result.items()))


def _sum_of(die, count: int):
    """The sum of ``count`` rolls of ``die`` by doubling: about log2(count) convolutions.
    (icepool's ``count @ die`` adds one die per level of recursion: RecursionError from 967.)"""
    total = None
    while count:
        if count & 1:
            total = die if total is None else total + die
        count >>= 1
        if count:
            die = die + die
    return total


@lru_cache(maxsize=1024)
def _shifted(pool: Pool | Plain) -> tuple[tuple[int, float], ...]:
    key, bonus = _key(pool)
    return tuple((total + bonus, p) for total, p in _shape(key))


def _table(pool: Pool | Plain) -> tuple[tuple[int, float], ...]:
    if not isinstance(pool, (Pool, Plain)):
        raise DiceError(f"not a dice pool: {pool!r}", tip="parse it first with fuego.dice.roller.parse")
    return _shifted(pool)


@lru_cache(maxsize=4096)
def _chance(pool: Pool | Plain, target: int) -> float:
    return min(1.0, math.fsum(p for total, p in _table(pool) if total >= target))


@lru_cache(maxsize=1024)
def _mean(pool: Pool | Plain) -> float:
    return math.fsum(total * p for total, p in _table(pool))
