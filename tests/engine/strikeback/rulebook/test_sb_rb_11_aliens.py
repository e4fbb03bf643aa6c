"""Strikeback rulebook chapter 11, The Aliens: the Menace system (11.3, 11.3.1), Activate X
Close Encounters (11.5, 11.9.1) and Multiple Energy Shielded Armor (11.7).

Energy Shield stacks are read from the expansion's `stacks` record of the dump (left stack
first). The Wormoon is staged from its card with its second base hex in `bodies`; the top
Close Encounter discard is #1 (All aliens) so the burrowing worm can be targeted.
"""

from __future__ import annotations

from typing import Any

import pytest
from sb_probe import (
    GAME,
    act,
    adjacent,
    advance,
    dump,
    edit,
    fig,
    hexes,
    legal,
    on_top,
    quiet_round,
    stage,
    texts,
    to_turn,
    waiting,
)

from engine.core.dice import ScriptedDice

HV_OFF = {"human-view": "off"}


# --- 11.3 / 11.3.1 Master Aliens and the Menace token -------------------------------------


def test_master_alien_card_and_menace_go_to_the_alpha_at_level_1() -> None:
    """11.3.1 / os6 Reinforcements: the Alpha Agent holds the Wormoon's card and the Menace
    token at Level 1."""
    state = to_turn("os6", ("biotech", "marine"))
    data = dump(state)
    assert data["strikeback"]["menace"] == {"owner": data["alpha"], "level": 1}
    worm = next(a for a in data["aliens"] if a["card"].startswith("wormoon"))
    assert worm["controller"] == data["alpha"]


def worm(owner: str, level: int) -> Any:
    """Biotech's turn (he is Alpha), the Wormoon at G7-H7, the Menace with `owner`."""
    state = stage(
        "os6",
        ("biotech", "marine"),
        agents={"marine": "E7", "biotech": "D7"},
        aliens=[("w1", "wormoon-1", "G7")],
        options=HV_OFF,
    )
    h7 = hexes(state)["H7"]

    def change(data: dict[str, Any]) -> None:
        data["strikeback"]["bodies"] = {"w1": [list(h7)]}
        data["strikeback"]["menace"] = {"owner": owner, "level": level}
        deck = data["ce_deck"]
        deck["draw_pile"] = [c for c in deck["draw_pile"] if c != "os-01"]
        deck["discard_pile"] = [*deck["discard_pile"], "os-01"]

    return edit(state, change)


def menace_actions(state: Any) -> set[str]:
    return {
        a.args.get("what", "")
        for a in legal(state, "biotech")
        if a.verb == "act" and "menace" in a.args.get("what", "")
    }


def menace_after(state: Any, what: str) -> dict[str, Any]:
    step = act(state, "act", [6] * 10, seat="biotech", unit="biotech", what=what)
    result: dict[str, Any] = dump(step.state)["strikeback"]["menace"]
    return result


def wound_worm(state: Any) -> dict[str, Any]:
    step = act(
        state,
        "attack",
        [5, 5, 5, *[4] * 10],
        seat="biotech",
        unit="biotech",
        target="w1",
        weapon="heavy-shotgun",
    )
    assert "takes 0 Wound" not in texts(step.events)
    result: dict[str, Any] = dump(step.state)["strikeback"]["menace"]
    return result


def test_menacing_agent_may_raise_the_menace_with_his_action() -> None:
    """11.3.1: the Menacing Agent may spend his Action to raise the token from 1 to 2."""
    state = worm("biotech", 1)
    assert "menace-up" in menace_actions(state)
    assert menace_after(state, "menace-up") == {"owner": "biotech", "level": 2}


def test_menacing_agent_may_lower_the_menace_with_his_action() -> None:
    """11.3.1: ... or lower it from 2 to 1."""
    state = worm("biotech", 2)
    assert menace_after(state, "menace-down") == {"owner": "biotech", "level": 1}


