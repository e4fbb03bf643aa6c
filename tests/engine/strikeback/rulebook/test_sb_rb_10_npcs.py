"""Strikeback rulebook chapter 10, The NPCs: assignment and placement (10.1.2, os4's
Reinforcements), activation (10.2), combat (10.2.2), health (10.4).

NPCs show in the dump among the agents (with `drone_of` naming their controller) and in the
expansion's `npcs` record; the Knight reaches play in os4's and os6's first Strategy phase.
"""

from __future__ import annotations

from typing import Any

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
    new,
    on_top,
    put_signal,
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
    assert "Knight 1 (NPC) attacks Green Crimson Nightmare a1" in texts(step.events)


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


def dying_npc(npc_signals: bool = False) -> Any:
    options = {**HV_OFF, "npc-signals": "on"} if npc_signals else HV_OFF
    state = stage(
        "os6",
        agents={"marine": "B9"},
        aliens=[("a1", "crimson-nightmare-green", "I5")],
        options=options,
        npcs=True,
    )
    i6 = hexes(state)["I6"]
    state = edit(state, lambda d: d["agents"]["knight-1"].update(wounds=5, hex=list(i6)))
    ended = act(state, "end-turn", [1] * 20, unit="marine").state
    return advance(on_top(ended, "ce_deck", "os-01"), [6, 5, 4, *[6] * 60], [0] * 60).state


def test_npc_dies_at_its_health_with_no_bleeding() -> None:
    """10.4: at wounds equal to its Health an NPC dies (no Bleeding): the figure leaves."""
    assert fig(dying_npc(), "knight-1") is None


def test_dead_npc_card_comes_back_when_the_deck_runs_out() -> None:
    """10.4 / 10.1.1: a dead NPC's card goes to the discard pile, and when the NPC deck runs
    out the discards are reshuffled: with the Knight 1 dead and the Knight 2 drawn, a further
    NPC Signal brings the Knight 1 back."""
    dead = dying_npc(npc_signals=True)
    assert fig(dead, "knight-1") is None
    d9, b8 = hexes(dead)["D9"], hexes(dead)["B8"]

    def clear_and_signal(data: dict[str, Any]) -> None:
        data["aliens"] = []
        put_signal(data, "s8", "npc-1", d9)

    state = edit(dead, clear_and_signal)
    state = act(state, "move", [6] * 10, unit="marine", to="C9").state
    assert fig(state, "knight-2") is not None
    state = edit(state, lambda d: put_signal(d, "s7", "npc-1", b8))
    state = act(state, "move", [6] * 10, unit="marine", to="C8").state
    knight = fig(state, "knight-1")
    assert knight is not None and knight.coord == "B8"


# --- 10.5 / 11.10.1 NPC Signals ---------------------------------------------------------------


def test_npc_signals_replace_one_human_signal() -> None:
    """10.5: to bring NPCs into a mission, replace one Human signal with an NPC signal."""
    plain = dump(new("os1", ("marine", "biotech")))["signal_reserve"]
    mixed = dump(new("os1", ("marine", "biotech"), **{"npc-signals": "on"}))["signal_reserve"]
    humans = [s for s in plain if s.startswith("human")]
    assert len(mixed) == len(plain)
    assert len([s for s in mixed if s.startswith("human")]) == len(humans) - 1
    assert len([s for s in mixed if s.startswith("npc")]) == 1


def reveal(state: Any) -> Any:
    """The Marine steps E7 -> F7 -> G7 and sees the NPC Signal staged at I8."""
    for to in ("F7", "G7"):
        state = act(state, "move", [6] * 20, unit="marine", to=to).state
    return state


def npc_signal_board(prep: Any = None) -> Any:
    state = stage(
        "os1",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "B9"},
        options={**HV_OFF, "npc-signals": "on"},
    )
    i8 = hexes(state)["I8"]

    def change(data: dict[str, Any]) -> None:
        put_signal(data, "s9", "npc-1", i8)
        if prep is not None:
            prep(data)

    return edit(state, change)


def test_revealed_npc_signal_becomes_the_top_npc_card() -> None:
    """11.10.1 / 10.1.2: a revealed NPC Signal is replaced by the NPC of the top NPC card,
    assigned (all tied at none: the Alpha Agent), and the Signal is discarded."""
    state = npc_signal_board()
    deck = dump(state)["strikeback"]["npc_deck"]
    after = reveal(state)
    data = dump(after)
    (top,) = data["strikeback"]["npcs"]
    assert top in deck and top not in data["strikeback"]["npc_deck"]
    assert data["strikeback"]["npcs"][top]["controller"] == data["alpha"]
    npc = fig(after, top)
    assert npc is not None and npc.coord == "I8"
    assert "npc-1" in data["signal_discard"]
    assert data["strikeback"]["npcs"][top]["tactic"]  # an NPC Tactic is placed on it (10.3)


def test_next_npc_goes_to_the_player_with_fewer_npcs() -> None:
    """10.1.2: the card goes to the first player clockwise from the Alpha Agent who has fewer
    NPC cards than the others."""
    first = reveal(npc_signal_board())
    data = dump(first)
    alpha = data["alpha"]
    other = "biotech" if alpha == "marine" else "marine"
    i5 = hexes(first)["I5"]
    second = edit(first, lambda d: put_signal(d, "s8", "npc-1", i5))
    second = edit(second, lambda d: d["agents"]["marine"].update(hex=list(hexes(first)["E7"])))
    second = edit(second, lambda d: d["agents"]["marine"].update(movement="unused", mp_left=4))
    after = reveal(second)
    controllers = [r["controller"] for r in dump(after)["strikeback"]["npcs"].values()]
    assert sorted(controllers) == sorted([alpha, other])
