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
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from fuego.web.feed import ScreenFeed
    from fuego.web.server import ScreenServer

#: Beside a save: the screen's token and port, so a resumed game keeps the players' address.
SCREEN_SUFFIX = ".screen"


def _remembered(save_path: str) -> dict:
    try:
        with open(save_path + SCREEN_SUFFIX, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _remember(save_path: str, token: str, port: int) -> None:
    """Keep the token and port for the next ``--resume`` (readable by the GM only)."""
    path = save_path + SCREEN_SUFFIX
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"token": token, "port": port}, f)


def screen_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--screen``'s value (click callback): HOST:PORT, not the scenario it swallowed."""
    if value is not None and (value.endswith((".yaml", ".yml", ".json")) or "/" in value):
        raise click.BadParameter(f"it takes HOST:PORT, not {value!r}: put the scenario FILE "
                                 "before --screen (fuego play FILE --screen)", ctx, param)
    return value


def open_server(address: str, hub, *, token: str | None = None,
                port_hint: int | None = None) -> ScreenServer:
    """A started server on ``address`` (HOST:PORT; empty: 127.0.0.1 on a free port)."""
    from fuego.web.server import ScreenError, ScreenServer, new_token, parse_address

    host, port = parse_address(address)
    token = token or new_token()
    if port == 0 and port_hint:  # the port the players' browsers knew, when it is free
        with contextlib.suppress(ScreenError):
            return ScreenServer(hub, token, host, port_hint).start()
    return ScreenServer(hub, token, host, port).start()


def announce(server: ScreenServer, echo: Callable[[str], None]) -> None:
    echo(f"Players' screen: {server.url()}")
    if server.host in ("0.0.0.0", "::"):
        echo("  (on the local network: this computer's address instead of 127.0.0.1)")


def start_for_play(address: str, save_path: str,
                   echo: Callable[[str], None]) -> tuple[ScreenFeed, Callable[[], None]]:
    """The players' screen of a game at the table: its feed, and how to stop it."""
    from fuego.web.feed import ScreenFeed
    from fuego.web.server import Hub

    known = _remembered(save_path)
    token = known.get("token") if isinstance(known.get("token"), str) else None
    hint = known.get("port") if isinstance(known.get("port"), int) else None
    hub = Hub()
    server = open_server(address, hub, token=token, port_hint=hint)
    _remember(save_path, server.token, server.port)
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
    server = open_server(address, hub)
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
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    click.echo("Players' screen stopped.")


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
