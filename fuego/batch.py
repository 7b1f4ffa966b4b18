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

from operator import attrgetter
from typing import TYPE_CHECKING, Sequence

from fuego.dice import CODE_BONUS_OFFSET, CODE_DICE, MAX_CHAIN, MIN_BATCH

if TYPE_CHECKING:
    import random

    from fuego.dice import Pool

_np = None
_CODE = attrgetter("_code")


def _numpy():
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
    the k-th die; a die's value is the sum of its run of faces (a difference of prefix sums)."""
    np = stream.np
    if not dice:
        return np.zeros(0, np.int64)
    pieces = [stream.faces(dice)]
    ends = [np.flatnonzero(pieces[0] != 10)]
    drawn, found = dice, len(ends[0])
    while found < dice:  # the last dice are still rolling tens: draw just what they need
        more = stream.faces(dice - found)
        ends.append(np.flatnonzero(more != 10) + drawn)
        pieces.append(more)
        drawn += len(more)
        found += len(ends[-1])
    faces = np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
    last = np.concatenate(ends) if len(ends) > 1 else ends[0]
    if last[0] + 1 >= MAX_CHAIN or (dice > 1 and int((last[1:] - last[:-1]).max()) >= MAX_CHAIN):
        return None
    values = np.cumsum(faces, dtype=np.int64)[last]
    values[1:] -= values[:-1].copy()
    return values


def totals(rng: random.Random, pools: Sequence[Pool], total) -> list[int]:
    """The totals of ``pools`` rolled in order from ``rng``; ``total(pool)`` rolls one the
    plain way (the roller's own :meth:`~fuego.dice.Roller.total`, for short lists)."""
    np = _numpy() if len(pools) >= MIN_BATCH else False
    if not np:
        return [total(p) for p in pools]
    # Each pool's shape after the ten-dice rule, as one int (dice.shape_code), unpacked here.
    codes = np.fromiter(map(_CODE, pools), np.int64, len(pools))
    rest, kept = np.divmod(codes, CODE_DICE)
    rest, rolled = np.divmod(rest, CODE_DICE)
    bonus, explode = np.divmod(rest, 2)
    bonus -= CODE_BONUS_OFFSET
    stream = _Stream(np, rng)
    values = []
    # runs of pools with and without ten again, in order
    cuts = [0, *(np.flatnonzero(explode[1:] != explode[:-1]) + 1).tolist(), len(pools)]
    dice_before = np.concatenate(([0], np.cumsum(rolled)))
    for start, end in zip(cuts, cuts[1:]):
        dice = int(dice_before[end] - dice_before[start])
        part = _exploding(stream, dice) if explode[start] else stream.faces(dice)
        if part is None:  # the roller's own generator has not moved yet
            return [total(p) for p in pools]
        values.append(part)
    stream.close()
    return _keep_highest(np, np.concatenate(values), rolled, kept, bonus)


def _keep_highest(np, values, rolled, kept, bonus) -> list[int]:
    """Per pool (its ``rolled`` values in a row), the sum of the ``kept`` highest plus bonus."""
    rows, width = len(rolled), int(rolled.max())
    if (rolled == width).all():  # one width: the values are already the rows
        grid = values.reshape(rows, width)
    else:  # rows padded with zeros, below every die
        grid = np.zeros((rows, width), np.int64)
        start = np.cumsum(rolled) - rolled  # each row's first value
        grid.ravel()[np.arange(len(values)) + np.repeat(np.arange(rows) * width - start,
                                                        rolled)] = values
    if (kept == rolled).all():  # nothing dropped
        return (grid.sum(axis=1) + bonus).tolist()
    grid.sort(axis=1)  # highest last
    keep = np.arange(width)[None, :] >= (width - kept)[:, None]
    return ((grid * keep).sum(axis=1) + bonus).tolist()


def action_dice(rng: random.Random, panaches: Sequence[int], one) -> list[list[int]]:
    """Each character's action dice (Panache d10, no ten again, sorted), rolled in order: what
    ``[one(p) for p in panaches]`` gives (``one``: the roller's own ``action_dice``)."""
    np = _numpy() if len(panaches) >= MIN_BATCH else False
    if not np:
        return [one(p) for p in panaches]
    counts = np.fromiter(panaches, np.int64, len(panaches))
    stream = _Stream(np, rng)
    faces = stream.faces(int(counts.sum()))
    stream.close()
    # A block of rows per Panache (a few), each row sorted: a character's dice in order.
    starts = np.cumsum(counts) - counts
    out: list = [None] * len(panaches)
    for width in np.unique(counts).tolist():
        rows = np.flatnonzero(counts == width)
        block = faces[starts[rows][:, None] + np.arange(width)]
        block.sort(axis=1)
        for i, dice in zip(rows.tolist(), block.tolist()):
            out[i] = dice
    return out
