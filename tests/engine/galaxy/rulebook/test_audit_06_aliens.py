"""Rulebook chapter "The Aliens": Close Encounter activation, A.I. behaviour rules by Areas,
target choice (most wounded, then fewest HP left), alien movement and combat exceptions.

Close Encounter cards are identified black-box by what they activate (Mission 1 deck): ce01
"Scout Chatter" activates Xeno-Betas, ce05 "Web Lines" Aracnos, ce03 "Skittering" Spine
Critters, ce07 "Commander's Call" none of Mission 1's species, ce02 "Flanking Fire" carries the
Danger symbol for Xeno-Betas. The chosen card is put on top of the deck by a dump edit.
"""

from __future__ import annotations

from typing import Any

import pytest
from galaxy_probe import (
    act,
    advance,
    aliens_turn,
    area,
    do,
    dump,
    edit,
    fig,
    legal,
    stage,
    texts,
    view,
)

from engine.core.errors import RuleError

HV_OFF = {"human-view": "off"}
THREE = [
    ("x1", "xeno-beta-green-1", "I6"),
    ("x2", "aracnos-green-1", "B3"),
    ("x3", "spine-critter-green-1", "C9"),
]


def coord(state: Any, uid: str) -> str | None:
    f = fig(state, uid)
    return None if f is None else f.coord


def test_close_encounter_activates_only_matching_species() -> None:
    """Alien Activation: the drawn card activates the aliens of the species it names, only them."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    step = aliens_turn(state, "ce05", [6] * 30)
    said = texts(step.events)
    assert "Aracnos 2 activates" in said
    assert "Xeno-Beta 1 activates" not in said and "Spine Critter 3 activates" not in said
    assert coord(step.state, "x2") != "B3"
    assert coord(step.state, "x3") == "C9"


def test_no_matching_alien_ends_the_aliens_turn() -> None:
    """Alien Activation: with no matching alien (and no Danger) the Aliens turn just ends."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    step = aliens_turn(state, "ce07", [6] * 30)
    assert "No matching alien" in texts(step.events)
    assert [coord(step.state, u) for u in ("x1", "x2", "x3")] == ["I6", "B3", "C9"]


def test_danger_card_teleports_when_nothing_matches() -> None:
    """Alien Activation, Danger: no matching alien on the map means new aliens teleport in."""
    state = stage(agents={"marine": "I3"}, options=HV_OFF)
    before = len([f for f in view(state).figures if f.side == "enemy"])
    step = aliens_turn(state, "ce02", [6] * 40)
    said = texts(step.events)
    assert "Danger" in said
    after = [f for f in view(step.state).figures if f.side == "enemy"]
    assert len(after) > before, said
    assert "Green Xeno-Beta 50 teleports in (Danger" in said


def test_danger_card_does_nothing_when_aliens_match() -> None:
    """Alien Activation, Danger: if a matching alien is on the map it is activated instead."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    step = aliens_turn(state, "ce02", [6] * 40)
    said = texts(step.events)
    assert "teleports in (Danger" not in said
    assert "Xeno-Beta 1 activates" in said


def test_alien_in_sight_at_one_area_shoots_then_falls_back() -> None:
    """Movement example: a Xeno-Beta 1 Area from an agent shoots its Blaster, then moves away."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce01", [6] * 30)
    said = texts(step.events)
    assert "Xeno-Beta 1 attacks Chromium (Marine) with Blaster" in said
    assert said.index("attacks Chromium") < said.index("Xeno-Beta 1 moves")
    assert area(step.state, coord(step.state, "x1") or "") != area(state, "I6")


def test_last_rule_moves_without_line_of_sight() -> None:
    """A.I.: with no rule applying, the last rule moves the alien toward an agent it cannot see."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    step = aliens_turn(state, "ce05", [6] * 30)
    assert "any distance, by a legal path" in texts(step.events)
    assert "moves B3 -> G5 (toward Chromium (Marine))" in texts(step.events)


def test_aliens_move_centre_to_centre() -> None:
    """Alien Movement: aliens move from the centre Hex of one Area to the centre of another."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    step = aliens_turn(state, "ce05", [6] * 30)
    end = coord(step.state, "x2")
    assert end is not None
    assert "centre" in next(c.marks for c in view(step.state).cells if c.coord == end)


def test_alien_attacks_most_wounded_agent() -> None:
    """Alien Combat: with several agents eligible, the alien attacks the most wounded one."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "J3"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(wounds=2, guard=False))
    step = aliens_turn(state, "ce01", [6] * 30)
    assert "Xeno-Beta 1 attacks Chromium (Marine)" in texts(step.events)


def test_alien_tie_breaks_on_fewest_hp_left() -> None:
    """Alien Combat: equal Wounds go to the agent with the fewest remaining HP (Biotech, 5 HP)."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "J3"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce01", [6] * 30)
    assert "Xeno-Beta 1 attacks Thorium (Biotech)" in texts(step.events)


