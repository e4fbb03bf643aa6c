"""Rulebook audit, chapter The Enemies' Turn (Activation Order, Surveillance, Move, Attack,
Reinforcements, Target Hero, Suppressing Fire)."""

from __future__ import annotations

import re
from typing import Any

from reich_audit_probe import (
    G_BLANK,
    TEAM,
    Data,
    advance,
    dump,
    end_heroes_turn,
    fresh,
    patch,
)

from engine.core.events import Event

FAR = "7B"  # a corner far from the 1x/EN Areas where the probes happen


def _turn(
    heroes: dict[str, str],
    foes: list[tuple[str, str, str]],
    alarm: bool = True,
    edit: Any = None,
) -> Any:
    """A board with no Enemy tokens: listed Heroes placed, the rest parked far away, Active
    Enemies (id, type, Area); Heroes defend without cards and Tane does not dodge; the Heroes'
    Turn already ended."""

    def change(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = alarm
        for key in TEAM:
            d["heroes"][key]["area"] = heroes.get(key, FAR)
            d["heroes"][key]["orders"]["defend"] = "no-cards"
            d["heroes"][key]["orders"]["elusive"] = "off"
        for eid, kind, area in foes:
            d["enemies"].append(
                {"id": eid, "type": kind, "area": area, "wounds": 0, "behavior": 0, "active": True}
            )
        if edit is not None:
            edit(d)

    return end_heroes_turn(patch(fresh(), change))


def _enemy_phase(events: list[Event]) -> list[Event]:
    """Events of the Enemies' Turn only (up to the Reinforcements card or the Upkeep)."""
    out: list[Event] = []
    for e in events:
        if e.kind == "card" or (e.kind == "phase" and "Upkeep" in e.text):
            break
        out.append(e)
    return out


def _attacks(events: list[Event]) -> list[tuple[str, str, str, int]]:
    """(type, target, attackers, value) of each announced Enemy Attack."""
    found = []
    for e in _enemy_phase(events):
        m = re.match(r"(Melee|Ranged) Attack on (\w+) by (.+): Attack Value (\d+)\.", e.text)
        if m:
            # The narration names Heroes and Enemies ("Sarge", "Zombie z"): back to the keys.
            who = " + ".join(name.split()[-1] for name in m.group(3).split(" + "))
            found.append((m.group(1), m.group(2).lower(), who, int(m.group(4))))
    return found


def _area(state: Any, eid: str) -> str:
    return str(next(e["area"] for e in dump(state)["enemies"] if e["id"] == eid))


BLANKS = [G_BLANK] * 12


def test_enemy_types_activate_in_mission_card_order() -> None:
    """Activation Order: types act top to bottom on the Mission card (Officer, Dog, Soldier,
    Zombie in Mission 1)."""
    state = _turn(
        {"sarge": "EN"},
        [("z", "zombie", "1C"), ("s", "soldier", "1C"), ("d", "dog", "1C"), ("o", "officer", "1C")],
    )
    state, events = advance(state, rolls=BLANKS)
    assert [a[2] for a in _attacks(events)] == ["o", "d", "s", "z"]


def test_surveillance_active_enemy_seeing_a_hero_sounds_the_alarm() -> None:
    """Surveillance (Pre-Alarm): an Active Enemy with Line of Sight on a Hero sets the alarm."""
    state = _turn({"sarge": "EN"}, [("z", "zombie", "1D")], alarm=False)
    state, events = advance(state, rolls=BLANKS)
    assert dump(state)["alarm"] is True
    assert any("Surveillance" in e.text for e in events)


def test_surveillance_sees_a_down_hero_too() -> None:
    """Surveillance: Line of Sight on an Operational or a Down Hero both count."""

    def down(d: Data) -> None:
        d["heroes"]["sarge"].update(down=True, wounds=["winded"] * 4)

    state = _turn({"sarge": "EN"}, [("z", "zombie", "1D")], alarm=False, edit=down)
    state, _ = advance(state, rolls=BLANKS)
    assert dump(state)["alarm"] is True


def test_surveillance_without_sight_keeps_the_base_quiet() -> None:
    """Surveillance: no Active Enemy sees a Hero, no alarm."""
    state = _turn({"sarge": "EN"}, [("z", "zombie", "3A")], alarm=False)
    state, _ = advance(state, rolls=BLANKS)
    assert dump(state)["alarm"] is False


def test_melee_enemy_in_the_heroes_area_stays_and_attacks() -> None:
    """Target Hero - Melee 1: in a Hero's Area the Zombie does not move, it attacks him."""
    state = _turn({"sarge": "1C"}, [("z", "zombie", "1C")])
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "z") == "1C"
    assert _attacks(events) == [("Melee", "sarge", "z", 5)]


