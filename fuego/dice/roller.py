"""7th Sea roll-and-keep dice, plus the plain d6/2d6/d10 rolls of the optional modules.

Rules (``RULES-NOTES.md``, Dice): ``XkY`` rolls X d10 and keeps the Y highest. Ten again: a die
showing 10 is rolled again and the new face is *added to the same die*, as often as it shows 10;
the chain is one die when choosing what to keep. The ten-dice rule folds pools over 10 dice:
rolled dice beyond 10 become kept dice, then kept dice beyond 10 become +10 each.

All randomness flows from one :class:`Roller` that wraps one seeded ``random.Random``; nothing in
fuego touches the global ``random`` module.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fuego.errors import DiceError, LimitError

if TYPE_CHECKING:
    import numpy as np

#: Limits on what a user may ask for (docs/reliability.md). A pool folds to at most 10k10, so
#: the cap only guards against absurd bonuses and numbers that would not fit a sheet.
MAX_DICE = 1000
MAX_BONUS = 10_000
#: A ten-again chain longer than this many faces is cut (probability 1e-99): rolls stay bounded.
MAX_CHAIN = 100

#: Pools are drawn many at once, per shape (rolled, kept, ten again), by :meth:`Roller.pools`;
#: single rolls are served from a buffer such batches fill. A shape's first batch is small (a
#: scene that rolls it twice pays for a few) and each next one twice the last, up to BATCH.
FIRST_BATCH = 8
BATCH = 4096
#: Dice are bytes of the generator's stream: a byte below _BYTE_LIMIT (a whole number of tens)
#: is a face, its value modulo 10 plus 1; the others are dropped, so every face is exactly uniform.
_BYTE_LIMIT = 250
#: The drop and the face as one ``bytes.translate`` (delete, then map): a C pass over the stream
#: where numpy would take a compare, a mask and a lookup, each a call costing more than a small
#: batch's work.
_DROPPED = bytes(range(_BYTE_LIMIT, 256))
_FACE_OF = bytes(b % 10 + 1 for b in range(256))


@dataclass(frozen=True, slots=True)
class Pool:
    """A roll-and-keep pool ``rolled k kept + bonus``; ``explode`` is ten again."""

    rolled: int
    kept: int
    bonus: int = 0
    explode: bool = True
    #: its notation, written on first use (every logged roll quotes its pool)
    _notation: str | None = field(default=None, init=False, repr=False, compare=False)
    #: (rolled, kept, bonus, ten again) after the ten-dice rule, kept at most rolled: what
    #: :meth:`Roller.total` reads, made once per pool (pools are shared by every fire)
    _shape: tuple[int, int, int, bool] = field(default=(0, 0, 0, True), init=False, repr=False,
                                               compare=False)
    #: (rolled, kept, ten again) after the ten-dice rule: the shape whose batches it is drawn from
    _key: tuple[int, int, bool] = field(default=(0, 0, True), init=False, repr=False,
                                        compare=False)

    def __post_init__(self) -> None:
        if self.rolled < 0 or self.kept < 0:
            raise DiceError(f"a pool cannot have a negative number of dice: {self}")
        if self.rolled > MAX_DICE or self.kept > MAX_DICE or abs(self.bonus) > MAX_BONUS:
            raise LimitError(
                f"pool {self} is beyond fuego's limits",
                tip=f"at most {MAX_DICE} dice rolled or kept and a bonus within +/-{MAX_BONUS}",
            )
        n = self.normalized()
        object.__setattr__(self, "_shape", (n.rolled, n.kept, n.bonus, n.explode))
        object.__setattr__(self, "_key", (n.rolled, n.kept, n.explode))

    def normalized(self) -> Pool:
        """Apply the ten-dice rule: rolled over 10 become kept, then kept over 10 become +10.

        12k6 -> 10k8, 15k10 -> 10k10+50, 11k11 -> 10k10+20. Kept is then capped at rolled.
        """
        rolled, kept, bonus = self.rolled, self.kept, self.bonus
        if rolled > 10:
            kept += rolled - 10
            rolled = 10
        if kept > 10:
            bonus += 10 * (kept - 10)
            kept = 10
        kept = min(kept, rolled)
        if (rolled, kept, bonus) == (self.rolled, self.kept, self.bonus):
            return self
        # The fold of a pool within the limits may carry a bonus past MAX_BONUS (1000k1000 ->
        # 10k10+19800): it is the same roll, so it skips the limit check instead of failing.
        folded = object.__new__(Pool)
        for name, value in (("rolled", rolled), ("kept", kept), ("bonus", bonus)):
            object.__setattr__(folded, name, value)
        object.__setattr__(folded, "explode", self.explode)
        object.__setattr__(folded, "_notation", None)
        object.__setattr__(folded, "_shape", (rolled, kept, bonus, self.explode))
        object.__setattr__(folded, "_key", (rolled, kept, self.explode))
        return folded

    def with_unkept(self, n: int) -> Pool:
        """Add (or with n < 0 remove) unkept dice: only X changes, never below 0."""
        return Pool(max(0, self.rolled + n), self.kept, self.bonus, self.explode)

    def with_kept(self, n: int) -> Pool:
        """Add (or remove) kept dice: X and Y change together, never below 0."""
        return Pool(max(0, self.rolled + n), max(0, self.kept + n), self.bonus, self.explode)

    def plus(self, bonus: int) -> Pool:
        return Pool(self.rolled, self.kept, self.bonus + bonus, self.explode)

    def no_explode(self) -> Pool:
        return Pool(self.rolled, self.kept, self.bonus, False)

    def __str__(self) -> str:
        text = f"{self.rolled}k{self.kept}"
        if self.bonus:
            text += f"{self.bonus:+d}"
        if not self.explode:
            text += " (no ten again)"
        return text

    @property
    def notation(self) -> str:
        """The pool as an expression :func:`parse_pool` reads back (``!`` marks no ten again)."""
        text = self._notation
        if text is None:
            text = f"{self.rolled}k{self.kept}"
            if self.bonus:
                text += f"{self.bonus:+d}"
            if not self.explode:
                text += "!"
            object.__setattr__(self, "_notation", text)
        return text


@dataclass(frozen=True, slots=True)
class Plain:
    """A plain ``NdS+B`` roll (d6, 2d6, d10) for the modules from the other rule texts."""

    count: int
    sides: int
    bonus: int = 0

    def __str__(self) -> str:
        text = f"{self.count if self.count != 1 else ''}d{self.sides}"
        return text + (f"{self.bonus:+d}" if self.bonus else "")


_POOL_RE = re.compile(r"^\s*(\d+)\s*k\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*(!)?\s*$", re.IGNORECASE)
_PLAIN_RE = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)
_MAX_EXPR = 64


def _int(digits: str, expr: str) -> int:
    if len(digits) > 9:
        raise LimitError(f"{expr!r} asks for more than fuego rolls", tip=f"at most {MAX_DICE} dice")
    return int(digits)


def parse(expr: str) -> Pool | Plain:
    """Read ``7k4``, ``4k2+5``, ``10k10-3``, ``5k3!`` (no ten again), ``d6``, ``2d6``, ``d10+1``."""
    if not isinstance(expr, str) or len(expr) > _MAX_EXPR:
        raise DiceError(f"not a dice expression: {str(expr)[:_MAX_EXPR]!r}")
    m = _POOL_RE.match(expr)
    if m:
        rolled, kept = _int(m.group(1), expr), _int(m.group(2), expr)
        bonus = _int(m.group(4), expr) * (-1 if m.group(3) == "-" else 1) if m.group(3) else 0
        if rolled == 0:
            raise DiceError(
                f"{expr!r} rolls no dice", tip="roll at least one die, e.g. 1k1 (keeping 0 is allowed)"
            )
        return Pool(rolled, kept, bonus, explode=m.group(5) is None)
    m = _PLAIN_RE.match(expr)
    if m:
        count = _int(m.group(1), expr) if m.group(1) else 1
        sides = _int(m.group(2), expr)
        bonus = _int(m.group(4), expr) * (-1 if m.group(3) == "-" else 1) if m.group(3) else 0
        if count < 1 or sides < 2:
            raise DiceError(f"{expr!r} is not a roll", tip="e.g. d6, 2d6 or d10")
        if count > MAX_DICE or sides > 1000 or abs(bonus) > MAX_BONUS:
            raise LimitError(f"{expr!r} is beyond fuego's limits", tip=f"at most {MAX_DICE}d1000")
        return Plain(count, sides, bonus)
    raise DiceError(
        f"cannot read the dice expression {expr!r}",
        tip="write roll-and-keep as XkY (7k4, 4k2+5, 5k3! for no ten again) or plain dice as 2d6",
    )


def parse_pool(expr: str) -> Pool:
    """Like :func:`parse` but only roll-and-keep pools are accepted."""
    result = parse(expr)
    if not isinstance(result, Pool):
        raise DiceError(f"{expr!r} is not a roll-and-keep pool", tip="write it as XkY, e.g. 7k4")
    return result


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die of a pool: its faces in order (``(10, 10, 4)`` is one die worth 24)."""

    faces: tuple[int, ...]

    @property
    def value(self) -> int:
        return sum(self.faces)

    def __str__(self) -> str:
        return "+".join(map(str, self.faces)) if len(self.faces) > 1 else str(self.faces[0])


