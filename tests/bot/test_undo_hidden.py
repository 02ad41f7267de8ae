"""/undo and hidden orders (issue 20, PG-O): undoing your own standing order tells the group
nothing; a rival's standing order placed after your public move does not block your /undo
(it stays in the log and in the state: the replay law holds); /undo's refusals go to the
sender alone; the /abort confirm button carries the public moment, so a hidden order does not
make it stale."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.messages import Outbound
from bot.store import Store
from bot.table import Table
from engine.core import Rng, canonical_json, replay
from engine.core.protocol import Game
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from tests.bot.helpers import Chat, FakeClock

GROUP = "local:g"
ORDER = "/buy auto limit=30"


def to_group(outs: list[Outbound]) -> list[Outbound]:
    """What the group's members read of these messages (not a sender-only reply, not a DM)."""
    return [o for o in outs if o.chat_key == GROUP and o.private_to is None and not o.sender_only]


async def _table(root: Path) -> tuple[Store, Table, Chat, list[Outbound]]:
    store = await Store.open(str(root / "db.sqlite3"), clock=FakeClock())
    pushed: list[Outbound] = []

    async def send(out: Outbound) -> None:
        pushed.append(out)

    table = Table(store, games={"powergrid": GAME}, render=False, seeder=lambda: 5)
    table.register_sender("local", send)
    chat = Chat(table, chat_key=GROUP)
    await chat.say("alice", "/new powergrid hidden_money=yes")
    for name in ("bob", "carol"):
        await chat.say(name, "/join")
    await chat.say("alice", "/start")
    pushed.clear()
    return store, table, chat, pushed


async def _privately(table: Table, user: str, text: str) -> list[Outbound]:
    dm = Chat(table, chat_key=f"local:dm-{user}").inbound(user, text=text)
    return await table.handle(replace(dm, is_private=True))


async def _state(store: Store) -> tuple[int, dict[str, Any]]:
    row = await store.open_game(GROUP)
    assert row is not None and row.state_json is not None
    return row.id, json.loads(row.state_json)


async def _replays(store: Store, pk: int, game: Game = GAME) -> bool:
    """The replay law: setup + the stored action log = the stored state."""
    row = await store.game(pk)
    assert row is not None and row.seed is not None and row.state_json is not None
    seats = await store.seats(pk)
    names = [s.display_name for s in seats]
    log = [(a.player, a.action) for a in await store.actions(pk)]
    rebuilt = replay(game, names, dict(row.options), row.seed, log)
    return canonical_json(rebuilt) == canonical_json(json.loads(row.state_json))


async def test_pg_o_undoing_your_own_standing_order_tells_the_group_nothing(
    tmp_path: Path,
) -> None:
    store, table, chat, pushed = await _table(tmp_path)
    try:
        pk, before = await _state(store)
        await _privately(table, "bob", ORDER)
        assert len(await store.actions(pk)) == 1
        outs = await chat.say("bob", "/undo")  # even typed in the group
        assert to_group(outs) == [] and to_group(pushed) == [], [o.text for o in outs]
        assert outs and all(o.sender_only or o.private_to == "local:bob" for o in outs)
        assert "nobody else is told" in "\n".join(o.text for o in outs)
        assert await store.actions(pk) == []
        _pk, after = await _state(store)
        assert canonical_json(after) == canonical_json(before)
        assert await _replays(store, pk)
    finally:
        await store.close()


async def test_pg_o_a_rivals_hidden_order_since_does_not_block_your_undo(tmp_path: Path) -> None:
    store, table, chat, _pushed = await _table(tmp_path)
    try:
        pk, state = await _state(store)
        player = GAME.current_players(state)[0]
        rival = next(n for n in ("alice", "bob", "carol") if n != player)
        action = GAME.bots["heuristic"](state, player, Rng(new_rng_state(3)))
        await table.act(chat.inbound(player), action)
        await _privately(table, rival, ORDER)
        assert len(await store.actions(pk)) == 2
        outs = await chat.say(player, "/undo")
        text = "\n".join(o.text for o in outs)
        assert "Only your own last move" not in text
        assert f"{player} takes back their last move." in text
        left = await store.actions(pk)
        assert [a.user_key for a in left] == [f"local:{rival}"], "the rival's order stays"
        _pk, after = await _state(store)
        assert GAME.current_players(after) == GAME.current_players(state)
        assert GAME.view(after, None) == GAME.view(state, None)
        assert await _replays(store, pk)
    finally:
        await store.close()


async def test_undo_refusals_go_to_the_sender_alone(tmp_path: Path) -> None:
    store, table, chat, _pushed = await _table(tmp_path)
    try:
        outs = await chat.say("alice", "/undo")  # nothing played yet
        assert "There is nothing to undo." in "\n".join(o.text for o in outs)
        assert outs and to_group(outs) == []
        _pk, state = await _state(store)
        player = GAME.current_players(state)[0]
        action = GAME.bots["heuristic"](state, player, Rng(new_rng_state(3)))
        await table.act(chat.inbound(player), action)
        other = next(n for n in ("alice", "bob", "carol") if n != player)
        outs = await chat.say(other, "/undo")  # not his move
        assert "Only your own last move" in "\n".join(o.text for o in outs)
        assert outs and to_group(outs) == []
        outs = await chat.say("dave", "/undo")  # not seated
        assert outs and to_group(outs) == []
    finally:
        await store.close()


