"""The engine's typed seams (issue 17, item 6): rule modules found by type, a module switched on
that changes nothing, event payloads typed per kind, narration keyed by kind, the script's
Protocol."""

from __future__ import annotations

import json
import re
import types
import typing
from pathlib import Path

import pytest
from builders import field_scene
from hypothesis import given, settings
from hypothesis import strategies as st

from fuego.engine import loop
from fuego.engine.controllers import AutoController
from fuego.engine.events import (
    PAYLOADS,
    RESERVED_KEYS,
    Event,
    EventKind,
    EventLog,
    PayloadError,
)
from fuego.engine.rule_module import RuleModule
from fuego.modules.registry import build
from fuego.modules.wind import Wind
from fuego.render.narrate import Narrator
from fuego.render.phrases import PHRASES, narrate
from fuego.scenario.model import load

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))


class Idle(RuleModule):
    """A module that overrides nothing: every hook is RuleModule's default."""

    name = "idle"


def _log(make, idle: bool, rounds: int | None = None) -> list[dict]:
    scene = make()
    if idle:
        scene.modules.append(Idle())
    loop.run(scene, AutoController(), rounds=rounds)
    return [e.to_dict() for e in scene.log]


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 5])
def test_a_module_that_does_nothing_changes_nothing_in_a_campaign(path, seed):
    scenario = load(path)
    assert _log(lambda: scenario.build(seed), True) == _log(lambda: scenario.build(seed), False)


def test_a_module_that_does_nothing_changes_nothing_in_a_big_fire():
    # a field nearly all ablaze: the rounds where fires can only grow
    def make():
        return field_scene(14, 14, seed=3, fd=3, gaps=[(0, 0), (7, 7)])

    assert _log(make, True, rounds=6) == _log(make, False, rounds=6)


def test_modules_find_each_other_by_type():
    scene = field_scene(3, 3)
    assert scene.module(Wind) is None
    scene.modules = build({"weather": {}, "wind": {"force": "mild-breeze"}})
    wind = scene.module(Wind)
    assert isinstance(wind, Wind) and wind is scene.modules[1]
    assert scene.module(Idle) is None


