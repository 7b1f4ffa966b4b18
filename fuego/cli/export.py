"""``fuego export SCENARIO|SESSION --round N --out X``: levels for virtual tabletops.

Writes one file per level of the scene at round ``N`` (a scenario played seeded, as
``fuego map --round`` plays it; a saved session replayed to that round, or to where the table
stopped): ``X-LEVEL.dd2vtt`` for each level, or ``X.dd2vtt`` for the one ``--level`` or a
building of one level.

- ``--format uvtt`` (``.dd2vtt``, ``.uvtt``, ``.df2vtt``): a Universal VTT map, the picture
  inside (:func:`fuego.render.vtt_export.export_level`).
- ``--format foundry`` (``.json``): a Foundry VTT scene document, its picture written beside
  it as ``X-LEVEL.png`` for the GM to upload where ``--foundry-folder`` says
  (:func:`fuego.render.foundry_export.scene_document`).

What the picture shows is the players' view unless ``--gm``; ``--tokens``, ``--fuel`` and
``--labels`` bring back what a clean battle map leaves out. This command loads, plays and
writes.
"""

from __future__ import annotations

import os
import posixpath

import click

from fuego.cli import SEED
from fuego.errors import FuegoError, LimitError

UVTT_EXTENSIONS = (".dd2vtt", ".uvtt", ".df2vtt")
FOUNDRY_EXTENSIONS = (".json",)
FORMATS = ("uvtt", "foundry")


def level_paths(out: str, names: list[str], one: bool) -> list[str]:
    """``X.dd2vtt`` for one level, else ``X-LEVEL.dd2vtt`` per level."""
    if one:
        return [out]
    stem, ext = os.path.splitext(out)
    safe = ["".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in n) for n in names]
    return [f"{stem}-{n}{ext}" for n in safe]


def write_all(files) -> None:
    """Write the command's files (the one place it writes), all checked before anything was
    played or drawn, and all or nothing (:class:`fuego.files.Outputs`): each goes to a
    temporary file, and they are renamed into place only once every one was written, so a
    full disk part-way leaves no new file and every old one whole."""
    from fuego.files import Outputs

    with Outputs() as outputs:
        for target, data in files:
            outputs.write(target, data)


def out_format(out: str, given: str | None) -> str:
    """The format ``--format`` names, else the one ``--out``'s extension names."""
    ext = os.path.splitext(out)[1].lower()
    wanted = given or ("foundry" if ext in FOUNDRY_EXTENSIONS else
                       "uvtt" if ext in UVTT_EXTENSIONS else None)
    if wanted is None:
        raise FuegoError(f"cannot tell the format of {out!r} from its name",
                         tip="end the file name in .dd2vtt (Universal VTT) or .json (Foundry "
                             "VTT), or give --format")
    allowed = FOUNDRY_EXTENSIONS if wanted == "foundry" else UVTT_EXTENSIONS
    if ext not in allowed:
        raise FuegoError(f"--format {wanted} writes {' or '.join(allowed)} files, not {out!r}",
                         tip=f"name the file X{allowed[0]}")
    return wanted


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", "-o", "out", required=True, metavar="X.dd2vtt|X.json",
              help="Where to write: X-LEVEL.dd2vtt (or .json) per level, or X.dd2vtt itself "
                   "with --level or for a building of one level.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="uvtt: Universal VTT (.dd2vtt); foundry: a Foundry VTT scene (.json) and "
                   "its picture (.png). Default: from --out's extension.")
@click.option("--round", "round_", type=int, default=None, metavar="N",
              help="The scene after round N (a scenario: played seeded; a session: replayed; "
                   "default: the start, or where the session stopped).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of a scenario's run for --round (default: drawn and printed).")
@click.option("--level", "-l", "level", default=None, metavar="NAME_OR_INDEX",
              help="Export only this level, to --out itself.")
@click.option("--pixels-per-grid", "ppg", type=click.IntRange(20, 400), default=100,
              show_default=True, help="Pixels per 5-ft square of the map image.")
@click.option("--gm", is_flag=True,
              help="The GM's export: also what no hero sees (fires hidden from every hero, "
                   "fires and smoke out of sight). Foundry: as hidden lights and drawings.")
@click.option("--tokens", is_flag=True, help="Draw the heroes' tokens on the picture.")
@click.option("--fuel", is_flag=True,
              help="Draw fuel (shade and number), oil, gunpowder, beams and fire's routes.")
@click.option("--labels", is_flag=True, help="Write room names and mark the ways out.")
@click.option("--foundry-folder", "folder", default="fuego", show_default=True,
              metavar="PATH",
              help="Foundry: the folder of Foundry's user data the pictures will be uploaded "
                   "to (the scene's background path).")
