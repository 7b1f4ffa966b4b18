"""The table's own commands, the words a GM may type at any prompt besides an answer (help,
map, undo, save...): one list for the prompts that act on them (``fuego.cli.gm_prompts``) and
for the "did you mean" of a mistyped word (``fuego.table.replay``)."""

from __future__ import annotations

from enum import Enum


class Command(str, Enum):
    """The table's own commands at every prompt (``fuego.cli.gm_prompts.META_HELP``), by their
    first word."""

    HELP = "help"
    MAP = "map"
    STATUS = "status"
    LOOK = "look"
    BRIEFING = "briefing"
    BACK = "back"
    GO = "go"
    UNDO = "undo"
    SAVE = "save"
    QUIT = "quit"


#: The first words the GM may type for each command.
COMMAND_WORDS = {c.value: c for c in Command} | {"?": Command.HELP, "exit": Command.QUIT}


def command_word(word: str) -> Command | None:
    """The command ``word`` names (any case), or None."""
    return COMMAND_WORDS.get(word.lower())
