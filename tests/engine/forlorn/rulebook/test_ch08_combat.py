"""Chapter 8 (Combat): line of sight and facing, range, dice and Defense Values, interrupts,
surges, rushes, counterattacks, spin attacks, grenades, the minigun, the flamethrower, Eggs,
Xeno attacks and death.

Marine probes stage Solo Operation A's room A (G5-L10, open floor). Counter values the rulebook
states are used: Sgt. Fox rolls 3 dice with Defense Bonus 3, Pvt. Bates 2 dice, Cpl. Zac
(Gunner) 4 dice with Defense Bonus 2, a Warrior 2 dice and two Hits to kill. Xeno attacks use
Operation 01 with a human Xeno seat.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from forlorn_probe import (
    act,
    can,
    do,
    dump,
    edit,
    egg,
    exact,
    fig,
    find,
    header,
    marine_phase,
    next_turn,
    op01,
    squad,
    view,
    xeno_phase,
)


def legal_orders(state: Any) -> list[Any]:
    return [a for a in find(state, unit="fox") if a.verb == "orders"]


def solo(keep: str = "fox", **where: str) -> Any:
    return squad(marine_phase(), [keep], **where)


def alive(state: Any, uid: str) -> bool:
    return fig(state, uid) is not None


# 8.1 Line of Sight and facing ------------------------------------------------------------


def test_front_arc_covers_every_square_ahead() -> None:
    """8.1: any square at least one row ahead of the Marine's facing may be targeted, even far
    off to the side, when the line is clear."""
    state = solo(fox="H9:E", d1="I5")
    assert can(state, "attack", unit="fox", target="d1")


def test_side_and_rear_squares_cannot_be_targeted() -> None:
    """8.1 / 5.4: squares level with or behind the Marine need a Spin Attack instead."""
    side = solo(fox="H9:E", d1="H6")
    rear = solo(fox="H9:E", d1="G7")
    for state in (side, rear):
        assert not can(state, "attack", unit="fox", target="d1")
        assert can(state, "act", unit="fox", what="spin", target="d1")


def test_closed_door_blocks_and_open_door_does_not() -> None:
    """8.1: a closed door blocks line of sight; once opened, the line through it is clear."""
    state = solo(fox="G7:W", d1="F7")
    assert not can(state, "attack", unit="fox", target="d1")
    opened = act(state, "act", unit="fox", what="open", to="F7").state
    assert can(opened, "attack", unit="fox", target="d1")


def test_wall_blocks_line_of_sight() -> None:
    """8.1: a line that touches a wall is blocked (F9 lies behind room A's west wall)."""
    state = solo(fox="H9:W", d1="F9")
    assert not can(state, "attack", unit="fox", target="d1")


def test_enemy_square_blocks_line_of_sight() -> None:
    """8.1: an enemy unit's square blocks the line to a target behind it."""
    state = solo(fox="H9:E", d1="J9", d2="L9")
    assert can(state, "attack", unit="fox", target="d1")
    assert not can(state, "attack", unit="fox", target="d2")


def test_friendly_unit_does_not_block() -> None:
    """8.1: friendly units do not block line of sight."""
    state = squad(marine_phase(), ["fox", "ortiz"], fox="H9:E", ortiz="J9:E", d1="L9")
    assert can(state, "attack", unit="fox", target="d1")


def test_egg_square_blocks_line_of_sight() -> None:
    """8.1: an Egg's square blocks line of sight."""
    state = egg(solo(fox="H9:E", d1="L9"), "h1", "J9")
    assert not can(state, "attack", unit="fox", target="d1")


def test_items_do_not_block() -> None:
    """8.1 / 9.0: items never block line of sight."""
    state = solo(fox="H9:E", d1="L9")
    state = edit(state, lambda d: d["floor_items"].__setitem__("J9", ["medkit"]))
    assert can(state, "attack", unit="fox", target="d1")


# 8.2 Range and 8.3 dice -------------------------------------------------------------------


def test_marine_rolls_its_attack_value() -> None:
    """8.3: a unit rolls as many dice as its printed attack (Fox 3, Bates 2)."""
    exact(solo(fox="H9:E", w1="K9"), "attack", [1, 1, 1], unit="fox", target="w1")
    exact(solo("bates", bates="H9:E", w1="K9"), "attack", [1, 1], unit="bates", target="w1")


def test_hit_needs_more_than_range() -> None:
    """8.2 / 8.3: against a Drone (no bonus) the Defense Value is the range; a die must beat
    it (range 3 here)."""
    state = solo(fox="H9:E", d1="K9")
    assert alive(act(state, "attack", [3, 1, 1], unit="fox", target="d1").state, "d1")
    assert not alive(act(state, "attack", [4, 1, 1], unit="fox", target="d1").state, "d1")


def test_range_never_counts_diagonally() -> None:
    """8.2: range counts orthogonal steps only: J7 is 4 from H9, not 2."""
    state = solo(fox="H9:E", d1="J7")
    assert alive(act(state, "attack", [4, 1, 1], unit="fox", target="d1").state, "d1")
    assert not alive(act(state, "attack", [5, 1, 1], unit="fox", target="d1").state, "d1")


def test_adjacent_diagonal_is_range_two() -> None:
    """8.2 / 6.4: a diagonal neighbour is at range 2."""
    state = solo(fox="H9:E", d1="I8")
    assert alive(act(state, "attack", [2, 1, 1], unit="fox", target="d1").state, "d1")
    assert not alive(act(state, "attack", [3, 1, 1], unit="fox", target="d1").state, "d1")


def test_each_die_over_the_value_is_a_hit() -> None:
    """8.3 / 8.11: every die over the Defense Value hits; a Warrior takes two Hits to die."""
    state = solo(fox="H9:E", w1="K9")
    one = act(state, "attack", [4, 1, 1], unit="fox", target="w1").state
    assert "wounded" in fig(one, "w1").conditions  # type: ignore[union-attr]
    two = act(state, "attack", [4, 5, 1], unit="fox", target="w1").state
    assert not alive(two, "w1")


def test_wound_carries_over_to_the_next_attack() -> None:
    """8.11: a wounded Warrior dies to its second Hit, even from a later attack."""
    state = solo(fox="H9:E", w1="K9")
    one = act(state, "attack", [4, 1, 1], unit="fox", target="w1").state
    assert not alive(act(one, "attack", [4, 1, 1], unit="fox", target="w1").state, "w1")


# 8.4 Spin attack --------------------------------------------------------------------------


def test_spin_attack_adds_one_to_range() -> None:
    """8.4: a Spin Attack counts the range one higher (G8 is range 2, so 3 for a spin)."""
    state = solo(fox="H9:E", d1="G8")
    assert alive(act(state, "act", [3, 1, 1], unit="fox", what="spin", target="d1").state, "d1")
    killed = act(state, "act", [4, 1, 1], unit="fox", what="spin", target="d1").state
    assert not alive(killed, "d1")


# 5.7 / 8.3.1 Interrupts -------------------------------------------------------------------


def interrupt_ready(aps: str = "2") -> Any:
    state = squad(op01(), ["fox"], fox="G7:E", d1="L7")
    state = act(state, "orders", unit="fox", order="interrupt", aps=aps, range="6").state
    return xeno_phase(state)


def test_interrupt_rolls_one_die_fewer() -> None:
    """8.3.1: an interrupt attack rolls one die fewer (Fox: 2 instead of 3)."""
    state = interrupt_ready("1")
    exact(state, "move", [1, 1], seat="xeno", unit="d1", to="K7")


def test_interrupt_at_most_once_per_square() -> None:
    """5.7: one interrupt per square the Xeno moves: one square, one shot, even with 2 AP."""
    state = interrupt_ready("2")
    ap_before = int(header(state)["ap"])
    moved = exact(state, "move", [1, 1], seat="xeno", unit="d1", to="K7").state
    assert int(header(moved)["ap"]) == ap_before - 1


def test_interrupt_costs_ap_from_the_leftover_pool() -> None:
    """5.7: each interrupt spends 1 of the APs left over from the Marine phase."""
    state = interrupt_ready("2")
    ap_before = int(header(state)["ap"])
    moved = act(state, "move", [1, 1, 1, 1], seat="xeno", unit="d1", to="J7").state
    assert int(header(moved)["ap"]) == ap_before - 2


def test_xeno_carries_on_after_an_interrupt() -> None:
    """5.7: after the interrupt the Xeno's activation resumes where it stopped."""
    state = interrupt_ready("1")
    moved = act(state, "move", [1, 1], seat="xeno", unit="d1", to="K7").state
    assert find(moved, seat="xeno", unit="d1", to="J7")


# 8.3.2 Surge, 8.3.3 Rush, 8.3.4 Counterattack --------------------------------------------


def test_no_surge_without_a_kill() -> None:
    """8.3.2: a natural 6 that does not kill (a Warrior's first Hit) earns no Surge."""
    state = solo(fox="H9:E", w1="K9")
    after = act(state, "attack", [6, 1, 1], unit="fox", target="w1").state
    assert "surge" not in fig(after, "fox").conditions  # type: ignore[union-attr]


def test_no_surge_from_a_modified_kill() -> None:
    """8.3.2: a kill without a natural 6 earns no Surge."""
    state = solo(fox="H9:E", d1="I9")
    after = act(state, "attack", [5, 1, 1], unit="fox", target="d1").state
    assert "surge" not in fig(after, "fox").conditions  # type: ignore[union-attr]


def test_surge_fades_at_housekeeping() -> None:
    """8.3.2 / 3.0: an unused Surge is not kept into the next turn."""
    state = solo(fox="H9:E", d1="I9")
    surged = act(state, "attack", [6, 1, 1], unit="fox", target="d1").state
    assert "surge" in fig(surged, "fox").conditions  # type: ignore[union-attr]
    assert "surge" not in fig(next_turn(surged), "fox").conditions  # type: ignore[union-attr]


def xeno_vs_fox(facing: str, xeno: str = "w1", spot: str = "I7") -> Any:
    state = squad(op01(), ["fox"], fox=f"H7:{facing}", **{xeno: spot})
    return xeno_phase(state)


def test_xeno_needs_more_than_range_plus_defense_bonus() -> None:
    """8.3 / 8.9: a Warrior next to Fox (range 1 + bonus 3) hits only on 5 or 6."""
    state = xeno_vs_fox("E")
    assert alive(act(state, "attack", [4, 4], seat="xeno", unit="w1", target="fox").state, "fox")
    dead = act(state, "attack", [4, 5, 1], seat="xeno", unit="w1", target="fox").state
    assert not alive(dead, "fox")


def test_xeno_diagonal_melee_is_range_two() -> None:
    """8.9: a diagonal melee attack is at range 2, so Fox (bonus 3) is hit only on a 6."""
    state = xeno_vs_fox("E", spot="I8")
    assert alive(act(state, "attack", [5, 5], seat="xeno", unit="w1", target="fox").state, "fox")


def test_xeno_rush_after_a_natural_six_kill() -> None:
    """8.3.3: a Xeno's natural 6 that kills earns a bonus Special spawn this turn."""
    state = xeno_vs_fox("E")
    six = act(state, "attack", [6, 1, 1], seat="xeno", unit="w1", target="fox").state
    five = act(state, "attack", [5, 1, 1], seat="xeno", unit="w1", target="fox").state
    assert dump(six)["rush"] is True
    assert dump(five)["rush"] is False


def test_counterattack_on_a_natural_one_from_the_front() -> None:
    """8.3.4: a melee 1 rolled at the front or side of a Marine earns the Xeno one Hit."""
    state = xeno_vs_fox("E")
    after = act(state, "attack", [1, 4], seat="xeno", unit="w1", target="fox").state
    assert "wounded" in fig(after, "w1").conditions  # type: ignore[union-attr]


def test_counterattack_kills_a_drone() -> None:
    """8.3.4 / 8.11: the counterattack's Hit slays a one-Hit Drone (attacking from the side)."""
    state = xeno_vs_fox("N", xeno="d1")
    dice = [1] * 6
    assert not alive(act(state, "attack", dice, seat="xeno", unit="d1", target="fox").state, "d1")


def test_no_counterattack_from_behind() -> None:
    """8.3.4: a 1 rolled from the Marine's rear simply misses: no counterattack."""
    state = xeno_vs_fox("W")
    after = act(state, "attack", [1, 4], seat="xeno", unit="w1", target="fox").state
    assert "wounded" not in fig(after, "w1").conditions  # type: ignore[union-attr]
    assert alive(after, "fox")


# 8.5 Grenades -----------------------------------------------------------------------------


def grenade_scene(**where: str) -> Any:
    return solo(fox="H9:E", **where)


def test_grenade_hits_centre_on_three_orthogonal_on_four_diagonal_on_five() -> None:
    """8.5: two dice per unit in the blast; Hits on 3+ in the centre, 4+ orthogonally
    adjacent, 5+ diagonally adjacent."""
    state = grenade_scene(d1="K7", d2="K8", d3="L8")
    threes = exact(state, "act", [3] * 6, unit="fox", what="grenade", to="K7").state
    assert (alive(threes, "d1"), alive(threes, "d2"), alive(threes, "d3")) == (False, True, True)
    fours = exact(state, "act", [4] * 6, unit="fox", what="grenade", to="K7").state
    assert (alive(fours, "d1"), alive(fours, "d2"), alive(fours, "d3")) == (False, False, True)
    fives = exact(state, "act", [5] * 6, unit="fox", what="grenade", to="K7").state
    assert (alive(fives, "d1"), alive(fives, "d2"), alive(fives, "d3")) == (False, False, False)


def test_grenade_ignores_defense_bonus() -> None:
    """8.5: a Marine caught in the blast gets no Defense Bonus (Zac, bonus 2, hit on 4+)."""
    state = squad(marine_phase(), ["fox", "zac"], fox="H9:E", zac="J7:E", d1="K7")
    after = act(state, "act", [4, 4, 4, 4, 1], unit="fox", what="grenade", to="K7").state
    assert not alive(after, "zac")


def test_grenade_blast_stops_at_walls() -> None:
    """8.5: the blast never reaches through a wall (M7 is behind room A's east wall)."""
    state = grenade_scene(d1="L7", d2="M7")
    after = exact(state, "act", [5, 5], unit="fox", what="grenade", to="L7").state
    assert alive(after, "d2")


def test_grenade_destroys_eggs_without_a_roll() -> None:
    """8.5: Eggs in the blast are destroyed outright, before any dice."""
    state = egg(grenade_scene(d1="K7"), "h1", "K8")
    after = exact(state, "act", [1, 1], unit="fox", what="grenade", to="K7").state
    assert not alive(after, "h1")


def test_grenade_is_used_up() -> None:
    """8.5: a thrown grenade leaves the shared pool for good."""
    state = grenade_scene(d1="K7")
    after = act(state, "act", [1, 1], unit="fox", what="grenade", to="K7").state
    assert int(header(after)["grenades"]) == int(header(state)["grenades"]) - 1


def test_grenade_costs_one_ap() -> None:
    """8.5 / 5.3: throwing a grenade is an attack and costs 1 AP."""
    state = grenade_scene(d1="K7")
    after = act(state, "act", [1, 1], unit="fox", what="grenade", to="K7").state
    assert int(header(after)["ap"]) == int(header(state)["ap"]) - 1


def test_no_grenades_left_no_grenade_attack() -> None:
    """8.5: with the pool empty no grenade can be thrown."""
    state = edit(grenade_scene(d1="K7"), lambda d: d.update(grenades=0))
    assert not [a for a in find(state, unit="fox") if a.args.get("what") == "grenade"]


# 8.6 Minigun ------------------------------------------------------------------------------


def gunner(**where: str) -> Any:
    return solo("zac", zac="H9:E", **where)


def test_minigun_rolls_four_dice() -> None:
    """8.6: the Gunner rolls four dice."""
    exact(gunner(w1="K9"), "attack", [1, 2, 3, 1], unit="zac", target="w1")


def test_two_pairs_do_not_jam() -> None:
    """8.6: only three or more equal dice jam the minigun."""
    after = act(gunner(w1="K9"), "attack", [2, 2, 3, 3], unit="zac", target="w1").state
    assert "jammed" not in fig(after, "zac").conditions  # type: ignore[union-attr]
    assert can(after, "attack", unit="zac", target="w1")


def test_triple_jams_and_leaves_only_grenades() -> None:
    """8.6: three of a kind jams the gun; the Gunner may then only throw grenades."""
    after = act(gunner(w1="K9"), "attack", [2, 2, 2, 1], unit="zac", target="w1").state
    assert "jammed" in fig(after, "zac").conditions  # type: ignore[union-attr]
    assert not can(after, "attack", unit="zac", target="w1")
    assert can(after, "act", unit="zac", what="grenade", to="K9")


# 8.7 Flamethrower -------------------------------------------------------------------------


def flamer(**where: str) -> Any:
    return solo("berns", berns="H9:E", **where)


def flame_targets(state: Any) -> list[list[str]]:
    return [
        a.args["target"].split("+")
        for a in find(state, unit="berns")
        if a.args.get("weapon") == "flame"
    ]


def test_first_flame_goes_in_one_of_the_three_front_squares() -> None:
    """8.7: the first Flame marker lands in one of the three squares directly in front."""
    assert {t[0] for t in flame_targets(flamer())} == {"I8", "I9", "I10"}


def test_spray_is_a_chain_of_at_most_three() -> None:
    """8.7: each further marker is adjacent to the previous one, three at most, never on the
    Flamethrower's own square."""
    chains = flame_targets(flamer())
    assert max(len(c) for c in chains) == 3
    for chain in chains:
        assert "H9" not in chain
        for a, b in itertools.pairwise(chain):
            assert abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1:]) - int(b[1:])) <= 1


