"""Operation Strikeback mission 2 (`os2`, "Underground Tremor") on map B1+M1: the probes the
Alpha Agent hands out, carried, dropped at death and picked up, planted (Deploy) and armed
(Arm); the Event phase skipped until Waypoint 1 listens; Special Events D (the rush to B) and B
(the Diggers, their cards, the probe rules); the Diggers hunting planted probes (2 HP, BLUE
defence, scripted dice); the Objectives table."""

from __future__ import annotations

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, aliens, objectives, phases
from engine.galaxy.board import load_map
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import play
from engine.galaxy.strikeback.mission_rules import os2, tokens
from engine.galaxy.world import adjacent, co, free, hx


def mission(seats: list[str], seed: int = 1) -> GalaxyState:
    state = GAME.new("os2", seats, {"human-view": "off"}, SeededDice(seed))
    return state


def hand_out(state: GalaxyState) -> GalaxyState:
    """Answer the Strategy phase's prompts (first option) until an agent's turn begins."""
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


def agent_turn(state: GalaxyState, seat: str) -> AgentState:
    state.phase, state.pending = "agent", None
    state.turn_order, state.turn_index = [seat], 0
    agent = state.agents[seat]
    agent.action_used = False
    agent.movement = "unused"
    return agent


def act(state: GalaxyState, seat: str, what: str, target: str) -> tuple[GalaxyState, list[Event]]:
    args = {"unit": seat, "what": what, "target": target}
    listed = [a for a in GAME.legal_actions(state, seat) if a.verb == "act" and a.args == args]
    assert listed, [a.args for a in GAME.legal_actions(state, seat) if a.verb == "act"]
    action = listed[0]
    result = GAME.apply(state, seat, action, SeededDice(2))
    return result.state, list(result.events)


def run_event(state: GalaxyState, card_id: str | None = None) -> list[Event]:
    if card_id is not None:
        state.event_deck.draw_pile.append(card_id)
    events: list[Event] = []
    phases.event_phase(state, SeededDice(5), events)
    return events


def test_os2_is_listed_on_the_joined_map_with_the_storybook_deck() -> None:
    assert "os2" in [s.key for s in GAME.scenarios()]
    board = load_map("b1m1")
    assert {"u1", "u2", "u3", "m4", "wp1", "m1"} <= set(board.marks.values())
    assert "bolt" in board.teleports
    state = mission(["marine", "biotech"])
    top_first = list(reversed(state.event_deck.draw_pile))
    assert len(top_first) == 8
    assert (top_first[0], top_first[4], top_first[7]) == ("os2-d", "os2-b", "os2-c")
    assert state.expansion is not None
    assert sorted(os2.mine(state).pieces) == ["probe1", "probe2", "probe3", "probe4"]


def test_the_alpha_agent_hands_out_four_probes_at_least_one_each() -> None:
    state = mission(["marine", "biotech", "hulk"])
    seen: list[list[str]] = []
    for _ in range(40):
        state = GAME.advance(state, SeededDice(3)).state
        pending = state.pending
        if pending is None:
            break
        if pending.kind == "sb-mission":
            assert pending.seat == state.alpha
            seen.append(list(pending.options))
            choice = state.alpha  # the Alpha Agent keeps piling them on himself
            if choice not in pending.options:
                choice = pending.options[0]
        else:
            choice = pending.options[0]
        state = GAME.apply(
            state, pending.seat, Action(verb="choose", args={"option": choice}), SeededDice(3)
        ).state
    assert len(seen) == 4
    counts = {s: len(tokens.carried(state, s, "probe")) for s in state.seats}
    assert sum(counts.values()) == 4 and min(counts.values()) >= 1
    # with two probes left and two empty-handed agents, only they are offered
    assert len(seen[2]) == 2 and state.alpha not in seen[2]
    # standalone: a random device each on top of an empty kit (a core or an expansion one)
    assert all(len(kit(state, s)) == 1 for s in state.seats)


def kit(state: GalaxyState, seat: str) -> list[str]:
    """His devices: the core's on his sheet, the expansion's in its own part."""
    return [*state.agents[seat].devices, *play.sb(state).devices.get(seat, [])]


def test_after_an_accomplished_mission_1_each_agent_selects_his_device() -> None:
    """Mission 2's first Reinforcements use the briefing hand-outs (2.1): each agent picks one
    device from the whole Warehouse (core and expansion devices that fit him), one prompt each
    to his own player."""
    state = mission(["marine", "biotech"])
    play.sb(state).previous = "accomplished"
    asked: list[str] = []
    for _ in range(40):
        state = GAME.advance(state, SeededDice(3)).state
        pending = state.pending
        if pending is None:
            break
        if pending.kind == "sb-pick":
            asked.append(pending.seat)
            assert "harpoon" in pending.options or "jet-boots" in pending.options  # expansion
        pick = Action(verb="choose", args={"option": pending.options[0]})
        state = GAME.apply(state, pending.seat, pick, SeededDice(3)).state
    assert sorted(asked) == ["biotech", "marine"]
    assert all(len(kit(state, s)) == 1 for s in state.seats)


