"""The GM's overrides act through the scene and leave a record in the log."""

from __future__ import annotations

import pytest
from builders import TWO_ROOMS, grid, scene

from fuego.engine.events import EventKind
from fuego.engine.heroes import Hero
from fuego.errors import RuleError
from fuego.rules.charts import Structure, Temperature
from fuego.table import gm
from fuego.world.places import BarrierKind


def _scene():
    b = grid([("ground", 0, ["kkhe"])], TWO_ROOMS,
             edges={("B1", "C1"): (BarrierKind.DOOR, Structure.WOODEN_DOOR, True)})
    s = scene(b)
    s.heroes.append(Hero("Ana", b.area("A1").index))
    return s, b


def test_gm_starts_and_sizes_fires():
    s, b = _scene()
    fire = gm.start_fire(s, "ground:A1", 4, temperature="hot")
    assert fire is not None
    assert fire.fd == 4 and fire.temperature is Temperature.HOT
    gm.set_fire_dice(s, "A1", 7)
    assert fire.fd == 7
    gm.set_fire_dice(s, "A1", 0)
    assert not s.fires and not b.areas[b.find("A1")].burned_out
    with pytest.raises(RuleError, match="nothing burns"):
        gm.start_fire(s, "D1", 3)
    with pytest.raises(RuleError, match="no area"):
        gm.start_fire(s, "Z9", 3)
    assert [e.data["action"] for e in s.log if e.kind is EventKind.GM] == [
        "start-fire", "set-fire-dice", "set-fire-dice"]


def test_gm_opens_closes_and_breaks_barriers():
    s, b = _scene()
    door = b.between(b.find("B1"), b.find("C1"))
    gm.barrier(s, "B1 C1", "open")
    assert door.passable
    gm.barrier(s, door.name, "close")
    assert not door.passable
    gm.barrier(s, "ground:B1-ground:C1", "break")
    assert door.destroyed and door.passable
    with pytest.raises(RuleError):
        gm.barrier(s, "A1 B1", "open")  # an archway has nothing to open
    with pytest.raises(RuleError, match="no barrier"):
        gm.barrier(s, "A1 D1", "open")


def test_gm_moves_heroes_and_ends_the_scene():
    s, b = _scene()
    gm.move_hero(s, "ana", "C1")
    assert s.hero("Ana").area == b.find("C1")
    with pytest.raises(RuleError, match="no character"):
        gm.move_hero(s, "Bob", "C1")
    gm.end_scene(s)
    assert s.ended


def test_event_data_cannot_shadow_the_record_fields():
    s, _ = _scene()
    with pytest.raises(ValueError, match="kind"):
        s.emit(EventKind.GM, "GM", None, kind="henchman")
