"""Command line: `python -m engine scenarios` and `python -m engine selfplay ...`."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import asdict

from engine.core.game import scenario_info
from engine.registry import games, get_game
from engine.selfplay import POLICIES, mission_tally, play_one


def parse_seeds(text: str) -> list[int]:
    if "-" in text:
        first, last = text.split("-", 1)
        return list(range(int(first), int(last) + 1))
    return [int(part) for part in text.split(",")]


def cmd_scenarios(_: argparse.Namespace) -> int:
    for key, game in games().items():
        print(f"{key}: {game.title}")
        for info in game.scenarios():
            roles = ", ".join(r.key for r in info.roles)
            seats = f"{info.min_seats}-{info.max_seats}"
            print(f"  {info.key:<24} {info.title}  [seats {seats}: {roles}]")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    results = []
    options: dict[str, str] = {}
    for text in args.option:
        key, sep, value = text.partition("=")
        if not sep:
            raise ValueError(f"Options are KEY=VALUE (got '{text}').")
        options[key] = value
    scenario_info(game, args.scenario).resolve_options(options)  # fail once, clearly
    for seed in parse_seeds(args.seeds):
        result = play_one(
            game, args.scenario, seed, args.players, policy_name=args.policy, options=options
        )
        results.append(result)
        print(json.dumps(asdict(result)), flush=True)
    finished = [r for r in results if r.finished]
    summary = {
        "game": args.game,
        "scenario": args.scenario,
        "players": args.players,
        "policy": args.policy,
        **({"options": options} if options else {}),
        "games": len(results),
        "finished": len(finished),
        "errors": sum(1 for r in results if r.error),
        "outcomes": dict(Counter(r.outcome or "none" for r in finished)),
        "mean_rounds": round(sum(r.rounds for r in finished) / max(1, len(finished)), 2),
        "mean_ms_per_step": round(sum(r.ms_per_step for r in results) / max(1, len(results)), 3),
    }
    missions = mission_tally(results)
    if missions:
        summary["missions"] = missions  # a campaign: each mission's outcomes as played
    print(json.dumps({"summary": summary}))
    return 0 if summary["errors"] == 0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("scenarios", help="list games and scenarios").set_defaults(run=cmd_scenarios)
    play = sub.add_parser("selfplay", help="play whole missions with a policy")
    play.add_argument("--game", required=True)
    play.add_argument("--scenario", required=True)
    play.add_argument("--seeds", default="1-10")
    play.add_argument("--players", type=int, default=None)
    play.add_argument(
        "--policy",
        choices=POLICIES,
        default="random",
        help="random explores the rules; advisor follows the game's own advice",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a scenario option, e.g. difficulty=legend (repeatable)",
    )
    play.set_defaults(run=cmd_selfplay)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
