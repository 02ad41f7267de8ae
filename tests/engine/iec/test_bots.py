"""The economic bot: network estimate, standing orders, and whole games against itself."""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.iec import GAME, bots, rules
from tests.engine.iec.helpers import add, by_seat, empty, new


def _p1(st: dict[str, Any]) -> str:
    return by_seat(st, "P1")


def play(seed: int, n: int, bot: str) -> tuple[dict[str, Any], set[str]]:
    st = GAME.setup([f"p{i}" for i in range(n)], {}, seed)
    rng = Rng({"s": seed + 7})
    seen: set[str] = set()
    while not GAME.is_over(st):
        (p,) = GAME.current_players(st)
        st, events = GAME.apply(st, p, GAME.bots[bot](st, p, rng))
        seen.update(e["type"] for e in events)
    return st, seen


def test_iec_d13_network_value_counts_only_connected_chains() -> None:
    st = new(2)
    p = _p1(st)
    base = bots._plan(st, p)
    v0 = bots.network_value(st, p, base)
    # A mine with no storage within 4 cm adds nothing; with a storage linked to E3 it does.
    assert bots.network_value(st, p, [*base, ("mine", "G6")]) == v0
    assert bots.network_value(st, p, [*base, ("storage", "G5"), ("mine", "G6")]) > v0 + 0.1
    # Without the transmitter the chain sends nothing to Earth.
    no_tx = [x for x in base if x[0] != "transmitter"]
    assert bots.network_value(st, p, no_tx) < v0


def test_iec_s10_5_first_project_is_a_storage_that_links_new_mines_to_the_chain() -> None:
    st = new(2)
    p = _p1(st)
    score, kind, cell = bots.best_projects(st, p, bots._reach_cells(st, p))[0]
    s = rules.scen(st)
    assert kind == "storage" and score > 1
    assert s.within(cell, "E3", 6)  # goods can be moved to the mixer's storage
    assert any(s.within(cell, m, 4) for m in ("G6", "G7"))


def test_iec_s15_recipes_and_extraction_balance_the_wanted_pair() -> None:
    st, (p1, _p2) = empty()
    add(st, p1, "reactor", "B7")
    add(st, p1, "mine", "A1")
    add(st, p1, "mine", "B2")
    add(st, p1, "storage", "C1", goods={"B": 2})
    add(st, p1, "mixer", "C3")
    add(st, p1, "transmitter", "G3")
    st["turn"] = 18  # no more building: only BC is wanted
    assert bots.product_wants(st, p1) == ["BC"]
    assert set(bots.extraction_orders(st, p1).values()) == {"C"}


def test_iec_s14_transfers_send_simple_goods_to_mixer_storages_and_products_to_effectors() -> None:
    st = new(2)
    p = _p1(st)
    add(st, p, "storage", "G5")
    moves = bots.transfer_orders(st, p)
    assert {"from": "G5", "to": "E3", "good": "B", "n": 4} in moves
    assert {"from": "C1", "to": "E3", "good": "BC", "n": 4} in moves
    assert not any(m["from"] == "E3" for m in moves)
    assert bots.delivery_orders(st, p)["C3"][0] == "E3"


def test_iec_s9_economic_bot_outscores_random_and_grows_its_chain() -> None:
    vps: dict[str, list[int]] = {"economic": [], "random": []}
    grew = techs = 0
    for seed in range(3):
        for bot in vps:
            st, seen = play(seed, 2 + seed % 3, bot)
            vps[bot] += [st["players"][p]["vp"] for p in st["seats"]]
            if bot == "economic":
                techs += "tech_chosen" in seen
                for p in st["seats"]:
                    start = len(rules.scen(st).raw["start"][st["players"][p]["seat"]])
                    grew += len(rules.own(st, p)) > start
    mean = {k: sum(v) / len(v) for k, v in vps.items()}
    assert mean["economic"] >= 3.5 and mean["economic"] > 3 * mean["random"]
    assert grew >= 6