def test_melee_enemy_next_door_moves_in_and_attacks() -> None:
    """Target Hero - Melee 2: a Zombie in an adjacent Area moves in and attacks."""
    state = _turn({"sarge": "EN"}, [("z", "zombie", "1C")])
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "z") == "EN"
    assert [a[:3] for a in _attacks(events)] == [("Melee", "sarge", "z")]


def test_melee_enemy_two_areas_away_closes_by_its_move_value() -> None:
    """Target Hero - Melee 2 / Move: two Areas away, a Zombie (Move 1) steps one closer."""
    state = _turn({"sarge": "EN"}, [("z", "zombie", "1D")])
    state, events = advance(state, rolls=[])
    assert _area(state, "z") == "1C"
    assert _attacks(events) == []


def test_melee_target_is_the_closest_hero() -> None:
    """Target Hero - Melee 2: the Hero reachable across the fewest borders is the target."""
    state = _turn({"sarge": "EN", "hans": "1B"}, [("z", "zombie", "1D")])
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "z") == "1B"
    assert [a[1] for a in _attacks(events)] == ["hans"]


def test_ranged_enemy_in_a_heroes_area_steps_out_and_shoots() -> None:
    """Target Hero - Ranged 1: a Soldier in a Hero's Area moves to a Hero-free adjacent Area
    and makes a Ranged Attack."""
    state = _turn({"sarge": "1C"}, [("s", "soldier", "1C")])
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "s") != "1C"
    assert [a[:3] for a in _attacks(events)] == [("Ranged", "sarge", "s")]


def test_ranged_enemy_boxed_in_uses_its_melee_attack() -> None:
    """Target Hero - Ranged 1: every adjacent Area holds a Hero: stay and attack in Melee."""
    state = _turn(
        {"sarge": "1C", "hans": "1A", "claudine": "1D", "tane": "EN"}, [("s", "soldier", "1C")]
    )
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "s") == "1C"
    assert [a[:3] for a in _attacks(events)] == [("Melee", "sarge", "s")]


def test_ranged_enemy_with_sight_and_range_does_not_move() -> None:
    """Target Hero - Ranged 2: already in Line of Sight and Range, the Soldier stays and
    shoots."""
    state = _turn({"sarge": "EN"}, [("s", "soldier", "1C")])
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "s") == "1C"
    assert [a[:3] for a in _attacks(events)] == [("Ranged", "sarge", "s")]


def test_ranged_enemy_far_away_moves_into_range_then_shoots() -> None:
    """Target Hero - Ranged 3: three Areas away, a Soldier (Move 2) reaches a Hero-free Area
    in Range and Line of Sight, then shoots."""
    state = _turn({"sarge": "EN"}, [("s", "soldier", "2C")])
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "s") == "1C"
    assert [a[:3] for a in _attacks(events)] == [("Ranged", "sarge", "s")]


def test_combined_melee_attack_adds_support_values() -> None:
    """Attack 1-3: three Zombies on one Hero: main Attack 5 plus Support 4 and 4 is 13."""
    state = _turn(
        {"sarge": "1C"}, [("z1", "zombie", "1C"), ("z2", "zombie", "1C"), ("z3", "zombie", "1C")]
    )
    state, events = advance(state, rolls=BLANKS)
    attacks = _attacks(events)
    assert len(attacks) == 1
    assert attacks[0][3] == 13


def test_groups_in_different_areas_combine_on_the_same_target() -> None:
    """Attack: groups need not share an Area; same target and Attack type combine (4+2)."""
    state = _turn({"sarge": "1C"}, [("s1", "soldier", "1D"), ("s2", "soldier", "1A")])
    state, events = advance(state, rolls=BLANKS)
    attacks = _attacks(events)
    assert len(attacks) == 1
    assert attacks[0][0] == "Ranged"
    assert attacks[0][3] == 6


def test_enemy_pays_a_move_point_to_open_a_closed_door() -> None:
    """Move: opening a Closed Door costs 1 Move Point (a Zombie, Move 1, only opens it)."""
    state = _turn({"sarge": "1A"}, [("z", "zombie", "3A")])
    state, _events = advance(state, rolls=BLANKS)
    assert "D10" in dump(state)["open_doors"]
    assert _area(state, "z") == "3A"


def test_enemy_cannot_unlock_a_locked_door() -> None:
    """Move: Enemies cannot Unlock a Locked Door."""
    state = _turn({"sarge": "7A"}, [("z", "zombie", "7C")])
    state, _ = advance(state, rolls=BLANKS)
    assert "D8" not in dump(state)["open_doors"]
    assert "D8" not in dump(state)["unlocked"]


def test_dog_cannot_open_doors() -> None:
    """Keywords ('Armless...): a Dog cannot open doors."""
    state = _turn({"sarge": "1A"}, [("d", "dog", "3A")])
    state, _ = advance(state, rolls=BLANKS)
    assert "D10" not in dump(state)["open_doors"]
    assert _area(state, "d") == "3A"


