"""Strikeback rulebook chapter 7, Special Movement Powers: Flying (7.1), Burrowing (7.2,
7.2.1) and Seize (7.3).

Flying is given to the agent by the Jet Boots device (staged into the expansion's device
list of the dump). The Close Encounter discard pile's top card is staged in the dump; the
expansion's own cards carry their printed numbers ("os-01" is #1, All aliens).
"""

from __future__ import annotations

from typing import Any

from sb_probe import act, adjacent, advance, edit, fig, find, legal, on_top, stage

HV_OFF = {"human-view": "off"}


def boots(state: Any) -> Any:
    return edit(state, lambda d: d["strikeback"]["devices"].update(marine=["jet-boots"]))


def discard_top(state: Any, card: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        deck = data["ce_deck"]
        deck["draw_pile"] = [c for c in deck["draw_pile"] if c != card]
        deck["discard_pile"] = [*[c for c in deck["discard_pile"] if c != card], card]

    return edit(state, change)


def test_flying_agent_crosses_a_barrier() -> None:
    """7.1.1: Flying lets an agent move through a Barrier side (Jet Boots, D7 over the
    C7|D7 Barrier to C7)."""
    state = boots(stage("os1", agents={"marine": "D7"}, options=HV_OFF))
    assert find(state, "act", what="jet-boots", to="C7")


def test_burrower_cannot_be_targeted_without_a_matching_card() -> None:
    """7.2.1: a Burrowing alien can be attacked only when the top Close Encounter discard
    clearly matches it; #22 (activate one alien) does not."""
    state = stage(
        "os6", agents={"marine": "E7"}, aliens=[("a1", "diggers-green", "F7")], options=HV_OFF
    )
    state = discard_top(state, "os-22")
    assert not find(state, "attack", target="a1")


def test_burrower_can_be_targeted_under_all_aliens_card() -> None:
    """7.2.1: #1 (All aliens) clearly matches: the Diggers can be attacked."""
    state = stage(
        "os6", agents={"marine": "E7"}, aliens=[("a1", "diggers-green", "F7")], options=HV_OFF
    )
    state = discard_top(state, "os-01")
    assert find(state, "attack", target="a1")


def test_burrower_can_be_targeted_under_burrowing_card() -> None:
    """7.2.1: #26 (the Burrowing power) clearly matches."""
    state = stage(
        "os6", agents={"marine": "E7"}, aliens=[("a1", "diggers-green", "F7")], options=HV_OFF
    )
    state = discard_top(state, "os-26")
    assert find(state, "attack", target="a1")


def test_burrower_never_engages() -> None:
    """7.2: Burrowing aliens never engage adjacent agents in combat, who may freely move away
    (no Evade needed, ordinary moves on offer)."""
    state = stage(
        "os6", agents={"marine": "E7"}, aliens=[("a1", "diggers-green", "F7")], options=HV_OFF
    )
    assert not find(state, "act", what="evade")
    assert any(a.verb == "move" for a in legal(state))


def test_seized_agent_is_dragged_and_left_adjacent() -> None:
    """7.3: a seizing creature drags an Immobilized agent with it even though he is engaged;
    when its movement ends the agent is placed adjacent to it (Flying Critter, Catcher:
    a Bolt immobilizes and the critter falls back carrying the agent)."""
    state = stage(
        "os6",
        agents={"marine": "E7"},
        aliens=[("a1", "flying-critter-green", "F7")],
        options=HV_OFF,
    )
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-01"), [5] * 60, [0] * 60)
    marine, critter = fig(step.state, "marine"), fig(step.state, "a1")
    assert marine is not None and critter is not None
    assert critter.coord != "F7"  # it moved
    assert marine.coord != "E7"  # and took the agent along
    assert adjacent(step.state, marine.coord, critter.coord)


def suit_and_biotech(condition: str | None) -> Any:
    """os5: the Marine wears the recalled Power Suit (Seize ability), the Biotech at D7."""
    state = stage(
        "os5", ("marine", "biotech"), agents={"marine": "E7", "biotech": "D7"}, options=HV_OFF
    )
    state = act(state, "act", [6] * 10, unit="marine", what="suit-recall", target="suit-1").state
    if condition is not None:
        state = edit(state, lambda d: d["agents"]["biotech"].update(conditions=[condition]))
    return state


def test_seize_needs_an_immobilized_paralyzed_or_bleeding_agent() -> None:
    """7.3: only an Immobilized, Paralyzed or Bleeding agent can be dragged."""
    assert not find(suit_and_biotech(None), "act", what="suit-seize")
    assert find(suit_and_biotech("immobilize"), "act", what="suit-seize", target="biotech")


def test_seized_agent_moves_with_the_seizer_and_lands_adjacent() -> None:
    """7.3: the seized agent moves with the dragging agent and is placed adjacent to him when
    the movement ends; no second seize the same turn."""
    state = act(
        suit_and_biotech("immobilize"),
        "act",
        [6] * 5,
        unit="marine",
        what="suit-seize",
        target="biotech",
    ).state
    far = [a for a in legal(state) if a.verb == "move"][-1]
    moved = act(state, "move", [6] * 5, **far.args).state
    marine, biotech = fig(moved, "marine"), fig(moved, "biotech")
    assert marine is not None and biotech is not None
    assert biotech.coord != "D7"
    assert adjacent(moved, marine.coord, biotech.coord)
    assert not find(moved, "act", what="suit-seize")
