"""``fuego fire-stats``: the fire as a character, for one Fire Dice value or all ten.

The numbers come from :data:`fuego.rules.charts.FIRE_STATS` (the fire text's table, read as formulas
in RULES-NOTES). A rich table on a terminal; plain aligned text when piped; JSON on request.
"""

from __future__ import annotations

import json

import click

from fuego.errors import LimitError
from fuego.rules.charts import (
    FIRE_SIZE_EXAMPLE,
    FIRE_STATS,
    MAX_FIRE_DICE,
    MIN_FIRE_DICE,
    Temperature,
)

COLUMNS = (
    "FD", "Brawn", "Finesse/Panache", "Wits", "Destruction/Spreading", "Stealth",
    "Cold", "Regular", "Hot", "Avoid TN", "Size (example)",
)  # fmt: skip

#: Stacked headers for a terminal, so the table fits 80 columns.
TERMINAL_COLUMNS = (
    "FD", "Brawn", "Finesse\nPanache", "Wits", "Destruction\nSpreading", "Stealth",
    "Damage\ncold", "Damage\nregular", "Damage\nhot", "Avoid\nTN", "Size\n(example)",
)  # fmt: skip


def row_data(fd: int) -> dict:
    """One Fire Dice row as a JSON-ready dict."""
    s = FIRE_STATS[fd]
    return {
        "fire_dice": fd,
        "brawn": s.brawn,
        "finesse": s.finesse,
        "panache": s.panache,
        "wits": s.wits,
        "destruction": s.destruction,
        "spreading": s.spreading,
        "stealth": s.stealth,
        "damage": {t.value: s.damage[t].notation for t in Temperature},
        "tn": s.tn,
        "size": FIRE_SIZE_EXAMPLE[fd],
    }


def row_cells(fd: int) -> list[str]:
    d = row_data(fd)
    dmg = d["damage"]
    return [
        str(fd), str(d["brawn"]), str(d["finesse"]), str(d["wits"]), str(d["destruction"]),
        str(d["stealth"]), dmg["cold"], dmg["regular"], dmg["hot"], str(d["tn"]), d["size"],
    ]  # fmt: skip


@click.command("fire-stats")
@click.argument("fd", type=int, required=False, metavar="[FD]")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of rows.")
def fire_stats(fd: int | None, as_json: bool) -> None:
    """The fire-as-character table: traits, knacks, damage roll & keep by temperature, and the
    TN to avoid it, for Fire Dice FD (1-10) or for all of them.

    \b
    Examples:
      fuego fire-stats
      fuego fire-stats 5 --json
    """
    if fd is not None and not MIN_FIRE_DICE <= fd <= MAX_FIRE_DICE:
        raise LimitError(
            f"Fire Dice {fd} is out of range",
            tip=f"a fire has {MIN_FIRE_DICE} to {MAX_FIRE_DICE} Fire Dice, e.g. fuego fire-stats 5",
        )
    values = [fd] if fd is not None else list(range(MIN_FIRE_DICE, MAX_FIRE_DICE + 1))
    if as_json:
        click.echo(json.dumps([row_data(v) for v in values], indent=2))
        return

    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console()
    terminal = console.is_terminal
    if not terminal:  # piped: no colour, no box, wide enough never to wrap
        console = Console(width=200, no_color=True, highlight=False, force_terminal=False)
    table = Table(
        title="Fire as a character" if terminal else None,
        box=box.SIMPLE_HEAD if terminal else None,
        header_style="bold" if terminal else "",
        pad_edge=False,
        padding=(0, 1, 0, 0) if terminal else (0, 1),
    )
    headers: tuple[str, ...] = TERMINAL_COLUMNS if terminal else COLUMNS
    # A narrow terminal drops the size examples rather than squeezing the numbers.
    show_size = not terminal or console.width >= 100
    if not show_size:
        headers = headers[:-1]
    for i, name in enumerate(headers):
        table.add_column(name, justify="left" if i == len(COLUMNS) - 1 else "right", no_wrap=True)
    for v in values:
        table.add_row(*row_cells(v)[: len(headers)])
    if terminal:
        table.caption = "Damage: Fire Dice rolled, kept by temperature. Avoid TN: 5 x Fire Dice."
        if not show_size:
            table.caption += "\nSize examples: on a wider terminal, or with --json."
        console.print(table)
        return
    with console.capture() as captured:
        console.print(table)
    click.echo("\n".join(line.rstrip() for line in captured.get().splitlines()))
