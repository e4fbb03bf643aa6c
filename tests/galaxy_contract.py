"""The Galaxy `legal_actions` contract as a reusable check: `reach_state` plays a mission to a
state, `check_contract` tries far more candidates than the legal list there and asserts that
`apply` accepts exactly the listed ones (deliberate exceptions: see
tests/engine/galaxy/test_galaxy_legal_contract.py). Shared by the core property test and the
Operation Strikeback tests, so it lives beside `support.py` where every test folder finds it."""

from __future__ import annotations

from engine.core.dice import SeededDice, derive_seed, pick
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.core.hexgrid import distance
from engine.galaxy import GAME
from engine.galaxy.actions import ACTIONS
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback.status import sb_state_or_none
from engine.galaxy.world import FACINGS, board_of, hx

ROLES = ["marine", "biotech", "infiltrator", "sniper", "hulk"]


def reach_state(
    scenario: str,
    seed: int,
    players: int,
    steps: int,
    advisor: bool,
    options: dict[str, str] | None = None,
) -> GalaxyState:
    """Self-play `steps` decisions into a mission; the state where a seat must decide next."""
    dice = SeededDice(derive_seed(seed, "setup"))
    state = GAME.new(scenario, ROLES[:players], options or {}, dice)
    policy = SeededDice(derive_seed(seed, "policy"))
    for n in range(steps + 1):
        dice = SeededDice(derive_seed(seed, n))
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished or n == steps:
            break
        seat = prompt.seats[0]
        actions = GAME.legal_actions(state, seat)
        chosen = GAME.advise(state, seat, actions) if advisor else None
        if chosen is None:
            others = [a for a in actions if a.verb != "end-turn"]
            chosen = pick(policy, others) if others and policy.randrange(4) else actions[-1]
        state = GAME.apply(state, seat, chosen, dice).state
    return state


def key(action: Action) -> tuple[str, tuple[tuple[str, str], ...]]:
    return action.verb, tuple(sorted(action.args.items()))


def turn_candidates(state: GalaxyState, agent: AgentState) -> list[Action]:
    """Every verb with every figure, hex and option of the state, for the agent's turn."""
    unit = agent.id
    board = board_of(state)
    assert agent.hex is not None
    me = hx(agent.hex)
    spread = sorted(board.hexes(), key=lambda h: (distance(h, me), h.r, h.q))
    # every hex within the agent's Movement and two beyond, then a few far ones
    hexes = [label(h) for h in spread if distance(h, me) <= agent.mp_left + 2]
    hexes += [label(h) for h in spread[-3:]]
    near = [label(h) for h in spread if distance(h, me) <= 2]
    close = [label(h) for h in spread if distance(h, me) <= 1]
    hex_whats = {"redeploy", "leap", "sentry-gun", "gd-209", "suit-leave", "suit-drop"}
    figures = [a.id for a in state.aliens] + list(state.agents) + ["x999"]
    sb = sb_state_or_none(state)
    if sb is not None:  # Power Suits on the map and at Headquarters
        figures += [*sb.suits, *(s.id for s in sb.headquarters)]
    weapons = [ws.key for ws in agent.weapons] + ["plasma-cannon", "ion-lance"]
    layer: set[str] = set()
    if sb is not None:  # Operation Strikeback devices and Psionic Powers
        layer = {*sb.devices.get(unit, []), *sb.gear.psionics.get(unit, [])}
        layer |= {k for k in ("vigil", "gd-5", "hologram") if k in state.agents}
        hex_whats |= {"hologram", "vigil", "gd-5", "jet-boots", "phase-step"}
    whats = sorted(
        {"ability", *ACTIONS, *agent.devices, *agent.tactics, *agent.skills, *layer}
        | {"frag-grenade", "medkit", "sprint", "adrenaline"}
        | {"suit-equip", "suit-leave", "suit-recall", "suit-seize", "suit-drop"}
    )
    out = [Action(verb="end-turn", args={"unit": unit})]
    out += [Action(verb="move", args={"unit": unit, "to": h}) for h in [*hexes, "Z99"]]
    for target in figures:
        for w in weapons:
            base = {"unit": unit, "target": target, "weapon": w}
            out.append(Action(verb="attack", args=base))
            out.append(Action(verb="attack", args={**base, "mode": "area"}))
            out.append(Action(verb="attack", args={**base, "mode": "blue-dice"}))
    for what in whats:
        out.append(Action(verb="act", args={"unit": unit, "what": what}))
        out += [Action(verb="act", args={"unit": unit, "what": what, "target": t}) for t in figures]
        spots = near if what in hex_whats else close
        out += [Action(verb="act", args={"unit": unit, "what": what, "to": h}) for h in spots]
    for w in weapons:
        for using in ("movement", "combat"):
            args = {"unit": unit, "what": "unjam", "weapon": w, "using": using}
            out.append(Action(verb="act", args=args))
    orders = [f"face-{f.lower()}" for f in FACINGS] + ["guard-on", "guard-off", "retreat"]
    orders += [f"guard-with-{w}" for w in weapons] + [f"guard-with-{w}-area" for w in weapons]
    out += [Action(verb="orders", args={"unit": unit, "order": o}) for o in orders]
    other = next((s for s in state.agents if s != unit), None)
    if other is not None:  # commanding someone else's agent
        out.append(Action(verb="end-turn", args={"unit": other}))
    out.append(Action(verb="dance", args={"unit": unit}))
    return out