def test_flame_hits_on_two_plus_defense() -> None:
    """8.7: one die per unit in a Flame square; a Drone (no bonus) is hit on 2+."""
    state = flamer(d1="I9")
    kept = exact(state, "attack", [1], unit="berns", target="I9", weapon="flame").state
    assert alive(kept, "d1")
    burnt = exact(state, "attack", [2], unit="berns", target="I9", weapon="flame").state
    assert not alive(burnt, "d1")


def test_flame_destroys_eggs() -> None:
    """8.7 / 8.8: Flame markers destroy Eggs without a roll."""
    state = egg(flamer(), "h1", "I9")
    after = exact(state, "attack", [], unit="berns", target="I9", weapon="flame").state
    assert not alive(after, "h1")


def test_flames_linger_until_housekeeping() -> None:
    """8.7: Flame markers stay on the map for the turn and go in the Housekeeping Phase."""
    state = flamer()
    burnt = act(state, "attack", [], unit="berns", target="I9+J9", weapon="flame").state
    assert {t.coord for t in view(burnt).tokens if t.kind == "flame"} == {"I9", "J9"}
    assert not [t for t in view(next_turn(burnt)).tokens if t.kind == "flame"]


def test_no_flame_markers_means_pistol_only() -> None:
    """8.7: with no Flame markers left the Flamethrower Marine attacks with a 1-die pistol."""
    state = edit(flamer(w1="K9"), lambda d: d.update(flame_supply=0))
    assert not flame_targets(state)
    exact(state, "attack", [1], unit="berns", target="w1")


