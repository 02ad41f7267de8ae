"""The chat layer against the rules: every command parses, refusals carry rule ids, every
phase and every event has a text, buttons are legal moves, hybrid mixes and /cost move."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from bot.i18n import translator
from engine.core import EnglishTranslator, IllegalAction, Reply, worded
from engine.powergrid.render import RESOURCE_COLORS, _map_and_geometry
from engine.powergrid_alt import GAME
from engine.powergrid_alt import render as alt_render
from engine.powergrid_alt import rules as r
from tests.engine.marking import Marking

from .bot_figures import play
from .helpers import (
    act,
    build_turn,
    give_hand,
    give_line,
    give_plant,
    give_tp,
    illegal,
    new_game,
    parsed,
    power_turn,
    replied,
    set_phase,
)

T = EnglishTranslator()


class CountingTranslator(EnglishTranslator):
    """English, remembering every plural lookup."""

    def __init__(self) -> None:
        self.plurals: list[tuple[str, int]] = []

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.plurals.append((plural, n))
        return super().ngettext(singular, plural, n)


def _build_state() -> dict[str, Any]:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel", coal=2)
    give_plant(state, "a", 25, "Duisburg")
    give_plant(state, "a", 13, "Freiburg")
    give_hand(state, "a", 10, 18)
    return state


# ------------------------------------------------------------------ parse: every command


def test_chat_every_command_example_parses_to_an_action_or_a_reply() -> None:
    """Each example of each command is understood (no syntax error); it may still be
    refused by a rule of the game in this position."""
    state = _build_state()
    for command in GAME.commands:
        for example in command.examples:
            name, *args = example.lstrip("/").split()
            try:
                result = GAME.parse(state, "a", name, args)
            except IllegalAction as err:
                assert err.rule_id != "syntax", (example, err)
                continue
            assert isinstance(result, (dict, list, Reply)), example


def test_chat_parse_of_each_move_command() -> None:
    state = _build_state()
    assert GAME.parse(state, "a", "plant", ["18", "Hamburg"]) == {
        "type": "build_plant",
        "plant": 18,
        "city": "Hamburg",
    }
    assert GAME.parse(state, "a", "upgrade", ["4", "10"]) == {
        "type": "upgrade",
        "old": 4,
        "new": 10,
    }
    assert parsed(state, "a", "move", ["1", "coal", "4", "25"])["tokens"] == {"coal": 1}
    assert GAME.parse(state, "a", "line", ["Kiel", "Lübeck"]) == {
        "type": "line",
        "cities": ["Kiel", "Lübeck"],
    }
    assert GAME.parse(state, "a", "tp", ["Lübeck"]) == {"type": "tp", "city": "Lübeck"}
    assert GAME.parse(state, "a", "done", []) == {"type": "done"}
    assert GAME.parse(state, "a", "buy", ["coal", "2", "4"]) == {
        "type": "buy",
        "resource": "coal",
        "count": 2,
        "plant": 4,
    }
    assert GAME.parse(state, "a", "pass", []) == {"type": "pass"}
    assert GAME.parse(state, "a", "bid", ["13"]) == {"type": "open", "plant": 13, "bid": 13}
    assert isinstance(GAME.parse(state, "a", "board", []), Reply)
    assert isinstance(GAME.parse(state, "a", "income", []), Reply)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("plant", ["18"]),
        ("upgrade", ["4"]),
        ("move", ["coal", "4", "25"]),
        ("line", ["Kiel"]),
        ("tp", []),
        ("buy", []),
        ("cost", []),
        ("frobnicate", []),
    ],
)
def test_chat_malformed_commands_are_syntax_errors_with_usage(name: str, args: list[str]) -> None:
    with pytest.raises(IllegalAction) as info:
        GAME.parse(_build_state(), "a", name, args)
    assert info.value.rule_id == "syntax"


# ------------------------------------------------------------------ refusals carry rule ids


@pytest.mark.parametrize(
    ("name", "args", "rule"),
    [
        ("plant", ["18", "Kiel"], "ALT-D-25"),  # own plant already there
        ("plant", ["10", "Essen"], "ALT-D-25"),
        ("plant", ["99", "Hamburg"], "ALT-8"),  # not in the hand
        ("upgrade", ["4", "18"], "ALT-20"),  # coal -> eco
        ("move", ["1", "coal", "4", "13"], "ALT-21"),  # eco stores nothing
        ("move", ["3", "coal", "4", "25"], "ALT-21"),  # only 2 on plant 4
        ("line", ["Kiel", "Lübeck", "via", "Flensburg"], "ALT-22"),  # not neighbours
        ("tp", ["Lübeck"], "ALT-D-11"),  # no line passes through
    ],
)
def test_chat_refused_moves_name_the_rule(name: str, args: list[str], rule: str) -> None:
    state = _build_state()
    action = parsed(state, "a", name, args)
    illegal(state, "a", action, rule)


def test_chat_pg42_alt_d14_power_with_a_wrong_hybrid_mix_is_refused() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 5, "Kiel", coal=1, oil=1)
    illegal(state, "a", parsed(state, "a", "power", ["5", "coal=1", "oil=2"]), "ALT-31")
    illegal(state, "a", parsed(state, "a", "power", ["5", "coal=2", "oil=0"]), "ALT-D-14")
    # found playing (2026-12-02): "coal=3" for a hybrid burning 2 asked to say how much
    # coal and oil it burns, which the player had just done
    with pytest.raises(IllegalAction) as too_much:
        GAME.apply(state, "a", parsed(state, "a", "power", ["5", "coal=3"]))
    assert too_much.value.rule_id == "ALT-31"
    assert too_much.value.english() == "Your running hybrid plants burn 2 tokens, not 3."
    with pytest.raises(IllegalAction) as info:
        GAME.parse(state, "a", "power", ["5", "garbage=2"])
    assert info.value.rule_id == "syntax"


# ------------------------------------------------------------------ hybrid mix (PG-2, ALT-31)


def test_chat_pg2_alt31_power_hybrid_mix_burns_from_each_plant() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 5, "Kiel", coal=2, oil=2)
    give_plant(state, "a", 12, "Lübeck", coal=1, oil=3)
    action = GAME.parse(state, "a", "power", ["5", "12", "coal=1", "oil=3"])
    assert action == {"type": "power", "plants": [5, 12], "coal": 1, "oil": 3}
    events = act(state, "a", action)
    powered = next(e for e in events if e["type"] == "powered")
    assert powered["burned"] == {"coal": 1, "oil": 3}
    # ALT-D-14: each hybrid burns its own tokens; 5 takes the coal first (lower number)
    assert state["built"]["5"]["res"] == {"coal": 1, "oil": 1, "garbage": 0, "uranium": 0}
    assert state["built"]["12"]["res"] == {"coal": 1, "oil": 1, "garbage": 0, "uranium": 0}


def test_chat_pg2_power_mix_words_in_any_form_and_one_fuel_alone() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 5, "Kiel", coal=2, oil=2)
    assert parsed(state, "a", "power", ["5", "oil", "2"])["oil"] == 2
    assert parsed(state, "a", "power", ["5", "2coal"])["coal"] == 2
    # only oil given: the coal is the rest of the need (2 - 2 = 0)
    act(state, "a", parsed(state, "a", "power", ["5", "oil=2"]))
    assert state["built"]["5"]["res"]["oil"] == 0 and state["built"]["5"]["res"]["coal"] == 2


# ------------------------------------------------------------------ /cost move (ALT-21)


def test_chat_alt21_cost_move_quotes_the_fee_before_paying_or_the_refusal() -> None:
    state = _build_state()
    money = state["players"]["a"]["money"]
    reply = GAME.parse(state, "a", "cost", ["move", "2", "coal", "4", "25"])
    assert isinstance(reply, Reply) and reply.extra["quote"]["ok"]
    quote = reply.extra["quote"]
    assert quote["fee"] == -(-quote["distance"] // 10)  # ALT-21: per started 10
    assert f"fee {quote['fee']} E" in reply.text and "2 coal" in reply.text
    assert state["players"]["a"]["money"] == money  # a quote changes nothing
    bad = replied(state, "a", "cost", ["move", "1", "coal", "4", "13"])
    assert not bad.extra["quote"]["ok"] and "ALT-21" in bad.text


def test_chat_alt21_ex_alt8_cost_move_fee_per_started_ten() -> None:
    """Route Freiburg-Würzburg costs 28 -> 3 E, the fee the move then pays."""
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Freiburg", coal=2)
    give_plant(state, "a", 8, "Würzburg")
    quote = replied(state, "a", "cost", ["move", "2", "coal", "4", "8"]).extra["quote"]
    assert quote["distance"] == 28 and quote["fee"] == 3
    events = act(state, "a", parsed(state, "a", "move", ["2", "coal", "4", "8"]))
    assert events[0]["fee"] == quote["fee"]


# ------------------------------------------------------------------ texts


def _game_states() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Snapshots of whole games (2 players choosing regions, 3 and 4 players; random and
    heuristic bots) with the events of each move."""
    out: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for n, seed, bots in ((3, 1, None), (4, 2, ["random", "heuristic"] * 2)):

        def keep(state: dict[str, Any]) -> None:
            out.append((copy.deepcopy(state), []))

        play(n, seed, bots, check=keep)
    state = GAME.setup(["a", "b"], {"regions": "choose"}, 5)
    out.append((copy.deepcopy(state), []))
    return out