# -- event payloads ---------------------------------------------------------------------------
def _fits(value, tp) -> bool:
    """Does a JSON value fit a payload's annotation (int, str, bool, None, lists, dicts, unions)?"""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is type(None):
        return value is None
    if origin in (types.UnionType, typing.Union):
        return any(_fits(value, a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(_fits(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(_fits(k, args[0]) and _fits(v, args[1])
                                               for k, v in value.items())
    if tp is int:  # a bool is an int to Python, never to the log's readers
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def _check_types(events) -> set[EventKind]:
    seen = set()
    for e in events:
        hints = typing.get_type_hints(PAYLOADS[e.kind])
        for key, value in e.data.items():
            assert _fits(value, hints[key]), (e.kind, key, value, hints[key])
        seen.add(e.kind)
    return seen


def test_every_kind_has_a_payload_whose_keys_are_not_the_records_own():
    assert set(PAYLOADS) == set(EventKind)
    for payload in PAYLOADS.values():
        assert RESERVED_KEYS.isdisjoint(payload.__required_keys__ | payload.__optional_keys__)


def test_an_event_with_a_missing_or_unknown_key_is_refused():
    scene = field_scene(2, 1)
    with pytest.raises(PayloadError, match=r"missing \['before'\], unknown \['size'\]"):
        scene.emit(EventKind.FIRE_GREW, None, 0, fd=3, why="test", size=2)
    scene.emit(EventKind.FIRE_GREW, None, 0, fd=3, before=2, why="test")  # (pool etc. optional)


def test_a_wrong_payload_is_refused_every_time_and_a_right_one_logged_once_checked():
    # The log checks a shape of data once: a refused shape is never taken as checked.
    scene = field_scene(2, 1)
    logged = len(scene.log)
    for _ in range(2):
        with pytest.raises(PayloadError, match=r"missing \['fd'\]"):
            scene.emit(EventKind.FIRE_SHRANK, None, 0, before=2, why="test")
    assert len(scene.log) == logged


def test_the_log_reads_as_the_list_of_its_events():
    scene = field_scene(3, 1)
    scene.log.clear()
    heard: list = []
    scene.listeners.append(heard.append)
    scene.emit(EventKind.FIRE_GREW, "fire@ground:A1", 0, fd=3, before=2, why="test")
    scene.emit(EventKind.SMOKE_CLEARED, None, 1)
    scene.emit(EventKind.FIRE_SHRANK, "fire@ground:A1", "ground:A1", fd=2, before=3, why="rain")
    log = scene.log
    events = list(log)
    assert events == heard and len(log) == 3 and log == heard  # what the listeners were given
    assert events[0] == Event(EventKind.FIRE_GREW, 0, 0, "fire@ground:A1", "ground:A1",
                              {"fd": 3, "before": 2, "why": "test"})
    assert events[1].area == "ground:B1" and events[1].data == {}
    assert log[-1] == events[2] and log[1:] == events[1:] and list(reversed(log)) == events[::-1]
    assert [e.to_json() for e in EventLog(events)] == [e.to_json() for e in events]
    kept = EventLog(events, kinds=frozenset({EventKind.FIRE_SHRANK}))
    assert list(kept) == [events[2]]


def test_a_log_that_keeps_some_kinds_keeps_them_from_a_batch_of_rows_of_several_kinds():
    from fuego.engine.events import shape

    grew = shape(EventKind.FIRE_GREW, ("fd", "before", "why"))
    shrank = shape(EventKind.FIRE_SHRANK, ("fd", "before", "why"))
    kept = EventLog(kinds=frozenset({EventKind.FIRE_SHRANK}))
    kept.add_rows([(grew, 1, 2, "fire@A1", "A1", 3, 2, "grow"),
                   (shrank, 1, 2, "fire@B1", "B1", 1, 2, "rain"),
                   (grew, 1, 3, "fire@C1", "C1", 4, 3, "grow")])
    assert [(e.kind, e.area) for e in kept] == [(EventKind.FIRE_SHRANK, "B1")]


def test_the_log_packed_into_columns_reads_back_every_event_as_it_was():
    from fuego.engine.events import CHUNK

    scene = field_scene(3, 1)
    scene.log.clear()
    made = []
    for k in range(2 * CHUNK + 37):  # two packed chunks and some rows; shapes interleaved
        if k % 7 == 1:  # a word column of few values and one of a name each (kept as it is)
            data = {"pool": "3k3", "tn": 15, "total": k % 300, "success": False,
                    "action": ("spread", "leap", "grow")[k % 3],
                    "target": None if k % 2 else f"ground:A{k}"}
            scene.emit(EventKind.FIRE_ACTION_FAILED, "fire@ground:A1", 0, **data)
        elif k % 3:
            data = {"fd": k % 10, "before": 2, "why": "test" if k % 4 else "wind"}
            if k % 5 == 0:
                data["total"] = 2**40 + k  # (past 32 bits: that column stays as it was)
            scene.emit(EventKind.FIRE_GREW, "fire@ground:A1", k % 3, **data)
        else:
            data = {"damage": k, "flesh": -k, "total": 3, "success": k % 2 == 0,
                    "dramatic": 1, "resolve": 5}
            scene.emit(EventKind.FIRE_FUEL_CHECK, None, None, **data)
        made.append(data)
    log = scene.log
    assert len(log) == len(made) and [e.data for e in log] == made
    assert {type(e.data["success"]) for e in log if "success" in e.data} == {bool}
    # as JSON too: each value of the very type logged (a coded True is no 1, a None no "")
    assert [json.dumps(e.data) for e in log] == [json.dumps(d) for d in made]
    assert log[CHUNK + 5].data == made[CHUNK + 5] and log[-1].data == made[-1]
    assert [e.data for e in log.since(CHUNK - 3)] == made[CHUNK - 3:]
    assert [e.data for e in reversed(log)][:5] == made[::-1][:5]
    assert log[10:20:3] == [log[10], log[13], log[16], log[19]]
    with pytest.raises(IndexError):
        log[len(made)]


def _exactly(events) -> list:
    """Each event as plain values with every scalar's type beside it: True is no 1, None no 0."""
    def typed(v):
        return [typed(x) for x in v] if isinstance(v, list) else (type(v).__name__, v)
    return [(e.kind, typed(e.round), typed(e.phase), typed(e.actor), typed(e.area),
             [(k, typed(v)) for k, v in e.data.items()]) for e in events]


# The packed log's columns, by the payload's type: whole numbers (narrow, wide, negative, past
# 32 bits; a None where a bug put one), words and flags, a word's None, and lists kept as they are.
_WHOLE_VALUES = st.one_of(st.integers(0, 3), st.integers(-2**40, 2**40), st.just(255),
                          st.just(256), st.just(-1), st.just(None))
_WORDS = st.sampled_from(["spread", "leap", "3k3", ""])
_ROWS = {  # kind, keys, and each key's values
    EventKind.FIRE_GREW: (("fd", "before", "why", "pool", "tn", "total", "success"),
                          (_WHOLE_VALUES, st.integers(0, 2), _WORDS, _WORDS | st.text(max_size=2),
                           st.just(15), _WHOLE_VALUES, st.booleans())),
    EventKind.FIRE_ACTION_FAILED: (("action", "target", "pool", "tn", "total", "success"),
                                   (_WORDS, _WORDS | st.none() | st.text(max_size=3), _WORDS,
                                    st.integers(-300, 300), st.integers(0, 2**31),
                                    st.booleans() | st.just(False))),
    EventKind.ROLL: (("pool", "total", "tn"),
                     (_WORDS | st.lists(_WORDS, max_size=2), st.integers(0, 2**33),
                      st.integers(0, 300) | st.none())),
    EventKind.SMOKE: (("thin", "thick", "rooms", "cleared"),
                      (st.integers(0, 70000), st.just(0), st.lists(_WORDS, max_size=2),
                       st.integers(0, 3))),
}
_EVENTS = st.sampled_from(sorted(_ROWS, key=lambda k: k.value)).flatmap(
    lambda kind: st.tuples(st.just(kind), st.integers(0, 3), st.integers(0, 11),
                           st.sampled_from(["fire@A1", "fire@B2", None]),
                           st.sampled_from(["A1", "B2", None]) | st.text(max_size=2),
                           st.tuples(*_ROWS[kind][1])).map(
        lambda t: Event(t[0], t[1], t[2], t[3], t[4], dict(zip(_ROWS[t[0]][0], t[5])))))


@given(st.lists(_EVENTS, max_size=5 * 16 + 3) | st.lists(_EVENTS, min_size=1, max_size=3).flatmap(
    lambda few: st.integers(2 * 16, 4 * 16).map(lambda n: [few[k % len(few)] for k in range(n)])))
@settings(max_examples=200)
def test_any_mix_of_rows_reads_back_exactly_across_chunks(events):
    # A chunk of 16 rows: several chunks packed, some rows not; the second strategy repeats a
    # few events, so whole columns are one value, or a few, as a scene's mostly are.
    from fuego.engine import events as module

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "CHUNK", 16)
        log = EventLog(events)
        assert len(log) == len(events)
        assert _exactly(log) == _exactly(events) == _exactly(list(reversed(log)))[::-1]
        assert [e.to_json() for e in log] == [e.to_json() for e in events]
        for k in range(0, len(events) + 2, 5):
            assert _exactly(log.since(k)) == _exactly(events[k:])
            assert _exactly(log[k:]) == _exactly(events[k:])
            # (a negative start counts from the end, as a list's slice does)
            assert _exactly(log.since(-k)) == _exactly(events[-k:])
            assert _exactly(log[-k - 1:]) == _exactly(events[-k - 1:])
        assert _exactly(log[i] for i in range(-len(events), len(events))) == _exactly(events * 2)
        assert _exactly(log[1::3]) == _exactly(events[1::3])


def test_a_chunk_of_more_than_256_shapes_packs_and_reads_back():
    # Each order of a grew event's keys is a shape of its own: 300 of them in one chunk.
    from itertools import islice, permutations

    from fuego.engine.events import CHUNK

    orders = list(islice(permutations(("fd", "before", "why", "pool", "tn", "total")), 300))
    events = [Event(EventKind.FIRE_GREW, 1, k % 11, f"fire@A{k}", None,
                    {key: (k if key in ("fd", "total") else 3 if key != "why" else "wind")
                     for key in orders[k % len(orders)]})
              for k in range(CHUNK + 10)]
    log = EventLog(events)
    assert _exactly(log) == _exactly(events) and log[CHUNK - 1] == events[CHUNK - 1]
    assert _exactly(reversed(log)) == _exactly(events[::-1])


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_every_campaigns_events_carry_their_payloads_types(path):
    # The scene checks the keys as it logs; here every value's type too.
    seen: set[EventKind] = set()
    for seed in (1, 2, 3):
        scene = load(path).build(seed)
        loop.run(scene, AutoController())
        seen |= _check_types(scene.log)
    assert {EventKind.SCENE_START, EventKind.FIRE_STARTED, EventKind.SCENE_END} <= seen


def test_every_modules_events_carry_their_payloads_types():
    from test_modules_registry import ALL, _combined

    seen: set[EventKind] = set()
    for seed in (1, 2, 3):
        seen |= _check_types(_combined(seed, list(ALL)).log)
    assert {EventKind.MODULE, EventKind.WIND, EventKind.WEATHER} <= seen


def test_docs_events_has_a_table_per_kind_with_its_payloads_keys():
    doc = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    sections = re.split(r"^### `([a-z-]+)`$", doc, flags=re.M)
    tables = dict(zip(sections[1::2], sections[2::2]))
    assert set(tables) == {k.value for k in EventKind}
    for kind, payload in PAYLOADS.items():
        text = tables[kind.value].split("\n## ", 1)[0]
        keys = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.M))
        assert keys == payload.__required_keys__ | payload.__optional_keys__, kind
        assert f"`events.{payload.__name__}`" in text, kind


# -- narration keyed by kind ----------------------------------------------------------------
def test_every_kind_has_a_phrase():
    assert set(PHRASES) == set(EventKind)


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_every_campaigns_run_narrates_through_the_phrases(path):
    scene = load(path).build(2)
    loop.run(scene, AutoController())
    for verbose in (False, True):
        lines = Narrator(building=scene.building, verbose=verbose).narrate_all(scene.log)
        assert lines and all(isinstance(line, str) and line for line in lines)
    said = {e.kind for e in scene.log if narrate(e, verbose=True, building=scene.building)}
    assert said == {e.kind for e in scene.log}  # verbose: every event has its line