@dataclass(frozen=True, slots=True)
class RollResult:
    """A rolled pool: every die, which were kept, the total."""

    pool: Pool
    dice: tuple[DieRoll, ...]
    kept_index: tuple[int, ...]
    total: int

    @property
    def kept(self) -> list[int]:
        return [self.dice[i].value for i in self.kept_index]

    @property
    def dropped(self) -> list[int]:
        keep = set(self.kept_index)
        return [d.value for i, d in enumerate(self.dice) if i not in keep]

    def to_dict(self) -> dict:
        return {
            "pool": self.pool.notation,
            "dice": [list(d.faces) for d in self.dice],
            "kept": self.kept,
            "dropped": self.dropped,
            "bonus": self.pool.normalized().bonus,
            "total": self.total,
        }


def _faces(value: int) -> tuple[int, ...]:
    """A die's faces from its value: a ten-again chain is its tens then the face that ended it
    (that face is never a ten, unless the chain was cut at MAX_CHAIN)."""
    if value < 10:
        return (value,)
    tens, last = divmod(value, 10)
    return (10,) * tens + ((last,) if last else ())


class Pools:
    """Many rolls of one pool, drawn at once (:meth:`Roller.pools`): each roll's total and dice."""

    __slots__ = ("totals", "dice")

    def __init__(self, totals: np.ndarray, dice: np.ndarray) -> None:
        #: each roll's total: its kept dice plus the bonus
        self.totals = totals
        #: each roll's dice as rolled, one row a roll (a ten-again die is its chain's sum)
        self.dice = dice

    def __len__(self) -> int:
        return len(self.totals)


