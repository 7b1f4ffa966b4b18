"""Maps to play on (issue 20): the grid over the fills, paper pages tiled, maps of a session.

The PNG is read back pixel by pixel (the grid line between two areas of one room must show
through the room's fill); the PDF's pages are counted and measured from its own objects.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from builders import barrier_between
from click.testing import CliRunner

from fuego.cli import cli
from fuego.engine.sight import players_sight
from fuego.render.map_style import WALL_STYLE, default_paper, legend_labels

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_the_grid_shows_inside_rooms_on_the_tavern_ground_floor(tmp_path):
    import matplotlib.image

    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map
    from fuego.scenario.model import load

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
    e3, f3 = b.at(ground, 4, 2), b.at(ground, 5, 2)
    assert e3 is not None and f3 is not None
    assert b.areas[e3].room == b.areas[f3].room == "common"
    assert barrier_between(b, e3, f3).kind.value == "open"
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
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map
    from fuego.scenario.model import load

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
    from fuego.table import replay
    from fuego.table import session as sessions
    from fuego.table.replay import QuestionKind

    class Answers:
        def __init__(self):
            self.rounds = 0

        def answer(self, q):
            if q.kind is QuestionKind.ROUND:
                self.rounds += 1
                if self.rounds > rounds:
                    raise replay.Quit()
                return "next"
            return ""

        def rejected(self, q, error):
            raise AssertionError(error)

        def recorded(self, player):
            pass

        def finished(self, player):
            pass

    session = sessions.new(str(TAVERN), 7)
    player = replay.Player(session, Answers())
    with pytest.raises(replay.Quit):
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
    ids = {el.attrib["id"] for el in ET.parse(svg).getroot().iter() if el.get("id")}
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
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map
    from fuego.scenario.model import load

    scene = load(TAVERN).build(0)
    i = next(iter(scene.fires))  # the kitchen fire: no hero sees it (fuego.engine.sight)
    assert i not in players_sight(scene).fires
    gids = lambda figs: {a.get_gid() for f in figs for ax in f.axes for a in ax.patches}  # noqa: E731
    players = gids(draw_map(scene.building, scene, MapOptions(gm=False)))
    gm = gids(draw_map(scene.building, scene, MapOptions(gm=True)))
    name = scene.area_name(i)
    assert f"fire-{name}" not in players and f"fire-hidden-{name}" not in players
    assert f"fire-hidden-{name}" in gm


@pytest.mark.slow
def test_the_gms_mark_for_a_fire_no_hero_sees_keeps_its_kind_and_says_so_in_the_legend():
    """A hidden fire is drawn in its own colour (a Flame pale yellow, a hot fire red) in a
    dashed outline, and the legend names its kind; it was a white dashed circle, the same
    for a Flame and a fire burning hot."""
    from matplotlib.colors import to_hex
    from matplotlib.text import Text

    from fuego.engine.fire import FireState
    from fuego.render.map_style import FIRE_COLOUR, FireMark, Legend, MapOptions, legend_labels
    from fuego.render.mapdraw import draw_map
    from fuego.rules.charts import Temperature
    from fuego.scenario.model import load

    scene = load(TAVERN).build(0)
    seen = players_sight(scene).fires
    hidden = [i for i in sorted(scene.fires) if i not in seen]
    assert hidden
    fire = scene.fires[hidden[0]]
    for state, temperature, mark, word in (
            (FireState.FLAME, Temperature.REGULAR, FireMark.FLAME, "flame no hero sees"),
            (FireState.BURNING, Temperature.HOT, FireMark.HOT, "hot fire no hero sees")):
        fire.state, fire.temperature = state, temperature
        figs = draw_map(scene.building, scene, MapOptions(gm=True))
        patches = {p.get_gid(): p for f in figs for ax in f.axes for p in ax.patches}
        words = {t.get_text() for f in figs for t in f.findobj(Text)}
        mark_of = patches[f"fire-hidden-{scene.area_name(hidden[0])}"]
        assert to_hex(mark_of.get_facecolor()) == FIRE_COLOUR[mark.value]
        assert mark_of.get_linestyle() not in ("-", "solid")  # dashed
        keys = [k for k in legend_labels(scene.building, scene, MapOptions(gm=True))
                if k[0] is Legend.FIRE and k[1] is FireMark.HIDDEN]
        assert (Legend.FIRE, FireMark.HIDDEN, mark) in keys
        assert f"{word} (GM only: its colour, dashed)" in words


@pytest.mark.slow
def test_with_every_hero_down_the_gms_map_draws_each_fire_as_it_burns_and_the_players_none():
    from fuego.engine.heroes import Status
    from fuego.render.map_style import FireMark, Legend, MapOptions
    from fuego.render.mapdraw import draw_map
    from fuego.scenario.model import load

    scene = load(TAVERN).build(0)
    for hero in scene.heroes:  # nobody left to look: no fire is hidden from anyone
        hero.status = Status.KNOCKED_OUT
    names = {scene.area_name(i) for i in scene.fires}
    gids = lambda figs: {a.get_gid() for f in figs for ax in f.axes for a in ax.patches}  # noqa: E731
    gm = gids(draw_map(scene.building, scene, MapOptions(gm=True)))
    assert {g for g in gm if g and g.startswith("fire-")} == {f"fire-{n}" for n in names}
    marks = {k[1] for k in legend_labels(scene.building, scene, MapOptions(gm=True))
             if k[0] is Legend.FIRE}
    assert marks and FireMark.HIDDEN not in marks
    # the players' map still shows only what their heroes see: nothing
    players = gids(draw_map(scene.building, scene, MapOptions(gm=False)))
    assert not {g for g in players if g and g.startswith("fire-")}
    assert not [k for k in legend_labels(scene.building, scene, MapOptions(gm=False))
                if k[0] is Legend.FIRE]


def test_the_terminal_plan_keeps_one_symbol_per_thing_and_wraps_its_key():
    """At the table: a broken barrier is not the burned-out ``x``, no room letter is a mark,
    and the key is wrapped rather than cut at the panel's edge."""
    from fuego.render.terminal import KEY_WIDTH, MARK_CHARS, plan_plain, room_symbols
    from fuego.scenario.model import load

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
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map
    from fuego.scenario.model import load

    scene = play_to(load(ROOT / "campaigns" / name), 7, 6)
    for scale in (1.0, 0.6):
        fig, = draw_map(scene.building, scene, MapOptions(area_inches=scale))
        renderer = FigureCanvasAgg(fig).get_renderer()
        for ax in fig.axes:
            tokens = [p for p in ax.patches
                      if (p.get_gid() or "").startswith(("hero-", "fire-"))]
            boxes = []
            for t in ax.texts:
                x, y = ax.transData.transform(t.get_position())
                if t.get_text() and not any(p.contains_point((x, y)) for p in tokens):
                    boxes.append((t.get_text(), t.get_window_extent(renderer)))
            assert len(boxes) > 3
            for (a, ba), (b, bb) in itertools.combinations(boxes, 2):
                assert not ba.overlaps(bb), (scale, a, b)
            for a, box in boxes:
                for p in tokens:
                    assert not box.overlaps(p.get_window_extent(renderer)), (scale, a, p.get_gid())



