"""Mission 6 (storybook 7, "The Last Starfighters", scenario `os6`): the Wormoon hunt, through
the game's own setup, Strategy, Event and action code with scripted dice where they decide."""

from __future__ import annotations

from engine.core.deck import Deck
from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, attack, phases, supply
from engine.galaxy.board import label
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.strikeback.cards import cards
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.mission_rules.os6 import hunt
from engine.galaxy.strikeback.play import mark_hex
from engine.galaxy.strikeback.status import sb_state_or_none
from engine.galaxy.world import alien_hexes, board_of, co, free, hx, occupant

SEATS = ["marine", "hulk", "sniper"]


def start(seats: list[str] | None = None, options: dict[str, str] | None = None) -> GalaxyState:
    return GAME.new("os6", seats or SEATS, options or {}, SeededDice(11))


def to_first_turn(state: GalaxyState) -> GalaxyState:
    """Advance through the first Strategy phase, answering every prompt with its first option
    (the Alpha Agent is the Marine)."""
    for n in range(60):
        state = GAME.advance(state, SeededDice(n)).state
        prompt = GAME.waiting_on(state)
        if state.phase == "agent" and state.pending is None:
            return state
        seat = prompt.seats[0]
        choices = [a for a in GAME.legal_actions(state, seat) if a.verb == "choose"]
        pick = next((a for a in choices if a.args["option"] == "marine"), choices[0])
        state = GAME.apply(state, seat, pick, SeededDice(100 + n)).state
    raise AssertionError("the first Strategy phase did not end")


def worm(state: GalaxyState) -> AlienState:
    return next(a for a in state.aliens if a.card.startswith("wormoon"))


def test_setup_the_wormoon_in_its_lair_a_mark_ii_at_headquarters() -> None:
    state = start()
    sb = sb_state_or_none(state)
    assert sb is not None and sb.master_down == "os6-a"
    w = worm(state)
    assert w.card == "wormoon-1" and hx(w.hex) == mark_hex(state, "wp1")
    assert len(alien_hexes(state, w)) == 2
    assert [(s.mark, s.batteries) for s in sb.headquarters] == [(2, 3)]
    assert all(c.startswith("knight") for c in sb.npc_deck)  # the Archons are set aside


def test_first_strategy_gives_the_alpha_the_wormoon_the_menace_probes_and_the_npc() -> None:
    state = start()
    asked: list[str] = []
    for n in range(60):
        state = GAME.advance(state, SeededDice(n)).state
        if state.phase == "agent" and state.pending is None:
            break
        pending = state.pending
        assert pending is not None
        asked.append(str(pending.data.get("ask", pending.kind)))
        seat = pending.seat
        options = pending.options
        pick = "marine" if "marine" in options else options[0]
        state = GAME.apply(
            state, seat, Action(verb="choose", args={"option": pick}), SeededDice(n)
        ).state
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None and sb.mission_state is not None
    assert sb.menace.owner == state.alpha == "marine" and worm(state).controller == "marine"
    assert asked.count("probe") == 3  # one per agent, four at most
    assert sorted(hunt(state).carriers) == sorted(SEATS)
    assert "npc" in asked and any(f.startswith("knight") for f in state.agents)


def test_event_phases_leave_signals_alone() -> None:
    state = to_first_turn(start())
    before = [(s.id, s.hex) for s in state.signals]
    state.event_deck = Deck(name="Event", draw_pile=["os-k1"])  # teleport Signals (1..3)
    events: list[Event] = []
    phases.event_phase(state, SeededDice(2), events)
    assert [(s.id, s.hex) for s in state.signals] == before
    assert any("leave the Signals alone" in e.text for e in events)


