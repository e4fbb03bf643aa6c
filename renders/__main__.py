"""`python -m renders sample --game KEY --scenario NAME --out FILE.png [--mode focus]`.

Also writes, with `--text`, the text-only board and alt text to stdout, and with `--sheet ID`
a figure's card instead of the board.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.core.dice import SeededDice, derive_seed
from engine.core.game import scenario_info
from engine.registry import get_game
from engine.selfplay import default_seats
from renders.board import render_board
from renders.sheet import render_sheet
from renders.text import text_board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m renders")
    sub = parser.add_subparsers(dest="command", required=True)
    sample = sub.add_parser("sample", help="render a scenario's opening board")
    sample.add_argument("--game", required=True)
    sample.add_argument("--scenario", required=True)
    sample.add_argument("--out", required=True)
    sample.add_argument("--players", type=int, default=None)
    sample.add_argument("--seed", type=int, default=1)
    sample.add_argument("--mode", choices=("full", "focus"), default="full")
    sample.add_argument("--seat", default=None, help="render a seat's view (default: spectator)")
    sample.add_argument("--sheet", default=None, help="render this figure's sheet instead")
    sample.add_argument("--text", action="store_true", help="also print the text-only board")
    args = parser.parse_args(argv)
    try:
        game = get_game(args.game)
        options = scenario_info(game, args.scenario).resolve_options({})
        seats = default_seats(game, args.scenario, args.players)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    state = game.new(args.scenario, seats, options, SeededDice(derive_seed(args.seed, "setup")))
    state = game.advance(state, SeededDice(derive_seed(args.seed, 0))).state
    view = game.view(state, args.seat)
    if args.sheet:
        image = render_sheet(view, args.sheet)
    else:
        image = render_board(view, mode=args.mode)
    Path(args.out).write_bytes(image.png)
    try:
        print(f"{args.out}: {image.width}x{image.height}, {len(image.png)} bytes")
        print(image.alt_text)
        if args.text:
            print(text_board(view))
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
