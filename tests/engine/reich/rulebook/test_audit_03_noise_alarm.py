"""Rulebook audit, chapter Noise and the Alarm."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    B_BLANK,
    B_ONE,
    B_TWO,
    Data,
    act,
    advance,
    attack,
    dump,
    end_heroes_turn,
    fresh,
    patch,
    run,
    soldier_beside_sarge,
    view,
)


def test_noise_moves_discretion_back_by_the_weapon_noise_even_on_a_fail() -> None:
    """Noise: after an Attack with a one-Noise weapon, Discretion goes back one, hit or miss."""
    state = soldier_beside_sarge()
    before = dump(state)["discretion"]
    state = attack(state, "sarge", "s1", "revolver", [B_BLANK, B_BLANK])
    assert dump(state)["discretion"] == before - 1
    assert dump(state)["alarm"] is False


def test_noise_counts_every_noise_icon() -> None:
    """Noise: a weapon with three Noise icons sends Discretion back three spaces."""
    state = patch(soldier_beside_sarge(), lambda d: d.__setitem__("discretion", 8))
    state = attack(state, "sarge", "s1", "mg", [B_BLANK, B_BLANK, B_ONE])
    assert dump(state)["discretion"] == 5
    assert dump(state)["alarm"] is False


def test_discretion_reaching_the_tracker_triggers_the_alarm() -> None:
    """Noise: Discretion on the tracker's space (or behind it) sets the alarm off."""
    state = patch(soldier_beside_sarge(), lambda d: d.__setitem__("discretion", 4))
    state = attack(state, "sarge", "s1", "mg", [B_TWO, B_ONE, B_BLANK])
    assert dump(state)["alarm"] is True
    assert view(state).header["alarm"] != "off"


def test_silent_melee_weapon_makes_no_noise() -> None:
    """Noise: an Action without Noise icons (Claudine's Knife) leaves Discretion alone."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["enemies"].append(
            {
                "id": "s1",
                "type": "soldier",
                "area": "EN",
                "wounds": 0,
                "behavior": 0,
                "active": True,
            }
        )

    state = patch(fresh(), edit)
    before = dump(state)["discretion"]
    state = attack(state, "claudine", "s1", "knife", [B_BLANK, B_BLANK])
    assert dump(state)["discretion"] == before


def test_moving_makes_no_noise() -> None:
    """Noise: walking down a corridor is not Noise."""
    state = patch(fresh(), lambda d: d.__setitem__("enemy_tokens", []))
    before = dump(state)["discretion"]
    state = act(state, "sarge", "move", unit="sarge", to="1C")
    assert dump(state)["discretion"] == before


def test_explosion_triggers_the_alarm_immediately() -> None:
    """Noise: playing a card section with the Explosion icon (a Grenade) sets the alarm off."""
    state = patch(
        soldier_beside_sarge(), lambda d: d["heroes"]["sarge"]["hand"].append("grenade-sarge9")
    )
    state = act(state, "sarge", "act", unit="sarge", what="play", target="grenade-sarge9")
    assert dump(state)["alarm"] is True


def test_post_alarm_ignores_noise() -> None:
    """Noise: once the alarm is on, Noise icons no longer move anything."""
    state = soldier_beside_sarge(alarm=True)
    before = dump(state)["discretion"]
    state, events = _attack_events(state)
    assert dump(state)["discretion"] == before
    assert not [t for t in events if "Noise" in t]


def _attack_events(state: Any) -> tuple[Any, list[str]]:
    s, e1 = run(state, "sarge", "attack", unit="sarge", target="s1", weapon="mg")
    s, e2 = run(s, "sarge", "choose", [B_BLANK, B_BLANK, B_BLANK], option="roll")
    s, e3 = run(s, "sarge", "choose", option="done")
    return s, [e.text for e in e1 + e2 + e3]


def test_alarm_turns_every_enemy_token_and_spawns_it() -> None:
    """The Alarm 2: every Enemy token still on the board is turned over and spawns."""
    state = fresh()
    areas = {t["area"] for t in dump(state)["enemy_tokens"]}
    state = patch(state, lambda d: d["heroes"]["sarge"]["hand"].append("grenade-sarge9"))
    state = act(state, "sarge", "act", unit="sarge", what="play", target="grenade-sarge9")
    data = dump(state)
    assert data["alarm"] is True
    assert data["enemy_tokens"] == []
    assert {e["area"] for e in data["enemies"]} >= areas
    assert all(e["active"] for e in data["enemies"])


def test_post_alarm_enemies_turn_ends_with_reinforcements() -> None:
    """The Alarm: in the Post-Alarm phase Enemies get reinforcements every Enemies' Turn."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = True

    state = end_heroes_turn(patch(fresh(), edit))
    pile = len(dump(state)["reinforcement_deck"]["draw_pile"])
    state, _ = advance(state, seed=3)
    data = dump(state)
    assert len(data["reinforcement_deck"]["draw_pile"]) == pile - 1
    assert data["enemies"]


def test_pre_alarm_enemies_turn_brings_no_reinforcements() -> None:
    """The Enemies' Turn: the Reinforcements step only happens after the alarm."""
    state = end_heroes_turn(patch(fresh(), lambda d: d.__setitem__("enemy_tokens", [])))
    pile = len(dump(state)["reinforcement_deck"]["draw_pile"])
    state, _ = advance(state)
    data = dump(state)
    assert len(data["reinforcement_deck"]["draw_pile"]) == pile
    assert data["enemies"] == []


def test_grenade_example_wounds_everyone_next_door_and_is_consumed() -> None:
    """Noise, worked example 3 / Effect Duration (Consumable): the Grenade Wounds every
    miniature in the adjacent Area (a Hero's Wound is permanent), sets the alarm off, and the
    card leaves play for the rest of the Mission."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["sarge"]["area"] = "1D"
        d["heroes"]["hans"]["area"] = "1C"
        d["heroes"]["sarge"]["hand"].append("grenade-sarge9")
        d["enemies"].append(
            {"id": "s", "type": "soldier", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = patch(fresh(), edit)
    state = act(state, "sarge", "act", unit="sarge", what="play", target="grenade-sarge9")
    state = act(state, "sarge", "act", unit="sarge", what="grenade", to="1C")
    data = dump(state)
    assert data["alarm"] is True
    assert data["enemies"] == []
    assert len(data["heroes"]["hans"]["wounds"]) == 1
    sarge = data["heroes"]["sarge"]
    assert sarge["removed"] == ["grenade-sarge9"]
    assert "grenade-sarge9" not in sarge["hand"] + sarge["deck"]["discard_pile"]
