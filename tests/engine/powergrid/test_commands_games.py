"""The Power Grid chat layer on real games: describe_turn, event lines, buttons, parse and
quotes at every decision of seeded games (split from test_commands.py, which works on hand-made
views)."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, ParseError
from engine.core.jsonstate import canonical_json
from engine.core.protocol import EnglishTranslator, Reply
from engine.core.rng import Rng, new_rng_state
from engine.powergrid import GAME, chat_view, commands, quotes
from tests.engine.powergrid.test_commands import _market, make_view

T = EnglishTranslator()


# --------------------------------------------------------------------------------------------
# Real games: GAME and its bots
# --------------------------------------------------------------------------------------------

PLAYERS = ["alice", "bob", "carol"]


def new_game(seed: int = 7, **options: str) -> dict[str, Any]:
    return GAME.setup(PLAYERS, {"regions": "choose", **options}, seed)


def bot_step(state: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
    player = GAME.current_players(state)[0]
    action = GAME.bots["heuristic"](state, player, rng)
    _, events = GAME.apply(state, player, action)
    return events


def play(seed: int = 7, **options: str) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Yield (state, events of the last move) at every decision point of a bot game."""
    state = new_game(seed, **options)
    rng = Rng(new_rng_state(seed))
    events: list[dict[str, Any]] = []
    while not GAME.is_over(state):
        yield state, events
        events = bot_step(state, rng)
    yield state, events


def reach(expected: str, seed: int = 7, **options: str) -> dict[str, Any]:
    for state, _ in play(seed, **options):
        if GAME.view(state, None)["expected"] == expected:
            return state
    raise AssertionError(f"no {expected!r} decision in game {seed}")


def apply_all(state: dict[str, Any], player: str, parsed: Any) -> list[dict[str, Any]]:
    """Apply a parse result to a copy; return the events (raises when illegal)."""
    copy_ = copy.deepcopy(state)
    events: list[dict[str, Any]] = []
    for action in parsed if isinstance(parsed, list) else [parsed]:
        _, more = GAME.apply(copy_, player, action)
        events += more
    return events


HINTS = {
    "choose_region": "/region <region>",
    "choose_plant": "/bid <plant>",
    "bid": "/raise <amount> or /pass",
    "discard": "/discard <plant>",
    "buy": "/buy <resource> <n>",
    "build": "/build <city>",
    "power": "/power",
}


@pytest.mark.parametrize("expected", list(HINTS))
def test_describe_turn_in_each_phase_of_a_real_game(expected: str) -> None:
    state = reach(expected)
    view = GAME.view(state, None)
    who = view["current_players"][0]
    text = commands.describe_turn(state, who, T)
    assert HINTS[expected] in text
    assert f"{', '.join(view['current_players'])}:" in text  # all who act (Phase 5: all)
    assert f"Round {view['round']}, step {view['step']}" in text
    assert len(text) <= commands.MAX_TURN_TEXT
    assert GAME.describe_turn(state, None, T) == commands.describe_turn(state, None, T)


def test_describe_turn_names_the_bidder_the_plant_and_the_high_bid() -> None:
    state = reach("bid")
    auction = GAME.view(state, None)["auction"]
    text = commands.describe_turn(state, auction["turn"], T)
    assert (
        f"{auction['turn']}: your bid on plant {auction['plant']['number']} "
        f"{auction['plant']['type']}" in text
    )
    assert f"at {auction['high_bid']} now ({auction['leader']})" in text


def test_describe_turn_at_game_over_ranks_everyone() -> None:
    *_, (state, events) = play()
    text = commands.describe_turn(state, None, T)
    assert text.startswith("Game over after round")
    for name in PLAYERS:
        assert name in text
    ranking = GAME.result(state)
    assert text.index(ranking[0][0]) < text.index(ranking[-1][-1])
    assert text.startswith(f"Game over after round {state['round']}. 1. {ranking[0][0]} (")
    # PG-53: each player's figures that decide the ranking, money shown at the end (PG-9)
    for name in PLAYERS:
        me = state["players"][name]
        assert f"{name} ({me['powered']} cities powered, {me['money']} E" in text
    # the result is said once, by this text: the game-over event has no line of its own
    assert events[-1]["type"] == "game_over"
    assert not commands.describe_event(state, events[-1], T)
    assert not commands.describe_private_event(state, events[-1], T)


