"""The campaign: m1 .. m6 in one game state, with ranks, powers and weapons carried over."""

from __future__ import annotations

from engine.core.dice import ScriptedDice, SeededDice, derive_seed, pick
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME, campaign
from engine.galaxy.phases import gd_wings
from engine.galaxy.state import GalaxyState, MissionResult, WeaponState
from engine.galaxy.world import board_of, co
from engine.selfplay import play_one


def new_campaign(seats: list[str], **options: str) -> GalaxyState:
    return GAME.new("campaign", seats, options, SeededDice(5))


def end_mission(state: GalaxyState, kills: int = 0, round_: int = 1) -> GalaxyState:
    """Jump to a Mission Status check with the given score and let the campaign move on."""
    state = state.model_copy(deep=True)
    state.pending = None
    state.phase = "strategy"
    state.strategy_step = 2
    state.kills = kills
    state.round = round_
    state = GAME.advance(state, SeededDice(11)).state
    while state.pending is not None and state.pending.kind == "teleport":  # an opening Signal
        default = GAME.waiting_on(state).default
        assert default is not None
        state = GAME.apply(state, state.pending.seat, default, SeededDice(11)).state
        state = GAME.advance(state, SeededDice(11)).state
    return state


def test_campaign_chain_and_first_mission() -> None:
    assert campaign.chain() == ["m1", "m2", "m3", "m4", "m5", "m6"]
    state = new_campaign(["marine", "biotech"])
    assert state.scenario == "campaign" and state.mission == "m1"
    assert state.campaign is not None and state.campaign.index == 0
    # standalone issued weapons are not handed out: the campaign's research is real
    assert [w.key for w in state.agents["marine"].weapons] == [
        w.key for w in GAME.new("m1", ["marine"], {}, SeededDice(5)).agents["marine"].weapons
    ]


def test_accomplished_mission_carries_the_team_to_the_next_map() -> None:
    state = new_campaign(["marine", "biotech"])
    marine, biotech = state.agents["marine"], state.agents["biotech"]
    marine.rank, marine.tactics, marine.ranks_gained = 2, ["adrenaline"], 1
    marine.skills, marine.used_tactics = ["marksman"], ["adrenaline"]
    marine.weapons[0] = WeaponState(key="improved-rifle", ammo=0, jammed=True)
    marine.wounds, marine.devices = 2, ["frag-grenade", "medkit"]
    biotech.skills, biotech.spent_drones = ["gd-209"], ["gd-209"]
    state.agents["gd-209"] = biotech.model_copy(update={"id": "gd-209", "drone_of": "biotech"})
    before = board_of(state)
    state = end_mission(state, kills=6)
    assert state.mission == "m2" and state.outcome is None
    assert state.campaign is not None and state.campaign.index == 1
    assert [(r.mission, r.outcome) for r in state.campaign.results] == [("m1", "accomplished")]
    marine = state.agents["marine"]
    assert marine.rank == 2 and marine.ranks_gained == 0
    assert marine.tactics == ["adrenaline"] and marine.used_tactics == []
    assert marine.skills == ["marksman"]
    assert marine.weapons[0] == WeaponState(key="improved-rifle", ammo=5)
    assert marine.wounds == 0 and marine.devices == ["stun-grenade", "spare-magazine"]
    assert "gd-209" not in state.agents and state.agents["biotech"].spent_drones == []
    assert state.alien_tech == campaign.ACCOMPLISHED_BONUS
    board = board_of(state)
    assert board.areas != before.areas
    assert marine.hex == co(board.starts[0])
    assert state.pending is not None and state.pending.kind == "alpha"  # round 1 of m2


def test_rank_gain_is_limited_to_one_per_mission() -> None:
    state = new_campaign(["marine"])
    marine = state.agents["marine"]
    events: list[Event] = []
    gd_wings(state, marine, ScriptedDice([3, 6, 6]), events)  # 3 GD: Bronze
    assert marine.rank == 1 and marine.ranks_gained == 1
    gd_wings(state, marine, ScriptedDice([3, 6, 6]), events)  # no second rank this mission
    assert marine.rank == 1
    state = end_mission(state, kills=6)
    marine = state.agents["marine"]
    assert marine.rank == 1 and marine.ranks_gained == 0
    gd_wings(state, marine, ScriptedDice([3, 6, 6]), events)
    assert marine.rank == 2


def test_failed_mission_is_replayed_once_then_the_campaign_goes_on() -> None:
    state = new_campaign(["sniper"])
    state = end_mission(state, round_=9)  # time up, no kills: failed
    camp = state.campaign
    assert camp is not None and state.mission == "m1" and camp.attempt == 2
    assert state.alien_tech == 0
    state = end_mission(state, round_=9)
    camp = state.campaign
    assert camp is not None and state.mission == "m2" and camp.attempt == 1
    assert [(r.mission, r.attempt, r.outcome) for r in camp.results] == [
        ("m1", 1, "failed"),
        ("m1", 2, "failed"),
    ]
    state = end_mission(state, round_=10)  # m2: time up, no Teleport Point wrecked
    assert state.mission == "m2"


def test_permanent_death_returns_at_copper_with_weapons() -> None:
    for permanent, rank in (("on", 0), ("off", 3)):
        state = new_campaign(["marine", "hulk"], **{"permanent-death": permanent})
        hulk = state.agents["hulk"]
        hulk.rank, hulk.elite = 3, False
        hulk.tactics, hulk.skills = ["brace", "bulwark"], ["charge"]
        hulk.weapons[0] = WeaponState(key="plasma-cannon", ammo=0)
        hulk.dead, hulk.hex = True, None
        state = end_mission(state, kills=6)
        hulk = state.agents["hulk"]
        assert hulk.rank == rank and not hulk.dead and hulk.hex is not None
        assert (hulk.tactics == []) == (permanent == "on")
        assert hulk.weapons[0].key == "plasma-cannon"


