"""The advisor's choices: objectives first, the killing shot, a purposeful move, a clean end."""

from __future__ import annotations

from galaxy_helpers import blank, put_agent, put_alien

from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME
from engine.galaxy.advisor import advise, distance_field
from engine.galaxy.board import label, parse_label
from engine.galaxy.state import GalaxyState, Pending
from engine.galaxy.world import board_of


def advice(state: GalaxyState, seat: str) -> Action:
    found = advise(state, seat, GAME.legal_actions(state, seat))
    assert found is not None
    return found


def test_attacks_the_alien_it_can_kill() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    put_alien(state, "xeno-beta-green-1", "C4")
    weak = put_alien(state, "spine-critter-green-1", "D3", wounds=1)
    shot = advice(state, "marine")
    assert shot.verb == "attack" and shot.args["target"] == weak.id


def test_wrecks_a_teleport_point_before_anything_else() -> None:
    state = blank(["hulk"], "m2")
    board = board_of(state)
    point = board.teleports["hit"]
    spot = next(n for n in neighbours(point) if board.on_map(n) and board.area_of[n])
    put_agent(state, "hulk", label(spot))
    put_alien(state, "xeno-beta-green-1", label(point))
    choice = advice(state, "hulk")
    assert choice.verb == "act" and choice.args["what"] == "destroy-tp"


def test_moves_towards_the_nearest_unwrecked_point() -> None:
    state = blank(["sniper"], "m2")
    board = board_of(state)
    start = board.starts[0]
    put_agent(state, "sniper", label(start))
    choice = advice(state, "sniper")
    assert choice.verb == "move"
    dist = distance_field(state, list(board.teleports.values()))
    to = parse_label(choice.args["to"])
    assert to is not None and dist[to] < dist[start]
    # with that Point wrecked and the others too, no objective is left to walk to: the
    # advisor heads for nothing and ends the turn
    state.destroyed_tps = list(board.teleports)
    assert advice(state, "sniper").verb == "end-turn"


def test_heals_a_bleeding_friend_first() -> None:
    state = blank(["biotech", "marine"])
    put_agent(state, "biotech", "D4")
    put_agent(state, "marine", "C4")
    marine = state.agents["marine"]
    marine.wounds, marine.bleeding = 5, True
    put_alien(state, "xeno-beta-green-1", "D3")
    choice = advice(state, "biotech")
    assert choice.verb == "act" and choice.args.get("target") == "marine"


def test_strategy_choices() -> None:
    state = blank(["hulk", "marine"])
    state.pending = Pending(kind="alpha", seat="hulk", options=["hulk", "marine"])
    assert advice(state, "hulk").args["option"] == "marine"  # the class ranking
    state.pending = Pending(
        kind="reinforce", seat="hulk", options=["medkit", "weapon", "frag-grenade", "keep"]
    )
    assert advice(state, "hulk").args["option"] == "weapon"
    state.pending = Pending(
        kind="reinforce", seat="hulk", options=["medkit", "frag-grenade", "keep"]
    )
    assert advice(state, "hulk").args["option"] == "frag-grenade"


def test_advised_missions_are_won_sometimes() -> None:
    from engine.selfplay import play_one

    outcomes = [play_one(GAME, "m2", seed, players=3, policy_name="advisor") for seed in (1, 2)]
    assert all(r.error is None for r in outcomes)
    assert any(r.outcome == "accomplished" for r in outcomes)
