"""A turn post's headline (issue #32, item 3): one line, before the narration and the board,
saying whose turn it is and what matters now ("**Iridium's turn** — 1 alien within 4 hexes,
4 MP · round 1/8, kills 1 of 4").

Built per game from the public view and the prompt only (never a seat's own view), so it is
as public as the board under it. Distances are counted on the board's own grid without walls
or line of sight ("within 4 hexes", not "in line of fire"): the picture shows the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.names import SeatNames, seat_name
from engine.core.game import Prompt
from engine.core.hexgrid import Hex, distance
from engine.core.view import CellView, FigureView, View

HEADLINE_LIMIT = 140  # characters: one line on a phone, two at most
RANGE = re.compile(r"range (\d+)")
MP = re.compile(r"\((\d+) MP\)")
HP = re.compile(r"HP (\d+)/(\d+)")

Builder = Callable[[View, Prompt, SeatNames | None], list[str]]


def headline(view: View, prompt: Prompt, names: SeatNames | None = None) -> str:
    """The headline of a post showing `view` while the game waits as `prompt` says ("": the
    mission is over, or nobody is awaited)."""
    if prompt.finished or not prompt.seats:
        return ""
    build = BUILDERS.get(view.game)
    if build is None:
        return ""  # a game without its own headline: the waiting line says whose turn
    parts = build(view, prompt, names)
    if not parts:
        return ""
    head, *facts = parts
    line = f"**{head}**" + (" — " + " · ".join(f for f in facts if f) if any(facts) else "")
    return line if len(line) <= HEADLINE_LIMIT else line[: HEADLINE_LIMIT - 1].rstrip() + "…"


# ---------------------------------------------------------------------- board geometry


def cells_of(view: View) -> dict[str, CellView]:
    return {c.coord: c for c in view.cells}


def steps_between(view: View, cells: dict[str, CellView], a: str, b: str) -> int | None:
    """Steps between two coordinates on the view's grid (None: not on the grid, or an area
    board, where only sharing an area counts)."""
    ca, cb = cells.get(a), cells.get(b)
    if ca is None or cb is None:
        return None
    if view.board == "hex":
        return distance(Hex(ca.col, ca.row), Hex(cb.col, cb.row))
    if view.board == "square":
        return max(abs(ca.col - cb.col), abs(ca.row - cb.row))
    return None


def plural(count: int, word: str, many: str = "") -> str:
    """ "1 alien", "2 aliens", "no enemies" (`many`: the plural when not word + s)."""
    words = word if count == 1 else many or f"{word}s"
    return f"{count or 'no'} {words}"


def short_name(name: str) -> str:
    """A figure's short name: "Iridium (Sniper)" -> "Iridium"."""
    return name.split(" (", 1)[0]


def generic(view: View, prompt: Prompt, names: SeatNames | None) -> list[str]:
    """Whose turn, or who decides, in the seats' names."""
    who = " and ".join(seat_name(names, s) for s in prompt.seats)
    if prompt.kind == "turn":
        return [f"{who}'s turn" if len(prompt.seats) == 1 else f"Turn of {who}"]
    return [f"{who} to decide"]


# ---------------------------------------------------------------------- Galaxy Defenders


