"""``fuego import MAP.dd2vtt|MAP.uvtt|SCENE.json [MAP ...]``: VTT maps -> a scenario floor plan.

Reads the walls and portals of Universal VTT exports (Dungeondraft ``.dd2vtt``, DungeonFog
``.df2vtt`` and other ``.uvtt`` files) or Foundry VTT scenes (``.json``), finds the rooms the
walls enclose, puts them on fuego's 10-ft grid and writes a scenario YAML that ``fuego check``
accepts, with comments on what the GM must still fill in (materials, fuel, heroes, fires).
Several maps are the levels of one building, from the ground up. The conversion is
:mod:`fuego.scenario.vtt`; the embedded picture is never decoded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fuego.errors import FuegoError
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.scenario.vtt import ImportReport


@click.command("import")
@click.argument("vtt_files", metavar="MAP.dd2vtt|MAP.uvtt|SCENE.json [MAP ...]", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", "-o", "out", default=None, metavar="FILE.yaml",
              help="Write the scenario here (default: standard output).")
@click.option("--grid-feet", type=click.Choice(["5", "10"]), default="5", show_default=True,
              help="Feet per VTT square: 5 (2 x 2 squares make a 10-ft area) or 10.")
@click.option("--windows-from-names", is_flag=True,
              help="A portal whose name, label or type says 'window' is a window, one that "
                   "says 'door' a door, whatever its closed flag.")
@click.option("--window", "windows", type=int, multiple=True, metavar="N",
              help="Make portal N of the first map (1-based, in file order) a window; "
                   "repeatable.")
@click.option("--door", "doors", type=int, multiple=True, metavar="N",
              help="Make portal N of the first map a door (a 'closed: false' portal is "
                   "otherwise a window); repeatable.")
@click.option("--no-outside", is_flag=True,
              help="Drop the areas beyond the walls instead of making them an outdoor room.")
@click.option("--title", default=None, help="Title of the scenario (default: from the file name).")
@click.option("--level", "levels", multiple=True, metavar="NAME",
              help="Name of the level each map becomes, in order (default: ground for one "
                   "map; each file's name for several); repeatable.")
@click.option("--force", is_flag=True, help="Replace --out if it exists (never the map itself).")
def import_cmd(vtt_files: tuple[str, ...], out: str | None, grid_feet: str,
               windows_from_names: bool, windows: tuple[int, ...], doors: tuple[int, ...],
               no_outside: bool, title: str | None, levels: tuple[str, ...],
               force: bool) -> None:
    """Turn Universal VTT maps (or Foundry VTT scenes) into a fuego scenario to annotate.

    \b
    One VTT square is 5 ft unless --grid-feet 10: 2 x 2 squares make one
    10-ft fuego area. The rooms are the spaces the walls enclose; portals
    become doors, and those exported with "closed": false windows (the
    Dungeondraft convention); the space beyond the walls becomes an outdoor
    room that is a way out. Several maps are the levels of one building,
    from the ground up (add the stairs by hand).

    \b
    Examples:
      fuego import cottage.dd2vtt --out cottage.yaml
      fuego import keep.uvtt --grid-feet 10 --window 3 --door 4 --out keep.yaml
      fuego import ground.dd2vtt upper.dd2vtt --out house.yaml
      fuego import tavern-ground.json --out tavern.yaml   (a Foundry scene)
      fuego check cottage.yaml
    """
    from fuego.files import Output
    from fuego.scenario.vtt import convert_levels

    target = Output(out, what="scenario", force=force,
                    inputs=list(vtt_files)).check() if out else None
    if len(levels) > len(vtt_files):
        raise FuegoError(f"{len(levels)} --level names for {len(vtt_files)} map"
                         f"{'s' if len(vtt_files) != 1 else ''}",
                         tip="give one --level per map, in the order of the maps")
    for level in levels:
        if not level or not level[0].isalpha() or len(level) > 20 \
                or not all(c.isalnum() or c in "-_" for c in level):
            raise FuegoError(f"not a level name: {level!r}",
                             tip="a letter, then letters, digits, - or _ (e.g. ground)")
    if len(set(levels)) != len(levels):
        raise FuegoError("two maps have the same --level name", tip="name each level once")
    text, reports = convert_levels(list(vtt_files), grid_feet=int(grid_feet),
                                   windows=tuple(windows), doors=tuple(doors),
                                   windows_from_names=windows_from_names,
                                   outside=not no_outside, title=title, levels=levels)
    lines = [line for report in reports
             for line in _report_lines(report, f" {report.level}:" if len(reports) > 1 else "",
                                       grid_feet)]
    if target is None:
        click.echo(text, nl=False)
        for line in lines:
            click.echo(line, err=True)
        return
    target.write(text)
    for line in lines:
        click.echo(line, err=True)
    click.echo(f"wrote {out}: fill in the TO DO comments, then `fuego check {out}`")


def _report_lines(report: ImportReport, where: str, grid_feet: str) -> list[str]:
    """What the import of one map did (:class:`fuego.scenario.vtt.ImportReport`), for the
    terminal: its size and what it holds, then each thing cut, each double door made one,
    and each thing not carried over."""

    lines = [
        f"fuego import:{where} {report.cols} x {report.rows} areas at {grid_feet} ft a "
        f"square; {plural(report.rooms, 'room')}{' and the outside' if report.outside else ''}, "
        f"{plural(report.doors, 'door')}"
        + (f" ({plural(report.double_doors, 'double door')} of two leaves)"
           if report.double_doors else "")
        + f", {plural(report.windows, 'window')}"
        + (f", {plural(report.inner_walls, 'wall')} inside rooms" if report.inner_walls else "")
        + (f", {plural(report.objects, 'object')} noted" if report.objects else "")
        + (f"; {plural(report.skipped_portals, 'portal')} not placed (see the file's comments)"
           if report.skipped_portals else "")
        + ("; an outdoor strip added around the map for the doors and windows of its "
           "outer wall" if report.strip else "")
        + ("; the grid laid on the other levels' lines"
           + (" (its walls alone would have it 5 ft over)" if report.grid_worse else "")
           if report.shared_grid else
           "; the grid moved 5 ft to keep the walls on its lines" if any(report.phase) else "")
        + (f"; {report.placed.lower()} to stand over the other levels" if report.placed
           else "")]
    if report.unaligned:
        lines.append(f"fuego import:{where} not put over the other levels: {report.unaligned}")
    lines += [f"fuego import:{where} clipped: {line}" for line in report.clipped]
    lines += [f"fuego import:{where} double door: {line}" for line in report.double_door_lines]
    lines += [f"fuego import:{where} not carried over: {line}" for line in report.dropped]
    return lines
