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
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter

from fuego.errors import DiceError, LimitError

try:
    import cython
except ImportError:  # a pure install without Cython: the declarations below become no-ops
    class cython:  # noqa: N801 - stands in for the module
        compiled = False
        int = long = double = None

        @staticmethod
        def locals(**_):
            return lambda f: f

#: Is this module compiled (setup.py)? Then a roll is :func:`_typed_roll`'s loop in C numbers;
#: as plain Python, the straight-line rolls of :func:`_make_roll` are faster.
TYPED = cython.compiled

#: Limits on what a user may ask for (docs/reliability.md). A pool folds to at most 10k10, so
#: the cap only guards against absurd bonuses and numbers that would not fit a sheet.
MAX_DICE = 1000
MAX_BONUS = 10_000
#: A ten-again chain longer than this is cut (probability 1e-100): it keeps rolls bounded.
MAX_CHAIN = 100
#: Fewer pools than this roll one by one (fuego.dice.batch: moving the generator's state to numpy
#: and back costs about as much as rolling 100 pools).
MIN_BATCH = 128
#: ... and so do lists of fewer dice than this in all: numpy's ~0.1 ms of set-up pays for
#: itself at about a thousand dice, whatever their pools (measured pools of 3 to 10 dice and
#: action dice of 1 to 5, pure and compiled: docs/performance.md).
MIN_BATCH_DICE = 1000


#: :func:`shape_code`'s digits: 0-10 dice kept and rolled (after the ten-dice rule), and a
#: bonus offset above any bonus a pool within the limits folds to
CODE_DICE = 11
CODE_BONUS_OFFSET = 1 << 40


def shape_code(rolled: int, kept: int, bonus: int, explode: bool) -> int:
    """A normalized pool as one int, digit by digit: kept and rolled (base ``CODE_DICE``), ten
    again (base 2), then the bonus (fuego.dice.batch unpacks thousands as arrays)."""
    return kept + CODE_DICE * (rolled + CODE_DICE * (bool(explode)
                                                     + 2 * (bonus + CODE_BONUS_OFFSET)))


@dataclass(frozen=True, slots=True)
class Pool:
    """A roll-and-keep pool ``rolled k kept + bonus``; ``explode`` is ten again."""

    rolled: int
    kept: int
    bonus: int = 0
    explode: bool = True
    #: its notation, written on first use (every logged roll quotes its pool)
    _notation: str | None = field(default=None, init=False, repr=False, compare=False)
    #: its shape after the ten-dice rule as one int (:func:`shape_code`): fuego.dice.batch reads
    #: thousands at once. Arithmetic, so the same in every process (pools are pickled).
    _code: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rolled < 0 or self.kept < 0:
            raise DiceError(f"a pool cannot have a negative number of dice: {self}")
        if self.rolled > MAX_DICE or self.kept > MAX_DICE or abs(self.bonus) > MAX_BONUS:
            raise LimitError(
                f"pool {self} is beyond fuego's limits",
                tip=f"at most {MAX_DICE} dice rolled or kept and a bonus within +/-{MAX_BONUS}",
            )
        n = self.normalized()
        object.__setattr__(self, "_code", shape_code(n.rolled, n.kept, n.bonus, n.explode))

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
        object.__setattr__(folded, "_code", shape_code(rolled, kept, bonus, self.explode))
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


def _ten_again(rnd) -> int:
    """A die that showed 10 rolls again and adds (ten again): its value less one (the rolls
    below count faces from 0), the chain cut after MAX_CHAIN faces."""
    value, n, face = 10, 1, 10
    while face == 10 and n < MAX_CHAIN:
        face = int(rnd() * 10.0) + 1
        value += face
        n += 1
    return value - 1