def test_xeno_entering_flames_is_attacked() -> None:
    """8.7: a Xeno that moves into a burning square is attacked at once."""
    state = squad(op01(), ["fox"], fox="G9:E", d1="L7")
    state = edit(state, lambda d: d.update(flames=["K7"]))
    phase = xeno_phase(state)
    after = exact(phase, "move", [2], seat="xeno", unit="d1", to="K7").state
    assert not alive(after, "d1")


# 8.8 Eggs ---------------------------------------------------------------------------------


def test_egg_needs_two_hits_in_one_attack() -> None:
    """8.8: an Egg dies only to two Hits from a single attack."""
    state = egg(solo(fox="H9:E"), "h1", "K9")
    one = act(state, "attack", [4, 1, 1], unit="fox", target="h1").state
    assert alive(one, "h1")
    assert alive(act(one, "attack", [4, 1, 1], unit="fox", target="h1").state, "h1")
    assert not alive(act(state, "attack", [4, 4, 1], unit="fox", target="h1").state, "h1")


# 8.10 Blasters ----------------------------------------------------------------------------


def test_blaster_ranged_attack_hits_on_five_or_six() -> None:
    """8.10: a Blaster's ranged shot ignores range and Defense Bonus: 5 or 6 hits."""
    state = squad(op01(), ["fox"], fox="G7:E", b1="L7")
    phase = xeno_phase(state)
    shots = [a for a in find(phase, seat="xeno", unit="b1") if a.verb == "attack"]
    assert shots, "the Blaster is offered no ranged attack at range 5"
    assert alive(act(phase, shots[0].verb, [4, 4, 4], seat="xeno", **shots[0].args).state, "fox")
    dead = act(phase, shots[0].verb, [5, 1, 1, 1], seat="xeno", **shots[0].args).state
    assert not alive(dead, "fox")


