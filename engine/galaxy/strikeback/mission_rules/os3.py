"""Mission 3 (storybook 7, "A Deep Impact"): the EMP-Nuke Bombs.

Two bombs start on Waypoints 3 and 4 of the crashed shuttle (B1). Every alien takes a bomb
lying on the map for the most wounded agent (2 Health points, BLUE defence); a destroyed bomb
is back on its starting Waypoint, whole. A bomb fills its hex: figures walk through but never
stop on it. An agent next to a bomb picks it up as a Free Action (`carry-bomb`); it moves with
him, and when his turn ends it is put down on a free hex next to him (`drop-bomb` lets him
choose first). Next to an empty Waypoint 1 or 2 he plants it with his Action (`deploy-bomb`):
aliens leave it alone from then on. With bombs on Waypoints 1 and 2, the holder of the Remote
Control (the Alpha Agent hands it out at the first Reinforcements; dropped where its holder
dies, picked up by walking over it) detonates both with his Action (`detonate`). Until the
first two are detonated, every Event phase moves the Signals 1 Area toward the agents and
teleports Signals instead of drawing a card. Two agents wear Jet Boots kept after use.
Special Event A puts the bomb tokens back on Waypoints 3 and 4 (bombs 3 and 4) and moves
Waypoints 1 and 2 to marks #1 and #2; B brings the set-aside Archon, an Alien weapon offer,
four aliens and the Archon's free shot; E brings an empty Power Suit to mark #4.
"""

from __future__ import annotations

from typing import Any, Self

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy.attack import resolve_defence
from engine.galaxy.board import label
from engine.galaxy.content import Mission
from engine.galaxy.lifecycle import nearest_free
from engine.galaxy.signals import move_signals, teleport_signal
from engine.galaxy.state import AgentState, AlienState, Coord, GalaxyState, Pending
from engine.galaxy.strikeback import free as free_actions
from engine.galaxy.strikeback import headquarters, npc
from engine.galaxy.strikeback.mission_rules import DIG_SITE, MissionRules, register
from engine.galaxy.strikeback.mission_rules.tokens import (
    CarriedState,
    MissionToken,
    advisor_step_toward,
    carried,
    drop_all,
    pick_up,
)
from engine.galaxy.strikeback.npc import npc_weapon
from engine.galaxy.strikeback.play import mark_hex, rules, sb
from engine.galaxy.strikeback.status import mission_part, sb_state_or_none
from engine.galaxy.supply import delivery_takers, offer_weapon, weapon_pool
from engine.galaxy.world import (
    adjacent,
    agent_name,
    alien_at,
    alien_name,
    area_of,
    board_of,
    card,
    co,
    free,
    hex_arg,
    hex_distance,
    locked,
    operative,
    weapon,
)

BOMB_HP = 2
START = {"bomb1": 3, "bomb2": 4}  # the shuttle Waypoints the bombs start on (B1 marks wp3, wp4)
ASK_REMOTE, ASK_BOOTS, ASK_WEAPON = "remote", "jet-boots", "alien-weapon"


class BombState(CarriedState):
    """Mission 3's EMP-Nuke Bombs, the Remote Control and its counters."""

    key: str = "os3"

    @classmethod
    def from_legacy(cls, old: dict[str, Any]) -> Self:
        """Older saves also kept the Jet Boots rule as a counter (now `kept_devices`)."""
        part = super().from_legacy(old)
        part.flags.pop("keep-jet-boots", None)
        return part


def mine(state: GalaxyState) -> BombState:
    return mission_part(state, BombState)


def active(state: GalaxyState) -> bool:
    return sb_state_or_none(state) is not None and rules(state).key == "os3"


def bombs(state: GalaxyState) -> dict[str, MissionToken]:
    return {k: t for k, t in mine(state).pieces.items() if t.kind == "bomb" and not t.gone}


def site(state: GalaxyState, waypoint: int) -> Coord:
    """Waypoints 1 and 2 stand on the dig site (u1, u2) until Special Event A moves them to
    hex marks #1 and #2; 3 and 4 are the shuttle's."""
    if waypoint >= 3:
        return co(mark_hex(state, f"wp{waypoint}"))
    moved = mine(state).flags.get("wp-moved")
    return co(mark_hex(state, f"m{waypoint}" if moved else f"u{waypoint}"))


def planted(state: GalaxyState, waypoint: int) -> str | None:
    return next((k for k, t in bombs(state).items() if t.waypoint == waypoint), None)


