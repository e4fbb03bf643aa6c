"""Rulebook audit, chapter Set Up (Hero Set Up, Board Set Up): black-box probes."""

from __future__ import annotations

from reich_audit_probe import TEAM, dump, fresh, hero, view


def test_commando_always_has_four_heroes_whatever_the_seat_count() -> None:
    """Set Up: the players always field exactly four Heroes, even when fewer people play."""
    for seats in (["sarge"], ["sarge", "hans"], TEAM):
        heroes = dump(fresh(seats=seats))["heroes"]
        assert len(heroes) == 4, seats
        assert set(seats) <= set(heroes)


def test_each_hero_starts_with_two_functioning_non_vril_weapons() -> None:
    """Hero Set Up 2: both Weapon tokens start on the Functioning side, on the normal weapons."""
    state = fresh()
    for key in TEAM:
        weapons = hero(state, key)["weapons"]
        assert len(weapons) == 2, key
        assert all(not w["vril"] and not w["jammed"] for w in weapons.values()), key


def test_each_hero_starts_with_two_basic_action_tokens() -> None:
    """Hero Set Up 3: every Hero has two Basic Action tokens ready."""
    state = fresh()
    assert [hero(state, k)["tokens"] for k in TEAM] == [2, 2, 2, 2]


def test_starting_hand_is_two_feats_plus_two_drawn_cards() -> None:
    """Hero Set Up 5-7: both Feat cards go to hand, ten cards are shuffled, two are drawn."""
    state = fresh()
    for key in TEAM:
        h = hero(state, key)
        feats = [c for c in h["hand"] if c.startswith("f_")]
        assert len(feats) == 2, key
        assert len(h["hand"]) == 4, key
        assert len(h["deck"]["draw_pile"]) == 8, key
        assert not h["deck"]["discard_pile"], key


def test_action_decks_are_shuffled_by_the_dice() -> None:
    """Hero Set Up 6: the ten Action cards are shuffled (different seeds, different orders)."""
    orders = {tuple(hero(fresh(seed=s), "sarge")["deck"]["draw_pile"]) for s in range(1, 6)}
    assert len(orders) > 1


def test_tracker_starts_on_space_one_with_discretion_and_endgame_ahead() -> None:
    """Board Set Up 2: Mission Tracker token on 1; Discretion and Endgame on later spaces."""
    data = dump(fresh())
    assert data["tracker"] == 1
    assert data["discretion"] > 1
    assert data["endgame"] > 1
    assert data["alarm"] is False
    header = view(fresh()).header
    assert header["tracker"] == "1"
    assert header["alarm"] == "off"


def test_loot_wound_and_reinforcement_piles_are_shuffled() -> None:
    """Board Set Up 6-8: the Reinforcement, Wound and Loot piles are shuffled face down."""
    for pile in ("reinforcement_deck", "wound_deck", "loot_deck"):
        orders = {tuple(dump(fresh(seed=s))[pile]["draw_pile"]) for s in range(1, 6)}
        assert len(orders) > 1, pile


def test_enemy_tokens_start_level_side_up_and_hide_their_letters() -> None:
    """Board Set Up 12: Enemy tokens are placed Level side up; nobody sees what they hold."""
    state = fresh()
    placed = dump(state)["enemy_tokens"]
    assert placed
    for seat in (None, "sarge"):
        shown = [t for t in view(state, seat).tokens if t.kind == "enemy-token"]
        assert len(shown) == len(placed)
        for token in shown:
            assert token.label in {"L1", "L2", "L3"}
            for t in placed:
                assert t["letters"] not in token.label


def test_no_enemy_miniature_on_the_board_at_the_start() -> None:
    """Board Set Up 5/12: Enemies wait in the Reserve or under tokens; none are Active yet."""
    state = fresh()
    assert dump(state)["enemies"] == []
    assert not [f for f in view(state).figures if f.side == "enemy"]


def test_area_accessories_are_placed_face_down() -> None:
    """Board Set Up 11: Area Accessory cards go face down in their Areas, unseen."""
    state = fresh()
    data = dump(state)
    assert data["accessories"]
    assert data["accessories_up"] == {}
    shown = [t for t in view(state, "sarge").tokens if t.kind == "accessory"]
    assert len(shown) == len(data["accessories"])
    for token in shown:
        assert all(card not in token.label for card in data["accessories"].values())


def test_doors_start_closed_and_locks_are_placed() -> None:
    """Board Set Up 10: Door tokens start Closed, with Lock tokens where the Mission says."""
    state = fresh()
    doors = [e.kind for e in view(state).edges if e.kind.startswith("door")]
    assert doors
    assert not [k for k in doors if k.startswith("door-open")]
    assert [k for k in doors if k.startswith("door-locked")]
    assert dump(state)["open_doors"] == []


def test_heroes_start_together_on_the_entrance_tile() -> None:
    """Board Set Up / Tiles: the Heroes enter the board on the single-Area Entrance Tile."""
    state = fresh()
    v = view(state)
    entrance = {c.area for c in v.cells if "entrance" in c.marks}
    assert len(entrance) == 1
    assert {hero(state, k)["area"] for k in TEAM} == entrance
