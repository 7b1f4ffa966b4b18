"""Maps to play on (issue 20): the grid over the fills, paper pages tiled, maps of a session.

The PNG is read back pixel by pixel (the grid line between two areas of one room must show
through the room's fill); the PDF's pages are counted and measured from its own objects.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.engine.sight import players_sight
from fuego.render.map_style import default_paper

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_the_grid_shows_inside_rooms_on_the_tavern_ground_floor(tmp_path):
    import matplotlib.image

    from fuego.render.mapdraw import MapOptions, draw_map
    from fuego.scenario import load

    dpi = 200
    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    fig, = draw_map(b, scene, MapOptions(levels=(ground,)))
    out = tmp_path / "ground.png"
    fig.savefig(out, dpi=dpi)
    pixels = matplotlib.image.imread(out)
    fig.set_dpi(dpi)
    ax = fig.axes[0]
    height = pixels.shape[0]

    def pixel(x: float, y: float):
        px, py = ax.transData.transform((x, y))
        return round(px), height - 1 - round(py)

    # column line x=5 between E and F, inside the common room (rows 2-3: E2/F2, E3/F3)
    assert b.areas[b.at(ground, 4, 2)].room == b.areas[b.at(ground, 5, 2)].room == "common"
    assert b.between(b.at(ground, 4, 2), b.at(ground, 5, 2)).kind.value == "open"
    for y in (1.3, 1.5, 2.3, 2.5):
        cx, cy = pixel(5.0, y)
        across = pixels[cy, cx - 3:cx + 4, :3]
        fill = pixels[cy, cx - 25, :3]  # a fifth of an area away: the room's fill
        darkest = across[across.sum(axis=1).argmin()]
        # the line is grey and clearly darker than the fill on either side
        assert fill.sum() - darkest.sum() > 0.45, (y, fill, darkest)
        assert max(darkest) - min(darkest) < 0.2, darkest
    # a row line inside the same room, y=2 between rows 2 and 3 at column G
    for x in (6.3, 6.6):
        cx, cy = pixel(x, 2.0)
        across = pixels[cy - 3:cy + 4, cx, :3]
        fill = pixels[cy - 25, cx, :3]
        assert fill.sum() - across.sum(axis=1).min() > 0.45


def _plan(cols: int, rows: int) -> str:
    row = "r" * cols
    plan = "\n".join("      " + row for _ in range(rows))
    return f"""format: 1
title: Big hall
rooms:
  hall: {{name: Hall, fuel: 3}}
legend:
  r: hall
levels:
  - name: ground
    plan: |
{plan}
heroes:
  - {{name: Ana, start: ground:A1}}