def test_other_agent_takes_a_level_1_menace_with_his_action() -> None:
    """11.3.1: any other agent may spend his Action to take a Level 1 token."""
    state = worm("marine", 1)
    assert menace_after(state, "menace-take") == {"owner": "biotech", "level": 1}


def test_other_agent_only_lowers_a_level_2_menace() -> None:
    """11.3.1: at Level 2 another agent's Action only lowers it to 1 on its owner (the token
    must be at Level 1 to change agents)."""
    state = worm("marine", 2)
    assert "menace-take" not in menace_actions(state)
    assert menace_after(state, "menace-down") == {"owner": "marine", "level": 1}


def test_menacing_agent_wounding_the_master_raises_the_menace() -> None:
    """11.3.1: the Menacing Agent dealing a wound flips the token to Level 2."""
    assert wound_worm(worm("biotech", 1)) == {"owner": "biotech", "level": 2}


def test_other_agent_wounding_a_level_1_master_takes_the_menace() -> None:
    """11.3.1: another agent's wound at Level 1 passes the token to him, Level 1."""
    assert wound_worm(worm("marine", 1)) == {"owner": "biotech", "level": 1}


def test_other_agent_wounding_a_level_2_master_lowers_the_menace() -> None:
    """11.3.1: another agent's wound at Level 2 lowers it to Level 1 on its owner."""
    assert wound_worm(worm("marine", 2)) == {"owner": "marine", "level": 1}


# --- 11.5 / 11.9.1 Activate X -------------------------------------------------------------


