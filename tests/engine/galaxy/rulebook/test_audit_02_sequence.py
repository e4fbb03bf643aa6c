"""Rulebook chapter "Game Sequence": Refresh, Strategy (Alpha Agent, GD-Wings, Reinforcements,
Mission Status), Battle (Agent turn then Aliens turn per Operative player) and Event phase; and
the Agents chapter's GD-Wings, Death / Inoperative and Guard refresh rules that ride on it.

Rounds are played through the protocol; the Close Encounter card of each Aliens turn is forced
to ce07 ("Commander's Call", no Mission 1 species) so nothing else moves unless a probe wants it.
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import (
    act,
    advance,
    aliens_turn,
    do,
    dump,
    edit,
    elect,
    fig,
    header,
    legal,
    on_top,
    stage,
    texts,
    view,
    waiting,
)

from engine.core.errors import RuleError
from engine.core.events import SeatTold
from engine.core.game import Action

HV_OFF = {"human-view": "off"}
QUIET = "ce07"


def two_agents(**kw: Any) -> Any:
    return stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "G5"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
        **kw,
    )


def finish_round(state: Any, rolls: list[int]) -> tuple[Any, str]:
    """End both agents' turns with quiet Aliens turns and run the Event phase and Refresh."""
    said = []
    step = aliens_turn(state, QUIET, [6] * 10, seat="marine")
    said.append(texts(step.events))
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    step = advance(on_top(state, "ce_deck", QUIET), rolls)
    said.append(texts(step.events))
    return step.state, "\n".join(said)


def kill_x1(state: Any) -> Any:
    state = edit(state, lambda d: d["aliens"][0].update(wounds=2))
    return act(
        state, "attack", [3, 1, 1, 1], unit="marine", target="x1", weapon="assault-rifle"
    ).state


def test_battle_alternates_agent_and_aliens_turns() -> None:
    """Battle Phase: each Operative player plays his Agent turn and then one Aliens turn."""
    state = two_agents()
    step = aliens_turn(state, QUIET, [6] * 10)
    said = texts(step.events)
    assert said.index("Chromium (Marine)'s Aliens turn:") < said.index(
        "Thorium (Biotech)'s Agent turn"
    )
    assert waiting(step.state).seats == ["biotech"]


def test_event_phase_after_last_aliens_turn() -> None:
    """Event Phase: begins after the last player's Aliens turn; the Alpha Agent draws the card."""
    _, said = finish_round(two_agents(), [6] * 30)
    assert said.index("Thorium (Biotech)'s Aliens turn:") < said.index(
        "Event phase: the Alpha Agent draws"
    )


def test_round_order_refresh_then_strategy() -> None:
    """Game Sequence: a round runs Refresh, Strategy, Battle, Event in that order."""
    state, said = finish_round(two_agents(), [6] * 30)
    assert said.index("Event phase") < said.index("Round 2: Refresh") < said.index("Strategy")
    assert header(state)["round"].startswith("2/")


def test_alpha_vote_lists_operative_agents() -> None:
    """Alpha Agent Promotion: the players choose the round's Alpha among Operative agents."""
    state, _ = finish_round(two_agents(), [6] * 30)
    prompt = waiting(state)
    assert prompt.kind == "vote" and prompt.seats == ["marine", "biotech"]
    for seat in prompt.seats:  # any player proposes an Operative agent, or leaves it to rank
        answers = {a.args["option"]: a.label for a in legal(state, seat)}
        assert answers == {
            "marine": "Propose Chromium (Marine)",
            "biotech": "Propose Thorium (Biotech)",
            "no-agreement": "No agreement: Chromium (Marine) by rank",
        }


def test_alpha_is_chosen_when_every_operative_player_agrees() -> None:
    """Alpha Agent Promotion: any player proposes; the choice is made once all agree."""
    state, _ = finish_round(two_agents(), [6] * 30)
    state = do(state, Action(verb="choose", args={"option": "biotech"}), seat="marine").state
    prompt = waiting(state)
    assert prompt.kind == "vote" and prompt.seats == ["biotech"]
    assert "Thorium (Biotech) is proposed" in prompt.text
    assert legal(state, "biotech")[0].label == "Agree: Thorium (Biotech) leads"
    assert legal(state, "marine") == []  # the proposer has agreed already
    step = do(state, Action(verb="choose", args={"option": "biotech"}), seat="biotech")
    assert step.state.pending is None and step.state.alpha == "biotech"
    assert "Agreed by all: Thorium (Biotech) is the Alpha Agent." in texts(step.events)