# 8.11 Death -------------------------------------------------------------------------------


def test_dead_marine_leaves_a_corpse() -> None:
    """8.11: a slain Marine becomes a corpse in the square where it fell."""
    state = xeno_vs_fox("E")
    dead = act(state, "attack", [5, 1, 1], seat="xeno", unit="w1", target="fox").state
    assert {"at": "H7", "unit": "fox"} in dump(dead)["corpses"]


def test_grenade_lost_on_a_six_when_a_marine_dies() -> None:
    """8.11: when a Marine dies with grenades left, a 6 on one die discards a grenade."""
    state = xeno_vs_fox("E")
    safe = act(state, "attack", [5, 1, 5], seat="xeno", unit="w1", target="fox").state
    lost = act(state, "attack", [5, 1, 6], seat="xeno", unit="w1", target="fox").state
    assert int(header(safe)["grenades"]) == int(header(state)["grenades"])
    assert int(header(lost)["grenades"]) == int(header(state)["grenades"]) - 1


def test_no_grenade_roll_with_an_empty_pool() -> None:
    """8.11: the grenade check is made only while grenades remain."""
    state = edit(xeno_vs_fox("E"), lambda d: d.update(grenades=0))
    exact(state, "attack", [5, 1], seat="xeno", unit="w1", target="fox")