def test_special_event_b_opens_a_rift_brings_diggers_and_shakes_the_agents() -> None:
    state = to_first_turn(start(options={"fighting-poses": "on"}))
    marine, hulk, sniper = (state.agents[s] for s in SEATS)
    rift = mark_hex(state, "m1")
    marine.hex = co(rift)  # standing where the ground splits
    state.event_deck = Deck(name="Event", draw_pile=["os6-b"])
    wounds = {a.id: a.wounds for a in (marine, hulk, sniper)}
    events: list[Event] = []
    # the Diggers land on the Teleport Point itself (no roll); one BLUE die per agent: the
    # Marine a Shield (face 5), the Hulk an Alien (face 1), the Sniper Hit+Shield (face 6)
    phases.event_phase(state, ScriptedDice([5, 1, 6]), events)
    assert marine.hex != co(rift) and occupant(state, rift) == "rift"
    assert not free(state, mark_hex(state, "m2"))
    assert {a.card for a in state.aliens} >= {"diggers-blue", "diggers-green"}
    sb = sb_state_or_none(state)
    assert sb is not None
    assert marine.wounds == wounds["marine"] and sb.poses.get("marine") is None
    assert hulk.wounds == wounds["hulk"] + 1 and sb.poses.get("hulk") == "prone"
    assert sniper.wounds == wounds["sniper"] and sb.poses.get("sniper") is None


def test_stage_one_falls_special_event_a_swallows_the_alpha_and_the_wormoon_dives() -> None:
    state = to_first_turn(start())
    sb = sb_state_or_none(state)
    assert sb is not None and sb.mission_state is not None
    w = worm(state)
    w.wounds, w.energy = cards()[w.card].hp - 1, 0  # 1 Health point left
    sb.stacks[w.id] = [0, 0]
    marine = state.agents["marine"]
    events: list[Event] = []
    attack.resolve_defence(
        state, marine, [w.id], 1, 0, "ranged", "", ScriptedDice([1]), events, "rifle"
    )
    assert w in state.aliens and state.event_deck.draw_pile[-1] == "os6-a"
    ranks = {s: state.agents[s].rank for s in SEATS}
    critters = sum(1 for a in state.aliens if a.card.startswith("flying-critter"))
    phases.event_phase(state, SeededDice(4), events)
    assert marine.dead and marine.hex is None and hunt(state).swallowed == "marine"
    assert "marine" not in hunt(state).carriers and hunt(state).dropped  # his probe stays behind
    assert not any(a.card.startswith("wormoon") for a in state.aliens)
    assert w.id not in sb.bodies
    assert sum(1 for a in state.aliens if a.card.startswith("flying-critter")) == critters + 4
    assert state.agents["hulk"].rank == ranks["hulk"] + 1
    assert state.alpha != "marine"
    assert hunt(state).deploy_from == state.round  # the round after Special Event A's
    assert "marine" not in supply.revival_queue(state)  # swallowed is not dead: no revival


def _probe_ready(state: GalaxyState, seat: str, wp: int) -> None:
    """Put `seat` next to Waypoint `wp` on the side its obelisk walls off."""
    agent = state.agents[seat]
    obelisk = mark_hex(state, f"wp{wp}")
    walled = [n for n in neighbours(obelisk) if free(state, n)]
    agent.hex = co(walled[0])