def lone_strike(controllers: dict[str, str], paralyzed: str = "") -> str:
    """Close Encounter #22 (activate one alien) with a Xeno-Delta a1 and a Xeno-Gamma a2."""
    state = stage(
        "os6",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "D7"},
        aliens=[("a1", "xeno-delta-green", "F7"), ("a2", "xeno-gamma-green", "C9")],
        options=HV_OFF,
    )

    def change(data: dict[str, Any]) -> None:
        for alien in data["aliens"]:
            alien["controller"] = controllers[alien["id"]]
            if alien["id"] == paralyzed:
                alien["conditions"] = ["paralyze"]

    state = edit(state, change)
    ended = act(state, "end-turn", [1] * 10, unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-22"), [4] * 60, [0] * 60)
    return "\n".join(x for x in texts(step.events).split("\n") if " activates " in x)


def test_activate_x_starts_with_the_alpha_agents_aliens() -> None:
    """11.5: Activate X selects aliens controlled by the Alpha Agent first."""
    assert lone_strike({"a1": "biotech", "a2": "marine"}).startswith("Green Xeno-Gamma a2")
    assert lone_strike({"a1": "marine", "a2": "biotech"}).startswith("Green Xeno-Delta a1")


def test_activate_x_skips_a_paralyzed_alien() -> None:
    """11.5 / 11.9.1: a Paralyzed alien cannot be selected for #22 while others are in play."""
    assert lone_strike({"a1": "marine", "a2": "marine"}, paralyzed="a1").startswith(
        "Green Xeno-Gamma a2"
    )
    assert lone_strike({"a1": "marine", "a2": "marine"}, paralyzed="a2").startswith(
        "Green Xeno-Delta a1"
    )


# --- 11.7 Multiple Energy Shielded Armor --------------------------------------------------


def stacks_after_attack(card: str, stacks: list[int] | None) -> list[int]:
    state = stage("os1", agents={"marine": "E7"}, aliens=[("a1", card, "G7")], options=HV_OFF)
    if stacks is not None:
        state = edit(state, lambda d: d["strikeback"]["stacks"].update(a1=stacks))
    step = act(
        state,
        "attack",
        [6, 6, 6, 6, *[4] * 10],
        unit="marine",
        target="a1",
        weapon="improved-rifle",
    )
    result: list[int] = dump(step.state)["strikeback"]["stacks"]["a1"]
    return result


def test_stack_with_most_shields_blocks() -> None:
    """11.7: the stack with the most shields left is selected and only it absorbs (Blue
    Xeno-Delta, stacks 2 and 1: the left one absorbs 2, the right keeps its 1)."""
    assert stacks_after_attack("xeno-delta-blue", None) == [0, 1]


def test_tied_stacks_select_the_left_one() -> None:
    """11.7: on a tie the left stack is selected; the right one is untouched."""
    assert stacks_after_attack("xeno-delta-green", [1, 1]) == [0, 1]


def test_empty_left_stack_selects_the_right_one() -> None:
    """11.7 (example 2): left 0, right 1: the right one absorbs."""
    assert stacks_after_attack("xeno-delta-blue", [0, 1]) == [0, 0]


def test_both_stacks_refresh_in_the_refresh_phase() -> None:
    """11.7: both stacks completely refresh in each Refresh phase."""
    state = stage(
        "os6", agents={"marine": "B9"}, aliens=[("a1", "xeno-delta-blue", "I5")], options=HV_OFF
    )
    state = edit(state, lambda d: d["strikeback"]["stacks"].update(a1=[0, 0]))
    after = quiet_round(state)
    assert dump(after)["strikeback"]["stacks"]["a1"] == [2, 1]


# --- 11.6 Prime Swarm -----------------------------------------------------------------------


def test_prime_swarm_card_brings_two_figures_with_their_own_health() -> None:
    """11.6: a Prime Swarm card (Diggers) is two figures, each with its own Health points,
    the second placed adjacent to the first (Mission 6's first special event places them)."""
    state = to_turn("os6", ("marine",))
    state = quiet_round(on_top(state, "event_deck", "os6-b"), card="os-04")
    data = dump(state)
    blue = [a for a in data["aliens"] if a["card"] == "diggers-blue"]
    assert len(blue) == 2
    assert data["strikeback"]["swarms"][blue[0]["id"]] == blue[1]["id"]
    first, second = (fig(state, a["id"]) for a in blue)
    assert first is not None and second is not None
    assert first.max_health == second.max_health == first.health
    assert adjacent(state, first.coord, second.coord)


def swarm_pair() -> Any:
    state = stage(
        "os6",
        agents={"marine": "E7"},
        aliens=[("a1", "diggers-green", "F7"), ("a2", "diggers-green", "E6")],
        options=HV_OFF,
    )

    def change(data: dict[str, Any]) -> None:
        data["strikeback"]["swarms"] = {"a1": "a2", "a2": "a1"}
        data["ce_deck"]["discard_pile"].append("os-26")

    return edit(state, change)


def kill(state: Any, target: str) -> Any:
    step = act(
        state, "attack", [5, 5, 5, 5, *[4] * 20], unit="marine", target=target, weapon="ion-lance"
    )
    assert f"{target} dies" in texts(step.events)
    return step.state


def test_prime_swarm_card_stays_while_one_figure_lives() -> None:
    """11.6: each figure defends alone; the card is discarded only when all figures died."""
    state = kill(swarm_pair(), "a1")
    assert fig(state, "a2") is not None
    assert "diggers-green" not in dump(state)["alien_deck"]["discard_pile"]


def test_prime_swarm_card_discarded_when_both_died() -> None:
    """11.6: with both figures dead the Alien card goes to the discard pile."""
    state = kill(swarm_pair(), "a1")
    state = edit(state, lambda d: d["agents"]["marine"].update(combat_used=False))
    state = kill(state, "a2")
    assert "diggers-green" in dump(state)["alien_deck"]["discard_pile"]


# --- 11.9.1 Paralyzed aliens and 11.3 Master Alien immunity --------------------------------


def activation_with_paralyze(card: str) -> str:
    """The alien (staged Paralyzed, the condition key the view shows as "paralyzed") under
    Close Encounter #1 (All aliens)."""
    state = stage("os6", agents={"marine": "E7"}, aliens=[("a1", card, "F7")], options=HV_OFF)
    g7 = hexes(state)["G7"]

    def change(data: dict[str, Any]) -> None:
        data["aliens"][0]["conditions"] = ["paralyze"]
        if card.startswith("wormoon"):
            data["strikeback"]["bodies"] = {"a1": [list(g7)]}

    state = edit(state, change)
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-01"), [4] * 60, [0] * 60)
    return str(texts(step.events))


def test_paralyzed_alien_skips_its_activation() -> None:
    """11.9.1: a Paralyzed alien skips all activations until the condition goes."""
    log = activation_with_paralyze("xeno-delta-green")
    assert "a1 activates" not in log


def activations(card: str, aliens: list[tuple[str, str, str]], npcs: bool = False) -> list[str]:
    """Every alien the Alpha Agent's Aliens turn activates under `card`, all aliens his, a tie
    answered with the first offer; returns the activation lines."""
    state = stage(
        "os6",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "D7"},
        aliens=aliens,
        options=HV_OFF,
        npcs=npcs,
    )
    state = edit(state, lambda d: [a.update(controller="marine") for a in d["aliens"]])
    ended = act(state, "end-turn", [1] * 20, unit="marine").state
    step = advance(on_top(ended, "ce_deck", card), [4] * 80, [0] * 60)
    lines = texts(step.events).split("\n")
    state = step.state
    for _ in range(6):
        prompt = waiting(state)
        if prompt.kind != "choice":
            break
        step = GAME.apply(
            state, prompt.seats[0], legal(state, prompt.seats[0])[0], ScriptedDice([4] * 80)
        )
        state = step.state
        lines += texts(step.events).split("\n")
    return [x for x in lines if " activates" in x]


