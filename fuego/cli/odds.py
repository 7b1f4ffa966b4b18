"""``fuego odds``: the exact chance that a roll meets a target number (see ``fuego.dice.odds``)."""

from __future__ import annotations

import json

import click

from fuego.dice.roller import Pool, parse
from fuego.errors import LimitError
from fuego.rules.charts import TN_BY_NAME
from fuego.rules.formulas import with_raises

MAX_TN = 1000
MAX_RAISES = 20


def read_tn(text: str) -> int:
    """A TN as a number (0-1000) or a name: mundane, easy, average, hard, very-hard, heroic."""
    name = text.strip().lower().replace("-", " ").replace("_", " ")
    if name in TN_BY_NAME:
        return TN_BY_NAME[name]
    try:
        tn = int(text.strip())
    except ValueError:
        names = ", ".join(n.replace(" ", "-") for n in TN_BY_NAME)
        raise LimitError(f"--tn {text!r} is not a target number",
                         tip=f"a number 0-{MAX_TN} or one of {names}") from None
    if not 0 <= tn <= MAX_TN:
        raise LimitError(f"--tn {tn} is out of range", tip=f"a target number from 0 to {MAX_TN}")
    return tn


@click.command("odds")
@click.argument("expr")
@click.option("--tn", "tn_text", required=True, metavar="TN",
              help=f"Target number 0-{MAX_TN}, or a name such as hard.")
@click.option("--raises", type=int, default=0, show_default=True,
              help=f"Raises called, 0-{MAX_RAISES} (+5 TN each).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def odds(expr: str, tn_text: str, raises: int, as_json: bool) -> None:
    """Exact chance that EXPR meets --tn (plus 5 per raise), with ten again.

    EXPR is roll-and-keep (5k3, 4k2+5, 5k3! for no ten again) or plain dice (2d6).

    \b
    Examples:
      fuego odds 5k3 --tn 25
      fuego odds 7k4 --tn hard --raises 2
      fuego odds 2d6 --tn 8 --json
    """
    from fuego.dice import odds as exact

    dice = parse(expr)
    tn = read_tn(tn_text)
    if not 0 <= raises <= MAX_RAISES:
        raise LimitError(f"--raises {raises} is out of range", tip=f"call from 0 to {MAX_RAISES} raises")
    target = with_raises(tn, raises)
    probability = exact.chance(dice, target)
    mean = exact.mean(dice)
    if as_json:
        data = {
            "pool": dice.notation if isinstance(dice, Pool) else str(dice),
            "tn": tn,
            "raises": raises,
            "target": target,
            "probability": probability,
            "mean": round(mean, 6),
        }
        if isinstance(dice, Pool):
            data["rolled_as"] = dice.normalized().notation
            data["ten_again"] = dice.explode
        click.echo(json.dumps(data))
        return
    head = dice.notation if isinstance(dice, Pool) else str(dice)
    if isinstance(dice, Pool) and dice.normalized() != dice:
        head += f" (as {dice.normalized().notation})"
    against = f"TN {tn}"
    if raises:
        against += f" with {raises} raise{'s' if raises > 1 else ''} (needs {target})"
    totals = exact.distribution(dice)
    can_explode = isinstance(dice, Pool) and dice.explode and dice.normalized().kept > 0
    click.echo(f"{head} vs {against}: {_percent(probability, target <= min(totals), can_explode)}")
    no_ten_again = isinstance(dice, Pool) and not dice.explode
    click.echo(f"mean total {mean:.2f}" + (", no ten again" if no_ten_again else ""))


def _percent(p: float, certain: bool, can_explode: bool) -> str:
    if certain:
        return "100% (certain)"
    if p < exact_error() and can_explode:
        return f"less than {exact_error() * 100:g}% (ten again makes it possible, barely)"
    if p == 0.0:
        return "0% (impossible)"
    if p < 0.0001:
        return f"{p * 100:.2g}% ({p:.3g})"
    if p > 0.9999:
        return f"{p * 100:.4f}% (fails {1 - p:.2g})"
    return f"{p * 100:.2f}% ({p:.4f})"


def exact_error() -> float:
    from fuego.dice.odds import MAX_ERROR

    return MAX_ERROR
