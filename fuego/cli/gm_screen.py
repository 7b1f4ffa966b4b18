"""The GM's screen: the :class:`Screen` the prompts write to (rich on a terminal, plain text
otherwise) and the views of the scene it draws: the moment, the levels' plans, the heroes' and
the fires' tables, what each hero sees, a choice's words and label, a roll's odds, and the style
of a narrated event.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from fuego.engine.injury import Avoid
from fuego.names import short_names
from fuego.rules.charts import Temperature
from fuego.text import terminal
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.engine.events import Event
    from fuego.engine.hero_actions import HeroAction
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene
    from fuego.table.replay import Question


# -- output --------------------------------------------------------------------------------------


def literal(text: str) -> str:
    """Text as it can be printed (:func:`fuego.text.terminal`): a control character (from a
    save, or typed) shows as its escape, and a lone surrogate (``"\\ud800"`` from a YAML
    escape) too, instead of stopping play with an encoding error. Markup is never read: rich
    gets ``Text`` objects, whose characters are drawn as they are."""
    return terminal(text, lines=True)


def cells(text: str) -> int:
    """The terminal columns ``text`` takes: a CJK character or an emoji takes two, a combining
    accent none (rich's measure, the one the console draws by)."""
    from rich.cells import cell_len

    return cell_len(text)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns: cut with ``…`` when it is wider."""
    if cells(text) <= width:
        return text
    out, used = "", 0
    for ch in text:
        w = cells(ch)
        if used + w > width - 1:
            break
        out, used = out + ch, used + w
    return out + "\u2026"


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` columns (``str.ljust`` counts characters)."""
    return text + " " * max(0, width - cells(text))


def wrap_cells(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words, each line after
    the first led by ``indent``, as :func:`textwrap.wrap` breaks it (runs of spaces between
    words kept; a word wider than a line fills the line and goes on on the next) but measured
    in columns: a line of wide characters breaks where the terminal would (textwrap counts
    characters)."""
    text = re.sub(r"[\t\n\r\v\f]", " ", text)
    lead = text[:len(text) - len(text.lstrip(" "))]
    out: list[str] = []
    line, gap = lead, ""
    for chunk in re.findall(r" +|[^ ]+", text[len(lead):]):
        if chunk.startswith(" "):
            gap = chunk
            continue
        while chunk:
            sep = gap if line.strip() else ""
            room = width - cells(line) - cells(sep)
            whole = width - (cells(indent) if out else 0)  # this line's width, as textwrap's
            if cells(chunk) <= room:
                line, chunk = line + sep + chunk, ""
            elif line.strip() and cells(chunk) <= whole:  # it fits the next line
                out.append(line)
                line = indent
            elif room > 0:  # wider than a line: it fills this one and goes on on the next
                part = cut(chunk, room + 1)[:-1]
                line, chunk = line + sep + part, chunk[len(part):]
                if chunk:
                    out.append(line)
                    line = indent
            elif line.strip():
                out.append(line)
                line = indent
            else:  # not a column left: one character all the same
                line, chunk = line + chunk[0], chunk[1:]
            gap = gap if line.strip() else ""
    if line.strip() or not out:
        out.append(line)
    return out


#: A list item's mark at a line's start: a menu's number (`` * 4. ``, the suggested one
#: starred), a bullet (``- ``), an error's ``! ``.
_ITEM = re.compile(r" *(?:\*? *\d+\. |[-*!] )")


def hanging(text: str) -> int:
    """The column a wrapped line of ``text`` continues at: under the text after a list
    item's mark (``   * 4. spot ...``: under ``spot``), else two in from the line's start."""
    item = _ITEM.match(text)
    return item.end() if item else len(text) - len(text.lstrip(" ")) + 2


class Screen:
    """Where the table writes: rich on a terminal, plain text otherwise.

    ``width``: lines longer than this wrap at word boundaries, their continuation indented
    under their text (None: a pipe or a file, where a line stays whole). ``height``: the
    terminal's lines, so a round's screen can leave out what does not fit (None: no limit)."""

    def __init__(self, *, rich: bool | None = None, echo: Callable[[str], None] | None = None,
                 width: int | None = None, height: int | None = None,
                 size: Callable[[], os.terminal_size] | None = None):
        if rich is None:
            rich = isatty(sys.stdout)
        self.rich = rich
        self._echo = echo or click.echo
        self._console = None
        if rich:
            from rich.console import Console

            self._console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
            if width is None and size is None:
                width = self._console.size.width
        self._width = width
        self._height = height
        self._size = size  # the terminal's size, read at each ask: a window resized mid-scene

    @property
    def width(self) -> int | None:
        return self._size().columns if self._size is not None else self._width

    @property
    def height(self) -> int | None:
        return self._size().lines if self._size is not None else self._height

    def wrap(self, text: str) -> list[str]:
        """``text`` in lines of at most ``width``, broken between words."""
        text = literal(text)
        if not self.width or cells(text) <= self.width:
            return [text]
        return wrap_cells(text, self.width, " " * min(hanging(text), 20))

    def line(self, text: str = "", style: str | None = None) -> None:
        for piece in self.wrap(text):
            if self._console is not None:
                from rich.text import Text

                self._console.print(Text(piece, style=style or ""))
            else:
                self._echo(piece)

    def quoted(self, text: str, mark: str, style: str | None = None) -> None:
        """``text`` wrapped to the width with ``mark`` leading every line (``  | `` for what
        the GM reads aloud: where it stops is plain however it wraps)."""
        text = literal(text)
        room = self.width - cells(mark) if self.width else 0
        pieces = wrap_cells(text, room) if room > 10 else [text]
        for piece in pieces:
            self.line((mark + piece).rstrip(), style)

    def lines(self, texts, style: str | None = None) -> None:
        for text in texts:
            self.line(text, style)

    def rule(self, title: str) -> None:
        if self._console is not None:
            from rich.text import Text

            self._console.rule(Text(literal(title)))
        else:
            self._echo(f"== {literal(title)} ==")

    def drawn(self, line) -> None:
        """A line of a drawing (text or rich ``Text``): never wrapped."""
        if self._console is not None:
            from rich.text import Text

            self._console.print(line if isinstance(line, Text) else Text(literal(line)),
                                crop=False)
        else:
            self._echo(literal(getattr(line, "plain", line)).rstrip())

    def block(self, title: str, body: list) -> None:
        """A drawn plan under its title."""
        self.blocks([(title, body)])

    def blocks(self, blocks: list[tuple[str, list]], gap: int = 3) -> None:
        """Drawn plans side by side as the width allows, each under its title."""
        for line in side_by_side(blocks, self.width, gap):
            self.drawn(line)

    def table(self, title: str, header: list[str], rows: list[list[str]],
              styles: list[str | None] | None = None, flex: int | None = None) -> None:
        """Columns fitted to the width: column ``flex`` gives up room first (cut with ...)."""
        if title:
            self.line(title, "bold")
        lines = fit_columns(header, rows, self.width, flex)
        self.line(lines[0], "bold")
        for i, text in enumerate(lines[1:]):
            self.line(text, styles[i] if styles else None)


#: A line that starts an item of a list in a scenario's text (``- round 2: ...``).
LIST_ITEM = re.compile(r"\s*[-*\u2022] ")


def paragraphs(text: str) -> list[str]:
    """A scenario's text (its ``description:``, its ``briefing:``) as its paragraphs, each
    one line for the screen to wrap: the lines of a paragraph joined, a list item (``- ...``)
    a paragraph of its own, and ``""`` where a blank line stood between two."""
    out: list[str] = []
    for raw in text.strip().splitlines():
        line = " ".join(raw.split())
        if not line:
            if out and out[-1]:
                out.append("")
        elif not out or not out[-1] or LIST_ITEM.match(raw):
            out.append(line)
        else:
            out[-1] += " " + line
    return out


def side_by_side(blocks: list[tuple[str, list]], width: int | None, gap: int = 3) -> list:
    """The lines of titled drawings placed in rows across ``width`` (None: one under another).
    Rich ``Text`` in, rich ``Text`` out (plain strings stay strings)."""
    from rich.text import Text

    shaped = []
    for title, body in blocks:
        lines = [Text(literal(title), style="bold")]
        lines += [t if isinstance(t, Text) else Text(literal(t)) for t in body]
        while len(lines) > 1 and not lines[-1].plain.strip():
            lines.pop()
        shaped.append((max(t.cell_len for t in lines), lines))
    rows: list[list[tuple[int, list]]] = []
    for w, lines in shaped:
        if rows and width and sum(x for x, _ in rows[-1]) + gap * len(rows[-1]) + w <= width:
            rows[-1].append((w, lines))
        else:
            rows.append([(w, lines)])
    out: list = []
    plain = not any(isinstance(t, Text) for _, body in blocks for t in body)
    for k, row in enumerate(rows):
        if k:
            out.append(Text(""))
        for i in range(max(len(lines) for _, lines in row)):
            line = Text()
            for j, (w, lines) in enumerate(row):
                part = lines[i] if i < len(lines) else Text("")
                line.append_text(part)
                if j < len(row) - 1:
                    line.append(" " * (w - part.cell_len + gap))
            line.rstrip()
            out.append(line.plain if plain else line)
    return out


def fit_columns(header: list[str], rows: list[list[str]], width: int | None,
                flex: int | None = None) -> list[str]:
    """Header and rows as aligned text; past ``width`` the ``flex`` column is cut (``...``)."""
    rows = [[literal(c) for c in r] for r in rows]
    widths = [max([cells(h)] + [cells(r[c]) for r in rows]) for c, h in enumerate(header)]
    total = 2 + sum(widths) + 2 * (len(widths) - 1)
    if width and flex is not None and total > width:
        widths[flex] = max(cells(header[flex]), widths[flex] - (total - width))
    out = []
    for r in [header, *rows]:
        out.append(("  " + "  ".join(pad(cut(c, widths[i]), widths[i])
                                      for i, c in enumerate(r))).rstrip())
    return out


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# -- what the GM sees ----------------------------------------------------------------------------
def area_label(scene: Scene, i: int) -> str:
    b = scene.building
    a = b.areas[i]
    return f"{a.name} ({b.rooms[a.room].name})"


def fire_label(scene: Scene, i: int) -> str:
    fire = scene.fires[i]
    extra = "" if fire.temperature is Temperature.REGULAR else f" {fire.temperature.value}"
    return f"{scene.area_name(i)} {fire.fd} FD{extra}"


def when(scene: Scene) -> str:
    """``round 2, phase 7``; ``round 2, start of round`` / ``end of round``."""
    from fuego.engine.events import END_PHASE, START_PHASE

    if scene.round == 0:
        return "before round 1"
    if scene.phase == START_PHASE:
        return f"round {scene.round}, start of round"
    if scene.phase == END_PHASE:
        return f"round {scene.round}, end of round"
    return f"round {scene.round}, phase {scene.phase}"


def hero_levels(scene: Scene) -> list[int]:
    """The levels worth drawing: where the heroes still in the building are (else the fires,
    burning wrecks included)."""
    b = scene.building
    levels = {b.areas[h.area].level for h in scene.heroes if h.present}
    if not levels:
        levels = {b.areas[i].level for i in scene.fires}
        levels |= {b.areas[x.area].level for x in scene.also_burning()}
    if not levels and b.levels:
        levels = {0}
    return sorted(levels, key=lambda lv: -b.levels[lv].elevation)


def plan_key(marks: set[str]) -> str:
    """The one-line key under the round's plans: every mark they draw, named."""
    from fuego.render.terminal import short_key

    return short_key(marks) + " (map LEVEL: full legend)"


def also_burning(scene: Scene, *, rooms: bool = False) -> list[str]:
    """What burns outside the fires (a burning wreck), in words: ``a wagon ablaze at
    ground:C2`` (``rooms``: with the room's name)."""
    where = (lambda i: area_label(scene, i)) if rooms else scene.area_name
    return [f"a {x.what} ablaze at {where(x.area)}" for x in scene.also_burning()]


def fires_words(scene: Scene) -> str:
    """``2 fires, 5 Fire Dice`` and what else burns: the round screen's title."""
    fd = sum(f.fd for f in scene.fires.values())
    also = ", ".join(also_burning(scene))
    if also and not scene.fires:
        return f"{also} (no other fire)"
    text = f"{plural(len(scene.fires), 'fire')}, {fire_dice(fd)}"
    return text + (f"; {also}" if also else "")


def fire_dice(n: int) -> str:
    return plural(n, "Fire Die", "Fire Dice")


def level_state(scene: Scene, level: int) -> tuple:
    """What a level's plan shows that can change: fires, smoke, barriers, burned areas and who
    stands there (two equal states draw the same plan)."""
    b = scene.building
    areas = [a.index for a in b.areas if a.level == level]
    fires = tuple((i, scene.fires[i].fd, scene.fires[i].temperature.value)
                  for i in areas if i in scene.fires)
    fires += tuple((x.area, 0, x.what) for x in scene.also_burning()
                   if b.areas[x.area].level == level)
    smoke = tuple(int(scene.smoke.at(i)) for i in areas) if scene.smoke is not None else ()
    burned = tuple(i for i in areas if b.areas[i].burned_out)
    doors = tuple((x.index, x.closed, x.destroyed) for x in b.barriers
                  if b.areas[x.a].level == level or b.areas[x.b].level == level)
    people = tuple(sorted((h.name, h.area) for h in scene.heroes
                          if h.present and b.areas[h.area].level == level))
    return fires, smoke, burned, doors, people


def plan(scene: Scene, level: int, *, color: bool, legend: bool = True, ascii: bool = False,
         symbols: dict[str, str] | None = None, marks: set[str] | None = None):
    """The level drawn by ``fuego.render.terminal``: fires, smoke, heroes, doors (and a legend).
    Styled ``rich`` text when ``color``, else plain lines. ``symbols``: the GM's plan
    characters per room; ``marks`` gathers the marks drawn (for :func:`plan_key`)."""
    from fuego.render.terminal import plan_plain, plan_text

    draw = plan_text if color else plan_plain
    return draw(scene, level, ascii=ascii, title=False, legend=legend, symbols=symbols,
                marks=marks)


HERO_HEADER = ["hero", "where", "wounds", "smoke", "confused", "clothes", "breath"]
#: The column that gives up room first at a narrow width (the room's name after the area).
HERO_FLEX = 1


def hero_rows(scene: Scene, width: int | None = None
              ) -> tuple[list[str], list[list[str]], list[str | None]]:
    """The heroes' table: where each stands (its area, then its room), wounds, smoke, confusion,
    burning clothes and held breath. Fitted to ``width``: the room's name is cut first, then
    the names are shortened to what tells them apart; no column is dropped."""
    from fuego.engine.heroes import Status

    rows = [_hero_row(scene, h) for h in scene.heroes]
    styles: list[str | None] = [
        "bold red" if h.clothes_fd or h.status in (Status.DEAD, Status.KNOCKED_OUT)
        else ("dim" if not h.present else None) for h in scene.heroes]
    header = list(HERO_HEADER)
    if any(h.drama for h in scene.heroes):  # only when the scenario gives any
        header.append("drama")
        for r, h in zip(rows, scene.heroes):
            r.append(str(h.drama) if h.drama else "-")
    if width:
        need = 2 + sum(max([cells(header[c])] + [cells(r[c]) for r in rows])
                       for c in range(len(header))) + 2 * (len(header) - 1)
        if need > width:  # short names first (fuego.names): the rooms' names are cut after them
            short = short_names([h.name for h in scene.heroes])
            for r, name in zip(rows, short):
                r[0] = name
    return header, rows, styles


def _hero_row(scene: Scene, h: Hero) -> list[str]:
    """One hero's row of the heroes' table (HERO_HEADER's columns)."""
    from fuego.engine.heroes import Status
    from fuego.rules.charts import Density

    d = scene.smoke.at(h.area) if scene.smoke is not None and h.present else Density.NONE
    smoke = {Density.NONE: "-", Density.THIN: "thin", Density.THICK: "thick"}[d]
    if h.thick_rounds:
        smoke += f" {h.thick_rounds}r"
    limit_default = scene.settings.breath_rounds
    limit = h.resolve if limit_default is None else limit_default
    wounds = f"{h.flesh} FW {h.dramatic}/{h.knocked_out_at} DW"
    if h.crippled:
        wounds += " crippled"
    if h.status is Status.ESCAPED:
        where = "out (escaped)"
    else:
        where = area_label(scene, h.area)
        if h.status is not Status.ACTIVE:
            where = f"{h.status.value.upper()} {where}"
    return [h.name, where, wounds, smoke, "CONFUSED" if h.confused else "-",
            f"{h.clothes_fd} FD" if h.clothes_fd else "-",
            f"{h.breath}/{limit}" if h.breath else "-"]


def sight_lines(scene: Scene) -> list[tuple[str, str | None]]:
    """What each hero in play sees, and (for the GM only) the fires near them hidden from them
    (those they could spot), each with why (fuego.engine.sight). ``look ROOM`` says why for
    any fire."""
    from fuego.engine.hero_actions import hidden_fires
    from fuego.engine.sight import hero_sight, why_unseen

    out: list[tuple[str, str | None]] = []
    for h in scene.heroes:
        if not h.in_play:
            continue
        sight = hero_sight(scene, h)
        seen = [fire_label(scene, i) for i in sorted(sight.fires)]
        hidden = hidden_fires(scene, h)
        # what burns of its own in view (a burning wreck): not "no fire" beside a blazing wagon
        wrecks = [w for x, w in zip(scene.also_burning(), also_burning(scene))
                  if x.area in sight.in_view]
        text = f"{h.name} sees: " + (", ".join(seen + wrecks) if seen else
                                      "no fire" + (" but " + ", ".join(wrecks) if wrecks else ""))
        if hidden:
            notes = [f"{fire_label(scene, i)} ({unseen_words(why_unseen(scene, h, i))})"
                     for i in hidden]
            text += "  [GM only: hidden from " + h.name + ": " + ", ".join(notes) + "]"
        out.append((text, "italic magenta" if hidden else None))
    blind = blind_line(scene)
    if blind:
        out.append((blind, "italic magenta"))
    return out


def blind_line(scene: Scene) -> str:
    """While no hero of the players' can see (:class:`fuego.engine.sight.Blind`), what their
    screen shows, for the GM; else nothing."""
    from fuego.engine.sight import Blind, players_sight
    from fuego.web.view import is_over

    blind = players_sight(scene).blind
    if blind is None or is_over(scene):
        return ""
    why = ("every hero of the players' is down" if blind is Blind.DOWN
           else "no hero of the players' is in the scene")
    return (f"[GM only: {why}: the players' screen shows no fire and says "
            f"\"{blind.words}\"; reveal shows them what you choose]")


def unseen_words(why: object) -> str:
    """Why a hero does not see a fire, in a GM's words."""
    from fuego.engine.sight import Unseen

    return why.words if isinstance(why, Unseen) else "in view"


def watchers_line(scene: Scene, area: int) -> str:
    """Who of the heroes in play sees the fire in ``area``, and why the others do not."""
    from fuego.engine.sight import why_unseen

    seen, unseen = [], []
    for h in scene.heroes:
        if not h.in_play:
            continue
        why = why_unseen(scene, h, area)
        if why is None:
            seen.append(h.name)
        else:
            unseen.append(f"{h.name} ({why.words})")
    return (f"{fire_label(scene, area)} seen by " + (", ".join(seen) or "nobody")
            + ("; hidden from " + ", ".join(unseen) if unseen else ""))


def fire_rows(scene: Scene) -> tuple[list[str], list[list[str]]]:
    """The fires' table; what a module keeps burning (a burning wreck) in rows of its own."""
    header = ["fire", "room", "FD", "state", "temperature", "fuel", "wounds"]
    rows = []
    b = scene.building
    for i in sorted(scene.fires):
        f = scene.fires[i]
        rows.append([scene.area_name(i), b.rooms[b.areas[i].room].name, str(f.fd), f.state.value,
                     f.temperature.value, str(f.resolve), f"{f.flesh} FW, {f.dramatic} DW"])
    for x in scene.also_burning():
        state = f"ablaze ({x.detail})" if x.detail else "ablaze"
        rows.append([f"{scene.area_name(x.area)} {x.what}", b.rooms[b.areas[x.area].room].name,
                     "-", state, "-", "-", "-"])
    return header, rows


def choice_label(scene: Scene, hero: Hero, act: HeroAction) -> str:
    """A choice as the GM reads it: its text (``HeroAction.text``, what the GM may type back),
    what it means, and for a roll its pool, TN and chance (and what a failure risks), before it
    is picked."""
    from fuego.engine.hero_actions import HeroActionKind
    from fuego.table.risk import choice_odds

    b = scene.building
    k = act.kind
    words = act.text(scene)
    odds = choice_odds(scene, hero, act)
    roll = odds.words() if odds is not None else ""
    if k is HeroActionKind.MOVE:
        notes = [b.rooms[b.areas[act.area].room].name]
        fire = scene.fires.get(act.area)
        if fire is not None:
            notes.append(f"on fire, {fire.fd} FD: avoid {roll}" if roll
                         else f"on fire, {fire.fd} FD")
        # something burning of its own there (a wreck): its record says what the step costs
        for x in scene.also_burning():
            if x.area == act.area:
                extra = ("an extra move" if x.extra_moves == 1 else
                         plural(x.extra_moves, "extra move"))
                notes.append(f"a {x.what} ablaze"
                             + (f", {extra} to get round it" if x.extra_moves else ""))
        if b.is_exit(act.area):
            notes.append("a way out")
        return f"{words} ({'; '.join(notes)})"
    if k in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        barrier = b.barriers[act.door]
        far = barrier.other(hero.area)
        what = barrier.describe().replace("-", " ")
        beyond = "" if scene.area_name(far) in words else f", {scene.area_name(far)}"
        return f"{words} ({what} to {b.rooms[b.areas[far].room].name}{beyond})"
    if k is HeroActionKind.SMOTHER:
        fd = scene.fires[act.area].fd
        return f"{words} ({'; '.join(filter(None, [fire_dice(fd), roll]))}; success: " \
               f"{1 + act.raises} FD off)"
    if k is HeroActionKind.SPOT:
        return f"{words} (a hidden fire, GM only: {fire_dice(scene.fires[act.area].fd)}; " \
               f"{roll})"
    if k is HeroActionKind.PUT_OUT_CLOTHES:
        victim = scene.hero(act.other) if act.other else hero
        return f"{words} ({victim.clothes_fd} FD on {victim.name}; {roll})"
    return f"{words} ({roll})" if roll else words  # a module's action: its roll, if it has one


#: What a roll is for, by the purpose the engine names it with: (what the hero does, what
#: success means, what failure means).
PURPOSES = {
    "smother fire": ("smother the fire", "a Fire Die off (one more per raise)",
                     "the fire burns on"),
    "spot fire": ("spot a hidden fire, against its Stealth roll", "the hero sees it",
                  "it stays hidden"),
    "put out clothes": ("put out burning clothes", "the flames are out", "they burn on"),
    "wound check": ("make a wound check (Brawn k Brawn against all the Flesh Wounds)",
                    "no Dramatic Wound", "Dramatic Wounds, and the Flesh Wounds go to 0"),
    "clothes": ("keep the clothes from catching fire (Finesse k Finesse)",
                "the clothes do not catch", "the clothes catch fire"),
    "keep bearings": ("keep their bearings in thick smoke (Wits k Wits)", "not confused",
                      "confused"),
    "breath": ("hold their breath (Resolve k Resolve)", "no harm", "a Dramatic Wound"),
}


#: An avoid roll's words by what it avoids (``injury.avoid_roll``): what, unharmed, harmed.
_AVOIDING = {Avoid.FIRE.value: ("the fire", "through unharmed", "the fire's damage"),
             Avoid.DEBRIS.value: ("the falling debris", "clear of it", "the debris's damage")}


def purpose_words(purpose: str) -> tuple[str, str, str] | None:
    """What a roll is for, in words: ``avoid fire (climbing)`` is the avoid roll with the
    hero's best movement Knack (``avoid debris (climbing)``: the same roll under falling
    structure)."""
    if purpose in PURPOSES:
        return PURPOSES[purpose]
    m = re.fullmatch(r"(.+) \((.+)\)", purpose)
    if m and m[1] in _AVOIDING:
        what, ok, harmed = _AVOIDING[m[1]]
        return (f"avoid {what} (Panache + {m[2].capitalize()}, the best movement Knack)", ok,
                harmed)
    return None


def roll_for(purpose: str, *, brief: bool = False) -> str:
    """What a roll is for, after "rolls" or "roll": ``to smother the fire``; ``for PURPOSE``
    where it has no words (a module's roll). ``brief``: without the rule in brackets (``to
    avoid the fire``), for a line that recalls the roll rather than asks for it."""
    said = purpose_words(purpose)
    if said is None:
        return f"for {purpose or 'a roll'}"
    return "to " + (re.sub(r" \(.*\)$", "", said[0]) if brief else said[0])


def roll_line(q: Question) -> str:
    """``Isabela Soldano rolls to ...: 5k3 vs TN 15 - 64%. Success: ...; failure: ...``"""
    from fuego.table.risk import percent, roll_chance

    pool = q.dice_pool
    said = purpose_words(q.purpose)
    text = f"{q.actor.name} rolls {roll_for(q.purpose)}: {pool}"
    if q.tn is not None:
        p = roll_chance(pool, q.tn)
        text += f" vs TN {q.tn}" + (f" - {percent(p)} to succeed" if p is not None else "")
    if said:
        text += f". Success: {said[1]}; failure: {said[2]}."
    return text


def event_style(e: Event) -> str | None:
    from fuego.engine.events import EventKind as K

    if e.kind in (K.HERO_DIED, K.HERO_KNOCKED_OUT, K.FLASHOVER, K.CLOTHES_CAUGHT,
                  K.STRUCTURE_DESTROYED, K.FLOOR_COLLAPSED):
        return "bold red"
    if e.kind in (K.FIRE_STARTED, K.FIRE_LEAPT, K.FIRE_SPREAD, K.FIRE_BURNED_THROUGH,
                  K.FIRE_GREW, K.HERO_DAMAGED):
        return "red"
    if e.kind in (K.FIRE_OUT, K.HERO_ESCAPED, K.CLOTHES_OUT, K.FIRE_SHRANK):
        return "green"
    if e.kind is K.GM:
        return "yellow"
    return None
