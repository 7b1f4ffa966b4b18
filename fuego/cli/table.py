"""The GM's table: what ``fuego play`` shows and asks (the prompting layer; the engine never
prompts).

:class:`Table` is the :class:`fuego.table.session.Live` side of a session: the
:class:`~fuego.table.session.Player` replays the saved answers and asks the table only when
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

What the table shows (:class:`Screen`, the plans, the heroes' and fires' tables, the choices'
labels) is in :mod:`fuego.cli.table_view`; its names are importable from here as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from fuego.cli.table_view import (  # noqa: F401
    KEY,
    Screen,
    _event_style,
    _isatty,
    area_label,
    choice_label,
    choice_words,
    fire_label,
    fire_rows,
    hero_levels,
    hero_rows,
    plan,
    roll_line,
    sight_lines,
    when,
)
from fuego.errors import FuegoError, SaveError
from fuego.table import session as sessions
from fuego.table.session import Question, Quit, Rewind

if TYPE_CHECKING:
    from fuego.engine.events import Event
    from fuego.engine.scene import Scene
    from fuego.table.session import Player

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


# -- the table -----------------------------------------------------------------------------------
class Table:
    """Shows and asks; implements :class:`fuego.table.session.Live`."""

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
        from fuego.engine.events import EventKind

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
                if len(words) == 2 and not (words[1].isdecimal() and int(words[1]) >= 1):
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
