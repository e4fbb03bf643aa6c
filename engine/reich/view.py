"""What a seat or a spectator sees of a Reichbusters mission."""

from __future__ import annotations

from engine.core.view import (
    CellView,
    EdgeView,
    FigureView,
    PanelView,
    SummaryView,
    TokenView,
    View,
)
from engine.reich import rules
from engine.reich.content import MissionDef, load_content
from engine.reich.state import EnemyState, ReichState
from engine.reich.words import effect_words


def _coord(cell: tuple[int, int]) -> str:
    return f"x{cell[0]}y{cell[1]}"


def objective_counts(state: ReichState, mission: MissionDef) -> str:
    """How far the objective of the difficulty played has got, counted as the rules check it."""
    parts = []
    for cond in mission.objectives.get(state.options.get("difficulty", "cadet"), []):
        if cond.kind == "sabotage":
            parts.append(f"sabotaged {state.sabotaged}/{cond.count}")
        elif cond.kind == "kill":
            parts.append(f"killed {state.kills.get(cond.enemy or '', 0)}/{cond.count}")
        elif cond.kind == "collect":
            held = sum(h.carried.count(cond.token or "") for h in state.heroes.values())
            parts.append(f"carried {held}/{cond.count}")
        elif cond.kind == "exit":
            parts.append(f"out {sum(1 for h in state.heroes.values() if h.exited)}")
    return ", ".join(parts)


def _commands(state: ReichState) -> str:
    """Which seat commands which Heroes, when a seat commands more than its own."""
    by_seat: dict[str, list[str]] = {}
    for key in state.hero_order:
        by_seat.setdefault(state.heroes[key].seat, []).append(load_content().heroes[key].name)
    if all(len(names) == 1 for names in by_seat.values()):
        return ""
    heroes = load_content().heroes
    return "; ".join(
        f"{heroes[seat].name if seat in heroes else seat}'s seat: {' and '.join(names)}"
        for seat, names in by_seat.items()
    )


def skill_words(skill: str) -> str:
    return "no special skill" if skill == "none" else skill.replace("_", " ")