def test_deploying_probes_at_the_three_obelisks_brings_the_wormoon_back_at_stage_two() -> None:
    state = to_first_turn(start())
    sb = sb_state_or_none(state)
    assert sb is not None and sb.mission_state is not None
    state.aliens, state.signals = [], []  # an empty field: the Wormoon has dived
    sb.bodies, sb.swarms = {}, {}
    hunt(state).carriers = list(SEATS)
    seat = state.turn_order[state.turn_index]
    _probe_ready(state, seat, 2)
    args = {"what": "deploy-probe", "target": "wp2"}
    listed = [a for a in GAME.legal_actions(state, seat) if a.args.get("what") == "deploy-probe"]
    assert listed == []  # not before the round after Special Event A
    hunt(state).deploy_from = state.round
    listed = [a for a in GAME.legal_actions(state, seat) if a.args.get("what") == "deploy-probe"]
    assert [a.args["target"] for a in listed] == ["wp2"]
    state = GAME.apply(state, seat, Action(verb="act", args=args), SeededDice(1)).state
    sb = sb_state_or_none(state)
    assert sb is not None and sb.mission_state is not None
    assert hunt(state).deployed == [2] and seat not in hunt(state).carriers
    rules = rules_for("os6")
    for wp, other in ((3, "hulk"), (4, "sniper")):
        if other == seat:
            other = "marine"
        _probe_ready(state, other, wp)
        problem = rules.action_problem(
            state, state.agents[other], "deploy-probe", {"target": f"wp{wp}"}
        )
        assert problem is None, problem
        rules.do_action(
            state, state.agents[other], "deploy-probe", {"target": f"wp{wp}"}, SeededDice(1), []
        )
    assert sorted(hunt(state).deployed) == [2, 3, 4]
    assert state.event_deck.draw_pile[-1] == "os6-d"
    events: list[Event] = []
    phases.event_phase(state, SeededDice(6), events)
    back = worm(state)
    assert back.card == "wormoon-2" and back.controller == state.alpha
    assert state.ce_deck.draw_pile[-1] == "os-30"
    assert rules.condition(state, "wormoon-dead") is False
    state.aliens.remove(back)
    assert rules.condition(state, "wormoon-dead") is True


def test_a_probe_is_refused_while_engaged_or_away_from_the_obelisk() -> None:
    state = to_first_turn(start())
    sb = sb_state_or_none(state)
    assert sb is not None and sb.mission_state is not None
    hunt(state).deploy_from = 1
    state.aliens, state.signals = [], []  # an empty field
    sb.bodies, sb.swarms = {}, {}
    rules = rules_for("os6")
    marine = state.agents["marine"]
    marine.hex = co(mark_hex(state, "wp1"))  # far from every obelisk
    assert "next to Waypoint 3" in str(rules.action_problem(state, marine, "", {"target": "wp3"}))
    _probe_ready(state, "marine", 3)
    assert rules.action_problem(state, marine, "", {"target": "wp3"}) is None
    spot = next(n for n in neighbours(hx(marine.hex or (0, 0))) if free(state, n))
    from engine.galaxy.lifecycle import place_alien

    place_alien(state, "xeno-gamma-green", spot, [], "lands")
    assert rules.action_problem(state, marine, "", {"target": "wp3"}) == "is Engaged in combat"


def test_a_dead_carrier_drops_his_probe_and_another_agent_picks_it_up_by_walking_on_it() -> None:
    state = to_first_turn(start())
    sb = sb_state_or_none(state)
    assert sb is not None and sb.mission_state is not None
    hulk = state.agents["hulk"]
    assert "hulk" in hunt(state).carriers
    where = hulk.hex
    assert where is not None
    spare = list(hunt(state).dropped)  # the fourth probe, nobody's, at the landing zone
    rules = rules_for("os6")
    rules.agent_died(state, hulk, [])
    assert "hulk" not in hunt(state).carriers and hunt(state).dropped == [*spare, where]
    hunt(state).carriers.remove("sniper")
    rules.entered(state, state.agents["sniper"], hx(where), SeededDice(1), [])
    assert "sniper" in hunt(state).carriers and hunt(state).dropped == spare
    assert label(hx(where))


def test_the_probes_nobody_may_carry_lie_on_the_free_start_hexes() -> None:
    """Ours: four probes, one per agent at most; a team of two leaves two at the landing zone
    (GD Start hexes no agent stands on), where walking onto one picks it up."""
    state = to_first_turn(start(["marine", "sniper"]))
    probes = hunt(state)
    assert sorted(probes.carriers) == ["marine", "sniper"] and len(probes.dropped) == 2
    starts = {co(h) for h in board_of(state).starts}
    assert set(probes.dropped) <= starts
    assert all(co(hx(a.hex)) not in probes.dropped for a in state.agents.values() if a.hex)
    full = to_first_turn(start(["marine", "hulk", "sniper", "biotech"]))
    assert hunt(full).dropped == []


