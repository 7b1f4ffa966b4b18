"""What the GM's table shows: the :class:`Screen` it writes to (rich on a terminal, plain text
otherwise) and the views of the scene it draws: the moment, the levels' plans, the heroes' and
the fires' tables, what each hero sees, a choice's words and label, a roll's odds, and the style
of a narrated event.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from fuego.errors import FuegoError
from fuego.table import session as sessions

if TYPE_CHECKING:
    from fuego.engine.events import Event
    from fuego.engine.hero_actions import HeroAction
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene
    from fuego.table.session import Question


# -- output --------------------------------------------------------------------------------------
class Screen:
    """Where the table writes: rich on a terminal, plain text otherwise."""

    def __init__(self, *, rich: bool | None = None, echo: Callable[[str], None] | None = None):
        if rich is None:
            rich = _isatty(sys.stdout)
        self.rich = rich
        self._echo = echo or click.echo
        self._console = None
        if rich:
            from rich.console import Console

            self._console = Console(file=sys.stdout, highlight=False, soft_wrap=True)

    def line(self, text: str = "", style: str | None = None) -> None:
        if self._console is not None:
            from rich.text import Text

            self._console.print(Text(text, style=style or ""))
        else:
            self._echo(text)

    def lines(self, texts, style: str | None = None) -> None:
        for text in texts:
            self.line(text, style)

    def rule(self, title: str) -> None:
        if self._console is not None:
            self._console.rule(title)
        else:
            self._echo(f"== {title} ==")

    def block(self, title: str, body: list) -> None:
        """A drawn plan (lines of text or rich ``Text``): a panel on a terminal, the lines
        under a title line otherwise."""
        if self._console is not None:
            from rich.panel import Panel
            from rich.text import Text

            text = Text("\n").join(t if isinstance(t, Text) else Text(t) for t in body)
            self._console.print(Panel(text, title=title, expand=False, title_align="left"))
        else:
            self._echo(title)
            for t in body:
                self._echo(getattr(t, "plain", t).rstrip())

    def table(self, title: str, header: list[str], rows: list[list[str]],
              styles: list[str | None] | None = None) -> None:
        if self._console is not None:
            from rich.table import Table as RichTable

            t = RichTable(title=title, title_justify="left", show_lines=False)
            for h in header:
                t.add_column(h)
            for i, row in enumerate(rows):
                t.add_row(*row, style=(styles[i] if styles else None))
            self._console.print(t)
            return
        widths = [max(len(h), *(len(r[c]) for r in rows)) if rows else len(h)
                  for c, h in enumerate(header)]
        self._echo(title)
        fmt = "  ".join("{:<%d}" % w for w in widths)
        self._echo("  " + fmt.format(*header).rstrip())
        for row in rows:
            self._echo("  " + fmt.format(*row).rstrip())


def _isatty(stream: Any) -> bool:
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
    extra = "" if fire.temperature.value == "regular" else f" {fire.temperature.value}"
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
    """The levels worth drawing: where the heroes still in the building are (else the fires)."""
    b = scene.building
    levels = {b.areas[h.area].level for h in scene.heroes if h.present}
    if not levels:
        levels = {b.areas[i].level for i in scene.fires}
    if not levels and b.levels:
        levels = {0}
    return sorted(levels, key=lambda lv: -b.levels[lv].elevation)


KEY = ("key: *N fire of N Fire Dice, @X hero, ~ thin smoke, \u2248 thick smoke, D/d door "
       "closed/open, W/w window closed/open, x broken, E exit (map LEVEL: the full legend)")


def plan(scene: Scene, level: int, *, color: bool, legend: bool = True, ascii: bool = False,
         symbols: dict[str, str] | None = None):
    """The level drawn by ``fuego.render.terminal``: fires, smoke, heroes, doors (and a legend).
    Styled ``rich`` text when ``color``, else plain lines. ``symbols``: the GM's plan
    characters per room."""
    from fuego.render.terminal import plan_plain, plan_text

    draw = plan_text if color else plan_plain
    return draw(scene, level, ascii=ascii, title=False, legend=legend, symbols=symbols)


def hero_rows(scene: Scene) -> tuple[list[str], list[list[str]], list[str | None]]:
    from fuego.engine.smoke import Density

    header = ["hero", "where", "wounds", "burning", "confused", "smoke", "breath", "status"]
    rows, styles = [], []
    limit_default = scene.settings.breath_rounds
    for h in scene.heroes:
        d = scene.smoke.at(h.area) if scene.smoke is not None and h.present else Density.NONE
        smoke = {Density.NONE: "-", Density.THIN: "thin", Density.THICK: "thick"}[d]
        if h.thick_rounds:
            smoke += f" ({h.thick_rounds} rd{'s' if h.thick_rounds != 1 else ''} thick)"
        limit = h.resolve if limit_default is None else limit_default
        wounds = f"{h.flesh} FW, {h.dramatic}/{h.knocked_out_at} DW"
        if h.crippled:
            wounds += " crippled"
        status = h.status.value
        if h.dice:
            status += " (dice " + ", ".join(map(str, h.dice)) + ")"
        rows.append([
            h.name, area_label(scene, h.area) if h.status.value != "escaped" else "out",
            wounds, f"clothes {h.clothes_fd} FD" if h.clothes_fd else "-",
            "CONFUSED" if h.confused else "-", smoke,
            f"{h.breath}/{limit} held" if h.breath else "-", status,
        ])
        styles.append("bold red" if h.clothes_fd or h.status.value in ("dead", "knocked-out")
                      else ("dim" if not h.present else None))
    return header, rows, styles


def sight_lines(scene: Scene) -> list[tuple[str, str | None]]:
    """What each hero in play sees, and (for the GM only) the fires hidden from them."""
    from fuego.engine.hero_actions import hidden_fires, visible_fires

    out: list[tuple[str, str | None]] = []
    for h in scene.heroes:
        if not h.in_play:
            continue
        seen = sorted(visible_fires(scene, h))
        hidden = hidden_fires(scene, h)
        text = f"{h.name} sees: " + (", ".join(fire_label(scene, i) for i in seen)
                                      if seen else "no fire")
        out.append((text, None))
        if hidden:
            out.append(("  [GM only] hidden from " + h.name.split()[0] + ": "
                        + ", ".join(fire_label(scene, i) for i in hidden), "italic magenta"))
    return out


def fire_rows(scene: Scene) -> tuple[list[str], list[list[str]]]:
    header = ["fire", "room", "FD", "state", "heat", "fuel", "wounds"]
    rows = []
    b = scene.building
    for i in sorted(scene.fires):
        f = scene.fires[i]
        rows.append([scene.area_name(i), b.rooms[b.areas[i].room].name, str(f.fd), f.state.value,
                     f.temperature.value, str(f.resolve), f"{f.flesh} FW, {f.dramatic} DW"])
    return header, rows


def choice_words(scene: Scene, hero: Hero, act: HeroAction) -> str:
    """A choice in the words a GM types (``parse_action`` reads them back): a door or window
    is named by the area beyond it."""
    from fuego.engine.hero_actions import HeroActionKind

    if act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        far = scene.building.barriers[act.barrier].other(hero.area)
        return f"{act.kind.value} {scene.area_name(far)}"
    return sessions.action_words(scene, act)


def choice_label(scene: Scene, hero: Hero, act: HeroAction) -> str:
    """A choice as the GM reads it: its words, then what it means."""
    from fuego.engine.hero_actions import HeroActionKind

    b = scene.building
    k = act.kind
    words = choice_words(scene, hero, act)
    if k is HeroActionKind.MOVE:
        notes = [b.rooms[b.areas[act.target].room].name]
        fire = scene.fires.get(act.target)
        if fire is not None:
            notes.append(f"on fire, {fire.fd} FD: avoid at TN {5 * fire.fd}")
        if b.is_exit(act.target):
            notes.append("a way out")
        return f"{words} ({'; '.join(notes)})"
    if k in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        barrier = b.barriers[act.barrier]
        far = barrier.other(hero.area)
        what = barrier.describe().replace("-", " ")
        named = "" if "|" in barrier.name else f" '{barrier.name}'"
        return f"{words} ({what}{named} to {b.rooms[b.areas[far].room].name})"
    if k is HeroActionKind.SMOTHER:
        fd = scene.fires[act.target].fd
        return f"{words} ({fd} FD: TN {5 * fd})"
    if k is HeroActionKind.SPOT:
        return f"{words} (a hidden fire; GM only: {scene.fires[act.target].fd} FD)"
    if k is HeroActionKind.PUT_OUT_CLOTHES:
        victim = scene.hero(act.other) if act.other else hero
        return f"{words} ({victim.clothes_fd} FD: TN {5 * victim.clothes_fd})"
    return words


def roll_line(q: Question) -> str:
    pool = q.pool
    text = f"{q.hero.name} rolls for {q.purpose}: {pool}"
    if q.tn is not None:
        from fuego.dice.odds import chance

        try:
            p = chance(pool, q.tn)
            text += f" vs TN {q.tn} - {100 * p:.1f}% to succeed"
        except FuegoError:
            text += f" vs TN {q.tn}"
    return text


def _event_style(e: Event) -> str | None:
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
