"""``fuego play``: run a scene at the table, round by round, with prompts, save, resume and undo.

The GM answers for the heroes (their actions, the totals the players roll) and may override the
fire at any prompt; fuego plays the fire, narrates and saves the session after every answer.
The session file holds the scenario's text, the seed and every answer
(:mod:`fuego.table.session`), so ``fuego play --resume SAVE`` rebuilds the scene and replays
them to exactly where it stopped, with the same random stream. The prompting lives in
:mod:`fuego.cli.gm_prompts`; the engine never prompts.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from fuego.cli import SEED
from fuego.cli.gm_screen import isatty
from fuego.cli.screen import screen_address

if TYPE_CHECKING:
    from fuego.cli.gm_prompts import GMPrompts
    from fuego.table.replay import Player
    from fuego.table.session import Session

#: Random seeds are drawn below this (short enough to type back in).
SEED_RANGE = 1_000_000
SESSION_SUFFIX = ".session.json"
#: Beside a save while a game holds it (fuego.files.FileLock).
LOCK_SUFFIX = ".lock"


def draw_seed() -> int:
    """A fresh seed from the operating system's randomness (never the scene's roller)."""
    import random

    return random.SystemRandom().randrange(1, SEED_RANGE)


def default_session_path(scenario: str) -> str:
    """``tavern.session.json`` in the current folder, or ``tavern-2.session.json`` ... when
    that is taken (a new session never overwrites an old one)."""
    stem = os.path.splitext(os.path.basename(scenario))[0] or "scene"
    path = stem + SESSION_SUFFIX
    n = 2
    while os.path.exists(path) or os.path.exists(path + ".bak"):
        path = f"{stem}-{n}{SESSION_SUFFIX}"
        n += 1
    return path


@click.command("play")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=str))
@click.option("--seed", type=SEED, default=None,
              help="Seed of the scene's dice (default: drawn at random and saved).")
@click.option("--session", "session_path", type=click.Path(dir_okay=False, path_type=str),
              default=None, metavar="SAVE",
              help="Save the session here (default: FILE's name + .session.json in the "
                   "current folder). It must not exist yet.")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=str),
              default=None, metavar="SAVE", help="Continue a saved session where it stopped.")
@click.option("--plain", is_flag=True, help="No colours or boxes, even on a terminal.")
@click.option("--verbose", "-v", is_flag=True,
              help="Narrate everything: action dice, failed fire rolls, fuel checks.")
@click.option("--action-dice", type=click.Choice(["fuego", "players"]), default=None,
              help="Who rolls the heroes' action dice each round: fuego (the default) or the "
                   "players (asked at the round's start; Enter takes fuego's roll). Saved.")
@click.option("--screen", "screen_at", is_flag=False, flag_value="", default=None,
              metavar="[HOST:PORT]", callback=screen_address,
              help="Also serve the players' screen (a live map in a browser; prints its "
                   "address). Default 127.0.0.1 on a free port; 0.0.0.0:8000 for the local "
                   "network.")
def play(file: str | None, seed: int | None, session_path: str | None, resume_path: str | None,
         plain: bool, verbose: bool, action_dice: str | None, screen_at: str | None) -> None:
    """Run the scenario FILE at the table: fuego plays the fire, you play the heroes.

    \b
    Each round fuego shows the floor plans, the heroes and what they can see
    (hidden fires marked for the GM), then asks for every hero's action (a
    number, the action's words, + raise N, or Enter for the suggested one;
    each choice that rolls shows its chance) and for every roll a hero makes
    (the player's total, the dice as rolled such as 3 7 9 10+4 2, drama to
    spend a Drama Die, back to the choices, or Enter and fuego rolls),
    narrating as the fire acts. At any prompt: help, map [LEVEL], status,
    look ROOM, briefing, undo (the last answer), undo round, save, quit, and
    the GM overrides: fire AREA FD, fd AREA N, open|close|break AREA AREA,
    move HERO AREA, wound HERO N [fw|dw], burn HERO FD jet|magic|object|oil,
    explode AREA FD [RADIUS], blast AREA [DICE], add NAME AREA [npc],
    remove HERO, end.

    \b
    The session is saved after every answer (SAVE, and SAVE.bak the one
    before); if anything stops it, continue with fuego play --resume SAVE.

    \b
    Examples:
      fuego play campaigns/tavern.yaml --seed 7
      fuego play campaigns/tavern.yaml --session friday.json
      fuego play --resume friday.json
      fuego play campaigns/tavern.yaml --screen
    """
    from fuego.table import replay
    from fuego.table import session as sessions

    if resume_path is not None:
        if file is not None or seed is not None or session_path is not None or action_dice:
            raise click.UsageError("--resume SAVE goes alone: the scenario, seed and save file "
                                   "are in SAVE")
        session, save_path, header = _resumed(resume_path)
    else:
        file = _scenario_to_play(file, session_path)
        session, save_path, header = _new_session(file, seed, session_path, action_dice)
    table = _gm_table(plain, save_path, verbose, header)
    live: replay.Live = table
    attach: Callable[..., None] = table.attach
    if screen_at is not None:  # the players' screen: fed at every question (fuego.web.feed)
        from fuego.cli.screen import start_for_play

        # started before a new session is first saved: a port already taken stops here, with
        # nothing saved, so the same command can simply be typed again
        feed, stop_screen = start_for_play(screen_at, save_path, table.screen.line)
        click.get_current_context().call_on_close(stop_screen)  # on quit, Ctrl-C, errors too
        live, attach = feed.wrap(table), feed.after(table.attach)
    if resume_path is None:
        sessions.save(session, save_path)
    _play_session(replay.Player(session, live, attach=attach), table, save_path)


def _resumed(save_path: str) -> tuple[Session, str, list[str]]:
    """A saved session held for this game and loaded (or its backup): the session, its save
    and the header that says what resumes."""
    from fuego.table import session as sessions

    # a missing save, or a file that is none (a scenario), is load's message, with no lock file
    # left beside it; a damaged save is held all the same (its .bak may be resumed)
    if os.path.lexists(save_path) and (sessions.is_session(save_path)
                                       or os.path.lexists(sessions.backup_path(save_path))):
        hold(save_path)
    sessions.clean_stale(save_path)  # after the lock: another game's temporary file is live
    session = _load_or_backup(save_path)
    header = [f"fuego play: resuming {save_path} ({len(session.inputs)} answers, seed "
              f"{session.seed})"]
    note = _scenario_note(session)
    if note:
        header.append(note)
    return session, save_path, header


def _scenario_to_play(file: str | None, session_path: str | None) -> str:
    """The scenario FILE of a new game; a UsageError when there is none, or when it names a
    saved session (``fuego play SAVE``, or ``--session SAVE`` alone on a save that exists),
    saying how to continue that."""
    from fuego.table.session import is_session

    save = file if file is not None and is_session(file) else None
    if file is None and session_path is not None and os.path.exists(session_path):
        save = session_path
    if save is not None:
        raise click.UsageError(f"{save} is a saved session: continue it with fuego play "
                               f"--resume {save}")
    if file is None:
        raise click.UsageError("give a scenario FILE to play, or --resume SAVE")
    return file


def _new_session(file: str, seed: int | None, session_path: str | None,
                 action_dice: str | None) -> tuple[Session, str, list[str]]:
    """A new session of the scenario FILE (checked first; a seed drawn if none given) on a
    save that does not exist yet, held for this game: the session, its save and the header."""
    from fuego.scenario.model import loads
    from fuego.scenario.source import read_file
    from fuego.table import replay
    from fuego.table import session as sessions

    text, source = read_file(file)
    loads(text, source=source)  # check it now: problems are reported before anything else
    if seed is None:
        seed = draw_seed()
    save_path = session_path or default_session_path(file)
    for locked in (False, True):  # checked again once locked: two new games, one name
        if os.path.exists(save_path):
            raise click.UsageError(f"{save_path} already exists: continue it with fuego "
                                   f"play --resume {save_path}, or give another --session")
        if not locked:
            hold(save_path)
    options = ({replay.ACTION_DICE_OPTION: action_dice}
               if action_dice == replay.ActionDice.PLAYERS else {})
    session = sessions.new(file, seed, text=text, options=options)
    return session, save_path, [f"fuego play: {file} (seed {seed})"]


def _gm_table(plain: bool, save_path: str, verbose: bool, header: list[str]) -> GMPrompts:
    """The GM's screen (the terminal's size, rich unless --plain) and prompts, the header
    shown."""
    from fuego.cli.gm_prompts import GMPrompts
    from fuego.cli.gm_screen import Screen

    # on a terminal its size is read at each screen, so a window resized mid-scene is used
    screen = Screen(rich=False if plain else None,
                    size=shutil.get_terminal_size if isatty(sys.stdout) else None)
    table = GMPrompts(screen, save_path, verbose=verbose)
    for line in header:
        screen.line(line, "bold")
    screen.line(f"Saved after every answer to {save_path}; type help at any prompt.")
    return table


def _play_session(player: Player, table: GMPrompts, save_path: str) -> None:
    """Play the session to its end, a quit or Ctrl-C: saved, with how to resume it (exit 130
    on Ctrl-C, 2 if the last save failed)."""
    from fuego.table import replay

    try:
        player.run()
    except replay.Interrupted:  # Ctrl-C at a prompt: save, then stop as an interrupt does
        table.save(player)
        click.echo("")
        click.echo(_resume_line(save_path, table), err=True)
        sys.exit(130)
    except replay.Quit:
        table.save(player)
        if table.save_error:
            _not_saved(save_path, table)
        click.echo("")
        click.echo(_resume_line(save_path, table))
        return
    except KeyboardInterrupt:  # Ctrl-C away from a prompt: the last answer is already saved
        click.echo("")
        click.echo(_resume_line(save_path, table), err=True)
        sys.exit(130)
    if table.save_error:
        _not_saved(save_path, table)
    click.echo(_resume_line(save_path, table))


def hold(save_path: str) -> None:
    """Lock the session for this game (``SAVE.lock``, an OS lock released when fuego exits
    however it ends): a second ``play`` on the same save stops here, having written nothing."""
    from fuego.files import FileLock

    lock = FileLock(save_path + LOCK_SUFFIX, guards=save_path, what="this session").acquire()
    click.get_current_context().call_on_close(lock.release)


def _not_saved(save_path: str, table) -> None:
    """The last save failed: say so and exit 2 (a game whose answers were not all kept is not
    a success, docs/cli.md)."""
    click.echo("")
    click.echo(_resume_line(save_path, table), err=True)
    sys.exit(2)


def _resume_line(save_path: str, table) -> str:
    """The one line that says where the session is and how to reopen it, however play stopped."""
    if table.save_error:
        return (f"NOT saved: {table.save_error}; the last good save is {save_path}: "
                f"fuego play --resume {save_path}")
    return f"Session saved to {save_path} (fuego play --resume {save_path} reopens it)."


def _load_or_backup(path: str):
    """The saved session; when it is damaged and a terminal is at hand, offer the backup."""
    from fuego.errors import SaveError
    from fuego.table import session as sessions

    try:
        return sessions.load(path)
    except SaveError as exc:
        bak = sessions.backup_path(path)
        if not (isatty(sys.stdin) and isatty(sys.stdout) and os.path.exists(bak)):
            raise
        try:
            backup = sessions.load(bak)
        except SaveError:
            raise exc from None
        click.echo(f"fuego: {exc.render()}", err=True)
        if not click.confirm(f"Resume the previous good save {bak} instead "
                             f"({len(backup.inputs)} answers)?", default=True):
            raise
        backup.path = path  # saves go to PATH again; the damaged file never replaces the .bak
        return backup


def _scenario_note(session) -> str | None:
    path = session.scenario_path
    if not path or not os.path.exists(path):
        return None
    from fuego.errors import FuegoError
    from fuego.files import read_text
    from fuego.scenario.limits import MAX_FILE_BYTES

    try:  # through the one reader: a FIFO or /dev/zero at that path must not hang a resume
        now = read_text(path, limit=MAX_FILE_BYTES, what="a scenario")
    except FuegoError:
        return None
    if now.lstrip("\ufeff") == session.scenario_text:
        return None
    return (f"note: {path} has changed since this session began; fuego plays the copy saved in "
            f"the session")


