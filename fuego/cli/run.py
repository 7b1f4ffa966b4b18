"""``fuego run``: play a scenario headless, narrate it round by round, log every event.

The heroes follow the scenario's ``actions`` (a :class:`~fuego.engine.controllers.ScriptedController`,
automatic where the script is silent) or, without any, each hero's ``plan`` (a
:class:`~fuego.engine.plans.PlanController`; without plans the
:class:`~fuego.engine.controllers.AutoController`: every hero flees).
The narration streams as the scene plays (a listener on the scene); ``--log`` writes every event
as one JSON line (``docs/events.md``). Same scenario and seed give byte-identical output and log.
Without ``--seed`` a seed is drawn at random and printed, so any run can be replayed.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

import click

from fuego.cli import SEED
from fuego.scenario.limits import MAX_ROUNDS

if TYPE_CHECKING:
    from fuego.engine.controllers import Controller
    from fuego.engine.events import Event
    from fuego.engine.loop import Outcome
    from fuego.engine.plans import HeroPlans
    from fuego.engine.scene import Scene
    from fuego.render.narrate import Narrator

#: Random seeds are drawn below this (short enough to type back in).
SEED_RANGE = 1_000_000


def draw_seed() -> int:
    """A fresh seed from the operating system's randomness (never the scene's roller)."""
    import random

    return random.SystemRandom().randrange(1, SEED_RANGE)


def choose_controller(actions: dict | None, plans: HeroPlans | None = None) -> Controller:
    """The scenario's scripted ``actions`` where given, else each hero's ``plan`` (flee by
    default: the automatic heroes)."""
    from fuego.engine.controllers import AutoController, ScriptedController
    from fuego.engine.plans import PlanController

    auto = PlanController(plans) if plans is not None else AutoController()
    return ScriptedController(actions, auto) if actions else auto


def play_headless(
    scene: Scene,
    controller: Controller,
    *,
    rounds: int | None = None,
    echo: Callable[[str], None] = click.echo,
    log: IO[str] | None = None,
    verbose: bool = False,
    quiet: bool = False,
    json_events: bool = False,
) -> Outcome:
    """Play ``scene`` to its end (or ``rounds``), streaming narration to ``echo`` and events to
    ``log``; how it ended. Events already in the scene's log (the starting fires) come first."""
    from fuego.engine.loop import run
    from fuego.render.narrate import Narrator

    narrator = Narrator(verbose=verbose, building=scene.building)
    narration = _Narration(narrator, echo, json_events)
    listeners = _listeners(log, None if quiet else narration.show)
    for event in list(scene.log):
        for listener in listeners:
            listener(event)
    scene.listeners.extend(listeners)
    try:
        outcome = run(scene, controller, rounds=rounds)
    finally:
        for listener in listeners:
            scene.listeners.remove(listener)
    if not quiet and not json_events:
        narration.say(narrator.flush_pairs())
    return outcome


class _Narration:
    """The story streamed to ``echo`` as the events come (or the events as JSON lines)."""

    def __init__(self, narrator: Narrator, echo: Callable[[str], None], json_events: bool) -> None:
        from fuego.engine.events import EventKind

        self.narrator, self.echo, self.json_events = narrator, echo, json_events
        self.framing = (EventKind.ROUND_START, EventKind.ROUND_END, EventKind.SCENE_START,
                        EventKind.SCENE_END)
        self.breaks = (EventKind.ROUND_START, EventKind.SCENE_END)

    def say(self, pairs: list[tuple[Event, str]]) -> None:
        """Lines of narration; a round's own lines indented under its "Round N begins/ends"."""
        for event, line in pairs:
            inside = event.round >= 1 and event.kind not in self.framing
            self.echo("  " + line if inside else line)

    def show(self, event: Event) -> None:
        """One event: its JSON line, or its narration (a blank line before each round and the
        scene's end)."""
        if self.json_events:
            self.echo(event.to_json())
            return
        if event.kind in self.breaks:
            self.echo("")
        self.say(self.narrator.feed_pairs(event))