def test_chat_describe_turn_in_every_phase() -> None:
    seen: set[str] = set()
    for state, _events in _game_states():
        want = "over" if GAME.is_over(state) else r.expected(state)
        if want in seen:
            continue
        seen.add(want)
        player = next(iter(GAME.current_players(state)), None)
        text = GAME.describe_turn(state, player, T)
        assert text and "{" not in text
        assert ("Game over" in text) == (want == "over")
    assert seen >= {"choose_region", "choose_plant", "bid", "buy", "build", "power", "over"}


def test_chat_every_event_has_a_text() -> None:
    kinds: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for n, seed, bots in ((3, 1, None), (4, 2, ["random", "heuristic"] * 2), (2, 3, None)):
        game = play(n, seed, bots)
        for event in game.events:
            kinds.setdefault(event["type"], (game.state, event))
    state = _build_state()
    give_line(state, "a", "Kiel", "Lübeck", "Hamburg")
    give_tp(state, "a", "Hamburg")
    extra = act(state, "a", {"type": "move", "from": 4, "to": 25, "tokens": {"coal": 1}})
    extra += act(state, "a", {"type": "tp", "city": "Lübeck"})
    choose = GAME.setup(["a", "b"], {"regions": "choose"}, 5)
    who = GAME.current_players(choose)[0]
    extra += GAME.apply(choose, who, GAME.legal_actions(choose, who)[0])[1]
    for event in extra:
        kinds.setdefault(event["type"], (state, event))
    expected = {
        "plant_built",
        "line_laid",
        "tp_placed",
        "resources_moved",
        "resources_bought",
        "powered",
        "step_started",
        "final_round",
        "game_over",
        "auction_won",
        "region_chosen",
    }
    assert expected <= set(kinds)
    for kind, (where, event) in kinds.items():
        text = GAME.describe_event(where, event, T)
        if kind == "game_over":  # said once, by the over state's turn text (ALT-44)
            assert text is None
            continue
        assert text and "{" not in text, kind