def build_view(state: ReichState, seat: str | None, waiting: list[str]) -> View:
    content = load_content()
    mission = rules.mission(state)
    board = rules.board(state)
    marks: dict[str, list[str]] = {}
    for area in mission.exits:
        marks.setdefault(area, []).append("exit")
    for letter, area in mission.barracks.items():
        marks.setdefault(area, []).append(f"barracks:{letter}")
    marks.setdefault(mission.start, []).append("entrance")
    for area in state.smoke:
        marks.setdefault(area, []).append("smoke")
    for area in state.suppress:
        marks.setdefault(area, []).append("suppressing-fire")
    for area, card in state.accessories_up.items():
        marks.setdefault(area, []).append(f"accessory:{card}")
    cells = [
        CellView(
            coord=_coord(cell),
            col=cell[0],
            row=cell[1],
            area=area,
            room=board.room_of[cell],
            marks=marks.get(area, []) if cell == board.cells_of[area][0] else [],
        )
        for cell, area in sorted(board.area_of.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    edges: list[EdgeView] = []
    for cell in board.area_of:
        for dc, dr in ((1, 0), (0, 1)):
            other = (cell[0] + dc, cell[1] + dr)
            if other not in board.area_of:
                continue
            pair = frozenset((cell, other))
            if pair in board.door_at:
                did = board.door_at[pair]
                door = board.doors[did]
                kind = "door-open" if did in state.open_doors else "door-closed"
                if door.lock and did not in state.unlocked:
                    kind = f"door-locked-{door.lock}"
                edges.append(EdgeView(a=_coord(cell), b=_coord(other), kind=f"{kind}:{did}"))
            elif pair not in board.open_edges:
                edges.append(EdgeView(a=_coord(cell), b=_coord(other), kind="wall"))
            elif board.area_of[cell] != board.area_of[other]:
                edges.append(EdgeView(a=_coord(cell), b=_coord(other), kind="area-border"))
    figures: list[FigureView] = []
    for key in state.hero_order:
        hero = state.heroes[key]
        if hero.area is None:
            continue
        conds = ["down"] if hero.down else []
        conds += [f"wound:{w}" for w in hero.wounds]
        figures.append(
            FigureView(
                id=key,
                label=key[:3].upper(),
                name=content.heroes[key].name,
                side="player",
                kind="hero",
                coord=hero.area,
                health=max(0, 4 - len(hero.wounds)),
                max_health=4,
                seat=hero.seat,
                conditions=conds,
            )
        )
    for enemy in state.enemies:
        figures.append(
            FigureView(
                id=enemy.id,
                label=enemy.name,
                name=enemy.name,
                side="enemy",
                kind=enemy.type,
                coord=enemy.area,
                health=rules.life(enemy) - enemy.wounds,
                max_health=rules.life(enemy),
                conditions=_enemy_conditions(state, enemy),
            )
        )
    tokens = [
        TokenView(coord=t.area, kind="enemy-token", label=f"L{t.level}") for t in state.enemy_tokens
    ]
    for item in state.ground:
        if item.card:
            label = content.loot[item.card].name if item.face_up else "Loot"
            tokens.append(TokenView(coord=item.area, kind="loot", label=f"{item.id} {label}"))
        else:
            kind = f"{item.kind}-done" if item.done else item.kind or "token"
            tokens.append(TokenView(coord=item.area, kind=kind, label=item.id))
    for area in state.accessories:
        tokens.append(TokenView(coord=area, kind="accessory", label="face down"))
    panels = []
    for key in state.hero_order:
        hero = state.heroes[key]
        hdef = content.heroes[key]
        weapons = []
        for w in hdef.weapons:
            ws = hero.weapons[w.id]
            black, red, kws = (
                (w.vril.black, w.vril.red, w.vril.keywords) if ws.vril else (w.black, 0, w.keywords)
            )
            dice = f"{black} black" + (f" + {red} red" if red else "") + " dice"
            reach = "melee" if w.range == 0 else f"range {w.range}"
            extra = f", noise {w.noise}" if w.noise else ""
            words = "".join(f", {k.replace('_', ' ')}" for k in kws)
            state_note = " JAMMED" if ws.jammed else ""
            weapons.append(
                f"{w.id}: {w.name}{' (Vril)' if ws.vril else ''}, {reach}, {dice}{extra}{words}"
                f"{state_note}"
            )
        panels.append(
            PanelView(
                seat=hero.seat,
                title=f"{hdef.name} ({hdef.team.title()})",
                lines=[
                    "Down" if hero.down else ("Exited" if hero.exited else "Operational"),
                    f"Basic Action tokens: {hero.tokens}",
                    f"Cards in hand: {len(hero.hand)}; deck {len(hero.deck.draw_pile)}",
                    f"Permanent Wounds: {len(hero.wounds)}",
                    *weapons,
                    f"Loot: {', '.join(hero.loot) or '-'}",
                    f"Mission tokens: {', '.join(hero.carried) or '-'}",
                    f"Skill: {skill_words(hdef.skill)}",
                    *(
                        [f"Pending: {', '.join(effect_words(g) for g in hero.grants)}"]
                        if hero.grants
                        else []
                    ),
                ],
            )
        )
    private: list[str] = []
    if seat is not None:
        for key in state.hero_order:
            hero = state.heroes[key]
            if hero.seat == seat:
                private.append(f"{hero.name}'s hand ({len(hero.hand)} cards):")
                for card in hero.hand:
                    tpl = content.cards[card.rsplit("-", 1)[0]]
                    # In words: the card's own text says both halves (Action; or Modifier).
                    private.append(f"  {tpl.name} — {tpl.text}")
    header = {
        "mission": f"{mission.number}: {mission.title}",
        "tracker": str(state.tracker),
        "discretion": "ALARM" if state.alarm else str(state.discretion),
        "endgame": str(state.endgame),
        "alarm": "on" if state.alarm else "off",
        "difficulty": state.options.get("difficulty", "cadet"),
        "achieved": ", ".join(state.achieved) or "none",
    }
    counted = objective_counts(state, mission)
    if counted:
        header["objective progress"] = counted
    commands = _commands(state)
    if commands:
        header["commands"] = commands
    if state.request:
        req = state.request
        header["question"] = f"{req.taker} asks {req.owner} for {req.item}"
    if state.reaction:
        header["question"] = f"{state.reaction.hero} may fire a Reaction"
    if state.pending:
        foes = [e.name for e in state.enemies if e.id in state.pending.targets]
        header["test"] = f"{state.heroes[state.pending.hero].name} vs {', '.join(foes)}"
    return View(
        game="reichbusters",
        scenario=state.scenario,
        title=f"Reichbusters: {mission.title}",
        board="area",
        round=state.round,
        phase=state.phase,
        waiting=waiting,
        header=header,
        cells=cells,
        edges=edges,
        figures=figures,
        tokens=tokens,
        panels=panels,
        private=private,
        finished=state.phase == "ended",
        outcome=state.outcome,
        summary=_summary(state) if state.phase == "ended" else None,
    )


def _summary(state: ReichState) -> SummaryView:
    achieved = ", ".join(state.achieved) or "none"
    wanted = state.options.get("difficulty", "cadet")
    return SummaryView(
        result=f"Outcome: {state.outcome or 'ended'}.",
        kills=sum(state.kills.values()),
        losses=[load_content().heroes[h.key].name for h in state.heroes.values() if h.down],
        objectives=[f"Difficulty played: {wanted}", f"Objective levels achieved: {achieved}"],
    )


def _enemy_conditions(state: ReichState, enemy: EnemyState) -> list[str]:
    """Inactive, Domination! control over an Alien, and each Berserk limb still Active."""
    conds = [] if enemy.active else ["inactive"]
    if rules.dominated(state, enemy):
        conds.append("dominated")
    conds += [f"limb:{limb.name}" for limb in rules.active_limbs(enemy)]
    return conds