def test_slain_xeno_returns_to_the_pool() -> None:
    """8.11: a slain Drone goes back to the Reinforcement Pool."""
    state = solo(fox="H9:E", d1="I9")

    def pool(s: Any) -> str:
        return next(line for p in view(s).panels if p.seat == "xeno" for line in p.lines)

    after = act(state, "attack", [5, 1, 1], unit="fox", target="d1").state
    assert "drone 12" in pool(after)
    assert "drone 11" in pool(state)


@pytest.mark.parametrize("spot", ["K9"])
def test_pistol_available_while_fuelled(spot: str) -> None:
    """5.3: the Flamethrower Marine may use its pistol or its flamethrower while fuelled."""
    state = flamer(w1=spot)
    assert flame_targets(state)
    assert can(state, "attack", unit="berns", target="w1")


def test_xeno_moving_through_flames_is_attacked_in_each() -> None:
    """8.7: a unit crossing several burning squares is attacked once in each one entered."""
    state = squad(op01(), ["fox"], fox="G9:E", d1="L7")
    state = edit(state, lambda d: d.update(flames=["K7", "J7"]))
    phase = xeno_phase(state)
    after = exact(phase, "move", [1, 1], seat="xeno", unit="d1", to="I7").state
    assert alive(after, "d1")


def test_marine_entering_flames_is_attacked() -> None:
    """8.7: a Marine that enters a burning square is attacked as well."""
    state = edit(solo("bates", bates="H9:E"), lambda d: d.update(flames=["I9"]))
    moves = find(state, unit="bates", to="I9")
    assert moves, "Marines may not enter a burning square at all"
    after = exact(state, "move", [6, 1], unit="bates", to="I9").state  # 1: grenade check
    assert not alive(after, "bates")


