"""The Operation Strikeback worked examples, die by die (scripted dice), and the rules they
illustrate. Blue faces (engine/galaxy/dice.py): 1 Alien, 2 Hit+Shield+Ammo, 3 Hit+Shield+Jam,
4 Hit+Hit+Bolt, 5 Shield+Bolt, 6 Hit+Shield."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.dice import DiceExhausted, ScriptedDice, SeededDice
from engine.core.errors import NotSupportedYet, RuleError
from engine.galaxy.strikeback import (
    activation,
    burrowing,
    criticals,
    damage,
    events,
    layer,
    marks,
    menace,
    movement,
    npcs,
)
from engine.galaxy.strikeback.status import CriticalPile, FigureStatus

NO_DICE = ScriptedDice([])


# 8.1 Lethal -------------------------------------------------------------------------------


def test_lethal_example_hulk_shield_absorbs_one_and_no_pain_is_useless() -> None:
    """Crimson Nightmare bites: 4 Lethal Hits; the Hulk's Energy Shield absorbs 1, his
    "No Pain" Shield does nothing against Lethal, and no Defend die is rolled: 3 wounds."""
    out = damage.defend(NO_DICE, 4, [1], lethal=True, extra_shields=1)
    assert (out.absorbed, out.faces, out.wounds) == (1, [], 3)


def test_lethal_still_yields_to_powers_that_cancel_hits() -> None:
    out = damage.defend(NO_DICE, 3, [], lethal=True, cancel=2)
    assert out.wounds == 1


def test_lethal_never_rolls_a_defend_die() -> None:
    with pytest.raises(DiceExhausted):
        damage.defend(NO_DICE, 2, [], lethal=False)  # a normal attack does roll
    assert damage.defend(NO_DICE, 2, [], lethal=True).wounds == 2


# 11.7 Multiple Energy Shield stacks ---------------------------------------------------------


def test_multiple_shields_example_1_left_stack_then_a_lethal_wound() -> None:
    stacks = [2, 1]
    out = damage.defend(NO_DICE, 3, stacks, lethal=True)
    assert out.stack == 0 and out.absorbed == 2 and out.wounds == 1
    assert stacks == [0, 1]  # only the selected stack absorbs


def test_multiple_shields_example_2_empty_left_so_right_then_a_shield_die() -> None:
    stacks = [0, 1]
    out = damage.defend(ScriptedDice([6]), 2, stacks)
    assert out.stack == 1 and out.absorbed == 1
    assert out.shields == 1 and out.wounds == 0  # the alien survives
    assert stacks == [0, 0]


def test_stack_choice_most_left_then_left_on_a_tie() -> None:
    assert damage.choose_stack([1, 3]) == 1
    assert damage.choose_stack([2, 2]) == 0
    assert damage.choose_stack([0, 0]) is None


# Storybook 5.5.1 High Impact ----------------------------------------------------------------


def test_high_impact_example_eight_hits_minus_two_def_rolls_five() -> None:
    assert damage.defend_dice(8, 2, high_impact=True) == 5
    assert damage.defend_dice(8, 2, high_impact=False) == 6
    out = damage.defend(ScriptedDice([2, 2, 2, 2, 2]), 8, [], def_minus=2, high_impact=True)
    assert len(out.faces) == 5 and out.shields == 5 and out.wounds == 3


def test_high_impact_energy_shields_work_as_usual() -> None:
    out = damage.defend(ScriptedDice([1, 1, 1, 1, 1]), 8, [2], high_impact=True)
    assert out.absorbed == 2 and len(out.faces) == 5 and out.wounds == 6


# 8.3 Mark and 8.2 Critical: the Xeno-Delta example ------------------------------------------


def test_mark_example_xeno_delta_marks_biotech_and_lock_on_draws_a_critical_1() -> None:
    """Wristgun: 3 Hits and the Mark 2 effect. The Biotech, marked at once, rolls 3 dice with
    one Shield: 2 wounds. Lock-on: damage to a marked agent causes Critical 1."""
    biotech = FigureStatus()
    marks.apply_mark(biotech, 2)
    out = damage.defend(ScriptedDice([2, 1, 4]), 3, [])
    assert out.shields == 1 and out.wounds == 2
    # The pile's top token fits only aliens/drones/NPCs: it is discarded, the next drawn.
    pile = CriticalPile(level=1, draw=["c1-paralyze", "c1-def", "c1-atk"])
    assert marks.marked(biotech) and out.wounds >= 1
    token = criticals.draw(pile, "agent", NO_DICE)
    assert token is not None and token.key == "c1-def"
    assert pile.discard == ["c1-paralyze"]
    assert criticals.place(biotech, token, {"1": pile}) == "kept"
    assert criticals.penalty(biotech, "def") == 1


def test_mark_decay_and_flip() -> None:
    status = FigureStatus()
    marks.apply_mark(status, 1)
    marks.apply_mark(status, 2)  # Mark 2 on a Mark 1 flips it
    assert status.mark == 2
    marks.apply_mark(status, 1)  # a Mark 1 never lowers it
    assert status.mark == 2
    assert marks.refresh(status) == 0 and status.mark == 1
    marks.refresh(status)
    assert status.mark == 0


def test_critical_replacement_greater_replaces_same_is_discarded() -> None:
    status = FigureStatus(criticals=["c1-atk"])
    pile1 = CriticalPile(level=1)
    pile2 = CriticalPile(level=2)
    piles = {"1": pile1, "2": pile2}
    c2_atk = criticals.tokens()["c2-atk"]
    assert criticals.place(status, c2_atk, piles) == "replaced c1-atk"
    assert status.criticals == ["c2-atk"]
    # the replaced lesser token goes to its own (Critical 1) discard pile, not the drawn one's
    assert pile1.discard == ["c1-atk"] and pile2.discard == []
    pile1.discard.clear()  # drawn again later: a lesser token than the one held is discarded
    assert criticals.place(status, criticals.tokens()["c1-atk"], piles) == "discarded"
    assert status.criticals == ["c2-atk"] and pile1.discard == ["c1-atk"]
    status2 = FigureStatus(criticals=["c1-def"])
    assert criticals.place(status2, criticals.tokens()["c1-def"], piles) == "discarded"
    assert status2.criticals == ["c1-def"]


def test_critical_durations() -> None:
    piles = {"1": CriticalPile(level=1), "2": CriticalPile(level=2)}
    status = FigureStatus()
    assert criticals.place(status, criticals.tokens()["c1-dmg-a"], piles) == "instant"
    assert status.criticals == [] and piles["1"].discard == ["c1-dmg-a"]
    criticals.place(status, criticals.tokens()["c2-shields"], piles)
    criticals.place(status, criticals.tokens()["c2-hp"], piles)
    assert criticals.refresh(status, piles) == ["c2-shields"]
    assert status.criticals == ["c2-hp"]  # permanent: a Body Condition
    criticals.heal(status, "c2-hp", piles)
    assert status.criticals == [] and "c2-hp" in piles["2"].discard


def _every_token(piles: dict[str, CriticalPile], figures: list[FigureStatus]) -> list[str]:
    held = [k for f in figures for k in f.criticals]
    return sorted([k for p in piles.values() for k in [*p.draw, *p.discard]] + held)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.lists(
        st.tuples(st.sampled_from(["hit1", "hit2", "refresh", "heal", "die"]), st.integers(0, 3)),
        max_size=80,
    ),
)
def test_critical_tokens_are_conserved_through_draws_replacements_refreshes_and_deaths(
    seed: int, steps: list[tuple[str, int]]
) -> None:
    """All 20 tokens are always somewhere: in a pile, its discards or on one figure (8.2:
    replaced, instant, temporary, healed and a dead figure's tokens all go to the discards)."""
    dice = SeededDice(seed)
    piles = {"1": criticals.new_pile(1, dice), "2": criticals.new_pile(2, dice)}
    figures = [FigureStatus() for _ in range(4)]  # two agents, two aliens
    everything = sorted(criticals.tokens())
    for what, who in steps:
        figure = figures[who]
        if what in ("hit1", "hit2"):
            token = criticals.draw(piles[what[-1]], "agent" if who < 2 else "other", dice)
            if token is not None:
                criticals.place(figure, token, piles)
        elif what == "refresh":
            for f in figures:
                criticals.refresh(f, piles)
        elif what == "heal":
            for key in [
                k for k in figure.criticals if criticals.tokens()[k].duration == "permanent"
            ]:
                criticals.heal(figure, key, piles)
        else:
            criticals.release(figure, piles)
            assert figure.criticals == []
        assert _every_token(piles, figures) == everything


def test_critical_piles_match_the_component_list() -> None:
    by_level = {1: 0, 2: 0}
    for token in criticals.tokens().values():
        by_level[token.level] += 1
    assert by_level == {1: 10, 2: 10}


def test_empty_critical_pile_reshuffles_its_discards() -> None:
    pile = CriticalPile(level=1, draw=[], discard=["c1-def"])
    token = criticals.draw(pile, "other", ScriptedDice([]))
    assert token is not None and token.key == "c1-def"


# 9.3.2 Poison -----------------------------------------------------------------------------


def test_poison_example_poison_2_over_poison_1_flips_and_wounds_at_once() -> None:
    status = FigureStatus()
    assert marks.apply_poison(status, 1).wounds == 0
    result = marks.apply_poison(status, 2)
    assert (result.wounds, status.poison) == (1, 2)
    assert marks.refresh(status) == 1 and status.poison == 1
    assert marks.refresh(status) == 1 and status.poison == 0
    assert marks.refresh(status) == 0


def test_a_lesser_second_poison_is_discarded_with_one_wound() -> None:
    status = FigureStatus(poison=2)
    assert marks.apply_poison(status, 1).wounds == 1 and status.poison == 2


# 7.2.1 Burrowing ---------------------------------------------------------------------------

WORMOON = burrowing.AlienFacts("wormoon", "purple", frozenset({"burrowing"}), True, frozenset())
DIGGER = burrowing.AlienFacts("diggers", "green", frozenset({"burrowing"}), False, frozenset())
DIGGER2 = burrowing.AlienFacts("diggers", "blue", frozenset({"burrowing"}), False, frozenset())


def test_burrowing_example_1_only_the_wounded_wormoon_can_be_hit_even_by_area() -> None:
    wounded_card = burrowing.Activation("health", "wounded")
    targets = [("wormoon", WORMOON), ("d1", DIGGER), ("d2", DIGGER2)]
    assert burrowing.lock_targets(wounded_card, targets) == ["wormoon"]


def test_burrowing_example_2_the_check_is_made_before_the_hit_roll() -> None:
    top = burrowing.Activation("species", "wormoon")
    locked = burrowing.lock_targets(top, [("wormoon", WORMOON)])
    top = burrowing.Activation("count", "1")  # "Descent" changes the discard pile mid-attack
    assert locked == ["wormoon"]  # the attack goes on against the target checked before
    assert burrowing.lock_targets(top, [("wormoon", WORMOON)]) == []  # a new attack would not


@pytest.mark.parametrize(
    ("card", "matches"),
    [
        (burrowing.Activation("all"), True),
        (burrowing.Activation("color", "green"), True),
        (burrowing.Activation("color", "red"), False),
        (burrowing.Activation("power", "burrowing"), True),
        (burrowing.Activation("species", "diggers"), True),
        (burrowing.Activation("position", "k"), True),
        (burrowing.Activation("alpha"), False),
        (burrowing.Activation("count", "2"), False),
        (burrowing.Activation("count-agents"), False),
    ],
)
def test_clear_matching_definition(card: burrowing.Activation, matches: bool) -> None:
    digger = burrowing.AlienFacts(
        "diggers", "green", frozenset({"burrowing"}), False, frozenset({"k"})
    )
    assert burrowing.clearly_matches(card, digger) is matches


def test_non_burrowers_are_always_vulnerable_and_empty_discard_protects_burrowers() -> None:
    crawler = burrowing.AlienFacts("xeno-delta", "blue", frozenset({"flying"}), False, frozenset())
    assert burrowing.vulnerable(None, crawler)
    assert not burrowing.vulnerable(None, DIGGER)


# 5.1 Barrier, 7.1 Flying, 7.3 Seize --------------------------------------------------------


def test_barrier_stops_walkers_not_flyers_or_burrowers_and_never_blocks_sight() -> None:
    assert not movement.crosses("barrier", [])
    assert movement.crosses("barrier", ["flying"])
    assert movement.crosses("barrier", ["burrowing"])
    assert not movement.blocks_sight("barrier")


def test_seize_example_1_the_seized_biotech_inherits_flying_and_lands_next_to_the_critter() -> None:
    from engine.core.hexgrid import Hex, neighbours

    assert movement.can_seize(["immobilize"], 0, is_agent=False) is None
    powers = movement.seized_powers(["flying"], [])
    assert movement.crosses("barrier", powers)  # he crosses the Barrier with the Critter
    critter_end = Hex(0, 0)
    taken = {Hex(1, 0)}
    spot = movement.drop_hex(critter_end, neighbours, lambda h: h not in taken and h != critter_end)
    assert spot in neighbours(critter_end) and spot not in taken


def test_seize_example_2_an_agent_drags_one_bleeding_agent_per_turn() -> None:
    assert movement.can_seize(["bleeding", "immobilize"], 0, is_agent=True) is None
    assert movement.can_seize(["bleeding"], 1, is_agent=True) is not None
    assert movement.can_seize(["bleeding"], 3, is_agent=False) is None  # aliens: no limit
    assert movement.can_seize([], 0, is_agent=True) is not None


def test_seized_agent_goes_to_the_closest_free_hex_when_all_adjacent_are_taken() -> None:
    from engine.core.hexgrid import Hex, distance, neighbours

    end = Hex(0, 0)
    taken = {end, *neighbours(end)}
    spot = movement.drop_hex(end, neighbours, lambda h: h not in taken)
    assert distance(end, spot) == 2


# Storybook 2.2 Event deck stacking, 6.3 balancers ------------------------------------------


def test_event_deck_stacking_mission_4_example() -> None:
    stacks = [["P1", "F1"], ["E"], ["C", "K1"], ["M1", "I1", "Q1"], ["T1", "J1"]]
    for picks in ([0] * 5, [1, 0, 2, 1, 1], [1] * 5):
        deck = events.build_deck(stacks, ScriptedDice([], picks=picks), set_aside=["B"])
        assert set(deck[0:2]) == {"P1", "F1"} and deck[2] == "E"
        assert set(deck[3:5]) == {"C", "K1"} and set(deck[5:8]) == {"M1", "I1", "Q1"}
        assert set(deck[8:10]) == {"T1", "J1"} and "B" not in deck


def test_event_deck_mission_1_specials_land_where_the_storybook_says() -> None:
    stacks = [["A"], ["g1"], ["B"], ["g2"], ["D", "g3"], ["C"]]
    seen = set()
    for pick in (0, 1):
        deck = events.build_deck(stacks, ScriptedDice([], picks=[pick]))
        assert deck[0] == "A" and deck[2] == "B" and deck[6] == "C"
        seen.add(deck.index("D"))
    assert seen == {4, 5}  # between the 5th and the 6th Event


def test_event_deck_refuses_a_set_aside_card_in_a_stack() -> None:
    with pytest.raises(ValueError):
        events.build_deck([["B"]], NO_DICE, set_aside=["B"])


def test_event_balancers_count_real_agents_only() -> None:
    assert events.teleports_fewer_aliens(agents=4, aliens=1) == 3
    assert events.teleports_fewer_aliens(agents=2, aliens=5) == 0
    assert events.teleports_fewer_threats(agents=4, aliens=1, signals=2) == 1
    assert events.teleports_fewer_threats(agents=1, aliens=1, signals=2) == 0


# 11.5 Activate X ----------------------------------------------------------------------------


def test_activate_x_alpha_first_then_table_order_highest_rank_first() -> None:
    aliens = [
        activation.Candidate("a1", "ann", "green"),
        activation.Candidate("a2", "ann", "red"),
        activation.Candidate("b1", "bob", "blue"),
        activation.Candidate("c1", "cid", "purple"),
    ]
    assert activation.select_x(1, aliens, ["ann", "bob", "cid"]).chosen == ["a2"]
    assert activation.select_x(3, aliens, ["ann", "bob", "cid"]).chosen == ["a2", "a1", "b1"]
    assert activation.select_x(9, aliens, ["bob", "cid", "ann"]).chosen == ["b1", "c1", "a2", "a1"]


def test_activate_x_never_picks_a_paralyzed_alien_while_others_are_in_play() -> None:
    aliens = [
        activation.Candidate("a1", "ann", "red", paralyzed=True),
        activation.Candidate("a2", "ann", "green"),
    ]
    assert activation.select_x(1, aliens, ["ann"]).chosen == ["a2"]
    alone = [activation.Candidate("a1", "ann", "red", paralyzed=True)]
    assert activation.select_x(1, alone, ["ann"]).chosen == ["a1"]


def test_activate_x_tie_at_the_cut_is_the_alpha_agents_choice() -> None:
    aliens = [activation.Candidate(f"g{i}", "ann", "green") for i in range(3)]
    sel = activation.select_x(2, [activation.Candidate("r", "ann", "red"), *aliens], ["ann"])
    assert sel.chosen == ["r"] and sel.picks == 1 and sel.choose_from == ["g0", "g1", "g2"]


# 11.3.1 Menace -------------------------------------------------------------------------------


def test_menace_example_the_marine_takes_the_token_but_the_hulk_stays_the_target() -> None:
    token = menace.enters_play("hulk")
    target = menace.target_at_activation(token, archenemy=True, closest="biotech")
    assert target == "hulk"
    menace.wounded_by(token, "marine")  # Guard shot after the Master Alien moved
    assert (token.owner, token.level) == ("marine", 1)
    assert target == "hulk"  # chosen at activation: it still attacks the Hulk


def test_menace_levels_and_actions() -> None:
    token = menace.enters_play("ann")
    menace.wounded_by(token, "ann")
    assert token.level == 2
    menace.wounded_by(token, "bob")  # at 2: only lowered
    assert (token.owner, token.level) == ("ann", 1)
    menace.action(token, "ann", 2)
    menace.action(token, "bob", 1)  # lowers it
    assert (token.owner, token.level) == ("ann", 1)
    menace.action(token, "bob", 1)  # now takes it
    assert (token.owner, token.level) == ("bob", 1)
    with pytest.raises(RuleError):
        menace.action(token, "ann", 2)
    assert menace.target_at_activation(token, archenemy=False, closest="cid") == "cid"


# 10.1.2 NPC assignment ----------------------------------------------------------------------


def test_npc_goes_to_fewest_clockwise_from_alpha_and_never_a_sixth() -> None:
    table = ["bob", "cid", "ann"]
    assert npcs.assign(table, {}, 0) == "bob"
    assert npcs.assign(table, {"bob": 1}, 1) == "cid"
    assert npcs.assign(table, {"bob": 1, "cid": 1, "ann": 1}, 3) == "bob"
    assert npcs.assign(table, {}, 5) is None


# The layer ----------------------------------------------------------------------------------


def test_missing_sections_are_refused_by_name() -> None:
    assert "10.1.1.1 Twins in Arms" in layer.missing()
    with pytest.raises(NotSupportedYet, match=r"10\.1\.1\.1 Twins in Arms"):
        layer.require("10.1.1.1 Twins in Arms")
    layer.require("8.1 Lethal")  # implemented: no error
    with pytest.raises(KeyError):
        layer.supported("99 Nonsense")


def test_every_implemented_section_names_a_real_module() -> None:
    import importlib

    for section, module in layer.SECTIONS.items():
        if module is not None:
            importlib.import_module(f"engine.galaxy.strikeback.{module}"), section


def test_campaign_option_expansion_strikeback_plays_the_strikeback_campaign() -> None:
    from engine.core.dice import SeededDice
    from engine.galaxy import GAME

    strikeback = GAME.new("campaign", ["marine"], {"expansion": "strikeback"}, SeededDice(1))
    assert strikeback.mission == "os1" and strikeback.expansion is not None
    state = GAME.new("campaign", ["marine"], {}, SeededDice(1))
    assert "expansion" not in state.options  # the default stays out of a core save
    assert state.mission == "m1" and state.expansion is None
