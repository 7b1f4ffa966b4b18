"""``fuego screen SAVE`` and ``fuego play FILE --screen``: the players' screen in a browser.

``fuego play --screen [HOST:PORT]`` starts the server beside the GM's prompts
(:func:`start_for_play`); ``fuego screen SAVE`` serves a saved session read-only, with its
rounds to step through, and follows the file while a game goes on elsewhere. Both print the
address to open, with its access token. The server itself is :mod:`fuego.web.server`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from fuego.web.feed import ScreenFeed
    from fuego.web.server import ScreenServer

#: Beside a save: the screen's token and port, so a resumed game keeps the players' address.
SCREEN_SUFFIX = ".screen"


#: A token file holds a token and a port: a few dozen bytes (read at most this many).
SCREEN_FILE_LIMIT = 4096
#: What a token fuego made looks like (secrets.token_urlsafe(16): 22 URL-safe characters).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,86}")


def _remembered(save_path: str, echo: Callable[[str], None]) -> tuple[dict, bool]:
    """The token and port kept beside ``save_path``, and whether fuego may write that file.

    Read through :func:`fuego.files.read_bytes` (a regular file, bounded). A file fuego did not
    write (a link, a FIFO, a device, another user's, anything but fuego's JSON) is neither
    trusted nor replaced; a token others could read, or one fuego would not have made, is
    refused and replaced by a fresh one. Each case is said in one line."""
    from fuego.errors import FuegoError
    from fuego.files import kind, read_bytes

    path = save_path + SCREEN_SUFFIX
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {}, True
    except OSError as exc:
        echo(f"note: cannot read {path} ({exc.strerror}); the players get a fresh address")
        return {}, False
    not_ours = (f"note: {path} is not fuego's token file; it is left alone, the players get a "
                "fresh address and it is not kept for --resume")
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else kind(st.st_mode)
        echo(not_ours.replace("is not fuego's token file", f"is {what}, not fuego's token file"))
        return {}, False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        echo(not_ours.replace("is not fuego's", "belongs to another user, not"))
        return {}, False
    try:
        data = json.loads(read_bytes(path, limit=SCREEN_FILE_LIMIT, what="a screen token file"))
    except (FuegoError, ValueError, RecursionError):
        data = None
    if not (isinstance(data, dict) and set(data) <= {"fuego", "token", "port"}
            and data.get("fuego", "screen") == "screen"):
        echo(not_ours)
        return {}, False
    port = data.get("port")
    kept: dict[str, Any] = {"port": port} if type(port) is int and 0 < port < 65536 else {}
    token = data.get("token")
    if st.st_mode & 0o077:
        echo(f"note: {path} could be read by other users: its token is refused, the players get "
             "a fresh one (kept readable by you only)")
    elif not (isinstance(token, str) and TOKEN_SHAPE.fullmatch(token)):
        echo(f"note: {path} holds a token fuego did not make (too short or odd): refused, the "
             "players get a fresh one")
    else:
        kept["token"] = token
    return kept, True


def _remember(save_path: str, token: str, port: int, echo: Callable[[str], None]) -> None:
    """Keep the token and port for the next ``--resume``: written atomically through
    :class:`fuego.files.Output`, readable by the GM only (0600)."""
    from fuego.errors import FuegoError
    from fuego.files import Output

    path = save_path + SCREEN_SUFFIX
    try:
        Output(path, what="screen token file", force=True, mode=0o600).check().write(
            json.dumps({"fuego": "screen", "token": token, "port": port}) + "\n")
    except FuegoError as exc:
        echo(f"note: the players' address is not kept for --resume: {exc.render()}")


def screen_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--screen``'s value (click callback): HOST:PORT, not the scenario it swallowed."""
    if value is not None and (value.endswith((".yaml", ".yml", ".json")) or "/" in value):
        raise click.BadParameter(f"it takes HOST:PORT, not {value!r}: put the scenario FILE "
                                 "before --screen (fuego play FILE --screen)", ctx, param)
    return value


def open_server(address: str, hub, *, token: str | None = None, port_hint: int | None = None,
                report: Callable[[str], None] | None = None) -> ScreenServer:
    """A started server on ``address`` (HOST:PORT; empty: 127.0.0.1 on a free port);
    ``report`` takes its one-line messages."""
    from fuego.web.server import ScreenError, ScreenServer, new_token, parse_address

    host, port = parse_address(address)
    token = token or new_token()
    if port == 0 and port_hint:  # the port the players' browsers knew, when it is free
        with contextlib.suppress(ScreenError):
            return ScreenServer(hub, token, host, port_hint, report=report).start()
    return ScreenServer(hub, token, host, port, report=report).start()


def announce(server: ScreenServer, echo: Callable[[str], None]) -> None:
    echo(f"Players' screen: {server.url()}")
    if server.host in ("0.0.0.0", "::"):
        echo("  (on the local network: this computer's address instead of 127.0.0.1)")


def start_for_play(address: str, save_path: str,
                   echo: Callable[[str], None]) -> tuple[ScreenFeed, Callable[[], None]]:
    """The players' screen of a game at the table: its feed, and how to stop it."""
    from fuego.web.feed import ScreenFeed
    from fuego.web.server import Hub

    known, writable = _remembered(save_path, echo)
    hub = Hub()
    server = open_server(address, hub, token=known.get("token"), port_hint=known.get("port"),
                         report=echo)
    if writable:
        _remember(save_path, server.token, server.port, echo)
    announce(server, echo)
    return ScreenFeed(hub), server.stop


@click.command("screen")
@click.argument("save", type=click.Path(dir_okay=False, path_type=str))
@click.option("--bind", "address", default="", metavar="HOST:PORT",
              help="Where to serve (default 127.0.0.1 on a free port; 0.0.0.0:8000 for the "
                   "local network).")
@click.option("--no-follow", is_flag=True, help="Serve the session as it is now; do not follow "
                                                "the file as play goes on.")
def screen(save: str, address: str, no_follow: bool) -> None:
    """Serve the saved session SAVE as the players' screen, read-only.

    \b
    Prints the address to open (with its access token). The page shows
    what the players may know, and steps through the scene round by round
    (earlier, later, latest). While a game goes on in the same file, the
    page follows it. Ctrl-C stops.

    \b
    Examples:
      fuego screen friday.json
      fuego screen friday.json --bind 0.0.0.0:8000
    """
    from fuego.errors import FuegoError
    from fuego.table import session as sessions
    from fuego.web.feed import replay
    from fuego.web.server import Hub

    def load() -> None:
        latest, frames, views = replay(sessions.load(save))
        hub.publish(latest, frames=frames, views=views)

    hub = Hub()
    load()
    server = open_server(address, hub, report=lambda line: click.echo(line, err=True))
    announce(server, click.echo)
    click.echo(f"Serving {save} read-only ({len(hub.frames)} moments to review); Ctrl-C stops.")
    stamp = _stamp(save)
    try:
        while True:
            time.sleep(1.0)
            if no_follow:
                continue
            now = _stamp(save)
            if now != stamp:
                stamp = now
                try:
                    load()
                except FuegoError as exc:  # a save half-written by another fuego: next time
                    click.echo(f"fuego: {exc.render()}", err=True)
    except KeyboardInterrupt:  # the way to stop it; 130 as for every command's Ctrl-C
        server.stop()
        click.echo("")
        click.echo("Players' screen stopped.")
        raise SystemExit(130) from None
    finally:
        server.stop()


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