@pytest.mark.parametrize("seed", [7, 11])
def test_every_event_of_a_whole_game_has_a_line(seed: int) -> None:
    seen: set[str] = set()
    for state, events in play(seed, map="usa" if seed == 11 else "germany"):
        for event in events:
            text = commands.describe_event(state, event, T)
            if event["type"] == "game_over":  # said by the over state's turn text instead
                assert text is None
            else:
                assert text and "{" not in text and "\n" not in text, event
            seen.add(event["type"])
    assert {"auction_won", "city_built", "powered", "step_started", "game_over"} <= seen


def test_buttons_at_every_decision_of_a_game_parse_to_legal_actions() -> None:
    checked = 0
    for state, _ in play(5):
        for player in GAME.current_players(state):
            for label, command in commands.buttons(state, player):
                assert label and len(command.encode()) <= 40
                name, *args = command.split()
                parsed = commands.parse(state, player, name, args)
                apply_all(state, player, parsed)  # raises when illegal
                checked += 1
        if checked > 400:
            break
    assert checked > 100


def test_fuel_button_buys_for_one_run_and_is_legal_in_real_games() -> None:
    pressed = 0
    for seed in (5, 6):
        for state, _ in play(seed):
            view = GAME.view(state, None)
            if view["expected"] != "buy":
                continue
            player = view["current_players"][0]
            for _, command in commands.buttons(state, player):
                if command.startswith("/buy"):
                    name, *args = command.split()
                    events = apply_all(state, player, commands.parse(state, player, name, args))
                    assert all(e["type"] == "resources_bought" for e in events)
                    pressed += 1
    assert pressed >= 5


def test_fuel_for_one_run_fills_plants_and_hybrids_with_the_cheaper_fuel() -> None:
    view = make_view(resource_market=_market({"coal": [0, 0, 0, 0, 0, 3, 3, 3], "oil": [3] * 8}))
    carol = view["players"]["carol"]
    carol["resources"] = {"coal": 1, "oil": 0, "garbage": 0, "uranium": 0}
    # plant 10 needs 2 coal (1 held), hybrid 5 needs 2 more: oil at 1 beats coal at 6.
    assert commands.fuel_for_one_run(view, "carol") == [("coal", 1, 6), ("oil", 2, 2)]
    buying = {**view, "expected": "buy", "current_players": ["carol"]}
    carol["money"] = 8
    assert commands.buttons_for(buying, "carol", T) == [
        ("Buy 1 coal, 2 oil (8 E)", "/buy c1 o2"),
        ("Done", "/done"),
    ]
    carol["money"] = 7
    assert commands.buttons_for(buying, "carol", T) == [("Done", "/done")]
    assert commands.fuel_for_one_run(make_view(), "alice") == []


def test_buttons_are_empty_for_players_who_wait() -> None:
    state = reach("choose_plant")
    waiting = [p for p in PLAYERS if p not in GAME.current_players(state)]
    assert waiting and all(commands.buttons(state, p) == [] for p in waiting)


def test_power_without_plants_matches_the_income_quote() -> None:
    compared = 0
    for state, _ in play(3):
        view = GAME.view(state, None)
        if view["expected"] != "power":
            continue
        player = view["current_players"][0]
        work = copy.deepcopy(state)
        events: list[dict[str, Any]] = []
        for who in view["current_players"]:  # Phase 5 is declared at once
            action = commands.parse(work, who, "power", [])
            assert isinstance(action, dict)
            _, events = GAME.apply(work, who, action)
        powered = next(e for e in events if e["type"] == "powered" and e["player"] == player)
        assert powered["cities"] == quotes.income_quote(state, player)["powered"]
        compared += 1
    assert compared >= 6


