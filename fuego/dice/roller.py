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

from fuego.errors import DiceError, LimitError

#: Limits on what a user may ask for (docs/reliability.md). A pool folds to at most 10k10, so
#: the cap only guards against absurd bonuses and numbers that would not fit a sheet.
MAX_DICE = 1000
MAX_BONUS = 10_000
#: A ten-again chain longer than this many faces is cut (probability 1e-99): rolls stay bounded.
MAX_CHAIN = 100

#: Every die is a decimal digit of one draw: a uniform number below 10**BLOCK, written out with
#: its leading zeros, holds BLOCK independent uniform digits (the digit ``0`` is a face of 1,
#: ``9`` a face of 10). One 64-bit draw gives BLOCK digits; draws at or above _LIMIT (a whole
#: number of 10**BLOCK) are drawn again, so every digit is exactly uniform.
BLOCK = 18
_SPAN = 10**BLOCK
_LIMIT = (1 << 64) // _SPAN * _SPAN
_FORMAT = b"%0" + str(BLOCK).encode() + b"d"
#: a digit's code less the face it stands for (``b"0"`` is 48, a face of 1), and a ten's code
_ZERO = ord("0") - 1
_TEN = ord("9")


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


@dataclass(slots=True)
class Roller:
    """The one source of randomness of a scene: a seeded ``random.Random`` passed down explicitly.

    Same seed, same calls -> same results. ``getstate``/``setstate`` let sessions resume mid-stream.
    """

    seed: int | None = None
    _rng: random.Random = field(init=False, repr=False)
    _bits: Callable[[int], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._bits = self._rng.getrandbits  # bound once: every die is drawn through it

    # Copies and pickles carry the generator; the bound draw is made again for the copy's own
    # generator (a copied bound builtin method would still draw from the original's).
    def __getstate__(self) -> tuple:
        return self.seed, self._rng

    def __setstate__(self, state: tuple) -> None:
        self.seed, self._rng = state
        self._bits = self._rng.getrandbits

    def _block(self) -> bytes:
        """BLOCK dice as digits (:data:`BLOCK`): ``b"0"`` is a face of 1, ``b"9"`` a ten."""
        bits = self._bits
        n = bits(64)
        while n >= _LIMIT:
            n = bits(64)
        return _FORMAT % (n % _SPAN)

    # -- roll and keep ---------------------------------------------------------------------
    def total(self, pool: Pool, dice: list[int] | None = None) -> int:
        """Roll a pool after the ten-dice rule and keep the highest dice: the one roll of fuego.

        The pool's dice are the first digits of one block (:meth:`_block`); each die that shows
        a ten then rolls again and adds, in the order of the dice, from the digits that follow
        (a new block when they run out). Ten-again dice are worth 11 or more, so they are
        always the highest. ``dice``: a list that receives every die's value, in order (the
        record of :meth:`roll`)."""
        rolled, kept, bonus, explode = pool._shape
        digits = self._block()
        faces = digits[:rolled]
        if explode and _TEN in faces:
            tens = faces.count(_TEN)
            chains = []
            at = rolled  # each ten's chain: the digits up to and including its first non-ten
            for _ in range(tens):
                end = at
                while True:
                    if end == len(digits):
                        digits += self._block()
                    if digits[end] != _TEN or end - at == MAX_CHAIN - 2:
                        break
                    end += 1
                end += 1
                chains.append(10 + sum(digits[at:end]) - _ZERO * (end - at))
                at = end
            if dice is not None:
                left = iter(chains)
                dice += [next(left) if f == _TEN else f - _ZERO for f in faces]
            if tens >= kept:
                return sum(sorted(chains)[tens - kept:]) + bonus
            return (sum(sorted(faces)[rolled - kept:rolled - tens]) - _ZERO * (kept - tens)
                    + sum(chains) + bonus)
        if dice is not None:
            dice += [f - _ZERO for f in faces]
        if kept < rolled:
            return sum(sorted(faces)[rolled - kept:]) - _ZERO * kept + bonus
        return sum(faces) - _ZERO * rolled + bonus

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
        """Panache d10 that never explode: the phases in which a character may act, sorted."""
        digits = self._block()
        while len(digits) < panache:
            digits += self._block()
        return sorted([f - _ZERO for f in digits[:max(0, panache)]])

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
