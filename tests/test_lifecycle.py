"""The fire's lifecycle has one owner (issue 29, step 4): fires are born through the machine's
``kindle`` trigger, nothing but the machine writes a fire's state, and one rank enum carries
the wound limits of heroes and fires alike."""

from __future__ import annotations

import ast
import enum
from pathlib import Path

import pytest
from builders import TWO_ROOMS, grid, lit, scene

from fuego.engine.events import EventKind
from fuego.engine.fire import Fire, FireState, Trigger
from fuego.engine.heroes import Hero
from fuego.engine.rule_module import RuleModule
from fuego.engine.scene import Cause, Scene
from fuego.errors import RuleError
from fuego.rules import charts
from fuego.rules.charts import Rank
from fuego.rules.formulas import crippled_at, fuel_eaten, knocked_out_at

FUEGO = Path(__file__).resolve().parent.parent / "fuego"


def _row() -> Scene:
    """Five wooden areas in a row: a kitchen of three, a hall of two."""
    return scene(grid([("ground", 0, ["kkkhh"])], TWO_ROOMS))


def _attribute_writes(tree: ast.AST, name: str, *, own: bool = True) -> list[int]:
    """Lines that assign an attribute ``name`` (``x.name = ...``, ``+=``, annotated) or set it
    with ``setattr(x, "name", ...)``; ``own=False`` leaves out ``self.name``: an object's own."""
    lines = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "setattr" and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and node.args[1].value == name):
            lines.append(node.lineno)
            continue
        else:
            continue
        for t in targets:
            for sub in ast.walk(t):
                if (isinstance(sub, ast.Attribute) and sub.attr == name
                        and (own or not (isinstance(sub.value, ast.Name)
                                         and sub.value.id == "self"))):
                    lines.append(node.lineno)
    return lines


def _state_writes(tree: ast.AST) -> list[int]:
    return _attribute_writes(tree, "state")


def _temperature_writes(tree: ast.AST) -> list[int]:
    """A fire writes its own temperature only in the machine's callback (``Fire.heated``) and
    at birth: writes to another object's are what this finds."""
    return _attribute_writes(tree, "temperature", own=False)


def test_no_code_writes_a_state_outside_the_machine():
    found = [f"{p.relative_to(FUEGO.parent)}:{line}" for p in sorted(FUEGO.rglob("*.py"))
             for line in _state_writes(ast.parse(p.read_text(encoding="utf-8")))]
    assert found == []


def test_the_scan_finds_each_way_of_writing_a_state():
    code = "f.state = 1\nf.state += 1\na.b.state: int = 2\nsetattr(f, 'state', 3)\nf.stats = 4\n"
    assert _state_writes(ast.parse(code)) == [1, 2, 3, 4]


def test_a_fire_is_kindling_until_the_machine_kindles_it():
    s = _row()
    fire = Fire(99, 0, 3, 5)
    # one comparison, so that mypy does not narrow ``fire.state`` for the rest of the test
    assert (fire.state, Fire.machine.initial) == (FireState.KINDLING, FireState.KINDLING.name)
    for trigger in (Trigger.BLAZE, Trigger.HEAT, Trigger.WOUND):
        assert not fire.may(trigger)
    assert fire.trigger(Trigger.KINDLE, s) and fire.state is FireState.BURNING
    with pytest.raises(RuleError):
        fire.trigger(Trigger.KINDLE, s)  # born once
    with pytest.raises(TypeError):
        Fire(1, 0, 3, 5, state=FireState.BURNING)  # type: ignore[call-arg]  # no state by hand


def test_the_kindle_conditions_decide_flame_or_burning():
    class Flames(RuleModule):
        name = "flames"

        def starts_as_flame(self, scene, fire):
            return fire.fd < 3

    s = _row()
    burning = s.start_fire(0, 4, Cause.GM)
    assert burning is not None
    flame = s.start_fire(1, 2, Cause.GM, flame=True)
    assert flame is not None
    assert (burning.state, flame.state) == (FireState.BURNING, FireState.FLAME)
    born = [e.data["state"] for e in s.log if e.kind is EventKind.FIRE_STARTED]
    assert born == ["burning", "flame"]  # the birth is logged once, as fire_started
    assert not [e for e in s.log if e.kind is EventKind.FIRE_STATE]
    s2 = _row()
    s2.modules.append(Flames())
    assert [lit(s2, i, fd, Cause.GM).state for i, fd in enumerate((2, 5))] == [
        FireState.FLAME, FireState.BURNING]


def test_a_saved_fire_comes_back_in_its_state():
    s = _row()
    fire = s.start_fire(0, 4, Cause.GM)
    assert fire is not None
    fire.trigger(Trigger.HEAT, s, "test")
    back = Fire.from_dict(fire.to_dict())
    assert back.state is FireState.BURNING and back.temperature is charts.Temperature.HOT
    assert back.to_dict() == fire.to_dict()
    assert back.may(Trigger.WOUND) and not back.may(Trigger.KINDLE)
    # an older fuego saved a flashed-over fire in a "hot" state: it is burning, and hot
    old = {**fire.to_dict(), "state": "hot"}
    assert Fire.from_dict(old).to_dict() == fire.to_dict()