def test_event_phase_is_skipped_until_waypoint_1_listens_then_deploy_starts_it() -> None:
    state = mission(["marine"])
    state = hand_out(state)
    assert tokens.carried(state, "marine", "probe") == ["probe1", "probe2", "probe3", "probe4"]
    deck = list(state.event_deck.draw_pile)
    events = run_event(state)
    assert any("skipped" in e.text for e in events)
    assert state.event_deck.draw_pile == deck
    marine = agent_turn(state, "marine")
    u1 = os2.site(state, 1)
    marine.hex = next_to(state, u1)
    state, events = act(state, "marine", "deploy", "u1")
    assert os2.planted(state, 1) == "probe1"
    assert any("Event phases begin" in e.text for e in events)
    events = run_event(state)
    assert any("First Echo" in e.text for e in events)


def test_deploy_is_refused_when_engaged_far_or_without_a_probe() -> None:
    state = mission(["marine", "biotech"])
    state = hand_out(state)
    carrier = next(s for s in state.seats if tokens.carried(state, s, "probe"))
    agent = agent_turn(state, carrier)
    assert agent.hex is not None
    rules = play.rules(state)
    assert rules.action_problem(state, agent, "deploy", {"target": "u1"}) == (
        "must stand next to Waypoint 1"
    )
    agent.hex = next_to(state, os2.site(state, 2))
    assert rules.action_problem(state, agent, "deploy", {"target": "u2"}) is None
    from engine.galaxy import lifecycle

    spot = next_to(state, agent.hex)
    lifecycle.place_alien(state, "xeno-beta-green-1", hx(spot), [], "lands")
    assert rules.action_problem(state, agent, "deploy", {"target": "u2"}) == "is Engaged in combat"
    state.aliens = []
    for token in os2.mine(state).pieces.values():
        token.holder = ""
    assert rules.action_problem(state, agent, "deploy", {"target": "u2"}) == (
        "carries no Underground Probe"
    )


def test_a_dead_carrier_drops_his_probes_and_another_agent_picks_them_up_walking_over() -> None:
    state = mission(["marine", "biotech"])
    state = hand_out(state)
    from engine.galaxy import combat

    victim = state.agents["biotech"]
    mine = tokens.carried(state, "biotech", "probe")
    assert mine
    spot = victim.hex
    assert spot is not None
    victim.bleeding = True
    combat.wound_agent(state, victim, 1, [], "test")
    assert victim.dead
    assert tokens.carried(state, "biotech", "probe") == []
    assert tokens.lying(state, "probe") == [spot] * len(mine)
    marine = agent_turn(state, "marine")
    from engine.galaxy.agent import start_turn

    start_turn(state, marine)
    marine.hex = next_to(state, spot)
    state = GAME.apply(
        state,
        "marine",
        Action(verb="move", args={"unit": "marine", "to": _label(spot)}),
        SeededDice(1),
    ).state
    assert set(mine) <= set(tokens.carried(state, "marine", "probe"))


def _label(c: tuple[int, int]) -> str:
    from engine.galaxy.board import label

    return label(hx(c))


def test_second_probe_before_b_rushes_the_deck_to_b_which_brings_the_diggers() -> None:
    state = mission(["marine", "biotech"])
    state = hand_out(state)
    for token in os2.mine(state).pieces.values():
        token.holder = "marine"
    marine = agent_turn(state, "marine")
    marine.hex = next_to(state, os2.site(state, 1))
    state, _ = act(state, "marine", "deploy", "u1")
    run_event(state)  # Special Event D, top of the deck
    marine = agent_turn(state, "marine")
    marine.hex = next_to(state, os2.site(state, 2))
    state, _ = act(state, "marine", "deploy", "u2")
    state.round = 3
    events = run_event(state)
    texts = [e.text for e in events]
    assert any("drawn through to Special Event B" in t for t in texts)
    assert any("They Dig Up" in t for t in texts)
    assert os2.planted(state, 1) is None and os2.planted(state, 2) is not None  # #1 crushed
    diggers = [a for a in state.aliens if a.card.startswith("diggers")]
    assert len(diggers) == 4  # two Prime Swarm cards, two figures each
    blue = [a for a in diggers if a.card == "diggers-blue"]
    green = [a for a in diggers if a.card == "diggers-green"]
    assert {a.controller for a in blue} == {state.alpha}
    left = state.seats[(state.seats.index(state.alpha) + 1) % 2]
    assert {a.controller for a in green} == {left}
    assert state.alien_deck.draw_pile.count("diggers-blue") == 1
    assert state.ce_deck.draw_pile[-1] == "os-29b"  # one #29 on top, the other shuffled in
    assert state.ce_deck.draw_pile.count("os-29a") == 1
    assert os2.mine(state).flags["probe-rules"] == 4  # from the next round on
    assert state.round == 4 and os2.hunting(state)
    state.round = 3
    assert not os2.hunting(state)