def test_reinforcements_draw_one_card_spawn_at_barracks_and_discard_it() -> None:
    """Reinforcements 1-3: one card drawn, spawns in front of the Barracks, card discarded."""
    state = _turn({"sarge": "EN"}, [])
    top = dump(state)["reinforcement_deck"]["draw_pile"][-1]
    state, _events = advance(state, rolls=[])
    data = dump(state)
    assert data["reinforcement_deck"]["discard_pile"] == [top]
    barracks = {"5B", "3B", "7D"}
    assert data["enemies"]
    assert {e["area"] for e in data["enemies"]} <= barracks


def test_tie_break_prefers_the_hero_with_most_wounds() -> None:
    """Target Hero Tie-Breaker 1: the Operational Hero with the most Wound cards."""

    def hurt(d: Data) -> None:
        d["heroes"]["hans"]["wounds"] = ["winded"]

    state = _turn({"sarge": "1C", "hans": "1C"}, [("z", "zombie", "1C")], edit=hurt)
    state, events = advance(state, rolls=BLANKS)
    assert [a[1] for a in _attacks(events)] == ["hans"]


def test_tie_break_then_prefers_the_fewest_cards_in_hand() -> None:
    """Target Hero Tie-Breaker 2: then the Hero with the fewest Action cards in hand."""

    def thin(d: Data) -> None:
        d["heroes"]["hans"]["hand"] = d["heroes"]["hans"]["hand"][:1]

    state = _turn({"sarge": "1C", "hans": "1C"}, [("z", "zombie", "1C")], edit=thin)
    state, events = advance(state, rolls=BLANKS)
    assert [a[1] for a in _attacks(events)] == ["hans"]


def test_tie_break_prefers_an_operational_hero_over_a_down_one() -> None:
    """Target Hero Tie-Breaker 1: the Operational Hero is chosen before a Down Hero (even one
    with more Wounds)."""

    def down(d: Data) -> None:
        d["heroes"]["sarge"].update(down=True, wounds=["winded"] * 4)

    state = _turn({"sarge": "1C", "hans": "1C"}, [("z", "zombie", "1C")], edit=down)
    state, events = advance(state, rolls=BLANKS)
    assert [a[1] for a in _attacks(events)] == ["hans"]


def test_suppressing_fire_stops_enemies_moving_and_attacking() -> None:
    """Suppressing Fire Token: Enemies in its Area neither Move nor Attack."""

    def suppress(d: Data) -> None:
        d["suppress"] = ["1C"]

    state = _turn({"sarge": "EN"}, [("s", "soldier", "1C"), ("o", "officer", "1C")], edit=suppress)
    state, events = advance(state, rolls=[])
    assert _area(state, "s") == "1C"
    assert _area(state, "o") == "1C"
    assert _attacks(events) == []


def test_relentless_zombie_ignores_suppressing_fire() -> None:
    """Keywords (Relentless) over Suppressing Fire: a Zombie ignores tokens and still acts."""

    def suppress(d: Data) -> None:
        d["suppress"] = ["1C"]

    state = _turn({"sarge": "EN"}, [("z", "zombie", "1C")], edit=suppress)
    state, events = advance(state, rolls=BLANKS)
    assert _area(state, "z") == "EN"
    assert [a[:3] for a in _attacks(events)] == [("Melee", "sarge", "z")]


def test_tie_break_last_step_is_the_players_choice() -> None:
    """Target Hero Tie-Breaker 3: still tied, the players choose; through the protocol that
    choice is a standing order (`decoy:on`) given in advance, since nobody is asked then."""

    def volunteer(d: Data) -> None:
        d["heroes"]["hans"]["orders"]["decoy"] = "on"

    for edit, target in ((None, None), (volunteer, "hans")):
        state = _turn({"sarge": "1C", "hans": "1C"}, [("z", "zombie", "1C")], edit=edit)
        state, events = advance(state, rolls=BLANKS)
        hit = [a[1] for a in _attacks(events)]
        assert len(hit) == 1
        if target is not None:
            assert hit == [target]


def test_one_zombie_opens_the_door_the_others_go_through() -> None:
    """Move (worked example): of three Zombies at a Closed Door, one spends its Move Point
    opening it and the other two walk through; the type splits into two groups."""
    state = _turn(
        {"sarge": "1A"}, [("z1", "zombie", "3A"), ("z2", "zombie", "3A"), ("z3", "zombie", "3A")]
    )
    state, events = advance(state, rolls=BLANKS)
    areas = sorted(_area(state, z) for z in ("z1", "z2", "z3"))
    assert areas == ["1A", "1A", "3A"]
    assert [a[3] for a in _attacks(events)] == [9]


