"""Many rolls at once: numpy replays the roller's own random stream, draw for draw.

A round of a big fire rolls tens of thousands of pools (every fire's actions, every fire's
fuel check). :func:`totals` gives exactly what ``[roller.total(p) for p in pools]`` gives -
the same draws in the same order, the same totals, and the roller left in the same state - but
computes the faces and the kept sums as arrays. This works because ``random.Random`` and
numpy's legacy ``RandomState`` are the same Mersenne Twister with the same 53-bit doubles, so
the generator's state moves from one to the other and back (``tests/test_batch.py`` checks the
equality on random pools, forced ten-again chains and the state afterwards).

Only long lists are worth it (moving the state costs ~0.1 ms): below ``dice.MIN_BATCH`` pools,
and whenever numpy is missing, the plain loop runs. numpy is imported on first use only.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from fuego.dice.roller import CODE_BONUS_OFFSET, CODE_DICE, MAX_CHAIN, MIN_BATCH

if TYPE_CHECKING:
    import random

    from fuego.dice.roller import Pool

_np = None
_CODE = attrgetter("_code")


def load_numpy():
    """numpy, imported on first use, or False where it is missing (then rolls go one by one)."""
    global _np
    if _np is None:
        try:
            import numpy
        except ImportError:  # an install without numpy still rolls, one pool at a time
            _np = False
        else:
            _np = numpy
    return _np


class _Stream:
    """The roller's generator as numpy's Mersenne Twister, drawing on from the same point."""

    _twister = None  # one numpy generator, given each stream's state in turn

    def __init__(self, np, rng: random.Random) -> None:
        self.np = np
        self.rng = rng
        self.saved = rng.getstate()
        if _Stream._twister is None:
            _Stream._twister = np.random.RandomState()
        self.twister = _Stream._twister
        internal = self.saved[1]
        self.twister.set_state(("MT19937", internal[:-1], internal[-1]))

    def faces(self, n: int):
        """The next ``n`` d10 faces (1-10), as ``int(random() * 10) + 1`` makes them."""
        faces = self.twister.random_sample(n)
        faces *= 10.0
        faces = faces.astype(self.np.int32)
        faces += 1
        return faces

    def close(self) -> None:
        """Hand the state back to the roller's generator: it goes on after the last draw."""
        _, keys, pos, _, _ = self.twister.get_state()
        self.rng.setstate((3, (*keys.tolist(), pos), self.saved[2]))


def _exploding(stream: _Stream, dice: int):
    """Values of ``dice`` ten-again dice drawn one after another, or None for a chain that
    reaches MAX_CHAIN (never seen: probability 1e-100; the caller rolls one by one).

    A die takes draws up to and including its first face below 10, so the k-th such face ends
    the k-th die; a die's value is ten for each ten in its run, plus that last face."""
    np = stream.np
    if not dice:
        return np.zeros(0, np.int64)
    pieces = [stream.faces(dice)]
    ends = [(pieces[0] != 10).nonzero()[0]]
    drawn, found = dice, len(ends[0])
    while found < dice:  # the last dice are still rolling tens: draw just what they need
        more = stream.faces(dice - found)
        ends.append((more != 10).nonzero()[0] + drawn)
        pieces.append(more)
        drawn += len(more)
        found += len(ends[-1])
    faces = np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
    last = np.concatenate(ends) if len(ends) > 1 else ends[0]
    runs = np.empty_like(last)  # each die's faces: its tens, then the face that ends it
    runs[0] = last[0] + 1
    np.subtract(last[1:], last[:-1], out=runs[1:])
    if int(runs.max()) >= MAX_CHAIN:
        return None
    runs -= 1
    runs *= 10
    runs += faces[last]
    return runs


