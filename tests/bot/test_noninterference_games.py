"""Noninterference through the table service (issue 20) for Power Grid (alternative rules),
Hexania and IEC; Power Grid's own is tests/bot/test_noninterference_powergrid.py.

Two tables in two chats of one store start alike (a store file built once per game through
the chat and copied for every example, its states set up with the example's seed); their
stored states are then made to differ only in what the observer (alice) may not know, and the
same public sequence of moves is played on both (through `Table.act`, the adapters' internal
API). Everything alice receives must be identical: group posts with buttons, sender-only
replies (Telegram shows them in the group), her own private messages, the answers to anyone's
/status, /log, /orders, the reminders pushed at the deadline, `view`/`describe_turn` for her,
and, in a third of the examples, her picture (bytes).

What each game hides, and the allowed differences (the comparison stops at the first; a
reveal made alike on both tables goes on; for IEC any other difference fails, even one of the
public view alone, such as who is asked):
- powergrid_alt (hidden_money=yes): bob's money, the deck below its top cards and, in Phase 3
  (rules version 2), the purchases bob has declared in secret; allowed: a plant drawn from
  the differing deck (the public market changes, ALT rules follow PG-4), the purchases
  carried out (the public view differs).
- hexania: nothing but the random generator (future dice, view() leaves it out); allowed: the
  first roll (`rolled` or any event after which the public view differs by dice).
- iec: another company's technologies and standing modes, private choices, which face-down
  tokens are real (the engine test's `_differ`); allowed: `tech_revealed`,
  `token_activated`, `swept`, `flex_declared`, `subsidy` (IEC-S-26, corrections 1.1).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from bot.messages import Outbound
from bot.scheduler import Scheduler
from bot.store import Store
from bot.store_sql import players_json
from bot.table import Table
from engine.core import EnglishTranslator, IllegalAction, Rng, canonical_json
from engine.core.protocol import Game
from engine.core.rng import new_rng_state
from engine.core.search import copy_state  # the JSON state's deep copy, faster than deepcopy
from engine.hexania import GAME as HEXANIA
from engine.iec import GAME as IEC
from engine.powergrid_alt import GAME as ALT
from tests.bot.helpers import Chat, FakeClock, present
from tests.bot.test_noninterference_powergrid import seen_by
from tests.engine.iec.test_noninterference import ALLOWED as IEC_ALLOWED
from tests.engine.iec.test_noninterference import _differ as iec_differ

T = EnglishTranslator()
OBS, HOLDER = "alice", "bob"
PLAYERS = ["alice", "bob", "carol"]
QUERIES = ["/status", "/log", "/orders", "/board"]
State = dict[str, Any]
Differ = Callable[[st.DrawFn, State, State], None]


def _alt_differ(draw: st.DrawFn, a: State, b: State) -> None:
    keep = draw(st.integers(3, 6), label="deck cards in common")
    for state in (a, b):
        state["players"][HOLDER]["money"] = draw(st.sampled_from([30, 50, 80, 150]))
        tail = state["deck"][keep:]
        random.Random(draw(st.integers(0, 999))).shuffle(tail)
        state["deck"][keep:] = tail
    _alt_declared(draw, a, b)


def _alt_declared(draw: st.DrawFn, a: State, b: State) -> None:
    """Rules version 2 (ALT-10): bob's secret Phase 3 purchases, declared differently in a
    and b while he is still deciding (a private `buy_declared`; `view` shows them to him)."""
    for state in (a, b):
        if HOLDER not in ALT.current_players(state):
            return
        buys = [x for x in ALT.legal_actions(state, HOLDER) if x.get("type") == "buy"]
        if not buys:
            continue
        pick = buys[draw(st.integers(0, len(buys) - 1), label="bob's secret purchase")]
        try:
            trial, _ = ALT.apply(copy_state(state), HOLDER, pick)
        except IllegalAction:
            continue
        if public(ALT, trial) == public(ALT, state):  # still secret: kept
            event("alt: a secret purchase differs")
            state.clear()
            state.update(trial)


def _hexania_differ(draw: st.DrawFn, a: State, b: State) -> None:
    b["rng"] = new_rng_state(draw(st.integers(0, 2**20), label="other generator"))


def _iec_differ(draw: st.DrawFn, a: State, b: State) -> None:
    iec_differ(draw, a, b, HOLDER, OBS)


def _allowed(game_id: str, events: list[dict[str, Any]]) -> bool:
    kinds = {e.get("type") for e in events}
    if game_id == "iec":
        return bool(kinds & IEC_ALLOWED)
    return False  # a divergence of the public view is checked by the caller


GAMES: dict[str, tuple[Game, str, Differ]] = {
    "powergrid_alt": (ALT, "hidden_money=yes", _alt_differ),
    "hexania": (HEXANIA, "", _hexania_differ),
    "iec": (IEC, "", _iec_differ),
}


def public(game: Game, state: State) -> str:
    return json.dumps(game.view(state, None), sort_keys=True)


# The two started tables of each game, built once (a store file) and copied for every example:
# opening them through the chat costs ten commands, the same for every example.
_TEMPLATES: dict[str, bytes] = {}


async def _build_template(game_id: str, root: Path) -> bytes:
    game, options, _ = GAMES[game_id]
    clock = FakeClock()
    store = await Store.open(str(root / "template.sqlite3"), clock=clock)
    try:
        table = Table(store, games={game_id: game}, clock=clock, render=False, seeder=lambda: 0)
        for chat in (Chat(table, chat_key="local:a"), Chat(table, chat_key="local:b")):
            await chat.say("alice", f"/new {game_id} {options}".strip())
            await chat.say("alice", "/settings deadline=10m")
            for name in PLAYERS[1:]:
                await chat.say(name, "/join")
            await chat.say("alice", "/start")
    finally:
        await store.close()
    return (root / "template.sqlite3").read_bytes()


def _template(game_id: str) -> bytes:
    if game_id not in _TEMPLATES:
        with tempfile.TemporaryDirectory() as tmp:
            _TEMPLATES[game_id] = asyncio.run(_build_template(game_id, Path(tmp)))
    return _TEMPLATES[game_id]


async def _play(data: st.DataObject, root: Path, game_id: str, template: bytes) -> None:
    game, _options, differ = GAMES[game_id]
    # data.draw is a DrawFn; mypy's view of the bound generic method loses label's default
    draw = cast(st.DrawFn, data.draw)
    clock = FakeClock()
    pushed: list[Outbound] = []

    async def send(out: Outbound) -> None:
        pushed.append(out)

    seed = draw(st.integers(0, 2**16), label="seed")
    pictures = draw(st.integers(0, 2), label="compare pictures") == 0
    db_file = root / "db.sqlite3"
    db_file.write_bytes(template)
    with sqlite3.connect(db_file) as db:
        rows = db.execute("SELECT id, options FROM games ORDER BY id").fetchall()
    pks = [pk for pk, _ in rows]
    # What /start would have set up with this seed (bot/lobby.py: setup(seats, options, seed)).
    base = game.setup(list(PLAYERS), json.loads(rows[0][1]), seed)
    rng = Rng(new_rng_state(seed))
    bot = next(iter(game.bots.values()))
    steps, ahead = draw(st.integers(0, 20), label="forward"), bot  # public variety first
    if game_id == "powergrid_alt" and draw(st.integers(0, 2), label="to round 2's Phase 3") == 0:
        # Built plants take a round: the heuristic bots reach Phase 3 with purchases to
        # declare (ALT-10, rules version 2) in round 2, after 35 to 41 moves.
        steps, ahead = draw(st.integers(35, 41), label="forward"), game.bots["heuristic"]
    for _ in range(steps):
        if game.is_over(base):
            break
        p = game.current_players(base)[0]
        base, _ = game.apply(base, p, ahead(copy_state(base), p, rng))
    states = [copy_state(base), copy_state(base)]
    differ(draw, states[0], states[1])
    with sqlite3.connect(db_file) as db:
        for pk, state in zip(pks, states, strict=True):
            db.execute(
                "UPDATE games SET state_json = ?, seed = ? WHERE id = ?",
                (canonical_json(state), seed, pk),
            )
            # The turn's reminder as the table would have left it for this state (who is
            # waited for), not the template's: else the first move on one table only (a
            # declaration the other table refuses) rewrites it there, and the deadlines part
            # (found by `make fuzz`, 2026-12-04).
            db.execute(
                "UPDATE reminders SET players_json = ?, attempt = 0 WHERE game_id = ?",
                (players_json(game.current_players(state)), pk),
            )
    store = await Store.open(str(db_file), clock=clock)
    table = Table(store, games={game_id: game}, clock=clock, render=False, seeder=lambda: seed)
    table.register_sender("local", send)
    chats = [Chat(table, chat_key="local:a"), Chat(table, chat_key="local:b")]
    sched = Scheduler(table, clock=clock)
    await sched.run_due()
    key = f"local:{OBS}"
    try:
        for _step in range(draw(st.integers(1, 6), label="moves")):
            rows_before = [present(await store.game(pk)) for pk in pks]
            before = [json.loads(present(r.state_json)) for r in rows_before]
            if game.is_over(before[0]):
                break
            if public(game, before[0]) != public(game, before[1]):
                assert game_id != "iec", "the public view diverged"  # as above
                break
            assert game.view(before[0], OBS) == game.view(before[1], OBS)
            assert game.describe_turn(before[0], OBS, T) == game.describe_turn(before[1], OBS, T)
            asker = draw(st.sampled_from(PLAYERS), label="asker")
            query = draw(st.sampled_from(QUERIES), label="query")
            got = [seen_by(await c.say(asker, query), c.chat_key, key) for c in chats]
            assert got[0] == got[1], (asker, query)
            player = game.current_players(before[0])[0]
            action = bot(copy_state(before[0]), player, rng)
            outs = [await c.table.act(c.inbound(player), action) for c in chats]
            versions = [r.version for r in rows_before]
            news = []
            for pk, v in zip(pks, versions, strict=True):
                rows = await store.actions(pk)
                news.append([e for r in rows if r.version > v for e in r.events])
            after = [json.loads(present(present(await store.game(pk)).state_json)) for pk in pks]
            seen = [seen_by(o, c.chat_key, key) for o, c in zip(outs, chats, strict=True)]
            same = public(game, after[0]) == public(game, after[1])
            if game_id == "powergrid_alt" and bool(news[0]) != bool(news[1]):
                # bob's move taken on one table only: refused on the other by his hidden money
                # (the public view then differs: stop, as below) or by his own secret
                # declarations. Such a refusal is his alone, and alice sees nothing of either
                # (no forced /done follows a declaration either: forced.py), but /log counts
                # his private choices (issue 20: "bob makes a private choice"): an allowed
                # difference, stop here.
                assert player == HOLDER, action
                assert not same or seen[0] == seen[1], (action, seen)
                break
            if same and seen[0] == seen[1]:
                continue  # nothing told apart (a reveal made alike on both goes on too)
            if any(_allowed(game_id, ev) for ev in news):
                break  # IEC-S-26: a secret revealed by the rules
            # IEC reveals only through its named events (above): any other difference (who
            # is asked, a phase that waits) is a leak. The others' reveals (a draw from the
            # deck, a die, purchases carried out, the holder's own move refused on one table
            # only) change the public view: stop there.
            assert game_id != "iec", ("public view diverged", action, news)
            if not same:
                break
            assert seen[0] == seen[1], action
        last = [json.loads(present(present(await store.game(pk)).state_json)) for pk in pks]
        if public(game, last[0]) == public(game, last[1]):
            if pictures:  # a render costs ~0.1-0.2 s: the bytes are compared in a third
                assert game.render(last[0], OBS, T) == game.render(last[1], OBS, T)
            pushed.clear()
            clock.advance(700)
            await sched.run_due()
            per_chat = [
                seen_by([o for o in pushed if o.chat_key == c.chat_key], c.chat_key, key)
                for c in chats
            ]
            assert per_chat[0] == per_chat[1]
    finally:
        await store.close()


def _run(data: st.DataObject, game_id: str) -> None:
    template = _template(game_id)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_play(data, Path(tmp), game_id, template))


# No shrinking (as the engine-level tests): a table example costs ~0.3 s, and shrinking a
# failure would outlast the test timeout; the first failing example is reported as found.
EXAMPLES = settings(
    max_examples=200,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@EXAMPLES
@given(data=st.data())
def test_alt_hidden_money_and_deck_do_not_reach_alice(data: st.DataObject) -> None:
    _run(data, "powergrid_alt")


@EXAMPLES
@given(data=st.data())
def test_hexania_the_generator_does_not_reach_alice(data: st.DataObject) -> None:
    _run(data, "hexania")


@EXAMPLES
@given(data=st.data())
def test_iec_s26_secrets_do_not_reach_alice_through_the_table(data: st.DataObject) -> None:
    _run(data, "iec")
