"""`boardchat demo`: computer players play a whole game through the table service.

A lobby is opened, the host leaves, N bot seats join and the game starts; the table plays the
bots to the end as it would in a chat. Every reply's text goes to <out>/log.txt and every
board picture to <out>/NNN-<phase>.png; the final ranking is printed. The end of the game goes
to <out>/card.png (the ranking with its deciding figures), <out>/charts.png (figures per
player per round) and <out>/replay.webp, <out>/replay.gif and, with imageio-ffmpeg installed,
<out>/replay.mp4 (the phase pictures, animated).
"""

from __future__ import annotations

import json
import re
import sys
import uuid
from pathlib import Path
from typing import TextIO

from bot.cards.ending import end_of_game
from bot.context import discover_games
from bot.i18n import LANGUAGES, listed, normalize, supported, tr, translator, trn
from bot.messages import Inbound, Outbound
from bot.placeholders import choice_label
from bot.table import default_bot_kind, open_table
from engine.core import N_, load_state
from engine.core.protocol import Game

CHAT_KEY = "local:demo"
HOST = "local:demo-host"


def _slug(text: str) -> str:
    tail = text.rsplit(":", 1)[-1]
    return re.sub(r"[^a-z0-9]+", "-", tail.casefold()).strip("-")[:30] or "board"


def _check(
    games: dict[str, Game], game_id: str, players: int, kind: str | None, lang: str
) -> tuple[str, str | None]:
    """(the bot kind to seat, None), or ("", why the arguments do not fit the game)."""
    if game_id not in games:
        message = N_("Unknown game {game}; games: {games}")
        return "", tr(lang, message, game=repr(game_id), games=listed(games))
    game = games[game_id]
    kinds = list(game.bots)
    name = tr(lang, game.name)
    if kind is not None and kind not in kinds:
        message = N_("{game} has no bot {kind}; its bots: {kinds}")
        return "", tr(lang, message, game=name, kind=repr(kind), kinds=listed(kinds))
    if not game.min_players <= players <= game.max_players:
        message = N_("{game} is played by {low} to {high} players, not {n}.")
        return "", tr(
            lang, message, game=name, low=game.min_players, high=game.max_players, n=players
        )
    return kind or default_bot_kind(kinds), None


async def run_demo(
    game_id: str,
    players: int,
    seed: int,
    out: str,
    db: str | None,
    bot_kind: str | None,
    stdout: TextIO | None = None,
    lang: str = "en",
) -> int:
    """Bots play a whole game of `game_id`; its log, pictures and end-of-game card are
    written to `out` in `lang` (the host reads it, and the chat is opened in it).
    `bot_kind` None: the game's best bot. 2 when an argument does not fit the game."""
    dst = stdout or sys.stdout
    if supported(lang) is None:
        print(f"--lang {lang}: one of {', '.join(LANGUAGES)}", file=dst)
        return 2
    lang = normalize(lang)
    bot_kind, unfit = _check(discover_games(), game_id, players, bot_kind, lang)
    if unfit is not None:  # said before any file is touched
        print(unfit, file=dst)
        return 2
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    db_path = Path(db) if db else folder / "demo.sqlite3"
    if db is None:
        for suffix in ("", "-wal", "-shm"):  # the demo's own file: start afresh
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    for old in folder.glob("[0-9][0-9][0-9]-*.png"):
        old.unlink()
    table = await open_table(str(db_path), seeder=lambda: seed, render=True, default_lang=lang)
    replies: list[Outbound] = []
    counter = iter(range(1, 1_000_000))
    run = uuid.uuid4().hex[:12]

    async def say(text: str) -> list[Outbound]:
        inbound = Inbound(
            "local",
            CHAT_KEY,
            HOST,
            "host",
            lang=lang,
            text=text,
            is_admin=True,
            # new for each run: an earlier demo's updates in the same --db are not this one's
            update_id=f"demo-{run}-{next(counter)}-{json.dumps(text)}",
        )
        outs = await table.handle(inbound)
        replies.extend(outs)
        return outs

    try:
        if await table.store.open_game(CHAT_KEY) is not None:
            await say("/abort confirm")
        await say(f"/lang {lang}")
        if (await table.store.chat(CHAT_KEY)).lang not in (None, lang):
            await say(f"/lang chat {lang}")  # a chat an earlier demo opened in another language
        await say(f"/new {game_id}")
        await say("/leave")
        for _ in range(players):
            await say(f"/addbot {bot_kind}")
        await say("/start")
        row = await table.store.last_game(CHAT_KEY)
        pictures = 0
        with (folder / "log.txt").open("w", encoding="utf-8") as log:
            for reply in replies:
                log.write(reply.text + "\n\n")
                if reply.png is not None:
                    for part, png in enumerate([reply.png, *reply.album]):
                        pictures += 1
                        suffix = f"-{part + 1}" if reply.album else ""
                        name = f"{pictures:03d}-{_slug(reply.text)}{suffix}.png"
                        (folder / name).write_bytes(png)
        if row is None or row.status != "over" or row.state_json is None:
            last = replies[-1].text if replies else tr(lang, N_("no reply"))
            print(tr(lang, N_("The game did not end: {last}"), last=last), file=dst)
            return 1
        game = table.games[row.game_id]
        ranking = game.result(load_state(row.state_json))
        moves = len(await table.store.actions(row.id))
        summary = tr(
            lang,
            # TRANSLATORS: `boardchat demo`'s summary, e.g. "Power Grid: 3 × heuristic bot,
            # seed 1, 212 moves, 40 pictures in demo-out".
            N_("{game}: {players} × {kind}, seed {seed}, {moves}, {pictures} in {folder}"),
            game=tr(lang, game.name),
            players=players,
            kind=tr(lang, choice_label(bot_kind)),
            seed=seed,
            moves=trn(lang, "{n} move", "{n} moves", moves),
            pictures=trn(lang, "{n} picture", "{n} pictures", pictures),
            folder=folder,
        )
        print(summary, file=dst)
        for place, group in enumerate(ranking, start=1):
            print(f"{place}. {', '.join(group)}", file=dst)
        seats = await table.store.seats(row.id)
        log_rows = await table.store.actions(row.id)
        ending = end_of_game(
            game,
            [s.display_name for s in seats],
            dict(row.options),
            int(row.seed or 0),
            [(a.player, a.action) for a in log_rows],
            translator(lang),
        )
        for name, data in (
            ("card.png", ending.card),
            ("charts.png", ending.charts),
            ("replay.webp", ending.webp),
            ("replay.gif", ending.gif),
        ):
            (folder / name).write_bytes(data)
        if ending.mp4 is not None:
            (folder / "replay.mp4").write_bytes(ending.mp4)
        files = "card.png, charts.png, replay.webp, replay.gif"
        files += ", replay.mp4" if ending.mp4 is not None else ""
        frames = trn(lang, "{n} frame", "{n} frames", ending.frames)
        message = N_("End of the game: {files} ({frames}) in {folder}")
        print(tr(lang, message, files=files, frames=frames, folder=folder), file=dst)
        return 0
    finally:
        await table.close()