def test_chat_step2_text_speaks_of_displacement_not_houses() -> None:
    text = GAME.describe_event(new_game(3), {"type": "step_started", "step": 2}, T)
    assert text is not None and "displace" in text and "house" not in text


def test_chat_counted_nouns_use_ngettext() -> None:
    t = CountingTranslator()
    state = new_game(3)
    one = GAME.describe_event(
        state,
        {"type": "powered", "player": "a", "cities": 1, "income": 5, "penalty_bank": 0},
        t,
    )
    assert one == "a powers 1 city and earns 5 E."
    many = GAME.describe_event(
        state,
        {"type": "powered", "player": "a", "cities": 3, "income": 15, "penalty_bank": 0},
        t,
    )
    assert many is not None and "3 cities" in many
    GAME.describe_event(
        state,
        {"type": "plant_built", "player": "a", "plant": 4, "city": "Kiel", "displaced": ["b"]},
        t,
    )
    assert ("The TPs of {players} are displaced.", 1) in t.plurals
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Kiel")
    commands_income = replied(state, "a", "income", [])
    assert "powers 1 city" in commands_income.text


# ------------------------------------------------------------------ buttons


def test_chat_buttons_parse_to_legal_actions() -> None:
    checked = 0
    for state, _events in _game_states():
        for player in GAME.current_players(state):
            for _label, command in GAME.buttons(state, player):
                name, *args = command.lstrip("/").split()
                action = parsed(state, player, name, args)
                trial = copy.deepcopy(state)
                GAME.apply(trial, player, action)  # raises if illegal
                checked += 1
    assert checked > 100


# ------------------------------------------------------------------ picture