def _kept_sums(dice: np.ndarray, kept: int) -> np.ndarray:
    """Each row's ``kept`` highest dice, summed."""
    import numpy as np  # (numpy loads with the first batch: fuego --help and the CLI need none)

    # (the ufuncs' own reduce: ndarray.sum's Python wrapper is most of a small batch's cost)
    rolled = dice.shape[1]
    if kept >= rolled:
        return np.add.reduce(dice, axis=1, dtype=np.int64)
    if kept == 0:
        return np.zeros(len(dice), dtype=np.int64)
    if kept == 1:  # (the highest die: no sort)
        return np.maximum.reduce(dice, axis=1).astype(np.int64)
    return np.add.reduce(np.sort(dice, axis=1)[:, rolled - kept:], axis=1, dtype=np.int64)


@dataclass(slots=True)
class Roller:
    """The one source of randomness of a scene: a seeded ``random.Random`` passed down explicitly.

    Pools are drawn in batches per shape from its stream (:meth:`pools`) and single rolls served
    from the batches (:meth:`total`). Same seed, same calls -> same results;
    ``getstate``/``setstate`` (the stream and what the batches hold) let sessions resume
    mid-stream.
    """

    seed: int | None = None
    _rng: random.Random = field(init=False, repr=False)
    #: per shape (rolled, kept, ten again): the totals not yet served, next last; the batch's
    #: dice; the next batch's size
    _totals: dict[tuple[int, int, bool], list[int]] = field(init=False, repr=False, compare=False)
    _dice: dict[tuple[int, int, bool], np.ndarray] = field(init=False, repr=False, compare=False)
    #: the batch's dice as lists, made when a roll's dice are first asked for (its record)
    _rows: dict[tuple[int, int, bool], list[list[int]]] = field(init=False, repr=False,
                                                                compare=False)
    _sizes: dict[tuple[int, int, bool], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._totals, self._dice, self._rows, self._sizes = {}, {}, {}, {}

    def __getstate__(self) -> tuple:
        return self.seed, self.getstate()

    def __setstate__(self, state: tuple) -> None:
        self.seed = state[0]
        self._rng = random.Random()
        self._totals, self._dice, self._rows, self._sizes = {}, {}, {}, {}
        self.setstate(state[1])

    # -- roll and keep ---------------------------------------------------------------------
    def _faces(self, count: int) -> np.ndarray:
        """``count`` uniform d10 faces (1-10) from the stream, in order."""
        import numpy as np

        randbytes = self._rng.randbytes
        got = randbytes(count + (count >> 5) + 8).translate(_FACE_OF, _DROPPED)
        while len(got) < count:  # (rare: more than one byte in 32 dropped)
            want = count - len(got)
            got += randbytes(want + (want >> 5) + 8).translate(_FACE_OF, _DROPPED)
        # (int16: a ten-again die adds its chain's faces)
        return np.frombuffer(got, dtype=np.uint8, count=count).astype(np.int16)

    def _draw(self, rolled: int, explode: bool, count: int) -> np.ndarray:
        """``count`` rolls of ``rolled`` dice, one row each; with ten again every die that shows
        10 rolls again and adds, all such dice together, round after round (a chain is cut
        after MAX_CHAIN faces)."""

        dice = self._faces(count * rolled).reshape(count, rolled)
        if explode:
            flat = dice.reshape(-1)
            live = (flat == 10).nonzero()[0]  # (np.flatnonzero's wrapper costs as much again)
            chain = 1
            while live.size and chain < MAX_CHAIN:
                more = self._faces(live.size)
                flat[live] += more
                live = live[more == 10]
                chain += 1
        return dice

    def pools(self, pool: Pool, count: int) -> Pools:
        """Roll ``pool`` ``count`` times at once, after the ten-dice rule, keeping the highest
        dice of each roll: the one roll of fuego (:meth:`total` serves single rolls from these
        batches). Ten-again dice are worth 11 or more, so they are always the highest."""
        rolled, kept, bonus, explode = pool._shape
        drawn = self._pools((rolled, kept, explode), count)
        return Pools(drawn.totals + bonus, drawn.dice) if bonus else drawn

    def _pools(self, key: tuple[int, int, bool], count: int) -> Pools:
        """:meth:`pools` of the shape ``key`` (rolled, kept, ten again), before any bonus: the
        draw both :meth:`pools` and the batches that serve :meth:`total` make."""
        rolled, kept, explode = key
        dice = self._draw(rolled, explode, count)
        return Pools(_kept_sums(dice, kept), dice)

    def _refill(self, key: tuple[int, int, bool]) -> list[int]:
        size = self._sizes.get(key, FIRST_BATCH)
        self._sizes[key] = min(2 * size, BATCH)
        drawn = self._pools(key, size)
        self._dice[key] = drawn.dice
        self._rows.pop(key, None)
        totals = self._totals[key] = drawn.totals[::-1].tolist()
        return totals

    def total(self, pool: Pool, dice: list[int] | None = None) -> int:
        """Roll a pool: the next roll of its shape's batch (:meth:`pools`), plus its bonus.

        ``dice``: a list that receives every die's value, in order (the record of :meth:`roll`)."""
        key = pool._key
        totals = self._batch(key)
        total = totals.pop()
        if dice is not None:
            dice += self._served(key, totals)
        return total + pool._shape[2]

    def totals(self, pools: list[Pool]) -> list[int]:
        """Roll each of ``pools`` in turn: exactly what as many :meth:`total` calls draw (each
        shape's batch served in order, refilled where it runs out), for a batch of rolls such as
        a round's fuel checks."""
        batch = self._batch
        return [batch(pool._key).pop() + pool._shape[2] for pool in pools]

    def _batch(self, key: tuple[int, int, bool]) -> list[int]:
        """The rolls of shape ``key`` left to serve, refilled when none are (the next served is
        the last)."""
        totals = self._totals.get(key)
        return totals if totals else self._refill(key)

    def _served(self, key: tuple[int, int, bool], totals: list[int]) -> list[int]:
        """The dice of the roll of shape ``key`` just served (its batch's rows made lists on
        the first ask)."""
        rows = self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = self._dice[key].tolist()
        return rows[len(rows) - len(totals) - 1]

    def roll(self, pool: Pool) -> RollResult:
        """:meth:`total` with the record of every die (the same draws): which were kept."""
        values: list[int] = []
        total = self.total(pool, values)
        kept = pool._shape[1]
        order = sorted(range(len(values)), key=lambda i: (-values[i], i))
        kept_index = tuple(sorted(order[:kept]))
        dice = tuple(DieRoll(_faces(v)) for v in values)
        return RollResult(pool, dice, kept_index, total)

    def action_dice(self, panache: int) -> list[int]:
        """Panache d10 that never explode: the phases in which a character may act, sorted (the
        dice of a ``Panache k Panache`` roll without ten again, from its batches)."""
        return self.action_dice_all((panache,))[0]

    def action_dice_all(self, panaches: Iterable[int]) -> list[list[int]]:
        """:meth:`action_dice` for each of ``panaches`` in turn (the same draws as one by one):
        every fire's at the start of a round."""
        batch, served = self._batch, self._served
        out: list[list[int]] = []
        for panache in panaches:
            if panache <= 0:
                out.append([])
                continue
            key = (panache, panache, False)
            totals = batch(key)
            totals.pop()
            out.append(sorted(served(key, totals)))
        return out

    # -- plain dice --------------------------------------------------------------------------
    def die(self, sides: int) -> int:
        return self._rng.randrange(sides) + 1

    def d6(self) -> int:
        return self.die(6)

    def d10(self) -> int:
        return self.die(10)

    def dr(self) -> tuple[int, int]:
        """An ASL/Alpha Strike dice roll: two d6, returned separately (doubles matter there)."""
        return self.die(6), self.die(6)

    def plain(self, roll: Plain) -> tuple[list[int], int]:
        faces = [self.die(roll.sides) for _ in range(roll.count)]
        return faces, sum(faces) + roll.bonus

    # -- other draws ---------------------------------------------------------------------------
    def random(self) -> float:
        return self._rng.random()

    def choice(self, seq):
        if not seq:
            raise IndexError("choice from an empty sequence")
        return self._rng.choice(seq)

    def shuffle(self, items: list) -> None:
        """Shuffle in place (``random.Random.shuffle``: ties in the phase order)."""
        self._rng.shuffle(items)

    def getstate(self) -> tuple:
        """The stream's state and, per shape, the dice its batch has not served yet (plain
        tuples and bytes: states compare with ``==`` and print)."""
        held = tuple(
            (key, self._sizes[key], self._dice[key][len(self._dice[key]) - len(totals):].tobytes())
            for key, totals in sorted(self._totals.items()) if totals)
        sizes = tuple(sorted(self._sizes.items()))
        return self._rng.getstate(), sizes, held

    def setstate(self, state: tuple) -> None:
        import numpy as np

        stream, sizes, held = state
        self._rng.setstate(stream)
        self._sizes = dict(sizes)
        self._totals, self._dice, self._rows = {}, {}, {}
        for key, _size, data in held:
            rows = np.frombuffer(data, dtype=np.int16).reshape(-1, key[0]).copy()
            self._dice[key] = rows
            self._totals[key] = _kept_sums(rows, key[1])[::-1].tolist()

    def spawn(self, key: int) -> Roller:
        """An independent roller for sub-run ``key`` (forecast runs), stable across processes."""
        base = self.seed if self.seed is not None else 0
        return Roller(seed=(base * 1_000_003 + key) & 0xFFFFFFFFFFFF)


def trait_check(trait: int) -> Pool:
    """``Trait k Trait``; a trait of 0 still rolls one die (counted 0 by the caller)."""
    return Pool(max(1, trait), trait)


def skill_roll(trait: int, knack: int) -> Pool:
    """``(Trait + Knack) k Trait``."""
    return Pool(max(1, trait + knack), trait)
