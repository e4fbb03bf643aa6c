"""Operation Strikeback mission 3 (`os3`, "A Deep Impact") on map B1+M1: the EMP-Nuke Bombs
(aliens' favourite target, 2 HP, back on their Waypoint when wrecked, no stopping on them),
carried as a Free Action and put down when the turn ends, planted (Deploy), detonated with the
Remote Control; the Event phase replaced until the first two go off; Special Events A, B
(the Archon and its free shot) and E (a Power Suit); Jet Boots kept; the Objectives table."""

from __future__ import annotations

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, aliens, lifecycle, objectives, phases
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import play
from engine.galaxy.strikeback.mission_rules import os3, tokens
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.world import adjacent, co, free, hx


def mission(seats: list[str], seed: int = 1) -> GalaxyState:
    return GAME.new("os3", seats, {"human-view": "off"}, SeededDice(seed))


def ready(state: GalaxyState) -> GalaxyState:
    """Answer the first Strategy phase's prompts (first option) until an agent's turn."""
    for _ in range(30):
        state = GAME.advance(state, SeededDice(3)).state
        if state.pending is None:
            return state
        answer = Action(verb="choose", args={"option": state.pending.options[0]})
        state = GAME.apply(state, state.pending.seat, answer, SeededDice(3)).state
    raise AssertionError("the Strategy phase never ended")


def next_to(state: GalaxyState, spot: tuple[int, int]) -> tuple[int, int]:
    return next(
        co(h) for h in neighbours(hx(spot)) if free(state, h) and adjacent(state, spot, co(h))
    )


def turn(state: GalaxyState, seat: str) -> AgentState:
    state.phase, state.pending = "agent", None
    state.turn_order, state.turn_index = [seat], 0
    agent = state.agents[seat]
    agent.action_used, agent.movement = False, "unused"
    return agent


def act(state: GalaxyState, seat: str, what: str, **args: str) -> GalaxyState:
    want = {"unit": seat, "what": what, **args}
    listed = [a for a in GAME.legal_actions(state, seat) if a.verb == "act" and a.args == want]
    assert listed, [a.args for a in GAME.legal_actions(state, seat) if a.verb == "act"]
    return GAME.apply(state, seat, listed[0], SeededDice(2)).state


def test_setup_bombs_on_the_shuttle_waypoints_remote_and_two_jet_boots() -> None:
    state = ready(mission(["marine", "biotech", "hulk"]))
    bombs = os3.bombs(state)
    assert bombs["bomb1"].hex == os3.site(state, 3) and bombs["bomb2"].hex == os3.site(state, 4)
    assert os3.mine(state).pieces["remote"].holder in state.seats
    shod = [a for a, kit in play.sb(state).devices.items() if "jet-boots" in kit]
    assert len(shod) == 2
    assert all(len(state.agents[a].devices) == 1 for a in shod)  # in place of a device
    assert not free(state, hx(bombs["bomb1"].hex))  # nobody stops on a bomb
    assert state.expansion is not None and "archon-1" not in sb_state(state).npc_deck


def test_event_phase_is_replaced_until_two_bombs_go_off() -> None:
    state = ready(mission(["marine"]))
    deck = list(state.event_deck.draw_pile)
    events: list[Event] = []
    phases.event_phase(state, SeededDice(4), events)
    assert state.event_deck.draw_pile == deck
    assert any("Signals close in and teleport" in e.text for e in events)
    os3.mine(state).flags["detonated"] = 2
    events = []
    phases.event_phase(state, SeededDice(4), events)
    assert any("Second Charge" in e.text for e in events)  # Special Event A, the 1st
    assert os3.mine(state).flags["wp-moved"] == 1
    assert os3.site(state, 1) == co(play.mark_hex(state, "m1"))
    assert os3.bombs(state)["bomb1"].hex == os3.site(state, 3)


def test_carry_is_a_free_action_and_the_bomb_is_left_next_to_him_when_his_turn_ends() -> None:
    state = ready(mission(["marine"]))
    marine = turn(state, "marine")
    bomb = os3.bombs(state)["bomb1"]
    assert bomb.hex is not None
    marine.hex = next_to(state, bomb.hex)
    state = act(state, "marine", "carry-bomb", target="bomb1")
    marine = state.agents["marine"]
    assert tokens.carried(state, "marine", "bomb") == ["bomb1"]
    assert not marine.action_used  # a Free Action
    assert [a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "drop-bomb"]
    events: list[Event] = []
    play.turn_over(state, "marine", events)
    left = os3.bombs(state)["bomb1"]
    assert left.holder == "" and left.hex is not None and marine.hex is not None
    assert adjacent(state, left.hex, marine.hex)


def test_aliens_go_for_a_lying_bomb_and_a_wrecked_one_returns_to_its_waypoint() -> None:
    state = ready(mission(["marine"]))
    bomb = os3.bombs(state)["bomb2"]
    assert bomb.hex is not None
    start = bomb.hex
    moved_to = next_to(state, os3.site(state, 1))
    bomb.hex = moved_to
    beta = lifecycle.place_alien(state, "xeno-beta-green-1", hx(next_to(state, moved_to)), [], "x")
    events: list[Event] = []
    # Blaster 2 BLUE: hit+hit+shield twice = 4 Hits; the bomb's 4 BLUE dice all alien faces
    aliens.activate(state, beta, ScriptedDice([2, 3, 1, 1, 1, 1]), events)
    assert any("attacks an EMP-Nuke Bomb" in e.text for e in events)
    assert os3.bombs(state)["bomb2"].hex == start and os3.bombs(state)["bomb2"].wounds == 0


