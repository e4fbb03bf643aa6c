"""Rulebook audit, chapter The Heroes' Turn (Basic Actions, Move, Attack, Draw, Doors, Pick Up,
Give/Take, Unjam, Drop, Discarding and Shuffling)."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    B_BLANK,
    Data,
    act,
    dump,
    enemies,
    fresh,
    hero,
    legal,
    offered,
    offered_like,
    patch,
    view,
    waiting,
)


def _board(
    heroes: dict[str, str], soldiers: dict[str, str] | None = None, **hero_fields: Any
) -> Any:
    """No Enemy tokens; Heroes placed; Active Soldiers id -> Area; extra fields for Sarge."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        for key, area in heroes.items():
            d["heroes"][key]["area"] = area
        d["heroes"]["sarge"].update(hero_fields)
        for eid, area in (soldiers or {}).items():
            d["enemies"].append(
                {
                    "id": eid,
                    "type": "soldier",
                    "area": area,
                    "wounds": 0,
                    "behavior": 0,
                    "active": True,
                }
            )

    return patch(fresh(), edit)


def _basic(state: Any, seat: str) -> list[str]:
    """Basic Actions on offer (labels say which come from a card)."""
    return [
        a.verb + ":" + a.args.get("what", "")
        for a in legal(state, seat)
        if a.verb in {"move", "attack"} or a.args.get("what") in {"draw", "open", "pickup", "unjam"}
    ]


def test_a_basic_action_spends_one_token() -> None:
    """Making Basic Actions: each Basic Action places one Basic Action token."""
    state = act(fresh(), "sarge", "act", unit="sarge", what="draw")
    assert hero(state, "sarge")["tokens"] == 1


def test_no_token_no_basic_action() -> None:
    """Making Basic Actions: without an available token there is no Basic Action."""
    state = _board({"sarge": "EN"}, tokens=0)
    assert _basic(state, "sarge") == []
    assert offered_like(state, "sarge", "act", what="play")


def test_basic_move_only_once_per_turn() -> None:
    """Making Basic Actions: the Basic Move at most once per Heroes' Turn."""
    state = act(_board({}), "sarge", "move", unit="sarge", to="1C")
    assert hero(state, "sarge")["tokens"] == 1
    assert not offered_like(state, "sarge", "move")


def test_basic_attack_only_once_per_turn() -> None:
    """Making Basic Actions: the Basic Attack at most once per Heroes' Turn."""
    state = _board({"sarge": "1D"}, {"s1": "1B", "s2": "1B"})
    state = act(state, "sarge", "attack", unit="sarge", target="s1", weapon="revolver")
    state = act(state, "sarge", "choose", [B_BLANK, B_BLANK], option="roll")
    state = act(state, "sarge", "choose", option="done")
    assert hero(state, "sarge")["tokens"] == 1
    assert not offered_like(state, "sarge", "attack")


def test_draw_takes_the_top_two_cards_with_no_hand_limit() -> None:
    """Draw: the top two cards of the Action pile go to hand; hands have no limit."""
    state = patch(
        fresh(), lambda d: d["heroes"]["sarge"].update(hand=d["heroes"]["sarge"]["hand"] * 3)
    )
    # The dump lists a pile bottom-first: its top two cards are the last two entries.
    top = hero(state, "sarge")["deck"]["draw_pile"][-2:]
    state = act(state, "sarge", "act", unit="sarge", what="draw")
    h = hero(state, "sarge")
    assert len(h["hand"]) == 14
    assert sorted(h["hand"][-2:]) == sorted(top)


def test_empty_action_pile_is_rebuilt_from_the_discards() -> None:
    """Discarding and Shuffling: an empty pile is reshuffled from its discard pile."""

    def edit(d: Data) -> None:
        deck = d["heroes"]["sarge"]["deck"]
        deck["discard_pile"] = deck["draw_pile"]
        deck["draw_pile"] = deck["discard_pile"][:1]
        deck["discard_pile"] = deck["discard_pile"][1:]

    state = act(patch(fresh(), edit), "sarge", "act", unit="sarge", what="draw")
    h = hero(state, "sarge")
    assert len(h["hand"]) == 6
    assert len(h["deck"]["draw_pile"]) + len(h["deck"]["discard_pile"]) == 6


def test_moving_into_sight_of_an_inactive_enemy_spawns_it() -> None:
    """Move: entering an Inactive Enemy's Line of Sight turns its token and spawns it."""
    state = place_in_1c = patch(fresh(), lambda d: d["heroes"]["hans"].update(area="1C"))
    tokens = len(dump(place_in_1c)["enemy_tokens"])
    state = act(state, "hans", "move", unit="hans", to="1D")
    data = dump(state)
    assert len(data["enemy_tokens"]) == tokens - 1
    assert {e["area"] for e in data["enemies"]} == {"1B"}
    assert data["alarm"] is False


