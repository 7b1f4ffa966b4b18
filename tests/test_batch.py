"""Batched rolls (fuego.dice.batch) and the round's batch of boxed-in fires: exactly the one-by-one
results, draws and logs, only made faster."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from builders import field_scene
from hypothesis import given
from hypothesis import strategies as st

import fuego.dice.batch as batch
import fuego.engine.boxed_phases as boxed_phases
import fuego.engine.rounds as rounds
from fuego.dice.roller import Pool, Roller
from fuego.engine.controllers import AutoController
from fuego.engine.events import Event
from fuego.engine.rounds import play_round, start_scene

pools = st.builds(Pool, st.integers(0, 14), st.integers(0, 12), st.integers(-5, 5),
                  st.booleans())


def _both(seed: int):
    return Roller(seed), Roller(seed)


@given(st.lists(pools, min_size=batch.MIN_BATCH, max_size=400), st.integers(0, 2**32))
def test_totals_are_the_one_by_one_totals_with_the_same_draws(batch_pools, seed):
    fast, slow = _both(seed)
    # (straight to the batch: the roller sends it only lists of a thousand dice or more)
    assert batch.totals(fast._rng, batch_pools, fast.total) == [slow.total(p) for p in batch_pools]
    assert fast.getstate() == slow.getstate()  # it goes on from the same point
    assert fast.random() == slow.random()


def test_long_batches_with_many_ten_again_chains():
    # 60,000 exploding dice: chains of two, three and more tens all occur
    rnd = random.Random(3)
    long = [Pool(rnd.randint(1, 10), rnd.randint(1, 10), 0, True) for _ in range(12_000)]
    fast, slow = _both(11)
    assert fast.totals(long) == [slow.total(p) for p in long]
    assert fast.getstate() == slow.getstate()


def test_pools_at_the_limits_roll_in_a_batch_as_one_by_one():
    # A pool's shape travels as one int (dice.shape_code): the ten-dice rule's folds and the
    # largest and most negative bonuses must come back out of it whole.
    from fuego.dice.roller import MAX_BONUS, MAX_DICE

    ends = [Pool(MAX_DICE, MAX_DICE, MAX_BONUS), Pool(MAX_DICE, 1, -MAX_BONUS, False),
            Pool(0, 0, -MAX_BONUS), Pool(11, 11), Pool(10, 0, 7, False), Pool(1, 1)]
    group = ends * 40
    fast, slow = _both(8)
    assert batch.totals(fast._rng, group, fast.total) == [slow.total(p) for p in group]
    assert fast.getstate() == slow.getstate()


def test_a_chain_at_the_cut_falls_back_to_rolling_one_by_one(monkeypatch):
    # With the cut at two faces every ten-again die counts as reaching it: the batch must put
    # the generator back and roll one by one (the dice module still cuts at its own length).
    monkeypatch.setattr(batch, "MAX_CHAIN", 2)
    group = [Pool(5, 3)] * 300
    fast, slow = _both(5)
    assert batch.totals(fast._rng, group, fast.total) == [slow.total(p) for p in group]
    assert fast.getstate() == slow.getstate()


def test_without_numpy_the_plain_loop_runs(monkeypatch):
    monkeypatch.setattr(batch, "_np", False)
    group = [Pool(4, 2)] * 200
    fast, slow = _both(9)
    assert batch.totals(fast._rng, group, fast.total) == [slow.total(p) for p in group]
    assert (batch.action_dice(fast._rng, [2] * 200, fast.action_dice)
            == [slow.action_dice(2) for _ in range(200)])


@pytest.mark.parametrize("dice", [4, 5])
def test_the_roller_batches_lists_of_a_thousand_dice_or_more(monkeypatch, dice):
    # numpy's set-up pays for itself at about a thousand dice (MIN_BATCH_DICE): shorter lists
    # roll one by one, longer ones as a batch; the totals are the same either way.
    from fuego.dice.roller import MIN_BATCH_DICE

    batched = []
    totals, action_dice = batch.totals, batch.action_dice
    monkeypatch.setattr(batch, "totals", lambda *a: batched.append("totals") or totals(*a))
    monkeypatch.setattr(batch, "action_dice",
                        lambda *a: batched.append("action") or action_dice(*a))
    n = MIN_BATCH_DICE // 4 - 1  # 4 dice a pool: just under the line, or (5) over it
    group = [Pool(dice, 2)] * n
    fast, slow = _both(2)
    assert fast.totals(group) == [slow.total(p) for p in group]
    assert fast.action_dice_of([dice] * n) == [slow.action_dice(dice) for _ in range(n)]
    assert batched == ([] if dice * n < MIN_BATCH_DICE else ["totals", "action"])


@given(st.lists(st.integers(0, 6), min_size=batch.MIN_BATCH, max_size=300),
       st.integers(0, 2**32))
def test_action_dice_are_the_one_by_one_dice(panaches, seed):
    fast, slow = _both(seed)
    assert (batch.action_dice(fast._rng, panaches, fast.action_dice)
            == [slow.action_dice(p) for p in panaches])
    assert fast.getstate() == slow.getstate()


@pytest.mark.parametrize("temperament", ["hungry", "patient"])
@pytest.mark.parametrize("fire_kind", ["henchman", "villain"])
def test_a_round_with_the_batch_logs_what_one_by_one_logs(monkeypatch, temperament, fire_kind):
    # 24 x 24 fires, nearly all boxed in: each phase's runs of them grow as one batch. Villain
    # fires gutter (pools without ten again), so the batches mix both kinds of pool.
    def make():
        return field_scene(24, 24, seed=4, temperament=temperament, fire_kind=fire_kind,
                           gaps=[(5, 5), (17, 9)])

    fast, slow = _played(monkeypatch, make, 6, True), _played(monkeypatch, make, 6, False)
    assert fast == slow
    assert sum(e["kind"] == "fire-grew" for e in fast) > 24 * 24  # the batch had work to do


def test_heroes_in_a_big_fire_act_among_its_batches_as_one_by_one(monkeypatch):
    # A hero standing in a boxed-in area is queued with the fires there (and may put fires
    # out, so not every queued fire still burns): the batch must tell them apart.
    from fuego.engine.heroes import Hero

    def make():
        scene = field_scene(16, 16, seed=3, gaps=[(0, 0)])
        scene.heroes += [Hero("Ana", 8 * 16 + 8, panache=3), Hero("Bo", 16 + 1, panache=2)]
        return scene

    fast, slow = _played(monkeypatch, make, 4, True), _played(monkeypatch, make, 4, False)
    assert fast == slow
    assert any(e["kind"].startswith("hero-") for e in fast)


def _played(monkeypatch, make, n_rounds: int, batched: bool) -> list[dict]:
    """The log of ``make()``'s scene after ``n_rounds``, batched or one by one (and then not
    as columns either: tests/test_boxed_phases.py)."""
    if not batched:
        monkeypatch.setattr(rounds, "GROWS_WHEN_BOXED", frozenset())
        monkeypatch.setattr(boxed_phases, "applies", lambda *a: False)
    scene = make()
    start_scene(scene)
    for _ in range(n_rounds):
        play_round(scene, AutoController())
    monkeypatch.undo()
    return [e.to_dict() for e in scene.log]


def test_listeners_hear_every_event_in_order_and_the_log_reads_the_same():
    # Heard as they happen (the CLI) or read after the round (a headless run): the same events.
    heard: list[Event] = []
    loud = field_scene(20, 20, seed=6, gaps=[(3, 3)])
    loud.listeners.append(heard.append)
    quiet = field_scene(20, 20, seed=6, gaps=[(3, 3)])
    for scene in (loud, quiet):
        start_scene(scene)
        for _ in range(3):
            play_round(scene, AutoController())
    assert list(loud.log) == list(quiet.log)
    assert heard == list(loud.log)[-len(heard):]  # (the fires were lit before it listened)
    assert len(heard) > 3 * 400


def test_a_scene_whose_log_is_a_plain_list_still_records_everything():
    scene = field_scene(20, 20, seed=2)
    scene.log = list(scene.log)
    start_scene(scene)
    play_round(scene, AutoController())
    fresh = field_scene(20, 20, seed=2)
    start_scene(fresh)
    play_round(fresh, AutoController())
    assert type(scene.log) is list and scene.log == list(fresh.log)


@pytest.mark.parametrize("campaign", ["tavern", "ship"])
def test_a_scene_that_keeps_some_kinds_plays_the_same_and_logs_just_those(campaign):
    # A forecast keeps only what its script reads (Scene.keep): the play must not change, and
    # what is kept is the full log's events of those kinds, in order.
    from fuego.engine.rounds import run_scene
    from fuego.forecast import _read_kinds
    from fuego.scenario import load

    scenario = load(str(Path(__file__).parent.parent / "campaigns" / f"{campaign}.yaml"))
    full, lean = scenario.build(5), scenario.build(5)
    lean.keep = _read_kinds(lean)
    assert lean.keep  # the campaigns' scripts read some kinds, not all
    for scene in (full, lean):
        run_scene(scene, AutoController(), rounds=15)
    assert lean.snapshot() == full.snapshot()
    assert list(lean.log) == [e for e in full.log if e.kind in lean.keep]
    assert len(lean.log) < len(full.log)


@pytest.mark.parametrize("temperament", ["hungry", "patient"])
def test_where_a_fire_is_boxed_in_its_policy_would_only_grow_it(monkeypatch, temperament):
    # The shortcut skips the policy for boxed-in fires: check that the policy, asked anyway,
    # picks the grow (or nothing at ten dice) every time, in a building of walls and doors.
    from fuego.engine.fire_actions import ActionKind
    from fuego.scenario import load

    checked = 0
    act_as_before = rounds._fire_acts

    def acts(scene, fire, policy, phase, again, buckets, boxed=None):
        nonlocal checked
        if boxed is not None and rounds._may_act(scene, fire) and boxed(fire):
            act = policy(scene, fire)
            if fire.fd == 10:
                assert act is None
            else:
                assert act.kind is ActionKind.GROW and act.tn == 5 * fire.fd
            checked += 1
        act_as_before(scene, fire, policy, phase, again, buckets, boxed)

    monkeypatch.setattr(rounds, "_fire_acts", acts)
    scenario = load(str(Path(__file__).parent.parent / "campaigns" / "tavern.yaml"))
    for seed in range(3):
        scene = scenario.build(seed)
        scene.settings.temperament = temperament
        start_scene(scene)
        for _ in range(16):
            play_round(scene, AutoController())
    assert checked > 20


def test_a_played_scene_is_freed_without_the_cycle_collector():
    # A forecast plays thousands of scenes: their caches must not hold themselves in cycles.
    import gc

    from fuego.scenario import load

    scenario = load(str(Path(__file__).parent.parent / "campaigns" / "tavern.yaml"))
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for scene in (scenario.build(1), field_scene(24, 24, seed=3)):
            start_scene(scene)
            for _ in range(6):
                play_round(scene, AutoController())
            del scene
        gc.collect()
        ours = [o for o in gc.garbage
                if (getattr(type(o), "__module__", "") or "").startswith("fuego")
                or (callable(o) and (getattr(o, "__module__", "") or "").startswith("fuego"))]
        assert ours == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