def test_deploy_then_the_remote_holder_detonates_both_and_four_win() -> None:
    state = ready(mission(["marine", "biotech"]))
    holder = os3.mine(state).pieces["remote"].holder
    other = next(s for s in state.seats if s != holder)
    for key, wp in (("bomb1", 1), ("bomb2", 2)):
        agent = turn(state, other)
        os3.mine(state).pieces[key].holder, os3.mine(state).pieces[key].hex = other, None
        agent.hex = next_to(state, os3.site(state, wp))
        state = act(state, other, "deploy-bomb", target=f"wp{wp}")
    assert os3.planted(state, 1) == "bomb1" and os3.planted(state, 2) == "bomb2"
    beta = lifecycle.place_alien(
        state, "xeno-beta-green-1", hx(next_to(state, os3.site(state, 1))), [], "x"
    )
    assert play.rules(state).decoys(state, beta) == {}  # planted bombs are no targets
    turn(state, holder)
    state = act(state, holder, "detonate", target="wp1")
    assert os3.detonated(state) == 2
    events: list[Event] = []
    state.event_deck.draw_pile = []
    assert objectives.mission_status(state, events) and state.outcome == "partial"
    state.outcome, state.phase = None, "agent"
    os3.mine(state).flags["detonated"] = 4
    assert objectives.mission_status(state, []) and state.outcome == "accomplished"


def test_special_event_b_lands_the_archon_who_shoots_the_blue_xeno_alpha() -> None:
    state = ready(mission(["marine", "biotech"]))
    state.event_deck.draw_pile.append("os3-b")
    os3.mine(state).flags["detonated"] = 2
    events: list[Event] = []
    phases.event_phase(state, SeededDice(9), events)
    assert "archon-1" in state.agents
    cards = {a.card for a in state.aliens}
    assert {"xeno-alpha-green-1", "xeno-delta-blue", "xeno-alpha-blue-1", "nexus-blue-1"} <= cards
    assert any("The Archon fires its Proton Rifle" in e.text for e in events)
    assert state.ce_deck.draw_pile[-1] == "os-24"
    assert os3.mine(state).flags["weapon-offer"] == 1  # asked at the next Reinforcements


def test_special_event_e_brings_an_empty_power_suit_to_mark_4() -> None:
    state = ready(mission(["marine"]))
    state.event_deck.draw_pile.append("os3-e")
    os3.mine(state).flags["detonated"] = 2
    phases.event_phase(state, SeededDice(9), [])
    assert state.expansion is not None and len(sb_state(state).suits) == 1


def test_jet_boots_are_kept_after_a_flight() -> None:
    state = ready(mission(["marine", "biotech"]))
    shod = next(a for a, kit in play.sb(state).devices.items() if "jet-boots" in kit)
    turn(state, shod)
    flights = [a for a in GAME.legal_actions(state, shod) if a.args.get("what") == "jet-boots"]
    assert flights
    state = GAME.apply(state, shod, flights[0], SeededDice(1)).state
    assert "jet-boots" in play.sb(state).devices[shod]


def _offer_alien_weapon(state: GalaxyState, wanted: str) -> list[Event]:
    """Special Event B's offer reaches the Reinforcements with the weapon draw `wanted`."""
    for seed in range(200):
        trial = state.model_copy(deep=True)
        os3.mine(trial).flags["weapon-offer"] = 1
        events: list[Event] = []
        play.rules(trial).reinforcements(trial, SeededDice(seed), events)
        if play.sb(trial).asks and play.sb(trial).asks[-1].endswith(wanted):
            os3.mine(state).flags["weapon-offer"] = 1
            play.rules(state).reinforcements(state, SeededDice(seed), [])
            play.sb(state).asks = play.sb(state).asks[-1:]
            play.ask_next(state)
            return events
    raise AssertionError(f"no draw gives the {wanted}")


def test_special_event_b_alien_weapon_goes_only_to_an_agent_of_its_class() -> None:
    """The Phase Scythe is the Infiltrator's: the Marine is never offered it (he once received
    it in place of his Improved Rifle); the Infiltrator chooses what it replaces."""
    state = ready(mission(["marine", "infiltrator"]))
    events = _offer_alien_weapon(state, "phase-scythe")
    assert any("Phase Scythe" in e.text for e in events)
    pending = state.pending
    assert pending is not None and pending.kind == "sb-mission"
    assert pending.options == ["infiltrator", "none"]
    assert "Phase Scythe" in str(pending.data["question"])
    pick = Action(verb="choose", args={"option": "infiltrator"})
    state = GAME.apply(state, pending.seat, pick, SeededDice(1)).state
    offer = state.pending
    assert offer is not None and offer.kind == "accept" and offer.seat == "infiltrator"
    assert "refuse" in offer.options and len(offer.options) >= 2
    before = [w.key for w in state.agents["marine"].weapons]
    choice = next(o for o in offer.options if o != "refuse")
    state = GAME.apply(
        state, "infiltrator", Action(verb="choose", args={"option": choice}), SeededDice(1)
    ).state
    assert "phase-scythe" in [w.key for w in state.agents["infiltrator"].weapons]
    assert [w.key for w in state.agents["marine"].weapons] == before
