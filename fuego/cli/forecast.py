"""``fuego forecast FILE``: how the fire is likely to go, from many seeded runs.

Plays ``--runs`` runs of the scenario across ``--jobs`` processes, the heroes following the
``--plan`` the GM picks for all or per hero (``flee``, ``fight``, ``rescue:NPC``, ``hold``;
:mod:`fuego.engine.plans`; the scenario's ``actions:`` win where given), and sums up: per
room the chance it burns by each round, the median round it catches and the chance of a
flashover; per hero the chance of escaping, being knocked out or killed and the wounds taken;
when the last fire goes out. ``--json`` prints every number as one JSON document;
``--out`` draws a report (heat map of the floor plan and curves over rounds). Ctrl-C stops
every worker at once, prints the summary of the runs finished and exits with status 130.

The numbers depend on the scenario, ``--runs``, ``--rounds`` and ``--seed`` only: run ``i``
uses seed ``(S * 1000003 + i) mod 2**48`` whatever ``--jobs`` is (docs/maps-and-forecasts.md).
The simulation is :func:`fuego.forecast.runner.forecast`; the plots :mod:`fuego.render.forecast_plot`.
"""

from __future__ import annotations

import time

import click

from fuego.errors import FuegoError, LimitError
from fuego.render.forecast_words import in_short, pct, share, what_matters_lines


def _round(r: int | None) -> str:
    return "-" if r is None else str(r)


#: How a run ended (``endings`` of the JSON), as the summary says it.
ENDING_NAMES = {"fire-out": "fire out (no fire, no smoke)", "gm-ended": "ended by the GM",
                "heroes-out": "no hero left to act"}


def summary_lines(data: dict, elapsed: float | None = None, jobs: int = 1,
                  by: str | None = None) -> list[str]:
    """The terminal summary of a forecast's :meth:`~fuego.forecast.result.ForecastResult.summary`
    (or its ``to_dict``); ``by`` names what played the runs (default: ``jobs`` jobs)."""
    R = data["rounds"]
    runs = data["runs"]
    lines = [f"fuego forecast: {data['scenario'] or 'scenario'}",
             f"{runs} runs of up to {R} rounds, seed {data['seed']}"
             + (f" ({elapsed:.1f} s, {runs / elapsed:.0f} runs/s with "
                f"{by or str(jobs) + ' job' + ('s' if jobs != 1 else '')})"
                if elapsed and runs else "")]
    stopped = data.get("interrupted")
    if stopped:
        lines.append(f"Interrupted (Ctrl-C): {stopped['runs_finished']} of "
                     f"{stopped['runs_asked']} runs finished; the numbers below are theirs.")
    plans = {name: v.get("plan", "flee") for name, v in data["heroes"].items()}
    if plans:
        lines.append("Heroes' plans: " + "; ".join(f"{n}: {p}" for n, p in plans.items()))
    lines.append("")
    if not runs:
        lines.append("No run finished.")
        return lines
    short = in_short(data)
    lines.extend(["In short:", *(f"  {line}" for line in short), ""] if short else [])
    out = data["fire_out"]
    med = out["median_round"]
    lines.append("The fire: " + (f"out by round {med} in half the runs" if med is not None
                                 else "still burning in more than half the runs")
                 + f"; out by round {R} in {pct(out['p_out_by_round'][-1])}"
                 + (f", still burning in {pct(out['p_still_burning'])}"
                    if out["p_still_burning"] else ""))
    from fuego.engine.loop import Ending

    ended = [(f"at the round limit ({R})" if why == Ending.ROUND_LIMIT
              else ENDING_NAMES.get(why, why))
             + f" in {share(v['p'], v.get('p_ci95'))}"
             + (f", median round {v['median_round']}"
                if v["median_round"] is not None and why != Ending.ROUND_LIMIT else "")
             for why, v in data.get("endings", {}).items() if v["p"]]
    if ended:
        lines.append("Runs ended: " + "; ".join(ended))
    skipped = data.get("skipped_actions")
    if skipped:  # (each skipped with an action-skipped event; the run went on)
        lines.append("Scripted actions the rules refused when their turn came, skipped: "
                     + "; ".join(f"{where} in {share(v['p'], v.get('p_ci95'))}"
                                 for where, v in skipped.items()))
    ba = data["burning_areas_by_round"]
    marks = sorted({r for r in (1, 2, 3, 5, 10, 15, 20, 30, 40, R) if r <= R})
    lines.append("Areas burning (mean [10-90%]): " + ", ".join(
        f"round {r}: {ba['mean'][r]:.1f} [{ba['p10'][r]}-{ba['p90'][r]}]" for r in marks))
    conf = data.get("confidence")
    if conf:
        need = conf["runs_for_half_width"]
        lines.append(f"How sure: 95% intervals in brackets (Wilson); with {runs} runs a share "
                     f"is known to +/-{100 * conf['widest_half_width']:.0f} points at worst "
                     f"(+/-5 needs {need['0.05']} runs, +/-2 {need['0.02']}, "
                     f"+/-1 {need['0.01']}).")
    lines.append("")
    rooms = data["rooms"]
    width = max([len("Room")] + [len(v["name"]) for v in rooms.values()])
    lines.append(f"{'Room':<{width}}  {'burns by round ' + str(R):>19}  median round caught  "
                 f"{'flashover':>14}")
    order = sorted(rooms, key=lambda k: (-rooms[k]["p_ever"],
                                         rooms[k]["median_first_round_when_it_burns"] or 0, k))
    for key in order:
        v = rooms[key]
        lines.append(f"{v['name']:<{width}}  {share(v['p_ever'], v.get('p_ever_ci95')):>19}  "
                     f"{_round(v['median_first_round']):>19}  "
                     f"{share(v['p_flashover'], v.get('p_flashover_ci95')):>14}")
    heroes = data["heroes"]
    if heroes:
        lines.append("")
        lines.extend(hero_table(heroes))
        matters = what_matters_lines(data)
        if matters:
            lines.append("")
            lines.append("What matters: what the runs in which a hero went down went through "
                         "(before their fate was sealed), against the rest; 95% intervals:")
            lines.extend(f"  {line}" for line in matters)
    return lines


