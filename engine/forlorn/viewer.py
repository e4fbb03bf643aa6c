"""What a seat or a spectator sees: the board, figures, tokens and panels."""

from __future__ import annotations

from engine.core.squaregrid import Square
from engine.core.view import (
    CellView,
    EdgeView,
    FigureView,
    PanelView,
    SummaryView,
    SymbolView,
    TokenView,
    View,
)
from engine.forlorn import reactions
from engine.forlorn.board import AIRLOCK, SECURITY, WALL, door_id, label
from engine.forlorn.content import ITEMS, cards, scenarios, units
from engine.forlorn.setup import sc_of
from engine.forlorn.state import ForlornState, seat_name
from engine.forlorn.turn import marine_seats, waiting_marine_seats
from engine.forlorn.world import board_of, grappled, max_hits, sq

SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


# flames on the board: marked on their squares and drawn as tokens (the legend says them once)
SYMBOLS = (
    SymbolView(kind="flame", text="F", colour="orange", legend="F: flame"),
    SymbolView(
        kind="flame", on="token", text="F", colour="orange", shape="triangle", legend="F: flame"
    ),
)


def unit_name(state: ForlornState, uid: str) -> str:
    """A unit (dead ones too) as players read it: "Pvt. Bates"."""
    unit = state.unit(uid)
    return unit.name if unit is not None else uid


def waiting(state: ForlornState) -> list[str]:
    if state.phase == "marine" and state.reaction is not None:
        return ["xeno"]
    if state.phase in ("marine", "deploy"):
        return waiting_marine_seats(state)
    if state.phase == "xeno-place" and state.placements:
        # 11.0: spawns beside full vents are placed by the Marine player (the first seat)
        return marine_seats(state)[:1] if state.placements[0].zone == "overflow" else ["xeno"]
    if state.phase in ("xeno", "mulligan", "xeno-spawn") and state.xeno_human:
        return ["xeno"]
    return []


def _cell_label(board_w: int, board_h: int, s: Square) -> str:
    return label(s) if 0 <= s.x < board_w and 0 <= s.y < board_h else ""