def test_parse_never_mutates_a_real_state() -> None:
    texts = [
        "/bid 3 5", "/bid 4", "/raise +1", "/pass", "/discard 3", "/buy coal 2 oil 1",
        "/build kiel ham", "/power", "/power none", "/done", "/region nw", "/cost kiel",
        "/price coal 3", "/income", "/market", "/plants",
    ]  # fmt: skip
    for expected in ("choose_region", "choose_plant", "bid", "buy", "build", "power"):
        state = reach(expected, regions="choose")
        before = canonical_json(state)
        for text in texts:
            name, *args = text.split()
            for player in PLAYERS:
                with contextlib.suppress(IllegalAction):
                    commands.parse(state, player, name, args)
        assert canonical_json(state) == before, expected


def test_real_auction_parse_open_and_raise() -> None:
    state = reach("choose_plant")
    view = GAME.view(state, None)
    chooser = view["current_players"][0]
    number = view["plant_market"]["current"][0]["number"]
    action = commands.parse(state, chooser, "bid", [str(number), "+2"])
    assert action == {"type": "open", "plant": number, "bid": number + 2}
    GAME.apply(state, chooser, action)
    view = GAME.view(state, None)
    bidder = view["auction"]["turn"]
    raise_ = commands.parse(state, bidder, "raise", ["+5"])
    assert raise_ == {"type": "raise", "bid": number + 7}
    GAME.apply(state, bidder, raise_)
    assert GAME.view(state, None)["auction"]["high_bid"] == number + 7


def test_real_build_several_cities_in_one_command() -> None:
    state = reach("build", regions="choose")
    view = GAME.view(state, None)
    player = view["current_players"][0]
    cities = sorted(chat_view.cities_in_play(view))
    free = [c for c in cities if not view["cities"].get(c)]
    first = free[0]
    neighbour = next(
        b if a == first else a
        for a, b, _ in commands.load_map(view["map"])["connections"]
        if first in (a, b) and (b if a == first else a) in free
    )
    words = [first.lower()[:5], *neighbour.upper().split()]
    parsed = commands.parse(state, player, "build", words)
    assert parsed == [{"type": "build", "city": first}, {"type": "build", "city": neighbour}]
    quote = commands.parse(state, player, "cost", words)
    assert isinstance(quote, Reply) and first in quote.text and neighbour in quote.text
    events = apply_all(state, player, parsed)
    built = [e for e in events if e["type"] == "city_built"]
    assert [e["city"] for e in built] == [first, neighbour]
    assert sum(e["cost"] for e in built) == quote.extra["quote"]["total"]


def test_quotes_for_someone_not_playing_are_refused_politely() -> None:
    state = reach("build")
    for name, args in (("cost", ["kiel"]), ("income", []), ("power", [])):
        with pytest.raises(ParseError) as err:
            commands.parse(state, "mallory", name, args)
        assert "not playing" in err.value.english()
    assert isinstance(commands.parse(state, "mallory", "market", []), Reply)


def test_real_buy_parse_matches_the_price_quote() -> None:
    state = reach("buy")
    view = GAME.view(state, None)
    player = view["current_players"][0]
    price = commands.parse(state, player, "price", ["c", "2"])
    assert isinstance(price, Reply) and price.text.startswith("2 coal: ")
    assert price.text.endswith(f"= {price.extra['quote']['total']} E")
    income = commands.parse(state, player, "income", [])
    assert isinstance(income, Reply) and income.text.startswith("You can power")


def test_real_region_choice_and_its_buttons() -> None:
    state = new_game()
    view = GAME.view(state, None)
    picker = view["current_players"][0]
    assert commands.parse(state, picker, "region", ["north", "west"]) == {
        "type": "choose_region",
        "region": "NW",
    }
    GAME.apply(state, picker, {"type": "choose_region", "region": "NW"})
    nxt = GAME.view(state, None)["current_players"][0]
    offered = {cmd.split()[1] for _, cmd in commands.buttons(state, nxt)}
    assert offered == {"NE", "W", "E"}  # PG-8: the regions bordering North-West
    assert "Chosen: NW (North-West)." in commands.describe_turn(state, nxt, T)