def choice_candidates(state: GalaxyState) -> list[Action]:
    assert state.pending is not None
    options = [*state.pending.options, "zzz", "99", "stay-out", "refuse", "none", "B2"]
    options += list(state.agents)
    out = [Action(verb="choose", args={"option": o}) for o in dict.fromkeys(options)]
    out.append(Action(verb="end-turn", args={}))
    return out


def excused(
    state: GalaxyState, candidate: Action, listed: set[tuple[str, tuple[tuple[str, str], ...]]]
) -> bool:
    """The documented exceptions: arguments apply does not read, and omitted arguments that
    take their default (the agent himself as target, his first weapon, unjam with Combat)."""
    args = dict(candidate.args)
    unit = args.get("unit", "")
    agent = state.agents.get(unit)
    defaults = {"target": unit, "using": "combat"}
    if agent is not None and agent.weapons:
        defaults["weapon"] = agent.weapons[0].key
    filled = {**defaults, **args}
    for verb, items in listed:
        if verb == candidate.verb and all(filled.get(k) == v for k, v in items):
            return True
    return False


def check_contract(state: GalaxyState) -> None:
    prompt = GAME.waiting_on(state)
    if prompt.finished or not prompt.seats:
        return
    seat = prompt.seats[0]
    legal = GAME.legal_actions(state, seat)
    listed = {key(a) for a in legal}
    if state.pending is not None:
        candidates = choice_candidates(state)
    else:
        candidates = turn_candidates(state, state.agents[seat])
    candidates += legal
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    for candidate in candidates:
        if key(candidate) in seen:
            continue
        seen.add(key(candidate))
        try:
            GAME.apply(state, seat, candidate, SeededDice(derive_seed(1, key(candidate)[0])))
            accepted = True
        except RuleError:
            accepted = False
        if key(candidate) in listed:
            assert accepted, f"listed but refused: {candidate}"
        else:
            assert not accepted or excused(state, candidate, listed), (
                f"accepted, not listed: {candidate}"
            )
    for other in state.seats:
        if other not in prompt.seats:
            assert GAME.legal_actions(state, other) == []
            for candidate in legal[:3]:
                try:
                    GAME.apply(state, other, candidate, SeededDice(1))
                except RuleError:
                    continue
                raise AssertionError(f"{other} acted out of turn: {candidate}")
