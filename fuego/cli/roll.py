"""``fuego roll``: roll dice with a seeded roller and show every die.

One line per roll. Roll-and-keep dice show their ten-again chain (``10+10+3`` is one die) and
the dropped dice in parentheses, in the order they were rolled; then the bonus and the total.
The seed is printed first, so any roll can be made again with ``--seed``.
"""

from __future__ import annotations

import json
import secrets

import click

from fuego.dice.roller import Plain, Pool, Roller, RollResult, parse
from fuego.errors import DiceError, LimitError

#: At most this many rolls per command, and this many dice rolled in all (so nothing hangs).
MAX_TIMES = 100_000
MAX_DICE_ROLLED = 1_000_000
#: Seeds are non-negative integers below this (``random.Random`` takes any; this keeps them sane).
MAX_SEED = 2**63


def check_seed(seed: int | None) -> int:
    """The seed to use: the given one if within limits, else a fresh one from the OS."""
    if seed is None:
        return secrets.randbelow(10**9)
    if not 0 <= seed < MAX_SEED:
        raise LimitError(f"seed {seed} is out of range", tip="use a whole number from 0 to 2**63-1")
    return seed


def _pool_line(result: RollResult) -> tuple[str, dict]:
    pool = result.pool
    folded = pool.normalized()
    kept = set(result.kept_index)
    shown = [str(die) if i in kept else f"({die})" for i, die in enumerate(result.dice)]
    head = pool.notation
    if (folded.rolled, folded.kept, folded.bonus) != (pool.rolled, pool.kept, pool.bonus):
        head += f" (as {folded.notation})"
    parts = [f"{head}: " + (" ".join(shown) if shown else "no dice")]
    if folded.bonus:
        parts.append(f"bonus {folded.bonus:+d}")
    parts.append(f"total {result.total}")
    return "  ".join(parts), result.to_dict()


def _plain_line(plain: Plain, faces: list[int], total: int) -> tuple[str, dict]:
    parts = [f"{plain}: " + " ".join(map(str, faces))]
    if plain.bonus:
        parts.append(f"bonus {plain.bonus:+d}")
    parts.append(f"total {total}")
    data = {
        "pool": str(plain),
        "dice": faces,
        "kept": faces,
        "dropped": [],
        "bonus": plain.bonus,
        "total": total,
    }
    return "  ".join(parts), data


@click.command("roll")
@click.argument("expr")
@click.option("--seed", type=int, default=None, help="Seed of the roller (default: a fresh one, printed).")
@click.option("--times", type=int, default=1, show_default=True, help=f"How many rolls (up to {MAX_TIMES}).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per roll per line.")
@click.option("--no-explode", is_flag=True, help="No ten again: 10s do not roll again.")
def roll(expr: str, seed: int | None, times: int, as_json: bool, no_explode: bool) -> None:
    """Roll EXPR: roll-and-keep (7k4, 4k2+5, 12k6, 5k3! for no ten again) or plain dice (2d6, d10).

    \b
    Examples:
      fuego roll 7k4
      fuego roll 5k3 --seed 42 --times 3
      fuego roll 2d6 --json
    """
    dice = parse(expr)
    if not 1 <= times <= MAX_TIMES:
        raise LimitError(f"--times {times} is out of range", tip=f"roll from 1 to {MAX_TIMES} times")
    per_roll = dice.normalized().rolled if isinstance(dice, Pool) else dice.count
    if per_roll * times > MAX_DICE_ROLLED:
        raise LimitError(
            f"{expr!r} x {times} rolls is {per_roll * times} dice, beyond fuego's limits",
            tip=f"at most {MAX_DICE_ROLLED} dice in one command; roll fewer times",
        )
    if isinstance(dice, Pool) and no_explode:
        dice = dice.no_explode()
    elif isinstance(dice, Plain) and no_explode:
        raise DiceError(
            f"--no-explode applies to roll-and-keep pools, not {expr!r}",
            tip="plain dice never roll again; drop --no-explode",
        )
    seed = check_seed(seed)
    roller = Roller(seed)
    out: list[str] = [] if as_json else [f"seed {seed}"]
    for n in range(1, times + 1):
        if isinstance(dice, Pool):
            line, data = _pool_line(roller.roll(dice))
        else:
            faces, total = roller.plain(dice)
            line, data = _plain_line(dice, faces, total)
        if as_json:
            out.append(json.dumps({"seed": seed, "roll": n, **data}))
        else:
            out.append(f"#{n} {line}" if times > 1 else line)
        if len(out) >= 1000:
            click.echo("\n".join(out))
            out.clear()
    if out:
        click.echo("\n".join(out))
