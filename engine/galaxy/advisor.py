"""A purposeful, deterministic policy for an agent: the Galaxy game's `Advisor.advise`.

It picks among the legal actions in a fixed order of priorities: the mission's own Actions
(wreck a Teleport Point, reach a civilian), urgent healing, the attack with the best chance to
kill, a grenade, a move towards the current goal (the unmet objective, else the nearest alien,
else the nearest Signal), turning to bring an alien into the front hexes, then useful Actions
(drones, search, unjam, evade) and finally ending the turn. Strategy choices take the
rulebook default or the most useful option. Pure: it only reads the state.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.galaxy import objectives
from engine.galaxy.attack import weapon_problem
from engine.galaxy.board import parse_label
from engine.galaxy.content import content, power
from engine.galaxy.expansion import expanded, hooks, loaded
from engine.galaxy.leader import NO_AGREEMENT, first_by_ranking
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.supply import default_replacement, default_taker
from engine.galaxy.world import (
    FACINGS,
    adjacent,
    area_of,
    board_of,
    card,
    find_alien,
    hx,
    knows_alien_tech,
    locked,
    max_hp,
    mission_of,
    weapon,
)

HITS_PER_DIE = {"blue": 5 / 6, "red": 7 / 6}  # from the face layouts in dice.py
HEAL_EFFECTS = ("heal+", "heal-self+", "heal-other+")
BOOST_EFFECTS = ("dice-any+", "dice-ranged+", "dice-melee+")
FAR = 10_000
Pick = Callable[[GalaxyState, AgentState, list[Action]], Action | None]


def advise(state: GalaxyState, seat: str, actions: list[Action]) -> Action | None:
    if not actions:
        return None
    if state.pending is not None:
        return _choose(state, actions)
    agent = state.agents.get(seat)
    if agent is None or agent.hex is None:
        return _first(actions, "end-turn")
    kind, _ = goals(state)
    rush = kind == "objective"  # walk first, shoot on arrival; hunting aliens: shoot first
    picks: list[Pick] = []
    if expanded(state):  # the expansion's missions, Power Suits, tokens first
        picks += [hooks().advice]
    picks += [_objective]
    picks += [_unjam_first, _urgent_heal]
    picks += [_move] if rush else []
    picks += [_boost_then_attack, _psionic_attack, _grenade, _move, _face, _other_acts]
    if expanded(state):  # the expansion's tools for an Action still unused
        picks += [hooks().closing_advice]
    for pick in picks:
        found = pick(state, agent, actions)
        if found is not None:
            return found
    return _first(actions, "end-turn") or actions[-1]


# --- Strategy-phase and mid-resolution choices ---------------------------------------------


def _choose(state: GalaxyState, actions: list[Action]) -> Action | None:
    pending = state.pending
    assert pending is not None
    options = [a.args.get("option", "") for a in actions]

    def option(value: str) -> Action:
        return actions[options.index(value)]

    if pending.kind == "alpha":
        # Every seat wants the same agent (the mission's pick, else the ranking), so the first
        # proposes it and the others agree; one already passed over leaves it to the ranking.
        agents = list(pending.options)
        wanted = hooks().prompt_advice(state, "alpha", "", agents) if expanded(state) else None
        wanted = wanted if wanted in agents else first_by_ranking(state)
        return option(wanted) if wanted in options else option(NO_AGREEMENT)
    if pending.kind == "promote" and expanded(state):
        picked = hooks().prompt_advice(state, pending.kind, pending.seat, options)
        if picked in options:
            return option(picked)
    if pending.kind == "reinforce":
        for wanted in ("weapon", "alien-weapon"):
            if wanted in options:
                return option(wanted)
        devices = [o for o in options if o != "keep"]
        return option(_best_device(devices)) if devices else option("keep")
    if pending.kind == "accept":
        return option(default_replacement(state))
    if pending.kind == "deliver":
        return option(default_taker(state))
    if pending.kind == "search":
        agent = state.agents[pending.seat]
        order = ("first-aid", "device", "ammo", "alien-tech")
        if not agent.wounds:
            order = ("device", "alien-tech", "ammo", "first-aid")
        return next((option(o) for o in order if o in options), actions[0])
    if pending.kind == "sb-pick":  # Operation Strikeback: a device to select at setup
        return option(_best_device(options))
    if pending.kind == "boost":
        return option(max(options, key=int)) if options else None
    if pending.kind == "drone-move":
        return option("stay") if "stay" in options else actions[0]
    if pending.kind == "drone-attack":
        targets = [o for o in options if o != "none"]
        return option(_weakest(state, targets)) if targets else option("none")
    if pending.kind == "sb-armory":  # Strikeback campaign: a weapon from GD Headquarters
        return option(hooks().default_armory(state))
    return actions[0]  # promotions: the first power the class may take


def _best_device(options: list[str]) -> str:
    rank = {"grenade": 0, "heal": 1, "dice": 2}
    return min(
        options,
        key=lambda d: (
            min(v for k, v in rank.items() if _effect(d).startswith(k))
            if any(_effect(d).startswith(k) for k in rank)
            else 3,
            d,
        ),
    )


def _weakest(state: GalaxyState, ids: list[str]) -> str:
    def left(alien_id: str) -> int:
        alien = find_alien(state, alien_id)
        return card(alien).hp - alien.wounds

    return min(ids, key=lambda i: (left(i), i))


# --- the Agent turn --------------------------------------------------------------------------


def _first(actions: list[Action], verb: str, **args: str) -> Action | None:
    for a in actions:
        if a.verb == verb and all(a.args.get(k) == v for k, v in args.items()):
            return a
    return None


def _acts(actions: list[Action], *whats: str) -> list[Action]:
    return [a for a in actions if a.verb == "act" and a.args.get("what") in whats]


def _objective(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    found = _acts(actions, "destroy-tp", "rescue")
    return found[0] if found else None


def _hp_left(agent: AgentState) -> int:
    return max_hp(agent) - agent.wounds


def _effect(what: str) -> str:
    if what in content().devices:
        return content().devices[what].effect
    if (found := power(what)) is not None:
        return found.effect

    for ex in loaded():
        if ex.is_device(what):
            return ex.catalogue()[what].effect
        if ex.is_psionic(what):
            return ex.psionics()[what].effect
    return ""


def _heals(actions: list[Action]) -> list[Action]:
    return [
        a
        for a in actions
        if a.verb == "act"
        and (
            (a.args.get("what") == "ability" and "target" in a.args)
            or _effect(a.args.get("what", "")).startswith(HEAL_EFFECTS)
        )
    ]


def _urgent_heal(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """Heal an agent (or himself) who is Bleeding or one Wound from it."""
    for a in _heals(actions):
        target = state.agents.get(a.args.get("target", agent.id))
        if target is not None and (target.bleeding or _hp_left(target) <= 1):
            return a
    return None


def _expected(agent: AgentState, key: str) -> float:
    """Expected Hits; an Alien Weapon without Alien Knowledge fails on any Jam or Alien face
    (2 faces of 6 on either die)."""
    w = weapon(key)
    dice = w.dice + sum(agent.bonus_dice.values())
    hits = dice * HITS_PER_DIE[w.color]
    if w.tier == "alien" and not knows_alien_tech(agent):
        hits *= (4 / 6) ** dice
    return hits


def _attacks(state: GalaxyState, actions: list[Action]) -> list[Action]:
    alien_ids = {a.id for a in state.aliens}
    return [
        a
        for a in actions
        if a.verb == "attack" and a.args.get("target") in alien_ids and "mode" not in a.args
    ]


def _best_attack(state: GalaxyState, agent: AgentState, attacks: list[Action]) -> Action:
    """The attack most likely to kill: the least HP left after the expected Hits, then the most
    Hits, then the weakest alien."""

    def score(a: Action) -> tuple[float, float, int, str]:
        alien = find_alien(state, a.args["target"])
        left = card(alien).hp - alien.wounds + alien.energy
        hits = _expected(agent, a.args["weapon"])
        return (max(0.0, left - hits), -hits, left, a.args["target"])

    return min(attacks, key=score)


def _boost_then_attack(
    state: GalaxyState, agent: AgentState, actions: list[Action]
) -> Action | None:
    attacks = _attacks(state, actions)
    if not attacks:
        return None
    best = _best_attack(state, agent, attacks)
    return booster(agent, actions, weapon(best.args["weapon"]).kind) or best


def booster(agent: AgentState, actions: list[Action], kind: str) -> Action | None:
    """An Action that adds Hit dice to his next attack of this kind (ranged or melee): a
    tactic, skill, device or psionic, or his class ability; None when he has none."""
    for a in actions:
        if a.verb != "act":
            continue
        what = a.args.get("what", "")
        effect = _effect(what)
        if what == "ability" and "target" not in a.args:
            ability = content().agents[agent.id].ability
            if (ability, kind) in (("steady-aim", "ranged"), ("brute-force", "melee")):
                return a
        if effect.startswith(("dice-any+", f"dice-{kind}+")):
            return a
    return None


def _psionic_attack(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """Operation Strikeback: with no weapon attack open, Mind Spike the weakest alien in
    reach; Mind Lock the strongest alien next to the agent."""
    spikes = [a for a in actions if _effect(a.args.get("what", "")).startswith("psi-attack")]
    if spikes and not _attacks(state, actions):
        weakest = _weakest(state, [a.args["target"] for a in spikes])
        return next(a for a in spikes if a.args["target"] == weakest)
    locks = [a for a in actions if _effect(a.args.get("what", "")) == "psi-paralyze"]
    near = [a for a in locks if agent.hex is not None and _adjacent_alien(state, agent, a)]
    if near:
        return max(near, key=lambda a: (_left(state, a.args["target"]), a.args["target"]))
    return None


def _adjacent_alien(state: GalaxyState, agent: AgentState, a: Action) -> bool:
    alien = find_alien(state, a.args["target"])
    return agent.hex is not None and adjacent(state, agent.hex, alien.hex)


def _left(state: GalaxyState, alien_id: str) -> int:
    alien = find_alien(state, alien_id)
    return card(alien).hp - alien.wounds


def _unjam_first(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """A jammed weapon is cleared with the Movement when the agent can already shoot."""
    if not _attacks(state, actions):
        return None
    found = [a for a in _acts(actions, "unjam") if a.args.get("using") == "movement"]
    return found[0] if found else None


def _grenade(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    throws = [
        a
        for a in actions
        if a.verb == "act" and _effect(a.args.get("what", "")).startswith("grenade")
    ]
    if not throws:
        return None

    def crowd(a: Action) -> tuple[int, str]:
        target = find_alien(state, a.args["target"])
        area = area_of(state, target.hex)
        near = [x for x in state.aliens if area_of(state, x.hex) == area]
        friends = [
            x for x in state.agents.values() if x.hex is not None and area_of(state, x.hex) == area
        ]
        return (-(len(near) - 2 * len(friends)), a.args["target"])

    best = min(throws, key=crowd)
    return best if crowd(best)[0] < 0 else None


def goal_hexes(state: GalaxyState) -> list[Hex]:
    return goals(state)[1]


def goals(state: GalaxyState) -> tuple[str, list[Hex]]:
    """Where the team should head: an unmet objective's places, else aliens, else Signals."""
    board = board_of(state)
    accomplished = next(
        (o for o in mission_of(state).objectives if o.result == "accomplished"), None
    )
    needs = accomplished.when if accomplished is not None else []
    need = objectives.needs(state, accomplished) if accomplished is not None else {}
    if need.get("destroyed", 0) > len(state.destroyed_tps):
        return "objective", [h for s, h in board.teleports.items() if s not in state.destroyed_tps]
    if need.get("rescued", 0) > state.rescued:
        rescued = {tuple(c) for c in state.rescued_at}
        return "objective", [
            h for h, m in board.marks.items() if m == "civilian" and (h.q, h.r) not in rescued
        ]
    kills_needed = need.get("kills", 0) > state.kills
    if "extracted" in needs and not kills_needed:
        return "objective", [h for h in board.hexes() if board.area_of[h] in board.exit_areas]
    if state.aliens:
        return "aliens", [hx(a.hex) for a in state.aliens]
    if state.signals:
        return "signals", [hx(s.hex) for s in state.signals]
    return "none", []