def test_flames_are_not_placed_through_walls() -> None:
    """8.7: Flame markers go only into open squares the spray can reach: facing room A's west
    wall, no square in front is available."""
    assert not flame_targets(solo("berns", berns="G9:W"))


def test_blaster_line_of_sight_blocked_by_egg() -> None:
    """8.1: an Egg's square blocks the line for Xenos too."""
    state = egg(squad(op01(), ["fox"], fox="G7:E", b1="L7"), "h1", "J7")
    phase = xeno_phase(state)
    assert not [a for a in find(phase, seat="xeno", unit="b1") if a.verb == "attack"]


def test_spin_attack_dice() -> None:
    """8.3 example / 8.4: the worked example has Bates (attack 2) roll a single die for a Spin
    Attack, and 8.4 says an interrupt spin is "also" one die down: a spin costs one die."""
    state = solo("bates", bates="H9:E", d1="G8")
    exact(state, "act", [1], unit="bates", what="spin", target="d1")


def test_interrupt_spin_loses_another_die() -> None:
    """8.4 / 8.3.1: an interrupt Spin Attack is one die down again (Fox: 3 - 1 - 1 = 1)."""
    state = squad(op01(), ["fox"], fox="G7:W", d1="L7")
    spin = [a for a in legal_orders(state) if a.args.get("spin") == "yes"]
    assert spin, "no standing order may spin (5.7 lists the Spin Attack among interrupts)"
    state = do(state, spin[0]).state
    phase = xeno_phase(state)
    exact(phase, "move", [1], seat="xeno", unit="d1", to="K7")


