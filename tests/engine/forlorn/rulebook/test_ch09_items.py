"""Chapter 9 (Items) and the Equipment List: picking up, the two-item limit, dropping,
handing over, items never blocking, and what Body Armor, the Medical Kit and the Maintenance
Bot do."""

from __future__ import annotations

from typing import Any

from forlorn_probe import (
    act,
    ap,
    clear_xenos,
    do,
    dump,
    edit,
    fig,
    find,
    legal,
    marine_phase,
    next_turn,
    op01,
    squad,
    unit,
    view,
    xeno_phase,
)


def pair(items: list[str] | None = None, **where: str) -> Any:
    state = squad(marine_phase(), ["bates", "ortiz"], bates="H9:E", ortiz="I9:E", **where)
    floor = items if items is not None else ["medkit", "body-armor", "bio-scanner"]
    return edit(state, lambda d: d["floor_items"].__setitem__("H9", floor))


def carried(state: Any, uid: str) -> list[str]:
    return list(unit(dump(state), uid)["items"])


def test_pick_up_costs_one_mp() -> None:
    """9.1: a Marine on an Item's square picks one up for 1 MP."""
    state = pair()
    after = act(state, "act", unit="bates", what="pickup", target="medkit").state
    assert carried(after, "bates") == ["medkit"]
    assert dump(after)["mp_left"] == 6 - 1
    assert ap(after) == ap(state) - 1


def test_carry_at_most_two() -> None:
    """9.1: a Marine carries no more than two Items."""
    state = pair()
    state = act(state, "act", unit="bates", what="pickup", target="medkit").state
    state = act(state, "act", unit="bates", what="pickup", target="body-armor").state
    assert not [a for a in find(state, unit="bates") if a.args.get("what") == "pickup"]


def test_drop_is_free() -> None:
    """9.1: dropping an Item costs nothing."""
    state = edit(pair([]), lambda d: unit(d, "bates")["items"].append("medkit"))
    dropped = act(state, "act", unit="bates", what="drop", target="medkit").state
    assert carried(dropped, "bates") == []
    assert ap(dropped) == ap(state)
    assert "medkit" in dump(dropped)["floor_items"].get("H9", [])


def test_transfer_to_an_adjacent_marine_costs_one_mp() -> None:
    """9.1: handing an Item to an adjacent Marine costs 1 MP."""
    state = edit(pair([]), lambda d: unit(d, "bates")["items"].append("medkit"))
    given = act(state, "act", unit="bates", what="give", target="medkit", to="ortiz").state
    assert carried(given, "ortiz") == ["medkit"]
    assert dump(given)["mp_left"] == 6 - 1


def test_receiver_may_pay_for_the_transfer() -> None:
    """9.1: either Marine may pay the transfer's MP: the receiver can take the Item."""
    state = edit(pair([]), lambda d: unit(d, "bates")["items"].append("medkit"))
    takes = [
        a for a in find(state, unit="ortiz") if a.args.get("what") in ("take", "give", "receive")
    ]
    assert takes, "the receiving Marine has no way to pay for the transfer"
    taken = do(state, takes[0]).state
    assert carried(taken, "ortiz") == ["medkit"] and carried(taken, "bates") == []
    assert dump(taken)["mp_left"] == 6 - 1 and dump(taken)["mover"] == "ortiz"


def test_no_pick_up_when_grappled() -> None:
    """5.1 chart (asterisk): a Marine next to a non-Egg Xeno cannot pick up an Item."""
    state = pair(d1="H8")
    assert not [a for a in find(state, unit="bates") if a.args.get("what") == "pickup"]


def test_items_do_not_block_movement() -> None:
    """9.0: Items neither block movement nor count for stacking."""
    state = squad(marine_phase(), ["bates"], bates="G9:E")
    state = edit(state, lambda d: d["floor_items"].__setitem__("H9", ["medkit"]))
    moves = {a.args["to"] for a in legal(state) if a.verb == "move"}
    assert {"H9", "I9"} <= moves


