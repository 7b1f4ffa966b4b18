"""``fuego import MAP.dd2vtt|MAP.uvtt``: a Universal VTT map -> a scenario floor plan.

Reads the walls and portals of a Universal VTT export (Dungeondraft ``.dd2vtt`` and other
``.uvtt`` files), snaps them to fuego's 10-ft grid, finds the rooms they enclose and writes a
scenario YAML that ``fuego check`` accepts, with comments on what the GM must still fill in
(materials, fuel, heroes, fires). The conversion is :mod:`fuego.scenario.vtt`; the embedded
picture is never decoded.
"""

from __future__ import annotations

import click

from fuego.errors import FuegoError


@click.command("import")
@click.argument("vtt_file", metavar="MAP.dd2vtt|MAP.uvtt",
                type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", "-o", "out", default=None, metavar="FILE.yaml",
              help="Write the scenario here (default: standard output).")
@click.option("--grid-feet", type=click.Choice(["5", "10"]), default="5", show_default=True,
              help="Feet per VTT square: 5 (2 x 2 squares make a 10-ft area) or 10.")
@click.option("--windows-from-names", is_flag=True,
              help="Portals whose name, label or type mentions 'window' become windows.")
@click.option("--window", "windows", type=int, multiple=True, metavar="N",
              help="Make portal N (1-based, in file order) a window; repeatable.")
@click.option("--no-outside", is_flag=True,
              help="Drop the areas beyond the walls instead of making them an outdoor room.")
@click.option("--title", default=None, help="Title of the scenario (default: from the file name).")
@click.option("--level", "level", default="ground", show_default=True,
              help="Name of the level the map becomes.")
@click.option("--force", is_flag=True, help="Replace --out if it exists (never the map itself).")
def import_cmd(vtt_file: str, out: str | None, grid_feet: str, windows_from_names: bool,
               windows: tuple[int, ...], no_outside: bool, title: str | None, level: str,
               force: bool) -> None:
    """Turn a Universal VTT map into a fuego scenario to annotate.

    \b
    One VTT square is 5 ft unless --grid-feet 10: 2 x 2 squares make one
    10-ft fuego area. Walls snap to the 10-ft grid; the spaces they enclose
    become rooms; portals become doors (or windows); the space beyond the
    walls becomes an outdoor room that is a way out.

    \b
    Examples:
      fuego import cottage.dd2vtt --out cottage.yaml
      fuego import keep.uvtt --grid-feet 10 --window 3 --window 4 --out keep.yaml
      fuego check cottage.yaml
    """
    from fuego.files import Output
    from fuego.scenario.vtt import convert

    target = Output(out, what="scenario", force=force, inputs=[vtt_file]).check() if out else None
    if not level or not level[0].isalpha() or not all(c.isalnum() or c in "-_" for c in level) \
            or len(level) > 20:
        raise FuegoError(f"not a level name: {level!r}",
                         tip="a letter, then letters, digits, - or _ (e.g. ground)")
    text, report = convert(vtt_file, grid_feet=int(grid_feet), windows=tuple(windows),
                           windows_from_names=windows_from_names, outside=not no_outside,
                           title=title, level=level)
    summary = (f"fuego import: {report.cols} x {report.rows} areas at {grid_feet} ft a square; "
               f"{report.rooms} room{'s' if report.rooms != 1 else ''}"
               f"{' and the outside' if report.outside else ''}, "
               f"{report.doors} door{'s' if report.doors != 1 else ''}, "
               f"{report.windows} window{'s' if report.windows != 1 else ''}"
               + (f", {report.inner_walls} wall{'s' if report.inner_walls != 1 else ''} "
                  "inside rooms" if report.inner_walls else "")
               + (f"; {report.skipped_portals} portal(s) not placed (see the file's comments)"
                  if report.skipped_portals else "")
               + ("; an outdoor strip added around the map for the doors and windows of its "
                  "outer wall" if report.strip else ""))
    lost = [f"fuego import: not carried over: {line}" for line in report.dropped]
    if target is None:
        click.echo(text, nl=False)
        click.echo(summary, err=True)
        for line in lost:
            click.echo(line, err=True)
        return
    target.write(text)
    for line in lost:
        click.echo(line, err=True)
    click.echo(f"{summary}\nwrote {out}: fill in the TO DO comments, then `fuego check {out}`")