def test_suppressed_enemy_still_keeps_watch() -> None:
    """Surveillance / Suppressing Fire: the token stops Moving and Attacking only; a
    suppressed Enemy that sees a Hero still raises the alarm."""

    def suppress(d: Data) -> None:
        d["suppress"] = ["1C"]

    state = _turn({"sarge": "EN"}, [("s", "soldier", "1C")], alarm=False, edit=suppress)
    state, events = advance(state, rolls=[])
    assert dump(state)["alarm"] is True
    assert _attacks(events) == []


def test_empty_reinforcement_pile_is_rebuilt_from_its_discards() -> None:
    """Discarding and Shuffling: an empty Reinforcement pile is reshuffled from the discards."""

    def empty(d: Data) -> None:
        deck = d["reinforcement_deck"]
        deck["discard_pile"] = deck["draw_pile"]
        deck["draw_pile"] = []

    state = _turn({"sarge": "EN"}, [], edit=empty)
    state, events = advance(state, seed=5)
    deck = dump(state)["reinforcement_deck"]
    assert any(e.kind == "card" for e in events)
    assert len(deck["draw_pile"]) + len(deck["discard_pile"]) == 10
    assert len(deck["discard_pile"]) == 1


def test_groups_with_different_targets_attack_separately() -> None:
    """Attack: each group picks its own Target Hero; only attacks on the same Hero combine."""
    state = _turn({"sarge": "1A", "hans": "1D"}, [("z1", "zombie", "1A"), ("z2", "zombie", "1D")])
    state, events = advance(state, rolls=BLANKS)
    assert sorted((a[1], a[3]) for a in _attacks(events)) == [("hans", 5), ("sarge", 5)]


def _alarm_by_dog(letters: str) -> Any:
    """Pre-Alarm: a Dog in 1D will spot Sarge (EN) in its Surveillance step; an Enemy token
    holding `letters` waits out of sight in 1A."""

    def token(d: Data) -> None:
        d["enemy_tokens"] = [{"id": "TX", "area": "1A", "level": 1, "letters": letters}]

    return _turn({"sarge": "EN"}, [("d", "dog", "1D")], alarm=False, edit=token)


def test_enemies_spawned_mid_turn_of_an_activated_type_wait() -> None:
    """Attack (Note) / Enemy Spawning: an Officer spawned by the alarm after the Officers'
    activation does not Move or Attack this Enemies' Turn."""
    state, events = advance(_alarm_by_dog("A"), rolls=BLANKS)
    officers = [e for e in dump(state)["enemies"] if e["type"] == "officer" and e["area"] == "1A"]
    assert len(officers) == 1
    assert [a[2] for a in _attacks(events)] == ["d"]


def test_enemies_spawned_mid_turn_of_a_later_type_act_now() -> None:
    """Attack (Note): a Zombie spawned by the alarm before the Zombies' activation Moves
    this very Enemies' Turn."""
    state, _ = advance(_alarm_by_dog("E"), rolls=BLANKS)
    zombies = [e for e in dump(state)["enemies"] if e["type"] == "zombie"]
    assert [z["area"] for z in zombies] == ["1C"]


def test_bodyguard_gains_one_per_offizier_in_sight() -> None:
    """Keywords (Bodyguard): a Soldier's Attack Value rises by one for an Offizier it sees."""
    alone = _turn({"sarge": "EN"}, [("s", "soldier", "1C")])
    _, events = advance(alone, rolls=BLANKS)
    assert [a[3] for a in _attacks(events) if a[2] == "s"] == [4]

    def suppress_officer(d: Data) -> None:
        d["suppress"] = ["1A"]

    guarded = _turn(
        {"sarge": "EN"}, [("s", "soldier", "1C"), ("o", "officer", "1A")], edit=suppress_officer
    )
    _, events = advance(guarded, rolls=BLANKS)
    assert [a[3] for a in _attacks(events) if a[2] == "s"] == [5]


def _rotate_reinforcements(state: Any, by: int) -> Any:
    """Put a different Reinforcement card on top of the pile."""

    def edit(d: Data) -> None:
        pile = d["reinforcement_deck"]["draw_pile"]
        d["reinforcement_deck"]["draw_pile"] = pile[by:] + pile[:by]

    return patch(state, edit)


def test_reinforcements_spawn_at_barracks_a_then_b_then_c() -> None:
    """Reinforcements 2: spawn in front of Barracks A, then B, then C."""
    seen: list[str] = []
    for by in range(5):
        state = _rotate_reinforcements(_turn({"sarge": "EN"}, []), by)
        _, events = advance(state, rolls=[])
        order = [
            e.text.split("(Barracks ")[1][0]
            for e in events
            if e.kind == "spawned" and "(Barracks " in e.text
        ]
        assert order == sorted(order), order
        seen += order
    assert len(set(seen)) >= 2
