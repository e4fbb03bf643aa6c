"""The round: Refresh, Strategy, Battle (Agent turn then Aliens turn per player), Event."""

from __future__ import annotations

from engine.core.deck import Deck
from engine.core.dice import Dice, shuffle
from engine.core.events import CardDrawn, Event, Note, PhaseChanged
from engine.core.hexgrid import Hex, direction_to, distance, line
from engine.core.words import article, counted
from engine.galaxy import campaign
from engine.galaxy import dice as gdice
from engine.galaxy.actions import warehouse_devices
from engine.galaxy.agent import start_turn
from engine.galaxy.aliens import activate, activation_order
from engine.galaxy.attack import die
from engine.galaxy.board import Board, load_map
from engine.galaxy.content import close_encounter, content, event_card, power_card
from engine.galaxy.content import mission as mission_by_key
from engine.galaxy.expansion import expanded, hooks, own
from engine.galaxy.leader import first_by_ranking, open_vote
from engine.galaxy.lifecycle import check_all_dead, clockwise_from_alpha
from engine.galaxy.objectives import mission_status
from engine.galaxy.ranks import grant_power, kind_of, promotion_options, rank_up
from engine.galaxy.signals import (
    Resume,
    land_teleport,
    move_signals,
    reveal_in_sight,
    teleport_alien,
    teleport_signal,
)
from engine.galaxy.state import AgentState, AlienState, GalaxyState, Pending, WeaponState
from engine.galaxy.supply import (
    issue_weapon,
    offer_headquarters,
    offer_reinforcements,
    offer_revival,
    revival_queue,
)
from engine.galaxy.world import (
    RANKS,
    agent_name,
    card,
    co,
    mission_key,
    mission_of,
    operative,
    profile,
    seat_label,
    weapon,
)

# GD results needed on 3 RED dice to reach each rank (authored: the table's numbers are ours).
GD_NEEDED = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}


def setup(scenario: str, seats: list[str], options: dict[str, str], dice: Dice) -> GalaxyState:
    state = GalaxyState(scenario=scenario, seats=list(seats), options=dict(options))
    if scenario == campaign.CAMPAIGN:
        state.campaign = campaign.new_campaign(options)
    for seat in seats:
        p = content().agents[seat]
        state.agents[seat] = AgentState(
            id=seat, hex=None, weapons=[WeaponState(key=k, ammo=weapon(k).ammo) for k in p.weapons]
        )
    first = state.campaign.missions[state.campaign.index] if state.campaign else scenario
    begin_mission(state, first, 0, dice)
    return state


def begin_mission(state: GalaxyState, key: str, alien_tech: int, dice: Dice) -> None:
    """Lay out a mission's board, decks and kits for agents already created (a campaign's
    carry the rest over). Standalone missions get their `issued` weapons, which stand in for
    a campaign's research."""
    mission = mission_by_key(key)
    board = load_map(mission.map)
    state.mission = key
    for seat, start in zip(state.seats, board.starts, strict=False):
        agent = state.agents[seat]
        agent.hex = co(start)
        agent.facing = facing_toward_teleports(board, start)
        agent.devices = list(mission.kit.get(seat, []))
        agent.alien_order = []  # the aliens he named belong to the mission that ended
        if state.campaign is None:
            for weapon_key in mission.issued.get(seat, []):
                issue_weapon(agent, weapon_key)
    tokens = [f"alien-{n}" for n in range(1, mission.signals["alien"] + 1)]
    tokens += [f"human-{n}" for n in range(1, mission.signals["human"] + 1)]
    state.signal_reserve = shuffle(dice, tokens)
    state.signal_discard = []
    state.aliens = []
    state.signals = []
    state.alien_deck = Deck.shuffled("Alien", mission.alien_deck, dice)
    ce = (
        list(content().close_encounters)
        if mission.close_encounters == "all"
        else list(mission.close_encounters)
    )
    state.ce_deck = Deck.shuffled("Close Encounter", ce, dice)
    stacks = getattr(mission, "stacks", [])
    if stacks:  # Operation Strikeback: an ordered deck of stacks (storybook 2.2), top first
        state.event_deck = Deck(
            name="Event", draw_pile=list(reversed(hooks().build_deck(stacks, dice)))
        )
    else:
        ev = mission.event_deck(list(content().events))
        state.event_deck = Deck.shuffled("Event", ev, dice)
    state.locked = [[co(h) for h in sorted(s)] for s in sorted(board.locked_doors, key=sorted)]
    state.weather = None
    state.alien_tech = alien_tech
    state.tech_from_kills = state.tech_from_search = False
    state.kills = state.kills_this_round = state.kills_last_round = 0
    state.destroyed_tps = []
    state.rescued = 0
    state.rescued_at = []
    state.next_alien = state.next_signal = 1
    state.pending = None
    state.strategy_step = 0
    state.revivals = []
    if state.campaign is None:  # a campaign's last GD-Wings roll may owe a pick (Strikeback 5.4)
        state.promotions = []
    state.turn_order = []
    state.turn_index = 0
    state.outcome = None
    state.outcome_text = ""
    if expanded(state):  # Marks, Poisons, Criticals and shields end with a mission
        hooks().next_mission(state)  # Psionic Powers stay with their agents, suits behind
        hooks().begin_mission(state, mission, dice)
    state.alpha = first_by_ranking(state)
    state.round = 1
    state.phase = "setup"


