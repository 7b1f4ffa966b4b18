"""The GM's prompts: what ``fuego play`` shows and asks each round (the prompting layer; the engine never
prompts).

:class:`GMPrompts` is the :class:`fuego.table.replay.Live` side of a session: the
:class:`~fuego.table.replay.Player` replays the saved answers and asks the table only when
they run out. The table

- opens the scene with its title, the description to read aloud (set apart) and the GM's
  briefing;
- shows the state at a glance before each round, fitted to the terminal: the plans of the
  levels where a hero stands or something changed (side by side; left out, with a note, when
  the terminal is too short), a line per hero (where, wounds, smoke, confusion, clothes,
  breath) and what each hero sees, with what is hidden marked for the GM only;
- asks for each hero's action (numbered choices, each roll-bearing one with its pool, TN and
  chance and what a failure risks; Enter takes the automatic hero's pick; ``raise N`` calls
  raises) and for every roll a hero makes (a total or the dice as rolled, checked against the
  pool; Drama Dice; ``back`` to the choices; a roll that cannot fail is not asked);
- narrates the phases and the end of each round as they happen, wrapped between words;
- answers ``help``, ``map [LEVEL]``, ``status``, ``look ROOM``, ``briefing``, ``undo`` (the
  last answer), ``undo round``, ``save`` and ``quit`` at every prompt (a mistyped word gets the
  nearest), and passes GM overrides
  (``fire``, ``fd``, ``open``/``close``/``break``, ``move``, ``wound``, ``add``, ``remove``,
  ``end``) on to the session, which records and carries them out;
- offers once to end the scene when no hero is left to act;
- saves after every answer (atomically, keeping ``SAVE.bak``).

Output goes through :class:`Screen`: rich colours and boxes on a terminal, plain text over a
pipe (or with ``--plain``). Input is read with ``click.prompt`` so a pipe, a pseudo-terminal or
click's ``CliRunner`` can drive it; end of input saves and stops.

What the table shows (:class:`Screen`, the plans, the heroes' and fires' tables, the choices'
labels) is in :mod:`fuego.cli.gm_screen`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

import click

from fuego.cli.gm_screen import (
    Screen,
    also_burning,
    area_label,
    cells,
    choice_label,
    cut,
    event_style,
    fire_label,
    fire_rows,
    fires_words,
    hero_levels,
    hero_rows,
    isatty,
    level_state,
    literal,
    paragraphs,
    plan,
    plan_key,
    purpose_words,
    roll_for,
    roll_line,
    side_by_side,
    sight_lines,
    watchers_line,
    when,
)
from fuego.engine.hero_actions import HeroActionKind, action_roll
from fuego.engine.injury import CATCH_CLOTHES
from fuego.engine.plans import FLEE
from fuego.errors import FuegoError, SaveError
from fuego.rules.formulas import raise_bonus
from fuego.table import session as sessions
from fuego.table.commands import Command, command_word
from fuego.table.overrides import OVERRIDE_HELP, Override
from fuego.table.replay import (
    DRAMA_WORD,
    Answer,
    GivenBy,
    Interrupted,
    Question,
    QuestionKind,
    Quit,
    Rewind,
    answer_word,
)
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.engine.events import Event
    from fuego.engine.scene import Scene
    from fuego.render.narrate import Narrator
    from fuego.table.replay import Player

#: ``undo``'s one argument: back to the start of the round (``undo round``, ``undo r``).
UNDO_ROUND = ("round", "r")
#: ``map``'s argument for every level.
ALL_LEVELS = "all"
#: The answers to "End the scene now?" (Enter ends it).
END_WORDS = ("y", "yes", "end")
PLAY_OUT_WORDS = ("n", "no", Answer.PLAY_OUT.value, "play")
#: What ends the last prompt, when the scene is over (Enter too).
FINISH_WORDS = ("quit", "q", "exit")

META_HELP = (
    "help                 this help (and the choices again)\n"
    "map [LEVEL|all]      the floor plan of a level (default: where the heroes are)\n"
    "status               heroes, fires and what each hero can see\n"
    "look ROOM            a room's description, its fires and who is in it\n"
    "briefing             the scene's title, read-aloud description and the GM's briefing\n"
    "back                 at a roll: back to the hero's choices (the round stays)\n"
    "go [N]               between rounds: play N rounds without stopping between them\n"
    "                     (no N: until a hero must act or the scene ends)\n"
    "undo                 take back the last answer: its question is asked again (again: the\n"
    "                     one before; fuego's dice fall the same)\n"
    "undo round           back to the start of the last round begun (again: one more round)\n"
    "save                 save now (fuego also saves after every answer)\n"
    "quit                 save and stop; resume with fuego play --resume SAVE"
)

#: How the prompt's heading names each kind of hero action (a module's own kinds by their word).
_KIND_WORDS: dict[Enum, str] = {
    HeroActionKind.MOVE: "move to", HeroActionKind.OPEN: "open door",
    HeroActionKind.CLOSE: "close door", HeroActionKind.SMOTHER: "smother fire",
    HeroActionKind.SPOT: "spot", HeroActionKind.PUT_OUT_CLOTHES: "put out clothes",
    HeroActionKind.WAIT: "wait",
}


def undone_words(entry: dict[str, Any]) -> str:
    """An answer as the GM gave it, for the line that says it was undone."""
    q, who, rnd = QuestionKind(entry["q"]), entry.get("hero", ""), entry.get("round")
    at = f"round {rnd}, phase {entry.get('phase')}"
    if "gm" in entry:
        where = f"before round {rnd}" if q is QuestionKind.ROUND else at
        return f"the GM's {entry['gm']!r} ({where})"
    a = entry.get("a")
    if q is QuestionKind.ROUND:
        return (f"letting the fire play out (before round {rnd})" if a == Answer.PLAY_OUT
                else f"the start of round {rnd}")
    if q is QuestionKind.DICE:
        return f"{who}'s action dice for round {rnd}"
    if q is QuestionKind.ACTION:
        return f"{who}'s action ({at}: {a})"
    total = "fuego's roll" if a == Answer.AUTO else str(a)
    # in the words the prompt asked it with (``spot fire`` is the engine's name for the roll)
    return f"{who}'s roll {roll_for(entry.get('purpose', ''), brief=True)} ({at}: {total})"


# -- the table -----------------------------------------------------------------------------------
class GMPrompts:
    """Shows and asks; implements :class:`fuego.table.replay.Live`."""

    def __init__(self, screen: Screen, save_path: str, *, verbose: bool = False,
                 read: Callable[[str], str] | None = None, color: bool | None = None):
        self.screen = screen
        self.save_path = save_path
        self.verbose = verbose
        self._read = read or self._prompt
        self.color = screen.rich if color is None else color
        self.player: Player | None = None
        self.narrator: Narrator | None = None
        self.muted = False
        self.save_error: str | None = None
        self._last_round_shown = -1
        self._shown: tuple[Any, ...] | None = None  # the question whose choices were shown last
        self._warned = 0
        self.go = 0  # rounds still to play without stopping between them
        self.go_until_hero = False  # ... or until a hero must act
        # before round N -> each level's state on that round's screen: a screen compares with
        # the round screen before it, so an undo back to a round draws it as it was
        self._levels_seen: dict[int, dict[int, tuple]] = {}
        self._roll_text = ""  # the last answer typed at a roll prompt
        self._backing = False  # a rewind by 'back': no recap, the choices again
        self._undo_round: int | None = None  # an undo by the answer made in this round
        self._begun = False  # the scene's start narrated: what follows is indented

    # -- wiring ------------------------------------------------------------------------------
    def attach(self, scene: Scene, player: Player) -> None:
        """A (re)built scene: narrate its events, silently while saved answers replay."""
        from fuego.render.narrate import Narrator

        self.player = player
        self.narrator = Narrator(verbose=self.verbose, building=scene.building)
        self.muted = player.replaying or player.rewinds > 0  # quiet until back at a question
        if player.rewinds:  # an undo stops where it lands: no rounds played on by themselves
            self.go, self.go_until_hero = 0, False
        self._last_round_shown = -1
        self._shown = None
        self._begun = False  # the log is narrated again from its start: its scene start
        if not self.muted and scene.round == 0:
            self.show_intro(scene)
        for event in list(scene.log):
            self._narrate(event)
        scene.listeners.append(self._narrate)

    def _narrate(self, event: Event) -> None:
        from fuego.engine.events import EventKind

        assert self.narrator is not None, "attached before the scene's events"
        pairs = self.narrator.feed_pairs(event)
        if self.muted:
            return
        framing = (EventKind.ROUND_START, EventKind.ROUND_END, EventKind.SCENE_START,
                   EventKind.SCENE_END)
        if event.kind is EventKind.ROUND_START:
            self.screen.line("")
        for e, text in pairs:
            # what happens once the scene has begun (a round, or the GM's hand before round 1)
            # is indented under the framing lines; the scene's opening fires are not
            inside = e.kind not in framing and (e.round >= 1 or self._begun)
            style = "bold" if e.kind in framing else event_style(e)
            self.screen.line(("  " + text) if inside else text, style)
            self._begun = self._begun or e.kind is EventKind.SCENE_START

    def _flush_narration(self) -> None:
        if self.narrator is not None and not self.muted:
            for _, text in self.narrator.flush_pairs():
                self.screen.line("  " + text)

    # -- Live ----------------------------------------------------------------------------------
    def given(self, q: Question) -> str | None:
        """A round boundary the table answers itself (recorded with the reason): ``go`` rounds
        and, once the GM let the fire play out, every round. Never the first question after a
        replay: an undo or a resume stops where it lands."""
        if self.muted:
            return None
        self._flush_narration()
        self._warnings()
        if self.go and not q.offer_end:
            self.go -= 1
            return GivenBy.GO.value  # playing on: the round's own narration says it begins
        if self._playing_out(q):
            return GivenBy.PLAY_OUT.value
        return None

    def answer(self, q: Question) -> str:
        if self.muted:
            self._resumed(q)
        self._flush_narration()
        self._warnings()
        if q.kind is not QuestionKind.ROUND and self.go_until_hero:
            self.go, self.go_until_hero = 0, False
        if q.kind is QuestionKind.ROUND:
            if self._last_round_shown != q.round:
                self._last_round_shown = q.round
                self.show_state(q.scene, before_round=q.round)
            if q.offer_end:
                return self._offer_end(q)
        prompt = self._show_question(q)
        while True:
            text = self._typed(q, literal(self._read(prompt)))
            if text is None:
                continue
            if q.kind is QuestionKind.ACTION and answer_word(text) is Answer.HOLD:
                self._held(q)
            if q.kind is QuestionKind.ROLL:
                self._roll_text = text
            return text

    def _typed(self, q: Question, text: str) -> str | None:
        """The GM's words as the answer, or None when they were the table's own command (done
        here: the question is asked again)."""
        words = text.split()
        if words and command_word(words[0]) is Command.GO and len(words) <= 2:
            return "" if self._go(q, words[1:]) else None
        done = self._meta(q, text)
        if done is None:
            return text
        if done is Command.SAVE:  # a line that says so: the question stands where it was
            return None
        if q.kind is QuestionKind.ACTION:  # the menu or the roll again under what it showed
            self._show_choices(q)
        elif q.kind is QuestionKind.ROLL:
            self.screen.line("  " + roll_line(q), "cyan")
        return None

    def _show_question(self, q: Question) -> str:
        """What the question shows before its prompt (the choices, the roll), and the prompt."""
        if q.kind is QuestionKind.ROUND:
            return f"Round {q.round}: Enter to play it, or a command (help)"
        if q.kind is QuestionKind.DICE:
            n = len(q.rolled)
            return (f"  {q.actor.name}'s action di{'e' if n == 1 else 'ce'} "
                    f"({n} d10, no ten again; Enter: fuego's "
                    f"{' '.join(map(str, q.rolled))})")
        if q.kind is QuestionKind.ACTION:
            shown: tuple[Any, ...] = (q.key(), tuple(q.actor.dice), q.choices, q.default)
            if shown != self._shown:  # not again after a rejected answer
                self._shown = shown
                self._show_choices(q)
            return self._action_prompt(q)
        shown = (q.key(), str(q.pool), q.tn)
        if shown != self._shown:
            self._shown = shown
            self.screen.line("  " + roll_line(q), "cyan")
        drama = (f"; drama: +1 kept die, {q.actor.drama} left" if q.actor.drama else "")
        back = "; back: the choices" if self._action_behind(q) is not None else ""
        return f"  {q.actor.name}'s total or dice (Enter: fuego rolls{back}{drama})"

    def _go(self, q: Question, args: list[str]) -> bool:
        """``go [N]``: play rounds on without stopping (True), or say why not here (False)."""
        if q.kind is not QuestionKind.ROUND:
            self.screen.line("  ! go plays rounds on: use it between rounds", "bold red")
            return False
        if args and not (args[0].isascii() and args[0].isdigit() and len(args[0]) <= 6
                         and int(args[0]) >= 1):
            self.screen.line("  ! go N: a number of rounds (1 to 999999)", "bold red")
            return False
        n = int(args[0]) if args else q.scene.settings.max_rounds
        self.go, self.go_until_hero = n - 1, not args
        return True

    def _offer_end(self, q: Question) -> str:
        """No hero is left to act: end the scene now, or let the fire play out unasked."""
        heroes = q.scene.heroes
        states = ", ".join(f"{h.name} {h.status.value}" for h in heroes)
        self.screen.line(f"No hero is left to act ({states}).", "bold yellow")
        while True:
            text = literal(self._read("End the scene now? [Y: end / n: let the fire play "
                                      "out]"))
            low = text.strip().lower()
            if not low or low in END_WORDS:
                return Override.END.value
            if low in PLAY_OUT_WORDS:
                return Answer.PLAY_OUT.value
            if self._meta(q, text) is None:
                self.screen.line("  ! y ends the scene, n lets the fire play out", "bold red")

    def _playing_out(self, q: Question) -> bool:
        """No hero can act and the GM chose to let the fire play out: no round prompts."""
        if self.player is None or any(h.in_play for h in q.scene.heroes):
            return False
        return any(e.get("a") == Answer.PLAY_OUT for e in self.player.inputs)

    def _held(self, q: Question) -> None:
        die = q.actor.dice[0] if q.actor.dice else q.phase
        later = ("for a later phase" if q.phase < 10
                 else "- phase 10 is the last: the die is lost at the round's end")
        self.screen.line(f"  {q.actor.name} holds the action die ({die}) {later}", "dim")

    def rolled(self, q: Question, total: int, asked: bool) -> None:
        """A hero's roll is made: the total kept from the dice the player typed, and the
        outcome of a roll no event tells (the clothes that did not catch). A roll that cannot
        fail was not asked: the narration tells it."""
        typed, self._roll_text = self._roll_text, ""
        said = purpose_words(q.purpose)
        if not asked:
            return
        parts = []
        if q.drama:
            parts.append(f"{q.actor.name} spends {plural(q.drama, 'Drama Die', 'Drama Dice')}: "
                         f"{q.pool}, {q.actor.drama} left")
            typed = " ".join(w for w in typed.split() if w.lower() != DRAMA_WORD)
        if len(typed.replace(",", " ").split()) > 1 or "+" in typed:
            parts.append(f"{q.actor.name}'s dice keep {total}")
        if q.purpose == CATCH_CLOTHES and q.tn is not None and total >= q.tn and said:
            from fuego.engine.events import END_PHASE, START_PHASE

            at = f"Phase {q.phase}: " if START_PHASE < q.phase < END_PHASE else ""
            parts.append(f"{at}{q.actor.name}'s clothes do not catch: rolled {total} vs TN "
                         f"{q.tn}")  # told as the narration tells a roll
        if parts:
            self.screen.line("  " + "; ".join(parts), "green")

    def rejected(self, q: Question, error: FuegoError) -> None:
        self.screen.line(f"  ! {error.render()}", "bold red")

    def recorded(self, player: Player) -> None:
        self.save(player)

    def finished(self, player: Player) -> None:
        from fuego.render.summary import summarize

        scene = player.scene
        assert scene is not None, "a scene played to its end"
        if self.muted:
            self.muted = False
            self.screen.line(f"(resumed: the scene is already over after round "
                             f"{scene.round})")
        self._flush_narration()
        self._warnings()
        self.screen.line("")
        self.screen.lines(summarize(scene, player.outcome))
        self.save(player)
        q = Question(QuestionKind.END, scene, scene.round)
        while True:
            try:
                text = literal(self._read("The scene is over: Enter to finish (or undo, "
                                          "undo round, map, status)"))
            except Quit:
                return
            low = text.strip().lower()
            if not low or low in FINISH_WORDS:
                return
            if self._meta(q, text) is None:
                self.screen.line("  ! the scene is over: undo, map, status, save or Enter",
                                 "bold red")

    # -- saving ----------------------------------------------------------------------------------
    def save(self, player: Player | None = None) -> bool:
        player = player or self.player
        scene = player.scene if player is not None else None
        session = player.session if player is not None else None
        if session is None:
            return False
        live = player is not None and scene is not None and not player.replaying
        state = scene.snapshot() if live and scene is not None else None
        position = player.position() if live and player is not None else {}
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
        assert self.player is not None, "a replay has a player"
        msg, self.player.rewind_message = self.player.rewind_message, None
        if msg:
            self.screen.line(msg, "yellow")
        if self._backing:  # back from a roll: the same moment, so only the choices again
            self._backing = False
            return
        where = f"before round {q.round}" if q.kind is QuestionKind.ROUND else when(scene)
        same_round, self._undo_round = self._undo_round == q.round, None
        if same_round and q.kind is not QuestionKind.ROUND:  # one answer back in this round: its question
            self.screen.line(f"-- back at {where} --", "yellow")
            return
        n = len(self.player.inputs)
        self.screen.line(f"-- back {'at ' if not where.startswith('before') else ''}{where} "
                         f"({plural(n, 'answer')} replayed) --", "yellow")
        if q.kind is not QuestionKind.ROUND and scene.round >= 1:
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

    def show_intro(self, scene: Scene) -> None:
        """The scene as it begins: title, the description to read aloud (set apart), the GM's
        briefing and who the heroes are."""
        texts = self.player.session.texts if self.player is not None else None
        title = scene.title or scene.building.title or "the scene"
        self.screen.line("")
        self.screen.rule(title)
        if texts is not None and texts.description.strip():
            self.screen.line("Read aloud:", "bold")
            for para in paragraphs(texts.description):
                self.screen.quoted(para, "  | ", "italic")
        if texts is not None and texts.briefing.strip():
            self.screen.line("GM briefing (not for the players):", "bold")
            for para in paragraphs(texts.briefing):
                if para:
                    self.screen.line("  " + para)
        plans = self.player.session.plans if self.player is not None else None
        for h in scene.heroes:
            about = texts.heroes.get(h.name, "") if texts is not None else ""
            plan = plans.for_hero(h) if plans is not None else None
            stays = (f" (plan: {plan}, the suggested choice)"
                     if plan is not None and plan != FLEE else "")
            self.screen.line(f"  {h.name}{' (NPC)' if h.npc else ''} at "
                             f"{area_label(scene, h.area)}{stays}"
                             + (f": {about}" if about else ""), "dim")

    def show_state(self, scene: Scene, *, before_round: int | None = None,
                   levels: list[int] | None = None) -> None:
        """The round's screen: the plans of the levels where a hero stands or something
        changed (side by side as the width allows; left out when the terminal is too short),
        the heroes' table and what each hero sees."""
        title = scene.title or scene.building.title or "the scene"
        moment = f"before round {before_round}" if before_round is not None else when(scene)
        self.screen.line("")
        self.screen.rule(self._titled(title, f" - {moment}: {fires_words(scene)}"))
        b = scene.building
        if scene.round:
            from fuego.render.changes import round_changes

            happened = round_changes(scene.log, scene.round)
            if happened:
                when_ = "This round" if before_round is None else f"Round {scene.round}"
                self.screen.line(f"{when_}: {happened.words(b)}", "bold")
        if levels is None:
            levels = self._levels_to_draw(scene, before_round)
        header, rows, styles = hero_rows(scene, self.screen.width)
        sights = sight_lines(scene)
        rest = 2 + len(rows) + sum(len(self.screen.wrap(t)) for t, _ in sights) + 3
        shown, drawn, rooms, key = self._plans_that_fit(scene, levels, rest)
        left_out = [b.levels[lv].name for lv in levels if lv not in shown]
        unchanged = [lv.name for lv in b.levels if lv.index not in levels]
        if not shown and levels:
            names = ", ".join(b.levels[lv].name for lv in levels)
            self.screen.line(f"(the plans of {names} do not fit this terminal: map, or "
                             f"map LEVEL)", "dim")
        else:
            for line in drawn:
                self.screen.drawn(line)
            self.screen.line(rooms, "dim")
            self.screen.line(key, "dim")
            notes = ([f"no room on this terminal: {', '.join(left_out)}"] if left_out else []) \
                + ([f"nothing changed: {', '.join(unchanged)}"] if unchanged else [])
            if notes:
                self.screen.line(f"(not drawn, {'; '.join(notes)} - map LEVEL)", "dim")
        self.screen.table("", header, rows, styles, flex=1)
        for text, style in sights:
            self.screen.line(text, style)

    def _titled(self, title: str, said: str) -> str:
        """The round screen's rule: the scene's title cut short on a narrow terminal so that
        the moment and the fires (``said``) stay whole."""
        room = (self.screen.width or 0) - 6 - cells(said)  # the rule's ends and spaces
        return (cut(title, room) if 12 <= room < cells(title) else title) + said

    def _levels_to_draw(self, scene: Scene, before_round: int | None = None) -> list[int]:
        """The levels where a hero stands or something changed since the last round's screen
        (the first: where something burns), top down. A round's screen keeps what it drew,
        and forgets the screens after it (an undo went back before them)."""
        b = scene.building
        levels = hero_levels(scene)
        now = before_round if before_round is not None else scene.round + 1
        earlier = [r for r in self._levels_seen if r < now]
        seen = self._levels_seen[max(earlier)] if earlier else {}
        states = {lv.index: level_state(scene, lv.index) for lv in b.levels}
        for lv, state in states.items():
            before = seen.get(lv)
            changed = before != state if before is not None else bool(state[0])
            if changed and lv not in levels:
                levels.append(lv)
        if before_round is not None:
            for r in [r for r in self._levels_seen if r >= before_round]:
                del self._levels_seen[r]
            self._levels_seen[before_round] = states
        return sorted(set(levels), key=lambda lv: -b.levels[lv].elevation)

    def _plans_that_fit(self, scene: Scene, levels: list[int], rest: int
                        ) -> tuple[list[int], list, str, str]:
        """The levels whose plans fit the terminal's height over ``rest`` lines, with their
        drawing, rooms line and key: all of them, else as many as fit, those where the most
        heroes stand (then the most fires) first, so a short terminal still shows where the
        heroes are."""
        b = scene.building
        height = self.screen.height

        def drawing(chosen: list[int]) -> tuple[int, list, str, str]:
            marks: set[str] = set()
            ordered = sorted(chosen, key=lambda lv: -b.levels[lv].elevation)
            drawn = side_by_side([self._plan_block(scene, lv, marks) for lv in ordered],
                                 self.screen.width)
            rooms, key = self._rooms_line(scene, ordered), plan_key(marks)
            lines = len(drawn) + len(self.screen.wrap(rooms)) + len(self.screen.wrap(key))
            return lines, drawn, rooms, key

        lines, drawn, rooms, key = drawing(levels)
        if not height or 2 + lines + rest <= height:
            return levels, drawn, rooms, key
        people = {lv: sum(1 for h in scene.heroes if h.present and b.areas[h.area].level == lv)
                  for lv in levels}
        burning = {lv: sum(1 for i in scene.fires if b.areas[i].level == lv) for lv in levels}
        chosen: list[int] = []
        best: tuple[list, str, str] = ([], "", "")
        for lv in sorted(levels, key=lambda lv: (-people[lv], -burning[lv])):
            lines, drawn, rooms, key = drawing(chosen + [lv])
            if 3 + lines + rest <= height:  # and the line that says what was left out
                chosen.append(lv)
                best = (drawn, rooms, key)
        return sorted(chosen, key=lambda lv: -b.levels[lv].elevation), *best

    def _plan_block(self, scene: Scene, level: int,
                    marks: set[str] | None = None) -> tuple[str, list]:
        lv = scene.building.levels[level]
        symbols = self.player.session.symbols if self.player is not None else None
        body = list(plan(scene, level, color=self.color, legend=False, symbols=symbols,
                         marks=marks))
        return f"{lv.name} (level {lv.elevation})", body

    def _rooms_line(self, scene: Scene, levels: list[int]) -> str:
        from fuego.render.terminal import room_symbols

        b = scene.building
        symbols = self.player.session.symbols if self.player is not None else None
        syms = room_symbols(b, symbols)
        parts = []
        for lv in levels:
            rooms = [f"{syms[k]} {r.name}" for k, r in b.rooms.items() if r.level == lv]
            parts.append(f"{b.levels[lv].name}: " + ", ".join(rooms))
        return "rooms - " + "; ".join(parts)

    def show_plan(self, scene: Scene, level: int, *, legend: bool = False) -> None:
        """A level's plan; without the full legend, a one-line key of its rooms follows."""
        title, body = self._plan_block(scene, level)
        if legend:
            symbols = self.player.session.symbols if self.player is not None else None
            body = list(plan(scene, level, color=self.color, legend=True, symbols=symbols))
        self.screen.block(title, body)
        if not legend:
            self.screen.line(self._rooms_line(scene, [level]), "dim")

    def show_heroes(self, scene: Scene) -> None:
        header, rows, styles = hero_rows(scene, self.screen.width)
        self.screen.table("Heroes", header, rows, styles, flex=1)

    def show_status(self, scene: Scene, moment: str | None = None) -> None:
        self.screen.line("")
        self.screen.rule(f"Status - {moment or when(scene)}")
        self.show_heroes(scene)
        header, rows = fire_rows(scene)
        if rows:
            self.screen.table("Fires", header, rows, flex=1)
        else:
            self.screen.line("No fire burns.")
        for text, style in sight_lines(scene):
            self.screen.line(text, style)

    def _show_choices(self, q: Question) -> None:
        scene, hero = q.scene, q.actor
        kinds = []
        for act in q.choices:
            word = _KIND_WORDS.get(act.kind, act.kind.value)
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
        # a raise only where a choice rolls, shown on that choice's own words
        rolls = [a for a in q.choices if action_roll(scene, hero, a) is not None]
        rolling = next((a for a in rolls if a.kind is not HeroActionKind.MOVE),
                       rolls[0] if rolls else None)  # a smother or a spot before a step
        raising = (f"; {rolling.text(scene)} raise 1: call a raise (+{raise_bonus(1)} TN)"
                   if rolling is not None else "")
        self.screen.line(f"      hold: keep the die for later{raising}; help", "dim")

    def _action_prompt(self, q: Question) -> str:
        if q.default is not None and q.default in q.choices:
            n = q.choices.index(q.default) + 1
            return f"  {q.actor.name} [{n}: {q.default.text(q.scene)}]"
        return f"  {q.actor.name}"

    # -- commands at every prompt ----------------------------------------------------------------
    def _meta(self, q: Question, text: str) -> Command | None:
        """Handle help/map/status/undo/save/quit: the command ``text`` was, done, or None."""
        words = text.split()
        command = command_word(words[0]) if words else None
        if command is None or command is Command.GO:  # go is the round prompt's (answer)
            return None
        if command is Command.QUIT:
            raise Quit()
        self._commands[command](q, words[1:])
        return command

    @property
    def _commands(self) -> dict[Command, Callable[[Question, list[str]], None]]:
        return {
            Command.HELP: lambda q, args: self._help(q),
            Command.MAP: lambda q, args: self._map(q.scene, args),
            Command.STATUS: lambda q, args: self.show_status(
                q.scene, f"before round {q.round}" if q.kind is QuestionKind.ROUND else None),
            Command.LOOK: lambda q, args: self._look(q.scene, " ".join(args)),
            Command.BRIEFING: lambda q, args: self.show_intro(q.scene),
            Command.BACK: lambda q, args: self._back(q),
            Command.SAVE: lambda q, args: self._save_now(),
            Command.UNDO: self._undo,
        }

    def _save_now(self) -> None:
        if self.save():
            self.screen.line(f"  saved to {self.save_path}", "green")

    def _undo(self, q: Question, args: list[str]) -> None:
        """``undo``: take back the last answer the GM gave (the rounds the table then played
        by itself go with it); ``undo round``: back to the start of the last round begun."""
        assert self.player is not None, "undo while a session plays"
        if args and " ".join(args).lower() not in UNDO_ROUND:
            self.screen.line("  ! undo takes back the last answer; undo round, the whole round",
                             "bold red")
            return
        whole = bool(args)
        inputs = self.player.inputs
        keep = self.player.undo_point() if whole else self.player.answer_point()
        if keep is None:
            self.screen.line("  nothing to undo: no answer given yet", "yellow")
            return
        dropped = len(inputs) - keep
        count = plural(dropped, "answer")
        if whole:
            nxt = inputs[keep] if keep < len(inputs) else None
            rnd = nxt["round"] if nxt and nxt.get("q") == QuestionKind.ROUND.value else 1
            raise Rewind(keep, f"undone: back to the start of round {rnd} ({count} dropped)")
        self._undo_round = q.round
        played = sum(1 for e in inputs[keep + 1:] if "by" in e)
        also = f", and {plural(played, 'round')} played on after it" if played else ""
        raise Rewind(keep, f"undone: {undone_words(inputs[keep])}{also} ({count} dropped)")

    def _room_named(self, scene: Scene, what: str) -> str | None:
        """The room ``what`` names: its key, its name (any case, "the" or not, or its start
        when only one room has it), its letter on the plans or an area in it; else None."""
        from fuego.render.terminal import room_symbols

        b = scene.building
        low = what.strip().lower()
        syms = room_symbols(b, self.player.session.symbols if self.player else None)
        key = None
        for k, r in b.rooms.items():
            if low in (k.lower(), r.name.lower()) or what.strip() == syms[k]:
                key = k
        i = b.find(what.strip()) if key is None else None
        if i is not None:
            key = b.areas[i].room
        if key is None:
            hits = [k for k, r in b.rooms.items() if r.name.lower().startswith(low)
                    or r.name.lower().removeprefix("the ").startswith(low)]
            key = hits[0] if len(hits) == 1 else None
        return key

    def _look(self, scene: Scene, what: str) -> None:
        """A room's description, what burns in it and who stands in it."""
        from fuego.render.terminal import room_symbols

        b = scene.building
        texts = self.player.session.texts if self.player is not None else None
        syms = room_symbols(b, self.player.session.symbols if self.player else None)
        if not what.strip():
            rooms = ", ".join(r.name for r in b.rooms.values())
            self.screen.line(f"  ! look ROOM: which room? (its name, its key or an area in it; "
                             f"rooms: {rooms})", "bold red")
            return
        key = self._room_named(scene, what)
        if key is None:
            import difflib

            names = [r.name for r in b.rooms.values()]
            near = difflib.get_close_matches(what, names + list(b.rooms), n=1, cutoff=0.5)
            self.screen.line(f"  ! look ROOM: no room {what!r}"
                             + (f"; did you mean {near[0]!r}?" if near else "")
                             + " (a room's name, its key or an area in it)", "bold red")
            return
        room = b.rooms[key]
        areas = b.room_areas(key)
        sym = syms[key]
        fuel = sum(b.areas[i].fuel for i in areas)
        self.screen.line(f"  {room.name} ({key}, {sym} on the {b.levels[room.level].name} plan): "
                         f"{plural(len(areas), 'area')}, fuel {fuel}"
                         + (", outdoors" if room.outdoors else ""), "bold")
        about = texts.rooms.get(key, "") if texts is not None else ""
        self.screen.line("  | " + (about.strip() or "(the scenario does not describe it)"),
                         "italic")
        fires = [fire_label(scene, i) for i in areas if i in scene.fires]
        fires += [w for x, w in zip(scene.also_burning(), also_burning(scene))
                  if x.area in areas]
        people = [f"{h.name} ({scene.area_name(h.area)})" for h in scene.heroes
                  if h.present and h.area in areas]
        self.screen.line("  fires: " + (", ".join(fires) or "none") + "; here: "
                         + (", ".join(people) or "nobody"))
        for i in areas:  # for the GM: who sees each fire, and why the others do not
            if i in scene.fires:
                self.screen.line("  [GM only] " + watchers_line(scene, i), "italic magenta")

    def _action_behind(self, q: Question) -> int | None:
        """Where the saved answers hold the action whose roll ``q`` is (this round and phase),
        or None: a roll no action made (a wound check after the GM's wounds, the end of the
        round's burns) has no choices to go back to."""
        inputs = self.player.inputs if self.player is not None else []
        k = len(inputs) - 1
        while k >= 0 and inputs[k].get("q") == QuestionKind.ROLL.value:
            k -= 1  # the rolls since the action (and overrides typed at their prompts)
        e = inputs[k] if k >= 0 else {}
        if q.kind is not QuestionKind.ROLL or e.get("q") != QuestionKind.ACTION.value or \
                "gm" in e or e.get("round") != q.round or e.get("phase") != q.phase:
            return None  # an override typed at a hero's prompt made this roll, or no action
        return k

    def _back(self, q: Question) -> None:
        """At a roll an action makes: back to the hero's choices (its action answer and what
        followed it are dropped and replayed up to it; the round stays)."""
        k = self._action_behind(q)
        if k is None:
            self.screen.line("  ! back goes from a roll to the choices of the action that "
                             "made it; undo takes back the last answer, undo round the round",
                             "bold red")
            return
        assert self.player is not None, "an action behind a roll is a saved answer"
        e = self.player.inputs[k]
        self._backing = True
        raise Rewind(k, f"  back to {e.get('hero')}'s choices (round {q.round}, phase "
                        f"{q.phase})")

    def _help(self, q: Question) -> None:
        self.screen.line("  At every prompt:", "bold")
        self.screen.lines("    " + line for line in META_HELP.splitlines())
        self.screen.line("  GM overrides (recorded in the session, undone by undo):", "bold")
        self.screen.lines("    " + line for line in OVERRIDE_HELP.splitlines())
        self.screen.line("    (gm ... forces an override where a hero's action has the same words)")
        if q.kind is QuestionKind.ACTION:
            self.screen.line("  Here: a number from the list, the action's words (move ground:C4, "
                             "open ground:C5, smother ground:D2, spot ground:E2, put-out-clothes "
                             "[Name], wait; add 'raise N' to call raises on its roll), hold, or "
                             "Enter for the starred choice.", "bold")
        elif q.kind is QuestionKind.ROLL:
            self.screen.line("  Here: the player's total (17) or dice as rolled (3 7 9 10+4 2: "
                             "fuego keeps the highest), Enter and fuego rolls, or back.", "bold")
        elif q.kind is QuestionKind.DICE:
            self.screen.line("  Here: the player's action dice (3 6 9), or Enter for fuego's.",
                             "bold")
        elif q.kind is QuestionKind.ROUND:
            self.screen.line("  Here: Enter plays the round.", "bold")

    def _map(self, scene: Scene, args: list[str]) -> None:
        b = scene.building
        if not args:
            levels = hero_levels(scene)
        elif args[0].lower() == ALL_LEVELS:
            levels = sorted(range(len(b.levels)), key=lambda lv: -b.levels[lv].elevation)
        else:
            # by name in any case, or by the number the plans' titles give (ground (level 0))
            want = args[0].lower()
            named = [lv.index for lv in b.levels
                     if lv.name.lower() == want or str(lv.elevation) == want]
            if len(named) != 1:
                names = ", ".join(f"{lv.name} ({lv.elevation})" for lv in b.levels)
                self.screen.line(f"  ! no level {args[0]!r} (levels: {names}, or all)", "bold red")
                return
            levels = named
        for lv in levels:
            self.show_plan(scene, lv, legend=True)

    # -- input -------------------------------------------------------------------------------------
    def _prompt(self, text: str) -> str:
        """One line from the GM. On a terminal ``input`` (line editing; Ctrl-C stops play
        with status 130 after saving); over a pipe the line is read and echoed, so a transcript
        reads like the terminal did."""
        text = literal(text)
        if isatty(sys.stdin):
            click.echo(text + ":", nl=False)  # as click.prompt does: readline gets " " only
            try:
                return input(" ")
            except KeyboardInterrupt:
                raise Interrupted() from None
            except EOFError:
                click.echo("")
                raise Quit() from None
        click.echo(text + ": ", nl=False)
        raw = getattr(sys.stdin, "buffer", None)  # bytes: what is not UTF-8 becomes U+FFFD
        line = raw.readline().decode("utf-8", "replace") if raw is not None else \
            sys.stdin.readline()
        if not line:  # end of input
            click.echo("")
            raise Quit()
        answer = line.rstrip("\r\n")
        click.echo(literal(answer))
        return answer
