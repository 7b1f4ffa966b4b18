"""``fuego check FILE...``: validate scenario files and summarise each in one paragraph.

Exit status 0 when every file is fine. Otherwise every problem of every file is printed, one
per line as ``FILE:LINE: key.path: what was expected``, and the exit status is 2. No input,
however broken, ends in a traceback.
"""

from __future__ import annotations

import click

from fuego.errors import FuegoError
from fuego.words import plural


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Print nothing for files that are fine.")
def check(files: tuple[str, ...], quiet: bool) -> None:
    """Validate scenario FILES and summarise them (exit 2 listing every problem)."""
    from fuego.modules.registry import check_note
    from fuego.scenario.model import load
    from fuego.text import terminal

    failed = 0
    for path in files:
        try:
            scenario = load(path)
            summary = scenario.summary_text() + check_note(scenario)  # modules: fire breaks
        except FuegoError as exc:
            failed += 1
            problems = getattr(exc, "problems", None) or [exc]
            for problem in problems:
                text = problem.render()
                if not text.startswith(terminal(path)):
                    text = f"{terminal(path)}: {text}"
                click.echo(text, err=True)
            continue
        if not quiet:
            click.echo(summary)
    if failed:
        click.echo(f"fuego check: {failed} of {plural(len(files), 'file')} "
                   "failed", err=True)
        raise SystemExit(2)
