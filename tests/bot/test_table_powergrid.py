"""A whole Power Grid game through the table service: text in, text out, with a restart."""

from __future__ import annotations

import json

import pytest

from bot.store import Store
from bot.table import Table
from engine.core import Rng, canonical_json, replay
from engine.core.rng import new_rng_state
from tests.bot.helpers import Chat, FakeClock, joined, payloads
from tests.bot.pgdrive import command_for, reads_back

pg = pytest.importorskip("engine.powergrid")
GAME = pg.GAME
HUMANS = ["alice", "bob", "carol"]


async def open_pg(db_path: str, clock: FakeClock, render: bool = False) -> tuple[Store, Chat]:
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=render, seeder=lambda: 7)
    return store, Chat(table, chat_key="tg:-1001")


async def current_state(store: Store, pk: int) -> tuple[int, str, dict]:
    row = await store.game(pk)
    assert row is not None and row.state_json is not None
    return row.version, row.status, json.loads(row.state_json)


async def test_full_power_grid_game_with_a_restart(db_path: str, clock: FakeClock) -> None:
    store, chat = await open_pg(db_path, clock)
    assert "Power Grid" in await chat.text("alice", "/new powergrid")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")
    await chat.say("alice", "/addbot heuristic")
    outs = await chat.say("alice", "/start")
    assert "begins" in joined(outs)
    row = await store.open_game(chat.chat_key)
    assert row is not None
    pk = row.id
    chooser = Rng(new_rng_state(2024))
    by_text = by_act = 0
    restarted = False
    for step in range(3000):
        version, status, state = await current_state(store, pk)
        if status == "over":
            break
        if step == 150 and not restarted:  # the process dies mid-game and comes back
            await store.close()
            store, chat = await open_pg(db_path, clock)
            restarted = True
            continue
        player = next(p for p in GAME.current_players(state) if p in HUMANS)
        action = GAME.bots["heuristic"](json.loads(json.dumps(state)), player, chooser)
        text = command_for(action)
        if reads_back(GAME, state, player, text, action):
            outs = await chat.say(player, text)
            by_text += 1
        else:
            outs = await chat.table.act(chat.inbound(player), action)
            by_act += 1
        assert outs and all(0 < len(o.text) <= 2000 for o in outs), outs
        new_version, _, _ = await current_state(store, pk)
        assert new_version > version, (text, joined(outs))
    else:
        pytest.fail("the game did not end")
    assert restarted and by_text > 5 * by_act, (by_text, by_act)
    row = await store.game(pk)
    assert row is not None and row.status == "over" and row.seed == 7
    seats = await store.seats(pk)
    names = [s.display_name for s in seats]
    assert names == ["alice", "bob", "carol", "Bot"]
    actions = await store.actions(pk)
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    versions = sorted({a.version for a in actions})
    assert versions == list(range(2, row.version + 1))  # one commit = one version step
    assert any(a.player == "Bot" for a in actions)
    replayed = replay(GAME, names, row.options, row.seed, [(a.player, a.action) for a in actions])
    assert canonical_json(replayed) == row.state_json
    final = await chat.text("alice", "/log 3")  # page 3: ten moves, in words (issue 25)
    assert "(page 3 of" in final and "{" not in final
    assert sum(line.startswith("#") for line in final.splitlines()) == 10
    await store.close()


async def test_power_grid_prompts_buttons_and_pictures(db_path: str, clock: FakeClock) -> None:
    store, chat = await open_pg(db_path, clock, render=True)
    await chat.say("alice", "/new powergrid")
    await chat.say("bob", "/join")
    outs = await chat.say("alice", "/start")
    assert any(o.png and o.png.startswith(b"\x89PNG") for o in outs)
    prompt = outs[-1]
    assert prompt.mentions and prompt.text.startswith("@")
    version, _, state = await current_state(store, 1)
    who = GAME.current_players(state)[0]
    other = "bob" if who == "alice" else "alice"
    assert f"waiting for {who}" in await chat.text(other, "/pass")
    assert "/bid" in await chat.text(who, "/help")
    assert "Usage" in await chat.text(who, "/bid") or "(" in await chat.text(who, "/bid")
    assert (await current_state(store, 1))[0] == version
    quote = await chat.say(other, "/market")
    assert quote and quote[0].text
    board = await chat.say(other, "/board")
    assert board[0].png is not None
    await store.close()


async def test_pg8_pg_d3_a_new_table_starts_with_the_first_chooser_asked_for_a_region(
    db_path: str, clock: FakeClock
) -> None:
    """DECISION PG-D-3: "players choose" is the table's default (PG-8: one region each, in the
    random player order, each bordering one already chosen). /new powergrid, /join, /start:
    the first chooser is @asked for a region, with a button per region he may choose, and a
    pressed button plays /region."""
    store, chat = await open_pg(db_path, clock)
    assert "regions=choose" in await chat.text("alice", "/new powergrid")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")
    outs = await chat.say("alice", "/start")
    assert "begins" in joined(outs)
    _, _, state = await current_state(store, 1)
    assert state["phase"] == "regions" and state["regions"] == []
    first, second, third = state["region_pickers"]
    assert state["region_pickers"] == state["order"]  # the random player order (PG-10)
    prompt = outs[-1]
    assert prompt.text.startswith(f"@{first}") and "choose a region" in prompt.text
    assert [key for key, _name in prompt.mentions] == [f"local:{first}"]
    buttons = payloads([prompt])
    regions = sorted(GAME.view(state, None)["regions_in_play"])
    assert sorted(p.rsplit("/region ", 1)[1] for p in buttons) == regions  # all six: none yet
    assert all(p.startswith("1:") and ":/region " in p for p in buttons)  # game 1, its move
    assert "Not your turn" in joined(await chat.press(second, buttons[0]))

    outs = await chat.press(first, next(p for p in buttons if p.endswith("/region NW")))
    assert f"{first} chooses region NW (North-West)." in joined(outs)
    version, _, state = await current_state(store, 1)
    assert state["regions"] == ["NW"] and GAME.current_players(state) == [second]
    prompt = outs[-1]
    asked = prompt.text.split(f"@{second}: ", 1)[1]  # after the line of the move
    assert asked.startswith("Round 1, step 1: choosing regions. Chosen: NW (North-West).")
    offered = sorted(p.rsplit(" ", 1)[1] for p in payloads([prompt]))
    assert offered == ["E", "NE", "W"]  # PG-8: only the regions bordering North-West
    refused = joined(await chat.say(second, "/region SE"))
    assert "PG-8" in refused and (await current_state(store, 1))[0] == version
    await chat.say(second, "/region NE")
    outs = await chat.say(third, "/region E")
    _, _, state = await current_state(store, 1)
    assert state["regions"] == ["E", "NE", "NW"] and state["phase"] == "auction"
    assert "/bid" in outs[-1].text  # the first auction follows
    await store.close()


async def test_pg_d3_regions_random_starts_with_the_auction(db_path: str, clock: FakeClock) -> None:
    """The other choice of DECISION PG-D-3: a random connected set, no region prompt."""
    store, chat = await open_pg(db_path, clock)
    assert "regions=random" in await chat.text("alice", "/new powergrid regions=random")
    await chat.say("bob", "/join")
    outs = await chat.say("alice", "/start")
    _, _, state = await current_state(store, 1)
    assert state["phase"] == "auction" and len(state["regions"]) == 3  # PG-6: 2 players
    assert "Regions in play:" in joined(outs) and "/bid" in outs[-1].text
    assert not any(":/region " in p for p in payloads(outs))
    await store.close()