def test_alpha_counter_proposal_then_no_agreement_falls_back_to_the_ranking() -> None:
    """Alpha Agent Promotion: players who cannot agree follow the ranking (Marine first)."""
    state, _ = finish_round(two_agents(), [6] * 30)
    state = do(state, Action(verb="choose", args={"option": "biotech"}), seat="biotech").state
    state = do(state, Action(verb="choose", args={"option": "marine"}), seat="marine").state
    prompt = waiting(state)
    assert prompt.seats == ["biotech"]  # a new proposal: the first proposer answers again
    options = [a.args["option"] for a in legal(state, "biotech")]
    assert options == ["marine", "no-agreement"]  # Thorium was passed over: not again
    step = do(state, Action(verb="choose", args={"option": "no-agreement"}), seat="biotech")
    assert step.state.alpha == "marine" and step.state.pending is None
    assert "by the class ranking, Chromium (Marine) is the Alpha Agent" in texts(step.events)


def test_alpha_vote_default_is_the_ranking_and_a_bad_answer_changes_nothing() -> None:
    """The rulebook's fallback is the vote's default when its answer window closes."""
    state, _ = finish_round(two_agents(), [6] * 30)
    state = do(state, Action(verb="choose", args={"option": "biotech"}), seat="biotech").state
    prompt = waiting(state)
    assert prompt.default == Action(verb="choose", args={"option": "no-agreement"})
    try:
        do(state, Action(verb="choose", args={"option": "hulk"}), seat="marine")
    except RuleError as refused:
        assert "Agree: Thorium (Biotech) leads" in str(refused)
    else:
        raise AssertionError("an agent who is not in the mission was accepted")
    try:
        do(state, Action(verb="choose", args={"option": "marine"}), seat="biotech")
    except RuleError as refused:
        assert "not your turn" in str(refused)
    else:
        raise AssertionError("a player who agreed answered again")
    assert do(state, prompt.default, seat="marine").state.alpha == "marine"


def test_alpha_agent_plays_first() -> None:
    """Alpha Agent: he is the first to play his Agent and Aliens turns."""
    state, _ = finish_round(two_agents(), [6] * 30)
    step = elect(state, "biotech", [6] * 20)
    state = step.state
    while waiting(state).kind != "turn":
        state = advance(state, [1] * 20).state
    assert waiting(state).seats == ["biotech"]
    assert header(state)["alpha"] == "Thorium (Biotech)"


def test_gd_wings_roll_after_a_kill() -> None:
    """GD-Wings: after a round with a kill, agents roll 3 dice for GD results, Alpha first."""
    state = kill_x1(two_agents())
    state, _ = finish_round(state, [6] * 30)
    step = elect(state, "biotech", [3] * 6)
    said = texts(step.events)
    while "GD-Wings" not in said and not waiting(step.state).seats:
        step = advance(step.state, [3] * 6)
        said += texts(step.events)
    assert said.index("Thorium (Biotech) reaches Bronze") < said.index(
        "Chromium (Marine) reaches Bronze"
    )


def test_gd_wings_fail_without_gd_faces() -> None:
    """GD-Wings: without GD results the rank does not change."""
    state = kill_x1(two_agents())
    state, _ = finish_round(state, [6] * 30)
    step = elect(state, "marine", [1] * 6)
    state = step.state
    for _ in range(3):
        if waiting(state).kind == "turn":
            break
        state = advance(state, [1] * 6).state
    assert fig(state, "marine").rank == "Copper"  # type: ignore[union-attr]


def test_no_gd_wings_roll_without_a_kill() -> None:
    """GD-Wings: no roll when no alien was killed in the previous round."""
    state, _ = finish_round(two_agents(), [6] * 30)
    step = elect(state, "marine", [3] * 6)
    said = texts(step.events)
    state = step.state
    for _ in range(3):
        if waiting(state).kind == "turn":
            break
        step = advance(state, [3] * 6)
        said += texts(step.events)
        state = step.state
    assert "GD-Wings" not in said
    assert fig(state, "marine").rank == "Copper"  # type: ignore[union-attr]


def test_bronze_rank_grants_a_basic_tactic() -> None:
    """GD-Wings table: Bronze brings a Basic Tactic, chosen freely among the class's tactics."""
    state = kill_x1(two_agents())
    state, _ = finish_round(state, [6] * 30)
    state = elect(state, "marine", [3] * 6).state
    while not waiting(state).seats:
        state = advance(state, [3] * 6).state
    prompt = waiting(state)
    assert prompt.kind == "choice" and prompt.seats == ["marine"]
    assert len([a for a in legal(state, "marine") if a.verb == "choose"]) > 1


