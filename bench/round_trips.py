"""Round trips of an asynchronous Power Grid game: prompts with and without standing orders.

Seeded 4-player games on Germany, the players deciding like the heuristic bot, played twice:
- manual: every decision is a chat message answering a prompt (`/buy c2 o3` is one message,
  `/done` another; `/build A B` one message);
- with orders: the way a typical player uses them: `/buy auto` and `/power auto` once, a
  proxy `/bid <plant> <n> max=<limit>` when choosing, `/maxbid <limit>` or `/pass plant`
  when someone else opens an auction, `/pass round` when no plant is wanted this round, and
  `/build plan <cities>` when the build phase starts. Anything not covered is answered by hand.
A prompt is a message the player had to send because he was in `current_players`; messages
sent off turn (orders placed ahead) count as messages only.

The last line is the summary:
    prompts per round: 11.8 manual, 3.2 with orders (3.7x fewer)

Usage: .venv/bin/python bench/round_trips.py [games] [seed]
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME, bots, rules

PLAYERS = ["p1", "p2", "p3", "p4"]
# Regions drawn, as when the summary above was measured (the table's default is now the
# players' choice, DECISION PG-D-3): the same games, comparable figures.
OPTIONS = {"map": "germany", "regions": "random"}
State = dict[str, Any]


class Count:
    def __init__(self) -> None:
        self.prompts = 0
        self.messages = 0

    def send(self, state: State, player: str, actions: list[dict[str, Any]]) -> None:
        """One chat message: its actions applied in order (all legal by construction)."""
        if player in GAME.current_players(state):
            self.prompts += 1
        self.messages += 1
        for action in actions:
            GAME.apply(state, player, action)


def _answer(state: State, player: str, rng: Rng, count: Count) -> None:
    """The player answers a prompt by hand, as one chat message."""
    action = bots.heuristic_bot(state, player, rng)
    actions = [action]
    if action["type"] in ("buy", "build"):
        # One message carries the whole purchase or build list of this turn (/buy c2 o3).
        probe = copy.deepcopy(state)
        GAME.apply(probe, player, action)
        while player in GAME.current_players(probe):
            more = bots.heuristic_bot(probe, player, rng)
            if more["type"] != action["type"]:
                break
            GAME.apply(probe, player, more)
            actions.append(more)
    count.send(state, player, actions)


def play_manual(seed: int) -> tuple[int, Count]:
    state = GAME.setup(PLAYERS, OPTIONS, seed)
    rng = Rng(new_rng_state(seed))
    count = Count()
    while not GAME.is_over(state):
        _answer(state, GAME.current_players(state)[0], rng, count)
    return state["round"], count


def _plan(state: State, player: str) -> list[str]:
    """The cities the heuristic would build if its build turn came now."""
    probe = copy.deepcopy(state)
    probe.pop("orders", None)
    probe["phase"] = "build"
    probe["order"] = [player]
    probe["turn"] = 0
    rng = Rng(new_rng_state(0))
    cities: list[str] = []
    while True:
        action = bots.heuristic_bot(probe, player, rng)
        if action["type"] != "build":
            return cities
        rules._build(probe, player, action, [])
        cities.append(action["city"])


def play_with_orders(seed: int) -> tuple[int, Count]:
    state = GAME.setup(PLAYERS, OPTIONS, seed)
    rng = Rng(new_rng_state(seed))
    count = Count()
    standing = False
    seen_auction: tuple[int, int] | None = None
    seen_round_start = 0
    seen_build = 0
    while not GAME.is_over(state):
        if not standing and state["phase"] != "regions":
            for p in PLAYERS:  # once per game
                count.send(state, p, [{"type": "order", "kind": "buy_auto"}])
                count.send(state, p, [{"type": "order", "kind": "power_auto"}])
            standing = True
            continue
        if (
            state["phase"] == "auction"
            and state["round"] > 1
            and seen_round_start != state["round"]
        ):
            seen_round_start = state["round"]
            for p in PLAYERS:  # nothing worth buying this round: /pass round
                mine = state["players"][p]
                if mine["bought"] or mine["passed"] or state["phase"] != "auction":
                    continue
                if bots._choose_plant(state, mine)["type"] == "pass":
                    count.send(state, p, [{"type": "order", "kind": "pass_round"}])
            continue
        auction = state["auction"] if state["phase"] == "auction" else None
        if auction is not None and seen_auction != (state["round"], auction["plant"]):
            seen_auction = (state["round"], auction["plant"])
            for p in list(auction["bidders"]):  # the others answer the announcement
                auction = state["auction"]
                if auction is None or auction["plant"] != seen_auction[1]:
                    break
                if p == auction["leader"] or p not in auction["bidders"]:
                    continue
                if "pass_round" in state.get("orders", {}).get(p, {}):
                    continue  # /pass round already covers it
                limit = bots._bid_limit(state, state["players"][p], auction["plant"])
                if limit > auction["bid"]:
                    order = {"kind": "maxbid", "plant": auction["plant"], "limit": limit}
                else:
                    order = {"kind": "pass_plant", "plant": auction["plant"]}
                count.send(state, p, [{"type": "order", **order}])
            continue
        if state["phase"] == "build" and seen_build != state["round"]:
            seen_build = state["round"]
            for p in state["order"]:
                if state["phase"] != "build" or state["players"][p]["done"]:
                    continue
                cities = _plan(state, p)  # may be empty: "/build plan none"
                count.send(state, p, [{"type": "order", "kind": "build_plan", "cities": cities}])
            continue
        player = GAME.current_players(state)[0]
        if (
            state["phase"] == "auction"
            and state["auction"] is None
            and not state["pending_discard"]
        ):
            action = bots.heuristic_bot(state, player, rng)
            if action["type"] == "open":
                limit = bots._bid_limit(state, state["players"][player], action["plant"])
                if limit > action["bid"]:
                    action["max"] = limit
            count.send(state, player, [action])
            continue
        _answer(state, player, rng, count)
    return state["round"], count


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed0 = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    totals: dict[str, list[int]] = {"manual": [0, 0, 0], "orders": [0, 0, 0]}
    for g in range(n_games):
        for mode, fn in (("manual", play_manual), ("orders", play_with_orders)):
            rounds, count = fn(seed0 + g)
            totals[mode][0] += rounds
            totals[mode][1] += count.prompts
            totals[mode][2] += count.messages
    per_round = {}
    for mode, (rounds, prompts, messages) in totals.items():
        per_round[mode] = prompts / rounds
        print(
            f"{mode}: {n_games} games, {rounds / n_games:.1f} rounds per game, "
            f"{prompts / rounds:.1f} prompts per round, {messages / n_games:.0f} messages per game"
        )
    ratio = per_round["manual"] / per_round["orders"]
    print(
        f"prompts per round: {per_round['manual']:.1f} manual, "
        f"{per_round['orders']:.1f} with orders ({ratio:.1f}x fewer)"
    )


if __name__ == "__main__":
    main()
