"""One loop plays a scene (fuego.engine.loop): its hooks, its stop rule and the outcome it
reports, whoever calls it (``fuego run``, a forecast, the table)."""

from __future__ import annotations

import pytest
from helpers import two_room_scene

from fuego.engine import loop
from fuego.engine.controllers import AutoController
from fuego.engine.events import EventKind
from fuego.engine.heroes import Status
from fuego.engine.loop import Ending, Outcome, SceneOver


def test_observe_sees_every_round_boundary_and_between_every_round_played():
    scene = two_room_scene(7)
    seen: list[tuple[str, int]] = []
    outcome = loop.run(scene, AutoController(), lambda s: seen.append(("observe", s.round)),
                       rounds=4, between=lambda s: seen.append(("between", s.round)))
    assert outcome == Outcome(Ending.ROUND_LIMIT, 4, len(scene.fires)) and scene.fires
    # the start (round 0), then after each round; "between" before each round played
    assert seen == [("observe", 0), ("between", 0), ("observe", 1), ("between", 1),
                    ("observe", 2), ("between", 2), ("observe", 3), ("between", 3),
                    ("observe", 4)]
    end = scene.log[-1]
    assert end.kind is EventKind.SCENE_END and end.data["why"] == "round-limit"
    assert end.data["rounds"] == 4 and scene.ended


def test_a_scene_that_burns_out_ends_fire_out_after_its_last_round():
    scene = two_room_scene(7)
    outcome = loop.run(scene, AutoController())
    assert outcome.why is Ending.FIRE_OUT and outcome.burning == 0
    assert outcome.round == scene.round < scene.settings.max_rounds
    assert loop.fire_out(scene) and not scene.fires
    # at a limit of exactly that round, the fire out still says why
    again = two_room_scene(7)
    assert loop.run(again, AutoController(), rounds=outcome.round) == outcome


def test_the_same_scene_plays_the_same_with_or_without_hooks():
    plain, hooked = two_room_scene(3), two_room_scene(3)
    loop.run(plain, AutoController(), rounds=6)
    loop.run(hooked, AutoController(), lambda s: None, 6, between=lambda s: None)
    assert [e.to_json() for e in plain.log] == [e.to_json() for e in hooked.log]


@pytest.mark.parametrize("heroes_left", [True, False])
def test_the_gm_ending_the_scene_between_rounds(heroes_left):
    scene = two_room_scene(7)

    def between(s):
        if s.round == 2:
            if not heroes_left:
                for hero in s.heroes:
                    hero.status = Status.ESCAPED
            s.ended = True

    outcome = loop.run(scene, AutoController(), between=between)
    why = Ending.GM_ENDED if heroes_left else Ending.HEROES_OUT
    assert outcome == Outcome(why, 2, len(scene.fires))
    assert scene.log[-1].data["why"] == why.value


def test_scene_over_in_the_middle_of_a_round_stops_it_at_once():
    class Ends(AutoController):
        def choose(self, scene, hero, legal):
            if scene.round == 2:
                scene.ended = True
                raise SceneOver()
            return super().choose(scene, hero, legal)

    scene = two_room_scene(7)
    outcome = loop.run(scene, Ends())
    assert outcome.why is Ending.GM_ENDED and outcome.round == 2
    kinds = [e.kind for e in scene.log if e.round == 2]
    assert EventKind.ROUND_END not in kinds and kinds[-1] is EventKind.SCENE_END


def test_the_stop_rule():
    scene = two_room_scene(7)
    assert loop.ending(scene) is None  # burning, no limit
    assert loop.ending(scene, 0) is Ending.ROUND_LIMIT
    scene.fires.clear()
    assert loop.ending(scene, 0) is Ending.FIRE_OUT  # the fire out wins over the limit
    scene.ended = True
    assert loop.ending(scene) is Ending.GM_ENDED