def build_view(state: ForlornState, seat: str | None, title: str) -> View:
    board = board_of(state)
    sc = sc_of(state)
    cells: list[CellView] = []
    letters = {v: k for k, v in board.letters.items()}
    # Per-square lookups built once: asking the board square by square scans all its edges.
    airlocks = {
        sq
        for key, kind in board.edges.items()
        if kind == AIRLOCK and any(side not in board.floor for side in key)
        for sq in key
    }
    for y in range(board.height):
        for x in range(board.width):
            s = Square(x, y)
            marks: list[str] = []
            if s not in board.floor:
                cells.append(CellView(coord=label(s), col=x, row=y, terrain="space"))
                continue
            vent = board.vent_at(s)
            terrain = "floor"
            if vent is not None:
                terrain = "vent"
                marks.append(f"vent:{vent}")
                if vent in state.blocked_vents:
                    marks.append("blocked")
            if s in board.setup:
                marks.append("setup")
            if s in board.caches:
                marks.append("cache")
            if s in letters:
                marks.append(f"letter:{letters[s]}")
            if s in airlocks:
                marks.append("airlock")
            if label(s) in state.flames:
                marks.append("flame")
            cells.append(
                CellView(
                    coord=label(s),
                    col=x,
                    row=y,
                    terrain=terrain,
                    room=board.room_of(s),
                    marks=marks,
                )
            )
    edges: list[EdgeView] = []
    for key, kind in sorted(board.edges.items()):
        a, b = key
        if a not in board.floor:
            a, b = b, a
        other = _cell_label(board.width, board.height, b)
        if not other or b not in board.floor:
            side = next(k for k, d in SIDES.items() if (a.x + d[0], a.y + d[1]) == (b.x, b.y))
            other = other or f"off:{side}"
        name = door_id(*key)
        if kind == WALL:
            shown = "wall"
        elif kind == AIRLOCK:
            named = next((n for n, k in board.airlock_names.items() if k == key), None)
            shown = f"airlock:{named}" if named else "airlock"
        else:
            base = "security-door" if kind == SECURITY else "door"
            if name in state.sealed_doors:
                shown = f"{base}-sealed"
            elif name in state.open_doors:
                shown = f"{base}-open"
            else:
                shown = base
        edges.append(EdgeView(a=label(a), b=other, kind=shown))
    figures: list[FigureView] = []
    for u in state.units:
        if u.status != "active" or u.at is None:
            continue
        conditions: list[str] = []
        if u.side == "marines":
            if u.surge:
                conditions.append("surge")
            if u.jammed:
                conditions.append("jammed")
            if u.heroic:
                conditions.append("heroic")
            conditions += [f"item:{i}" for i in u.items]
            for o in state.orders:
                if o.unit == u.id:
                    spin = ", spin" if o.spin else ", grenade" if o.grenade else ""
                    spin += ", refuel first" if o.refuel and not state.refuelled else ""
                    conditions.append(
                        f"order:interrupt {o.aps - o.spent}/{o.aps} AP, range {o.range}{spin}"
                    )
            if grappled(state, u):
                conditions.append("grappled")
        else:
            if u.fresh:
                conditions.append("newborn")
            if u.activated:
                conditions.append("activated")
            if u.hits:
                conditions.append("wounded")
            if state.xeno_active == u.id:
                conditions.append(f"acting:{state.xeno_mp} MP")
        stacked = [o for o in state.at(u.at)]
        if len(stacked) > 1:
            conditions.append(
                f"stack:{sorted(stacked, key=lambda o: o.placed).index(u) + 1}/{len(stacked)}"
            )
        figures.append(
            FigureView(
                id=u.id,
                label=u.id.upper() if u.side == "xenos" else u.kind[:3].upper(),
                name=u.name,
                side="player" if u.side == "marines" else "enemy",
                kind=u.kind,
                coord=u.at,
                facing=u.facing if u.side == "marines" else None,
                health=max_hits(u) - u.hits,
                max_health=max_hits(u),
                rank=_rank(u.kind) if u.side == "marines" else None,
                seat=(u.seat or "marines")
                if u.side == "marines"
                else ("xeno" if state.xeno_human else None),
                conditions=conditions,
            )
        )
    tokens: list[TokenView] = []
    for f in state.flames:
        tokens.append(TokenView(coord=f, kind="flame", label="Flame"))
    for c in state.corpses:
        tokens.append(
            TokenView(coord=c.at, kind="corpse", label=f"corpse ({unit_name(state, c.unit)})")
        )
    for where, items in sorted(state.floor_items.items()):
        for item in items:
            tokens.append(TokenView(coord=where, kind=f"item:{item}", label=ITEMS[item]))
    for n in state.blocked_vents:
        tokens.append(
            TokenView(coord=label(board.vents[n]), kind="blocked-vent", label=f"vent {n} blocked")
        )
    for name in state.open_doors:
        tokens.append(TokenView(coord=name.split("-")[0], kind="open-door", label=f"open {name}"))
    goal = _goal_text(state)
    header = {
        "turn": f"{state.turn}/{state.turns_total}",
        "turns left": str(state.turns_total - state.turn + 1),
        "phase": state.phase.replace("-", " ").capitalize(),
        "ap": str(state.ap),
        "AP roll": " ".join(map(str, state.ap_roll)),
        "grenades": str(state.grenades),
        "goal": goal,
        "difficulty": state.options.get("difficulty", "standard"),
    }
    if state.reaction is not None:
        header["reaction"] = f"{state.reaction.text}: the Xeno player may react"
    if sc.goal.kind == "vp":
        header["vp"] = f"{state.vp}/{sc.goal.target}"
    seats = marine_seats(state)
    if len(seats) > 1:
        # Several Marine seats: who commands whom, and the one AP pool they all spend.
        header["squads"] = "; ".join(
            f"{seat_name(s)}: "
            f"{', '.join(u.name for u in state.active('marines') if u.seat in (None, s))}"
            for s in seats
        )
        header["ap"] = f"{state.ap} left (shared pool)"
        spent = [f"{seat_name(s)} {n}" for s, n in state.ap_spent.items() if n]
        if spent:
            header["AP spent"] = ", ".join(spent)  # who spent what from the pool this turn
    if state.flame_supply or state.flame_spent or state.flames:
        header["flames"] = f"{state.flame_supply} ready, {len(state.flames)} burning"
    panels = [
        PanelView(
            seat=s,
            title=seat_name(s),
            lines=[f"AP {state.ap}", f"Grenades {state.grenades}"]
            + [f"{u.name} at {u.at}" for u in state.active("marines") if u.seat in (None, s)],
        )
        for s in marine_seats(state)
    ]
    pool: dict[str, int] = {}
    for u in state.units:
        if u.side == "xenos" and u.status == "pool":
            pool[u.kind] = pool.get(u.kind, 0) + 1
    xeno_lines = [f"Pool: {', '.join(f'{k} {v}' for k, v in sorted(pool.items())) or 'empty'}"]
    if state.xeno_human:
        xeno_lines.append(f"Mutation cards in hand: {len(state.mutation.hand)}")
        xeno_lines += [f"Played: {cards()[c].title}" for c in state.mutation.played if c in cards()]
    panels.append(PanelView(seat="xeno", title="Xenos", lines=xeno_lines))
    private: list[str] = []
    if seat == "xeno" and state.xeno_human:
        private = [f"{cards()[c].title} - {cards()[c].text}" for c in state.mutation.hand]
        private += reactions.private_lines(state)
    return View(
        game="forlorn-hope",
        scenario=state.scenario,
        title=title,
        board="square",
        round=state.turn,
        phase=state.phase,
        waiting=waiting(state),
        header=header,
        cells=cells,
        edges=edges,
        figures=figures,
        tokens=tokens,
        panels=panels,
        private=private,
        finished=state.phase == "over",
        outcome=state.outcome,
        summary=_summary(state) if state.phase == "over" else None,
        symbols=list(SYMBOLS),
    )