def test_dead_marine_drops_its_items() -> None:
    """9.1 / 9.2: a slain Marine's Items stay in the square where it fell."""
    state = squad(op01(), ["fox"], fox="H7:E", w1="I7")
    state = edit(state, lambda d: unit(d, "fox")["items"].append("bio-scanner"))
    phase = xeno_phase(state)
    dead = act(phase, "attack", [5, 1, 1], seat="xeno", unit="w1", target="fox").state
    assert "bio-scanner" in dump(dead)["floor_items"].get("H7", [])


def test_body_armor_adds_one_to_defense() -> None:
    """Equipment: Body Armor adds 1 to its carrier's Defense Bonus (Fox: a 5 no longer hits
    from an orthogonal neighbour; range 1 + 3 + 1 = 5)."""
    state = squad(op01(), ["fox"], fox="H7:E", w1="I7")
    armoured = edit(state, lambda d: unit(d, "fox")["items"].append("body-armor"))
    phase = xeno_phase(armoured)
    after = act(phase, "attack", [5, 5], seat="xeno", unit="w1", target="fox").state
    assert fig(after, "fox") is not None


def test_medical_kit_ignores_the_first_hit_then_is_gone() -> None:
    """Equipment: the Medical Kit's carrier ignores its first Hit; the kit is then discarded."""
    state = squad(op01(), ["fox"], fox="H7:E", w1="I7")
    kitted = edit(state, lambda d: unit(d, "fox")["items"].append("medkit"))
    phase = xeno_phase(kitted)
    after = act(phase, "attack", [6, 1], seat="xeno", unit="w1", target="fox").state
    assert fig(after, "fox") is not None
    assert "medkit" not in carried(after, "fox")
    assert "medkit" not in dump(after)["floor_items"].get("H7", [])


def test_maintenance_bot_blocks_a_vent_for_one_ap() -> None:
    """Equipment: for 1 AP, from anywhere, the Maintenance Bot is put on an Access Vent, which
    can no longer spawn Xenos."""
    state = squad(marine_phase("op-03", ("marines",)), ["lt", "fox"])
    state = edit(state, lambda d: unit(d, "fox")["items"].append("maintenance-bot"))
    bots = [a for a in legal(state) if a.args.get("what") == "bot"]
    assert bots, "no way to place the carried Maintenance Bot"
    placed = do(state, bots[0]).state
    assert ap(placed) == ap(state) - 1
    assert dump(placed)["blocked_vents"] or dump(placed)["bot_vent"]
    assert any(t.kind == "blocked-vent" for t in view(placed).tokens)


def test_maintenance_bot_cannot_be_moved_once_placed() -> None:
    """Equipment: a placed Maintenance Bot stays on its vent for the rest of the operation."""
    state = squad(marine_phase("op-03", ("marines",)), ["lt", "fox"])
    state = edit(state, lambda d: unit(d, "fox")["items"].append("maintenance-bot"))
    bots = [a for a in legal(state) if a.args.get("what") == "bot"]
    placed = do(state, bots[0]).state
    assert not [a for a in legal(placed) if a.args.get("what") == "bot"]
    assert not [a for a in legal(placed) if a.args.get("target") == "maintenance-bot"]


def test_equipment_on_the_floor_does_nothing() -> None:
    """9.2: an Item lying on the floor does not work: a Bio-Scanner left on the ground adds
    no AP."""
    state = clear_xenos(marine_phase())
    floor = edit(state, lambda d: d["floor_items"].__setitem__("H9", ["bio-scanner"]))
    held = edit(state, lambda d: unit(d, "bates")["items"].append("bio-scanner"))
    assert ap(next_turn(floor, ap_roll=(6, 5))) == ap(next_turn(held, ap_roll=(6, 5))) - 2
