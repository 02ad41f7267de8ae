"""Chat noise: how many messages a table costs its players (issue 17).

    .venv/bin/python bench/chat_noise.py [--rounds N] [--seed 1] [--games powergrid,hexania,...]

For each game, a seeded 4-player game with four human seats is played through the real table
service (`Table.act`, the path of a parsed chat command) in a Telegram group whose messages go
to the outbox, as in production, and after each move the real sender loop (bot/outbox.py,
`OutboxSender.run_due`) delivers them to a recorder, as it would to Telegram (pictures are not
drawn). The humans are scripted: each plays what the game's default bot (the one /addbot seats)
would choose, sent as that human's own command. The game is played to its end (or `--rounds`
rounds). Counted from what the sender loop delivered:
- a message *notifies* a player when it is not silent and either mentions them (a group
  post) or is addressed to them (a private message); an edit notifies nobody;
- *posts* are all new messages (group posts, pictures, private messages, the live status
  message when first posted), not edits: an acknowledgement the sender loop folds into the
  player's previous one (an edit of it) is no post, a status edit superseded before it was
  sent is nothing at all.
Per round: notifying messages per player, and posts (stderr splits group posts and DMs and
gives the outbox rows before folding).

The last line reads
`chat noise: powergrid N notifying/player/round, M posts/round; hexania …; powergrid_alt …; iec …`.

Figures (seed 1, whole games: powergrid 10 rounds, hexania 30, powergrid_alt 16, iec 20):
- before issue 17's quiet table (main at 04e5783: a prompt mentioning everyone asked after every
  move, the lines before each picture a loud post of their own, private lines loud):
    chat noise: powergrid 11.9 notifying/player/round, 50.4 posts/round; hexania 1.8
    notifying/player/round, 9.5 posts/round; powergrid_alt 7.4 notifying/player/round,
    37.8 posts/round; iec 6.0 notifying/player/round, 26.0 posts/round
- after the quiet table (a status message edited in place; a loud ask only for a player asked
  anew who has not acted yet in the phase; everything else silent), counted from the outbox:
    chat noise: powergrid 3.1 notifying/player/round, 14.9 posts/round; hexania 0.7
    notifying/player/round, 4.0 posts/round; powergrid_alt 3.3 notifying/player/round,
    20.2 posts/round; iec 0.9 notifying/player/round, 17.1 posts/round
  (iec: 13.1 of its 17.1 posts per round were silent private lines, 9 of them "Standing order
  saved.", one per standing-order move.)
- with a player's acknowledgements of his own moves in a row folded into one private message
  (nobody moved between; bot/outbox.py), counted from what the sender loop delivers:
    chat noise: powergrid 3.1 notifying/player/round, 15.0 posts/round; hexania 0.7
    notifying/player/round, 4.0 posts/round; powergrid_alt 3.3 notifying/player/round,
    17.5 posts/round; iec 0.9 notifying/player/round, 10.8 posts/round
  (private messages per round: powergrid_alt 6.5 -> 3.8, iec 13.1 -> 6.8; powergrid's 15.0
  counts its status message's first post, which the outbox count took for an edit.)
  Power Grid stays above 3 notifying per player and round: each of its four phases asks every
  player anew (auction, resources and building in turn order, bureaucracy at once), one ping
  each; the scripted players set no standing orders (power_auto, buy_auto), which spare those.
- with one ping per player per round (bot/quiet.py: a player asked again later in a round he
  has acted in is told by the status message and a silent private prompt, the reminders are
  the backstop; the first round, before a round boundary is known, keeps the phase rule; no
  time between moves is modelled, none is needed: the rule counts acts, not minutes):
    chat noise: powergrid 1.2 notifying/player/round, 9.2 posts/round; hexania 0.7
    notifying/player/round, 4.0 posts/round; powergrid_alt 1.0 notifying/player/round,
    12.1 posts/round; iec 0.9 notifying/player/round, 10.8 posts/round
  (Power Grid: 123 pings in 10 rounds before, by phase asked: auction 38, resources 34, build
  24, bureaucracy 27; hexania and IEC already asked each player about once a round.)
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.bots import bot_rng, default_bot_kind
from bot.messages import Inbound, Outbound
from bot.outbox import OutboxSender, outbound_of
from bot.storage import open_store
from bot.store_outbox import OutboxItem
from bot.table import Table, discover_games

GAMES = ("powergrid", "hexania", "powergrid_alt", "iec")
PLAYERS = ("Ann", "Bob", "Cyd", "Dan")
# Power Grid's regions drawn, as when the figures above were measured: the table's default is
# now the players' choice (DECISION PG-D-3), pinned off so the figures stay comparable.
NEW_OPTIONS = {"powergrid": " regions=random"}
CHAT = "tg:-1009"
MAX_MOVES = 5000


def inbound(i: int, text: str | None = None) -> Inbound:
    return Inbound("telegram", CHAT, f"tg:{i + 1}", PLAYERS[i], text=text)


def round_of(state: dict[str, Any]) -> int:
    """The game's round (IEC's game turn is its round)."""
    value = state.get("round", state.get("turn", 0))
    return int(value) if isinstance(value, int) else 0


async def play(game_id: str, rounds: int, seed: int, db: str) -> dict[str, float]:
    store = await open_store(db)
    game = discover_games()[game_id]
    table = Table(
        store, games={game_id: game}, durable=("telegram",), seeder=lambda: seed, render=True
    )
    # The real sender loop (bot/outbox.py), run after each move: what it delivers is what the
    # players see (a fold or a superseded status edit is no message). Pictures are not drawn.
    delivered: list[Outbound] = []
    ids = itertools.count(1)

    async def deliver(out: Outbound) -> str:
        delivered.append(out)
        return out.edit_of or str(next(ids))

    async def picture(item: OutboxItem) -> Outbound:
        return outbound_of(item)

    sender = OutboxSender(store, "telegram", deliver)
    sender.preparers["picture"] = picture
    try:
        await table.handle(inbound(0, f"/new {game_id}{NEW_OPTIONS.get(game_id, '')}"))
        for i in range(1, len(PLAYERS)):
            await table.handle(inbound(i, "/join"))
        await table.handle(inbound(0, "/start"))
        row = await store.open_game(CHAT)
        assert row is not None and row.state_json is not None, f"{game_id} did not start"
        state = json.loads(row.state_json)
        first = round_of(state)
        bot = game.bots[default_bot_kind(list(game.bots))]
        moves = 0
        await sender.run_due()
        while not game.is_over(state) and round_of(state) < first + rounds and moves < MAX_MOVES:
            player = game.current_players(state)[0]
            action = bot(json.loads(row.state_json), player, bot_rng(seed, row.version))
            await table.act(inbound(PLAYERS.index(player)), action)
            await sender.run_due()  # the sender loop delivers what the move wrote, as it would
            moves += 1
            row = await store.open_game(CHAT) or await store.game(row.id)
            assert row is not None and row.state_json is not None
            state = json.loads(row.state_json)
        played = max(1, round_of(state) - first + (1 if game.is_over(state) else 0))
        keys = [f"tg:{i + 1}" for i in range(len(PLAYERS))]
        posted = [o for o in delivered if o.edit_of is None]
        notifying = sum(
            1
            for o in posted
            if not o.silent
            for key in keys
            if o.private_to == key
            or (o.private_to is None and key in {str(m[0]) for m in o.mentions})
        )
        rows = [item for item in await store.outbox(CHAT) if item.kind != "edit"]
        return {
            "rounds": played,
            "moves": moves,
            "notifying": notifying / len(keys) / played,
            "posts": len(posted) / played,
            "edits": (len(delivered) - len(posted)) / played,
            "dms": sum(o.private_to is not None for o in posted) / played,
            "rows": len(rows) / played,
        }
    finally:
        await table.close()


async def run(games: list[str], rounds: int, seed: int) -> list[str]:
    parts = []
    for game_id in games:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            r = await play(game_id, rounds, seed, str(Path(tmp) / "noise.sqlite3"))
            print(
                f"{game_id}: {r['rounds']:.0f} rounds, {r['moves']:.0f} moves, "
                f"{r['posts'] - r['dms']:.1f} group posts + {r['dms']:.1f} private/round "
                f"({r['rows']:.1f} outbox rows before folding), "
                f"{r['edits']:.1f} edits/round, {time.perf_counter() - t0:.1f} s",
                file=sys.stderr,
            )
        parts.append(
            f"{game_id} {r['notifying']:.1f} notifying/player/round, {r['posts']:.1f} posts/round"
        )
    return parts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1000, help="at most (default: to the end)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    parts = asyncio.run(run(args.games.split(","), args.rounds, args.seed))
    print("chat noise: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