def detonated(state: GalaxyState) -> int:
    return mine(state).flags.get("detonated", 0)


def bomb_hex(state: GalaxyState, c: Coord) -> bool:
    """A bomb lies or stands planted on this hex (no figure may stop there)."""
    return any(t.hex == c and not t.holder for t in bombs(state).values())


# -- the Free Actions: pick a bomb up, put it down ---------------------------------------------


def _carry_offers(state: GalaxyState, agent: AgentState) -> list[tuple[dict[str, str], str]]:
    if not active(state) or agent.hex is None or carried(state, agent.id, "bomb"):
        return []
    return [
        ({"target": k}, f"pick up the EMP-Nuke Bomb at {label(_hx(t.hex))}")
        for k, t in sorted(bombs(state).items())
        if _carry_problem(state, agent, {"target": k}) is None and t.hex is not None
    ]


def _hx(c: Coord | None) -> Hex:
    assert c is not None
    return Hex(c[0], c[1])


def _carry_problem(state: GalaxyState, agent: AgentState, args: dict[str, str]) -> str | None:
    if not active(state) or agent.hex is None:
        return "has no bomb to carry here"
    token = bombs(state).get(args.get("target", ""))
    if token is None or token.hex is None or token.holder or token.waypoint:
        return "must name a bomb lying on the map (target:bomb1|bomb2)"
    if mine(state).flags.get("carry-from", 0) > state.round:
        return "may carry the bombs again from the round after Special Event A"
    if carried(state, agent.id, "bomb"):
        return "already carries a bomb"
    if token.hex != agent.hex and not adjacent(state, agent.hex, token.hex):
        return "must stand next to the bomb"
    return None