def galaxy(view: View, prompt: Prompt, names: SeatNames | None) -> list[str]:
    seat = prompt.seats[0]
    agent = next(
        (f for f in view.figures if f.side == "player" and f.id == seat),
        next((f for f in view.figures if f.side == "player" and f.seat == seat), None),
    )
    who = short_name(agent.name) if agent is not None else seat_name(names, seat)
    board = [
        f"round {view.header['round']}" if "round" in view.header else "",
        f"kills {view.header['kills']}" if "kills" in view.header else "",
        f"fires {view.header['fires'].split(' (')[0]}" if "fires" in view.header else "",
    ]
    if prompt.kind != "turn" or agent is None:
        if view.phase == "strategy" or prompt.kind in ("choice", "vote"):
            return [f"{who} to decide", *board]
        return [f"{who}'s turn", *board]
    panel = next((p.lines for p in view.panels if p.seat == seat), [])
    reach = max((int(m) for line in panel for m in RANGE.findall(line)), default=0)
    facts: list[str] = []
    if reach:
        cells = cells_of(view)
        near = [
            f
            for f in view.figures
            if f.side == "enemy"
            and (d := steps_between(view, cells, agent.coord, f.coord)) is not None
            and d <= reach
        ]
        facts.append(f"{plural(len(near), 'alien')} within {reach} hexes")
    moves = next((m.group(1) for line in panel if (m := MP.search(line))), None)
    if moves is not None:
        facts.append(f"{moves} MP")
    if agent.health is not None and agent.max_health and agent.health < agent.max_health:
        facts.append(f"HP {agent.health}/{agent.max_health}")
    return [f"{who}'s turn", ", ".join(facts), *board]


# ---------------------------------------------------------------------- Forlorn: Hope


def forlorn(view: View, prompt: Prompt, names: SeatNames | None) -> list[str]:
    header = view.header
    phase = header.get("phase", "")
    turn = header.get("turn", "")
    head = f"{phase} phase, turn {turn}" if phase and turn else generic(view, prompt, names)[0]
    facts: list[str] = []
    if "ap" in header and phase == "Marine":
        left = header["ap"].split(" ")[0]  # "5", or "5 left (shared pool)" for several seats
        pool = f"{left} AP shared" if "shared" in header["ap"] else f"{left} AP"
        spent = header.get("AP spent", "")  # who spent what from the pool this turn
        facts.append(f"{pool} (spent: {spent})" if spent else pool)
    facts.append(nearest_enemy(view))
    if prompt.kind != "turn":
        head = f"{' and '.join(seat_name(names, s) for s in prompt.seats)} to decide"
    return [head, *facts]


def nearest_enemy(view: View) -> str:
    """The enemy closest to any of the players' figures, and to whom ("" when none is on the
    board)."""
    cells = cells_of(view)
    best: tuple[int, FigureView, FigureView] | None = None
    for mine in (f for f in view.figures if f.side == "player"):
        for enemy in (f for f in view.figures if f.side == "enemy"):
            d = steps_between(view, cells, mine.coord, enemy.coord)
            if d is not None and (best is None or d < best[0]):
                best = (d, enemy, mine)
    if best is None:
        return ""
    d, enemy, mine = best
    if d == 0:
        return f"{enemy.name} on {mine.name}'s square"
    return f"{enemy.name} is {plural(d, 'square')} from {mine.name}"


# ---------------------------------------------------------------------- Reichbusters


def reich(view: View, prompt: Prompt, names: SeatNames | None) -> list[str]:
    header = view.header
    if prompt.kind == "turn" and view.phase == "heroes":
        head = "Heroes' turn"
    else:
        head = generic(view, prompt, names)[0]
    facts: list[str] = []
    waiting = set(prompt.seats)
    heroes = [f for f in view.figures if f.side == "player" and f.seat in waiting]
    enemies = [f for f in view.figures if f.side == "enemy"]
    engaged = [
        (hero, sum(1 for e in enemies if e.coord == hero.coord))
        for hero in heroes
        if any(e.coord == hero.coord for e in enemies)
    ]
    if engaged:
        facts.append(
            ", ".join(f"{plural(n, 'enemy', 'enemies')} with {h.name}" for h, n in engaged)
        )
    else:
        facts.append(f"{plural(len(enemies), 'enemy', 'enemies')} on the board")
    status = [
        f"alarm {header['alarm']}" if "alarm" in header else "",
        f"discretion {header['discretion']}" if "discretion" in header else "",
        header.get("objective progress", ""),
    ]
    facts.append(", ".join(s for s in status if s))
    return [head, *facts]


BUILDERS: dict[str, Builder] = {
    "galaxy-defenders": galaxy,
    "forlorn-hope": forlorn,
    "reichbusters": reich,
}