def hero_table(heroes: dict) -> list[str]:
    """The heroes' table: where each is at the end (a column for the open air and one for
    those not come yet only where someone is counted there) and the mean wounds."""
    width = max([len("Hero")] + [len(n) for n in heroes])
    pw = max([len("plan")] + [len(v.get("plan", "flee")) for v in heroes.values()])
    cols = ["escaped", "knocked out", "killed", "still inside"]
    keys = ["p_escaped", "p_knocked_out", "p_killed", "p_still_inside"]
    for col, key in (("in the open", "p_outside"), ("not come", "p_not_arrived")):
        if any(v.get(key, 0) > 0 for v in heroes.values()):
            cols.append(col)
            keys.append(key)
    lines = [f"{'Hero':<{width}}  {'plan':<{pw}}  "
             + "  ".join(f"{c:>14}" for c in cols) + "  mean Dramatic Wounds"]
    for name, v in heroes.items():
        mw = v["mean_dramatic_wounds"]
        mci = v.get("mean_dramatic_wounds_ci95")
        wounds = f"{mw:.2f}" + (f" ({mci[0]:.2f}-{mci[1]:.2f})" if mci else "")
        lines.append(f"{name:<{width}}  {v.get('plan', 'flee'):<{pw}}  "
                     + "  ".join(f"{share(v.get(k, 0.0), v.get(k + '_ci95')):>14}"
                                 for k in keys)
                     + f"  {wounds:>20}")
    return lines


@click.command("forecast")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--runs", "-n", type=int, default=1000, show_default=True,
              help="Seeded runs to play (1 to 100000).")
@click.option("--rounds", type=int, default=None,
              help="Rounds per run (default and most: the scenario's max_rounds).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the forecast; run i plays seed (S*1000003+i) mod 2**48.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True,
              help="Processes to share the runs (1 to 64); the numbers do not depend on it.")
@click.option("--dask", "dask", default=None, metavar="ADDRESS|local[:N]",
              help="Play the runs on a Dask cluster: a scheduler's address (tcp://HOST:8786), "
                   "or local for one on this machine (N workers; default one per core). "
                   "Needs pip install 'fuego[dask]'; the numbers do not depend on it.")
@click.option("--plan", "plans", multiple=True, metavar="PLAN|HERO=PLAN",
              help="What the heroes try: flee (default), fight (smother the nearest fire while "
                   "they can), rescue:NPC (fetch the NPC, then out), hold (stay put); for all "
                   "player heroes, or one hero (or NPC, one the script brings in too) with "
                   "HERO=PLAN; repeatable. Each hero not named keeps its plan in the "
                   "scenario (else flees). The scenario's actions win where given.")
@click.option("--vary", "vary", multiple=True, metavar="CHANGE[; CHANGE...]",
              help="A what-if variant, forecast beside the scenario as written: fire=AREA, "
                   "door NAME=open|closed|locked|broken, fuel ROOM=N, wind=FORCE, plan=PLAN, "
                   "... (docs/maps-and-forecasts.md, What-if sweeps); repeatable.")
@click.option("--sweep", "sweep_file", default=None, metavar="SWEEP.yaml",
              help="Variants from a sweep file (variants: [{name: ..., change: ...}]).")
@click.option("--by-round", type=int, default=None, metavar="R",
              help="Round of the report's heat map (default: the round by which, on average, "
                   "areas holding half the fuel have caught fire).")
@click.option("--out", "-o", "out", default=None, metavar="REPORT.png|svg|pdf",
              help="Draw the report: heat map of the floor plan and curves over rounds (a "
                   "sweep: its variants side by side).")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None,
              help="Paper of a PDF report's pages (default: from the locale, LC_PAPER or "
                   "LANG: Letter in the US, Canada, Mexico..., else A4).")
@click.option("--dpi", type=click.IntRange(36, 600), default=120, show_default=True,
              help="Resolution of a PNG report.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every number as one JSON document on standard output.")
@click.option("--force", is_flag=True,
              help="Replace --out if it exists (never the scenario itself).")