def facing_toward_teleports(board: Board, start: Hex) -> int:
    """Policy: agents begin facing the nearest Teleport Point."""
    point = min(board.teleports.values(), key=lambda h: (distance(start, h), h.r, h.q))
    steps = line(start, point)
    if len(steps) < 2:
        return 0
    first = direction_to(start, steps[1][0])
    return 0 if first is None else first


def place_start_signals(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    """The mission's opening Signals teleport in before the first round."""
    mission = mission_of(state)
    events.append(Note(text=f"{mission.title}: {mission.briefing}"))
    opening_signals(state, mission.start_signals, dice, events)


def opening_signals(state: GalaxyState, left: int, dice: Dice, events: list[Event]) -> None:
    """Teleport the opening Signals still to come, then finish the setup (a `teleport` prompt
    waits for the Alpha Agent and comes back here with the rest)."""
    while left > 0:
        left -= 1
        if teleport_signal(state, dice, events, {"then": "opening", "left": left}):
            return
    start = RANKS.index(state.options.get("start-rank", "copper").title())
    if expanded(state) and not start:
        start = hooks().standalone_rank(state)  # Operation Strikeback: the briefing's rank
    if state.campaign is not None and (state.campaign.index or state.campaign.attempt > 1):
        start = 0  # later missions of a campaign: the ranks are carried, not set
    if alien_tech := state.alien_tech:
        events.append(Note(text=f"The team brings {counted(alien_tech, 'Alien Tech fragment')}."))
    for seat in state.seats:
        for _ in range(start):
            rank_up(state, state.agents[seat], events)
    state.phase = "refresh"


def advance(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    """Run automatic steps until a seat must decide or the mission ends."""
    for _ in range(10_000):
        if campaign.campaign_going_on(state):
            carried = campaign.debrief(state, events, dice)
            if carried is not None:
                begin_mission(state, *carried, dice)
            continue
        if state.outcome is not None or state.pending is not None:
            return
        if check_all_dead(state, events):
            continue
        if state.phase == "setup":
            place_start_signals(state, dice, events)
        elif state.phase == "refresh":
            refresh(state, events, dice)
        elif state.phase == "strategy":
            if not strategy(state, dice, events):
                return
        elif state.phase == "agent":
            seat = state.turn_order[state.turn_index]
            agent = state.agents[seat]
            if agent.dead:
                next_turn(state, events)
            elif "paralyze" in agent.conditions:
                events.append(Note(text=f"{agent_name(agent)} is Paralyzed and skips his turn."))
                state.phase = "aliens"
            else:
                return
        elif state.phase == "aliens":
            if aliens_turn(state, dice, events):
                next_turn(state, events)
        elif state.phase == "event":
            event_phase(state, dice, events)
        else:
            return
    raise RuntimeError("advance did not settle")


def refresh(state: GalaxyState, events: list[Event], dice: Dice | None = None) -> None:
    events.append(
        PhaseChanged(round=state.round, phase="refresh", text=f"Round {state.round}: Refresh.")
    )
    for agent in state.agents.values():
        agent.ability_used = False
        agent.used_skills = []
        agent.guard = True
        agent.conditions = []
        # Energy from a device or power lasts until this Refresh; only Elite armor regenerates.
        agent.energy = profile(agent).elite.energy if agent.elite else 0
    for alien in state.aliens:
        alien.energy = card(alien).energy
        alien.conditions = []
    if expanded(state) and dice is not None:
        for alien in hooks().refresh_wounds(state, dice, events):  # Poison, Criticals ...
            if alien in state.aliens:
                die(state, alien, dice, events)
        hooks().refresh(state, events)  # Psionic Powers, Regeneration, Power Suit energy
    state.tech_from_kills = False
    state.tech_from_search = False
    state.kills_last_round = state.kills_this_round
    state.kills_this_round = 0
    state.phase = "strategy"
    if check_all_dead(state, events):
        return  # a Poison's wound at this Refresh took the last Operative agent
    options = [a.id for a in operative(state)]
    if len(options) == 1:
        state.alpha = options[0]
        events.append(
            Note(
                text=f"Strategy: {agent_name(state.agents[options[0]])} is the only "
                "agent standing and leads as Alpha Agent."
            )
        )
        return
    state.pending = open_vote(state, options)
    events.append(Note(text="Strategy: the players choose this round's Alpha Agent together."))


def strategy(state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
    """After the Alpha Agent is named: GD-Wings (with any tactic/skill choices they earn),
    Reinforcements, then the Mission Status check."""
    if state.strategy_step == 0:
        state.strategy_step = 1
        if state.kills_last_round:
            for seat in clockwise_from_alpha(state):
                gd_wings(state, state.agents[seat], dice, events)
    if state.strategy_step == 1:
        if offer_headquarters(state, events) or offer_promotion(state, events):
            return False
        state.strategy_step = 2
        state.revivals = revival_queue(state)
    if state.strategy_step == 2:
        if offer_revival(state, events):
            return False
        state.strategy_step = 3
        reveal_in_sight(state, dice, events)
        if offer_reinforcements(state, events):
            return False
    if state.strategy_step == 3 and expanded(state):
        if hooks().deliver_armory(state, dice, events):  # weapons an Armory token triggered (9.9)
            if state.pending is not None:
                return False
            return strategy(state, dice, events)
        if hooks().reinforcements(state, dice, events):  # a mission's own Reinforcements
            return False
    state.strategy_step = 0
    if mission_status(state, events):
        return campaign.campaign_going_on(state)
    state.turn_order = [s for s in clockwise_from_alpha(state) if not state.agents[s].dead]
    state.turn_index = 0
    begin_agent_turn(state, events)
    return True


def gd_wings(state: GalaxyState, agent: AgentState, dice: Dice, events: list[Event]) -> None:
    """Roll 3 RED dice; enough GD results raise the agent one rank. A standalone mission sets
    no limit; in a campaign (`rank-limit` option) an agent gains at most one rank a mission."""
    top = len(RANKS) - 1
    if expanded(state):
        top = hooks().top_rank(state)
    if agent.dead or agent.rank >= top:
        return
    limited = state.options.get("rank-limit") == "campaign" or state.campaign is not None
    if limited and agent.ranks_gained >= 1:
        return
    faces = gdice.roll(dice, "red", 3)
    got = gdice.tally("red", faces)[gdice.GD]
    need = GD_NEEDED.get(agent.rank + 1, 0)
    if expanded(state):
        need = hooks().needed(state, agent.rank + 1, GD_NEEDED)
    if got < need:
        events.append(Note(text=f"GD-Wings: {agent_name(agent)} rolls {got} GD of {need} needed."))
        return
    agent.ranks_gained += 1
    rank_up(state, agent, events)


def offer_promotion(state: GalaxyState, events: list[Event]) -> bool:
    """Ask the next promoted agent to pick a tactic or skill; False when none is owed."""
    while state.promotions:
        seat, _, rank = state.promotions.pop(0).partition(":")
        agent = state.agents[seat]
        options = promotion_options(agent, int(rank), state)
        if agent.dead:
            continue
        what = kind_of(state, int(rank)).replace("-", " ")
        if not options:
            events.append(
                Note(
                    text=f"{agent_name(agent)} would take {article(what)} {what}, "
                    "but none is left in the box."
                )
            )
            continue
        state.pending = Pending(
            kind="promote", seat=seat, options=options, data={"rank": int(rank)}
        )
        events.append(Note(text=f"{agent_name(agent)} picks {article(what)} {what}."))
        return True
    return False


def finish_promotion(
    state: GalaxyState, option: str, events: list[Event], dice: Dice | None = None
) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    agent = state.agents[pending.seat]
    # Moon / Galaxy: a random Psionic Power (9.7.2)
    if expanded(state) and dice is not None and option == hooks().PSIONIC:
        rank = int(str(pending.data.get("rank", agent.rank)))
        hooks().grant_psionic(state, agent, rank, dice, events)
        return
    power = power_card(option)
    grant_power(agent, option, int(str(pending.data.get("rank", agent.rank))))
    events.append(Note(text=f"{agent_name(agent)} gains {power.name}."))
    if power.effect == "grenadier":
        grant_grenades(state, agent, events)


def grant_grenades(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """Grenadier: up to 3 grenades still in the Warehouse (policy: in content order)."""

    devices = content().devices
    pool = [
        d
        for d in warehouse_devices(state)
        if d in devices and devices[d].effect.startswith("grenade")
    ]
    if expanded(state):  # Operation Strikeback grenades, after the core box's
        pool += [
            d
            for d in hooks().generic_in_warehouse(state)
            if d not in devices and hooks().effect_of(d).startswith("grenade")
        ]
    taken = pool[:3]
    names = []
    for d in taken:
        if d in devices:
            agent.devices.append(d)
            names.append(devices[d].name)
        else:
            hooks().hand(state, agent, d)
            names.append(hooks().name_of(d))
    names_text = ", ".join(names) or "none left in the Warehouse"
    events.append(Note(text=f"Grenadier: {agent_name(agent)} receives grenades ({names_text})."))


def begin_agent_turn(state: GalaxyState, events: list[Event]) -> None:
    seat = state.turn_order[state.turn_index]
    state.phase = "agent"
    agent = state.agents[seat]
    start_turn(state, agent)
    events.append(
        PhaseChanged(
            round=state.round,
            phase="agent",
            active=[seat],
            text=f"Battle: {agent_name(agent)}'s Agent turn.",
        )
    )


def next_turn(state: GalaxyState, events: list[Event]) -> None:
    fix_alpha(state, events)
    state.turn_index += 1
    while (
        state.turn_index < len(state.turn_order)
        and state.agents[state.turn_order[state.turn_index]].dead
    ):
        state.turn_index += 1
    if state.turn_index >= len(state.turn_order):
        state.phase = "event"
        return
    begin_agent_turn(state, events)


def matches(state: GalaxyState, alien: AlienState, match: dict[str, object]) -> bool:
    c = card(alien)
    if match.get("all"):
        return True
    if "species" in match and c.species != match["species"]:
        return False
    if "rank" in match and c.rank != match["rank"]:
        return False
    if "power" in match and match["power"] not in getattr(c, "sb_powers", []):
        return False  # an Operation Strikeback card: every alien with a power
    if "healthy" in match or "position" in match:  # Operation Strikeback cards
        return hooks().fits_card(state, alien, match)
    return not (match.get("wounded") and alien.wounds == 0)


def aliens_turn(state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
    """One player's Aliens turn; False when it waits for the Alpha Agent to break a tie of an
    Operation Strikeback "activate X aliens" card (the turn resumes after his choice)."""
    seat = state.turn_order[state.turn_index]
    waiting = own(state).activating if expanded(state) else None
    if waiting is not None and waiting.picks == 0:
        assert expanded(state)
        hooks().tie_broken(state)
        ce_id, ce = waiting.card, close_encounter(waiting.card)
        chosen = [a for a in state.aliens if a.id in waiting.chosen]
    else:
        if expanded(state):  # his agent turn is over (a mission's carried bomb)
            hooks().turn_over(state, seat, events)
        ce_id = state.ce_deck.draw(dice)
        ce = close_encounter(ce_id)
        events.append(
            CardDrawn(
                deck="close-encounter",
                card=ce_id,
                text=f"{agent_name(state.agents[seat])}'s Aliens turn: Close Encounter {ce.name}.",
            )
        )
        if expanded(state) and ("count" in ce.match or "alpha" in ce.match):
            if not hooks().select(state, ce_id, ce.match, events):
                return False
            return aliens_turn(state, dice, events)
        chosen = [a for a in state.aliens if matches(state, a, ce.match)]
    if expanded(state):  # a Prime Swarm activates once (11.6)
        chosen = hooks().units(state, chosen)
    chosen = activation_order(state, chosen)
    if not chosen:
        if ce.danger:
            resume: Resume = {"then": "danger", "card": ce_id}
            if teleport_alien(state, ce.danger, dice, events, f"Danger on {ce.name}", resume):
                return False  # the Alpha Agent picks the hex; `finish_teleport` ends the turn
        else:
            events.append(Note(text="No matching alien on the battlefield."))
    for alien in chosen:
        if alien in state.aliens and state.outcome is None and operative(state):
            activate(state, alien, dice, events)
            reveal_in_sight(state, dice, events)
    state.ce_deck.discard(ce_id)
    return True


def fix_alpha(state: GalaxyState, events: list[Event]) -> None:
    """A dead Alpha Agent passes the token to the next agent clockwise."""
    if state.agents[state.alpha].dead and operative(state):
        order = clockwise_from_alpha(state)
        state.alpha = next(s for s in order if not state.agents[s].dead)
        events.append(
            Note(text=f"The Alpha Agent token passes to {seat_label(state, state.alpha)}.")
        )


def event_phase(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    # the mission runs this Event phase
    if expanded(state) and hooks().event_phase(state, dice, events):
        if state.outcome is None:
            hooks().after_event(state, dice, events)
        state.round += 1
        state.phase = "refresh"
        return
    card_id = state.event_deck.draw(dice)
    event = event_card(mission_key(state), card_id)
    events.append(
        CardDrawn(
            deck="event", card=card_id, text=f"Event phase: the Alpha Agent draws {event.name}."
        )
    )
    resolve_event(state, card_id, 0, -1, dice, events)


def resolve_event(
    state: GalaxyState, card_id: str, step: int, left: int, dice: Dice, events: list[Event]
) -> None:
    """The Event card's effects from `step` on (`left`: the teleports still owed by that step,
    -1 when it has not begun); a `teleport` prompt stops here and its answer comes back."""
    event = event_card(mission_key(state), card_id)
    agents = len(operative(state))
    effects = event.effects
    if expanded(state):  # the column the previous campaign mission selects
        effects = hooks().event_effects(state, event)
    quiet = False
    if expanded(state):
        quiet = hooks().quiet_signals(state)  # a mission whose Event phases leave Signals alone
    for index, effect in enumerate(effects):
        if index < step:
            continue
        if state.outcome is not None:
            break
        if quiet and ("signals" in effect or "teleport" in effect):
            events.append(Note(text="This mission's Event phases leave the Signals alone."))
            continue
        if "signals" in effect:
            move_signals(state, str(effect["signals"]), int(effect["areas"]), dice, events)
        elif "teleport" in effect:
            if index != step or left < 0:
                if event.balance == "fewer-aliens" and len(state.aliens) >= agents:
                    events.append(Note(text="Aliens already match the agents: no Signal arrives."))
                    continue
                table = event.teleport or [1, 1, 1, 1, 1]
                left = table[max(1, min(5, agents)) - 1]
                if event.balance.startswith("sb-"):  # Operation Strikeback balancers (6.3)
                    left = hooks().balanced_teleports(state, event.balance, events)
            while left > 0:
                left -= 1
                resume: Resume = {"then": "event", "card": card_id, "step": index, "left": left}
                if teleport_signal(state, dice, events, resume):
                    return
        elif "weather" in effect:
            weather = str(effect["weather"])
            state.weather = None if weather == "clear" else weather
            events.append(Note(text=f"Weather: {weather}."))
        elif "act-of-valor" in effect:
            for agent in state.agents.values():
                agent.used_tactics = []
            events.append(Note(text="Act of Valor: used tactics are ready again."))
        elif "alien" in effect:
            spec = effect["alien"]
            assert isinstance(spec, dict)
            if index != step or left < 0:
                resume = {"then": "event", "card": card_id, "step": index, "left": 0}
                wanted = {str(k): str(v) for k, v in spec.items()}
                if teleport_alien(state, wanted, dice, events, event.name, resume):
                    return
        elif "sb" in effect:  # an Operation Strikeback Special Event effect
            hooks().apply_effect(state, effect, dice, events)
        reveal_in_sight(state, dice, events)
    if expanded(state) and state.outcome is None:
        hooks().after_event(state, dice, events)
    if event.type == "special":
        events.append(Note(text=f"Special Event of {mission_of(state).title}."))
    if event.type == "weather":
        events.append(Note(text="The Weather Event stays in play until the next one."))
    state.event_deck.discard(card_id)
    state.round += 1
    state.phase = "refresh"


def finish_teleport(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
    """The Alpha Agent's hex for a teleported Signal or alien; the interrupted resolution
    (opening Signals, an Event card, a Danger card) carries on."""
    data = land_teleport(state, option, dice, events)
    then = data.get("then")
    if then == "opening":
        opening_signals(state, int(str(data.get("left", 0))), dice, events)
    elif then == "event":
        step, left = int(str(data.get("step", 0))), int(str(data.get("left", 0)))
        resolve_event(state, str(data["card"]), step, left, dice, events)
    elif then == "danger":
        state.ce_deck.discard(str(data["card"]))
        next_turn(state, events)
