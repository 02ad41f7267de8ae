"""The `boardchat` command: run the bots, play in the terminal, or watch bots play."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from bot.settings import Settings, SettingsError, load_dotenv
from bot.storage import StoreUnavailable, shown


def _version() -> str:
    try:
        return version("boardchat")
    except PackageNotFoundError:
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardchat", description=__doc__)
    parser.add_argument("--version", action="version", version=f"boardchat {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start every platform whose token is set")
    run.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes sharing the webhook socket / Discord shards (BOARDCHAT_WORKERS)",
    )

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
        "--lang", default="en", help="language of the log and pictures (ru, pl, zh_Hant)"
    )
    demo.add_argument(
        "--bot", default=None, help="bot kind for every seat (default: the game's best)"
    )
    ops = sub.add_parser("backup", help="online copy of the database (PostgreSQL: pg_dump)")
    ops.add_argument("--out", default=None, help="backup file (default: boardchat-<time>)")
    export = sub.add_parser("export", help="one game's setup and action log as JSON")
    export.add_argument(
        "game_id",
        type=int,
        nargs="?",
        help="the game's number (without it: the games last played, with their numbers)",
    )
    export.add_argument("--out", default="-", help="file (default: standard output)")
    imp = sub.add_parser("import", help="replay an exported game into this database")
    imp.add_argument("file")
    imp.add_argument("--chat", default=None, help="chat key to put it in (default: its own)")
    imp.add_argument(
        "--trust-log",
        action="store_true",
        help="import the log's replay even where it differs from the exported state",
    )
    health = sub.add_parser("health", help="exit 0 when a platform beat recently (HEALTHCHECK)")
    health.add_argument("--max-age", type=float, default=None, help="seconds (default: setting)")
    return parser


def _ops(args: argparse.Namespace, settings: Settings) -> int:
    """backup, export, import, health: print the outcome; 1 on a refusal."""
    import json
    import time

    from bot import health, ops

    try:
        if args.command == "backup":
            print(ops.backup(settings.db, args.out, time.strftime("%Y%m%d-%H%M%S")))
        elif args.command == "export" and args.game_id is None:
            lines = asyncio.run(ops.list_games(settings.db))
            print("\n".join(lines) if lines else f"no games in {shown(settings.db)}")
        elif args.command == "export":
            data = asyncio.run(ops.export_game(settings.db, args.game_id))
            text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)
            if args.out == "-":
                print(text)
            else:
                with open(args.out, "w", encoding="utf-8") as out:
                    out.write(text + "\n")
        elif args.command == "import":
            from bot.table import discover_games

            with open(args.file, encoding="utf-8") as src:
                data = json.load(src)
            pk = asyncio.run(
                ops.import_game(
                    settings.db,
                    data,
                    discover_games(),
                    chat_key=args.chat,
                    trust_log=args.trust_log,
                )
            )
            print(f"imported as game {pk}")
        elif args.command == "health":
            max_age = args.max_age if args.max_age is not None else settings.health_max_age
            ok, said = health.check(max_age, directory=settings.health_dir or None)
            print(said)
            return 0 if ok else 1
    except (ops.OpsError, OSError, ValueError) as err:
        print(f"boardchat {args.command}: {err}", file=sys.stderr)
        return 1
    return 0


def _folder(command: str, out: str) -> bool:
    """The pictures' folder of `local` / `demo`, made now: a folder it cannot write is said at
    once, not as a crash at the first picture."""
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"boardchat {command}: --out {out}: {err.strerror or err}", file=sys.stderr)
        return False
    if not os.access(out, os.W_OK | os.X_OK):
        print(f"boardchat {command}: --out {out}: cannot write there", file=sys.stderr)
        return False
    return True


def _run(settings: Settings, workers_arg: int | None) -> int:
    """`boardchat run`: 2 on a configuration error (no restart helps), 1 when a platform or
    the database cannot be reached (a supervisor may try again)."""
    if not (settings.telegram_token or settings.discord_token):
        print(
            "boardchat run: no platform token set. Set TELEGRAM_TOKEN and/or DISCORD_TOKEN "
            "(see .env.example), or try `boardchat local` / `boardchat demo`.",
            file=sys.stderr,
        )
        return 2
    workers = workers_arg if workers_arg is not None else settings.workers
    if workers > 1:
        from bot.supervisor import WorkersError, run_workers

        try:
            return run_workers(settings, workers)
        except WorkersError as err:
            print(f"boardchat run: {err}", file=sys.stderr)
            return 2
        except OSError as err:  # the webhook's address in use
            print(f"boardchat run: {settings.telegram_webhook_listen}: {err}", file=sys.stderr)
            return 2
    from bot import eventloop
    from bot.runner import PlatformsFailed, serve

    try:
        eventloop.run(serve(settings), settings.loop, settings.db)
    except eventloop.LoopError as err:
        print(f"boardchat run: {err}", file=sys.stderr)
        return 2
    except PlatformsFailed as err:
        print(f"boardchat run: {err}", file=sys.stderr)
        return 2 if err.config else 1
    return 0


def _logging(settings: Settings) -> None:
    logging.basicConfig(
        level=getattr(logging, settings.log_level),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # httpx logs every request's URL at INFO, and Telegram's URLs hold the bot token
    # (found by an admin's test, 2026-12-04): its requests only at WARNING and above
    logging.getLogger("httpx").setLevel(max(logging.WARNING, logging.root.level))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)  # --help whatever the environment holds
    load_dotenv()
    try:
        settings = Settings.from_env()
    except SettingsError as err:
        print(f"boardchat {args.command}: {err}", file=sys.stderr)
        return 2
    _logging(settings)
    try:
        return _command(args, settings)
    except StoreUnavailable as err:
        print(f"boardchat {args.command}: {err}", file=sys.stderr)
        return 2 if err.config else 1
    except BrokenPipeError:
        # `boardchat export | head`: the reader left; Python's advice, so the interpreter's
        # own flush at exit does not raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _command(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "run":
        return _run(settings, args.workers)
    if args.command in ("backup", "export", "import", "health"):
        return _ops(args, settings)
    if args.command == "local":
        from bot.local import run_local

        if not _folder("local", args.out):
            return 2
        return asyncio.run(
            run_local(db=args.db or settings.db, out=args.out, default_lang=settings.default_lang)
        )
    if args.command == "demo":
        from bot.demo import run_demo

        if not _folder("demo", args.out):
            return 2
        return asyncio.run(
            run_demo(
                game_id=args.game,
                players=args.players,
                seed=args.seed,
                out=args.out,
                db=args.db,
                bot_kind=args.bot,
                lang=args.lang,
            )
        )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