def test_guard_token_returns_at_refresh() -> None:
    """Refresh / Guard: a used Guard token is returned in the next Refresh phase."""
    state = two_agents()
    step = aliens_turn(state, "ce01", [6] * 40)  # the Xeno-Beta shoots and falls back: Guard fires
    assert "Guard! Chromium (Marine)" in texts(step.events)
    assert "guard" not in fig(step.state, "marine").conditions  # type: ignore[union-attr]
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    state = advance(on_top(state, "ce_deck", QUIET), [6] * 30).state
    assert "guard" in fig(state, "marine").conditions  # type: ignore[union-attr]


def test_alien_tech_from_kills_again_next_round() -> None:
    """Alien Tech: the one-per-round limit on kill fragments starts afresh each round."""
    state = kill_x1(two_agents())
    assert header(state)["alien tech"] == "1/4"
    state, _ = finish_round(state, [6] * 30)
    assert dump(state)["alien_tech"] == 1


def bleeding_marine(data: dict[str, Any]) -> None:
    data["agents"]["marine"].update(wounds=6, bleeding=True, rank=1)


def dead_marine() -> Any:
    """The Bronze Marine, Bleeding, is shot dead by the Xeno-Beta in his Aliens turn."""
    state = two_agents(prep=bleeding_marine)
    state = edit(
        state, lambda d: (d["agents"]["marine"].update(guard=False), d.update(alien_tech=2))
    )
    return aliens_turn(state, "ce01", [6, 6, 1, 1] + [6] * 20)


def test_death_costs_a_rank_and_passes_alpha() -> None:
    """Death: the figure leaves the map, the agent loses one GD-Wings rank; a dead Alpha's token
    passes to the next agent clockwise."""
    step = dead_marine()
    assert fig(step.state, "marine") is None
    panel = next(p.lines for p in view(step.state).panels if p.seat == "marine")
    assert "rank Copper" in panel[0]
    assert "Alpha Agent token passes to Thorium (Biotech)" in texts(step.events)
    assert header(step.state)["alpha"] == "Thorium (Biotech)"


def test_the_inoperative_player_is_told_in_private() -> None:
    """Death: the player whose agent dies is Inoperative; nobody drops out without a word (a
    direct message says what is left to him: a return for an Alien Tech fragment)."""
    step = dead_marine()
    told = [e for e in step.events if isinstance(e, SeatTold)]
    assert [e.seat for e in told] == ["marine"]
    assert "Chromium (Marine) is dead and you are Inoperative" in told[0].message
    assert "Alien Tech fragment" in told[0].message


def test_inoperative_player_skips_turns() -> None:
    """Death: the Inoperative player skips his Agent and Aliens turns."""
    step = dead_marine()
    assert waiting(step.state).seats == ["biotech"]
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    step = advance(on_top(state, "ce_deck", QUIET), [6] * 30)
    assert "Chromium (Marine)'s Aliens turn:" not in texts(step.events)


def test_inoperative_still_controls_his_aliens() -> None:
    """Death: an Inoperative player still controls (and plays) his assigned aliens."""
    step = dead_marine()
    x1 = fig(step.state, "x1")
    assert x1 is not None and x1.seat == "marine"


def test_inoperative_not_counted_for_event_signals() -> None:
    """Event card note: Inoperative players do not count as agents in play for Signals."""
    # One alien (x1) and one Operative agent: the "fewer aliens than agents" card sends nothing;
    # counting the dead Marine (2 agents) it would teleport Signals.
    step = dead_marine()
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    state = on_top(on_top(state, "ce_deck", QUIET), "event_deck", "ev12")  # Probing Patrol
    said = texts(advance(state, [6] * 30).events)
    assert "Aliens already match the agents: no Signal arrives." in said