def _carry(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    token = bombs(state)[args["target"]]
    token.holder, token.hex = agent.id, None
    events.append(Note(text=f"{agent_name(agent)} picks up an EMP-Nuke Bomb (Free Action)."))


def _drop_spots(state: GalaxyState, agent: AgentState) -> list[Hex]:
    if agent.hex is None:
        return []
    return sorted(
        (
            n
            for n in neighbours(_hx(agent.hex))
            if free(state, n) and adjacent(state, agent.hex, co(n))
        ),
        key=lambda h: (h.r, h.q),
    )


def _drop_offers(state: GalaxyState, agent: AgentState) -> list[tuple[dict[str, str], str]]:
    if not active(state) or not carried(state, agent.id, "bomb"):
        return []
    return [
        ({"to": label(h)}, f"put the bomb down at {label(h)}") for h in _drop_spots(state, agent)
    ]


def _drop_problem(state: GalaxyState, agent: AgentState, args: dict[str, str]) -> str | None:
    if not active(state) or not carried(state, agent.id, "bomb"):
        return "carries no bomb"
    if args.get("to", "").upper() not in {label(h) for h in _drop_spots(state, agent)}:
        return "must name a free hex next to him (to:C4)"
    return None


def _drop(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    key = carried(state, agent.id, "bomb")[0]
    token = bombs(state)[key]
    token.holder, token.hex = "", co(hex_arg(args["to"]))
    events.append(Note(text=f"{agent_name(agent)} puts the bomb down at {args['to'].upper()}."))


free_actions.register(free_actions.FreeAction("carry-bomb", _carry_offers, _carry_problem, _carry))
free_actions.register(free_actions.FreeAction("drop-bomb", _drop_offers, _drop_problem, _drop))


class DeepImpact(MissionRules):
    key = "os3"
    section = "Storybook 7 Mission 3"
    symbols = (DIG_SITE,)
    state = BombState
    kept_devices = ("jet-boots",)  # the mission's Jet Boots are not spent by a use
    effects = (
        "reset-bombs",
        "move-waypoints",
        "archon-at",
        "alien-weapon-offer",
        "archon-shot",
    )
    actions = ("deploy-bomb", "detonate")
    conditions = ("bombs>=", "events-out")
    terms = (
        ("carry-bomb", "Carry a bomb", "Free Action next to an EMP-Nuke Bomb: pick it up"),
        ("drop-bomb", "Put the bomb down", "Free Action: put your bomb on a free hex next to you"),
        ("deploy-bomb", "Deploy a bomb", "Action next to empty Waypoint 1 or 2: plant your bomb"),
        ("detonate", "Detonate", "Remote Control Action: blow both bombs on Waypoints 1 and 2"),
        ("bomb", "EMP-Nuke Bomb", "Mission 3 token: 2 HP, aliens hunt it until it is planted"),
        ("remote", "Remote Control", "Mission 3 token: its holder detonates the planted bombs"),
        ("u1", "Waypoint 1", "Dig site Waypoint 1: plant a bomb here"),
        ("u2", "Waypoint 2", "Dig site Waypoint 2: plant a bomb here"),
    )

    def closed(self, state: GalaxyState, spot: Coord) -> bool:
        return bomb_hex(state, spot)

    # -- setup and Reinforcements -----------------------------------------------------------

    def begin(self, state: GalaxyState, mission: Mission, dice: Dice) -> None:
        for key, wp in START.items():
            mine(state).pieces[key] = MissionToken(kind="bomb", hp=BOMB_HP, hex=site(state, wp))
        mine(state).pieces["remote"] = MissionToken(kind="remote")

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        layer = sb(state)
        if not mine(state).flags.get("reinforced"):
            mine(state).flags["reinforced"] = 1
            layer.asks += [ASK_REMOTE, ASK_BOOTS, ASK_BOOTS]
        if mine(state).flags.get("weapon-offer"):
            mine(state).flags["weapon-offer"] = 0
            key = _draw_alien_weapon(state, dice, events)
            if key is not None:
                layer.asks.append(f"{ASK_WEAPON}:{key}")

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        team = [a.id for a in operative(state) if a.hex is not None]
        if not team or not state.alpha:
            return None
        if ask == ASK_REMOTE:
            token = mine(state).pieces["remote"]
            if token.holder or token.hex is not None:
                return None
            question = "Who holds the Remote Control?"
            options = team
        elif ask == ASK_BOOTS:
            shod = [a for a, kit in sb(state).devices.items() if "jet-boots" in kit]
            options = [a for a in team if a not in shod]
            if len(shod) >= 2 or not options:
                return None
            question = "Who wears a pair of Jet Boots (in place of his second device)?"
        else:
            key = ask.partition(":")[2]
            options = [*delivery_takers(state, key), "none"]
            if len(options) == 1:
                return None
            question = f"Who takes the {weapon(key).name}, the Alien weapon drawn (or none)?"
        return Pending(
            kind="sb-mission",
            seat=state.alpha,
            options=options,
            data={"ask": ask, "question": question},
        )

    def finish_choice(
        self, state: GalaxyState, pending: Pending, option: str, events: list[Event]
    ) -> bool:
        ask = str(pending.data["ask"])
        agent = state.agents.get(option)
        if ask == ASK_REMOTE and agent is not None:
            mine(state).pieces["remote"].holder = option
            events.append(Note(text=f"{agent_name(agent)} holds the Remote Control."))
        elif ask == ASK_BOOTS and agent is not None:
            sb(state).devices.setdefault(option, []).append("jet-boots")
            if len(agent.devices) >= 2:
                agent.devices.pop()
            events.append(Note(text=f"{agent_name(agent)} wears Jet Boots."))
        elif ask.startswith(ASK_WEAPON):
            key = ask.partition(":")[2]
            if agent is not None:  # he picks the weapon it replaces, or refuses it
                offer_weapon(state, agent, key, "reinforce", events, "the Alien weapon")
            elif headquarters.active(state):  # 5.3: not taken at once, it waits there
                headquarters.keep_at_headquarters(state, key, events)
            else:
                events.append(Note(text=f"Nobody takes the {weapon(key).name}."))
        return True

    def default_choice(self, state: GalaxyState, pending: Pending) -> str:
        return state.alpha if state.alpha in pending.options else pending.options[0]

    # -- Special Events ----------------------------------------------------------------------

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        layer = sb(state)
        if kind == "reset-bombs":
            for key, wp in START.items():
                mine(state).pieces[key] = MissionToken(kind="bomb", hp=BOMB_HP, hex=site(state, wp))
            mine(state).flags["carry-from"] = state.round + 1
            events.append(Note(text="Two more EMP-Nuke Bombs wait on Waypoints 3 and 4."))
        elif kind == "move-waypoints":
            mine(state).flags["wp-moved"] = 1
            events.append(Note(text="Waypoints 1 and 2 move to hex marks #1 and #2."))
        elif kind == "archon-at":
            spot = nearest_free(state, mark_hex(state, str(effect["mark"])))
            if spot is not None:
                layer.npc_deck.insert(0, str(effect["card"]))
                npc.arrive(state, spot, dice, events, "Special Event")
        elif kind == "alien-weapon-offer":
            mine(state).flags["weapon-offer"] = 1
        elif kind == "archon-shot":
            self._archon_shot(state, str(effect["card"]), dice, events)
        else:
            raise RuleError(f"Unknown Special Event effect {kind}.")

    def _archon_shot(
        self, state: GalaxyState, target_card: str, dice: Dice, events: list[Event]
    ) -> None:
        archon = next((a for a in state.agents.values() if a.id.startswith("archon")), None)
        target = next((a for a in state.aliens if a.card == target_card), None)
        if archon is None or archon.hex is None or target is None:
            events.append(Note(text="The Archon has no shot to take."))
            return
        w = npc_weapon("proton-rifle")
        roll = combat.hit_roll(dice, w.color, w.dice)
        hits = roll.hits + (1 if roll.bolt and w.bolt == "hit+1" else 0)
        events.append(
            Note(
                text=f"The Archon fires its {w.name} at {alien_name(target)} (any distance): "
                f"{combat.roll_text(w.color, roll.faces)} - {counted(hits, 'Hit')}."
            )
        )
        resolve_defence(state, archon, [target.id], hits, 0, "ranged", "", dice, events, w.name)

    def event_phase(self, state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
        if detonated(state) >= 2:
            return False

        events.append(
            Note(text="Event phase (the bombs are not detonated): Signals close in and teleport.")
        )
        move_signals(state, "toward-agent", 1, dice, events)
        teleport_signal(state, dice, events)
        return True

    # -- aliens against bombs ----------------------------------------------------------------

    def decoys(self, state: GalaxyState, alien: AlienState) -> dict[str, Coord]:
        return {
            k: t.hex
            for k, t in bombs(state).items()
            if t.hex is not None and not t.holder and not t.waypoint
        }

    def strike_decoy(
        self,
        state: GalaxyState,
        alien: AlienState,
        token: str,
        kind: str,
        dice: Dice,
        events: list[Event],
    ) -> None:
        bomb = bombs(state)[token]
        w = card(alien).melee if kind == "melee" else card(alien).ranged
        assert w is not None
        roll = combat.hit_roll(dice, w.color, w.dice)
        defend = combat.defend_roll(dice, roll.hits)
        bomb.wounds += defend.wounds
        events.append(
            Note(
                text=f"{alien_name(alien)} attacks an EMP-Nuke Bomb with its {w.name}: "
                f"{combat.roll_text(w.color, roll.faces)} - {counted(roll.hits, 'Hit')}; "
                "it defends with "
                f"{combat.defence_text(defend.faces)}, and takes {counted(defend.wounds, 'Wound')}."
            )
        )
        if bomb.wounds >= bomb.hp:
            mine(state).pieces[token] = MissionToken(
                kind="bomb", hp=BOMB_HP, hex=site(state, START[token])
            )
            events.append(
                Note(text=f"The bomb is wrecked; a whole one waits on Waypoint {START[token]}.")
            )

    # -- carrying ----------------------------------------------------------------------------

    def agent_died(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        drop_all(state, agent, events)
        kit = sb(state).devices.get(agent.id, [])
        if "jet-boots" in kit:
            kit.remove("jet-boots")
            sb(state).asks.append(ASK_BOOTS)

    def entered(
        self, state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]
    ) -> None:
        pick_up(state, agent, [co(h)], events)

    def turn_over(self, state: GalaxyState, seat: str, events: list[Event]) -> None:
        """His turn is over: a bomb he still carries is put down next to him."""
        agent = state.agents.get(seat)
        if agent is None or agent.hex is None or not carried(state, seat, "bomb"):
            return
        spots = _drop_spots(state, agent)
        key = carried(state, seat, "bomb")[0]
        token = bombs(state)[key]
        goals = [site(state, wp) for wp in (1, 2) if not planted(state, wp)] or [agent.hex]
        where = (
            min(spots, key=lambda h: (min(_gap(state, co(h), g) for g in goals), h.r, h.q))
            if spots
            else _hx(agent.hex)
        )
        token.holder, token.hex = "", co(where)
        events.append(Note(text=f"The bomb {agent_name(agent)} carried is left at {label(where)}."))

    # -- special actions ---------------------------------------------------------------------

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        assert agent.hex is not None
        if what == "detonate":
            if mine(state).pieces["remote"].holder != agent.id:
                return "does not hold the Remote Control"
            if not (planted(state, 1) and planted(state, 2)):
                return "needs bombs planted on Waypoints 1 and 2"
            return None
        if not carried(state, agent.id, "bomb"):
            return "carries no EMP-Nuke Bomb"
        wp = {"wp1": 1, "wp2": 2}.get(args.get("target", "").lower())
        if wp is None:
            return "must name Waypoint 1 or 2 (target:wp1|wp2)"
        spot = site(state, wp)
        if planted(state, wp) or alien_at(state, _hx(spot)) is not None:
            return f"finds Waypoint {wp} taken"
        if agent.hex != spot and not adjacent(state, agent.hex, spot):
            return f"must stand next to Waypoint {wp}"
        return None

    def do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if what == "detonate":
            for wp in (1, 2):
                key = planted(state, wp)
                if key is not None:
                    mine(state).pieces[key].gone = True
            mine(state).flags["detonated"] = detonated(state) + 2
            events.append(
                Note(
                    text=f"{agent_name(agent)} detonates the two EMP-Nuke Bombs "
                    f"({detonated(state)} detonated)."
                )
            )
            return
        wp = {"wp1": 1, "wp2": 2}[args["target"].lower()]
        key = carried(state, agent.id, "bomb")[0]
        token = bombs(state)[key]
        token.holder, token.hex, token.waypoint = "", site(state, wp), wp
        events.append(Note(text=f"{agent_name(agent)} plants an EMP-Nuke Bomb on Waypoint {wp}."))

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        return self.offered(
            state,
            agent,
            (
                ("deploy-bomb", {"target": "wp1"}, "plant the bomb on Waypoint 1"),
                ("deploy-bomb", {"target": "wp2"}, "plant the bomb on Waypoint 2"),
                ("detonate", {"target": "wp1"}, "detonate the bombs"),
            ),
        )

    # -- objectives, board, advice -----------------------------------------------------------

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        return [("bombs detonated", f"{detonated(state)} of 4 (2 for a partial)")]

    def condition(self, state: GalaxyState, cond: str) -> bool:
        if cond.startswith("bombs>="):
            return detonated(state) >= int(cond[len("bombs>=") :])
        if cond == "events-out":
            return detonated(state) >= 2 and not state.event_deck.draw_pile
        return False

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        return {}

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """Detonate, plant, pick a bomb up; carry it to an empty Waypoint 1/2; walk to the
        nearest loose bomb (the agent closest to it) or the dropped Remote Control."""
        if agent.hex is None:
            return None
        for what in ("detonate", "deploy-bomb", "carry-bomb"):
            found = [a for a in actions if a.args.get("what") == what]
            if found:
                return found[0]
        if carried(state, agent.id, "bomb"):
            empty = [site(state, wp) for wp in (1, 2) if not planted(state, wp)]
            return advisor_step_toward(state, agent, actions, empty, adjacent_ok=True)
        remote = mine(state).pieces["remote"]
        if not remote.holder and remote.hex is not None:
            return advisor_step_toward(state, agent, actions, [remote.hex], adjacent_ok=False)
        loose = [t.hex for t in bombs(state).values() if t.hex and not t.holder and not t.waypoint]
        if not loose or mine(state).flags.get("carry-from", 0) > state.round:
            return None

        team = [
            a for a in operative(state) if a.hex is not None and not carried(state, a.id, "bomb")
        ]
        porters = sorted(team, key=lambda a: min(hex_distance(a.hex or b, b) for b in loose))
        if agent not in porters[: len(loose)]:
            return None
        return advisor_step_toward(state, agent, actions, loose, adjacent_ok=True)


def _gap(state: GalaxyState, a: Coord, b: Coord | None) -> tuple[int, int]:
    """Areas to walk, then hexes, from a to b (the default spot for a bomb left behind: the
    free hex next to the carrier nearest the Waypoint he was heading for)."""

    if b is None:
        return (0, 0)
    areas = (
        board_of(state)
        .walk_graph(locked(state), "alien")
        .distance(area_of(state, a), area_of(state, b))
    )
    return (99 if areas is None else areas, hex_distance(a, b))


def _draw_alien_weapon(state: GalaxyState, dice: Dice, events: list[Event]) -> str | None:
    """Special Event B's random Alien weapon from the Warehouse: of the classes in play, or in
    the Strikeback campaign any not yet researched (5.3). None when none is left."""
    pool = weapon_pool(state, "alien")
    if headquarters.active(state):
        pool = headquarters.weapon_pool(state, "alien")
    if not pool:
        events.append(Note(text="No Alien weapon is left in the Warehouse."))
        return None
    key = pool[dice.randrange(len(pool))]
    events.append(Note(text=f"The Alien weapon drawn from the Warehouse: the {weapon(key).name}."))
    return key


register(DeepImpact())
