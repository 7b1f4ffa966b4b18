"""``fuego forecast FILE --vary ... / --sweep SWEEP.yaml``: a what-if sweep's words.

The variants side by side (the fire still burning at the last round, and per hero the chance
of being down, knocked out or killed, with 95 % intervals), then what each change does: its
difference from the scenario as written, in points, with its interval; a change whose interval
leaves out 0 is marked ``*``. The numbers are :class:`fuego.forecast.sweep.SweepResult`'s.
"""

from __future__ import annotations

import math

from fuego.names import short_names
from fuego.stats import wilson


def _share(k: int, n: int) -> str:
    if not n:
        return "-"
    lo, hi = wilson(k, n)
    p = k / n
    text = ("<1%" if p > 0 and round(100 * p) == 0 else
            ">99%" if p < 1 and round(100 * p) == 100 else f"{100 * p:.0f}%")
    return f"{text} ({math.floor(100 * lo)}-{math.ceil(100 * hi)})"


def _points(d: list[float]) -> str:
    """``+12 (+5..+19) *``: a difference in points, its interval, * when it leaves out 0."""
    from fuego.forecast.sweep import told_apart

    diff, lo, hi = (100 * x for x in d)
    sure = told_apart(d)

    def end(x: float, outward: int) -> str:
        n = outward
        # an end just short of 0 keeps its side: -0 is "below 0, by less than a point"
        return ("-0" if x < 0 else "+0") if n == 0 and x != 0 else f"{n:+d}"

    return (f"{diff:+.0f} ({end(lo, math.floor(lo))}..{end(hi, math.ceil(hi))})"
            f"{' *' if sure else '  '}")


def sweep_lines(result, elapsed: float | None = None) -> list[str]:
    """The terminal summary of a :class:`~fuego.forecast.sweep.SweepResult`."""
    first = result.results[0]
    R = result.rounds
    total = sum(r.runs for r in result.results)
    lines = [f"fuego forecast: {first.title or 'scenario'}: a sweep of {len(result.variants)} "
             f"variants",
             f"{result.runs} runs each of up to {R} rounds, seed {result.seed}, the same run "
             "seeds in every variant"
             + (f" ({elapsed:.1f} s, {total / elapsed:.0f} runs/s with {result.label})"
                if elapsed and total else "")]
    if result.asked is not None:
        lines.append(f"Interrupted (Ctrl-C): {total} of {result.asked * len(result.variants)} "
                     "runs finished; the numbers below are theirs.")
    lines.append("")
    heroes = first.counts.heroes
    cols = ["fire burning"] + [f"{name} down" for name in short_names(heroes)]
    keys = ["fire_still_burning"] + [f"{name}: p_down" for name in heroes]
    width = max(len("variant"), *(len(f"{v}. {s.name}") for v, s in enumerate(result.variants)))
    width = min(width, 44)
    table = [[_share(*result.shares(v)[k]) for k in keys] for v in range(len(result.variants))]
    diffs = []
    for v in range(1, len(result.variants)):
        diff = result.difference(v)
        diffs.append([_points(diff[k]) if k in diff else "-" for k in keys])
    cw = max(len(c) for c in [*cols, *(c for r in table + diffs for c in r)])

    def row(label: str, cells: list[str]) -> str:
        if len(label) > width:
            label = label[:width - 1] + "…"
        return f"{label:<{width}}  " + "  ".join(f"{c:>{cw}}" for c in cells)

    lines.append("Side by side (share of runs, 95% interval; down: knocked out or killed; fire "
                 f"burning: at round {R}):")
    lines.append(row("variant", cols))
    for v, spec in enumerate(result.variants):
        lines.append(row(f"{v}. {spec.name}", table[v]))
    if len(result.variants) > 1:
        lines.append("")
        lines.append("What each change does (difference from 0, in points, 95% interval; "
                     "* : the interval leaves out 0):")
        lines.append(row("variant", cols))
        for v in range(1, len(result.variants)):
            lines.append(row(f"{v}. {result.variants[v].name}", diffs[v - 1]))
    return lines


def run_sweep(file: str, vary: tuple[str, ...], sweep_file: str | None, runs: int,
              rounds: int | None, seed: int, jobs: int, executor,
              plans: tuple[str, ...], as_json: bool, out: str | None = None, target=None,
              fmt: str | None = None, dpi: int = 120, paper: str | None = None) -> None:
    """``fuego forecast FILE --vary ...``: play the sweep and print it (or its JSON), and
    draw it to ``out`` (``target``: its checked :class:`~fuego.files.Output`, in ``fmt``;
    ``paper``: a PDF's page); ``executor`` is ``--dask``'s (None: ``jobs`` processes)."""
    import time

    import click
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from fuego.forecast.sweep import SweepInterrupted, parse_vary, read_sweep_file, sweep
    from fuego.scenario.model import load

    variants = [*(read_sweep_file(sweep_file) if sweep_file else []),
                *(parse_vary(text) for text in vary)]
    scenario = load(file)
    console = Console(stderr=True)
    started = time.perf_counter()
    interrupted = False
    with Progress(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), TextColumn("runs"),
                  TimeElapsedColumn(), console=console, disable=not console.is_terminal,
                  transient=True, auto_refresh=False) as bar:
        task = bar.add_task("runs", total=max(1, runs * (len(variants) + 1)))

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, refresh=True)

        try:
            result = sweep(scenario, variants, runs=runs, rounds=rounds, seed=seed, jobs=jobs,
                           plans=plans, progress=progress, executor=executor)
        except SweepInterrupted as stop:
            result, interrupted = stop.result, True
    elapsed = time.perf_counter() - started
    if as_json:
        import json

        click.echo(json.dumps(result.to_dict(), separators=(",", ":")))
    else:
        for line in sweep_lines(result, elapsed):
            click.echo(line)
    if out and any(r.runs for r in result.results):
        from fuego.cli.mapcmd import pages_said, save_figures
        from fuego.render.sweep_plot import plot_sweep

        assert fmt is not None
        figures = plot_sweep(result, paper)
        save_figures(figures, target, fmt, dpi)
        click.echo(f"fuego forecast: wrote {out}{pages_said(figures, paper)}", err=as_json)
    if interrupted:
        raise SystemExit(130)
