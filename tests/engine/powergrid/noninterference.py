"""The engine-level noninterference check shared by Power Grid and its alternative rules
(issue 20; PG-4 deck, PG-22 hidden money, PG-O standing orders).

Two states differ only in what an observer may not know: the holder's money (the table
option hidden_money=yes), the order of the draw deck below its top cards (the Step 3 card
stays at the bottom) and, where the game has them, the holder's standing orders. The same
public sequence is played on both: the holder plays moves legal in both states, the others
play a bot's move chosen on the first state, and whether their move is accepted must not
depend on the holder's secrets. Everything the observer receives must be identical:
`view(state, observer)` and the public view, `describe_turn` for him and for the table, who
is prompted, the buttons of every prompted player (the table posts them in the group), and
each event he can see (its type, its public line, whether it brings a picture, his own
private line), and in some examples his picture (bytes). A rival's private event shows him
nothing.

The rules reveal some of it; these are the allowed differences, and the comparison stops at
the first: a move made by a standing order (events marked `by_order`) and a plant drawn from
the part of the deck that differs (`plant_drawn`, `step3_card_drawn`). The end of the game
shows all money (VIEW.md), so the comparison stops there too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from engine.core import EnglishTranslator, IllegalAction, Rng
from engine.core.protocol import Game
from engine.core.rng import new_rng_state
from engine.core.search import copy_state  # the JSON state's deep copy, faster than deepcopy

T = EnglishTranslator()
STEP3 = 99
REVEALS = {"plant_drawn", "step3_card_drawn"}
State = dict[str, Any]
# hypothesis' `data.draw` (a DataObject's bound method, not a @composite DrawFn)
Draw = Callable[..., Any]
Orders = Callable[[Draw, State, str], list[dict[str, Any]]]
# A game's own reveal by the rules: (the first differing events the observer sees, holder).
Reveal = Callable[[list[dict[str, Any]], str], bool]


def owner_of(e: dict[str, Any]) -> str | None:
    """The player an event is private to (the table's rule, bot/context.py event_owner)."""
    owner = e.get("private_to")
    if isinstance(owner, str) and owner:
        return owner
    if e.get("private") or "secret" in e:
        player = e.get("player")
        return player if isinstance(player, str) and player else None
    return None


def visible(game: Game, state: State, events: list[dict[str, Any]], obs: str) -> list[Any]:
    """The events `obs` receives something of (a rival's private event: nothing)."""
    out = []
    for e in events:
        owner = owner_of(e)
        if owner is not None and owner != obs:
            assert not game.describe_event(state, e, T), e  # a rival's secret has no line
            continue
        out.append(e)
    return out


def seen(game: Game, state: State, events: list[dict[str, Any]], obs: str) -> list[Any]:
    """What `obs` receives of these events."""
    out: list[Any] = []
    for e in visible(game, state, events, obs):
        mine = game.describe_private_event(state, e, T) if owner_of(e) == obs else None
        out.append(
            (e.get("type"), game.describe_event(state, e, T), game.is_picture_event(e), mine)
        )
    return out


def observe(game: Game, state: State, obs: str) -> Any:
    current = list(game.current_players(state))
    return (
        json.dumps(game.view(state, obs), sort_keys=True),
        json.dumps(game.view(state, None), sort_keys=True),
        game.describe_turn(state, obs, T),
        game.describe_turn(state, None, T),
        current,
        [game.buttons(state, p, T) for p in dict.fromkeys([*current, obs])],
        game.is_over(state),
    )


def _try(game: Game, state: State, player: str, action: dict[str, Any]) -> Any:
    s = copy_state(state)
    try:
        return game.apply(s, player, action)
    except IllegalAction as err:
        return f"{err.rule_id}: {err}"


def _public(game: Game, state: State) -> Any:
    return json.dumps(game.view(state, None), sort_keys=True), game.current_players(state)


def _order_acted(
    game: Game, before: State, actor: str, action: dict[str, Any], holder: str, after: State
) -> bool:
    """Whether the holder's standing order acted in this step: the same move on the state
    without his orders ends elsewhere in public. (An order may act without an event of its
    own: `/buy auto` with nothing to buy just ends the turn; the table sees the turn pass.)"""
    if holder not in before.get("orders", {}):
        return False
    bare = copy_state(before)
    del bare["orders"][holder]
    if not bare["orders"]:
        del bare["orders"]
    result = _try(game, bare, actor, action)
    return isinstance(result, str) or _public(game, result[0]) != _public(game, after)


def differ(draw: Draw, game: Game, a: State, b: State, holder: str, orders: Orders | None) -> None:
    """Give the holder money, a deck and standing orders that differ between a and b."""
    keep = draw(st.integers(1, 6), label="deck cards in common")
    for state in (a, b):
        state["players"][holder]["money"] = draw(st.sampled_from([0, 3, 17, 30, 55, 120]))
        deck = state["deck"]
        end = len(deck) - 1 if deck and deck[-1] == STEP3 else len(deck)
        middle = deck[keep:end]
        random.Random(draw(st.integers(0, 999))).shuffle(middle)
        deck[keep:end] = middle
    if orders is None:
        return
    for state in (a, b):
        for action in orders(draw, state, holder):
            before = _public(game, state)
            result = _try(game, state, holder, action)
            if isinstance(result, str):
                continue
            trial, _ = result
            if _public(game, trial) == before:  # an order that has not acted yet
                state.clear()
                state.update(trial)


def check(
    data: st.DataObject,
    game: Game,
    orders: Orders | None = None,
    steps: int = 40,
    reveal: Reveal | None = None,
) -> None:
    draw = data.draw
    n = draw(st.integers(3, 4), label="players")
    seed = draw(st.integers(0, 2**20), label="seed")
    players = [f"p{i}" for i in range(n)]
    base = game.setup(players, {"hidden_money": "yes"}, seed)
    rng = Rng(new_rng_state(seed))
    bot = game.bots["heuristic"]
    for _ in range(draw(st.integers(0, 80), label="forward")):  # public variety first
        if game.is_over(base):
            break
        p = game.current_players(base)[0]
        base, _ = game.apply(base, p, bot(copy_state(base), p, rng))
    if game.is_over(base):
        event("game over before the comparison")
        return
    holder, obs = draw(st.permutations(players), label="holder, observer")[:2]
    a, b = copy_state(base), copy_state(base)
    differ(draw, game, a, b, holder, orders)
    pick = Rng(new_rng_state(seed ^ 0x5EED))
    # The observer's picture (bytes) at one step of some examples (a render costs ~0.1 s).
    picture_at = draw(st.sampled_from([*[None] * 9, 0, 3, 10]), label="picture at step")
    for _step in range(steps):
        assert observe(game, a, obs) == observe(game, b, obs)
        if _step == picture_at:
            assert game.render(a, obs, T) == game.render(b, obs, T)
            event("pictures compared")
        if game.is_over(a):
            event("compared to the end of the game")
            return
        actor = game.current_players(a)[0]
        if actor == holder:
            legal_b = {json.dumps(x, sort_keys=True) for x in game.legal_actions(b, actor)}
            both = [
                x for x in game.legal_actions(a, actor) if json.dumps(x, sort_keys=True) in legal_b
            ]
            if not both:
                event("the holder has no move legal in both states")
                return
            action = both[pick.below(len(both))]
            ra, rb = _try(game, a, actor, action), _try(game, b, actor, action)
            if isinstance(ra, str) or isinstance(rb, str):
                event("a move legal in both was refused in one")  # legal_actions is a superset
                return
        else:
            action = bot(copy_state(a), actor, pick)
            ra, rb = _try(game, a, actor, action), _try(game, b, actor, action)
            # Whether another player's move is accepted never depends on the holder's secrets.
            assert isinstance(ra, str) == isinstance(rb, str), (action, ra, rb)
            if isinstance(ra, str):
                assert ra == rb
                return
        (na, ea), (nb, eb) = ra, rb
        by_order = any(e.get("by_order") for e in [*ea, *eb])
        if by_order or (
            observe(game, na, obs) != observe(game, nb, obs)
            and (
                _order_acted(game, a, actor, action, holder, na)
                or _order_acted(game, b, actor, action, holder, nb)
            )
        ):
            event("stopped at a standing order's move (PG-O)")
            return
        a, b = na, nb
        sa, sb = seen(game, a, ea, obs), seen(game, b, eb, obs)
        if sa != sb:
            i = next(
                (j for j, (x, y) in enumerate(zip(sa, sb, strict=False)) if x != y),
                min(len(sa), len(sb)),
            )
            first = {x[i][0] for x in (sa, sb) if i < len(x)}
            if first & REVEALS:
                event("stopped at a plant drawn from the differing deck (PG-4)")
                return
            raw = [
                x[i] for x in (visible(game, a, ea, obs), visible(game, b, eb, obs)) if i < len(x)
            ]
            assert reveal is not None and reveal(raw, holder), (action, sa[i:], sb[i:])
            event("stopped at the game's own reveal")
            return
        event(f"{a['phase']} compared")
    event(f"compared all {steps} steps")
