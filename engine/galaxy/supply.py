"""The Strategy phase's supplies: revivals, Reinforcements and new weapons.

- Revival (rulebook, Death): at the beginning of Reinforcements each Inoperative player may
  spend 1 Alien Tech fragment to come back on the GD Start Hex he picks, or stay out.
- Reinforcements: 4 fragments buy a chosen Generic device or a random Improved Weapon (an
  Alien Weapon too on a mission with the Alien Armory), handed to the agent on the map the
  Alpha Agent names.
- A new weapon is the receiving agent's choice: which weapon it replaces, or refuse it (in a
  campaign the refused one waits at GD Headquarters and is offered again at the next mission).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event, Note, Spawned
from engine.core.words import counted
from engine.galaxy.actions import warehouse_devices
from engine.galaxy.board import label, parse_label
from engine.galaxy.content import content
from engine.galaxy.expansion import expanded, hooks, loaded
from engine.galaxy.lifecycle import clockwise_from_alpha, nearest_free
from engine.galaxy.state import AgentState, GalaxyState, Pending, WeaponState
from engine.galaxy.world import agent_name, board_of, co, mission_of, operative, weapon


def revival_queue(state: GalaxyState) -> list[str]:
    """The Inoperative players, clockwise from the Alpha Agent, who may ask to come back at
    the beginning of Reinforcements (never with Permanent Death on)."""
    if state.options.get("permanent-death") == "on":
        return []
    kept = hooks().rules(state).kept_out(state) if expanded(state) else ()  # by the mission
    return [s for s in clockwise_from_alpha(state) if state.agents[s].dead and s not in kept]


def revival_spots(state: GalaxyState) -> list[str]:
    return [label(h) for h in board_of(state).starts if nearest_free(state, h) == h]


REVIVE_WAIT = "stay-out"


def offer_revival(state: GalaxyState, events: list[Event]) -> bool:
    """Death: each Inoperative player may spend 1 Alien Tech fragment to come back on a GD
    Start Hex of his choice (`/choose option:<hex>`), or stay out and save the fragments."""
    while state.revivals:
        seat = state.revivals.pop(0)
        agent = state.agents[seat]
        spots = revival_spots(state)
        if not agent.dead or state.alien_tech < 1 or not spots:
            continue
        state.pending = Pending(kind="revive", seat=seat, options=[*spots, REVIVE_WAIT])
        events.append(
            Note(
                text=f"{agent_name(agent)} is Inoperative: spend 1 of the team's "
                f"{counted(state.alien_tech, 'Alien Tech fragment')} to return on a GD Start Hex "
                f"({', '.join(spots)}), or wait."
            )
        )
        return True
    return False


def finish_revival(state: GalaxyState, option: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    agent = state.agents[pending.seat]
    if option == REVIVE_WAIT:
        events.append(Note(text=f"{agent_name(agent)} stays out; the fragments are kept."))
        return
    spot = parse_label(option)
    assert spot is not None
    state.alien_tech -= 1
    agent.dead = False
    agent.bleeding = False
    agent.wounds = 0
    agent.conditions = []
    agent.hex = co(spot)
    events.append(
        Spawned(
            figure=agent.id,
            at=option,
            text=f"{agent_name(agent)} returns at {option} for one Alien Tech fragment "
            f"({state.alien_tech} left).",
        )
    )


def issue_weapon(agent: AgentState, key: str) -> str:
    """Give a weapon with full Ammo in place of the one of the same kind (ranged, melee,
    healing), else the first; returns the replaced weapon's name."""
    w = weapon(key)
    slot = next((i for i, ws in enumerate(agent.weapons) if weapon(ws.key).kind == w.kind), 0)
    old = weapon(agent.weapons[slot].key).name
    agent.weapons[slot] = WeaponState(key=key, ammo=w.ammo)
    return old


def weapon_pool(state: GalaxyState, tier: str) -> list[str]:
    """The Warehouse's weapon tokens of a tier (one of each) that fit an Operative agent:
    Generic ones and those of the classes in play, minus the ones already carried."""
    classes = {a.id for a in operative(state)}
    held = {ws.key for a in state.agents.values() for ws in a.weapons}
    held |= set(state.campaign.hq if state.campaign is not None else [])
    stock = list(content().weapons.values())
    if expanded(state):  # the expansion's weapon tokens join the Warehouse (2.2)
        stock += hooks().warehouse(state)
    return sorted(
        w.key
        for w in stock
        if w.tier == tier and w.key not in held and (not w.classes or set(w.classes) & classes)
    )


