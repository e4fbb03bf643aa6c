"""The advisor plays Operation Strikeback's own tools (issue #31): NPC standing orders and
Tactics, the Menace Actions, Energy Shields, promotions (Psionic Powers), and mission 6's
Alpha Agent and facing the Wormoon. Built on mission 6's first turn, where a Master Alien, the
Menace token and an NPC are all in play."""

from __future__ import annotations

from engine.core.dice import SeededDice
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, lifecycle
from engine.galaxy.advisor import advise
from engine.galaxy.agent import start_turn
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, AlienState, GalaxyState, WeaponState
from engine.galaxy.strikeback import advisor_tools, suits
from engine.galaxy.strikeback.mission_rules import os6, rules_for
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.world import (
    FACINGS,
    adjacent,
    alien_adjacent,
    board_of,
    co,
    free,
    hx,
    in_front,
    max_hp,
)

SEATS = ["marine", "hulk", "sniper"]


def first_turn() -> GalaxyState:
    """Mission 6 for three agents through its first Strategy phase (each prompt's first
    option), at the first Agent turn."""
    state = GAME.new("os6", SEATS, {}, SeededDice(11))
    for n in range(60):
        state = GAME.advance(state, SeededDice(n)).state
        if state.phase == "agent" and state.pending is None:
            return state
        seat = GAME.waiting_on(state).seats[0]
        pick = next(a for a in GAME.legal_actions(state, seat) if a.verb == "choose")
        state = GAME.apply(state, seat, pick, SeededDice(100 + n)).state
    raise AssertionError("the first Strategy phase did not end")


def worm(state: GalaxyState) -> AlienState:
    return next(a for a in state.aliens if a.card.startswith("wormoon"))


def npc_and_controller(state: GalaxyState) -> tuple[AgentState, AgentState]:
    layer = sb_state(state)
    figure = next(a for a in state.agents.values() if a.id in layer.npcs)
    return figure, state.agents[layer.npcs[figure.id].controller]


def test_an_npc_hunts_the_strongest_alien_while_a_master_is_in_play_then_spends_its_tactic() -> (
    None
):
    state = first_turn()
    figure, boss = npc_and_controller(state)
    info = sb_state(state).npcs[figure.id]
    info.tactic = "overcharge"
    actions = GAME.legal_actions(state, boss.id)
    first = advisor_tools.advise(state, boss, actions)
    assert first is not None and first.args["order"] == f"{figure.id}-target-strongest"
    info.target = "strongest"
    w = worm(state)
    figure.hex = co(next(n for n in neighbours(hx(w.hex)) if free(state, n)))
    actions = GAME.legal_actions(state, boss.id)
    second = advisor_tools.advise(state, boss, actions)
    assert second is not None and second.args["order"] == f"{figure.id}-tactic-on"
    info.use_tactic = True  # once ordered it is not asked again
    assert advisor_tools.advise(state, boss, GAME.legal_actions(state, boss.id)) is None


def test_a_sturdy_agent_takes_the_menace_from_a_bleeding_menacing_agent() -> None:
    state = first_turn()
    menace = sb_state(state).menace
    assert menace is not None
    other = state.agents[state.turn_order[state.turn_index]]  # the agent whose turn it is
    owner = next(state.agents[s] for s in SEATS if s != other.id)
    menace.owner = owner.id
    owner.bleeding, owner.wounds = True, max_hp(owner)
    other.wounds = 0
    menace.level = 2
    down = advisor_tools.closing(state, other, GAME.legal_actions(state, other.id))
    assert down is not None and down.args["what"] == "menace-down"
    menace.level = 1
    take = advisor_tools.closing(state, other, GAME.legal_actions(state, other.id))
    assert take is not None and take.args["what"] == "menace-take"
    owner.bleeding, owner.wounds = False, 0  # a healthy Menacing Agent keeps it
    assert advisor_tools.closing(state, other, GAME.legal_actions(state, other.id)) is None


def test_promotions_take_what_the_advisor_plays_and_a_psionic_power_before_movement() -> None:
    state = first_turn()
    marine = state.agents["marine"]
    carries_alien = any(w.key == "ion-lance" for w in marine.weapons)
    options = ["sprint", "alien-knowledge", "marksman", "psionic", "medic"]
    picked = advisor_tools.promotion(state, "marine", options)
    assert picked == ("alien-knowledge" if carries_alien else "marksman")
    assert advisor_tools.promotion(state, "marine", ["sprint", "psionic", "medic"]) == "psionic"
    assert advisor_tools.promotion(state, "marine", ["sprint", "medic"]) == "medic"
    assert advisor_tools.promotion(state, "marine", ["adrenaline", "focus-fire"]) == "focus-fire"


def test_mission_6_hands_the_alpha_token_to_the_agent_the_team_can_best_spare() -> None:
    state = first_turn()
    marine, hulk, sniper = (state.agents[s] for s in SEATS)
    marine.wounds, hulk.wounds, sniper.wounds = 0, 0, 0
    sniper.wounds = 2  # the fewest Health points left (Hulk and Marine have more)
    assert max_hp(sniper) - 2 < min(max_hp(marine), max_hp(hulk))
    rules = rules_for("os6")
    assert rules.alpha_advice(state, SEATS) == "sniper"
    assert advisor_tools.prompt_advice(state, "alpha", "marine", SEATS) == "sniper"