def test_render_resource_market_and_last_events_are_drawn() -> None:
    state = _build_state()
    act(state, "a", parsed(state, "a", "line", ["Kiel", "Lübeck"]))
    view = GAME.view(state, None)
    texts = alt_render.log_lines(view)
    assert any("lays a line Kiel – Lübeck" in x for x in texts)
    img = Image.open(io.BytesIO(GAME.render(state, None))).convert("RGB")
    _mp, g = _map_and_geometry("germany")
    below = img.crop((0, g.h, img.width // 2, img.height))
    coal = RESOURCE_COLORS["coal"]
    colors = {c for _n, c in below.getcolors(1 << 20) or []}
    assert any(
        sum(abs(p - q) for p, q in zip(c, coal, strict=True)) < 30
        for c in colors
        if isinstance(c, tuple)
    )


def test_chat_alt21_a_refused_quote_gives_its_reason_in_the_readers_words() -> None:
    """The reason of a refused /cost move or /cost line is worded by the reader's translator,
    not left in English inside a translated sentence (found playing in Russian, 2026-11-29)."""
    state = _build_state()
    bad = GAME.parse(state, "a", "cost", ["move", "1", "coal", "4", "13"], t=Marking())
    assert isinstance(bad, Reply) and not bad.extra["quote"]["ok"]
    quote = bad.extra["quote"]
    assert worded(Marking(), quote["reason_key"], quote["reason_params"]) in bad.text
    assert "«coal»" in bad.text  # the resource too (a `Term`)


def test_alt8_a_refused_cost_plant_gives_its_rule_and_reason_in_the_readers_words() -> None:
    """/cost plant refused (ALT-8: the plant is not in his hand) in the reader's words and with
    its rule, as /cost move and /cost line are (found playing in Polish and Chinese,
    2026-12-04: "Niemożliwe: Plant 3 is not in your hand; your hand is empty.")."""
    state = _build_state()
    bad = GAME.parse(state, "a", "cost", ["plant", "3", "Kiel"], t=Marking())
    assert isinstance(bad, Reply) and bad.private
    # the sentence and the reason's own message both worded by the reader's translator
    assert bad.text.startswith("«Not possible (ALT-8: «Plant 3 is not in your hand; your hand:")


def test_alt46_a_line_between_the_two_halves_of_a_double_city_says_so() -> None:
    """ALT-46: Duisburg and Essen are one city; "/line Essen Duisburg" is refused with that
    reason, not only "A line runs from one city to another." (found playing, 2026-12-04)."""
    state = _build_state()
    with pytest.raises(IllegalAction) as err:
        GAME.parse(state, "a", "line", ["Essen", "Duisburg"], t=EnglishTranslator())
    assert err.value.rule_id == "ALT-46"
    assert err.value.english() == (
        "Essen and Duisburg are one double city; a line runs from one city to another."
    )


def test_pg25_round_one_s_opening_prompt_offers_no_pass() -> None:
    """PG-25 (kept by ALT-9): in round 1 everyone must buy a plant, so /pass on opening an
    auction is refused; the prompt no longer offers it (it still does from round 2)."""
    from engine.core import EnglishTranslator
    from engine.powergrid_alt import GAME as ALT

    state = ALT.setup(["ann", "bob", "cyd"], {}, 5)
    first = ALT.current_players(state)[0]
    text = ALT.describe_turn(state, first, EnglishTranslator())
    assert "open an auction with /bid <plant> (in round 1 everyone must buy a plant)" in text
    assert "/pass" not in text
    state["round"] = 2
    assert "/bid <plant> or /pass" in ALT.describe_turn(state, first, EnglishTranslator())


@pytest.mark.parametrize("lang", ["en", "ru", "pl", "zh_Hant"])
def test_chat_line_reads_via_as_help_prints_it_in_each_language(lang: str) -> None:
    """Found playing (2026-12-02): /help line printed "[przez...]" in Polish, and "/line
    Kolonia Akwizgran przez Düsseldorf" read "przez" as an unknown city."""
    from bot.i18n import tr
    from engine.powergrid_alt.commands import VIA_WORDS

    via = tr(lang, "<via>").strip("<>")
    assert via.casefold() in VIA_WORDS
    state = _build_state()
    english = GAME.parse(state, "a", "line", ["Kiel", "Lübeck", "via", "Flensburg"])
    assert GAME.parse(state, "a", "line", ["Kiel", "Lübeck", via, "Flensburg"]) == english


@pytest.mark.parametrize("lang", ["ru", "pl", "zh_Hant"])
def test_chat_an_upgrade_refusal_names_the_plant_types_in_the_readers_words(lang: str) -> None:
    """Found playing (2026-12-02): "Elektrownia 13 (eco) nie może zastąpić elektrowni 5
    (hybrid)": the plant types came in English inside a Polish refusal."""
    from bot.i18n import explain, tr

    state = _build_state()
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, "a", parsed(state, "a", "upgrade", ["4", "18"]))  # coal -> eco
    text = explain(lang, info.value)
    for kind in ("eco", "coal"):
        assert f"({tr(lang, kind)})" in text or f"（{tr(lang, kind)}）" in text, text


def test_chat_a_second_tp_in_a_city_is_refused_as_a_second_tp() -> None:
    """Found playing (2026-12-02): a TP splits the line it sits on, so a second /tp in the
    same city was refused with "A TP must end a line…" (ALT-D-11): it is ALT-27's."""
    state = _build_state()
    for action in (
        parsed(state, "a", "line", ["Kiel", "Bremen", "via", "Hamburg"]),
        parsed(state, "a", "tp", ["Hamburg"]),
    ):
        state, _ = GAME.apply(state, "a", action)
    illegal(state, "a", parsed(state, "a", "tp", ["Hamburg"]), "ALT-27")


def test_chat_choosing_regions_offers_a_button_per_region_that_may_be_chosen() -> None:
    """Found playing (2026-12-02): with regions=choose the variant's prompt offered no
    region at all (the base game's did, in English in every chat). Each button is the
    region's name in the reader's words, and sends a choice PG-8 accepts."""
    from bot.i18n import tr, translator
    from engine.powergrid import GAME as BASE

    for game in (GAME, BASE):
        state = game.setup(["a", "b"], {"regions": "choose"}, 3)
        for _ in range(2):
            player = game.current_players(state)[0]
            offered = [
                b for b in game.buttons(state, player, translator("pl")) if "/region" in b[1]
            ]
            labels = [label for label, _ in offered]
            assert tr("pl", "East") in labels and "East" not in labels, labels
            for _label, command in offered:
                name, *args = command.lstrip("/").split()
                action = game.parse(state, player, name, args)
                assert isinstance(action, dict)
                game.apply(copy.deepcopy(state), player, action)
            name, *args = offered[0][1].lstrip("/").split()
            action = game.parse(state, player, name, args)
            assert isinstance(action, dict)
            state, _ = game.apply(state, player, action)


def test_the_panel_counts_the_variants_step_2_in_plants_and_tps() -> None:
    """Found playing (2026-12-02): the variant's panel read "Step 2 at 7 cities" (ALT-40
    counts built plants and TPs) and "Cities without power" for the cities not yet covered
    (ALT-43)."""
    from engine.powergrid import GAME as BASE

    class Recording:
        def __init__(self) -> None:
            self.asked: set[str] = set()

        def gettext(self, message: str) -> str:
            self.asked.add(message)
            return message

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            self.asked.add(singular)
            return singular if n == 1 else plural

    for game, label in (
        (GAME, "Step 2 at {step2} plants and TPs"),
        (BASE, "Step 2 at {step2} cities · game ends at {end}"),
    ):
        t = Recording()
        game.render(game.setup(["a", "b", "c"], {}, 2), None, t)
        assert label in t.asked and "Step 2 at {step2} cities" not in t.asked, game.id
    t = Recording()
    GAME.render(GAME.setup(["a", "b", "c"], {}, 2), None, t)
    assert "Cities not covered yet: {n}" in t.asked


def test_chat_alt14_board_names_one_built_plant_in_the_singular() -> None:
    """ "plants 4@Kiel" read wrong with one plant: the line has plural forms (n = plants)."""
    from engine.powergrid_alt.texts import board_text

    state = new_game(3)
    give_plant(state, "a", 13, "Kiel")
    give_plant(state, "b", 14, "Berlin")
    give_plant(state, "b", 15, "Hamburg")
    lines = board_text(state, T).splitlines()
    assert lines[0].startswith("a (") and "): plant 13@Kiel; hand" in lines[0]
    assert "): plants 14@Berlin, 15@Hamburg; hand" in lines[1]
    assert "): plants -; hand" in lines[2]
    t = CountingTranslator()
    state["hidden_money"] = True
    board_text(state, t)  # nobody's money shown: the other sentence, plural forms too
    assert ("{player}: plants {built}; hand {hand}; TPs {tps}.", 1) in t.plurals


# ------------------------------------------------------------------ play-testing fixes


def test_chat_pgd21_the_last_chooser_buys_without_an_auction_line() -> None:
    """ALT-7/ALT-9 keep the base auction: b, whom nobody can bid against, types
    "/bid 4 10" and buys plant 4 for 4 E, with no "puts plant 4 up for auction at 10"."""
    state = new_game(2)
    set_phase(state, "auction", round_=1, order=["a", "b"])
    act(state, "a", parsed(state, "a", "bid", ["3"]))
    act(state, "b", {"type": "pass"})
    events = act(state, "b", parsed(state, "b", "bid", ["4", "10"]))
    assert [e["type"] for e in events][:1] == ["auction_won"]
    assert events[0]["price"] == 4 and events[0]["unopposed"] is True
    assert 4 in state["players"]["b"]["plants"] and state["players"]["b"]["money"] == 71
    line = GAME.describe_event(state, events[0], T)
    assert line == "b buys plant 4 for 4 E; no one else can bid on it (PG-D-21)."


def test_chat_alt8_a_plant_not_in_an_empty_hand_says_the_hand_is_empty() -> None:
    """Found play-testing: "/plant 3 Berlin" sent twice said "...; your hand: -."."""
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    err = illegal(state, "a", parsed(state, "a", "plant", ["3", "Berlin"]), "ALT-8")
    assert err.english() == "Plant 3 is not in your hand; your hand is empty."
    give_hand(state, "a", 10, 18)
    err = illegal(state, "a", parsed(state, "a", "plant", ["3", "Berlin"]), "ALT-8")
    assert err.english() == "Plant 3 is not in your hand; your hand: 10, 18."


def test_chat_alt21_a_refused_cost_move_ends_its_sentence_once() -> None:
    """Found play-testing: "/cost move 1 oil 3 9" before plant 9 was built answered
    "Not possible (ALT-21: Plant 9 is not one of your built plants.)."."""
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 3, "Berlin", oil=1)
    give_hand(state, "a", 9)
    reply = replied(state, "a", "cost", ["move", "1", "oil", "3", "9"])
    assert reply.text == "Not possible (ALT-21: Plant 9 is not one of your built plants)."
    give_plant(state, "a", 4, "Kiel")
    blocked = replied(state, "a", "cost", ["line", "Kiel", "München"])  # a refused line too
    assert not blocked.extra["quote"]["ok"] and ": not possible (ALT-12: " in blocked.text
    assert blocked.text.endswith(" E).") and ".)." not in blocked.text
    zh = GAME.parse(state, "a", "cost", ["move", "1", "oil", "3", "13"], t=translator("zh_Hant"))
    assert isinstance(zh, Reply) and "。）" not in zh.text


