"""``fuego show FILE [--level NAME_OR_INDEX]``: draw a scenario's floor plans in the terminal.

Draws each level (top floor first) as it stands at the start of play: rooms, walls by
material, doors and windows open or closed, stairs, fuel, features, heroes and the starting
fires, with a legend. Colour on a terminal; plain text when piped or with ``--no-color``.
"""

from __future__ import annotations

import sys

import click

from fuego.cli import SEED


@click.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--level", "-l", "level", default=None, metavar="NAME_OR_INDEX",
              help="Draw only this level (its name, e.g. ground, or its index in the file).")
@click.option("--no-color", "--no-colour", "no_color", is_flag=True, help="Plain text, no colour.")
@click.option("--ascii", "ascii_only", is_flag=True, help="ASCII characters only (no box lines).")
@click.option("--seed", type=SEED, default=None, help="Seed for building the scene (modules).")
def show(file: str, level: str | None, no_color: bool, ascii_only: bool, seed: int | None) -> None:
    """Draw the floor plan of scenario FILE with a legend."""
    from fuego.cli.mapcmd import play_to
    from fuego.render.terminal import plan_text
    from fuego.scenario.model import load

    scenario = load(file)
    scene = play_to(scenario, seed or 0, 0)  # (as play starts: fire breaks cleared, say)
    encoding = (getattr(sys.stdout, "encoding", None) or "ascii").lower()
    if not ascii_only:
        try:
            "┼═█≈".encode(encoding)
        except (LookupError, UnicodeEncodeError):
            ascii_only = True
    lines = plan_text(scene, level, symbols=scenario.symbols, ascii=ascii_only)
    header = f"{scenario.title}  ({scenario.source})"
    color = not no_color and sys.stdout.isatty()
    if color:
        from rich.console import Console

        console = Console(highlight=False, soft_wrap=True)
        console.print(header, style="bold", markup=False)
        for line in lines:
            console.print(line)
    else:
        click.echo(header)
        for line in lines:
            click.echo(line.plain)