FOUR = [
    ("a1", "xeno-delta-green", "F7"),
    ("a2", "xeno-gamma-green", "C9"),
    ("a3", "sentinels-green", "J5"),
    ("a4", "crimson-nightmare-green", "I9"),
]


def test_activate_x_highest_rank_first() -> None:
    """11.5 note: a tie for which alien to select goes to the highest rank (Blue before
    Green)."""
    lines = activations(
        "os-22", [("a1", "xeno-delta-green", "F7"), ("a2", "xeno-delta-blue", "C9")]
    )
    assert len(lines) == 1 and lines[0].startswith("Blue Xeno-Delta a2")


def test_activate_x_equal_rank_tie_is_the_alpha_agents_choice() -> None:
    """11.5 note: a tie still standing after rank is decided by the Alpha Agent (a prompt)."""
    state = stage(
        "os6",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "D7"},
        aliens=FOUR,
        options=HV_OFF,
    )
    state = edit(state, lambda d: [a.update(controller="marine") for a in d["aliens"]])
    ended = act(state, "end-turn", [1] * 20, unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-22"), [4] * 80, [0] * 60)
    prompt = waiting(step.state)
    assert prompt.kind == "choice" and prompt.seats == [dump(step.state)["alpha"]]
    assert {a.args.get("option") for a in legal(step.state, prompt.seats[0])} == {
        "a1",
        "a2",
        "a3",
        "a4",
    }


@pytest.mark.parametrize(("card", "count"), [("os-22", 1), ("os-23", 2), ("os-24", 3)])
def test_activate_one_two_three(card: str, count: int) -> None:
    """11.5: cards #22, #23, #24 activate 1, 2, 3 aliens."""
    assert len(activations(card, FOUR)) == count


@pytest.mark.parametrize("npcs", [False, True])
def test_activate_x_counts_agents_not_npcs(npcs: bool) -> None:
    """11.5: #25 activates as many aliens as there are agents in play, NPCs and drones not
    counted (two agents, with or without a Knight: two aliens)."""
    assert len(activations("os-25", FOUR, npcs=npcs)) == 2


# --- 11.8 Multi-hex Aliens -----------------------------------------------------------------


def area_shot_past_the_worm(head: str, base: str) -> str:
    """The Marine's Improved Rifle deals Area Damage to a Spine Critter at G8 (Area with G7,
    H7, H8, F8); the two-hex Wormoon's base is at `head` and `base`. Returns the narration."""
    state = stage(
        "os6",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "D7"},
        aliens=[("w1", "wormoon-1", head), ("a2", "spine-critter-green-1", "G8")],
        options=HV_OFF,
    )
    assert adjacent(state, head, base)
    second = hexes(state)[base]

    def change(data: dict[str, Any]) -> None:
        data["strikeback"]["bodies"] = {"w1": [list(second)]}
        data["agents"]["marine"]["weapons"][0] = {
            "key": "improved-rifle",
            "ammo": 3,
            "jammed": False,
        }
        deck = data["ce_deck"]
        deck["draw_pile"] = [c for c in deck["draw_pile"] if c != "os-01"]
        deck["discard_pile"] = [*deck["discard_pile"], "os-01"]

    step = act(
        edit(state, change),
        "attack",
        [5, 5, 5, *[4] * 30],
        unit="marine",
        target="a2",
        weapon="improved-rifle",
        mode="area",
    )
    log: str = texts(step.events)
    return log