def test_alien_ignores_ammo_and_jam() -> None:
    """Alien Combat: aliens ignore Ammo and Jam results (their weapons never jam)."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    # Blaster: BLUE faces 4 (bolt+ammo+jam) and 2 (hit+hit+shield); the Marine rolls alien twice.
    step = aliens_turn(state, "ce01", [4, 2, 1, 1] + [6] * 20)
    said = texts(step.events)
    assert "2 Hits, a Shield, a Bolt, an Ammo and a Jam - 2 Hits" in said
    assert fig(step.state, "marine").health == 4  # type: ignore[union-attr]


def test_alien_fail_face_is_no_hit() -> None:
    """Alien Combat: the Alien (fail) face is a die with no Hit."""
    state = stage(agents={"marine": "I3"}, aliens=THREE, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce01", [1, 1] + [6] * 20)
    assert "2 Aliens - no Hits" in texts(step.events)
    assert fig(step.state, "marine").health == 6  # type: ignore[union-attr]


def test_alien_killed_by_wounds_frees_its_card() -> None:
    """Alien Death: the dead alien's card goes to the Alien discard pile."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-green-1", "I6")], options=HV_OFF
    )
    state = edit(state, lambda d: d["aliens"][0].update(wounds=2))
    step = act(state, "attack", [3, 1, 1, 1], unit="marine", target="x1", weapon="assault-rifle")
    assert fig(step.state, "x1") is None
    assert "xeno-beta-green-1" in dump(step.state)["alien_deck"]["discard_pile"]


@pytest.mark.parametrize("alpha_owns", ["x1", "x2"])
def test_activation_starts_with_alpha_controlled_aliens(alpha_owns: str) -> None:
    """Alien Activation: matching aliens activate starting with those controlled by the Alpha
    Agent, then clockwise."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "C5"},
        aliens=[("x1", "xeno-beta-green-1", "I6"), ("x2", "xeno-beta-green-2", "B3")],
        options=HV_OFF,
    )

    def owners(data: dict[str, Any]) -> None:
        for alien in data["aliens"]:
            alien["controller"] = "marine" if alien["id"] == alpha_owns else "biotech"
        for seat in ("marine", "biotech"):
            data["agents"][seat]["guard"] = False

    state = edit(state, owners)
    said = texts(aliens_turn(state, "ce01", [6] * 40).events)
    other = "x1" if alpha_owns == "x2" else "x2"
    assert said.index(f"Xeno-Beta {alpha_owns[1:]} activates") < said.index(
        f"Xeno-Beta {other[1:]} activates"
    )


def test_danger_searches_the_alien_discard_too() -> None:
    """Alien Activation, Danger: the matching alien is searched in the Alien deck, reshuffled
    with its discard pile if needed."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)

    def betas_discarded(data: dict[str, Any]) -> None:
        deck = data["alien_deck"]
        deck["discard_pile"] = [c for c in deck["draw_pile"] if c.startswith("xeno-beta")]
        deck["draw_pile"] = [c for c in deck["draw_pile"] if not c.startswith("xeno-beta")]

    state = edit(state, betas_discarded)
    said = texts(aliens_turn(state, "ce02", [6] * 40).events)
    assert "Xeno-Beta 50 teleports in (Danger" in said


def test_close_encounter_deck_reshuffles() -> None:
    """Alien Activation: an empty Close Encounter deck is rebuilt from its discard pile."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    state = edit(state, lambda d: d["ce_deck"].update(draw_pile=[], discard_pile=["ce07"]))
    ended = act(state, "end-turn", unit="marine").state
    said = texts(advance(ended, [6] * 40).events)
    assert "Close Encounter Commander's Call" in said


def two_betas_of_the_marine(seats: tuple[str, ...] = ("marine",)) -> Any:
    """Two Xeno-Betas whose cards the Marine's player holds (x1 arrived first)."""
    state = stage(
        seats=seats,
        agents={"marine": "I3", "biotech": "C5"} if len(seats) > 1 else {"marine": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "I6"), ("x2", "xeno-beta-green-2", "B3")],
        options=HV_OFF,
    )
    return edit(state, lambda d: d["agents"]["marine"].update(guard=False))


def test_player_chooses_the_activation_order_of_his_aliens() -> None:
    """Alien Activation: a player who controls more than one alien may choose the order they
    activate in. Without an order they act by arrival; his standing order (set in his turn,
    offered by legal_actions) puts the alien he names first."""
    state = two_betas_of_the_marine()
    said = texts(aliens_turn(state, "ce01", [6] * 40).events)
    assert said.index("Xeno-Beta 1 activates") < said.index("Xeno-Beta 2 activates")
    orders = [a for a in legal(state) if a.verb == "orders" and a.args["order"].startswith("first")]
    assert [a.args["order"] for a in orders] == ["first-x2"]  # x1 is first already
    state = do(state, orders[0]).state
    said = texts(aliens_turn(state, "ce01", [6] * 40).events)
    assert said.index("Xeno-Beta 2 activates") < said.index("Xeno-Beta 1 activates")


def test_activation_order_is_refused_for_an_alien_the_player_does_not_hold() -> None:
    """Alien Activation: the choice is the controlling player's, over his own aliens only; a
    refusal changes nothing."""
    state = two_betas_of_the_marine(("marine", "biotech"))
    state = edit(state, lambda d: d["aliens"][1].update(controller="biotech"))
    assert not [a for a in legal(state) if a.args.get("order", "").startswith("first")]
    with pytest.raises(RuleError, match="not one of the aliens"):
        act(state, "orders", unit="marine", order="first-x2")
    with pytest.raises(RuleError, match="one Alien card"):
        act(state, "orders", unit="marine", order="first-x1")
