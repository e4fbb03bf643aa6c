"""Shared helpers for the Forlorn: Hope tests: build a bare board and place units on it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.core.dice import SeededDice
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.state import ForlornState, Unit

Place = Callable[..., Unit]


def unit(state: ForlornState, uid: str) -> Unit:
    """The unit `uid`, which the test knows is in the operation."""
    found = state.unit(uid)
    assert found is not None, f"no unit {uid!r}"
    return found


def bare(scenario: str = "solo-a", seats: list[str] | None = None, **options: str) -> ForlornState:
    """A fresh operation with every unit taken off the map, in the Marine phase of turn 1."""
    state = GAME.new(
        scenario, seats or ["marines"], {"difficulty": "standard", **options}, SeededDice(7)
    )
    for u in state.units:
        if u.status == "active":
            u.status = "pool" if u.side == "xenos" else "dead"
            u.at = None
    state.phase = "marine"
    state.ap = 6
    state.floor_items = {}
    return state


def put(
    state: ForlornState, uid: str, at: str, facing: str | None = None, kind: str | None = None
) -> Unit:
    u = state.unit(uid)
    assert u is not None, uid
    u.status, u.at = "active", at
    if facing:
        u.facing = facing
    if kind:
        u.kind = kind
        u.name = f"{kind.title()} {uid.upper()}"
    return u


@pytest.fixture
def fresh() -> Callable[..., ForlornState]:
    return bare


def xeno_plays(state: ForlornState) -> list[Action]:
    """The Xeno seat's legal actions but her standing reaction rules (listed at any time)."""
    return [a for a in GAME.legal_actions(state, "xeno") if a.verb != "orders"]