def test_hero_may_leave_an_area_holding_enemies() -> None:
    """Move: a Hero sharing an Area with Enemies can still leave it."""
    state = _board({"sarge": "1C"}, {"s1": "1C"})
    assert offered(state, "sarge", "move", unit="sarge", to="1D")


def test_cannot_enter_and_leave_an_enemy_area_in_one_action() -> None:
    """Move: a Hero cannot enter and leave an Area with Enemies in the same Action."""
    state = _board({"claudine": "1C"}, {"s1": "1D"})
    state = act(state, "claudine", "act", unit="claudine", what="play", target="sprint-claudine4")
    assert offered(state, "claudine", "move", unit="claudine", to="1D")
    state = act(state, "claudine", "move", unit="claudine", to="1D")
    assert not offered_like(state, "claudine", "move")


def test_ranged_attack_needs_an_area_without_enemies() -> None:
    """Ranged Attacks: the attacker's Area must hold no Enemies (only Melee is left)."""
    state = _board({"sarge": "1C"}, {"s1": "1C", "s2": "1D"})
    weapons = {(a.args["target"], a.args["weapon"]) for a in offered_like(state, "sarge", "attack")}
    assert weapons == {("s1", "hands")}


def test_bare_hands_always_allow_a_melee_attack() -> None:
    """Melee Attacks: a Hero can always attack with bare hands in their own Area."""
    state = _board({"sarge": "1C"}, {"s1": "1C"})
    assert offered(state, "sarge", "attack", unit="sarge", target="s1", weapon="hands")


def test_jammed_weapon_cannot_attack_and_unjam_restores_it() -> None:
    """Weapon Token / Unjam: a Jammed weapon cannot be chosen; Unjam turns it Functioning."""

    def edit(d: Data) -> None:
        d["heroes"]["sarge"]["weapons"]["revolver"]["jammed"] = True
        d["heroes"]["sarge"]["weapons"]["mg"]["jammed"] = True

    state = patch(_board({"sarge": "1D"}, {"s1": "1B"}), edit)
    assert not offered_like(state, "sarge", "attack")
    state = act(state, "sarge", "act", unit="sarge", what="unjam", target="revolver")
    assert hero(state, "sarge")["weapons"]["revolver"]["jammed"] is False
    assert hero(state, "sarge")["tokens"] == 1
    assert offered(state, "sarge", "attack", unit="sarge", target="s1", weapon="revolver")
    assert not offered(state, "sarge", "attack", unit="sarge", target="s1", weapon="mg")


def test_open_a_closed_door_in_your_area() -> None:
    """Open/Unlock a Door: a Hero in an Area touching a Closed Door turns it Open."""
    state = _board({"sarge": "1A"})
    assert [a.args["target"] for a in offered_like(state, "sarge", "act", what="open")] == ["D10"]
    state = act(state, "sarge", "act", unit="sarge", what="open", target="D10")
    assert "D10" in dump(state)["open_doors"]
    assert any(e.kind.startswith("door-open") and "D10" in e.kind for e in view(state).edges)
    assert not offered_like(state, "sarge", "act", what="open")


def test_locked_door_needs_the_keys_and_two_actions() -> None:
    """Open/Unlock a Door: a Key Lock needs the Set of Keys; unlocking leaves it Closed,
    a second Action opens it."""
    state = _board({"sarge": "7A"})
    assert [a.args["target"] for a in offered_like(state, "sarge", "act", what="open")] == ["D9"]
    state = patch(state, lambda d: d["heroes"]["sarge"].update(carried=["keys"]))
    state = act(state, "sarge", "act", unit="sarge", what="open", target="D8")
    assert "D8" not in dump(state)["open_doors"]
    assert any(e.kind == "door-closed:D8" for e in view(state).edges)
    state = act(state, "sarge", "act", unit="sarge", what="open", target="D8")
    assert "D8" in dump(state)["open_doors"]


def test_pick_up_a_loot_card_in_your_area() -> None:
    """Pick Up: a Loot card in the Hero's Area goes to a free Loot slot."""
    state = act(_board({"sarge": "1D"}), "sarge", "act", unit="sarge", what="pickup", target="L1")
    assert hero(state, "sarge")["loot"] == ["light_em_up"]
    assert not [g for g in dump(state)["ground"] if g["id"] == "L1"]


def test_no_pick_up_with_an_enemy_in_the_area() -> None:
    """Pick Up: the Hero's Area must contain no Enemies."""
    state = _board({"sarge": "1D"}, {"s1": "1D"})
    assert not offered_like(state, "sarge", "act", what="pickup")


def test_fourth_loot_card_replaces_one_left_face_up() -> None:
    """Pick Up: at most three Loot cards; a new one replaces one, laid face up in the Area."""
    state = _board({"sarge": "1D"}, loot=["helmet", "ammo", "scope"])
    offers = offered_like(state, "sarge", "act", what="pickup", target="L1")
    assert {a.args.get("drop") for a in offers} == {"helmet", "ammo", "scope"}
    state = act(state, "sarge", "act", unit="sarge", what="pickup", target="L1", drop="ammo")
    assert sorted(hero(state, "sarge")["loot"]) == ["helmet", "light_em_up", "scope"]
    assert [
        g
        for g in dump(state)["ground"]
        if g["card"] == "ammo" and g["area"] == "1D" and g["face_up"]
    ]


