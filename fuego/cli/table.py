"""The GM's table: what ``fuego play`` shows and asks (the prompting layer; the engine never
prompts).

:class:`Table` is the :class:`fuego.scenario.session.Live` side of a session: the
:class:`~fuego.scenario.session.Player` replays the saved answers and asks the table only when
they run out. The table

- shows the state at a glance before each round: the floor plan of the heroes' level(s) with
  fires, smoke, heroes and doors; a table of the heroes; what each hero sees and what is hidden
  from them (marked for the GM only);
- asks for each hero's action (numbered choices, Enter takes the automatic hero's pick) and for
  every roll a hero makes (pool, TN and the exact chance; Enter lets fuego roll);
- narrates the phases and the end of each round as they happen;
- answers ``help``, ``map [LEVEL]``, ``status``, ``undo``, ``save`` and ``quit`` at every prompt,
  and passes GM overrides (``fire``, ``fd``, ``open``/``close``/``break``, ``move``, ``end``) on
  to the session, which records and carries them out;
- saves after every answer (atomically, keeping ``SAVE.bak``).

Output goes through :class:`Screen`: rich colours and boxes on a terminal, plain text over a
pipe (or with ``--plain``). Input is read with ``click.prompt`` so a pipe, a pseudo-terminal or
click's ``CliRunner`` can drive it; end of input saves and stops.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable

import click

from fuego.errors import FuegoError, SaveError
from fuego.scenario import session as sessions
from fuego.scenario.session import Question, Quit, Rewind

if TYPE_CHECKING:
    from fuego.events import Event
    from fuego.hero_actions import HeroAction
    from fuego.heroes import Hero
    from fuego.scenario.session import Player
    from fuego.scene import Scene

META_HELP = (
    "help                 this help (and the choices again)\n"
    "map [LEVEL|all]      the floor plan of a level (default: where the heroes are)\n"
    "status               heroes, fires and what each hero can see\n"
    "go [N]               between rounds: play N rounds without stopping between them\n"
    "                     (no N: until a hero must act or the scene ends)\n"
    "undo                 back to the start of the last round begun (again: one more round)\n"
    "save                 save now (fuego also saves after every answer)\n"
    "quit                 save and stop; resume with fuego play --resume SAVE"
)

_KIND_WORDS = {
    "move": "move to", "open": "open door", "close": "close door", "smother": "smother fire",
    "spot": "spot", "put-out-clothes": "put out clothes", "wait": "wait",
}


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
    from fuego.events import END_PHASE, START_PHASE

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
    from fuego.smoke import Density

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
    from fuego.hero_actions import hidden_fires, visible_fires

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
    from fuego.hero_actions import HeroActionKind

    if act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        far = scene.building.barriers[act.barrier].other(hero.area)
        return f"{act.kind.value} {scene.area_name(far)}"
    return sessions.action_words(scene, act)


def choice_label(scene: Scene, hero: Hero, act: HeroAction) -> str:
    """A choice as the GM reads it: its words, then what it means."""
    from fuego.hero_actions import HeroActionKind

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
        from fuego.odds import chance

        try:
            p = chance(pool, q.tn)
            text += f" vs TN {q.tn} - {100 * p:.1f}% to succeed"
        except FuegoError:
            text += f" vs TN {q.tn}"
    return text


# -- the table -----------------------------------------------------------------------------------
class Table:
    """Shows and asks; implements :class:`fuego.scenario.session.Live`."""

    def __init__(self, screen: Screen, save_path: str, *, verbose: bool = False,
                 read: Callable[[str], str] | None = None, color: bool | None = None):
        self.screen = screen
        self.save_path = save_path
        self.verbose = verbose
        self._read = read or self._prompt
        self.color = screen.rich if color is None else color
        self.player: Player | None = None
        self.narrator = None
        self.muted = False
        self.save_error: str | None = None
        self._last_round_shown = -1
        self._shown: tuple | None = None  # the question whose choices were shown last
        self._warned = 0
        self.go = 0  # rounds still to play without stopping between them
        self.go_until_hero = False  # ... or until a hero must act

    # -- wiring ------------------------------------------------------------------------------
    def attach(self, scene: Scene, player: Player) -> None:
        """A (re)built scene: narrate its events, silently while saved answers replay."""
        from fuego.render.narrate import Narrator

        self.player = player
        self.narrator = Narrator(verbose=self.verbose, building=scene.building)
        self.muted = player.replaying or player.rewinds > 0  # quiet until back at a question
        self._last_round_shown = -1
        self._shown = None
        for event in list(scene.log):
            self._narrate(event)
        scene.listeners.append(self._narrate)

    def _narrate(self, event: Event) -> None:
        from fuego.events import EventKind

        pairs = self.narrator.feed_pairs(event)
        if self.muted:
            return
        framing = (EventKind.ROUND_START, EventKind.ROUND_END, EventKind.SCENE_START,
                   EventKind.SCENE_END)
        if event.kind is EventKind.ROUND_START:
            self.screen.line("")
        for e, text in pairs:
            inside = e.round >= 1 and e.kind not in framing
            style = "bold" if e.kind in framing else _event_style(e)
            self.screen.line(("  " + text) if inside else text, style)

    def _flush_narration(self) -> None:
        if self.narrator is not None and not self.muted:
            for _, text in self.narrator.flush_pairs():
                self.screen.line("  " + text)

    # -- Live ----------------------------------------------------------------------------------
    def answer(self, q: Question) -> str:
        if self.muted:
            self._resumed(q)
        self._flush_narration()
        self._warnings()
        if q.kind == "round" and self.go:
            self.go -= 1
            return ""  # playing on: the round's own narration says it begins
        if q.kind != "round" and self.go_until_hero:
            self.go, self.go_until_hero = 0, False
        if q.kind == "round":
            if self._last_round_shown != q.round:
                self._last_round_shown = q.round
                self.show_state(q.scene, before_round=q.round)
            prompt = (f"Round {q.round}: Enter to play it, or a command (help)")
        elif q.kind == "action":
            shown = (q.key(), tuple(q.hero.dice), q.choices, q.default)
            if shown != self._shown:  # not again after a rejected answer
                self._shown = shown
                self._show_choices(q)
            prompt = self._action_prompt(q)
        else:
            shown = (q.key(), str(q.pool), q.tn)
            if shown != self._shown:
                self._shown = shown
                self.screen.line("  " + roll_line(q), "cyan")
            prompt = f"  {q.hero.name}'s total (Enter: fuego rolls)"
        while True:
            text = self._read(prompt)
            words = text.split()
            if words and words[0].lower() == "go" and len(words) <= 2:
                if q.kind != "round":
                    self.screen.line("  ! go plays rounds on: use it between rounds", "bold red")
                    continue
                if len(words) == 2 and not (words[1].isdigit() and int(words[1]) >= 1):
                    self.screen.line("  ! go N: a number of rounds (1 or more)", "bold red")
                    continue
                n = int(words[1]) if len(words) == 2 else q.scene.settings.max_rounds
                self.go, self.go_until_hero = n - 1, len(words) == 1
                return ""
            handled = self._meta(q, text)
            if not handled:
                return text

    def rejected(self, q: Question, error: FuegoError) -> None:
        self.screen.line(f"  ! {error.render()}", "bold red")

    def recorded(self, player: Player) -> None:
        self.save(player)

    def finished(self, player: Player) -> None:
        from fuego.render.narrate import summarize

        if self.muted:
            self.muted = False
            self.screen.line(f"(resumed: the scene is already over after round "
                             f"{player.scene.round})")
        self._flush_narration()
        self._warnings()
        self.screen.line("")
        self.screen.lines(summarize(player.scene, limit=player.scene.settings.max_rounds))
        self.save(player)
        q = Question("end", player.scene, player.scene.round)
        while True:
            try:
                text = self._read("The scene is over: Enter to finish (undo goes back a round)")
            except Quit:
                return
            if text.strip().lower() in ("", "quit", "q", "exit"):
                return
            if not self._meta(q, text):
                self.screen.line("  ! the scene is over: undo, map, status, save or Enter",
                                 "bold red")

    # -- saving ----------------------------------------------------------------------------------
    def save(self, player: Player | None = None) -> bool:
        player = player or self.player
        scene = player.scene if player is not None else None
        session = player.session if player is not None else None
        if session is None:
            return False
        state = scene.snapshot() if scene is not None and not player.replaying else None
        position = player.position() if scene is not None and not player.replaying else {}
        try:
            sessions.save(session, self.save_path, position=position, state=state)
        except SaveError as exc:
            msg = exc.render()
            if msg != self.save_error:
                self.screen.line(f"  ! NOT SAVED: {msg} (play goes on; 'save' tries again)",
                                 "bold red")
            self.save_error = msg
            return False
        if self.save_error:
            self.screen.line(f"  saved to {self.save_path} again", "green")
        self.save_error = None
        return True

    # -- showing -----------------------------------------------------------------------------------
    def _resumed(self, q: Question) -> None:
        """The first question after a replay (resume or undo): where we are and how we got here."""
        from fuego.render.narrate import Narrator

        self.muted = False
        scene = q.scene
        msg, self.player.rewind_message = self.player.rewind_message, None
        if msg:
            self.screen.line(msg, "yellow")
        where = f"before round {q.round}" if q.kind == "round" else when(scene)
        n = len(self.player.inputs)
        self.screen.line(f"-- back {'at ' if not where.startswith('before') else ''}{where} "
                         f"({n} answer{'s' if n != 1 else ''} replayed) --", "yellow")
        if q.kind != "round" and scene.round >= 1:
            recap = Narrator(verbose=self.verbose, building=scene.building)
            lines = []
            for e in scene.log:  # not flushed: a damage line still waiting is the live one's
                got = recap.feed(e)
                if e.round == scene.round:
                    lines.extend(got)
            self.show_state(scene)
            self.screen.line(f"Round {scene.round} so far:", "bold")
            for text in lines:
                self.screen.line("  " + text)

    def _warnings(self) -> None:
        if self.player is None:
            return
        for w in self.player.warnings[self._warned:]:
            self.screen.line(f"  ! {w}", "yellow")
        self._warned = len(self.player.warnings)

    def show_state(self, scene: Scene, *, before_round: int | None = None,
                   levels: list[int] | None = None) -> None:
        title = scene.title or scene.building.title or "the scene"
        moment = f"before round {before_round}" if before_round is not None else when(scene)
        fd = sum(f.fd for f in scene.fires.values())
        self.screen.line("")
        self.screen.rule(f"{title} - {moment}: {len(scene.fires)} fire"
                         f"{'s' if len(scene.fires) != 1 else ''}, {fd} Fire Dice")
        for lv in (levels if levels is not None else hero_levels(scene)):
            self.show_plan(scene, lv)
        self.screen.line(KEY, "dim")
        self.show_heroes(scene)
        for text, style in sight_lines(scene):
            self.screen.line(text, style)

    def show_plan(self, scene: Scene, level: int, *, legend: bool = False) -> None:
        """A level's plan; without the full legend, a one-line key of its rooms follows."""
        b = scene.building
        lv = b.levels[level]
        symbols = self.player.session.symbols if self.player is not None else None
        body = list(plan(scene, level, color=self.color, legend=legend, symbols=symbols))
        while body and not getattr(body[-1], "plain", body[-1]).strip():
            body.pop()
        self.screen.block(f"{lv.name} (level {lv.elevation})", body)
        if not legend:
            from fuego.render.terminal import room_symbols

            syms = room_symbols(b, symbols)
            rooms = [f"{syms[k]} {r.name}" for k, r in b.rooms.items() if r.level == level]
            self.screen.line("rooms: " + ", ".join(rooms), "dim")

    def show_heroes(self, scene: Scene) -> None:
        header, rows, styles = hero_rows(scene)
        self.screen.table("Heroes", header, rows, styles)

    def show_status(self, scene: Scene, moment: str | None = None) -> None:
        self.screen.line("")
        self.screen.rule(f"Status - {moment or when(scene)}")
        self.show_heroes(scene)
        header, rows = fire_rows(scene)
        if rows:
            self.screen.table("Fires", header, rows)
        else:
            self.screen.line("No fire burns.")
        for text, style in sight_lines(scene):
            self.screen.line(text, style)

    def _show_choices(self, q: Question) -> None:
        scene, hero = q.scene, q.hero
        kinds = []
        for act in q.choices:
            word = _KIND_WORDS.get(act.kind.value, act.kind.value)
            if word not in kinds:
                kinds.append(word)
        dice = ", ".join(map(str, hero.dice))
        n = len(hero.dice)
        room = scene.building.rooms[scene.building.areas[hero.area].room].name
        self.screen.line("")
        where = scene.area_name(hero.area)
        self.screen.line(f"  Phase {scene.phase} - {hero.name} ({room}, {where}; "
                         f"{n} action di{'e' if n == 1 else 'ce'}: {dice}) - "
                         + " / ".join(kinds) + "?", "bold")
        for i, act in enumerate(q.choices, 1):
            mark = "*" if act == q.default else " "
            self.screen.line(f"   {mark}{i:>2}. {choice_label(scene, hero, act)}")
        self.screen.line("      hold: keep the die for a later phase; help: every command", "dim")

    def _action_prompt(self, q: Question) -> str:
        if q.default is not None and q.default in q.choices:
            n = q.choices.index(q.default) + 1
            return f"  {q.hero.name} [{n}: {choice_words(q.scene, q.hero, q.default)}]"
        return f"  {q.hero.name}"

    # -- commands at every prompt ----------------------------------------------------------------
    def _meta(self, q: Question, text: str) -> bool:
        """Handle help/map/status/undo/save/quit; True when ``text`` was one of them."""
        words = text.split()
        if not words:
            return False
        verb = words[0].lower()
        scene = q.scene
        if verb in ("help", "?"):
            self._help(q)
            return True
        if verb == "map":
            self._map(scene, words[1:])
            return True
        if verb == "status":
            self.show_status(scene, f"before round {q.round}" if q.kind == "round" else None)
            return True
        if verb == "save":
            if self.save():
                self.screen.line(f"  saved to {self.save_path}", "green")
            return True
        if verb in ("quit", "exit"):
            raise Quit()
        if verb == "undo":
            keep = self.player.undo_point()
            if keep is None:
                self.screen.line("  nothing to undo: no answer given yet", "yellow")
                return True
            nxt = self.player.inputs[keep] if keep < len(self.player.inputs) else None
            rnd = nxt["round"] if nxt and nxt.get("q") == "round" else 1
            dropped = len(self.player.inputs) - keep
            raise Rewind(keep, f"undone: back to the start of round {rnd} "
                               f"({dropped} answer{'s' if dropped != 1 else ''} dropped)")
        return False

    def _help(self, q: Question) -> None:
        self.screen.line("  At every prompt:", "bold")
        self.screen.lines("    " + line for line in META_HELP.splitlines())
        self.screen.line("  GM overrides (recorded in the session, undone by undo):", "bold")
        self.screen.lines("    " + line for line in sessions.OVERRIDE_HELP.splitlines())
        self.screen.line("    (gm ... forces an override where a hero's action has the same words)")
        if q.kind == "action":
            self.screen.line("  Here: a number from the list, the action's words (move ground:C4, "
                             "open ground:C5, smother ground:D2, spot ground:E2, put-out-clothes "
                             "[Name], wait), hold, or Enter for the starred choice.", "bold")
            self._show_choices(q)
        elif q.kind == "roll":
            self.screen.line("  Here: the player's rolled total, or Enter and fuego rolls.", "bold")
        elif q.kind == "round":
            self.screen.line("  Here: Enter plays the round.", "bold")

    def _map(self, scene: Scene, args: list[str]) -> None:
        b = scene.building
        if not args:
            levels = hero_levels(scene)
        elif args[0].lower() == "all":
            levels = sorted(range(len(b.levels)), key=lambda lv: -b.levels[lv].elevation)
        else:
            try:
                levels = [b.level_named(args[0]).index]
            except KeyError:
                names = ", ".join(lv.name for lv in b.levels)
                self.screen.line(f"  ! no level {args[0]!r} (levels: {names}, or all)", "bold red")
                return
        for lv in levels:
            self.show_plan(scene, lv, legend=True)

    # -- input -------------------------------------------------------------------------------------
    def _prompt(self, text: str) -> str:
        """One line from the GM. On a terminal click's prompt (line editing, Ctrl-C); over a
        pipe the line is read and echoed, so a transcript reads like the terminal did."""
        if _isatty(sys.stdin):
            try:
                return click.prompt(text, default="", show_default=False, prompt_suffix=": ")
            except click.exceptions.Abort:  # end of input or Ctrl-C at the prompt
                raise Quit() from None
        click.echo(text + ": ", nl=False)
        line = sys.stdin.readline()
        if not line:  # end of input
            click.echo("")
            raise Quit()
        answer = line.rstrip("\r\n")
        click.echo(answer)
        return answer


def _event_style(e: Event) -> str | None:
    from fuego.events import EventKind as K

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
