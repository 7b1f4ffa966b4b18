"""The players' screen's commands (CliRunner): ``fuego screen`` and ``fuego play --screen``'s
option, and what they say when they cannot start."""

from __future__ import annotations

import json
import os
from typing import Any

from click.testing import CliRunner
from test_session import SHOP

from fuego.cli import cli
from fuego.web.server import ScreenServer


def run(args, answers=(), **kw):
    return CliRunner().invoke(cli, args, input="".join(a + "\n" for a in answers), **kw)


def test_help_lists_the_command_and_the_option():
    assert "screen" in run(["--help"]).output
    out = run(["screen", "--help"]).output
    assert "read-only" in out and "--bind HOST:PORT" in out
    out = run(["play", "--help"]).output
    assert "--screen [HOST:PORT]" in out and "players' screen" in out


def test_play_screen_prints_the_address_and_stops_with_the_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    stopped = []
    real_stop = ScreenServer.stop

    def stop(self, wait=5.0):
        stopped.append(self.port)
        real_stop(self, wait)

    monkeypatch.setattr(ScreenServer, "stop", stop)
    r = run(["play", "shop.yaml", "--seed", "3", "--session", "s.json", "--screen"], [""])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("Players' screen: "))
    assert line.startswith("Players' screen: http://127.0.0.1:") and "/?token=" in line
    assert stopped  # the server went down with the table
    remembered = json.loads((tmp_path / "s.json.screen").read_text())
    assert remembered["token"] in line and f":{remembered['port']}/" in line
    assert os.stat(tmp_path / "s.json.screen").st_mode & 0o077 == 0  # the GM's only


def test_screen_option_wants_an_address(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    r = run(["play", "--seed", "3", "--screen", "shop.yaml"])
    assert r.exit_code == 2 and "put the scenario FILE before --screen" in r.output
    r = run(["play", "shop.yaml", "--seed", "3", "--session", "a.json", "--screen", "host:port"])
    assert r.exit_code == 2 and "'host:port' is not an address to serve on" in r.output


def test_a_port_already_taken_stops_play_before_anything_is_saved(tmp_path, monkeypatch):
    import socket

    monkeypatch.chdir(tmp_path)
    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = run(["play", "shop.yaml", "--seed", "3", "--session", "s.json",
                 "--screen", f"127.0.0.1:{port}"], [""])
    assert r.exit_code == 2, r.output
    # nothing saved: the same command works again once the port is free
    assert not (tmp_path / "s.json").exists() and not (tmp_path / "s.json.screen").exists()


def test_screen_of_a_missing_save_says_so(tmp_path):
    r = run(["screen", str(tmp_path / "nope.json")])
    assert r.exit_code == 2 and "no saved session here" in r.output


def test_the_screen_leaves_the_table_its_own_hooks():
    """The players' screen wraps the table: whatever else the table offers the session (told
    a roll's total, say) still reaches it."""
    from fuego.errors import FuegoError
    from fuego.table.replay import Player, Question, Quit
    from fuego.web.feed import ScreenFeed
    from fuego.web.server import Hub

    class Table:  # a Live table, and its own hook
        def answer(self, q: Question) -> str:
            raise Quit()

        def rejected(self, q: Question, error: FuegoError) -> None:
            pass

        def recorded(self, player: Player) -> None:
            pass

        def finished(self, player: Player) -> None:
            pass

        def rolled(self, q: Question | None, total: int, asked: bool) -> tuple[str, int, bool]:
            return ("rolled", total, asked)

    # Any: the table's own hooks are found at run time, beyond the Live protocol
    live: Any = ScreenFeed(Hub()).wrap(Table())
    assert live.rolled(None, 17, True) == ("rolled", 17, True)
    assert getattr(live, "nothing", None) is None
