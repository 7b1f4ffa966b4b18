"""The page's state kept in step with a scene: live at the table, or a saved session's rounds.

:class:`ScreenFeed` listens to the table's scene (every event feeds the players' narration) and
publishes the players' view to the :class:`~fuego.web.server.Hub` whenever the table stops to ask
(every question, every saved answer, the end of the scene) and, during a long stretch of play
without questions, at most every :data:`INTERVAL` seconds. An undo rebuilds the scene: the feed
is attached to the new one and the page gets the state it goes back to (a new version).

:func:`replay` plays a saved session to where it stopped, read-only, keeping the state at the
start and at the end of every round for the page's review.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.web.svg import level_svg
from fuego.web.view import PlayersNarration, player_heroes, players_view

if TYPE_CHECKING:
    from collections.abc import Callable

    from fuego.engine.events import Event
    from fuego.engine.scene import Scene
    from fuego.errors import FuegoError
    from fuego.table.replay import Live, Player, Question
    from fuego.table.session import Session
    from fuego.web.server import Hub

#: Seconds between states published while play runs on without a question.
INTERVAL = 0.25


#: Levels' SVG kept by a feed (the pages of one moment share most levels, and a level that did
#: not change is not drawn again).
SVG_KEPT = 64


def page_state(view: dict[str, Any], drawn: dict[str, str] | None = None) -> dict[str, Any]:
    """What the page is sent: the view, each level drawn as SVG (instead of its parts).
    ``drawn``: the SVG of levels drawn before, by their data (read and kept up to date)."""
    out = {k: v for k, v in view.items() if k != "levels"}
    out["levels"] = [{"name": lv["name"], "elevation": lv["elevation"], "svg": _svg(lv, drawn)}
                     for lv in view["levels"]]
    return out


def _svg(level: dict[str, Any], drawn: dict[str, str] | None) -> str:
    if drawn is None:
        return level_svg(level)
    key = json.dumps(level, sort_keys=True, separators=(",", ":"))
    svg = drawn.pop(key, None)
    if svg is None:
        svg = level_svg(level)
        while len(drawn) >= SVG_KEPT:
            del drawn[next(iter(drawn))]  # the oldest
    drawn[key] = svg  # the newest last
    return svg


class Tellers:
    """The story told to each page of one scene: the shared screen's, and each player's hero's.

    Made before the scene plays (the table attaches it to a new or rebuilt scene), each story is
    told as the events come, with the sight of that moment. A hero the GM adds later gets the
    story so far, told with the sight of when it joined."""

    def __init__(self, scene: Scene):
        self.scene = scene
        self.shared = PlayersNarration(scene)
        self.own: dict[int, PlayersNarration] = {}  # id(hero) -> that hero's page's story
        self.drawn: dict[str, str] = {}  # levels drawn (see page_state)
        for hero in player_heroes(scene).values():
            self.own[id(hero)] = PlayersNarration(scene, hero)
        for event in list(scene.log):
            self.feed(event)

    def _of(self, hero: Any) -> PlayersNarration:
        got = self.own.get(id(hero))
        if got is None or got.hero is not hero:
            got = self.own[id(hero)] = PlayersNarration(self.scene, hero)
            for event in list(self.scene.log):  # the story so far
                got.feed(event)
        return got

    def feed(self, event: Event) -> None:
        self.shared.feed(event)
        for hero in player_heroes(self.scene).values():
            if id(hero) in self.own:
                self.own[id(hero)].feed(event)
            else:  # a new hero's page: the story so far, this event included
                self._of(hero)

    def states(self) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """The shared page's state and each player's (hero key -> state), now."""
        scene = self.scene
        views = {key: page_state(players_view(scene, self._of(hero), hero), self.drawn)
                 for key, hero in player_heroes(scene).items()}
        return page_state(players_view(scene, self.shared), self.drawn), views


class ScreenFeed:
    """Publishes the players' view of the table's scene (see the module's docstring)."""

    def __init__(self, hub: Hub, interval: float = INTERVAL):
        self.hub = hub
        self.interval = interval
        self.scene: Scene | None = None
        self.tellers: Tellers | None = None
        self.player: Player | None = None
        self._last = 0.0

    def attach(self, scene: Scene, player: Player | None = None) -> None:
        """A (re)built scene: narrate what it logged so far, then every event as it comes."""
        self.scene = scene
        self.player = player
        self.tellers = Tellers(scene)
        scene.listeners.append(self._event)

    def after(self, attach: Callable[[Scene, Player], None]) -> Callable[[Scene, Player], None]:
        """``attach`` (the table's), then this feed's."""
        def both(scene: Scene, player: Player) -> None:
            attach(scene, player)
            self.attach(scene, player)
        return both

    def _event(self, event: Event) -> None:
        if self.tellers is not None:
            self.tellers.feed(event)
        if self.player is not None and self.player.replaying:
            return  # a resume or an undo replaying: the page waits for where it lands
        if time.monotonic() - self._last >= self.interval:
            self.publish()

    def publish(self, *, flush: bool = False) -> None:
        """Send the players' view of the scene as it stands now."""
        if self.scene is None or self.tellers is None:
            return
        shared, views = self.tellers.states()
        self.hub.publish(shared, views=views)
        self._last = time.monotonic()

    def wrap(self, live: Live) -> Live:
        """The table, telling this feed whenever it stops to ask or saves."""
        return _Publishing(live, self)


class _Publishing:
    """A :class:`~fuego.table.replay.Live` that publishes, then lets the table answer."""

    def __init__(self, live: Live, feed: ScreenFeed):
        self.live = live
        self.feed = feed

    def answer(self, q: Question) -> str:
        self.feed.publish()
        return self.live.answer(q)

    def rejected(self, q: Question, error: FuegoError) -> None:
        self.live.rejected(q, error)

    def recorded(self, player: Player) -> None:
        self.live.recorded(player)
        self.feed.publish()

    def finished(self, player: Player) -> None:
        self.feed.publish(flush=True)
        self.live.finished(player)

    def __getattr__(self, name: str) -> Any:
        """Anything else the table offers (a roll's total told back, ...) is the table's own."""
        return getattr(self.live, name)


# -- a saved session ---------------------------------------------------------------------------------
class _ReadOnly:
    """A table that asks nothing: the saved answers are all there is."""

    def answer(self, q: Question) -> str:
        from fuego.table.replay import Quit

        raise Quit()

    def rejected(self, q: Question, error: FuegoError) -> None:
        pass

    def recorded(self, player: Player) -> None:
        pass

    def finished(self, player: Player) -> None:
        pass


#: The moments a review stops at, and their labels.
_FRAMES: dict[EventKind, Callable[[Event], str]] = {
    EventKind.SCENE_START: lambda e: "The scene begins",
    EventKind.ROUND_END: lambda e: f"End of round {e.round}",
    EventKind.SCENE_END: lambda e: "The scene is over",
}


def replay(session: Session) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]],
                                      dict[str, dict[str, Any]]]:
    """Play ``session`` to where it stopped (nothing is saved): the page's state there,
    (label, state) at the scene's start, the end of each round and the end of the scene, and
    each player's own page where it stopped (hero key -> state)."""
    from fuego.table.replay import Player, Quit

    frames: list[tuple[str, dict[str, Any]]] = []
    told: list[Tellers] = []

    def attach(scene: Scene, _player: Player) -> None:
        frames.clear()
        tellers = Tellers(scene)
        told[:] = [tellers]

        def keep(event: Event) -> None:
            tellers.feed(event)
            label = _FRAMES.get(event.kind)
            if label is not None:
                frames.append((label(event),
                               page_state(players_view(scene, tellers.shared), tellers.drawn)))

        scene.listeners.append(keep)

    player = Player(session, _ReadOnly(), attach=attach)
    with contextlib.suppress(Quit):  # the saved answers ran out before the scene's end
        player.run()
    assert player.scene is not None and told
    latest, views = told[0].states()
    if not frames or frames[-1][1] != latest:
        frames.append(("Where the session stopped", latest))
    return latest, frames, views