def test_refused_weapon_waits_at_headquarters_for_the_next_mission() -> None:
    state = new_campaign(["marine", "hulk"])
    state.phase, state.strategy_step, state.alien_tech = "strategy", 1, 4
    state.pending = None
    state = GAME.advance(state, ScriptedDice([])).state
    assert state.pending is not None and state.pending.kind == "reinforce"
    state = GAME.apply(
        state, "marine", Action(verb="choose", args={"option": "weapon"}), ScriptedDice([], [0])
    ).state
    assert state.pending is not None and state.pending.kind == "deliver"  # a Generic weapon
    state = GAME.apply(
        state, "marine", Action(verb="choose", args={"option": "marine"}), ScriptedDice([])
    ).state
    assert state.pending is not None and state.pending.kind == "accept"
    offered = str(state.pending.data["weapon"])
    refuse = Action(verb="choose", args={"option": "refuse"})
    state = GAME.apply(state, state.pending.seat, refuse, ScriptedDice([])).state
    assert state.campaign is not None and state.campaign.hq == [offered]
    state = end_mission(state, kills=6)
    # m2's first Strategy phase: the Alpha vote, then GD Headquarters offers the weapon
    assert state.pending is not None and state.pending.kind == "alpha"
    for seat in ("marine", "hulk"):  # Chromium proposed, Titanium agrees
        state = GAME.apply(
            state, seat, Action(verb="choose", args={"option": "marine"}), SeededDice(1)
        ).state
    state = GAME.advance(state, SeededDice(2)).state
    assert state.pending is not None and state.pending.kind == "accept"
    assert state.pending.data == {"weapon": offered, "from": "hq"}
    old = state.agents[state.pending.seat].weapons[0].key
    seat = state.pending.seat
    state = GAME.apply(
        state, seat, Action(verb="choose", args={"option": f"replace-{old}"}), ScriptedDice([])
    ).state
    assert state.agents[seat].weapons[0].key == offered
    assert state.campaign is not None and state.campaign.hq == []


def test_final_outcome_rule() -> None:
    def final(outcomes: list[str]) -> str | None:
        state = new_campaign(["marine"])
        assert state.campaign is not None
        state.campaign.results = [
            MissionResult(mission=f"m{i + 1}", attempt=1, outcome=o, text="", rounds=1, kills=0)
            for i, o in enumerate(outcomes)
        ]
        campaign.finish(state, [])
        assert state.campaign.over and GAME.waiting_on(state).finished
        return state.outcome

    won = ["accomplished"] * 4 + ["partial", "accomplished"]
    assert final(won) == "accomplished"
    assert final(["partial"] * 3 + ["accomplished"] * 3) == "partial"
    assert final(["accomplished"] * 5 + ["partial"]) == "partial"
    assert final(["accomplished"] * 5 + ["failed"]) == "failed"


def test_view_shows_campaign_progress() -> None:
    # two agents: 4 kills accomplish m1, 2 after the last round are a partial result
    state = end_mission(new_campaign(["marine", "sniper"]), kills=3, round_=9)
    view = GAME.view(state, None)
    panel = next(p for p in view.panels if p.title == "Campaign")
    assert panel.lines[0] == "Mission 2 of 6: Relay Station"
    assert panel.lines[1].startswith("Crash Site: partial")
    assert view.header["mission"] == "Relay Station (2/6)"


def test_board_renders_before_and_after_a_transition() -> None:
    from renders import render_board
    from renders.terrain import clear_cache

    state = new_campaign(["marine", "sniper"])
    state = GAME.advance(state, SeededDice(3)).state
    first = render_board(GAME.view(state, None))
    state = end_mission(state, kills=6)
    after_view = GAME.view(state, None)
    warm = render_board(after_view)  # terrain and geometry caches already hold m1's map
    clear_cache()
    cold = render_board(after_view)
    assert warm.png == cold.png
    assert (first.width, first.height) != (warm.width, warm.height) or first.png != warm.png
    assert set(warm.positions) >= {"marine", "sniper"}


def test_whole_campaign_self_plays_to_a_final_outcome() -> None:
    for seed, players in ((1, 1), (2, 5)):
        result = play_one(GAME, "campaign", seed, players=players)
        assert result.error is None, result.error
        assert result.finished and result.outcome in ("accomplished", "partial", "failed")


def test_campaign_with_every_option_switched() -> None:
    options = {"friendly-fire": "on", "close-fight": "on", "permanent-death": "on"}
    options["start-rank"] = "silver"
    seats = ["marine", "biotech", "infiltrator"]
    state = GAME.new("campaign", seats, options, SeededDice(derive_seed(4, "setup")))
    policy = SeededDice(derive_seed(4, "policy"))
    for step in range(20_000):
        dice = SeededDice(derive_seed(4, step))
        state = GAME.advance(state, dice).state
        if GAME.waiting_on(state).finished:
            break
        seat = GAME.waiting_on(state).seats[0]
        actions = GAME.legal_actions(state, seat)
        others = [a for a in actions if a.verb != "end-turn"]
        chosen = pick(policy, others) if others and policy.randrange(3) else actions[-1]
        state = GAME.apply(state, seat, chosen, dice).state
    assert GAME.waiting_on(state).finished
    assert state.campaign is not None and len(state.campaign.results) >= 6
    assert state.campaign.results[-1].mission == "m6"
