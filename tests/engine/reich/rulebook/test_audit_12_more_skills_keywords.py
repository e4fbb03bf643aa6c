"""Rulebook audit, more Hero Skills and Keywords (Accurate, several Attacks and Noise,
Dual Wielding, Elusive, Mech Implants, Area Attack, Cautious), plus corner sentences of Noise,
Doors and the Upkeep that the earlier chapters did not reach."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    B_BLANK,
    B_ONE,
    G_BLANK,
    TEAM,
    Data,
    act,
    advance,
    attack,
    dump,
    end_heroes_turn,
    enemies,
    fresh,
    hero,
    offered,
    offered_like,
    patch,
    run,
    soldier_beside_sarge,
    view,
    waiting,
)


def _board(
    seats: list[str] | None = None,
    heroes: dict[str, str] | None = None,
    foes: list[tuple[str, str, str]] | None = None,
    scenario: str = "radio-silence",
    alarm: bool = False,
) -> Any:
    """No Enemy tokens; Heroes placed (defending without cards, no Elusive step);
    Active Enemies (id, type, Area)."""

    def change(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = alarm
        for key, h in d["heroes"].items():
            h["orders"]["defend"] = "no-cards"
            h["area"] = (heroes or {}).get(key, h["area"])
        for eid, kind, area in foes or []:
            d["enemies"].append(
                {"id": eid, "type": kind, "area": area, "wounds": 0, "behavior": 0, "active": True}
            )

    return patch(fresh(scenario, seats=seats), change)


def test_discretion_pushed_behind_the_tracker_sounds_the_alarm() -> None:
    """Noise: Discretion behind the Mission Tracker token (not just on it) is the alarm."""
    state = patch(soldier_beside_sarge(), lambda d: d.__setitem__("discretion", 3))
    state = attack(state, "sarge", "s1", "mg", [B_BLANK, B_BLANK, B_BLANK])
    assert dump(state)["alarm"] is True


def test_every_attack_of_a_card_makes_its_noise() -> None:
    """Noise (Important): a card that grants several Attacks makes Noise for each of them
    (Sarge's Overwatch: two Revolver shots, one Noise each)."""
    state = _board(heroes={"sarge": "1D"}, foes=[("s1", "soldier", "1B"), ("s2", "soldier", "2C")])
    before = dump(state)["discretion"]
    state = act(state, "sarge", "act", unit="sarge", what="play", target="f_overwatch-sarge")
    for target in ("s1", "s2"):
        state = act(state, "sarge", "attack", unit="sarge", target=target, weapon="revolver")
        # Each Overwatch shot rolls the Revolver's two dice plus two more.
        state = act(state, "sarge", "choose", [B_BLANK] * 4, option="roll")
        state = act(state, "sarge", "choose", option="done")
    assert dump(state)["discretion"] == before - 2


def test_accurate_attack_sees_through_enemies_and_past_meatshield() -> None:
    """Keywords (Accurate): Line of Sight through Enemy Areas; Meatshield and Bodyguard are
    ignored (Sarge's Overwatch is Accurate)."""
    state = _board(
        heroes={"sarge": "1C"},
        foes=[("s1", "soldier", "1D"), ("z", "zombie", "2C"), ("s2", "soldier", "2C")],
    )
    assert not offered(state, "sarge", "attack", unit="sarge", target="s2", weapon="mg")
    state = act(state, "sarge", "act", unit="sarge", what="play", target="f_overwatch-sarge")
    assert offered(state, "sarge", "attack", unit="sarge", target="s2", weapon="mg")


def test_dual_wielding_sums_both_defences_and_wounds_both() -> None:
    """Hero Skills (Dual Wielding, Irena): two targets, threshold the sum of their Defense
    Values; a Success Wounds both."""
    state = _board(
        ["sarge", "hans", "irena", "tane"],
        {"irena": "1D"},
        [("s1", "soldier", "1B"), ("d", "dog", "1B")],
    )
    state = act(state, "irena", "attack", unit="irena", target="s1", target2="d", weapon="silenced")
    assert dump(state)["pending"]["threshold"] == 9
    state = act(state, "irena", "choose", [5, 5], option="roll")
    assert "4 Successes against 9" in waiting(state).text


def _zombie_turn(seats: list[str], who: str, elusive: str = "on", end: bool = True) -> Any:
    """`who` alone in 1C with a Zombie, the others parked in 7B; Heroes' Turn over (`end`)."""

    def change(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = True
        for key, h in d["heroes"].items():
            h["area"] = "1C" if key == who else "7B"
            h["orders"]["defend"] = "no-cards"
            h["orders"]["elusive"] = elusive
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = patch(fresh(seats=seats), change)
    return end_heroes_turn(state) if end else state


def test_elusive_tane_slips_away_after_an_attack() -> None:
    """Hero Skills (Elusive, Tane): after being attacked he may move to an adjacent Area."""
    state, _ = advance(_zombie_turn(TEAM, "tane"), rolls=[G_BLANK, G_BLANK])
    assert hero(state, "tane")["area"] in {"1A", "1D", "EN"}
    state, _ = advance(_zombie_turn(TEAM, "tane", elusive="off"), rolls=[G_BLANK, G_BLANK])
    assert hero(state, "tane")["area"] == "1C"


def test_mech_implants_draws_two_wound_cards() -> None:
    """Hero Skills (Mech Implants, Bochka): a failed Defense draws two Wound cards; one is
    applied, the other discarded."""
    seats = ["sarge", "hans", "claudine", "bochka"]
    state = _zombie_turn(seats, "bochka")
    pile = len(dump(state)["wound_deck"]["draw_pile"])
    state, _ = advance(state, rolls=[G_BLANK, G_BLANK])
    data = dump(state)
    assert len(data["wound_deck"]["draw_pile"]) <= pile - 2


def test_mech_implants_lets_the_player_choose_the_wound() -> None:
    """Hero Skills (Mech Implants): the choice of the Wound card is the player's."""
    seats = ["sarge", "hans", "claudine", "bochka"]
    # Orders are read while Bochka's seat still acts (a standing order is set in advance).
    state = _zombie_turn(seats, "bochka", end=False)
    orders = [a.args["order"] for a in offered_like(state, "bochka", "orders")]
    state, _ = advance(end_heroes_turn(state), rolls=[G_BLANK, G_BLANK])
    asked = "bochka" in waiting(state).seats and waiting(state).kind == "choice"
    assert asked or any("implant" in o or "wound" in o for o in orders)


def test_area_attack_makes_every_hero_in_the_area_defend() -> None:
    """Keywords (Area Attack, General Wolff): all Heroes in the Target Hero's Area defend."""
    state = _board(
        heroes={"sarge": "8A", "hans": "8A", "claudine": "EN", "tane": "EN"},
        foes=[("w", "wolff", "8B")],
        scenario="wolffs-lair",
        alarm=True,
    )
    state = end_heroes_turn(
        patch(state, lambda d: d["heroes"]["tane"]["orders"].update(elusive="off"))
    )
    state, events = advance(state, rolls=[G_BLANK] * 4)
    defenders = {e.text.split()[0] for e in events if e.kind == "rolled" and "defends" in e.text}
    assert defenders == {"Sarge", "Hans"}


def test_cautious_enemy_steps_away_when_a_hero_walks_in() -> None:
    """Keywords (Cautious, General Wolff): when a Hero enters his Area, he moves to an
    adjacent Area."""
    state = _board(
        heroes={"sarge": "8A"}, foes=[("w", "wolff", "8B")], scenario="wolffs-lair", alarm=True
    )
    state = act(state, "sarge", "move", unit="sarge", to="8B")
    assert enemies(state)[0]["area"] != "8B"


def test_a_door_can_be_opened_from_either_side() -> None:
    """Pick Up / Doors (Note): a Door lies in both Areas it separates."""
    for side in ("1A", "3A"):
        state = _board(heroes={"sarge": side})
        assert offered(state, "sarge", "act", unit="sarge", what="open", target="D10"), side


def test_down_hero_still_draws_at_upkeep() -> None:
    """Upkeep 2: every Hero with four cards or fewer draws one, Down Heroes included."""
    state = patch(_board(), lambda d: d["heroes"]["sarge"].update(down=True, wounds=["winded"] * 4))
    state, _ = advance(end_heroes_turn(state), rolls=[])
    assert len(hero(state, "sarge")["hand"]) == 5


def test_a_hit_kills_a_one_life_enemy_and_frees_its_area() -> None:
    """Enemy Wounds: Wounds reaching the Life Value remove the miniature from the board."""
    state = soldier_beside_sarge()
    state = attack(state, "sarge", "s1", "revolver", [5, 5])
    assert enemies(state) == []
    assert not [f for f in view(state).figures if f.side == "enemy"]


def test_silent_weapon_attack_stays_silent_post_hit() -> None:
    """Noise: an Attack whose weapon has no Noise icon never moves Discretion (Claudine)."""
    state = _board(heroes={"claudine": "1B"}, foes=[("s", "soldier", "1B")])
    before = dump(state)["discretion"]
    state, _ = run(state, "claudine", "attack", unit="claudine", target="s", weapon="knife")
    state = act(state, "claudine", "choose", [B_ONE, B_ONE], option="roll")
    state = act(state, "claudine", "choose", option="done")
    assert dump(state)["discretion"] == before


def _hans_defends_beside(friend: str) -> Any:
    """Hans (one Wound, so the Zombie's Target Hero) and `friend` in 1C with a Zombie; the
    friend always supports and may play cards."""
    seats = [friend, "hans", "claudine", "tane"]

    def change(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = True
        for h in d["heroes"].values():
            h["area"] = "7B"
            h["orders"].update(defend="no-cards", elusive="off")
        d["heroes"]["hans"].update(area="1C", wounds=["winded"])
        d["heroes"][friend]["area"] = "1C"
        d["heroes"][friend]["orders"].update(support="always", defend="cards")
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    return end_heroes_turn(patch(fresh(seats=seats), change))


def test_guardian_doc_supports_a_friends_defense() -> None:
    """Hero Skills (Guardian, Doc): Doc may Support another Hero's Defense Test in his Area;
    a Hero without the Skill (Sarge) cannot."""
    state = _hans_defends_beside("doc")
    pile = len(hero(state, "doc")["deck"]["discard_pile"])
    state, events = advance(state, rolls=[G_BLANK] * 4)
    assert len(hero(state, "doc")["deck"]["discard_pile"]) == pile + 1
    assert any(e.text.startswith("Doc plays") for e in events)
    state, events = advance(_hans_defends_beside("sarge"), rolls=[G_BLANK] * 2)
    assert not any(e.text.startswith("Sarge plays") for e in events)