def test_dead_agent_not_alpha_and_revives_for_alien_tech() -> None:
    """Death / Reinforcements: a dead agent cannot be Alpha; at the next Strategy phase he may
    come back on a free GD Start Hex by spending one Alien Tech fragment."""
    step = dead_marine()
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    step = advance(on_top(state, "ce_deck", QUIET), [6] * 30)
    said = texts(step.events)
    assert "Thorium (Biotech) is the only agent standing and leads as Alpha Agent" in said
    state = step.state
    prompt = waiting(state)
    assert prompt.seats == ["marine"]
    spots = {a.args["option"] for a in legal(state, "marine")}
    assert {"F5", "G4", "H5", "G6", "stay-out"} == spots  # G5 (Start) holds the Biotech
    back = do(state, Action(verb="choose", args={"option": "G6"}), [6] * 20, seat="marine").state
    assert fig(back, "marine") is not None and fig(back, "marine").coord == "G6"  # type: ignore[union-attr]
    assert header(back)["alien tech"] == "1/4"


def test_no_revival_without_alien_tech() -> None:
    """Death: coming back costs one Alien Tech fragment; with none the agent stays out."""
    state = two_agents(prep=bleeding_marine)
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce01", [6, 6, 1, 1] + [6] * 20)
    assert fig(step.state, "marine") is None
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    state = advance(on_top(state, "ce_deck", QUIET), [6] * 30).state
    assert waiting(state).seats == ["biotech"] and waiting(state).kind == "turn"


def test_dead_agent_does_not_roll_gd_wings() -> None:
    """GD-Wings note: dead (Inoperative) agents cannot roll for a new rank."""
    state = two_agents(prep=bleeding_marine)
    # Staged: this round already saw a kill (the dump's kill counter), so a GD-Wings roll is due.
    state = edit(
        state,
        lambda d: (
            d["agents"]["marine"].update(guard=False),
            d["agents"]["biotech"].update(guard=False),
            d.update(kills_this_round=1),
        ),
    )
    step = aliens_turn(state, "ce01", [6, 6, 1, 1] + [6] * 20)
    assert fig(step.state, "marine") is None
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    step = advance(on_top(state, "ce_deck", QUIET), [3] * 40)
    said = texts(step.events)
    state = step.state
    for _ in range(4):
        if waiting(state).kind == "turn" or waiting(state).seats:
            break
        step = advance(state, [3] * 12)
        said += texts(step.events)
        state = step.state
    assert "Thorium (Biotech) reaches" in said
    assert "Chromium (Marine) reaches" not in said


def test_guard_fires_once_per_round() -> None:
    """Guard: the Reaction attack on a just-moved alien is used at most once per game round."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "I6"), ("x2", "xeno-beta-green-2", "J6")],
        options=HV_OFF,
    )
    said = texts(aliens_turn(state, "ce01", [6] * 60).events)
    assert "Xeno-Beta 1 moves" in said and "Xeno-Beta 2 moves" in said
    assert said.count("Guard!") == 1


def guard_order(state: Any, order: str, seat: str = "marine") -> Any:
    """Give a Guard standing order offered by legal_actions (refused if it is not offered)."""
    offered = [a for a in legal(state, seat) if a.verb == "orders" and a.args["order"] == order]
    assert offered, order
    return do(state, offered[0], seat=seat).state


def test_guard_player_chooses_which_alien_to_react_to() -> None:
    """Guard: the agent can use the Reaction on a just-moved alien, once a round, so whether to
    spend it on this alien is the player's choice: a standing order set in advance keeps it for
    stronger aliens (BLUE and RED), and a GREEN alien moving in sight draws no fire."""
    green = stage(
        agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-green-1", "I6")], options=HV_OFF
    )
    said = texts(aliens_turn(guard_order(green, "guard-at-blue"), "ce01", [6] * 60).events)
    assert "Xeno-Beta 1 moves" in said and "Guard!" not in said
    blue = stage(agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-blue-1", "I6")], options=HV_OFF)
    said = texts(aliens_turn(guard_order(blue, "guard-at-blue"), "ce01", [6] * 60).events)
    assert "Xeno-Beta 1 moves" in said and "Guard!" in said


def test_guard_attack_follows_the_usual_rules_with_extra_ammo() -> None:
    """Guard: the Reaction attack follows the usual attack rules, so a weapon that may spend
    extra Ammo for more Hits may do so in a Guard shot too; the amount is the player's
    standing order (the Hulk's Vulcan, with the Guard skill)."""
    state = stage(
        seats=("hulk",),
        agents={"hulk": "I3"},
        aliens=[("x1", "xeno-beta-red-1", "I6")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["agents"]["hulk"].update(skills=["guard"]))
    state = guard_order(state, "guard-boost-2", seat="hulk")
    said = texts(aliens_turn(state, "ce01", [6] * 60, seat="hulk").events)
    assert "Guard!" in said
    assert "spends 2 more Ammo" in said
