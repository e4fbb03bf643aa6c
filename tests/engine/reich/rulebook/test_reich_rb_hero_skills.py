"""Rulebook, Hero Skills: Rage spends a Special Result on one extra die, once per Melee Test."""

from __future__ import annotations

from reich_probe import act, options, put, quiet

from engine.core.dice import ScriptedDice
from engine.core.events import Rolled


def test_rage_rolls_one_extra_die() -> None:
    state = quiet(["bjorn"], area="1D")
    put(state, "exp6xx", "1D", "x1")  # Defense 6
    dice = ScriptedDice([6, 1, 1, 5, 5])  # axe: star, blank, blank; then what Rage rolls
    state, _ = act(state, "bjorn", "attack", dice, unit="bjorn", target="x1", weapon="axe")
    state, _ = act(state, "bjorn", "choose", dice, option="roll")
    assert "rage" in options(state, "bjorn")
    state, events = act(state, "bjorn", "choose", dice, option="rage")
    rage = [e for e in events if isinstance(e, Rolled) and e.purpose == "rage"]
    assert len(rage) == 1 and len(rage[0].faces) == 1
    state, _ = act(state, "bjorn", "choose", dice, option="done")
    assert [e.id for e in state.enemies] == ["x1"]  # 2 (star) + 2 = 4 against Defense 6


def test_rage_is_offered_once_per_test() -> None:
    state = quiet(["bjorn"], area="1D")
    put(state, "exp6xx", "1D", "x1")
    dice = ScriptedDice([6, 6, 1, 1, 1])
    state, _ = act(state, "bjorn", "attack", dice, unit="bjorn", target="x1", weapon="axe")
    state, _ = act(state, "bjorn", "choose", dice, option="roll")
    state, _ = act(state, "bjorn", "choose", dice, option="rage")
    offered = options(state, "bjorn")
    assert "rage" not in offered and "extra" in offered  # the second star: standard rules