def _listeners(log: IO[str] | None, show: Callable[[Event], None] | None
               ) -> list[Callable[[Event], None]]:
    """What hears each event: the --log file (a JSON line each), then the narration."""
    listeners: list[Callable[[Event], None]] = []
    if log is not None:
        out = log  # (a name the closure keeps, known not to be None)

        def write(event: Event) -> None:
            out.write(event.to_json() + "\n")

        listeners.append(write)
    if show is not None:
        listeners.append(show)
    return listeners


@click.command("run")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--seed", type=SEED, default=None,
              help="Seed of the scene's dice (default: drawn at random and printed).")
@click.option("--rounds", type=click.IntRange(min=1, max=MAX_ROUNDS), default=None,
              help=f"Stop after this many rounds, 1-{MAX_ROUNDS} (default: the scenario's "
                   "max_rounds).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=str),
              default=None, metavar="FILE.jsonl",
              help="Write every event as one JSON line to this file (docs/events.md).")
@click.option("--force", is_flag=True,
              help="Replace the --log file if it exists (never the scenario itself).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@click.option("--verbose", "-v", is_flag=True,
              help="Narrate everything: action dice, failed fire rolls, fuel checks.")
@click.option("--json-events", is_flag=True,
              help="Print the events as JSON lines on standard output instead of the "
                   "narration (the header and the summary go to standard error).")
def run(file: str, seed: int | None, rounds: int | None, log_path: str | None, force: bool,
        quiet: bool, verbose: bool, json_events: bool) -> None:
    """Play the scenario FILE headless with automatic or scripted heroes.

    \b
    Narrates each round as it happens, then sums up: rounds played, what burned,
    flashovers, every hero's wounds and who got out. The same FILE and --seed give
    the same output and the same --log, byte for byte.

    \b
    Examples:
      fuego run campaigns/tavern.yaml --seed 7
      fuego run campaigns/tavern.yaml --seed 7 --rounds 3 --verbose
      fuego run campaigns/tavern.yaml --quiet --log tavern.jsonl
    """
    if quiet and verbose:
        raise click.UsageError("--quiet and --verbose do not go together")
    from fuego.files import Output
    from fuego.render.summary import summarize
    from fuego.scenario.model import load

    target = (Output(log_path, what="event log", force=force, inputs=[file]).check()
              if log_path else None)
    scenario = load(file)
    drawn = seed is None
    if drawn:
        seed = draw_seed()
    scene = scenario.build(seed)
    actions = getattr(scenario, "actions", None) or {}
    controller = choose_controller(actions, getattr(scenario, "plans", None))
    limit = rounds if rounds is not None else scene.settings.max_rounds

    # In --json-events mode standard output carries events only; the rest goes to stderr.
    def info(text: str = "") -> None:
        click.echo(text, err=json_events)

    seed_line = f"seed {seed}" + (f" — rerun with --seed {seed}" if drawn else "")
    if not quiet:
        title = scenario.title or scene.title or file
        info(f"fuego run: {title}")
        info(seed_line)
        scripted = {name.lower() for name in actions}
        who = [f"{h.name} ({'NPC, ' if h.npc else ''}"
               f"{'scripted' if h.name.lower() in scripted else 'automatic'})"
               for h in scene.heroes]
        info("Heroes: " + (", ".join(who) if who else "none") + f"; round limit {limit}")
        if not json_events:
            info("")
    if target is None:
        outcome = play_headless(scene, controller, rounds=limit, verbose=verbose, quiet=quiet,
                                json_events=json_events)
    else:  # the log is written whole or not at all: a previous log stays until it is
        with target.open() as raw:
            log = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
            try:
                outcome = play_headless(scene, controller, rounds=limit, log=log,
                                        verbose=verbose, quiet=quiet, json_events=json_events)
                log.flush()
            finally:
                log.detach()  # the binary file is Output's to sync and rename
    if not quiet:
        info("")
    for line in summarize(scene, outcome):
        info(line)
    if quiet and drawn:
        info(seed_line)