"""


def _pages(data: bytes) -> list[tuple[float, float]]:
    assert data.startswith(b"%PDF")
    n = len(re.findall(rb"/Type\s*/Page\b", data))
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert len(boxes) == n
    return [(float(w), float(h)) for w, h in boxes]


@pytest.mark.slow
def test_a_level_larger_than_a_letter_page_is_tiled_across_pages(tmp_path):
    scenario = tmp_path / "big.yaml"
    scenario.write_text(_plan(20, 20), encoding="utf-8")
    out = tmp_path / "big.pdf"
    result = invoke("map", str(scenario), "--scale", "1", "--paper", "letter", "--out", str(out))
    assert result.exit_code == 0, result.output
    pages = _pages(out.read_bytes())
    # 20 x 20 one-inch squares cannot fit on 8.5 x 11 in: several pages, every one Letter
    assert len(pages) > 1
    assert all(sorted(p) == pytest.approx([612.0, 792.0]) for p in pages)
    assert f"on {len(pages)} pages" in result.output
    # one inch per square: the tiles cover 20 columns with one shared per page boundary
    from fuego.render.mapdraw import MapOptions, draw_map
    from fuego.scenario import load

    b = load(scenario).build(0).building
    figs = draw_map(b, None, MapOptions(layout="pages", paper="letter", area_inches=1.0))
    shown = set()
    for fig in figs:
        for ax in fig.axes:
            if ax.get_gid() == "page-index" or not ax.get_xticks().size:
                continue
            w = ax.get_position().width * fig.get_size_inches()[0]
            x0, x1 = ax.get_xlim()
            assert w == pytest.approx(x1 - x0)  # to scale: an inch per column
            y1, y0 = ax.get_ylim()
            shown |= {(c, r) for c in range(round(x0), round(x1))
                      for r in range(round(y0), round(y1))}
    assert shown == {(a.col, a.row) for a in b.areas}


def test_the_paper_follows_the_locale():
    assert default_paper({"LANG": "en_US.UTF-8"}) == "letter"
    assert default_paper({"LC_PAPER": "fr_CA.UTF-8", "LANG": "fr_FR.UTF-8"}) == "letter"
    assert default_paper({"LANG": "de_DE.UTF-8"}) == "a4"
    assert default_paper({"LC_ALL": "en_GB.UTF-8", "LANG": "en_US.UTF-8"}) == "a4"
    assert default_paper({}) == "a4"


def _saved_session(tmp_path: Path, rounds: int) -> Path:
    from fuego.table import session as sessions

    class Answers:
        def __init__(self):
            self.rounds = 0

        def answer(self, q):
            if q.kind == "round":
                self.rounds += 1
                if self.rounds > rounds:
                    raise sessions.Quit()
                return "next"
            return ""

        def rejected(self, q, error):
            raise AssertionError(error)

        def recorded(self, player):
            pass

        def finished(self, player):
            pass

    session = sessions.new(str(TAVERN), 7)
    player = sessions.Player(session, Answers())
    with pytest.raises(sessions.Quit):
        player.run()
    path = tmp_path / "s1.save"
    sessions.save(session, str(path))
    return path


@pytest.mark.slow
def test_a_saved_session_is_drawn_as_the_table_last_saw_it(tmp_path):
    import xml.etree.ElementTree as ET

    save = _saved_session(tmp_path, 3)
    png = tmp_path / "x.png"
    result = invoke("map", str(save), "--out", str(png))
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "round 3" in result.output
    # the same state as the session replayed: every fire of that scene is drawn
    from fuego.cli.mapcmd import session_scene

    scene = session_scene(str(save))
    assert scene.round == 3 and scene.fires
    svg = tmp_path / "x.svg"
    assert invoke("map", str(save), "--out", str(svg), "--gm").exit_code == 0
    ids = {el.get("id") for el in ET.parse(svg).getroot().iter() if el.get("id")}
    drawn = {i for i in ids if i.startswith("fire-")}
    seen = players_sight(scene).fires
    assert drawn == {("fire-" if i in seen else "fire-hidden-") + scene.area_name(i)
                     for i in scene.fires}
    result = invoke("map", str(save), "--out", str(png), "--round", "2", "--force")
    assert result.exit_code == 0 and "round 2" in result.output
    result = invoke("map", str(save), "--out", str(png), "--round", "9", "--force")
    assert result.exit_code == 2 and "played only 3 rounds" in result.output
    result = invoke("map", str(save), "--out", str(png), "--seed", "2", "--force")
    assert result.exit_code == 2 and "saved session" in result.output


@pytest.mark.slow
def test_hidden_fires_are_only_on_the_gms_map(tmp_path):
    from fuego.render.mapdraw import MapOptions, draw_map
    from fuego.scenario import load

    scene = load(TAVERN).build(0)
    i = next(iter(scene.fires))  # the kitchen fire: no hero sees it (fuego.engine.sight)
    assert i not in players_sight(scene).fires
    gids = lambda figs: {a.get_gid() for f in figs for ax in f.axes for a in ax.patches}  # noqa: E731
    players = gids(draw_map(scene.building, scene, MapOptions(gm=False)))
    gm = gids(draw_map(scene.building, scene, MapOptions(gm=True)))
    name = scene.area_name(i)
    assert f"fire-{name}" not in players and f"fire-hidden-{name}" not in players
    assert f"fire-hidden-{name}" in gm


def test_the_terminal_plan_keeps_one_symbol_per_thing_and_wraps_its_key():
    """At the table: a broken barrier is not the burned-out ``x``, no room letter is a mark,
    and the key is wrapped rather than cut at the panel's edge."""
    from fuego.render.terminal import KEY_WIDTH, MARK_CHARS, plan_plain, room_symbols
    from fuego.scenario import load

    for path in sorted((ROOT / "campaigns").glob("*.yaml")):
        scenario = load(path)
        symbols = room_symbols(scenario.build(0).building, scenario.symbols)
        assert not set(symbols.values()) & MARK_CHARS, path.name
    scenario = load(TAVERN)
    scene = scenario.build(0)
    b = scene.building
    wall = next(x for x in b.barriers if x.kind.value == "wall"
                and b.areas[x.a].level == b.areas[x.b].level == 1)
    b.destroy_barrier(wall)
    b.burn_out(wall.a)
    lines = plan_plain(scene, "ground", symbols=scenario.symbols)
    key = [line.strip() for line in lines if "cell: room" in line or line.startswith("  ")]
    text = "\n".join(lines)
    assert "/ broken wall, door or window (a gap)" in text
    assert "x fuel burned out" in text
    assert "x broken" not in text
    assert all(len(line) <= KEY_WIDTH + 2 for line in lines[lines.index("Legend:"):])
    assert key


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tavern.yaml", "ship.yaml", "village.yaml"])
def test_no_label_overlaps_another_or_a_token(name):
    """Measured by matplotlib itself (each text's drawn box), not by the placer's estimate."""
    import itertools

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from fuego.cli.mapcmd import play_to
    from fuego.render.mapdraw import MapOptions, draw_map
    from fuego.scenario import load

    scene = play_to(load(ROOT / "campaigns" / name), 7, 6)
    for scale in (1.0, 0.6):
        fig, = draw_map(scene.building, scene, MapOptions(area_inches=scale))
        renderer = FigureCanvasAgg(fig).get_renderer()
        for ax in fig.axes:
            tokens = [p for p in ax.patches
                      if (p.get_gid() or "").startswith(("hero-", "fire-"))]
            boxes = []
            for t in ax.texts:
                at = ax.transData.transform(t.get_position())
                if t.get_text() and not any(p.contains_point(at) for p in tokens):
                    boxes.append((t.get_text(), t.get_window_extent(renderer)))
            assert len(boxes) > 3
            for (a, ba), (b, bb) in itertools.combinations(boxes, 2):
                assert not ba.overlaps(bb), (scale, a, b)
            for a, box in boxes:
                for p in tokens:
                    assert not box.overlaps(p.get_window_extent(renderer)), (scale, a, p.get_gid())