def totals(rng: random.Random, pools: Sequence[Pool], total, codes=None) -> list[int]:
    """The totals of ``pools`` rolled in order from ``rng``; ``total(pool)`` rolls one the
    plain way (the roller's own :meth:`~fuego.dice.roller.Roller.total`, for short lists).
    ``codes``: the pools' ``_code`` as an array, when the caller has them already."""
    np = load_numpy() if len(pools) >= MIN_BATCH else False
    if not np:
        return [total(p) for p in pools]
    # Each pool's shape after the ten-dice rule, as one int (dice.shape_code), unpacked here.
    if codes is None:
        codes = np.fromiter(map(_CODE, pools), np.int64, len(pools))
    rest, kept = np.divmod(codes, CODE_DICE)
    rest, rolled = np.divmod(rest, CODE_DICE)
    bonus, explode = np.divmod(rest, 2)
    bonus -= CODE_BONUS_OFFSET
    stream = _Stream(np, rng)
    values = []
    # runs of pools with and without ten again, in order
    cuts = [0, *((explode[1:] != explode[:-1]).nonzero()[0] + 1).tolist(), len(pools)]
    dice_before = np.zeros(len(pools) + 1, np.int64)
    rolled.cumsum(out=dice_before[1:])
    for start, end in zip(cuts, cuts[1:]):
        dice = int(dice_before[end] - dice_before[start])
        part = _exploding(stream, dice) if explode[start] else stream.faces(dice)
        if part is None:  # the roller's own generator has not moved yet
            return [total(p) for p in pools]
        values.append(part)
    stream.close()
    return _keep_highest(np, np.concatenate(values), rolled, kept, bonus)


#: A die's value in :func:`_keep_highest`'s sort keys: a ten-again chain is cut at MAX_CHAIN
#: faces, so a value is below 10 * MAX_CHAIN and fits these low bits.
_VALUE_BITS = (10 * MAX_CHAIN).bit_length()


def _keep_highest(np, values, rolled, kept, bonus) -> list[int]:
    """Per pool (its ``rolled`` values in a row), the sum of the ``kept`` highest plus bonus.

    One sort of the whole batch, not one per row: each value's key is its row above, the value
    below (negated), so the rows stay in order and each row runs highest first. A row's kept
    sum is then a difference of prefix sums."""
    ends = rolled.cumsum()
    starts = ends - rolled
    if (kept != rolled).any():
        keys = (np.arange(1, len(rolled) + 1, dtype=np.int64) << _VALUE_BITS).repeat(rolled)
        keys -= values  # row r (from 1): r * 2**bits - value, above row r - 1's keys
        keys.sort()
        keys &= (1 << _VALUE_BITS) - 1
        values = (1 << _VALUE_BITS) - keys
        ends = starts + kept
    sums = np.zeros(len(values) + 1, np.int64)
    values.cumsum(out=sums[1:])
    return (sums[ends] - sums[starts] + bonus).tolist()


def action_dice(rng: random.Random, panaches: Sequence[int], one) -> list[list[int]]:
    """Each character's action dice (Panache d10, no ten again, sorted), rolled in order: what
    ``[one(p) for p in panaches]`` gives (``one``: the roller's own ``action_dice``)."""
    np = load_numpy() if len(panaches) >= MIN_BATCH else False
    if not np:
        return [one(p) for p in panaches]
    counts = np.fromiter(panaches, np.int64, len(panaches))
    if counts.min() < 0:  # (no dice, as one by one: not seen in play)
        return [one(p) for p in panaches]
    stream = _Stream(np, rng)
    faces = stream.faces(int(counts.sum()))
    stream.close()
    # One sort of all the dice: each face's key is its character above, the face below, so
    # the characters stay in order and each one's dice come out sorted.
    keys = (np.arange(len(panaches), dtype=np.int64) << 4).repeat(counts)
    keys += faces
    keys.sort()
    keys &= 15
    widths = np.unique(counts).tolist()
    if len(widths) == 1:  # one Panache for all: the rows as they are
        return keys.reshape(len(panaches), widths[0]).tolist()
    flat = keys.tolist()
    out: list = []
    start = 0
    for width in panaches:
        out.append(flat[start:start + width])
        start += width
    return out
