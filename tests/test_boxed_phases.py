"""The phases of a round of boxed-in fires played as columns (fuego.engine.boxed_phases): exactly the
log, draws and fires that the fire objects give one at a time."""

from __future__ import annotations

import random

import pytest
from builders import field_scene
from hypothesis import given, settings
from hypothesis import strategies as st

import fuego.engine.boxed_phases as boxed_phases
import fuego.engine.rounds as rounds
from fuego.engine.controllers import AutoController
from fuego.engine.heroes import Hero, Status
from fuego.engine.rounds import play_round, start_scene

#: how a round's boxed-in fires act: as columns (the default), in the fire objects' batches,
#: or one fire at a time
WAYS = ("columns", "batched", "one by one")


def _played(monkeypatch, make, n_rounds: int, way: str,
            listening: bool = False) -> tuple[list[dict], list, int]:
    """``make()``'s scene after ``n_rounds`` played one way: its log, its fires (Fire Dice,
    state, dice left) and how many rounds the columns played. ``listening``: with a listener,
    which must hear the log's events as they are made (the CLI's way)."""
    if way != "columns":
        monkeypatch.setattr(boxed_phases, "applies", lambda *a: False)
    if way == "one by one":
        monkeypatch.setattr(rounds, "GROWS_WHEN_BOXED", frozenset())
    played = []
    play = boxed_phases.play
    monkeypatch.setattr(boxed_phases, "play", lambda *a: played.append(1) or play(*a))
    scene = make()
    heard: list = []
    already = len(scene.log)  # (the fires lit as the scene was made)
    if listening:
        scene.listeners.append(lambda e: heard.append(e.to_dict()))
    start_scene(scene)
    for _ in range(n_rounds):
        play_round(scene, AutoController())
    monkeypatch.undo()
    log = [e.to_dict() for e in scene.log]
    if listening:
        assert heard == log[already:]
    fires = [(i, f.fd, f.state.value, list(f.dice)) for i, f in sorted(scene.fires.items())]
    return log, fires + [scene.roller.getstate()], len(played)


def _same_three_ways(monkeypatch, make, n_rounds: int, listening: bool = False) -> int:
    """Play ``make()``'s scene the three ways; they must agree. Rounds the columns played."""
    (log, fires, columns), *others = [_played(monkeypatch, make, n_rounds, way, listening)
                                      for way in WAYS]
    for way, (other_log, other_fires, _) in zip(WAYS[1:], others):
        assert other_log == log, way
        assert other_fires == fires, way
    return columns


@pytest.mark.parametrize("temperament", ["hungry", "patient"])
@pytest.mark.parametrize("fire_kind", ["henchman", "villain"])
@pytest.mark.parametrize("fd", [1, 3, 8])
def test_a_boxed_in_field_plays_as_the_fire_objects_play(monkeypatch, temperament, fire_kind,
                                                        fd):
    # 40 x 40 fires, every one boxed in: thousands of grow rolls a phase, in numpy batches.
    # Villain fires gutter (pools without ten again); eight dice reach ten (no more growing).
    def make():
        return field_scene(40, 40, seed=fd, fd=fd, temperament=temperament,
                           fire_kind=fire_kind)

    assert _same_three_ways(monkeypatch, make, 4) >= 3


def test_fires_of_every_size_keep_the_phase_order(monkeypatch):
    # Fire Dice from 1 to 10 across the field: many Panaches, many sums, many ties to shuffle.
    def make():
        scene = field_scene(30, 30, seed=12)
        rnd = random.Random(5)
        for fire in scene.fires.values():
            fire.fd = rnd.randint(1, 10)
        return scene

    assert _same_three_ways(monkeypatch, make, 3) == 3


@settings(max_examples=12, deadline=None)
@given(st.integers(12, 22), st.integers(12, 22), st.integers(1, 10), st.integers(0, 2**16),
       st.sampled_from(["henchman", "villain"]), st.booleans())
def test_any_boxed_in_field_plays_as_the_fire_objects_play(cols, rows, fd, seed, kind,
                                                          listening):
    # (hypothesis runs many examples in one test: the three ways are patched and undone inside)
    with pytest.MonkeyPatch.context() as monkeypatch:
        def make():
            return field_scene(cols, rows, seed=seed, fd=fd, fire_kind=kind)

        assert _same_three_ways(monkeypatch, make, 2, listening) >= 1


def test_heroes_out_of_play_and_listeners_leave_the_columns_on(monkeypatch):
    # An escaped hero has no action dice; a listener hears each event as it is made.
    def make():
        scene = field_scene(20, 20, seed=9, fd=4)
        scene.heroes.append(Hero("Ana", 0, panache=2, status=Status.ESCAPED))
        return scene

    assert _same_three_ways(monkeypatch, make, 3, listening=True) == 3


def test_a_small_boxed_in_fire_plays_one_roll_at_a_time_the_same(monkeypatch):
    # 12 x 12: few fires a phase, so the rolls go one by one and a lone grower rolls alone.
    def make():
        return field_scene(12, 12, seed=7, fd=2)

    assert _same_three_ways(monkeypatch, make, 5) >= 1


def test_the_fire_objects_play_where_the_columns_cannot(monkeypatch):
    # unlit fuel in the field (a gap: its neighbours are not boxed in), a hero with action dice,
    # a script, a module, a temperament that draws to choose: each round is the objects'
    def gap():
        return field_scene(20, 20, seed=2, gaps=[(9, 9)])

    def hero():
        scene = field_scene(20, 20, seed=2)
        scene.heroes.append(Hero("Ana", 0, panache=2))
        return scene

    def wild():
        return field_scene(20, 20, seed=2, temperament="wild")

    for make in (gap, hero, wild):
        assert _same_three_ways(monkeypatch, make, 2) == 0, make.__name__


def test_applies_only_without_script_or_modules():
    scene = field_scene(20, 20, seed=2)
    acting = list(scene.fires.values())
    assert boxed_phases.applies(scene, acting, False)
    assert not boxed_phases.applies(scene, acting, True)  # a hero has action dice
    assert not boxed_phases.applies(scene, [], False)
    scene.script = object()  # any script: it may read or change the fires after a phase
    assert not boxed_phases.applies(scene, acting, False)
    scene.script = None
    scene.modules = [object()]
    assert not boxed_phases.applies(scene, acting, False)
    assert not boxed_phases.applies(field_scene(10, 10, seed=2), acting[:100], False)  # small
