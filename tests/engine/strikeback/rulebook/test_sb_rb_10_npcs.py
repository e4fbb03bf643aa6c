"""Strikeback rulebook chapter 10, The NPCs: assignment and placement (10.1.2, os4's
Reinforcements), activation (10.2), combat (10.2.2), health (10.4).

NPCs show in the dump among the agents (with `drone_of` naming their controller) and in the
expansion's `npcs` record; the Knight reaches play in os4's and os6's first Strategy phase.
"""

from __future__ import annotations

from typing import Any

import pytest
from sb_probe import (
    act,
    adjacent,
    advance,
    dump,
    edit,
    fig,
    find,
    hexes,
    legal,
    on_top,
    stage,
    texts,
    to_turn,
)

HV_OFF = {"human-view": "off"}


def test_os4_knight_is_placed_adjacent_to_the_agent_it_is_assigned_to() -> None:
    """os4 Reinforcements / 10.1.2: the Knight card goes to an agent and its figure is placed
    adjacent to that agent."""
    state = to_turn("os4", ("marine", "biotech"))
    npcs = dump(state)["strikeback"]["npcs"]
    assert list(npcs) == ["knight-1"]
    controller = npcs["knight-1"]["controller"]
    knight, agent = fig(state, "knight-1"), fig(state, controller)
    assert knight is not None and agent is not None
    assert adjacent(state, knight.coord, agent.coord)


def npc_turn() -> Any:
    return stage(
        "os4",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "D7"},
        options=HV_OFF,
        npcs=True,
    )


def test_npc_may_be_activated_before_any_activity() -> None:
    """10.2: the controlling agent may activate his NPC before using any activity."""
    assert find(npc_turn(), "act", what="npc", target="knight-1")


def test_npc_activation_cannot_be_intermingled_with_activities() -> None:
    """10.2: once the agent has started his activities the NPC waits until they are done."""
    state = npc_turn()
    move = next(a for a in legal(state) if a.verb == "move")
    moved = act(state, "move", [6] * 5, **move.args).state
    assert not find(moved, "act", what="npc", target="knight-1")


def test_npc_is_always_activated_each_agent_turn() -> None:
    """10.2: NPCs must always be activated each agent turn: ending the turn without
    activating it runs its A.I. (it attacks an adjacent alien)."""
    state = stage(
        "os6",
        agents={"marine": "B9"},
        aliens=[("a1", "crimson-nightmare-green", "I5")],
        options=HV_OFF,
        npcs=True,
    )
    state = edit(state, lambda d: d["agents"]["knight-1"].update(hex=list(hexes(state)["I6"])))
    step = act(state, "end-turn", [1] * 20, unit="marine")
    assert "Knight 1 (NPC) attacks GREEN Crimson Nightmare a1" in texts(step.events)


def test_npc_weapons_never_jam() -> None:
    """10.2.2: NPCs ignore Jam and Ammo results (RED 4 is hit+jam)."""
    state = stage(
        "os6",
        agents={"marine": "B9"},
        aliens=[("a1", "xeno-alpha-blue-1", "I5")],
        options=HV_OFF,
        npcs=True,
    )
    state = edit(state, lambda d: d["agents"]["knight-1"].update(hex=list(hexes(state)["I6"])))
    step = act(state, "end-turn", [4] * 40, unit="marine")
    assert "Knight 1 (NPC) attacks" in texts(step.events)
    assert not any(w["jammed"] for w in dump(step.state)["agents"]["knight-1"]["weapons"])


def test_npc_cannot_be_healed_by_agents() -> None:
    """10.4: an NPC cannot be healed with the agents' healing weapons, powers or items."""
    state = stage(
        "os4",
        ("biotech", "marine"),
        agents={"biotech": "E7", "marine": "D7"},
        options=HV_OFF,
        npcs=True,
    )
    f7 = hexes(state)["F7"]
    state = edit(
        state,
        lambda d: (
            d["agents"]["knight-1"].update(wounds=3, hex=list(f7)),
            d["agents"]["marine"].update(wounds=2),
        ),
    )
    targets = {
        a.args.get("target")
        for a in legal(state, "biotech")
        if a.verb == "attack" or a.args.get("what") not in (None, "npc")
    }
    assert "marine" in targets  # the healer can heal a wounded agent next to him
    assert "knight-1" not in targets


def dying_npc() -> Any:
    state = stage(
        "os6",
        agents={"marine": "B9"},
        aliens=[("a1", "crimson-nightmare-green", "I5")],
        options=HV_OFF,
        npcs=True,
    )
    i6 = hexes(state)["I6"]
    state = edit(state, lambda d: d["agents"]["knight-1"].update(wounds=5, hex=list(i6)))
    ended = act(state, "end-turn", [1] * 20, unit="marine").state
    return advance(on_top(ended, "ce_deck", "os-01"), [6, 5, 4, *[6] * 60], [0] * 60).state


def test_npc_dies_at_its_health_with_no_bleeding() -> None:
    """10.4: at wounds equal to its Health an NPC dies (no Bleeding): the figure leaves."""
    assert fig(dying_npc(), "knight-1") is None


@pytest.mark.xfail(
    strict=True,
    reason="a dead NPC's card stays assigned in the expansion's NPC record; the NPC discard "
    "pile stays empty",
)
def test_dead_npc_card_goes_to_the_npc_discard_pile() -> None:
    """10.4: the dead NPC's card is placed in the (NPC) discard pile, so it is no longer
    assigned and can come back when the deck is reshuffled (10.1.1)."""
    sb = dump(dying_npc())["strikeback"]
    assert "knight-1" in sb["npc_discard"]
    assert "knight-1" not in sb["npcs"]