def _drawn_words(fig):
    """Each plan's drawn words off the tokens, (gid, text, box in pixels), and its leader
    lines, (gid, (x0, y0, x1, y1) in pixels), measured by matplotlib after a draw."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    for ax in _plan_axes(fig):
        tokens = [p for p in ax.patches
                  if (p.get_gid() or "").startswith(("hero-", "fire-"))]
        words = []
        for t in ax.texts:
            x, y = ax.transData.transform(t.get_position())
            if t.get_text() and not any(p.contains_point((x, y)) for p in tokens):
                words.append((t.get_gid() or "", t.get_text(), t.get_window_extent(renderer)))
        leaders = []
        for line in ax.lines:
            if "-leader-" in (line.get_gid() or ""):
                (x0, y0), (x1, y1) = ax.transData.transform(list(zip(*line.get_data())))
                leaders.append((line.get_gid(), (x0, y0, x1, y1)))
        yield words, leaders


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tavern.yaml", "ship.yaml", "village.yaml", "wagon.yaml"])
def test_words_set_beside_their_areas_keep_clear_of_each_other_and_of_every_leader(name):
    """At half scale on A4, as played and after six crowded rounds (oil spilt in every cellar
    area): no two drawn words overlap, and no leader line crosses a word but its own. The
    space a word set beside its area and its leader take used to be free for a later one."""
    import itertools

    from fuego.cli.mapcmd import play_to
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import crosses, draw_map
    from fuego.scenario.model import load

    scenario = load(ROOT / "campaigns" / name)
    besides = 0
    for rounds in (0, 6):
        scene = play_to(scenario, 7, rounds)
        options = MapOptions(area_inches=0.5, layout="pages", paper="a4")
        for words, leaders in (part for fig in draw_map(scene.building, scene, options)
                               for part in _drawn_words(fig)):
            for (_, a, ba), (_, b, bb) in itertools.combinations(words, 2):
                assert not ba.overlaps(bb), (rounds, a, b)
            for gid, line in leaders:
                own = gid.replace("-leader", "")  # feature-leader-oil-X: feature-oil-X
                for word_gid, text, box in words:
                    assert word_gid == own or not crosses(
                        line, (box.x0, box.y0, box.x1, box.y1)), (rounds, gid, text)
            besides += len(leaders)
    if name in ("tavern.yaml", "ship.yaml"):
        assert besides  # (these crowd at half scale: some word stands beside its area)


# -- issue 25: maps a GM prints and plays on ------------------------------------------------------
def _scene(name: str = "tavern.yaml"):
    from fuego.scenario.model import load

    return load(ROOT / "campaigns" / name).build(0)


def _plan_axes(fig):
    return [ax for ax in fig.axes if ax.get_gid() != "page-index"]


def _level_of(b, ax) -> int:
    """The level a plan's axes draw (from its areas' gids)."""
    names = {p.get_gid()[5:] for p in ax.patches if (p.get_gid() or "").startswith("area-")}
    return b.areas[b.find(next(iter(names)))].level


def test_outer_walls_are_drawn_wherever_the_building_has_them_and_rock_is_not_floor():
    """The tavern's cellar is dug into rock (``#`` all round): its rooms are walled on every
    side that meets rock or the plan's edge, and the rock squares inside the plan are grey and
    hatched, not white like a floor."""
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    scene = _scene()
    b = scene.building
    fig, = draw_map(b, scene, MapOptions())
    for ax in _plan_axes(fig):
        lv = _level_of(b, ax)
        walls = {ln.get_gid() for ln in ax.lines if (ln.get_gid() or "").startswith("outer-")}
        want = set()
        for a in b.areas:
            if a.level != lv or b.rooms[a.room].outdoors:
                continue
            for dc, dr, side in ((-1, 0, "w"), (1, 0, "e"), (0, -1, "n"), (0, 1, "s")):
                if b.at(lv, a.col + dc, a.row + dr) is None:
                    want.add(f"outer-wall-{a.name}-{side}")
        assert walls == want and want, b.levels[lv].name
        for ln in ax.lines:  # drawn as the room's wall: its width and colour
            if ln.get_gid() in want:
                a = b.areas[b.find(ln.get_gid()[len("outer-wall-"):-2])]
                lw, colour, _ = WALL_STYLE[b.rooms[a.room].wall]
                assert ln.get_linewidth() == pytest.approx(lw) and ln.get_color() == colour
        cols = [a.col for a in b.areas if a.level == lv]
        rows = [a.row for a in b.areas if a.level == lv]
        rock = {(c, r) for c in range(min(cols), max(cols) + 1)
                for r in range(min(rows), max(rows) + 1) if b.at(lv, c, r) is None}
        voids = [p for p in ax.patches if (p.get_gid() or "").startswith("void-")]
        assert {(round(p.get_x()), round(p.get_y())) for p in voids} == rock
        for p in voids:
            assert p.get_hatch() and max(p.get_facecolor()[:3]) < 0.9  # grey, hatched
    cellar = b.level_named("cellar").index
    assert cellar in {_level_of(b, ax) for ax in _plan_axes(fig)}
    assert {"outer-wall-cellar:B2-n", "outer-wall-cellar:B2-w", "outer-wall-cellar:C5-s"} <= {
        ln.get_gid() for ax in _plan_axes(fig) for ln in ax.lines}
    assert ("void",) in legend_labels(b, scene)


def _tavern_tiles(paper: str = "letter", scale: float = 2.0, scene=None):
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    scene = scene or _scene()
    return scene, draw_map(scene.building, scene, MapOptions(
        layout="pages", paper=paper, area_inches=scale, subtitle="as the scene starts"))


@pytest.mark.slow
def test_tiled_pages_share_a_quarter_inch_with_crop_and_alignment_marks(tmp_path):
    from matplotlib.figure import Figure

    from fuego.render.map_style import OVERLAP, PAPER

    scene, figs = _tavern_tiles()
    b = scene.building
    assert len(figs) <= 12  # 22 when every page repeated a whole 10-ft square
    for fig in figs:
        assert sorted(fig.get_size_inches()) == pytest.approx(sorted(PAPER["letter"]))
    by_level: dict[int, list] = {}
    for fig in figs:
        for ax in _plan_axes(fig):
            x0, x1 = ax.get_xlim()
            y1, y0 = ax.get_ylim()
            # to scale: two inches a 10-ft square
            assert ax.get_position().width * fig.get_size_inches()[0] == pytest.approx(
                2 * (x1 - x0))
            by_level.setdefault(_level_of(b, ax), []).append((fig, ax, (x0, x1, y0, y1)))
    for lv, tiles in by_level.items():
        assert len(tiles) > 1
        xs = sorted({(w[0], w[1]) for _, _, w in tiles})
        ys = sorted({(w[2], w[3]) for _, _, w in tiles})
        # neighbours overlap by a quarter of an inch, no more; together they show the level
        for (_, a1), (b0, _) in zip(xs, xs[1:]):
            assert (a1 - b0) * 2 == pytest.approx(OVERLAP)
        for (_, a1), (b0, _) in zip(ys, ys[1:]):
            assert (a1 - b0) * 2 == pytest.approx(OVERLAP)
        c0, c1, r0, r1 = (min(a.col for a in b.areas if a.level == lv),
                          max(a.col for a in b.areas if a.level == lv),
                          min(a.row for a in b.areas if a.level == lv),
                          max(a.row for a in b.areas if a.level == lv))
        assert xs[0][0] == c0 and xs[-1][1] == c1 + 1 and ys[0][0] == r0 and ys[-1][1] == r1 + 1
        # the alignment crosses: in the shared strips, at the same place of the plan on both
        # neighbouring pages
        crosses: dict[tuple[float, ...], list[Figure]] = {}
        for fig, ax, _ in tiles:
            for p in ax.patches:
                if (p.get_gid() or "").startswith("align-"):
                    crosses.setdefault(tuple(round(v, 6) for v in p.center), []).append(fig)
            assert sum(1 for a in fig.artists + fig.lines if a.get_gid() == "crop-mark") == 8
        assert crosses and all(len(figs_) >= 2 for figs_ in crosses.values())
    out = tmp_path / "tavern.pdf"
    result = invoke("map", str(TAVERN), "--scale", "2", "--paper", "letter", "--out", str(out))
    assert result.exit_code == 0, result.output
    pages = _pages(out.read_bytes())
    assert len(pages) == len(figs) <= 12
    assert f"on {len(pages)} pages" in result.output


@pytest.mark.slow
def test_tokens_on_a_tiled_page_are_clipped_with_their_initials():
    """A hero standing on the seam of two pages: both pages draw the disc and the initials,
    each clipped to its page's plan, so no letter prints in the margin."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    scene = _scene()
    b = scene.building
    hero = scene.heroes[0]
    _, figs = _tavern_tiles(scene=scene)
    ground = b.areas[hero.area].level
    seam = None
    for fig in figs:
        for ax in _plan_axes(fig):
            if _level_of(b, ax) == ground:
                seam = ax.get_xlim()[1]
                break
        if seam is not None:
            break
    assert seam is not None
    on_seam = b.at(ground, int(seam), 1)  # the column the first page's edge cuts
    assert on_seam is not None
    hero.area = on_seam
    _, figs = _tavern_tiles(scene=scene)
    mark = "".join(w[0] for w in hero.name.split()[:2]).upper()
    seen = 0
    for fig in figs:
        renderer = FigureCanvasAgg(fig).get_renderer()
        for ax in _plan_axes(fig):
            for t in ax.texts:
                assert t.get_clip_on(), t.get_text()  # nothing of the plan in the margin
            disc = [p for p in ax.patches if p.get_gid() == f"hero-{hero.name.replace(' ', '-')}"]
            if disc and _level_of(b, ax) == ground:
                x0, x1 = ax.get_xlim()
                if x0 < disc[0].center[0] < x1 or abs(disc[0].center[0] - x1) < 0.3:
                    letters = [t for t in ax.texts if t.get_text() == mark]
                    assert letters
                    clip = letters[0].get_clip_box() or letters[0].get_clip_path()
                    assert clip is not None
                    seen += 1
        renderer.clear()
    assert seen >= 2  # on both pages of the seam