async def test_pg_o_abort_button_survives_a_hidden_order(tmp_path: Path) -> None:
    store, table, chat, _pushed = await _table(tmp_path)
    try:
        asked = await chat.say("alice", "/abort")
        payload = next(b.payload for o in asked for row in o.buttons for b in row)
        pk, _state_now = await _state(store)
        await _privately(table, "bob", ORDER)  # bumps the store's version, nothing public
        outs = await chat.press("alice", payload)
        assert "was ended without a result" in "\n".join(o.text for o in outs)
        row = await store.game(pk)
        assert row is not None and row.status == "aborted"
    finally:
        await store.close()


async def test_abort_button_goes_stale_after_a_public_move(tmp_path: Path) -> None:
    store, table, chat, _pushed = await _table(tmp_path)
    try:
        asked = await chat.say("alice", "/abort")
        payload = next(b.payload for o in asked for row in o.buttons for b in row)
        pk, state = await _state(store)
        player = GAME.current_players(state)[0]
        await table.act(
            chat.inbound(player), GAME.bots["heuristic"](state, player, Rng(new_rng_state(3)))
        )
        await chat.press("alice", payload)
        row = await store.game(pk)
        assert row is not None and row.status == "active"
    finally:
        await store.close()


async def _alt_round_2_purchases(root: Path) -> tuple[Store, Table, Chat]:
    """An alternative-rules table (version 2, the default) of three people at round 2's
    Phase 3, where everybody declares purchases at once (ALT-10); seed 1, heuristic moves."""
    from engine.powergrid_alt import GAME as ALT

    clock = FakeClock()
    store = await Store.open(str(root / "alt.sqlite3"), clock=clock)
    table = Table(store, games={"powergrid_alt": ALT}, clock=clock, render=False, seeder=lambda: 1)
    chat = Chat(table, chat_key=GROUP)
    await chat.say("ann", "/new powergrid_alt")
    for name in ("bob", "cyd"):
        await chat.say(name, "/join")
    await chat.say("ann", "/start")
    rng, bot = Rng(new_rng_state(1)), ALT.bots["heuristic"]
    for _ in range(60):
        _pk, state = await _state(store)
        if state["round"] == 2 and state["phase"] == "resources":
            break
        player = ALT.current_players(state)[0]
        await table.act(chat.inbound(player), bot(json.loads(json.dumps(state)), player, rng))
    assert state["round"] == 2 and len(ALT.current_players(state)) == 3
    return store, table, chat


async def test_alt_an_undo_leaves_another_players_later_moves_alone(tmp_path: Path) -> None:
    """Found playing (2026-12-02, ALT-10 version 2): x declared a purchase, then y declared
    one that filled his plants. x's /undo was accepted and took back y's moves since: y had
    acted since, so it is refused. y's declarations are secret, so the table does not force
    his /done when they fill his plants (that would tell the group so; found by `make fuzz`,
    2026-12-04): he sends it himself, and his own /undo takes back that /done alone."""
    from engine.powergrid_alt import GAME as ALT
    from engine.powergrid_alt.purchase import can_declare_more

    store, table, chat = await _alt_round_2_purchases(tmp_path)
    try:
        pk, state = await _state(store)
        x, y = ALT.current_players(state)[:2]

        def buys(s: dict[str, Any], p: str, fills: bool) -> dict[str, Any]:
            for a in ALT.legal_actions(s, p):
                if a.get("type") == "buy":
                    after, _ = ALT.apply(json.loads(json.dumps(s)), p, a)
                    if can_declare_more(after, p) != fills:
                        return a
            raise AssertionError((p, fills))

        await table.act(chat.inbound(x), buys(state, x, fills=False))
        _pk, after_x = await _state(store)
        await table.act(chat.inbound(y), buys(after_x, y, fills=True))
        _pk, after_y = await _state(store)
        assert y in ALT.current_players(after_y)  # not passed on his secret
        assert ALT.legal_actions(after_y, y) == [{"type": "done"}]  # for him, all that is left
        await chat.say(y, "/done")
        _pk, done_y = await _state(store)
        assert y not in ALT.current_players(done_y)
        log = await store.actions(pk)

        refused = await chat.say(x, "/undo")
        assert len(refused) == 1 and refused[0].sender_only, [o.text for o in refused]
        assert "nobody has acted since" in refused[0].text
        assert (await _state(store))[1] == done_y and await store.actions(pk) == log

        taken = await chat.say(y, "/undo")
        assert f"{y} takes back their last move." in "\n".join(o.text for o in taken)
        _pk, now = await _state(store)
        assert now == after_y and y in ALT.current_players(now)
        assert len(await store.actions(pk)) == len(log) - 1 and await _replays(store, pk, ALT)
    finally:
        await store.close()