def distance_field(state: GalaxyState, goals: list[Hex]) -> dict[Hex, int]:
    """Walking distance (hexes) to the nearest goal, through what agents may cross."""
    board = board_of(state)
    lock = locked(state)
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n not in dist and board.on_map(n) and board.step_ok(n, h, lock, "agent"):
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def _move(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    moves = [a for a in actions if a.verb == "move"]
    if not moves or agent.hex is None:
        return None
    dist = distance_field(state, goal_hexes(state))
    here = dist.get(hx(agent.hex), FAR)

    def score(a: Action) -> tuple[int, int]:
        h = parse_label(a.args["to"])
        return (dist.get(h, FAR) if h is not None else FAR, moves.index(a))

    best = min(moves, key=score)
    return best if score(best)[0] < here else None


def _face(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """Turn to bring an alien into the front hexes when that makes an attack possible."""
    if agent.combat_used or not state.aliens:
        return None
    for a in actions:
        order = a.args.get("order", "")
        if a.verb != "orders" or not order.startswith("face-"):
            continue
        turned = agent.model_copy(update={"facing": FACINGS.index(order[len("face-") :].upper())})
        for index, ws in enumerate(turned.weapons):
            if weapon(ws.key).kind == "healing":
                continue
            if any(weapon_problem(state, turned, index, x) is None for x in state.aliens):
                return a
    return None


def _other_acts(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    if state.aliens:
        fire = _acts(actions, "drone-fire")
        if fire:
            return fire[0]
        drones = [
            a for a in actions if a.verb == "act" and _effect(a.args.get("what", "")) == "drone"
        ]
        if drones:
            return drones[0]
    for a in _heals(actions):
        target = state.agents.get(a.args.get("target", agent.id))
        if target is not None and target.wounds >= 2:
            return a
    unjam = _acts(actions, "unjam")
    unjam.sort(key=lambda a: a.args.get("using") != "movement")
    for found in (unjam, _acts(actions, "search")):
        if found:
            return found[0]
    evade = _acts(actions, "evade")
    if evade and not _attacks(state, actions):
        return evade[0]
    return None
