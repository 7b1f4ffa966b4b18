"""A building (or a live scene) drawn as text for the terminal: a pure function of state.

:func:`plan_text` returns the lines of one level's drawing (``rich.text.Text``, styled for a
colour terminal; ``.plain`` gives the text) with a legend underneath. ``fuego show`` draws a
scenario's starting state with it; ``fuego play`` and ``fuego run`` can draw the live scene
(fires with their Fire Dice, smoke, heroes, doors open or closed, burned-out areas).

Each 10-ft area is a 3-character cell; barriers are drawn between cells: a 1-character column
between areas side by side, a 3-character run between rows. Cell, left to right: the room's
plan character; the fuel left (``.`` none, ``x`` burned out); a mark (stairs, feature). A fire
shows as ``*`` and its Fire Dice, a hero as ``@`` and an initial (in a fire, ``@`` alone after
the Fire Dice), something a module keeps burning (a burning wreck) as ``&``, a fire break the
heroes cleared (module fire-breaks) as ``=`` in the mark's place; smoke fills the blanks. A
broken barrier is ``/`` (a gap), never ``x``. A room's character is never one of the marks
(:data:`MARK_CHARS`) and no two rooms of a building share one: a GM's plan character that is
taken gets another, which the legend names. Nothing here prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.engine.heroes import Status
from fuego.errors import FuegoError
from fuego.modules.fire_breaks import cleared_by_area
from fuego.render.map_style import FIRE_BREAK_WORDS, initials
from fuego.rules.charts import Structure, Temperature
from fuego.words import plural
from fuego.world.building import Building
from fuego.world.places import PLAN_MARKS, BarrierKind, Feature, column_letters

if TYPE_CHECKING:
    from rich.text import Text

    from fuego.engine.scene import Scene

#: structure -> (vertical, horizontal) characters, Unicode and ASCII.
WALL_GLYPHS: dict[Structure, tuple[str, str, str, str]] = {
    Structure.PAPER_WALL: ("┊", "┈┈┈", ":", "..."),
    Structure.THIN_WOODEN_WALL: ("╎", "╌╌╌", "!", "- -"),
    Structure.WOODEN_WALL: ("│", "───", "|", "---"),
    Structure.THICK_WOODEN_WALL: ("┃", "━━━", "H", "==="),
    Structure.THIN_STONE_WALL: ("╏", "╍╍╍", "I", "=#="),
    Structure.STONE_WALL: ("║", "═══", "#", "###"),
    Structure.THICK_STONE_WALL: ("█", "███", "M", "MMM"),
}
STONE = {Structure.THIN_STONE_WALL, Structure.STONE_WALL, Structure.THICK_STONE_WALL}
#: (closed, open) letters of doors and windows; a broken barrier is :data:`BROKEN_GLYPH`.
OPENABLE_GLYPHS = {BarrierKind.DOOR: ("D", "d"), BarrierKind.WINDOW: ("W", "w")}
BROKEN_GLYPH = "/"
#: An explosive (a keg of spirits, lamp gas), in a cell's third place: no letter, so no room's
#: (and no wall's: ``!`` is the ASCII thin wooden wall).
EXPLOSIVE_MARK = "^"
#: Marks in a cell's third place, first match wins.
LINK_MARKS = {BarrierKind.STAIRS: ("<", ">"), BarrierKind.LADDER: ("L", "L"),
              BarrierKind.HOLE: ("O", "O")}
FEATURE_MARKS = [(Feature.EXIT, "E"), (Feature.GUNPOWDER, "g"), (Feature.EXPLOSIVE, EXPLOSIVE_MARK),
                 (Feature.OIL, "o"), (Feature.WOODEN_BEAM, "b"), (Feature.STONE_BEAM, "b"),
                 (Feature.LARGE_STONE_BEAM, "b")]
SMOKE_FILL = {1: ("~", "~"), 2: ("≈", "%")}  # density -> (unicode, ascii)
#: Something a module keeps burning outside the fires (a burning wreck), in a cell's third place.
ALSO_BURNING_MARK = "&"
#: A fire break cleared before the fire (module fire-breaks), in a cell's third place.
FIRE_BREAK_MARK = "="
_LETTERS = set("DdWw/ ")  # door, window and broken marks: lines do not continue through them
#: Characters that mean something on the plan: no room is drawn with one of them.
MARK_CHARS = PLAN_MARKS
#: The legend's key is wrapped to this width (the table's panel is about 80 columns).
KEY_WIDTH = 76

_JUNCTIONS = {
    (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (1, 1, 1, 1): "┼", (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴", (0, 0, 0, 1): "╶", (0, 0, 0, 0): " ",
}

STYLE = {
    "wood": "dark_orange3", "stone": "grey70", "outline": "grey42", "door": "bold yellow",
    "window": "bold bright_blue", "broken": "bold red", "room": "dim", "fuel": "green",
    "mark": "magenta", "fire": "bold white on red", "hot": "bold yellow on red",
    "hero": "bold cyan", "thin": "on grey23", "thick": "on grey50", "burned": "grey35",
    "header": "bold", "exit": "bold green",
}


def level_index(building: Building, level: int | str | None) -> int:
    """A level by index (``0``), name (``ground``) or elevation-ordered position; FuegoError."""
    if isinstance(level, int) and not isinstance(level, bool):
        if 0 <= level < len(building.levels):
            return level
    elif isinstance(level, str):
        for lv in building.levels:
            if lv.name == level:
                return lv.index
        if level.lstrip("-").isdecimal():
            return level_index(building, int(level))
    names = ", ".join(f"{lv.index} {lv.name}" for lv in building.levels)
    raise FuegoError(f"no level {level!r}", tip=f"levels: {names}")


def levels_top_down(building: Building) -> list[int]:
    return [lv.index for lv in sorted(building.levels, key=lambda lv: -lv.elevation)]


def room_symbols(building: Building, given: dict[str, str] | None = None) -> dict[str, str]:
    """One character per room, none shared across the building's levels (``a`` names one room,
    so ``look a`` and the key can): the GM's plan character where it is free and no mark, else
    a letter of the room's key or name, else the first free letter (lower case before capitals,
    which beside the fuel read like a grid reference), else a digit."""
    import string

    out: dict[str, str] = {}
    taken: set[str] = set()
    for key in building.rooms:
        ch = (given or {}).get(key)
        if ch and ch not in MARK_CHARS and ch not in taken:
            out[key] = ch
            taken.add(ch)
    for key in sorted(building.rooms):
        if key in out:
            continue
        room = building.rooms[key]
        own = key + room.name
        # lower case first: a capital and the fuel read like a grid reference (G2)
        pool = (own.lower() + string.ascii_lowercase + own.upper() + string.ascii_uppercase
                + string.digits)
        ch = next((c for c in pool if c.isascii() and c.isalnum() and c not in taken
                   and c not in MARK_CHARS), "?")
        out[key] = ch
        taken.add(ch)
    return out


def plan_text(scene_or_building: Scene | Building, level: int | str | None = None, *,
              scene: Scene | None = None, symbols: dict[str, str] | None = None,
              ascii: bool = False, legend: bool = True, title: bool = True,
              marks: set[str] | None = None) -> list[Text]:
    """The drawing of one level (``None``: every level, top down), with a legend. ``marks``,
    when given, gathers the marks drawn (for :func:`short_key`)."""
    from rich.text import Text

    if isinstance(scene_or_building, Building):
        building = scene_or_building
    else:
        scene = scene_or_building
        building = scene.building
    if level is None:
        out: list[Text] = []
        for k, li in enumerate(levels_top_down(building)):
            if k:
                out.append(Text(""))
            out.extend(plan_text(building, li, scene=scene, symbols=symbols, ascii=ascii,
                                 legend=legend, title=title, marks=marks))
        return out
    li = level_index(building, level)
    syms = room_symbols(building, symbols)
    drawing = _Drawing(building, li, scene, syms, ascii)
    lines = drawing.lines(legend=legend, title=title)
    if marks is not None:
        marks |= drawing.used
    return lines


def plan_plain(scene_or_building: Any, level: int | str | None = None, **kw) -> list[str]:
    """:func:`plan_text` without styles: plain strings."""
    return [t.plain for t in plan_text(scene_or_building, level, **kw)]


#: What each mark means, in the order a key names them: (mark drawn, words, short words).
#: ``{thin}``/``{thick}`` are the smoke's fill (Unicode or ASCII).
MARKS: dict[str, tuple[str, str, str]] = {
    "fire": ("*N", "fire of N Fire Dice", "fire of N Fire Dice"),
    "fire-hot": ("*N", "hot fire of N Fire Dice (yellow on red)", "hot fire"),
    "fire-new": ("*N", "fire lit this round (underlined)", "new this round (underlined)"),
    "hero-in-fire": ("*N@", "a hero in a fire (see the heroes' table)", "hero in a fire"),
    "also-burning": (ALSO_BURNING_MARK, "something ablaze of its own (a burning wreck)",
                     "wreck ablaze"),
    "hero": ("@X", "hero (initial)", "hero"),
    "heroes": ("@X+", "hero and others in the same area", "more heroes"),
    "smoke-1": ("{thin}", "thin smoke", "thin smoke"),
    "smoke-2": ("{thick}", "thick smoke", "thick smoke"),
    "door-closed": ("D", "closed door", "door shut"),
    "door-open": ("d", "open door", "door open"),
    "window-closed": ("W", "closed window", "window shut"),
    "window-open": ("w", "open window", "window open"),
    "broken": (BROKEN_GLYPH, "broken wall, door or window (a gap)", "broken (a gap)"),
    "link-stairs": ("< >", "stairs up, down", "stairs up/down"),
    "link-ladder": ("L", "ladder", "ladder"),
    "link-hole": ("O", "hole or hatch in the floor", "hole in the floor"),
    "feature-E": ("E", "exit", "exit"),
    "feature-g": ("g", "gunpowder", "gunpowder"),
    f"feature-{EXPLOSIVE_MARK}": (EXPLOSIVE_MARK, "explosive (a keg of spirits, lamp gas)",
                                  "explosive"),
    "feature-o": ("o", "oil", "oil"),
    "feature-b": ("b", "beam or post", "beam"),
    "fire-break": (FIRE_BREAK_MARK, "fire break (cleared before the fire)", "fire break"),
    "burned": ("x", "fuel burned out", "burned out"),
    "no-fuel": (".", "no fuel", "no fuel"),
}


def key_entries(used: set[str], ascii: bool = False, *, short: bool = False) -> list[str]:
    """The key to the marks in ``used`` (a drawing's): the cell's layout, the walls drawn, then
    each mark with its words, so every mark a plan shows is named."""
    parts = ["cell: room, fuel, mark" if short else "cell: room, fuel (. none), mark"]
    for s in Structure:
        if s.value in used and s in WALL_GLYPHS:
            parts.append(f"{WALL_GLYPHS[s][2 if ascii else 0]} {s.value}")
    fill = {"thin": SMOKE_FILL[1][1 if ascii else 0], "thick": SMOKE_FILL[2][1 if ascii else 0]}
    for k, (mark, words, brief) in MARKS.items():
        if k in used:
            parts.append(f"{mark.format(**fill)} {brief if short else words}")
    return parts


def short_key(used: set[str], ascii: bool = False) -> str:
    """One line naming every mark in ``used`` (the plans drawn), for the table under them."""
    return "key: " + ", ".join(key_entries(used, ascii, short=True)[1:])


#: One area's cell: three (character, style) pairs.
Cell = list[tuple[str, str | None]]


def hero_initial(scene: Scene | None, hero, ascii: bool = False) -> str:
    """The one character after a hero's ``@`` on a plan: the name's initial (as its token's,
    punctuation skipped), or, when that is no letter one column wide (a CJK character takes
    two and would shift the row; a combining accent none; not ASCII on an ASCII plan), the
    hero's number in the scene."""
    from rich.cells import cell_len

    ch = initials(hero.name)[:1]
    if len(ch) == 1 and ch.isalnum() and cell_len(ch) == 1 and (ch.isascii() or not ascii):
        return ch
    n = next((k for k, h in enumerate(scene.heroes, 1) if h is hero), 0) if scene else 0
    return str(n) if 1 <= n <= 9 else "?"


def _room_name(b: Building, key: str) -> str:
    """A room's name (its key when it has none, or the building has no such room)."""
    room = b.rooms.get(key)
    return (room.name or key) if room is not None else key


def _packed(pieces: list[str], sep: str) -> list[str]:
    """``pieces`` joined by ``sep`` into rows that fit the legend's key under its indent, a
    piece never split."""
    rows: list[str] = []
    for piece in pieces:
        if rows and len(rows[-1]) + len(sep) + len(piece) <= KEY_WIDTH - 3:
            rows[-1] += sep + piece
        else:
            rows.append(piece)
    return rows


class _Drawing:
    def __init__(self, building: Building, li: int, scene: Scene | None,
                 symbols: dict[str, str], ascii: bool):
        self.b = building
        self.li = li
        self.scene = scene
        self.symbols = symbols
        self.ascii = ascii
        self.areas = [a for a in building.areas if a.level == li]
        self.width = max((a.col for a in self.areas), default=-1) + 1
        self.height = max((a.row for a in self.areas), default=-1) + 1
        rows, cols = 2 * self.height + 1, 4 * self.width + 1
        self.chars = [[" "] * cols for _ in range(rows)]
        self.styles: list[list[str | None]] = [[None] * cols for _ in range(rows)]
        self.used: set[str] = set()  # what the legend needs to explain
        #: area -> what a module keeps burning there (a burning wreck)
        self.also = {x.area: x.what for x in scene.also_burning()} if scene is not None else {}
        #: area -> the fire-break class it was cleared to (``light`` or ``clear``)
        self.cleared = cleared_by_area(scene) if scene is not None else {}

    # -- canvas ------------------------------------------------------------------------------
    def put(self, y: int, x: int, text: str, style: str | None = None) -> None:
        for k, ch in enumerate(text):
            self.chars[y][x + k] = ch
            self.styles[y][x + k] = style

    def at(self, col: int, row: int) -> int | None:
        if 0 <= col < self.width and 0 <= row < self.height:
            return self.b.at(self.li, col, row)
        return None

    # -- what goes where ---------------------------------------------------------------------
    def barrier_glyph(self, i: int | None, j: int | None, vertical_line: bool):
        """(text, style) for the boundary between areas i and j (either may be None)."""
        width = 1 if vertical_line else 3
        if i is None and j is None:
            return " " * width, None
        if i is None or j is None:  # the building's outline: the room's own wall, dimmed
            one = i if i is not None else j
            assert one is not None  # (both None returned above)
            room = self.b.room_of(one)
            if room.outdoors:
                return " " * width, None
            glyphs = WALL_GLYPHS.get(room.wall, WALL_GLYPHS[Structure.WOODEN_WALL])
            return self._pick(glyphs, vertical_line), STYLE["outline"]
        barrier = self.b.between(i, j)
        if barrier is None or barrier.kind in (BarrierKind.OPEN,):
            return " " * width, None
        if barrier.destroyed:
            self.used.add("broken")
            g = BROKEN_GLYPH
            return (g if vertical_line else f" {g} "), STYLE["broken"]
        if barrier.kind in OPENABLE_GLYPHS:
            closed, opened = OPENABLE_GLYPHS[barrier.kind]
            letter = closed if barrier.closed else opened
            self.used.add(f"{barrier.kind.value}-{'closed' if barrier.closed else 'open'}")
            style = STYLE["door" if barrier.kind is BarrierKind.DOOR else "window"]
            if vertical_line:
                return letter, style
            line = "-" if self.ascii else "─"
            return f"{line}{letter}{line}", style
        structure = barrier.structure or Structure.WOODEN_WALL
        glyphs = WALL_GLYPHS.get(structure, WALL_GLYPHS[Structure.WOODEN_WALL])
        self.used.add(structure.value)
        return self._pick(glyphs, vertical_line), STYLE["stone" if structure in STONE else "wood"]

    def _pick(self, glyphs: tuple[str, str, str, str], vertical_line: bool) -> str:
        return glyphs[(2 if self.ascii else 0) + (0 if vertical_line else 1)]

    def cell(self, i: int) -> Cell:
        """Area ``i``'s three characters: its room, fuel and mark, or what burns or stands
        there, with smoke filling the blanks (the key notes each thing drawn)."""
        scene = self.scene
        out = self._ground(i)
        fire = scene.fires.get(i) if scene is not None else None
        heroes = scene.heroes_in(i) if scene is not None else []
        if i in self.also:  # a burning wreck: in the third place, before a feature's mark
            out[2] = (ALSO_BURNING_MARK, STYLE["fire"])
            self.used.add("also-burning")
        if fire is not None:
            out = self._fire_cell(fire, bool(heroes), out)
        elif heroes:
            out = self._heroes_cell(i, heroes, out)
        density = scene.smoke.at(i) if scene is not None and scene.smoke is not None else 0
        if density:
            out = self._smoked(int(density), out)
        return out

    def _ground(self, i: int) -> Cell:
        """The area itself: its room's character, its fuel (``x`` burned out) and its mark."""
        area = self.b.areas[i]
        symbol = self.symbols.get(area.room, "?")
        fuel = "x" if area.burned_out else (str(area.fuel) if area.fuel > 0 else ".")
        mark, mark_style = self._mark(i)
        out = [(symbol, STYLE["room"]), (fuel, STYLE["burned" if area.burned_out else "fuel"]),
               (mark, mark_style)]
        if area.burned_out:
            self.used.add("burned")
        elif area.fuel <= 0:
            self.used.add("no-fuel")
        return out

    def _mark(self, i: int) -> tuple[str, str | None]:
        """An area's mark: a stair, ladder or hole up or down first, else its first feature."""
        b = self.b
        area = b.areas[i]
        here = b.levels[area.level].elevation
        for j, barrier in b.neighbours(i):
            if barrier.kind in LINK_MARKS or (barrier.kind is BarrierKind.FLOOR and barrier.destroyed):
                up = b.levels[b.areas[j].level].elevation > here
                kind = barrier.kind if barrier.kind in LINK_MARKS else BarrierKind.HOLE
                self.used.add(f"link-{kind.value}")
                return LINK_MARKS[kind][0 if up else 1], STYLE["mark"]
        for feature, ch in FEATURE_MARKS:
            if feature in area.features:
                self.used.add(f"feature-{ch}")
                return ch, STYLE["exit" if feature is Feature.EXIT else "mark"]
        if i in self.cleared:
            self.used.add("fire-break")
            return FIRE_BREAK_MARK, STYLE["mark"]
        return " ", None

    def _fire_cell(self, fire, heroes: bool, out: Cell) -> Cell:
        """A fire: ``*`` and its Fire Dice (hot, or lit this round, styled so), ``@`` after
        them if a hero stands in it."""
        scene = self.scene
        hot = fire.temperature is Temperature.HOT
        style = STYLE["hot" if hot else "fire"]
        self.used.add("fire-hot" if hot else "fire")
        if scene is not None and scene.round and fire.born == scene.round:
            style += " underline"  # lit this round: what changed stands out
            self.used.add("fire-new")
        if fire.fd >= 10:
            out = [("*", style), ("1", style), ("0", style)]
        else:
            out = [("*", style), (str(fire.fd), style), out[2]]
        if heroes:  # a hero in the fire: no room for the initial (the legend names them)
            out[2] = ("@", STYLE["hero"])
            self.used.add("hero-in-fire")
        return out

    def _heroes_cell(self, i: int, heroes: list, out: Cell) -> Cell:
        """Heroes: ``@`` and the first one's initial, ``+`` if more stand there (a burning
        wreck keeps its mark)."""
        initial = hero_initial(self.scene, heroes[0], self.ascii)
        third = out[2] if i in self.also else (
            ("+", STYLE["hero"]) if len(heroes) > 1 else out[2])
        self.used.add("hero")
        if len(heroes) > 1 and i not in self.also:
            self.used.add("heroes")
        return [("@", STYLE["hero"]), (initial, STYLE["hero"]), third]

    def _smoked(self, density: int, out: Cell) -> Cell:
        """Smoke of ``density`` filling a cell's blanks and shading it."""
        fill = SMOKE_FILL[density][1 if self.ascii else 0]
        smoke_style = STYLE["thick" if density == 2 else "thin"]
        self.used.add(f"smoke-{density}")
        return [((fill if ch == " " else ch), ((st + " " if st else "") + smoke_style))
                for ch, st in out]

    # -- drawing -----------------------------------------------------------------------------
    def draw(self) -> None:
        """The level drawn into the character grid: cells, then the barriers between them,
        then the corners where their lines meet."""
        self._cells()
        self._barrier_lines()
        for r in range(self.height + 1):
            for c in range(self.width + 1):
                self._corner(2 * r, 4 * c)

    def _cells(self) -> None:
        """Each area's cell in its place."""
        for r in range(self.height):
            for c in range(self.width):
                i = self.at(c, r)
                if i is not None:
                    for k, (ch, st) in enumerate(self.cell(i)):
                        self.put(2 * r + 1, 4 * c + 1 + k, ch, st)

    def _barrier_lines(self) -> None:
        """The barriers: a column between areas side by side, a run between rows."""
        W, H = self.width, self.height
        for r in range(H):
            for c in range(W + 1):
                text, st = self.barrier_glyph(self.at(c - 1, r), self.at(c, r), True)
                self.put(2 * r + 1, 4 * c, text, st)
        for r in range(H + 1):
            for c in range(W):
                text, st = self.barrier_glyph(self.at(c, r - 1), self.at(c, r), False)
                self.put(2 * r, 4 * c + 1, text, st)

    def _corner(self, y: int, x: int) -> None:
        """The junction at (y, x), joining the lines that reach it, styled as the wall it
        meets (stone or wood) or as the outline."""
        chars = self.chars
        up = y > 0 and chars[y - 1][x] != " "
        down = y + 1 < len(chars) and chars[y + 1][x] != " "
        left = x > 0 and chars[y][x - 1] != " "
        right = x + 1 < len(chars[0]) and chars[y][x + 1] != " "
        arms = (int(up), int(down), int(left), int(right))
        if not any(arms):
            return
        neighbours = [self.styles[y + dy][x + dx] for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))
                      if 0 <= y + dy < len(chars) and 0 <= x + dx < len(chars[0])]
        style = next((s for s in neighbours if s in (STYLE["stone"], STYLE["wood"])),
                     STYLE["outline"])
        self.put(y, x, self._junction(y, x, arms), style)

    def _junction(self, y: int, x: int, arms: tuple[int, int, int, int]) -> str:
        """The character joining ``arms`` (up, down, left, right): a straight run continues
        its own line's character (not a door's or window's letter)."""
        chars = self.chars
        ch = "+" if self.ascii else _JUNCTIONS[arms]
        if arms == (1, 1, 0, 0):
            return next((c for c in (chars[y - 1][x], chars[y + 1][x]) if c not in _LETTERS), ch)
        if arms == (0, 0, 1, 1):
            return next((c for c in (chars[y][x - 1], chars[y][x + 1]) if c not in _LETTERS), ch)
        return ch

    def lines(self, *, legend: bool, title: bool) -> list[Text]:
        from rich.text import Text

        self.draw()
        lv = self.b.levels[self.li]
        out: list[Text] = []
        if title:
            out.append(Text(f"Level {lv.name} (elevation {lv.elevation}, floor "
                            f"{lv.floor.value})", style=STYLE["header"]))
        margin = len(str(self.height)) + 1
        header = " " * margin + "".join(f"  {column_letters(c):<2}" for c in range(self.width))
        out.append(Text(header.rstrip(), style=STYLE["header"]))
        for y, row in enumerate(self.chars):
            label = f"{(y + 1) // 2:>{margin - 1}} " if y % 2 else " " * margin
            text = Text(label, style=STYLE["header"])
            for ch, st in zip(row, self.styles[y]):
                text.append(ch, style=st)
            text.rstrip()
            out.append(text)
        if legend:
            out.extend(self.legend())
        return out

    def legend(self) -> list[Text]:
        """The legend under the plan: each room of the level and its ways out, the heroes,
        fires and burning wrecks on it, then the key of every mark drawn."""
        from rich.text import Text

        b, scene = self.b, self.scene
        out: list[Text] = []
        rooms = [r for r in b.rooms.values() if r.level == self.li]
        for room in sorted(rooms, key=lambda r: self.symbols.get(r.key, "?")):
            out.extend(self._room_lines(room))
        if scene is not None:
            out.extend(self._hero_lines(scene))
            out.extend(self._fire_lines(scene))
            out.extend(self._wreck_lines())
            out.extend(self._fire_break_lines())
        for entry in self.key_lines():
            out.append(Text("  " + entry, style="dim"))
        return [Text("Legend:", style=STYLE["header"])] + out if out else []

    def _room_lines(self, room) -> list[Text]:
        """A room: its character, name, areas, fuel and walls; under it the room graph (which
        way leads where), wrapped between entries."""
        from rich.text import Text

        b = self.b
        areas = b.room_areas(room.key)
        fuel = sum(b.areas[i].fuel for i in areas)
        where = "outdoors" if room.outdoors else f"walls {room.wall.value}"
        line = Text("  ")
        line.append(self.symbols.get(room.key, "?"), style=STYLE["header"])
        count = plural(len(areas), 'area')
        line.append(f"  {room.name} ({room.key}): {count}, fuel {fuel}, {where}")
        # the room beyond by its name, as the plans' rooms line says it ("to Cellar Stairs",
        # not its key "cellarfoot", which only the scenario's file shows)
        ways = [f"to {_room_name(b, other)}: {', '.join(sorted({w.describe() for w in bars}))}"
                for other, bars in b.room_links(room.key)]
        return [line] + [Text("     " + row) for row in _packed(ways, "; ")]

    def _hero_lines(self, scene: Scene) -> list[Text]:
        """Each hero present on this level: token, name, where, and status unless active."""
        from rich.text import Text

        out = []
        for hero in scene.heroes:
            if hero.present and self.b.areas[hero.area].level == self.li:
                line = Text("  ")
                line.append(f"@{hero_initial(scene, hero, self.ascii)}", style=STYLE["hero"])
                line.append(f" {hero.name} at {self.b.areas[hero.area].name}"
                            + (f" ({hero.status.value})" if hero.status is not Status.ACTIVE
                               else ""))
                out.append(line)
        return out

    def _fire_lines(self, scene: Scene) -> list[Text]:
        """Each fire on this level: its Fire Dice, temperature, kind and state."""
        from rich.text import Text

        out = []
        for i in sorted(scene.fires):
            if self.b.areas[i].level != self.li:
                continue
            fire = scene.fires[i]
            line = Text("  ")
            line.append(f"*{fire.fd}", style=STYLE["fire"])
            dice = "Fire Die" if fire.fd == 1 else "Fire Dice"
            line.append(f" fire at {self.b.areas[i].name}: {fire.fd} {dice}, "
                        f"{fire.temperature.value}, {fire.kind.value}, {fire.state.value}")
            out.append(line)
        return out

    def _wreck_lines(self) -> list[Text]:
        """Each thing a module keeps burning on this level (a burning wreck)."""
        from rich.text import Text

        out = []
        for i, what in sorted(self.also.items()):
            if self.b.areas[i].level != self.li:
                continue
            line = Text("  ")
            line.append(ALSO_BURNING_MARK, style=STYLE["fire"])
            line.append(f"  a {what} ablaze at {self.b.areas[i].name} (a fire of its own)")
            out.append(line)
        return out

    def _fire_break_lines(self) -> list[Text]:
        """The fire break on this level, room by room: how many of its areas were cleared to
        bare ground or thinned (which ones, when not all)."""
        from rich.text import Text

        b = self.b
        here = [i for i in sorted(self.cleared) if b.areas[i].level == self.li]
        out = []
        for key in sorted({b.areas[i].room for i in here}, key=lambda k: b.rooms[k].name):
            room_areas = b.room_areas(key)
            parts = []
            for klass, words in FIRE_BREAK_WORDS.items():
                done = [i for i in here if b.areas[i].room == key and self.cleared[i] == klass]
                if len(done) == len(room_areas):
                    whole = f"all {len(done)} areas" if len(done) > 1 else "its area"
                    parts.append(f"{whole} {words}")
                elif done:
                    parts.append(f"{len(done)} of {len(room_areas)} areas {words} ("
                                 + ", ".join(b.areas[i].name for i in done) + ")")
            # a sentence, so the room as one says it (its key is on its own legend row above)
            words_out = f"fire break in {b.rooms[key].spoken}: {'; '.join(parts)}"
            rows = _packed(words_out.split(" "), " ")  # (wrapped as the rooms' ways are)
            line = Text("  ")
            line.append(FIRE_BREAK_MARK, style=STYLE["mark"])
            line.append(f"  {rows[0]}")
            out += [line] + [Text("     " + row) for row in rows[1:]]
        return out

    def key(self) -> str:
        return "; ".join(key_entries(self.used, self.ascii))

    def key_lines(self) -> list[str]:
        """:meth:`key` wrapped at :data:`KEY_WIDTH` between its entries (none is cut)."""
        lines: list[str] = []
        for part in self.key().split("; "):
            if lines and len(lines[-1]) + 2 + len(part) <= KEY_WIDTH:
                lines[-1] += "; " + part
            else:
                lines.append(part)
        return lines