def _summary(state: ForlornState) -> SummaryView:
    winner = {"victory": "The Marines win.", "defeat": "The Xenos win."}
    return SummaryView(
        result=winner.get(state.outcome or "", f"Outcome: {state.outcome}."),
        kills=len(state.kills),
        losses=[u.name for u in state.units if u.side == "marines" and u.status == "dead"],
        objectives=[_goal_text(state)],
    )


def _rank(kind: str) -> str:
    return units().marines[kind].rank


def _mcgfn_at(state: ForlornState) -> str:
    """Where the MCGFN is now, for the goal's count: carried, dropped or still at A."""
    holder = next((u for u in state.units if "mcgfn" in u.items), None)
    if holder is not None:
        return f"out with {holder.name}" if holder.status == "exited" else f"{holder.name} has it"
    dropped = next((at for at, items in state.floor_items.items() if "mcgfn" in items), None)
    return f"on the floor at {dropped}" if dropped else "still at A"


def _goal_text(state: ForlornState) -> str:
    goal = scenarios()[state.scenario].goal
    kind = goal.kind
    if kind == "vp":
        return f"Score {goal.target} VP"
    if kind == "mcgfn-exit":
        return f"Unplug the MCGFN at A and carry it out through an airlock ({_mcgfn_at(state)})"
    if kind == "clear-rooms":
        board = board_of(state)
        inside = sum(
            1 for x in state.active("xenos") if x.at and board.room_of(sq(x.at)) in goal.rooms
        )
        return f"No Xenos in rooms A and B ({inside} there now)"
    if kind == "mcgfn-activate":
        return f"MCGFN on C, activated {state.mcgfn_progress}/{goal.aps}"
    if kind == "exit":
        done = sum(1 for u in state.units if u.exited_via == goal.airlock)
        return f"{done}/{goal.count} Marines out through airlock {goal.airlock}"
    return str(kind)