def _make_roll(rolled: int, kept: int, explode: bool):
    """``roll(rnd, bonus)``: the total of ``rolled`` d10 keeping the ``kept`` highest, as
    straight-line code (no loop, no list of faces unless some are dropped).

    It draws exactly as :meth:`Roller.roll` does: one draw per die in order, a ten-again chain
    taking the draws right after its die's. Faces are counted from 0 and the kept dice's ones
    added back at the end. Where dice are dropped, a die stays the float ``draw * 10`` (its
    face less one is the whole part; 9 and up is a 10) until it is kept: sorting the floats
    sorts the faces, and only kept dice are truncated. About a third faster than a loop.
    """
    dice = [f"d{i}" for i in range(rolled)]
    lines = ["def roll(rnd, bonus):"]
    floats = 0 < kept < rolled
    for d in dice:
        if floats:  # (10.0: the product is the one int(rnd() * 10) truncates)
            lines.append(f"    {d} = rnd() * 10.0")
            test, again = f"{d} >= 9.0", "float(ten_again(rnd))"
        else:
            lines.append(f"    {d} = int(rnd() * 10.0)")
            test, again = f"{d} == 9", "ten_again(rnd)"
        if explode:
            lines.append(f"    if {test}:")
            lines.append(f"        {d} = {again}")
    if kept == 0:
        lines.append("    return bonus")
    elif not floats:
        lines.append(f"    return {' + '.join(dice)} + bonus + {rolled}")
    else:
        lines.append(f"    faces = [{', '.join(dice)}]")
        lines.append("    faces.sort()")
        top = " + ".join(f"int(faces[{-k - 1}])" for k in range(kept))
        lines.append(f"    return {top} + bonus + {kept}")
    namespace = {"ten_again": _ten_again}
    name = f"<fuego.dice.roller: {rolled}k{kept}{'' if explode else '!'}>"
    exec(compile("\n".join(lines) + "\n", name, "exec"), namespace)  # noqa: S102
    return namespace["roll"]


@cython.locals(rolled=cython.int, kept=cython.int, i=cython.int, j=cython.int, d=cython.double,
               total=cython.long)
def _typed_roll(rnd, rolled, kept, explode, bonus):
    """:func:`_make_roll`'s roll for any shape (``kept`` <= ``rolled`` <= 10), compiled: the
    same draws in the same order, each die as the float ``draw * 10`` (or its ten-again value
    less one) put in place among those before it, the ``kept`` highest truncated and summed."""
    faces = cython.declare(cython.double[10])
    for i in range(rolled):
        d = rnd() * 10.0
        if explode and d >= 9.0:
            d = _ten_again(rnd)
        j = i
        while j > 0 and faces[j - 1] > d:
            faces[j] = faces[j - 1]
            j -= 1
        faces[j] = d
    total = 0
    for i in range(rolled - kept, rolled):
        total += cython.cast(cython.long, faces[i])
    return total + bonus + kept


def _first_roll(explode: bool, rolled: int, kept: int):
    """The placeholder of a pool shape: makes its roll on first use and takes its place."""

    def first(rnd, bonus: int) -> int:
        roll = _ROLLS[explode][rolled][kept] = _make_roll(rolled, min(kept, rolled), explode)
        return roll(rnd, bonus)

    return first


#: [ten again][rolled][kept] -> the straight-line roll of that shape, for up to 10 dice rolled
#: and kept (keeping more than rolled keeps them all: the ten-dice rule leaves the bonus alone)
_ROLLS = [[[_first_roll(explode, r, k) for k in range(11)] for r in range(11)]
          for explode in (False, True)]
_ROLLED = attrgetter("rolled")  # a pool's dice (MIN_BATCH_DICE)


