"""What a seat (or a spectator) sees: hexes, sides, figures, Signals (face down), panels."""

from __future__ import annotations

from engine.core.game import Prompt
from engine.core.view import (
    CellView,
    EdgeView,
    FigureView,
    PanelView,
    SummaryView,
    TokenView,
    View,
)
from engine.galaxy import campaign, objectives
from engine.galaxy.board import label
from engine.galaxy.content import Weapon, content
from engine.galaxy.expansion import expanded, hooks, own
from engine.galaxy.state import GalaxyState
from engine.galaxy.world import (
    FACINGS,
    agent_name,
    alien_name,
    board_of,
    card,
    hx,
    locked,
    max_hp,
    mission_of,
    profile,
    rank_name,
    seat_label,
    weapon,
)


def build_view(state: GalaxyState, seat: str | None, prompt: Prompt) -> View:
    board = board_of(state)
    mission = mission_of(state)
    hidden = own(state).hidden_tps if expanded(state) else []
    tp_marks = {h: s for s, h in board.teleports.items() if s not in hidden}
    rooms = {a: name for name, areas in board.rooms.items() for a in areas}
    cells: list[CellView] = []
    for h in board.hexes():
        area = board.area_of[h]
        marks: list[str] = []
        if board.centres[area] == h:
            marks.append("centre")
        if h in tp_marks:
            sym = tp_marks[h]
            marks.append(f"teleport:{sym}" + (":destroyed" if sym in state.destroyed_tps else ""))
        if h in board.starts:
            marks.append("start")
        if area in board.search_areas:
            marks.append("search")
        if area in board.exit_areas:
            marks.append("exit")
        if h in board.marks and (h.q, h.r) not in state.rescued_at:
            marks.append(board.marks[h])
            token = hooks().lit_marks(state).get(board.marks[h]) if expanded(state) else None
            if token:
                marks.append(token)
        cells.append(
            CellView(coord=label(h), col=h.q, row=h.r, area=area, room=rooms.get(area), marks=marks)
        )
    lock = locked(state)
    edges: list[EdgeView] = []
    for kind, sides in (
        ("wall", board.walls - board.doors - board.windows),
        ("door", board.doors),
        ("window", board.windows),
        ("barrier", board.barriers),  # Operation Strikeback 5.1
    ):
        for s in sorted(sides, key=lambda x: sorted(x)):
            a, b = sorted(s)
            edges.append(
                EdgeView(a=label(a), b=label(b), kind="locked-door" if s in lock else kind)
            )
    figures: list[FigureView] = []
    for agent in state.agents.values():
        if agent.hex is None:
            continue
        conditions = [c + "d" for c in agent.conditions]
        if agent.bleeding:
            conditions.append("bleeding")
        if agent.id == state.alpha:
            conditions.append("alpha")
        if agent.guard and profile(agent).ability == "guard":
            conditions.append("guard" if agent.guard_order else "guard-held")
        if expanded(state):
            conditions.extend(hooks().expansion_badges(state, agent.id))
        figures.append(
            FigureView(
                id=agent.id,
                label=profile(agent).codename[:2],
                name=agent_name(agent),
                side="player",
                facing=FACINGS[agent.facing]
                if state.options.get("human-view", "on") == "on"
                else None,
                kind=agent.id,
                coord=label(hx(agent.hex)),
                health=max_hp(agent) - agent.wounds,
                max_health=max_hp(agent),
                rank=rank_name(state, agent.rank),
                seat=agent.id,
                conditions=conditions,
            )
        )
    for alien in state.aliens:
        c = card(alien)
        figures.append(
            FigureView(
                id=alien.id,
                label=alien.id,
                name=alien_name(alien),
                side="enemy",
                kind=c.species,
                coord=label(hx(alien.hex)),
                health=c.hp - alien.wounds,
                max_health=c.hp,
                rank=c.rank,
                seat=alien.controller,
                conditions=[x + "d" for x in alien.conditions]
                + (hooks().expansion_badges(state, alien.id) if expanded(state) else [])
                + ([f"shield:{alien.energy}"] if alien.energy else []),
            )
        )
    tokens = [TokenView(coord=label(hx(s.hex)), kind="signal", label=s.id) for s in state.signals]
    if expanded(state):  # a Strikeback mission's tokens (objects, Waypoints ...)
        tokens += [
            TokenView(coord=c, kind=k, label=text)
            for c, k, text in hooks().rules(state).tokens(state, seat)
        ]
    if expanded(state):  # the rest of a multi-hex alien's base (11.8)
        tokens += [
            TokenView(coord=label(hx(c)), kind="body", label=alien)
            for c, alien in hooks().body_tokens(state)
        ]
    for where, kind in hooks().tokens(state) if expanded(state) else []:  # Strikeback 9.9 tokens
        tokens.append(TokenView(coord=where, kind=kind, label=hooks().SHORT[kind]))
    if expanded(state):
        tokens += hooks().suit_tokens(state)
    panels: list[PanelView] = []
    for agent in state.agents.values():
        rank = rank_name(state, agent.rank)
        lines = [f"HP {max_hp(agent) - agent.wounds}/{max_hp(agent)}  rank {rank}"]
        if agent.dead:
            lines.append("Inoperative (dead)")
        for ws in agent.weapons:
            w = weapon(ws.key)
            ammo = f", ammo {ws.ammo}/{w.ammo}" if w.ammo else ""
            reach = "melee" if w.range == 0 else f"range {w.range}"
            lines.append(
                f"{w.name}: {dice_text(w)}, {reach}{ammo}" + (" JAMMED" if ws.jammed else "")
            )
        carried = [content().devices[d].name for d in agent.devices]
        if expanded(state):  # Operation Strikeback devices
            carried += hooks().device_names(state, agent.id)
        if carried:
            lines.append("devices: " + ", ".join(carried))
        if expanded(state):  # a Power Suit, expansion devices, Psionic Powers
            lines += hooks().suit_lines(state, agent.id)
            lines += hooks().panel_lines(state, agent.id)
        held = [a.id for a in state.aliens if a.controller == agent.id]
        if held:
            lines.append("controls " + ", ".join(held))
        if state.phase == "agent" and state.turn_order[state.turn_index] == agent.id:
            lines.append(
                f"Movement {agent.movement} ({agent.mp_left} MP), Combat "
                f"{'used' if agent.combat_used else 'ready'}, Action "
                f"{'used' if agent.action_used else 'ready'}"
            )
        panels.append(PanelView(seat=agent.id, title=agent_name(agent), lines=lines))
    if state.campaign is not None:
        panels.append(
            PanelView(seat="campaign", title="Campaign", lines=campaign.progress_lines(state))
        )
    header = {
        "mission": mission.title
        if state.campaign is None
        else f"{mission.title} ({state.campaign.index + 1}/{len(state.campaign.missions)})",
        # A mission lost on time ends as round N+1 begins: N rounds were played, not N+1.
        "round": f"{min(state.round, mission.rounds)}/{mission.rounds}",
        "alpha": seat_label(state, state.alpha),
        "kills": str(state.kills),
        "alien tech": f"{state.alien_tech}/4",
        "signals in reserve": str(len(state.signal_reserve)),
        "weather": state.weather or "clear",
    }
    wrecked = [t for t in state.destroyed_tps if t not in hidden]
    if wrecked:
        header["teleports destroyed"] = ", ".join(wrecked)
    if state.rescued:
        header["rescued"] = str(state.rescued)
    if expanded(state) and (own(state).suits or own(state).headquarters):
        header["power-suit"] = hooks().suit_header(state)
    for name, count in objectives.progress(state):  # every objective's counter, with its target
        header[name] = count
    menace = own(state).menace if expanded(state) else None
    if menace is not None:  # the Menacing Agent (Operation Strikeback 11.3.1)
        holder = state.agents.get(menace.owner)
        who = profile(holder).codename if holder is not None else menace.owner
        header["menace"] = f"{who} (Level {menace.level})"
    return View(
        game="galaxy-defenders",
        scenario=state.scenario,
        # In a campaign the header names the mission and its place (n/6) beside the title.
        title=mission.title if state.campaign is None else "Campaign",
        board="hex",
        round=state.round,
        phase=state.phase,
        waiting=prompt.seats,
        header=header,
        cells=cells,
        edges=edges,
        figures=figures,
        tokens=tokens,
        panels=panels,
        private=[],
        finished=prompt.finished,
        outcome=prompt.outcome,
        summary=_summary(state) if prompt.finished else None,
    )


def ended_summary(state: GalaxyState) -> SummaryView | None:
    """The campaign mission played last, while the campaign goes on: its result as the campaign
    recorded it (asked when a mission has just ended: the state already holds the next one)."""
    camp = state.campaign
    if camp is None or camp.over or not camp.results:
        return None
    last = camp.results[-1]
    return SummaryView(result=last.text, kills=last.kills, rounds=last.rounds)


def _summary(state: GalaxyState) -> SummaryView:
    return SummaryView(
        result=state.outcome_text,
        kills=state.kills,
        losses=[agent_name(a) for a in state.agents.values() if a.dead],
        objectives=[f"Alien Tech recovered: {state.alien_tech}/4"]
        + ([f"Civilians rescued: {state.rescued}"] if state.rescued else []),
    )


def dice_text(w: Weapon) -> str:
    """A weapon's Hit roll in words: "3 RED dice", "2 RED + 2 BLUE dice" or "3 fixed Hits"
    (the last two are Operation Strikeback's, 9.2)."""
    if w.fixed is not None:
        return f"{w.fixed} fixed Hits"
    return f"{w.dice} {w.color.upper()}" + (f" + {w.blue} BLUE" if w.blue else "") + " dice"