def test_area_damage_hits_a_multi_hex_alien_with_one_base_hex_in_the_area() -> None:
    """11.8: Area Damage applies to a multi-hex alien if at least one hex of its base is in
    the targeted Area (the Wormoon's head at H6 is outside, its tail at H7 inside)."""
    log = area_shot_past_the_worm("H6", "H7")
    assert log.count("Wormoon w1 takes") == 1


def test_area_damage_hits_a_multi_hex_alien_once_whatever_its_hexes_in_the_area() -> None:
    """11.8: the Area Damage is applied once, however many base hexes are in the Area (both,
    G7 and H7, here): one defence, one wound line."""
    log = area_shot_past_the_worm("G7", "H7")
    assert log.count("Wormoon w1 takes") == 1
    assert log.count("w1 Energy Shield") + log.count("w1 defends") == 1


def test_area_damage_misses_a_multi_hex_alien_wholly_outside_the_area() -> None:
    """11.8 (the other side): with no base hex in the Area (H6 and I7), it is not hit."""
    log = area_shot_past_the_worm("H6", "I7")
    assert " w1 " not in log


def attackable(alien: tuple[str, str, str], tail: str | None = None) -> bool:
    """Whether the Marine at E7 (os6) is offered an attack on `alien` (id, card, hex), whose
    base also covers `tail` when given."""
    state = stage(
        "os6",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "B3"},
        aliens=[alien],
        options=HV_OFF,
    )
    if tail is not None:
        second = hexes(state)[tail]

        def change(data: dict[str, Any]) -> None:
            data["strikeback"]["bodies"] = {alien[0]: [list(second)]}
            deck = data["ce_deck"]
            deck["draw_pile"] = [c for c in deck["draw_pile"] if c != "os-01"]
            deck["discard_pile"] = [*deck["discard_pile"], "os-01"]

        state = edit(state, change)
    return any(a.verb == "attack" and a.args.get("target") == alien[0] for a in legal(state))


def test_multi_hex_alien_can_be_attacked_when_one_base_hex_is_in_sight() -> None:
    """11.8: a multi-hex alien can be attacked if at least one hex of its base is in L.O.S.
    From E7, a one-hex alien at C8 cannot be attacked and one at C7 (as far away) can; the
    Wormoon lying on C8 and C7 can be, whichever end is its head; on C8 and B8 it cannot."""
    assert not attackable(("a1", "spine-critter-green-1", "C8"))
    assert not attackable(("a1", "spine-critter-green-1", "B8"))
    assert attackable(("a1", "spine-critter-green-1", "C7"))
    assert attackable(("w1", "wormoon-1", "C8"), tail="C7")
    assert attackable(("w1", "wormoon-1", "C7"), tail="C8")
    assert not attackable(("w1", "wormoon-1", "C8"), tail="B8")