def test_an_agent_turns_to_the_wormoon_rather_than_shoot_another_alien() -> None:
    state = first_turn()
    seat = state.turn_order[state.turn_index]
    agent = state.agents[seat]
    w = worm(state)
    spot = next(n for n in neighbours(hx(w.hex)) if free(state, n))
    agent.hex = co(spot)
    away = next(
        i
        for i in range(len(FACINGS))
        if not in_front(agent.model_copy(update={"facing": i}), w.hex)
    )
    agent.facing = away
    agent.skills = [*agent.skills, "alien-knowledge"]
    sb_state(state).headquarters = []  # no Power Suit to recall first
    state.ce_deck.discard_pile.append("os-30")  # the Wormoon by name: it can be targeted (7.2.1)
    actions = GAME.legal_actions(state, seat)
    assert not any(a.verb == "attack" and a.args.get("target") == w.id for a in actions)
    picked = advise(state, seat, actions)
    assert (
        picked is not None and picked.verb == "orders" and picked.args["order"].startswith("face-")
    )
    turned = GAME.apply(state, seat, picked, SeededDice(1)).state
    after = GAME.legal_actions(turned, seat)
    assert any(a.verb == "attack" and a.args.get("target") == w.id for a in after)


def test_a_pilot_seizes_an_engaged_bleeding_teammate_and_puts_him_down_out_of_reach() -> None:
    """7.3 (Seize example 2) played by the advisor: the pilot of a Power Suit next to a Bleeding
    teammate whom an alien engages seizes him as a Free Action, then puts him down on a free hex
    next to the suit that no alien engages."""
    seats = ["hulk", "biotech"]
    state = GAME.new("m1", seats, {"human-view": "off", "fighting-poses": "on"}, SeededDice(7))
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", "hulk"
    state.turn_order, state.turn_index = list(seats), 0
    board = board_of(state)
    for i, seat in enumerate(seats):
        state.agents[seat].hex = co(board.starts[i])
    suits.stock_headquarters(state, 1, 3, [])
    recall = Action(verb="act", args={"unit": "hulk", "what": suits.RECALL, "target": "suit-1"})
    start_turn(state, state.agents["hulk"])
    state = GAME.apply(state, "hulk", recall, SeededDice(1)).state
    assert isinstance(state, GalaxyState)
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    start_turn(state, hulk)
    assert hulk.hex is not None
    here = hx(hulk.hex)
    # the Biotech next to the pilot, an alien next to the Biotech but two hexes from the pilot
    plan = next(
        (bio, foe)
        for bio in neighbours(here)
        if free(state, bio) and adjacent(state, hulk.hex, co(bio))
        for foe in neighbours(bio)
        if free(state, foe) and foe != here and foe not in neighbours(here)
    )
    bio, foe = plan
    biotech.hex = co(bio)
    biotech.bleeding, biotech.wounds = True, max_hp(biotech)
    lifecycle.place_alien(state, "aracnos-green-1", foe, [], "is placed")
    actions = GAME.legal_actions(state, "hulk")
    seize = advise(state, "hulk", actions)
    assert seize is not None and seize.args == {
        "unit": "hulk",
        "what": suits.SEIZE,
        "target": "biotech",
    }
    state = GAME.apply(state, "hulk", seize, SeededDice(2)).state
    assert isinstance(state, GalaxyState)
    drop = advise(state, "hulk", GAME.legal_actions(state, "hulk"))
    assert drop is not None and drop.args["what"] == suits.DROP
    state = GAME.apply(state, "hulk", drop, SeededDice(3)).state
    assert isinstance(state, GalaxyState)
    biotech = state.agents["biotech"]
    assert biotech.hex is not None and label(hx(biotech.hex)) == drop.args["to"]
    alien = next(a for a in state.aliens if a.card.startswith("aracnos"))
    assert not alien_adjacent(state, alien, biotech.hex)


def test_an_agent_who_can_hit_the_wormoon_shoots_it_and_never_turns_back_and_forth() -> None:
    """Found by self-play (campaign seed 10005, four agents: 20,000 steps of face-ne / face-e):
    a Biotech with the Fusion Lance (fixed Hits, no dice) next to the Wormoon, which two of
    his facings reach. He shoots it; and the turn toward it is only for when he cannot."""
    state = first_turn()
    seat = state.turn_order[state.turn_index]
    agent = state.agents[seat]
    w = worm(state)
    agent.hex = co(next(n for n in neighbours(hx(w.hex)) if free(state, n)))
    agent.facing = next(
        i for i in range(len(FACINGS)) if in_front(agent.model_copy(update={"facing": i}), w.hex)
    )
    agent.weapons = [WeaponState(key="fusion-lance", ammo=0)]
    agent.skills = [*agent.skills, "alien-knowledge"]
    sb_state(state).headquarters = []  # no Power Suit to recall first
    state.ce_deck.discard_pile.append("os-30")  # the Wormoon by name: it can be targeted (7.2.1)
    actions = GAME.legal_actions(state, seat)
    assert any(a.verb == "attack" and a.args.get("target") == w.id for a in actions)
    rules = rules_for("os6")
    picked = rules.advice(state, agent, actions)
    assert picked is not None and picked.verb == "attack" and picked.args["target"] == w.id
    no_shot = [a for a in actions if a.verb != "attack"]  # e.g. a shot the engine refuses
    assert os6._turn_to(state, agent, no_shot, {w.id}) is None