def test_hot_is_stored_once_as_the_temperature_the_machine_sets():
    assert "HOT" not in FireState.__members__  # hot is a temperature, not a state
    found = [f"{p.relative_to(FUEGO.parent)}:{line}" for p in sorted(FUEGO.rglob("*.py"))
             for line in _temperature_writes(ast.parse(p.read_text(encoding="utf-8")))]
    assert found == []
    assert _temperature_writes(ast.parse("f.temperature = 1\nself.temperature = 2\n")) == [1]
    # a flashover heats every fire in the room, whatever its state, through ``heat``
    s = _row()
    fires = [lit(s, i, 3, Cause.GM, kind=Rank.VILLAIN) for i in range(3)]
    fires[1].dramatic = fires[1].resolve
    assert s.lifecycle(fires[1], Trigger.WOUND, None) and fires[1].state is FireState.GUTTERING
    s.round = 1
    from fuego.engine.rounds import check_flashover

    check_flashover(s)
    assert "kitchen" in s.flashed
    assert [(f.state, f.temperature) for f in fires] == [
        (FireState.BURNING, charts.Temperature.HOT), (FireState.GUTTERING, charts.Temperature.HOT),
        (FireState.BURNING, charts.Temperature.HOT)]
    assert [e.kind for e in s.log if e.kind in (EventKind.FLASHOVER, EventKind.FIRE_STATE)] == [
        EventKind.FIRE_STATE, EventKind.FLASHOVER]  # the guttering, then the flashover's line
    # a hot fire merging into a regular one heats it, and the merge says so
    s2 = _row()
    fire = s2.start_fire(0, 2, Cause.GM)
    assert fire is not None
    assert s2.start_fire(0, 1, Cause.GM, temperature=charts.Temperature.HOT) is fire
    assert fire.temperature is charts.Temperature.HOT
    assert s2.log[-1].kind is EventKind.FIRE_MERGED and s2.log[-1].data["temperature"] == "hot"


def test_one_rank_enum():
    ranks = [c for p in sorted(FUEGO.rglob("*.py"))
             for c in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(c, ast.ClassDef) and any(
                 isinstance(t, ast.Name) and t.id == "HENCHMAN"
                 for n in c.body if isinstance(n, ast.Assign) for t in n.targets)]
    assert [c.name for c in ranks] == ["Rank"]
    assert issubclass(charts.Rank, enum.Enum) and not hasattr(charts, "FireKind")


@pytest.mark.parametrize("resolve", [0, 1, 3])
def test_wound_limits_by_rank_written_once(resolve):
    r = max(1, resolve)
    assert [knocked_out_at(k, resolve) for k in (Rank.HENCHMAN, Rank.VILLAIN, Rank.HERO)] == [
        r, 2 * r, 2 * r]
    assert crippled_at(Rank.HENCHMAN, resolve) is None
    assert crippled_at(Rank.VILLAIN, resolve) == crippled_at(Rank.HERO, resolve) == resolve
    assert fuel_eaten(Rank.VILLAIN, 7) == 3 and fuel_eaten(Rank.HENCHMAN, 7) == 7
    for rank in (Rank.HENCHMAN, Rank.VILLAIN):  # heroes and fires read the same limit
        hero = Hero("x", 0, resolve=resolve, rank=rank)
        fire = Fire(1, 0, 3, resolve, kind=rank)
        assert hero.knocked_out_at == fire.knocked_out_at == knocked_out_at(rank, resolve)


def test_the_machine_finds_each_state_as_transitions_does():
    # The lifecycle keeps each state as first looked up (by member or by name): the same
    # State object transitions' own lookup gives, its name the member's, an unknown refused.
    from transitions import Machine

    for state in FireState:
        found = Machine.get_state(Fire.machine, state)
        assert Fire.machine.get_state(state) is found is Fire.machine.get_state(state.name)
        assert found.name == state.name and found.value is state
    with pytest.raises(ValueError):
        Fire.machine.get_state("HOT")
    fire = Fire(1, 0, 3, 5)
    for state in FireState:  # a fire's state too: the one dict, as transitions finds it
        Fire.machine.set_state(state, fire)
        assert Fire.machine.get_model_state(fire) is Machine.get_model_state(Fire.machine, fire)


def test_the_machine_takes_its_conditions_as_callables_of_the_event():
    # (called as they are, not resolved by name at each check: a name is refused when built)
    from fuego.engine.fire import _Lifecycle

    with pytest.raises(TypeError, match="LIFECYCLE: condition 'spent' is not a callable"):
        _Lifecycle(model=None, states=[FireState.BURNING, FireState.OUT],
                   initial=FireState.BURNING, auto_transitions=False,
                   transitions=[{"trigger": "wound", "source": FireState.BURNING,
                                 "dest": FireState.OUT, "conditions": "spent"}])


def test_a_trigger_its_state_does_not_allow_is_a_rule_error_and_changes_nothing():
    s = _row()
    fire = lit(s, 0, 3, Cause.GM)
    before = len(s.log)
    with pytest.raises(RuleError, match="a burning fire cannot kindle"):
        fire.trigger(Trigger.KINDLE, s)
    assert fire.state is FireState.BURNING and len(s.log) == before