def test_usa_region_prompt_names_each_region_once() -> None:
    state = GAME.setup(["a", "b"], {"map": "usa", "regions": "choose"}, 3)
    text = commands.describe_turn(state, None, T)
    assert "Yellow (Midwest)" in text and "yellow (Yellow" not in text
    picker = GAME.current_players(state)[0]
    assert commands.parse(state, picker, "region", ["midwest"]) == {
        "type": "choose_region",
        "region": "yellow",
    }


def test_complete_on_a_real_game() -> None:
    state = reach("build")
    view = GAME.view(state, None)
    player = view["current_players"][0]
    in_play = chat_view.cities_in_play(view)
    got = commands.complete(state, player, "city", "")
    assert len(got) == min(25, len(in_play)) and set(got) <= set(in_play)
    own = [str(p["number"]) for p in view["players"][player]["plants"]]
    assert set(own) <= set(commands.complete(state, player, "plant", ""))
    assert GAME.complete(state, player, "resource", "o") == ["oil"]


def test_undoable_on_real_moves() -> None:
    found_hidden = found_plain = False
    for _, events in play(9):
        if not events:
            continue
        if any(e["type"] == "plant_drawn" for e in events):
            assert not commands.undoable(events)
            found_hidden = True
        elif all(e["type"] in ("bid", "passed", "resources_bought") for e in events):
            assert commands.undoable(events)
            found_plain = True
    assert found_hidden and found_plain


def test_picture_after_every_phase_of_a_real_round() -> None:
    phases: list[str] = []
    for _, events in play(7):
        phases += [e["phase"] for e in events if commands.is_picture_event(e) and "phase" in e]
        if len(phases) >= 5:
            break
    assert phases[:4] == ["auction", "resources", "build", "bureaucracy"]


WORDS = st.sampled_from(
    ["13", "+5", "-3", "x", "coal", "c", "oil=2", "3coal", "kiel", "new", "york", "frankfurt",
     "nw", "", "#", "#4", "p7", "none", "0", "999999", "ü", "(", "uranium", "gar", "=", "+"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([c.name for c in commands.COMMANDS] + ["nope"]),
    args=st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=5),
    which=st.sampled_from(["choose_region", "bid", "buy", "build", "power", "over"]),
    player=st.sampled_from([*PLAYERS, "mallory"]),
)
def test_parse_answers_any_words_with_an_action_a_reply_or_a_rule_error(
    name: str, args: list[str], which: str, player: str
) -> None:
    state = _STATES[which]
    before = canonical_json(state)
    try:
        got = commands.parse(state, player, name, args)
    except IllegalAction as err:
        assert err.english() and "\n" not in err.english()
    else:
        assert isinstance(got, (dict, list, Reply))
    assert canonical_json(state) == before


def _final_state() -> dict[str, Any]:
    *_, (state, _) = play()
    return state


_STATES = {
    **{e: reach(e) for e in ("choose_region", "bid", "buy", "build", "power")},
    "over": _final_state(),
}


def test_pg10_the_opening_line_names_the_random_order_and_drawn_regions() -> None:
    """PG-10: the player order is drawn at setup (no move speaks of it); with PG-D-3's random
    regions the regions are drawn too. The alternative rules with 3+ players play all six
    regions (ALT-4): nothing drawn, nothing said of them."""
    from engine.powergrid_alt import GAME as ALT

    chosen = GAME.setup(PLAYERS, {"regions": "choose"}, 5)
    line = GAME.describe_start(chosen, T)
    assert line == f"Player order, drawn at random (PG-10): {', '.join(chosen['order'])}."
    drawn = GAME.setup(PLAYERS, {"regions": "random"}, 5)
    assert sorted(drawn["regions"]) == ["SE", "SW", "W"]
    assert GAME.describe_start(drawn, T) == (
        "Player order, drawn at random (PG-10): bob, alice, carol. "
        "Regions in play: SE (South-East), SW (South-West), W (West)."
    )
    alt = ALT.setup(PLAYERS, {}, 5)
    assert ALT.describe_start(alt, T) == (
        f"Player order, drawn at random (PG-10): {', '.join(alt['order'])}."
    )