def test_no_interrupt_without_xeno_movement() -> None:
    """5.7: interrupts come per square moved; a Xeno that attacks without moving gives no
    interrupt (Fox's standing order stays unused)."""
    state = squad(op01(), ["fox"], fox="H7:E", w1="I7")
    state = act(state, "orders", unit="fox", order="interrupt", aps="2", range="6").state
    phase = xeno_phase(state)
    ap_before = int(header(phase)["ap"])
    after = exact(phase, "attack", [4, 4], seat="xeno", unit="w1", target="fox").state
    assert int(header(after)["ap"]) == ap_before


def test_straight_through_an_open_door() -> None:
    """8.1: a line straight through an open doorway is clear."""
    state = solo(fox="H7:W", d1="F7")
    state = edit(state, lambda d: d.update(open_doors=["F7-G7"]))
    assert can(state, "attack", unit="fox", target="d1")


def test_open_door_frame_blocks_a_slanted_line() -> None:
    """8.1: a line that clips the frame of an open door is blocked (H8 to F6 passes the
    corner where the F7-G7 doorway meets the wall)."""
    state = solo(fox="H8:W", d1="F6")
    state = edit(state, lambda d: d.update(open_doors=["F7-G7"]))
    assert not can(state, "attack", unit="fox", target="d1")


def test_no_counterattack_from_the_rear_diagonal() -> None:
    """8.3.4: the three rear squares include the rear diagonals: a 1 there just misses."""
    state = xeno_vs_fox("E", spot="G8")
    after = act(state, "attack", [1, 4], seat="xeno", unit="w1", target="fox").state
    assert "wounded" not in fig(after, "w1").conditions  # type: ignore[union-attr]


def test_counterattack_from_the_side() -> None:
    """8.3.4: a 1 rolled from the side square (directly left of the facing) is countered."""
    state = xeno_vs_fox("E", spot="H6")
    after = act(state, "attack", [1, 4], seat="xeno", unit="w1", target="fox").state
    assert "wounded" in fig(after, "w1").conditions  # type: ignore[union-attr]


def test_grenade_thrower_in_the_blast_is_attacked_too() -> None:
    """8.5: every unit in the blast is rolled for, Marines included, the thrower too."""
    state = solo(fox="H9:E", d1="I9")
    exact(state, "act", [1, 1, 1, 1], unit="fox", what="grenade", to="I9")


def test_flame_rolls_for_a_marine_in_the_square() -> None:
    """8.7: only the Flamethrower's own square is excluded, so flame may cover a fellow
    Marine's square, and each unit in a burning square is rolled for."""
    state = squad(marine_phase(), ["berns", "ortiz"], berns="H9:E", ortiz="I9:E")
    assert can(state, "attack", unit="berns", target="I9", weapon="flame")
    exact(state, "attack", [1], unit="berns", target="I9", weapon="flame")


def test_surge_can_pay_for_an_interrupt() -> None:
    """5.8: the free action of a Surge marker may be an interrupt attack."""
    state = squad(op01(), ["fox"], fox="G7:E", d1="H7", d2="L9")
    state = act(state, "attack", [6, 1, 1], unit="fox", target="d1").state
    assert "surge" in fig(state, "fox").conditions  # type: ignore[union-attr]
    orders = [
        a
        for a in legal_orders(state)
        if a.args.get("surge") == "yes" and a.args.get("range") == "6" and len(a.args) == 5
    ]
    assert orders, "no standing order may spend the Surge marker (5.8)"
    state = do(state, orders[0]).state
    phase = xeno_phase(state)
    moved = exact(phase, "move", [1, 1], seat="xeno", unit="d2", to="K9").state  # 3 - 1 dice
    assert int(header(moved)["ap"]) == int(header(phase)["ap"])
    assert "surge" not in fig(moved, "fox").conditions  # type: ignore[union-attr]