def test_the_danger_on_29_teleports_green_diggers_in_when_none_is_on_the_battlefield() -> None:
    """#29 is a DANGER card (Special Event B shuffles one in and puts the other on top): with
    no Diggers on the battlefield, a green Diggers comes in from the Alien deck instead."""
    state = hand_out(mission(["marine"]))
    state.aliens = [a for a in state.aliens if not a.card.startswith("diggers")]
    state.alien_deck.draw_pile.append("diggers-green")
    state.phase, state.turn_order, state.turn_index = "aliens", ["marine"], 0
    state.ce_deck.put_on_top("os-29a")
    events: list[Event] = []
    phases.aliens_turn(state, SeededDice(4), events)
    arrived = [a for a in state.aliens if a.card == "diggers-green"]
    assert arrived, [e.text for e in events]
    assert any("Danger on Swarm Below" in (e.text or "") for e in events)
    assert "diggers-green" not in state.alien_deck.draw_pile


def test_diggers_hunt_a_planted_probe_first_and_two_wounds_destroy_it() -> None:
    state = mission(["marine"])
    state = hand_out(state)
    for token in os2.mine(state).pieces.values():
        token.holder = "marine"
    marine = agent_turn(state, "marine")
    marine.hex = next_to(state, os2.site(state, 2))
    state, _ = act(state, "marine", "deploy", "u2")
    os2.mine(state).flags["probe-rules"] = state.round
    from engine.galaxy import lifecycle

    u2 = os2.site(state, 2)
    spot = next_to(state, u2)
    digger = lifecycle.place_alien(state, "diggers-green", hx(spot), [], "digs up")
    # the Marine stands next to the Digger as well, but the probe counts as the weakest agent
    events: list[Event] = []
    # Fangs 2 BLUE: hit+hit+shield twice = 4 Hits; the probe's 4 BLUE dice: alien, hit+shield,
    # alien, alien = 1 Shield: 3 wounds on 2 HP.
    aliens.activate(state, digger, ScriptedDice([2, 3, 1, 6, 1, 1]), events)
    texts = [e.text for e in events]
    assert any("the probe" in t and "attacks" in t for t in texts), texts
    assert os2.planted(state, 2) is None
    assert any("destroyed" in t for t in texts)


def test_arm_needs_both_probes_the_probe_rules_and_waypoint_3_then_the_mission_is_won() -> None:
    state = mission(["marine", "biotech"])
    state = hand_out(state)
    for token in os2.mine(state).pieces.values():
        token.holder = "marine"
    marine = agent_turn(state, "marine")
    marine.hex = next_to(state, os2.site(state, 1))
    state, _ = act(state, "marine", "deploy", "u1")
    marine = agent_turn(state, "marine")
    marine.hex = next_to(state, os2.site(state, 2))
    state, _ = act(state, "marine", "deploy", "u2")
    biotech = agent_turn(state, "biotech")
    biotech.hex = os2.site(state, 3)
    rules = play.rules(state)
    assert "before Special Event B" in str(rules.action_problem(state, biotech, "arm", {}))
    os2.mine(state).flags["probe-rules"] = state.round
    biotech.hex = next_to(state, os2.site(state, 3))
    assert rules.action_problem(state, biotech, "arm", {}) == "must stand on Waypoint 3"
    biotech.hex = os2.site(state, 3)
    state, _ = act(state, "biotech", "arm", "u3")
    assert os2.armed(state)
    events: list[Event] = []
    assert objectives.mission_status(state, events)
    assert state.outcome == "accomplished"


def test_the_last_event_without_armed_probes_fails_the_mission() -> None:
    state = mission(["marine"])
    state = hand_out(state)
    os2.mine(state).flags["listening"] = 1
    state.event_deck.draw_pile = []
    events: list[Event] = []
    assert objectives.mission_status(state, events)
    assert state.outcome == "failed"


def test_search_in_the_shuttle_opens_only_after_special_event_d() -> None:
    state = mission(["marine"])
    state = hand_out(state)
    marine = agent_turn(state, "marine")
    from engine.galaxy.board import load_map

    shuttle = load_map("b1m1").centres["d"]
    marine.hex = co(shuttle)

    def searches() -> list[Action]:
        return [a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "search"]

    assert searches() == []
    os2.mine(state).flags["listening"] = 1
    run_event(state)  # Special Event D, the top card
    marine = agent_turn(state, "marine")
    assert searches()
