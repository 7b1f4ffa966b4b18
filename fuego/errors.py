"""One root for every error fuego reports to a user.

The CLI turns any :class:`FuegoError` into a one-line (or one-per-problem) message and exit
status 2 in a single place (``fuego.cli``); anything else is a real bug and keeps its traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

from fuego.text import terminal


# -- the words of a tip ----------------------------------------------------------------------
def suggest(word: Any, choices: Iterable[Any], *, fold: Callable[[str], str] | None = None
            ) -> str:
    """`` (did you mean 'kitchen'?)`` for the one of ``choices`` nearest ``word``, or ``""``.
    ``fold``: compare the names as that makes them (``fuego.text.fold_name``: in any case),
    and name the choice as written."""
    items = [str(c) for c in choices]
    if fold is None:
        close = difflib.get_close_matches(str(word), items, n=1, cutoff=0.6)
        return f" (did you mean {close[0]!r}?)" if close else ""
    written = {fold(c): c for c in reversed(items)}  # (the first spelling of a name wins)
    close = difflib.get_close_matches(fold(str(word)), list(written), n=1, cutoff=0.6)
    return f" (did you mean {written[close[0]]!r}?)" if close else ""


def one_of(choices: Iterable[Any], limit: int = 12) -> str:
    """``choices`` listed for a message, the first ``limit`` of them (``(none)`` for none)."""
    items = [str(c) for c in choices]
    if len(items) > limit:
        items = items[:limit] + ["..."]
    return ", ".join(items) if items else "(none)"


class FuegoError(Exception):
    """Base of every error a user can cause: bad input, bad files, impossible requests.

    ``where`` names the file, line or key path; ``tip`` suggests a fix. Both are optional.
    """

    def __init__(self, message: str, *, where: str | None = None, tip: str | None = None):
        self.message = message
        self.where = where
        self.tip = tip
        super().__init__(self.render())

    def render(self) -> str:
        """One line for the terminal (a file name or a value quoted from a file cannot drive
        it: :func:`fuego.text.terminal`)."""
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.tip:
            text += f" (tip: {self.tip})"
        return terminal(text)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a forecast worker's error, sent back) as its state, not as a call of its
        # class on ``args``: that call is ``__init__`` again, with the rendered line where a
        # subclass takes other arguments (ScenarioError's problems: split char by char).
        return (_unpickled, (type(self), self.args), self.__dict__)


def _unpickled(cls: type[FuegoError], args: tuple[Any, ...]) -> FuegoError:
    """A :class:`FuegoError` back from pickle, its ``__init__`` not called (pickle then sets
    its attributes: ``FuegoError.__reduce__``)."""
    error = cls.__new__(cls)
    error.args = args
    return error


class DiceError(FuegoError):
    """A dice expression or pool that cannot be rolled."""


class LimitError(FuegoError):
    """A request beyond one of fuego's documented limits (docs/reliability.md)."""


class RuleError(FuegoError):
    """A game action the rules do not allow (e.g. a fire where there is no fuel)."""


class ScenarioError(FuegoError):
    """One or more problems in a scenario file; ``problems`` holds every one found."""

    def __init__(self, problems: list[FuegoError] | list[str], *, where: str | None = None):
        self.problems: list[FuegoError] = [
            p if isinstance(p, FuegoError) else FuegoError(p, where=where) for p in problems
        ]
        super().__init__(
            "; ".join(p.render() for p in self.problems) if self.problems else "invalid scenario",
            where=None,
        )

    def render(self) -> str:  # one problem per line for the CLI
        if not getattr(self, "problems", None):
            return super().render()
        return "\n".join(p.render() for p in self.problems)


class SaveError(FuegoError):
    """A saved session that cannot be written or read back."""


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived (``signum``): the command stops as Ctrl-C stops it, cleaning
    up on the way, and exits with status 128 + ``signum`` (fuego.cli)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by signal {signum}")
        self.signum = signum

    def __reduce__(self) -> tuple:
        # (made again from its signal: the default would pass the message as ``signum``)
        return (type(self), (self.signum,))
