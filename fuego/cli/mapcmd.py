"""``fuego map FILE --out MAP.svg|MAP.png|MAP.pdf``: a printable encounter map.

Draws the building on a 10-ft grid whose letters and numbers are fuego's area names
(``ground:C4``): rooms, walls by material, doors and windows (open or closed), stairs, ladders,
holes, fuel, routes, exits and heroes, with a legend. With ``--round N`` it plays the scene
``N`` rounds first (seeded, the same engine path and heroes as ``fuego run``) and draws the
fires with their Fire Dice, the smoke, burned-out areas and broken barriers.

``FILE`` may also be a saved session of ``fuego play`` (``fuego map s1.save``): the map is then
the table's current state, replayed from the save: what the players see (``--gm`` adds the
fires hidden from every hero).

SVG and PNG put the levels side by side; PDF gives pages of ``--paper`` (Letter or A4, by
default from the locale), one level per page at ``--scale`` inches per 10-ft square, a level
larger than a page tiled across pages with overlap marks and a page index. The drawing is
:func:`fuego.render.mapdraw.draw_map`; this command only loads, plays and saves.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

import click

from fuego.cli import SEED, FiniteRange
from fuego.errors import FuegoError, LimitError
from fuego.words import plural

FORMATS = (".svg", ".png", ".pdf")
#: A PNG larger than this on either side is refused (memory), with a tip.
MAX_PNG_SIDE = 20_000
MAX_PNG_PIXELS = 120_000_000


def out_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise FuegoError(f"cannot tell the format of {path!r} from its name",
                         tip="end the file name in .svg, .png or .pdf")
    return ext[1:]


def pick_levels(building, wanted: tuple[str, ...]) -> tuple[int, ...] | None:
    """Level names or indices (in file order) -> level indices; None for all."""
    if not wanted:
        return None
    out: list[int] = []
    names = [lv.name for lv in building.levels]
    for text in wanted:
        hit = next((lv.index for lv in building.levels if lv.name == text), None)
        if hit is None and text.lstrip("-").isdecimal() and len(text) < 10:  # no 5,000 digits
            k = int(text)
            if 0 <= k < len(building.levels):
                hit = k
        if hit is None:
            raise FuegoError(f"no level {text!r} in this scenario",
                             tip="levels here: " + ", ".join(
                                 f"{n} ({k})" for k, n in enumerate(names)))
        if not any(a.level == hit for a in building.areas):
            raise FuegoError(f"level {names[hit]!r} has no areas to draw")
        if hit not in out:
            out.append(hit)
    return tuple(out)


def play_to(scenario, seed: int, rounds: int):
    """The scene of ``scenario`` after ``rounds`` rounds with ``seed``, played as ``fuego run``
    plays it (scripted heroes where the scenario has actions, automatic otherwise); at round 0,
    as play starts: the modules' and the script's start done (fire breaks cleared, say), so a
    plan a module refuses is refused here as by ``fuego check`` and ``fuego run``."""
    from fuego.engine.controllers import AutoController, ScriptedController
    from fuego.engine.loop import run
    from fuego.engine.rounds import start_scene

    scene = scenario.build(seed)
    if rounds > 0:
        actions = getattr(scenario, "actions", None) or {}
        controller = ScriptedController(actions) if actions else AutoController()
        run(scene, controller, rounds=rounds)
    else:
        start_scene(scene)
    return scene


def session_scene(path: str, round_: int | None = None):
    """The scene of a saved session as the table last saw it: its answers replayed, stopping
    where they run out (or, with ``round_``, at the end of that round)."""
    from fuego.table import replay
    from fuego.table import session as sessions
    from fuego.table.replay import QuestionKind

    session = sessions.load(path)
    if round_ is not None:
        if round_ < 0:
            raise LimitError(f"--round must be 0 or more, not {round_}")
        # stop at the question before round round_+1: its answer and all after are left out
        cut = next((k for k, e in enumerate(session.inputs)
                    if e.get("q") == QuestionKind.ROUND.value and e.get("round", 0) > round_),
                   None)
        if cut is not None:
            del session.inputs[cut:]

    class _Stop:
        def answer(self, q):
            raise replay.Quit()

        def rejected(self, q, error):
            pass

        def recorded(self, player):
            pass

        def finished(self, player):
            pass

    player = replay.Player(session, _Stop())
    with contextlib.suppress(replay.Quit):
        player.run()
    assert player.scene is not None
    return player.scene


def pages_said(figures: list, paper: str | None) -> str:
    """`` (3 Letter pages)``: a PDF's pages and their paper, as the commands say them (""
    without a paper: one picture)."""
    if not paper:
        return ""
    sheet = paper.capitalize() if paper == "letter" else "A4"
    return f" ({plural(len(figures), f'{sheet} page')})"


@contextlib.contextmanager
def _missing_letters(path: str, keeps_text: bool):
    """matplotlib's warning for each letter of a name no installed font has, said once, in
    fuego's words (an SVG keeps its words as text: the viewer's fonts draw them)."""
    import re
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.filterwarnings("always", message=r"Glyph \d+ .*missing from font")
        yield
    letters = []
    for w in caught:
        found = re.match(r"Glyph (\d+) ", str(w.message))
        if found is None:  # (any other warning: as Python would have shown it)
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        elif chr(int(found[1])) not in letters:
            letters.append(chr(int(found[1])))
    if letters and not keeps_text:
        from fuego.text import drawn

        shown = ", ".join(drawn(c) for c in letters[:8]) + (", ..." if len(letters) > 8 else "")
        click.echo(f"fuego: {path}: {plural(len(letters), 'letter')} "
                   f"of the names ({shown}) in no installed font, drawn as boxes (tip: "
                   "install a font that has them, e.g. fonts-noto-cjk, or write an .svg, "
                   "which keeps them as text)", err=True)


def save_figures(figures, target, fmt: str, dpi: int) -> None:
    """Write the figures to ``target`` (a :class:`fuego.files.Output`, checked): one file for
    SVG/PNG (one figure), a multipage PDF otherwise; atomically, so a full disk leaves any
    previous file whole."""
    import zlib

    import matplotlib

    from fuego.render.mapdraw import drawn_words

    for fig in figures:  # every word on the page, whoever drew it: no control character
        drawn_words(fig)
    # (Any: matplotlib's stubs name every rc key a literal)
    rc: Any = {"svg.fonttype": "none", "svg.hashsalt": "fuego", "pdf.fonttype": 42}
    svg = fmt == "svg"  # (its words stay text: the viewer's fonts draw them)
    try:
        with matplotlib.rc_context(rc), _missing_letters(target.path, svg), \
                target.open() as fh:
            if fmt == "pdf":
                from matplotlib.backends.backend_pdf import PdfPages

                with PdfPages(fh, metadata={"Creator": "fuego", "CreationDate": None}) as pdf:
                    for fig in figures:
                        pdf.savefig(fig)
            else:
                meta = {"Date": None} if svg else {"Software": "fuego"}
                figures[0].savefig(fh, format=fmt, dpi=dpi, metadata=meta)
    except zlib.error as exc:  # the PDF's compressor fails after its file did (a full disk)
        cause = exc.__context__
        reason = (cause.strerror if isinstance(cause, OSError) and cause.strerror
                  else "the file could not be written")
        raise FuegoError(f"cannot write the map: {reason}", where=target.path,
                         tip="free some space or write elsewhere") from None


def check_png_size(sizes, dpi: int) -> None:
    for w, h in sizes:
        pw, ph = round(w * dpi), round(h * dpi)
        if pw > MAX_PNG_SIDE or ph > MAX_PNG_SIDE or pw * ph > MAX_PNG_PIXELS:
            raise LimitError(f"the PNG would be {pw} x {ph} pixels",
                             tip="lower --dpi or --scale, draw one --level, or write SVG/PDF")


@click.command("map")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", "-o", "out", required=True, metavar="MAP.svg|MAP.png|MAP.pdf",
              help="Where to write the map; the format follows the extension.")
@click.option("--level", "-l", "levels", multiple=True, metavar="NAME_OR_INDEX",
              help="Draw only this level (its name, or its index in the file); repeatable.")
@click.option("--round", "round_", type=int, default=None, metavar="N",
              help="Play N rounds first (seeded) and draw fires, smoke and damage.")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the run for --round (default: drawn at random and printed).")
@click.option("--scale", type=FiniteRange(0.2, 4.0), default=1.0, show_default=True,
              help="Inches per 10-ft square (1 for miniatures on 1-inch squares, as printed "
                   "at 100%).")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None,
              help="Paper of a PDF's pages (default: from the locale, LC_PAPER or LANG: "
                   "Letter in the US, Canada, Mexico..., else A4); larger levels are tiled.")
@click.option("--gm", is_flag=True,
              help="Also draw fires hidden from every hero (for a saved session: the GM's map).")
@click.option("--dpi", type=click.IntRange(36, 600), default=150, show_default=True,
              help="Resolution of a PNG.")
@click.option("--no-fuel", is_flag=True,
              help="No fuel: no shading, numbers, routes (carpet, oil...) or marks (oil, "
                   "powder, beams): a players' map.")
@click.option("--no-legend", is_flag=True, help="Leave out the legend.")
@click.option("--subgrid/--no-subgrid", default=None,
              help="The 5-ft grid inside each 10-ft area (default: on from --scale 1.5, so "
                   "--scale 2 prints the 1-inch squares of a battle mat).")
@click.option("--title", default=None, help="Title printed on the map (default: the scenario's).")
@click.option("--force", is_flag=True,
              help="Replace --out if it exists (never the scenario itself).")
def map_cmd(file: str, out: str, levels: tuple[str, ...], round_: int | None, seed: int | None,
            scale: float, paper: str | None, gm: bool, dpi: int, no_fuel: bool,
            no_legend: bool, subgrid: bool | None, title: str | None, force: bool) -> None:
    """Render scenario FILE (or a saved session) as a printable encounter map.

    \b
    One 10-ft square per --scale inches, with fuego's column letters and row
    numbers and the grid drawn over the plan; a PDF is printed on --paper
    pages, a level larger than a page tiled across pages; SVG and PNG show
    the levels side by side. A saved session (fuego play) is drawn as the
    table last saw it.

    \b
    Examples:
      fuego map campaigns/tavern.yaml --out tavern.pdf
      fuego map campaigns/tavern.yaml --level ground --out ground.png --scale 2
      fuego map campaigns/tavern.yaml --round 4 --seed 7 --out round4.svg
      fuego map campaigns/tavern.yaml --paper letter --scale 1 --out minis.pdf
      fuego map friday.save --out now.png --gm
    """
    from fuego.files import Output

    fmt = out_format(out)
    from fuego.render.map_style import default_paper, subgrid_default
    target = Output(out, what="map", force=force, inputs=[file]).check()
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map, figure_size
    from fuego.table.session import is_session

    drawn = False
    if is_session(file):
        scene = session_from(file, round_, seed)
        sub = f"session {os.path.basename(file)}, round {scene.round}" + \
            (" (GM's map)" if gm else "")
    else:
        scene, seed, drawn = scenario_scene(file, round_, seed)
        if round_:
            sub = f"after round {scene.round} (seed {seed})"
            if scene.round < round_:
                sub += f"; the scene ended after round {scene.round}"
        else:
            sub = "as the scene starts"
        gm = True  # a scenario played headless has no table to keep secrets from
    b = scene.building
    chosen = pick_levels(b, levels)
    options = MapOptions(levels=chosen, area_inches=scale, fuel=not no_fuel,
                         legend=not no_legend, title=title,
                         subgrid=subgrid_default(scale) if subgrid is None else subgrid, subtitle=sub,
                         layout="pages" if fmt == "pdf" else "side", gm=gm,
                         paper=(paper or default_paper()) if fmt == "pdf" else None)
    if fmt == "png":
        check_png_size(figure_size(b, scene, options), dpi)
    figures = draw_map(b, scene, options)
    save_figures(figures, target, fmt, dpi)
    n = len(chosen) if chosen else len({a.level for a in b.areas})
    what = plural(n, 'level')
    if fmt == "pdf":
        what += f" on {plural(len(figures), 'page')}"
    w, h = figures[0].get_size_inches()
    click.echo(f"fuego map: wrote {out} ({what}, {w:.1f} x {h:.1f} in, {sub})")
    if drawn:
        click.echo(f"seed {seed} — redraw with --seed {seed}", err=True)


def session_from(file: str, round_: int | None, seed: int | None):
    """A saved session's scene at ``round_`` (default: where the table stopped)."""
    if seed is not None:
        raise FuegoError("--seed does not apply to a saved session",
                         tip="the session carries its own seed and the GM's answers")
    scene = session_scene(file, round_)
    if round_ is not None and scene.round < round_:
        raise LimitError(f"--round {round_}: the session has played only {scene.round} "
                         f"round{'s' if scene.round != 1 else ''}",
                         tip="leave out --round for where the table stopped")
    return scene


def scenario_scene(file: str, round_: int | None, seed: int | None):
    """(scene, seed, whether the seed was drawn) of scenario ``file`` after ``round_`` rounds."""
    from fuego.scenario.model import load

    scenario = load(file)
    limit = scenario.settings.max_rounds
    if round_ is not None and not 0 <= round_ <= limit:
        raise LimitError(f"--round must be between 0 and {limit}, not {round_}",
                         tip="the scenario's rules.max_rounds is the longest a run goes")
    drawn = False
    if seed is None:
        if round_:
            import random

            seed, drawn = random.SystemRandom().randrange(1, 1_000_000), True
        else:
            seed = 0
    return play_to(scenario, seed, round_ or 0), seed, drawn
