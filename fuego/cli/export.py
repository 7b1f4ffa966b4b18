"""``fuego export SCENARIO|SESSION --round N --out X.dd2vtt``: levels for virtual tabletops.

Writes one Universal VTT file per level of the scene at round ``N`` (a scenario played
seeded, as ``fuego map --round`` plays it; a saved session replayed to that round, or to where
the table stopped): ``X-LEVEL.dd2vtt`` for each level, or ``X.dd2vtt`` for the one
``--level``. Each holds the map image of that round, the walls, the doors and windows as
portals with their open or closed state, and each fire as a light. The file's contents are
:func:`fuego.render.vtt_export.export_level`; this command loads, plays and writes.
"""

from __future__ import annotations

import os

import click

from fuego.cli import SEED
from fuego.errors import FuegoError, LimitError

EXTENSIONS = (".dd2vtt", ".uvtt", ".df2vtt")


def level_paths(out: str, names: list[str], one: bool) -> list[str]:
    """``X.dd2vtt`` for one level, else ``X-LEVEL.dd2vtt`` per level."""
    if one:
        return [out]
    stem, ext = os.path.splitext(out)
    safe = ["".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in n) for n in names]
    return [f"{stem}-{n}{ext}" for n in safe]


def write_text(outputs, target, text: str) -> None:
    """Write one output file (the one place this command writes): through
    :class:`fuego.files.Outputs`, all levels or none, checked before anything was played."""
    outputs.write(target, text)


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", "-o", "out", required=True, metavar="X.dd2vtt",
              help="Where to write: X-LEVEL.dd2vtt per level, or X.dd2vtt with --level.")
@click.option("--round", "round_", type=int, default=None, metavar="N",
              help="The scene after round N (a scenario: played seeded; a session: replayed; "
                   "default: the start, or where the session stopped).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of a scenario's run for --round (default: drawn and printed).")
@click.option("--level", "-l", "level", default=None, metavar="NAME_OR_INDEX",
              help="Export only this level, to --out itself.")
@click.option("--pixels-per-grid", "ppg", type=click.IntRange(20, 400), default=100,
              show_default=True, help="Pixels per 5-ft square of the map image.")
@click.option("--gm", is_flag=True, help="Also light the fires hidden from every hero.")
@click.option("--force", is_flag=True,
              help="Replace the output files if they exist (never the scenario or session).")
def export(file: str, out: str, round_: int | None, seed: int | None, level: str | None,
           ppg: int, gm: bool, force: bool) -> None:
    """Export a scenario or saved session to Universal VTT maps (.dd2vtt).

    \b
    One file per level: its picture at that round, walls (a destroyed one
    leaves a gap), doors and windows as portals with their open or closed
    state, and each fire as a light whose range follows its Fire Dice and
    whose colour follows its temperature. One VTT square is 5 ft. Load it in
    Foundry VTT (Universal Battlemap importer), Arkenforge, EncounterPlus...

    \b
    Examples:
      fuego export campaigns/tavern.yaml --round 4 --seed 7 --out tavern.dd2vtt
      fuego export friday.save --level ground --out ground.dd2vtt
    """
    from fuego.cli.mapcmd import is_session, pick_levels, scenario_scene, session_from
    from fuego.files import Output, Outputs
    from fuego.render.vtt_export import MAX_IMAGE_SIDE, SQUARES_PER_AREA, dumps, export_level

    if os.path.splitext(out)[1].lower() not in EXTENSIONS:
        raise FuegoError(f"cannot tell the format of {out!r} from its name",
                         tip="end the file name in .dd2vtt (or .uvtt)")
    drawn = False
    if is_session(file):
        scene = session_from(file, round_, seed)
    else:
        scene, seed, drawn = scenario_scene(file, round_, seed)
        gm = True  # a scenario played headless has no table to keep secrets from
    b = scene.building
    chosen = pick_levels(b, (level,) if level is not None else ())
    levels = list(chosen) if chosen else sorted({a.level for a in b.areas},
                                                key=lambda k: (b.levels[k].elevation, k))
    from fuego.render.mapdraw import level_extent

    for k in levels:
        c0, c1, r0, r1 = level_extent(b, k)
        side = max(c1 - c0 + 1, r1 - r0 + 1) * SQUARES_PER_AREA * ppg
        if side > MAX_IMAGE_SIDE:
            raise LimitError(f"level {b.levels[k].name!r} would be a {side}-pixel picture",
                             tip=f"lower --pixels-per-grid (at most {MAX_IMAGE_SIDE} pixels "
                                 "a side)")
    paths = level_paths(out, [b.levels[k].name for k in levels], level is not None)
    targets = [Output(path, what="VTT map", force=force, inputs=[file]).check()
               for path in paths]  # all refused or none, before any is written
    with Outputs() as outputs:  # renamed into place only once every level is written
        for k, target in zip(levels, targets):
            write_text(outputs, target, dumps(export_level(b, scene, k, ppg=ppg, gm=gm)))
    for k, path in zip(levels, paths):
        click.echo(f"fuego export: wrote {path} (level {b.levels[k].name}, round {scene.round})")
    if drawn:
        click.echo(f"seed {seed} — export again with --seed {seed}", err=True)