@pytest.mark.slow
def test_a_battle_mat_scale_draws_the_one_inch_grid_by_default(tmp_path):
    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    for scale, want in (("2", True), ("1", False)):
        out = tmp_path / f"s{scale}.svg"
        assert invoke("map", str(TAVERN), "--scale", scale, "--level", "ground", "--out",
                      str(out)).exit_code == 0
        assert ('id="subgrid"' in out.read_text()) is want, scale
    out = tmp_path / "off.svg"
    assert invoke("map", str(TAVERN), "--scale", "2", "--no-subgrid", "--level", "ground",
                  "--out", str(out)).exit_code == 0
    assert 'id="subgrid"' not in out.read_text()
    # the lines: every inch across the plan at 1 in per 5 ft
    scene = _scene()
    fig, = draw_map(scene.building, scene, MapOptions(area_inches=2.0, subgrid=True,
                                                      levels=(1,)))
    ax = _plan_axes(fig)[0]
    xs = set()
    for coll in ax.collections:
        if coll.get_gid() in ("grid", "subgrid"):
            xs |= {round(seg[0][0] * 2, 6) for seg in coll.get_segments()
                   if seg[0][0] == seg[1][0]}
    assert sorted(xs) == [float(k) for k in range(0, 17)]  # 8 squares, 16 inches