@click.option("--force", is_flag=True,
              help="Replace the output files if they exist (never the scenario or session).")
def export(file: str, out: str, fmt: str | None, round_: int | None, seed: int | None,
           level: str | None, ppg: int, gm: bool, tokens: bool, fuel: bool, labels: bool,
           folder: str, force: bool) -> None:
    """Export a scenario or saved session to a virtual tabletop: Universal VTT
    maps (.dd2vtt) or Foundry VTT scenes (.json).

    \b
    One file per level (X-LEVEL.dd2vtt; X.dd2vtt itself for one level): a
    clean battle map of that round (floor, walls, doors, windows, and the
    fire and smoke the players see; no tokens, fuel or labels unless asked)
    and, for the tabletop, its walls (a destroyed one is gone), doors,
    windows and a light for each fire the players see, its range by Fire
    Dice and its colour by temperature. One VTT square is 5 ft. Universal
    VTT marks doors closed and windows open, as Dungeondraft does. A Foundry
    scene keeps door states, windows you see through, animated fire and
    smoke; load it with "Import Data" on a new scene after uploading its
    picture (docs/maps-and-forecasts.md).

    \b
    Examples:
      fuego export campaigns/tavern.yaml --round 4 --seed 7 --out tavern.dd2vtt
      fuego export friday.json --level ground --out ground.json --gm
    """
    from fuego.cli.mapcmd import pick_levels, scenario_scene, session_from
    from fuego.files import Output
    from fuego.render.vtt_export import MAX_IMAGE_SIDE, Shown, level_squares
    from fuego.table.session import is_session

    fmt = out_format(out, fmt)
    drawn = False
    if is_session(file):
        scene = session_from(file, round_, seed)
    else:
        scene, seed, drawn = scenario_scene(file, round_, seed)
    b = scene.building
    chosen = pick_levels(b, (level,) if level is not None else ())
    levels = list(chosen) if chosen else sorted({a.level for a in b.areas},
                                                key=lambda k: (b.levels[k].elevation, k))
    for k in levels:
        side = max(level_squares(b, k)) * ppg
        if side > MAX_IMAGE_SIDE:
            raise LimitError(f"level {b.levels[k].name!r} would be a {side}-pixel picture",
                             tip=f"lower --pixels-per-grid (at most {MAX_IMAGE_SIDE} pixels "
                                 "a side)")
    shown = Shown(gm=gm, tokens=tokens, fuel=fuel, labels=labels)
    # (one level, asked for or the building's only one: the file the GM named)
    paths = level_paths(out, [b.levels[k].name for k in levels], len(levels) == 1)
    pictures = [os.path.splitext(p)[0] + ".png" for p in paths] if fmt == "foundry" else []
    targets = [Output(path, what="VTT map" if fmt == "uvtt" else "Foundry scene", force=force,
                      inputs=[file]).check() for path in paths]
    images = [Output(path, what="map picture", force=force, inputs=[file]).check()
              for path in pictures]  # all refused or none, before any is written
    where = f"round {scene.round}" + (", GM's export" if gm else "")
    files: list[tuple[Output, str | bytes]] = []  # (its Output, its contents), every level's
    said = []
    if fmt == "uvtt":
        from fuego.render.vtt_export import dumps, export_level

        for k, path, target in zip(levels, paths, targets):
            files.append((target, dumps(export_level(b, scene, k, ppg=ppg, shown=shown))))
            said.append(f"fuego export: wrote {path} (level {b.levels[k].name}, {where})")
    else:
        from fuego.render import foundry_export
        from fuego.render.vtt_export import picture

        for k, path, target, png, image in zip(levels, paths, targets, pictures, images):
            # the background is the players' picture: Foundry shows it to everyone, and the
            # GM's extras travel as hidden lights and drawings
            files.append((image, picture(b, scene, k, ppg, Shown(tokens=tokens, fuel=fuel,
                                                                 labels=labels))))
            src = posixpath.join(folder.strip("/"), os.path.basename(png)) if folder.strip("/") \
                else os.path.basename(png)
            name = f"{scene.title} — {b.levels[k].name}" if scene.title else b.levels[k].name
            doc = foundry_export.scene_document(b, scene, k, ppg=ppg, image_src=src,
                                                shown=shown, name=name)
            files.append((target, foundry_export.dumps(doc)))
            said.append(f"fuego export: wrote {path} and {png} (level {b.levels[k].name}, "
                        f"{where}; upload the picture to {src} in Foundry's user data)")
    write_all(files)  # every file made before the first is written
    for line in said:
        click.echo(line)
    if drawn:
        click.echo(f"seed {seed} — export again with --seed {seed}", err=True)