def forecast(file: str, runs: int, rounds: int | None, seed: int, jobs: int,
             dask: str | None, plans: tuple[str, ...], vary: tuple[str, ...],
             sweep_file: str | None, by_round: int | None, out: str | None,
             paper: str | None, dpi: int, as_json: bool, force: bool) -> None:
    """Monte Carlo forecast of how the fire in scenario FILE will go.

    \b
    A progress bar shows on standard error when it is a terminal. Ctrl-C
    stops at once: the runs finished are summed up, exit status 130.

    \b
    Examples:
      fuego forecast campaigns/tavern.yaml --runs 2000 --jobs 4
      fuego forecast campaigns/tavern.yaml --rounds 10 --out tavern-forecast.pdf
      fuego forecast campaigns/tavern.yaml --out tavern.pdf --paper letter
      fuego forecast campaigns/tavern.yaml --runs 500 --json > tavern.json
      fuego forecast campaigns/tavern.yaml --runs 5000 --dask tcp://10.0.0.5:8786
      fuego forecast campaigns/tavern.yaml --plan fight --plan "Gaston=rescue:Mother Hettie"
    """
    from fuego.cli.mapcmd import out_format
    from fuego.engine.plans import parse_plans
    from fuego.files import Output
    from fuego.forecast.result import ForecastInterrupted
    from fuego.forecast.runner import forecast as run_forecast
    from fuego.render.map_style import default_paper
    from fuego.scenario.model import load

    fmt = out_format(out) if out else None
    if paper is not None and fmt != "pdf":
        raise FuegoError("--paper sets the pages of a PDF report",
                         tip="write the report as a PDF: --out REPORT.pdf")
    if fmt == "pdf":
        paper = paper or default_paper()
    target = Output(out, what="report", force=force,
                    inputs=[file, *([sweep_file] if sweep_file else [])]).check() if out else None
    if vary or sweep_file:
        from fuego.cli.sweep import run_sweep

        run_sweep(file, vary, sweep_file, runs, rounds, seed, jobs, executor_for(jobs, dask),
                  plans, as_json, out, target, fmt, dpi, paper)
        return
    scenario = load(file)
    limit = scenario.settings.max_rounds
    R = rounds if rounds is not None else limit
    if by_round is not None and not 0 <= by_round <= R:
        raise LimitError(f"--by-round must be between 0 and {R}, not {by_round}")
    cast = scenario.build(0)
    hero_plans = (parse_plans(plans, cast.heroes, scenario.arrivals, base=scenario.plans)
                  if plans else scenario.plans)
    del cast
    executor = executor_for(jobs, dask)

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    started = time.perf_counter()
    interrupted = False
    # With worker processes no refresh thread runs while they fork: the forecast calls
    # progress() every tenth of a second instead, which redraws the clock and the ETA.
    by_hand = jobs != 1 or dask is not None
    with Progress(TextColumn("forecast"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("runs"), TimeElapsedColumn(), TextColumn("ETA"),
                  TimeRemainingColumn(), console=console, disable=not console.is_terminal,
                  transient=True, auto_refresh=not by_hand) as bar:
        task = bar.add_task("runs", total=runs if isinstance(runs, int) and runs > 0 else 1)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, refresh=by_hand)

        try:
            result = run_forecast(scenario, runs=runs, rounds=rounds, seed=seed, jobs=jobs,
                                  progress=progress, plans=hero_plans, executor=executor)
        except ForecastInterrupted as stop:
            result, interrupted = stop.result, True
    elapsed = time.perf_counter() - started
    write_report(result, as_json, elapsed, jobs, out, target, fmt, by_round, dpi, paper,
                 by=executor.label if executor is not None else None)
    if interrupted:
        raise SystemExit(130)


def executor_for(jobs: int, dask: str | None):
    """The Dask executor ``--dask`` asks for (None: the embedded process pool of ``--jobs``)."""
    if dask is None:
        return None
    if jobs != 1:
        raise click.UsageError("--jobs is for this machine's processes; with --dask the "
                               "cluster's workers share the runs (--dask local:N for N)")
    from fuego.forecast.cluster import DaskCluster

    return DaskCluster(dask)


def write_report(result, as_json: bool, elapsed: float, jobs: int, out: str | None, target,
                 fmt: str | None, by_round: int | None, dpi: int,
                 paper: str | None = None, by: str | None = None) -> None:
    """Print the summary (or the JSON) and write the report (the one place this command
    writes a file)."""
    if as_json:
        for piece in result.json_chunks():
            click.echo(piece, nl=False)
        click.echo("")
    else:
        for line in summary_lines(result.summary(), elapsed, jobs, by):
            click.echo(line)
    if out and result.runs:
        from fuego.cli.mapcmd import pages_said, save_figures
        from fuego.render.forecast_plot import plot_forecast

        assert fmt is not None
        figures = plot_forecast(result, by_round, layout="pages" if fmt == "pdf" else "side",
                                paper=paper or "a4")
        save_figures(figures, target, fmt, dpi)
        pages = pages_said(figures, paper) if fmt == "pdf" else ""
        click.echo(f"fuego forecast: wrote {out}{pages}", err=as_json)