def _all_texts(fig):
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_text().strip() and t.get_visible()]


@pytest.mark.slow
@pytest.mark.parametrize("paper,scale", [("letter", 2.0), ("a4", 1.0), ("letter", 0.5)])
def test_every_label_is_at_least_8_points_at_print_size(paper, scale):
    from fuego.cli.mapcmd import play_to
    from fuego.render.map_style import MIN_PT, MapOptions
    from fuego.render.mapdraw import draw_map
    from fuego.scenario.model import load

    for name in ("tavern.yaml", "ship.yaml", "village.yaml", "wagon.yaml"):
        scene = play_to(load(ROOT / "campaigns" / name), 7, 3)
        figs = draw_map(scene.building, scene, MapOptions(
            layout="pages", paper=paper, area_inches=scale, subtitle="after round 3"))
        sizes = [(t.get_fontsize(), t.get_text()) for fig in figs for t in _all_texts(fig)]
        assert sizes and min(sizes)[0] >= MIN_PT == 8, (name, min(sizes))


def test_one_exit_mark_per_run_of_way_out_squares():
    from matplotlib.collections import LineCollection

    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    counts = {}
    for name in ("tavern.yaml", "wagon.yaml"):
        scene = _scene(name)
        b = scene.building
        fig, = draw_map(b, scene, MapOptions())
        counts[name] = sum(t.get_text() == "EXIT" for ax in fig.axes for t in ax.texts)
        outlines = [c for ax in fig.axes for c in ax.collections
                    if isinstance(c, LineCollection) and (c.get_gid() or "").startswith("exit-")]
        assert len(outlines) == counts[name]
        # every exit square lies inside one outline's box
        for a in b.areas:
            if b.is_exit(a.index):
                assert sum(
                    min(p[0] for s in c.get_segments() for p in s) < a.col + 0.5 <
                    max(p[0] for s in c.get_segments() for p in s) and
                    min(p[1] for s in c.get_segments() for p in s) < a.row + 0.5 <
                    max(p[1] for s in c.get_segments() for p in s) for c in outlines) == 1
    assert counts == {"tavern.yaml": 1, "wagon.yaml": 2}  # Goose Lane; the two lane ends


