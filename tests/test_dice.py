"""The roll-and-keep dice: parsing, the ten-dice rule, modifiers, the seeded roller."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuego.dice.roller import (
    MAX_CHAIN,
    MAX_DICE,
    DieRoll,
    Plain,
    Pool,
    Roller,
    parse,
    parse_pool,
    skill_roll,
    trait_check,
)
from fuego.errors import DiceError, FuegoError, LimitError


# -- the ten-dice rule ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pool", "folded"),
    [
        (Pool(12, 6), Pool(10, 8)),
        (Pool(15, 10), Pool(10, 10, 50)),
        (Pool(11, 11), Pool(10, 10, 20)),
        (Pool(10, 10), Pool(10, 10)),
        (Pool(7, 4), Pool(7, 4)),
        (Pool(3, 0), Pool(3, 0)),
        (Pool(14, 9), Pool(10, 10, 30)),  # 14k9 -> 10k13 -> 10k10+30
        (Pool(12, 6, 5), Pool(10, 8, 5)),
        (Pool(3, 5), Pool(3, 3)),  # never keep more than rolled
        (Pool(12, 6, explode=False), Pool(10, 8, explode=False)),
    ],
)
def test_ten_dice_rule(pool: Pool, folded: Pool) -> None:
    assert pool.normalized() == folded
    assert folded.normalized() == folded


def test_fold_of_a_pool_within_limits_never_fails() -> None:
    # 1000k1000 folds to 10k10+19800, past MAX_BONUS: still the same roll, no LimitError.
    big = parse_pool(f"{MAX_DICE}k{MAX_DICE}+10000")
    folded = big.normalized()
    assert (folded.rolled, folded.kept, folded.bonus) == (10, 10, 10_000 + 10 * (2 * MAX_DICE - 20))
    assert folded.normalized() is folded and folded.notation == "10k10+29800"
    roller = Roller(1)
    result = roller.roll(big)
    assert len(result.dice) == 10 and result.total >= 10 + big.normalized().bonus
    assert Roller(1).total(big) == result.total


def test_keeping_zero_totals_the_bonus_only() -> None:
    roller = Roller(5)
    for _ in range(50):
        assert roller.total(Pool(3, 0)) == 0
        assert roller.total(Pool(3, 0, 4)) == 4
        result = roller.roll(Pool(3, 0, -2))
        assert result.total == -2 and result.kept == [] and len(result.dropped) == 3
    assert roller.total(Pool(0, 0, 7)) == 7


# -- modifiers ----------------------------------------------------------------------------------
def test_unkept_and_kept_modifiers() -> None:
    assert Pool(4, 2).with_unkept(1) == Pool(5, 2)
    assert Pool(4, 2).with_unkept(-1) == Pool(3, 2)
    assert Pool(1, 1).with_unkept(-3) == Pool(0, 1)
    assert Pool(4, 3).with_kept(-1) == Pool(3, 2)
    assert Pool(4, 3).with_kept(2) == Pool(6, 5)
    assert Pool(2, 1).with_kept(-5) == Pool(0, 0)
    assert Pool(4, 2, 1, explode=False).with_kept(1) == Pool(5, 3, 1, explode=False)
    assert Pool(4, 2).plus(5) == Pool(4, 2, 5)
    assert Pool(4, 2).no_explode() == Pool(4, 2, explode=False)


def test_trait_check_and_skill_roll() -> None:
    assert trait_check(3) == Pool(3, 3)
    assert trait_check(0) == Pool(1, 0)  # a trait of 0 rolls one die that counts 0
    assert skill_roll(2, 3) == Pool(5, 2)
    assert Roller(1).total(trait_check(0)) == 0


# -- parsing ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("7k4", Pool(7, 4)),
        ("4k2+5", Pool(4, 2, 5)),
        ("10k10-3", Pool(10, 10, -3)),
        ("5k3!", Pool(5, 3, explode=False)),
        (" 3 K 0 ", Pool(3, 0)),
        ("12k6", Pool(12, 6)),
        ("d6", Plain(1, 6)),
        ("2d6", Plain(2, 6)),
        ("d10+1", Plain(1, 10, 1)),
        ("3D6-2", Plain(3, 6, -2)),
    ],
)
def test_parse(expr: str, expected: Pool | Plain) -> None:
    assert parse(expr) == expected


@pytest.mark.parametrize(
    ("expr", "error"),
    [
        ("3x", DiceError),
        ("", DiceError),
        ("k3", DiceError),
        ("7k", DiceError),
        ("7k4+", DiceError),
        ("-3k2", DiceError),
        ("0k5", DiceError),
        ("0d6", DiceError),
        ("d1", DiceError),
        ("7k4" + " " * 80, DiceError),
        ("99999999999k3", LimitError),
        ("1001k3", LimitError),
        ("5k1001", LimitError),
        ("5k3+10001", LimitError),
        ("1001d6", LimitError),
        ("2d1001", LimitError),
    ],
)
def test_parse_errors(expr: str, error: type[FuegoError]) -> None:
    with pytest.raises(error) as info:
        parse(expr)
    message = info.value.render()
    assert "\n" not in message
    if expr.strip():
        assert expr.strip()[:10] in message


def test_parse_error_quotes_input_and_tips() -> None:
    with pytest.raises(DiceError) as info:
        parse("3x")
    assert "'3x'" in info.value.render() and "tip:" in info.value.render()


def test_parse_pool_refuses_plain_dice() -> None:
    assert parse_pool("7k4") == Pool(7, 4)
    with pytest.raises(DiceError):
        parse_pool("2d6")


def test_pool_refuses_negative_dice() -> None:
    with pytest.raises(DiceError):
        Pool(-1, 0)
    with pytest.raises(DiceError):
        Pool(3, -1)


@settings(max_examples=60, deadline=None)
@given(
    rolled=st.integers(1, MAX_DICE),
    kept=st.integers(0, MAX_DICE),
    bonus=st.integers(-10_000, 10_000),
    explode=st.booleans(),
)
def test_notation_round_trips(rolled: int, kept: int, bonus: int, explode: bool) -> None:
    pool = Pool(rolled, kept, bonus, explode)
    assert parse(pool.notation) == pool
    folded = pool.normalized()
    assert folded.rolled <= 10 and folded.kept <= min(10, folded.rolled)


# -- the roller -----------------------------------------------------------------------------
POOLS = [Pool(7, 4), Pool(12, 6), Pool(15, 10), Pool(11, 11), Pool(3, 0), Pool(5, 3, explode=False),
         Pool(2, 1, 3), Pool(10, 10), Pool(1, 1), Pool(4, 4, -2)]  # fmt: skip


@pytest.mark.parametrize("pool", POOLS, ids=str)
def test_total_and_roll_draw_the_same(pool: Pool) -> None:
    a, b = Roller(2024), Roller(2024)
    for _ in range(300):
        assert a.total(pool) == b.roll(pool).total
    assert a.random() == b.random()  # and they consumed the same random numbers


def test_totals_draw_what_as_many_single_rolls_draw() -> None:
    # A batch of rolls of mixed shapes, long enough that every shape refills many times (and
    # the refills interleave): the same totals, in order, and the same stream left after.
    pools = [POOLS[(k * 7) % len(POOLS)] for k in range(3000)] + [Pool(4, 2, 3)] * 200
    a, b = Roller(99), Roller(99)
    a.random(), b.random()  # (the stream already moved: batches do not start at its origin)
    assert a.totals(pools) == [b.total(p) for p in pools]
    assert a.getstate() == b.getstate() and a.random() == b.random()
    assert a.totals([]) == []


def test_action_dice_all_draw_what_as_many_single_calls_draw() -> None:
    # Every fire's action dice at a round's start, Panache 0-5 mixed, enough to refill often.
    panaches = [(k * 5) % 6 for k in range(5000)]
    a, b = Roller(7), Roller(7)
    assert a.action_dice_all(panaches) == [b.action_dice(p) for p in panaches]
    assert a.getstate() == b.getstate() and a.random() == b.random()
    assert all(d == sorted(d) and len(d) == p for d, p in zip(a.action_dice_all(panaches),
                                                              panaches))


def test_same_seed_same_sequence() -> None:
    def session(seed: int) -> list:
        r = Roller(seed)
        out: list = [r.roll(Pool(7, 4)).to_dict() for _ in range(20)]
        out += [r.total(Pool(12, 6)), r.action_dice(4), r.d6(), r.d10(), r.dr(), r.plain(Plain(2, 6))]
        out += [r.choice("abcdef"), r.random()]
        return out

    assert session(11) == session(11)
    assert session(11) != session(12)


def test_getstate_setstate_resume() -> None:
    r = Roller(3)
    r.total(Pool(5, 3))
    state = r.getstate()
    first = [r.total(Pool(5, 3)) for _ in range(10)]
    r.setstate(state)
    assert [r.total(Pool(5, 3)) for _ in range(10)] == first


def test_state_resumes_mid_batch_through_copies_and_pickles() -> None:
    import copy
    import pickle

    r = Roller(5)
    for pool in POOLS:  # every shape's batch begun, none finished
        r.total(pool)
    r.action_dice(3)
    twins = [copy.deepcopy(r), pickle.loads(pickle.dumps(r))]
    again = Roller(0)
    again.setstate(r.getstate())
    twins.append(again)

    def rolls(x: Roller) -> list:
        return [x.total(p) for p in POOLS * 20] + [x.action_dice(3), x.random()]
    first = rolls(r)
    assert all(rolls(t) == first for t in twins)


def test_a_batch_is_its_rolls() -> None:
    batch = Roller(6).pools(Pool(7, 4, 2), 500)
    assert len(batch) == 500 and batch.dice.shape == (500, 7)
    for row, total in zip(batch.dice.tolist(), batch.totals.tolist()):
        assert total == sum(sorted(row)[-4:]) + 2
    assert (batch.dice >= 1).all() and (batch.dice % 10 != 0).all()  # a ten always rolls again
    folded = Roller(6).pools(Pool(15, 10), 50)  # the ten-dice rule: 10k10+50
    assert folded.dice.shape == (50, 10) and (folded.totals == folded.dice.sum(axis=1) + 50).all()


def test_spawn_is_stable_and_independent() -> None:
    assert Roller(9).spawn(3).total(Pool(7, 4)) == Roller(9).spawn(3).total(Pool(7, 4))
    seqs = {tuple(Roller(9).spawn(k).total(Pool(7, 4)) for _ in range(5)) for k in range(5)}
    assert len(seqs) > 1


def test_roll_records_chains_and_keeps_the_highest() -> None:
    roller = Roller(77)
    chains = 0
    for pool in POOLS * 30:
        result = roller.roll(pool)
        folded = pool.normalized()
        assert len(result.dice) == folded.rolled
        assert len(result.kept_index) == folded.kept
        for die in result.dice:
            assert 1 <= len(die.faces) <= MAX_CHAIN
            assert all(f == 10 for f in die.faces[:-1])
            if pool.explode:
                assert die.faces[-1] != 10
            else:
                assert len(die.faces) == 1
            chains += len(die.faces) > 1
        if result.kept and result.dropped:
            assert min(result.kept) >= max(result.dropped)
        assert result.total == sum(result.kept) + folded.bonus
        data = result.to_dict()
        assert {"pool", "dice", "kept", "dropped", "bonus", "total"} <= set(data)
        assert data["pool"] == pool.notation
    assert chains > 0


def test_die_roll_text() -> None:
    assert str(DieRoll((10, 10, 3))) == "10+10+3"
    assert DieRoll((10, 10, 3)).value == 23
    assert str(DieRoll((4,))) == "4"


def test_action_dice_never_explode_and_are_sorted() -> None:
    r = Roller(4)
    for _ in range(200):
        dice = r.action_dice(5)
        assert dice == sorted(dice) and all(1 <= d <= 10 for d in dice) and len(dice) == 5
    assert r.action_dice(0) == [] and r.action_dice(-1) == []


def test_plain_dice_ranges() -> None:
    r = Roller(8)
    seen = set()
    for _ in range(600):
        faces, total = r.plain(Plain(2, 6, 1))
        assert len(faces) == 2 and all(1 <= f <= 6 for f in faces) and total == sum(faces) + 1
        seen.update(faces)
    assert seen == set(range(1, 7))
    assert {r.d10() for _ in range(500)} == set(range(1, 11))
