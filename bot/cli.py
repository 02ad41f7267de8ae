"""The `boardchat` command: run the bots, play in the terminal, or watch bots play."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from importlib.metadata import PackageNotFoundError, version

from bot.settings import Settings, load_dotenv


def _version() -> str:
    try:
        return version("boardchat")
    except PackageNotFoundError:
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardchat", description=__doc__)
    parser.add_argument("--version", action="version", version=f"boardchat {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("run", help="start every platform whose token is set")

    local = sub.add_parser("local", help="play in this terminal (hot-seat)")
    local.add_argument("--db", default=None, help="SQLite file (default: BOARDCHAT_DB)")
    local.add_argument("--out", default="local-out", help="folder for board pictures")

    demo = sub.add_parser("demo", help="bots play a whole game")
    demo.add_argument("game", nargs="?", default="powergrid")
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--out", default="demo-out", help="folder for the log and pictures")
    demo.add_argument("--db", default=None, help="SQLite file (default: <out>/demo.sqlite3)")
    demo.add_argument(
        "--bot", default="heuristic", help="bot kind for every seat (default: the game's best)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    load_dotenv()
    settings = Settings.from_env()
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    args = build_parser().parse_args(argv)
    if args.command == "run":
        if not (settings.telegram_token or settings.discord_token):
            print(
                "boardchat run: no platform token set. Set TELEGRAM_TOKEN and/or DISCORD_TOKEN "
                "(see .env.example), or try `boardchat local` / `boardchat demo`.",
                file=sys.stderr,
            )
            return 2
        from bot.runner import serve

        asyncio.run(serve(settings))
        return 0
    if args.command == "local":
        from bot.local import run_local

        return asyncio.run(run_local(db=args.db or settings.db, out=args.out))
    if args.command == "demo":
        from bot.demo import run_demo

        return asyncio.run(
            run_demo(
                game_id=args.game,
                players=args.players,
                seed=args.seed,
                out=args.out,
                db=args.db,
                bot_kind=args.bot,
            )
        )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