@pytest.mark.slow
def test_a_long_title_wraps_inside_the_page(tmp_path):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    title = ("The Gilded Goose on Goose Lane, the night the smugglers' powder went up and the "
             "whole harbour quarter watched from the quay")
    scene = _scene()
    for options in (MapOptions(title=title, levels=(0,)),
                    MapOptions(title=title, layout="pages", paper="letter", area_inches=2.0)):
        for fig in draw_map(scene.building, scene, options):
            renderer = FigureCanvasAgg(fig).get_renderer()
            text, = [t for t in fig.texts if t.get_gid() == "map-title"]
            assert "\n" in text.get_text() and text.get_text().replace("\n", " ") == title
            box = text.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= fig.bbox.x1
            for other in fig.texts + [ax.title for ax in fig.axes]:
                if other is not text and other.get_text():
                    assert not box.overlaps(other.get_window_extent(renderer)), other.get_text()
            for ax in fig.axes:
                assert not box.overlaps(ax.get_window_extent(renderer))


@pytest.mark.parametrize("words", ["WOMW MWWM " * 8, "ill lil fil " * 12, "Mother Hettie's"
                                   " Wine Shop on the Rue des Tonneaux, by night"])
def test_a_wrapped_title_fits_its_width_as_drawn_and_fills_it(words):
    """Titles are measured as every drawn word is (DejaVu Sans Bold's widths): drawn bold,
    each line fits (wide capitals overran the flat 0.66 em a character) and a line of narrow
    letters is not broken half empty (the flat measure broke 'ill lil' at half the width)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from fuego.render.mapdraw import TITLE_PT, wrap_words

    width = 4.0
    lines = wrap_words(words.strip(), width, TITLE_PT).split("\n")
    assert " ".join(lines) == " ".join(words.split())
    fig = Figure(figsize=(8, 2), dpi=100)
    renderer = FigureCanvasAgg(fig).get_renderer()
    for n, line in enumerate(lines):
        text = fig.text(0, 0.5, line, fontsize=TITLE_PT, fontweight="bold")
        drawn = text.get_window_extent(renderer).width / fig.dpi
        assert drawn <= width, (line, drawn)
        if n < len(lines) - 1:
            assert drawn > 0.75 * width, (line, drawn)


def test_no_fuel_hides_every_fuel_and_feature_mark(tmp_path):
    """The tavern has oil, gunpowder, a beam and fuel routes: ``--no-fuel`` shows none of them,
    nor the fuel numbers and shading, nor their legend."""
    import xml.etree.ElementTree as ET

    from fuego.render.map_style import MapOptions
    from fuego.render.mapdraw import draw_map

    scene = _scene()
    b = scene.building
    words = {"oil", "powder", "beam"}
    full, = draw_map(b, scene, MapOptions())
    texts = {t.get_text() for ax in full.axes for t in ax.texts}
    assert words <= texts  # they are there to hide
    assert any((ln.get_gid() or "").startswith("route-") for ax in full.axes for ln in ax.lines)
    bare, = draw_map(b, scene, MapOptions(fuel=False))
    texts = {t.get_text() for ax in bare.axes for t in ax.texts}
    assert not words & texts
    fuels = {str(a.fuel) for a in b.areas if a.fuel > 0}
    assert not fuels & texts - {str(f.fd) for f in scene.fires.values()}
    gids = {a.get_gid() or "" for ax in bare.axes for a in [*ax.lines, *ax.patches]}
    assert not {g for g in gids if g.startswith(("route-", "feature-"))}
    keys = legend_labels(b, scene, MapOptions(fuel=False))
    assert not [k for k in keys if k[0] in ("fuel", "feature", "route")]
    out = tmp_path / "players.svg"
    assert invoke("map", str(TAVERN), "--no-fuel", "--out", str(out)).exit_code == 0
    ids = {el.get("id") or "" for el in ET.parse(out).getroot().iter()}
    assert not {i for i in ids if i.startswith(("route-", "feature-"))}
