"""The players' own dice at a roll prompt: a total, or the dice as rolled.

``17`` is a total. ``3 7 9 10+4 2`` (or ``3, 7, 9, 14, 2``) are the dice as rolled, one number per
die: fuego keeps the highest as the pool says and adds them up (and the bonus). A die that rolled
10 under ten again is written with what it rolled next (``10+4``, ``10+10+2``) or as its sum
(``14``). Anything the pool cannot produce is refused with the reason: a face of 0 or over 10,
a 10 that should have rolled again, a die over 10 on a roll without ten again, the wrong number
of dice, a total below the pool's lowest or one it cannot make (1 on a 2k2; 10 on a 1k1, whose
10 always rolls again). Action dice (Panache d10, never ten again) are read the same way.
"""

from __future__ import annotations

import re

from fuego.dice.roller import Pool
from fuego.errors import RuleError

#: The longest number read at a prompt (a total past a million is a typo, not a roll).
MAX_DIGITS = 6
_DIE = re.compile(r"^\d+(?:\+\d+)*$")


def _number(word: str, what: str = "a total") -> int:
    if len(word) > MAX_DIGITS:
        raise RuleError(f"{word[:12]}... is too long for {what} ({len(word)} digits)",
                        tip=f"at most {MAX_DIGITS} digits")
    return int(word)


def is_whole(word: str) -> bool:
    """A short run of ASCII digits (``isdecimal`` alone lets through ``٣`` and 5,000 digits)."""
    return word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS


def die_value(word: str, explode: bool) -> int:
    """One die as written: ``7``, ``10+4``, ``14`` (ten again); RuleError says why not."""
    parts = _die_parts(word)
    if len(parts) == 1 and parts[0] > 10:
        return _die_total(word, parts[0], explode)
    if len(parts) > 1:
        _rolls_again(word, parts, explode)
    if any(p > 10 for p in parts):
        raise RuleError(f"{word!r}: a d10 shows 1-10, not {max(parts)}")
    if explode and parts[-1] == 10:
        raise RuleError(f"{word!r}: a 10 rolls again (ten again)",
                        tip=f"add the next roll: {word}+N")
    return sum(parts)


def _die_parts(word: str) -> list[int]:
    """The rolls a die is written as (``10+4``: 10 and 4), none of them 0."""
    if not _DIE.match(word) or not word.isascii():
        raise RuleError(f"{word!r} is not a die", tip="a die is a number 1-10, or 10+N when a "
                                                      "10 rolled again (ten again)")
    parts = [_number(p, "a die") for p in word.split("+")]
    for p in parts:
        if p == 0:
            raise RuleError(f"{word!r}: a d10 reads 1-10, not 0",
                            tip="the face marked 0 is a 10: type 10+N with the next roll "
                                "(ten again), or 10 where there is none")
    return parts


def _die_total(word: str, total: int, explode: bool) -> int:
    """A die written as its total over 10 (``14``): only with ten again, and not ending on a
    10 (that rolls again)."""
    if not explode:
        raise RuleError(f"{word!r}: a die over 10 needs ten again, and this roll has none",
                        tip="each die is 1-10 here")
    if total % 10 == 0:
        raise RuleError(f"{word!r}: a die that totals {total} ends on a 10, which rolls "
                        f"again", tip="add the next roll, e.g. 10+10+3")
    return total


def _rolls_again(word: str, parts: list[int], explode: bool) -> None:
    """A die written as its rolls (``10+4``): only with ten again, every roll but the last a
    10."""
    if not explode:
        raise RuleError(f"{word!r}: this roll has no ten again (a 10 stays 10)",
                        tip="each die is 1-10 here")
    if any(p != 10 for p in parts[:-1]):
        raise RuleError(f"{word!r}: only a 10 rolls again", tip="e.g. 10+4 or 10+10+2")


def dice_words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text.strip()) if w]


def read_roll(text: str, pool: Pool) -> tuple[int, list[int] | None]:
    """The total ``text`` gives for ``pool`` and the dice it lists (None for a bare total)."""
    words = dice_words(text)
    if not words:
        raise RuleError("no total and no dice", tip="a total (17) or the dice (3 7 9 10+4 2)")
    n = pool.normalized()
    if len(words) == 1 and "+" not in words[0]:
        if not words[0].isascii() or not words[0].isdigit():
            raise RuleError(f"{text!r} is not a total or dice",
                            tip="the player's total (17), the dice as rolled (3 7 9 10+4 2), "
                                "or Enter and fuego rolls")
        total = _number(words[0])
        possible(total, pool)
        return total, None
    dice = [die_value(w, n.explode) for w in words]
    if len(dice) != n.rolled:
        fold = "" if (n.rolled, n.kept) == (pool.rolled, pool.kept) else \
            f" (the ten-dice rule makes {pool.rolled}k{pool.kept} {n.rolled}k{n.kept})"
        raise RuleError(f"{pool} rolls {n.rolled} di{'e' if n.rolled == 1 else 'ce'}{fold}: "
                        f"{len(dice)} given", tip="one number per die, or the total")
    total = kept_total(dice, n)
    return total, dice


def kept_total(dice: list[int], pool: Pool) -> int:
    """The highest ``kept`` of ``dice`` summed, plus the bonus (a normalized pool)."""
    return sum(sorted(dice, reverse=True)[:pool.kept]) + pool.bonus


def possible(total: int, pool: Pool) -> None:
    """RuleError unless ``pool`` can total ``total``."""
    from fuego.dice.odds import distribution

    dist = distribution(pool)
    low, high = min(dist), max(dist)
    if total < low:
        raise RuleError(f"{pool} cannot total {total}: its lowest total is {low}",
                        tip="check the total, or type the dice as rolled")
    if total > high and not pool.normalized().explode:
        raise RuleError(f"{pool} cannot total {total}: its highest total is {high}",
                        tip="check the total, or type the dice as rolled")
    if total <= high and total not in dist:
        why = " (a die that shows 10 rolls again)" if pool.normalized().explode else ""
        raise RuleError(f"{pool} cannot total {total}{why}",
                        tip="check the total, or type the dice as rolled")


def read_action_dice(text: str, panache: int) -> list[int]:
    """A hero's action dice as the player rolled them: Panache d10, never ten again."""
    words = dice_words(text)
    dice = [die_value(w, False) for w in words]
    if len(dice) != panache:
        raise RuleError(f"Panache {panache} rolls {panache} action di"
                        f"{'e' if panache == 1 else 'ce'}: {len(dice)} given",
                        tip="one number 1-10 per die, or Enter and fuego rolls")
    return sorted(dice)