def test_chat_alt_d15_too_many_cities_for_a_network_needs_no_plural() -> None:
    """Found play-testing: "That network can power 1 more cities, not 2." A refusal has no
    plural forms (engine/core/errors.py), so the numbers stand as labels."""
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Kiel")  # eco: runs without fuel, powers 1 more city
    give_line(state, "a", "Kiel", "Lübeck")
    give_tp(state, "a", "Lübeck")
    give_line(state, "a", "Lübeck", "Hamburg")
    give_tp(state, "a", "Hamburg")
    action = {"type": "power", "plants": [13], "cities": ["Lübeck", "Hamburg"]}
    err = illegal(state, "a", action, "ALT-D-15")
    assert err.english() == "Cities this network can still power: 1 (your choice needs 2)."


def test_chat_alt21_moving_a_resource_the_source_plant_cannot_store() -> None:
    """Found play-testing: "/move 1 coal 3 9" from oil plant 3 said "Plant 3 holds only 0
    coal."; it cannot store coal at all."""
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 3, "Berlin", oil=2)
    give_plant(state, "a", 4, "Kiel")
    err = illegal(state, "a", parsed(state, "a", "move", ["1", "coal", "3", "4"]), "ALT-21")
    assert err.english() == "Plant 3 cannot store coal."
    err = illegal(state, "a", parsed(state, "a", "move", ["3", "oil", "3", "4"]), "ALT-21")
    assert err.english() == "Plant 3 holds only 2 oil."