def _expansion(state: GalaxyState, key: str) -> bool:
    """An Operation Strikeback weapon token (only with the layer on)."""

    return any(w.key == key for w in hooks().warehouse(state))


def own_weapons(agent: AgentState) -> list[WeaponState]:
    """His weapons, without a worn Power Suit's on-board one (never replaced or carried)."""
    return [ws for ws in agent.weapons if not any(ex.is_suit_weapon(ws.key) for ex in loaded())]


def armory(state: GalaxyState) -> bool:
    """The mission's Improved/Alien Armory: its research can deliver Alien Weapons too."""
    return "alien-armory" in mission_of(state).special


def offer_reinforcements(state: GalaxyState, events: list[Event]) -> bool:
    """With 4 fragments the Alpha Agent may send them back for a device or a weapon (and, on a
    mission with the Alien Armory, a random Alien Weapon)."""
    if state.alien_tech < 4 or not operative(state):
        return False

    weapons = ["weapon"] if weapon_pool(state, "improved") else []
    if expanded(state) and hooks().active(
        state
    ):  # 5.3: a new Improved weapon, or an Alien one when none is left
        weapons = ["weapon"] if hooks().weapon_pool(state) else []
    elif armory(state) and weapon_pool(state, "alien"):
        weapons.append("alien-weapon")
    options = [*weapons, *sorted(set(warehouse_devices(state))), "keep"]
    state.pending = Pending(kind="reinforce", seat=state.alpha, options=options)
    events.append(
        Note(
            text="Reinforcements: 4 Alien Tech fragments can buy a random Improved Weapon"
            + (", a random Alien Weapon" if "alien-weapon" in options else "")
            + " or a chosen device."
        )
    )
    return True


