"""The ``fuego`` command line: a click group whose commands load lazily.

Each command lives in its own module under ``fuego.cli`` and is imported only when it runs, so
``fuego --help`` starts without networkx, transitions, matplotlib, icepool or rich. Every
:class:`fuego.errors.FuegoError` becomes a message on standard error and exit status 2 here, in
one place; any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from fuego import __version__
from fuego.errors import FuegoError, Stopped


class _Seed(click.ParamType):
    """A scene's ``--seed``: a whole number from 0 to 2**63-1. (``random.Random`` would take a
    negative one too, as its positive twin: ``--seed -3`` would replay ``--seed 3``.)"""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            n = value if type(value) is int else int(str(value), 10)
        except ValueError:
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if not 0 <= n < 2**63:
            self.fail(f"{n} is out of range: a seed is a whole number from 0 to 2**63-1", param,
                      ctx)
        return n


SEED = _Seed()


class FiniteRange(click.FloatRange):
    """A float option in a range that also refuses ``nan`` and ``inf`` (click's FloatRange lets
    NaN through: every comparison with it is false)."""

    def convert(self, value, param, ctx):
        import math

        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)

#: command name -> (module under fuego.cli, function name, one-line help for ``--help``)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": ("run", "run", "Play a scenario headless with automatic or scripted heroes."),
    "play": ("play", "play", "Run a scene at the table: prompts each round, save, resume, undo."),
    "screen": ("screen", "screen", "Serve a saved session as the players' screen (read-only)."),
    "check": ("check", "check", "Validate scenario files and summarise them."),
    "show": ("show", "show", "Draw a scenario's floor plan in the terminal."),
    "map": ("mapcmd", "map_cmd", "Render a printable encounter map (SVG, PNG or PDF)."),
    "forecast": ("forecast", "forecast", "Monte Carlo forecast of how the fire will go."),
    "import": ("importcmd", "import_cmd", "Turn a Universal VTT map (.dd2vtt/.uvtt) into a scenario."),
    "export": ("export", "export", "Write each level as a Universal VTT map (.dd2vtt) at a round."),
    "new": ("new", "new", "Write a commented scenario template to fill in."),
    "roll": ("roll", "roll", "Roll dice: 7k4, 4k2+5, 5k3! (no ten again), 2d6."),
    "odds": ("odds", "odds", "Exact chance that a roll meets a target number."),
    "fire-stats": ("firestats", "fire_stats", "The fire-as-character table for one or all Fire Dice."),
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is invoked.

    It is also the one place where a :class:`FuegoError` becomes a message and exit status 2,
    for the console script and for click's ``CliRunner`` alike.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        spec = COMMANDS.get(name)
        if spec is None:
            return None
        module_name, attr, _short = spec
        return getattr(importlib.import_module(f"fuego.cli.{module_name}"), attr)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        # An unknown command names the nearest one (`fuego rol` -> roll).
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            import difflib

            near = difflib.get_close_matches(name, list(COMMANDS), n=2, cutoff=0.5)
            hint = f" Did you mean {' or '.join(near)}?" if near else ""
            ctx.fail(f"No such command {name!r}.{hint} (fuego --help lists them)")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The listing uses the table above, so `fuego --help` imports no command module.
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][2]) for name in self.list_commands(ctx)])

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """click's main, with the exit statuses of docs/cli.md wherever the command is: Ctrl-C
        130 (click says "Aborted!" and 1 when it comes outside a command's own handling: while
        it loads, starts or writes), SIGTERM and SIGHUP 128 + the signal
        (:func:`stop_on_signals`)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                sys.exit(130)  # click has closed the ^C line already
            _say("Aborted!")  # end of input at one of click's own prompts
            sys.exit(1)
        except KeyboardInterrupt:
            _say("")
            sys.exit(130)
        except Stopped as exc:
            _say(f"fuego: stopped by signal {exc.signum}")
            sys.exit(128 + exc.signum)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except OSError as exc:
            status = stdout_failed(exc)
            if status is None:
                raise
            sys.exit(status)
        sys.exit(rv if type(rv) is int else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except FuegoError as exc:
            click.echo(f"fuego: error: {exc.render()}", err=True)
            ctx.exit(2)
        except OSError as exc:
            # every file fuego writes reports its own errors (fuego.files): a closed pipe or a
            # full device that gets here is standard output's
            status = stdout_failed(exc)
            if status is None:
                raise
            ctx.exit(status)


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``fuego --version``."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"fuego {__version__}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True,
              callback=_version, help="Show the version and exit.")
def cli() -> None:
    """fuego: fire as a character for a burning building (7th Sea fire rules).

    \b
    Start with:  fuego run campaigns/tavern.yaml --seed 7
    At the table: fuego play campaigns/tavern.yaml
    """


def stdout_failed(exc: OSError) -> int | None:
    """The exit status when ``exc`` came from standard output, else None.

    A closed pipe (``fuego run ... | head``) is the reader's choice: fuego stops quietly with
    status 0. A full or broken standard output (``> /dev/full``) is one line on standard error
    and status 2, like any other error. docs/cli.md, "Output files".
    """
    import errno
    import os

    from fuego.files import FULL

    if exc.errno == errno.EPIPE:
        try:  # further writes, and the flush at exit, go nowhere instead of failing again
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):
            pass
        return 0
    if exc.errno not in FULL | {errno.EIO}:
        return None
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    click.echo(f"fuego: error: cannot write to standard output: {exc.strerror or exc}",
               err=True)
    return 2


def _say(line: str) -> None:
    """A last line on standard error, if anything still reads it (a closed terminal does not)."""
    import contextlib

    with contextlib.suppress(OSError, ValueError):
        click.echo(line, err=True)


def _stop(signum: int, _frame: Any) -> None:
    raise Stopped(signum)


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP (the terminal closed) stop a command the way Ctrl-C does: an
    exception that unwinds it (temporary files removed, workers and servers stopped), then
    exit status 128 + the signal's number (``LazyGroup.invoke``)."""
    import signal

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) in (signal.SIG_DFL, None):
            signal.signal(number, _stop)


#: The thread pools of numpy's BLAS (OpenBLAS, MKL, OpenMP builds): fuego's numpy work is
#: small batches of dice, so a pool beside it only spins after them (a 2-job forecast spent
#: ~4 % more CPU; a CPU-time benchmark reads that spin as fuego's own).
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")


def one_blas_thread() -> None:
    """Run numpy's BLAS on one thread in this process and the ones it starts, unless the
    user set its number (before numpy is imported: the commands import it when they need it)."""
    import os

    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


def main() -> None:
    """Console entry point."""
    one_blas_thread()
    stop_on_signals()
    try:
        cli(prog_name="fuego")
    except BrokenPipeError:  # `fuego run ... | head` is fine
        stdout_failed(BrokenPipeError(32, "Broken pipe"))
        sys.exit(0)