@dataclass(slots=True)
class Roller:
    """The one source of randomness of a scene: a seeded ``random.Random`` passed down explicitly.

    Same seed, same calls -> same results. ``getstate``/``setstate`` let sessions resume mid-stream.
    """

    seed: int | None = None
    _rng: random.Random = field(init=False, repr=False)
    _random: Callable[[], float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._random = self._rng.random  # bound once: every roll draws through it

    # Copies and pickles carry the generator; the bound draw is made again for the copy's own
    # generator (a copied bound builtin method would still draw from the original's).
    def __getstate__(self) -> tuple:
        return self.seed, self._rng

    def __setstate__(self, state: tuple) -> None:
        self.seed, self._rng = state
        self._random = self._rng.random

    # -- roll and keep ---------------------------------------------------------------------
    def roll(self, pool: Pool) -> RollResult:
        """Roll a pool after the ten-dice rule, keeping the highest dice."""
        p = pool.normalized()
        rnd = self._rng.random
        dice: list[DieRoll] = []
        for _ in range(p.rolled):
            face = int(rnd() * 10) + 1
            if face == 10 and p.explode:
                faces = [10]
                while face == 10 and len(faces) < MAX_CHAIN:
                    face = int(rnd() * 10) + 1
                    faces.append(face)
                dice.append(DieRoll(tuple(faces)))
            else:
                dice.append(DieRoll((face,)))
        order = sorted(range(len(dice)), key=lambda i: (-dice[i].value, i))
        kept_index = tuple(sorted(order[: p.kept]))
        total = sum(dice[i].value for i in kept_index) + p.bonus
        return RollResult(pool, tuple(dice), kept_index, total)

    def total(self, pool: Pool) -> int:
        """The total of a pool without the per-die record: the engine's hot path.

        Draws the same random numbers as :meth:`roll`, so either may be used for the same pool.
        """
        if TYPED:
            rolled, kept = pool.rolled, pool.kept
            if rolled > 10 or kept > 10:  # over ten dice: the ten-dice rule first
                pool = pool.normalized()
                rolled, kept = pool.rolled, pool.kept
            return _typed_roll(self._random, rolled, min(kept, rolled), pool.explode,
                               pool.bonus)
        try:
            roll = _ROLLS[pool.explode][pool.rolled][pool.kept]
        except IndexError:  # over ten dice: the ten-dice rule first
            p = pool.normalized()
            return _ROLLS[p.explode][p.rolled][p.kept](self._random, p.bonus)
        return roll(self._random, pool.bonus)

    def totals(self, pools: list[Pool], codes=None) -> list[int]:
        """``[self.total(p) for p in pools]``: the same draws and totals, computed as arrays for
        long lists (``fuego.dice.batch``: a round of a big fire rolls thousands of pools).
        ``codes``: the pools' shape codes as a numpy array, when the caller has them."""
        if (len(pools) < MIN_BATCH or type(self).total is not Roller.total
                or sum(map(_ROLLED, pools)) < MIN_BATCH_DICE):
            return [self.total(p) for p in pools]  # (a roller that loads its totals: tests)
        from fuego.dice.batch import totals

        return totals(self._rng, pools, self.total, codes)

    def action_dice_of(self, panaches: list[int]) -> list[list[int]]:
        """``[self.action_dice(p) for p in panaches]``, drawn as one array for long lists."""
        if (len(panaches) < MIN_BATCH or type(self).action_dice is not Roller.action_dice
                or sum(panaches) < MIN_BATCH_DICE):
            return [self.action_dice(p) for p in panaches]
        from fuego.dice.batch import action_dice

        return action_dice(self._rng, panaches, self.action_dice)

    def action_dice(self, panache: int) -> list[int]:
        """Panache d10 that never explode: the phases in which a character may act, sorted."""
        rnd = self._rng.random
        dice = [int(rnd() * 10) + 1 for _ in range(panache)]
        dice.sort()
        return dice

    # -- plain dice --------------------------------------------------------------------------
    def die(self, sides: int) -> int:
        return int(self._rng.random() * sides) + 1

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
        return seq[int(self._rng.random() * len(seq))]

    def shuffle(self, items: list) -> None:
        """Shuffle in place: ``random.Random.shuffle``'s algorithm and draws, written out so a
        long list costs one call per draw (ties in a big fire's phases are thousands long)."""
        getrandbits = self._rng.getrandbits
        for i in reversed(range(1, len(items))):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:  # rejection: uniform below n
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]

    def getstate(self):
        return self._rng.getstate()

    def setstate(self, state) -> None:
        self._rng.setstate(state)

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