def finish_reinforcements(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
    state.pending = None
    if option == "keep":
        events.append(Note(text="The Alpha Agent keeps the Alien Tech for now."))
        return

    state.alien_tech -= 4
    if option in ("weapon", "alien-weapon"):
        pool = weapon_pool(state, "alien" if option == "alien-weapon" else "improved")
        if expanded(state) and hooks().active(state):
            pool = hooks().weapon_pool(state)
        key = pool[dice.randrange(len(pool))]
        w = weapon(key)
        kind = "Alien" if w.tier == "alien" else "Improved"
        what = f"a random {kind} Weapon, the {w.name}"
    else:
        key, what = option, f"a {device_name(option)}"
    takers = delivery_takers(state, key)
    if not takers and expanded(state) and hooks().active(state):
        hooks().keep_at_headquarters(state, key, events)  # 5.3: kept in Headquarters
        return
    if len(takers) == 1:
        deliver(state, takers[0], key, events)
        return
    # Rulebook: it goes to any one agent on the map, with the Alpha Agent's agreement.
    state.pending = Pending(kind="deliver", seat=state.alpha, options=takers, data={"item": key})
    events.append(Note(text=f"Reinforcements deliver {what}: the Alpha Agent chooses who gets it."))


def device_name(key: str) -> str:
    found = content().devices.get(key)
    if found is not None:
        return found.name

    return hooks().name_of(key)


def delivery_takers(state: GalaxyState, key: str) -> list[str]:
    """Agents on the map who may receive a delivered device or weapon (a class weapon only
    its class), clockwise from the Alpha Agent."""
    classes = _delivered_classes(state, key)
    return [
        s
        for s in clockwise_from_alpha(state)
        if not state.agents[s].dead
        and state.agents[s].hex is not None
        and (not classes or s in classes)
    ]


def _delivered_classes(state: GalaxyState, key: str) -> list[str]:
    """The classes that may take a delivered item, read as `deliver` reads the key: a core
    device, then an Operation Strikeback device (which may name classes), then a weapon. The
    expansion's Nano Injector device shares its key with the Biotech's Nano Injector weapon:
    delivered as a device, any agent takes it."""
    if key in content().devices:
        return []
    if expanded(state) and hooks().is_device(key):
        return list(hooks().catalogue()[key].classes)
    if key in content().weapons or _expansion(state, key):
        return list(weapon(key).classes)
    return []


def default_taker(state: GalaxyState) -> str:
    """Timeout policy for a delivery: the Alpha Agent, else the first agent offered (a class
    weapon has a single taker and is handed over without asking)."""
    pending = state.pending
    assert pending is not None
    return state.alpha if state.alpha in pending.options else pending.options[0]


def finish_delivery(state: GalaxyState, option: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    deliver(state, option, str(pending.data["item"]), events)


def deliver(state: GalaxyState, seat: str, key: str, events: list[Event]) -> None:
    agent = state.agents[seat]
    if key in content().devices:
        agent.devices.append(key)
        events.append(
            Note(text=f"Reinforcements: a {content().devices[key].name} for {agent_name(agent)}.")
        )
        return
    if expanded(state) and hooks().is_device(key):  # a Strikeback device
        hooks().hand(state, agent, key)
        name = hooks().name_of(key)
        events.append(Note(text=f"Reinforcements: a {name} for {agent_name(agent)}."))
        return
    w = weapon(key)
    kind = "Alien" if w.tier == "alien" else "Improved"
    offer_weapon(state, agent, key, "reinforce", events, f"a random {kind} Weapon")


def offer_weapon(
    state: GalaxyState, agent: AgentState, key: str, source: str, events: list[Event], what: str
) -> None:
    """A new weapon for an agent: `/choose replace-<weapon>` or `refuse` (rulebook: an agent
    need not take a weapon; in a campaign the refused one goes to GD Headquarters)."""
    options = [f"replace-{ws.key}" for ws in replaceable(state, agent, key)] + ["refuse"]
    state.pending = Pending(
        kind="accept", seat=agent.id, options=options, data={"weapon": key, "from": source}
    )
    if len(options) == 1:  # nothing he carries may give way to it: he cannot take it
        events.append(
            Note(
                text=f"{agent_name(agent)} cannot take the {weapon(key).name}: his weapons "
                "with unlimited Ammo give way only to another with unlimited Ammo."
            )
        )
        finish_accept(state, "refuse", events)
        return
    events.append(
        Note(
            text=f"{what.capitalize()}, the {weapon(key).name}, for {agent_name(agent)}: "
            "take it in place of a weapon, or refuse."
        )
    )


def replaceable(state: GalaxyState, agent: AgentState, key: str) -> list[WeaponState]:
    """The weapons a new one may take the place of: any of his own, unless the expansion's
    rule for managing weapons keeps an unlimited-Ammo weapon from giving way to a limited one."""
    mine = own_weapons(agent)
    if not expanded(state):
        return mine
    return [ws for ws in mine if hooks().may_replace(ws.key, key)]


def default_replacement(state: GalaxyState) -> str:
    """Timeout policy for a weapon offer: take it in place of the weapon of the same kind
    (of those it may replace), else the first it may replace."""
    pending = state.pending
    assert pending is not None
    agent = state.agents[pending.seat]
    key = str(pending.data["weapon"])
    kind = weapon(key).kind
    mine = replaceable(state, agent, key)
    if not mine:
        return "refuse"
    slot = next((ws for ws in mine if weapon(ws.key).kind == kind), mine[0])
    return f"replace-{slot.key}"


def finish_accept(state: GalaxyState, option: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    agent = state.agents[pending.seat]
    key, source = str(pending.data["weapon"]), str(pending.data["from"])
    hq = state.campaign.hq if state.campaign is not None else None
    if option == "refuse":
        if hq is not None and source != "hq":
            hq.append(key)
        where = "stays at" if source == "hq" else "goes to"
        events.append(
            Note(
                text=f"{agent_name(agent)} refuses the {weapon(key).name}: it "
                + (f"{where} GD Headquarters." if hq is not None else "goes back to the box.")
            )
        )
        return
    old_key = option[len("replace-") :]
    slot = next(i for i, ws in enumerate(agent.weapons) if ws.key == old_key)
    agent.weapons[slot] = WeaponState(key=key, ammo=weapon(key).ammo)
    if hq is not None and source == "hq":
        hq.remove(key)
    kept = hq is not None and weapon(old_key).tier != "standard"
    if kept:
        assert hq is not None
        hq.append(old_key)
    events.append(
        Note(
            text=f"{agent_name(agent)} takes the {weapon(key).name} in place of the "
            f"{weapon(old_key).name}" + (" (kept at GD Headquarters)." if kept else ".")
        )
    )


def offer_headquarters(state: GalaxyState, events: list[Event]) -> bool:
    """At a campaign mission's first Strategy phase each weapon kept at GD Headquarters is
    offered to the first agent clockwise from the Alpha Agent who may use it."""

    if expanded(state) and hooks().active(
        state
    ):  # storybook 2.1: the mission's weapons from GD Headquarters
        return hooks().offer_armory(state, events)
    camp = state.campaign
    while camp is not None and camp.offers:
        key = camp.offers.pop(0)
        w = weapon(key)
        takers = [
            s
            for s in clockwise_from_alpha(state)
            if not state.agents[s].dead and (not w.classes or s in w.classes)
        ]
        if key in camp.hq and takers:
            offer_weapon(state, state.agents[takers[0]], key, "hq", events, "GD Headquarters")
            if state.pending is not None:
                return True
    return False
