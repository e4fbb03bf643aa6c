"""Strikeback rulebook chapter 5, Terrain Structures: the Barrier Hex Side (5.1).

os1's map has a Barrier between C7 and D7 (read from the view's edges); the agent stands at
D7 with Human View off so facing plays no part.
"""

from __future__ import annotations

from sb_probe import find, legal, stage, view

HV_OFF = {"human-view": "off"}


def test_os1_map_has_the_barrier_the_probes_use() -> None:
    state = stage("os1", agents={"marine": "D7"}, options=HV_OFF)
    kinds = {frozenset((e.a, e.b)): e.kind for e in view(state).edges}
    assert kinds.get(frozenset(("C7", "D7"))) == "barrier"


def test_barrier_cannot_be_crossed_on_foot() -> None:
    """5.1: a Barrier side may not be crossed (except by Flying/Burrowing): the hex beyond it
    is not one step away."""
    state = stage("os1", agents={"marine": "D7"}, options=HV_OFF)
    labels = [a.label for a in legal(state) if a.verb == "move"]
    assert "C7 - 1 MP" not in labels
    assert "D6 - 1 MP" in labels  # an open side next to it is one step


def test_barrier_does_not_block_line_of_sight() -> None:
    """5.1: a Barrier does not block line of sight; a ranged attack across it is allowed."""
    state = stage(
        "os1", agents={"marine": "D7"}, aliens=[("a1", "xeno-beta-green-1", "B7")], options=HV_OFF
    )
    assert find(state, "attack", target="a1", weapon="improved-rifle")


def test_hexes_across_a_barrier_are_adjacent() -> None:
    """5.1: hexes separated by a Barrier are still adjacent: an alien just across it engages
    the agent in combat (Evade is what leaves it)."""
    state = stage(
        "os1", agents={"marine": "D7"}, aliens=[("a1", "xeno-beta-green-1", "C7")], options=HV_OFF
    )
    assert find(state, "act", what="evade")
    assert find(state, "attack", target="a1")
