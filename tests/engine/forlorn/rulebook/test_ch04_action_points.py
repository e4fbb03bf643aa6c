"""Chapter 4 (Action Points): the Determine Action Points Phase, probed on Solo Operation A.

Solo A's squad is the LT (Leadership +2), two SGTs (+1 each) and four other Marines.
"""

from __future__ import annotations

from forlorn_probe import ap, bench, clear_xenos, edit, marine_phase, next_turn, unit


def test_higher_die_plus_leadership() -> None:
    """4.0: the AP total is the higher of two dice plus every leader's Leadership bonus."""
    assert ap(marine_phase(ap_roll=(3, 5))) == 5 + 4
    assert ap(marine_phase(ap_roll=(6, 2))) == 6 + 4


def test_dice_are_not_totalled() -> None:
    """1.2 / 4.0: the two AP dice are compared, never summed."""
    assert ap(marine_phase(ap_roll=(5, 4))) == 5 + 4


def test_doubles_add_one() -> None:
    """4.1: a pair of equal dice earns one more AP."""
    assert ap(marine_phase(ap_roll=(4, 4))) == 4 + 1 + 4


def test_minimum_is_marines_alive() -> None:
    """4.2: the turn's AP never falls below the number of Marines still in play (7 here)."""
    assert ap(marine_phase(ap_roll=(1, 2))) == 7


def test_minimum_follows_losses() -> None:
    """4.2: with Marines gone, the floor drops to the Marines that remain."""
    state = clear_xenos(marine_phase())
    state = bench(state, "bates", "ortiz", "zac")
    # 4 Marines left (LT +2, two SGTs +1 each): a roll of 1 1 is 1 +1 doubles +4 = 6 >= 4.
    assert ap(next_turn(state, ap_roll=(1, 2))) == 2 + 4
    state = bench(state, "lt", "krauss")
    # Fox and Berns left: 1 + 1 (Fox) = 2, and the floor is 2.
    assert ap(next_turn(state, ap_roll=(1, 2))) == 2 + 1


def test_leadership_only_from_leaders_in_play() -> None:
    """4.0 / Leadership: a leader no longer on the map adds nothing to the next roll."""
    state = clear_xenos(marine_phase())
    with_lt = ap(next_turn(state, ap_roll=(6, 5)))
    without_lt = ap(next_turn(bench(state, "lt"), ap_roll=(6, 5)))
    assert with_lt == 6 + 4
    assert without_lt == 6 + 2


def test_bio_scanner_adds_two() -> None:
    """Equipment: a carried Bio-Scanner adds 2 AP in the Determine Action Points Phase."""
    state = clear_xenos(marine_phase())
    scanned = edit(state, lambda d: unit(d, "bates")["items"].append("bio-scanner"))
    assert ap(next_turn(scanned, ap_roll=(6, 5))) == ap(next_turn(state, ap_roll=(6, 5))) + 2


def test_unused_ap_are_lost_next_turn() -> None:
    """5.0: APs left at the end of a turn are not carried into the next."""
    state = clear_xenos(marine_phase(ap_roll=(6, 5)))
    assert ap(state) == 10
    assert ap(next_turn(state, ap_roll=(3, 1))) == 7