def test_pick_up_a_mission_token_takes_no_loot_slot() -> None:
    """Pick Up: a Mission token goes on the Dashboard without using a Loot slot."""
    state = _board({"sarge": "2B"}, loot=["helmet", "ammo", "scope"])
    state = act(state, "sarge", "act", unit="sarge", what="pickup", target="M1")
    h = hero(state, "sarge")
    assert h["carried"] == ["keys"]
    assert len(h["loot"]) == 3


def test_give_needs_the_other_heroes_consent() -> None:
    """Give/Take: a Hero in the same Area may give a Loot card if the other accepts."""
    state = _board({"sarge": "7A", "hans": "7A", "tane": "EN"}, loot=["helmet"])
    assert not offered_like(state, "sarge", "act", what="give", to="tane")
    state = act(state, "sarge", "act", unit="sarge", what="give", target="helmet", to="hans")
    assert waiting(state).seats == ["hans"]
    declined = act(state, "hans", "choose", option="decline")
    assert hero(declined, "sarge")["loot"] == ["helmet"]
    accepted = act(state, "hans", "choose", option="accept")
    assert hero(accepted, "hans")["loot"] == ["helmet"]
    assert hero(accepted, "sarge")["loot"] == []


def test_take_from_another_hero_in_the_area() -> None:
    """Give/Take: a Hero may also take a Loot card from a Hero in the same Area."""
    state = _board({"sarge": "7A", "hans": "7A"}, loot=["helmet"])
    assert offered(state, "hans", "act", unit="hans", what="take", target="helmet", to="sarge")


def test_drop_a_loot_card_costs_nothing() -> None:
    """Drop a Loot Card: free (no token), the card lies face up in the Hero's Area."""
    state = _board({"sarge": "EN"}, loot=["helmet"])
    state = act(state, "sarge", "act", unit="sarge", what="drop", target="helmet")
    assert hero(state, "sarge")["tokens"] == 2
    assert hero(state, "sarge")["loot"] == []
    assert [
        g
        for g in dump(state)["ground"]
        if g["card"] == "helmet" and g["area"] == "EN" and g["face_up"]
    ]


def test_enemies_are_unharmed_by_a_failed_attack() -> None:
    """Attack 4: a Fail changes nothing for the target."""
    state = _board({"sarge": "1D"}, {"s1": "1B"})
    state = act(state, "sarge", "attack", unit="sarge", target="s1", weapon="revolver")
    state = act(state, "sarge", "choose", [B_BLANK, B_BLANK], option="roll")
    state = act(state, "sarge", "choose", option="done")
    assert enemies(state)[0]["wounds"] == 0


def test_face_down_loot_is_turned_up_by_a_pick_up() -> None:
    """Pick Up: a face-down Loot card is turned face up and taken."""
    state = patch(_board({"sarge": "1D"}), lambda d: d["ground"][3].update(face_up=False))
    assert offered(state, "sarge", "act", unit="sarge", what="pickup", target="L1")
    state = act(state, "sarge", "act", unit="sarge", what="pickup", target="L1")
    assert hero(state, "sarge")["loot"] == ["light_em_up"]


def test_cards_move_a_hero_after_the_basic_move() -> None:
    """Making Basic Actions (Important): after the Basic Move, cards still allow more moves."""
    state = act(_board({}), "claudine", "move", unit="claudine", to="1C")
    assert not offered(state, "claudine", "move", unit="claudine", to="1D")
    state = act(state, "claudine", "act", unit="claudine", what="play", target="sprint-claudine4")
    state = act(state, "claudine", "move", unit="claudine", to="1D")
    state = act(state, "claudine", "move", unit="claudine", to="2C")
    assert hero(state, "claudine")["area"] == "2C"


def test_take_also_needs_the_owners_consent() -> None:
    """Give/Take: taking a Loot card happens only if the other Hero accepts."""
    state = _board({"sarge": "7A", "hans": "7A"}, loot=["helmet"])
    state = act(state, "hans", "act", unit="hans", what="take", target="helmet", to="sarge")
    assert waiting(state).seats == ["sarge"]
    assert hero(act(state, "sarge", "choose", option="decline"), "hans")["loot"] == []
    assert hero(act(state, "sarge", "choose", option="accept"), "hans")["loot"] == ["helmet"]


def test_unjam_is_only_for_a_jammed_weapon() -> None:
    """Unjam a Weapon: it turns a Jammed token over; with nothing Jammed there is nothing to do."""
    assert not offered_like(_board({}), "sarge", "act", what="unjam")