def test_a_smaller_team_meets_each_stage_of_the_wormoon_already_wounded() -> None:
    """Ours (decisions B3, B8, B10): the Wormoon's card is sized for five agents (Stage I 12
    HP, Stage II 22); four meet Stage I with 3 Wounds on it when it lurks and Stage II with 6
    when it surfaces (9 / 16 HP left), three with 5 and 9 (7 / 13), two with 10 and 18 (2 / 4)."""
    assert cards()["wormoon-1"].hp == 12 and cards()["wormoon-2"].hp == 22
    assert worm(start(["marine", "hulk", "sniper", "biotech", "infiltrator"])).wounds == 0
    assert worm(start(["marine", "hulk", "sniper", "biotech"])).wounds == 3
    assert worm(start(["marine", "hulk", "sniper"])).wounds == 5
    state = start(["marine", "sniper"])
    assert worm(state).wounds == 10
    rules = rules_for("os6")
    state.aliens = []
    rules.apply_effect(state, "wormoon-returns", {}, SeededDice(1), [])
    assert worm(state).card == "wormoon-2" and worm(state).wounds == 18


def test_the_last_special_event_ends_the_mission_failed_with_the_wormoon_alive() -> None:
    state = to_first_turn(start())
    rules = rules_for("os6")
    assert rules.condition(state, "event-drawn:os6-e") is False
    state.event_deck = Deck(name="Event", draw_pile=["os6-e"])
    phases.event_phase(state, SeededDice(1), [])
    assert rules.condition(state, "event-drawn:os6-e") is True
    from engine.galaxy.objectives import mission_status

    assert mission_status(state, [])  # read in the Strategy phase: the table's second row
    assert state.outcome == "failed" and "still lives" in state.outcome_text


def test_the_advisor_shares_the_obelisks_out_and_fetches_a_lying_probe() -> None:
    from engine.core.hexgrid import distance
    from engine.galaxy.strikeback.mission_rules.os6 import probe_goals

    state = to_first_turn(start())
    sb = sb_state_or_none(state)
    assert sb is not None and sb.mission_state is not None
    state.aliens, state.signals = [], []  # an empty field: the Wormoon has dived
    sb.bodies, sb.swarms = {}, {}
    marine, hulk, sniper = (state.agents[s] for s in SEATS)
    assert probe_goals(state, marine) == ([], 0)  # not before Special Event A
    hunt(state).deploy_from = state.round
    _probe_ready(state, "marine", 2)
    _probe_ready(state, "hulk", 3)
    hunt(state).carriers = ["marine", "hulk"]
    hunt(state).dropped = [sniper.hex or (0, 0)]
    # each carrier keeps the obelisk next to him, to stand beside it (1 hex away)
    assert probe_goals(state, marine) == ([mark_hex(state, "wp2")], 1)
    assert probe_goals(state, hulk) == ([mark_hex(state, "wp3")], 1)
    # two carriers for three obelisks: the sniper walks to the lying probe
    hunt(state).dropped = [co(mark_hex(state, "m1"))]
    assert probe_goals(state, sniper) == ([mark_hex(state, "m1")], 0)
    hunt(state).deployed = [4]  # as many carriers as obelisks left: nobody fetches
    assert probe_goals(state, sniper) == ([], 0)
    # an agent standing ON an obelisk steps off it to a hex next to it
    from engine.galaxy.world import hex_arg

    seat = state.turn_order[state.turn_index]
    hunt(state).deployed, hunt(state).carriers = [], [seat]
    state.agents[seat].hex = co(mark_hex(state, "wp4"))
    moves = [a for a in GAME.legal_actions(state, seat) if a.verb == "move"]
    advice = rules_for("os6").advice(state, state.agents[seat], moves)
    assert advice is not None and advice.verb == "move"
    assert distance(hex_arg(advice.args["to"]), mark_hex(state, "wp4")) == 1
