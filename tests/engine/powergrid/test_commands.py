"""The Power Grid chat layer: grammar, name matching, texts, buttons, autocomplete.

Two kinds of tests: unit tests on hand-made views (VIEW.md shape; `chat_view.view_of` is
patched to return the "state" itself), and tests on real games played with GAME and its bots.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.i18n import tr, translator
from engine.core.errors import IllegalAction, ParseError
from engine.core.protocol import EnglishTranslator, Reply
from engine.powergrid import chat_view, commands, names
from engine.powergrid.turn_text import turn_text

T = EnglishTranslator()


# --------------------------------------------------------------------------------------------
# Hand-made views
# --------------------------------------------------------------------------------------------


def _plant(number: int, kind: str, cost: int, output: int) -> dict[str, Any]:
    return {"number": number, "type": kind, "cost": cost, "output": output}


def _owned(number: int, kind: str, cost: int, output: int, **stored: int) -> dict[str, Any]:
    plant = _plant(number, kind, cost, output)
    plant["stored"] = {r: stored.get(r, 0) for r in commands.RESOURCES}
    return plant


def _player(
    money: int | None = 50,
    plants: list[dict[str, Any]] | None = None,
    cities: list[str] | None = None,
    **resources: int,
) -> dict[str, Any]:
    return {
        "money": money,
        "plants": plants or [],
        "resources": {r: resources.get(r, 0) for r in commands.RESOURCES},
        "cities": cities or [],
        "houses_left": 22 - len(cities or []),
        "bought_plant": False,
        "passed": False,
        "done": False,
        "powered": None,
    }


def _market(counts: dict[str, list[int]]) -> dict[str, list[dict[str, int]]]:
    spaces = {"coal": 8, "oil": 8, "garbage": 8}
    out: dict[str, list[dict[str, int]]] = {}
    for res, n in spaces.items():
        out[res] = [
            {"price": p + 1, "count": counts.get(res, [3] * n)[p], "slots": 3} for p in range(n)
        ]
    uranium_prices = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16]
    u_counts = counts.get("uranium", [0] * 10 + [1, 1])
    out["uranium"] = [
        {"price": p, "count": c, "slots": 1} for p, c in zip(uranium_prices, u_counts)
    ]
    return out


def make_view(**over: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "powergrid",
        "map": "germany",
        "round": 2,
        "step": 1,
        "step3_pending": False,
        "phase": "auction",
        "regions_in_play": ["NW", "NE", "W", "SW"],
        "seat_order": ["alice", "bob", "carol"],
        "player_order": ["bob", "alice", "carol"],
        "current_players": ["bob"],
        "expected": "choose_plant",
        "players": {
            "alice": _player(
                34,
                [_owned(4, "coal", 2, 1, coal=2), _owned(7, "oil", 3, 2, oil=3)],
                ["Berlin", "Magdeburg"],
                coal=2,
                oil=3,
            ),
            "bob": _player(40, [_owned(13, "eco", 0, 1)], ["Hamburg"]),
            "carol": _player(
                12,
                [_owned(5, "hybrid", 2, 1, coal=1, oil=1), _owned(10, "coal", 2, 2, coal=2)],
                ["Köln", "Düsseldorf", "Essen"],
                coal=3,
                oil=1,
            ),
        },
        "cities": {"Berlin": ["alice"], "Magdeburg": ["alice"], "Hamburg": ["bob"]},
        "slots_open": 1,
        "plant_market": {
            "current": [
                _plant(3, "oil", 2, 1),
                _plant(6, "garbage", 1, 1),
                _plant(8, "coal", 3, 2),
                _plant(9, "oil", 1, 1),
            ],
            "future": [
                _plant(11, "uranium", 1, 2),
                _plant(12, "hybrid", 2, 2),
                _plant(14, "garbage", 2, 2),
                _plant(15, "coal", 2, 3),
            ],
            "step3_card": False,
        },
        "deck_size": 21,
        "resource_market": _market({}),
        "supply": {"coal": 0, "oil": 6, "garbage": 18, "uranium": 10},
        "auction": None,
        "pending_discard": None,
        "thresholds": {"step2": 7, "end": 17, "max_plants": 3},
        "log": [],
        "ranking": None,
    }
    view.update(over)
    return view


def auction_view(**over: Any) -> dict[str, Any]:
    base = {
        "expected": "bid",
        "current_players": ["bob"],
        "auction": {
            "plant": _plant(8, "coal", 3, 2),
            "high_bid": 15,
            "leader": "alice",
            "bidders": ["bob", "carol"],
            "turn": "bob",
        },
    }
    base.update(over)
    return make_view(**base)


@pytest.fixture
def as_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let hand-made views stand in for states: the chat layer reads states via view_of."""
    monkeypatch.setattr(chat_view, "view_of", lambda state, player: state)


# --------------------------------------------------------------------------------------------
# Name matching (names.py)
# --------------------------------------------------------------------------------------------

GERMANY = [
    "Flensburg", "Kiel", "Hamburg", "Düsseldorf", "Duisburg", "Dortmund", "Frankfurt-Main",
    "Frankfurt-Oder", "Freiburg", "München", "Münster", "Köln", "Kassel", "Saarbrücken",
    "Essen", "Halle",
]  # fmt: skip
USA = ["New York", "New Orleans", "Salt Lake City", "Kansas City", "Oklahoma City", "St. Louis"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("dussel", "Düsseldorf"),
        ("Düsseldorf", "Düsseldorf"),
        ("DUESSELDORF", "Düsseldorf"),
        ("duess", "Düsseldorf"),
        ("koln", "Köln"),
        ("koeln", "Köln"),
        ("frankfurt-m", "Frankfurt-Main"),
        ("frankfurt main", "Frankfurt-Main"),
        ("Frankfurt (Main)", "Frankfurt-Main"),
        ("frankfurtm", "Frankfurt-Main"),
        ("frankfurt/o", "Frankfurt-Oder"),
        ("oder", "Frankfurt-Oder"),
        ("saarbrucken", "Saarbrücken"),
        ("muns", "Münster"),
        ("essen", "Essen"),
    ],
)
def test_city_names_match_prefixes_case_and_accents(query: str, expected: str) -> None:
    assert names.match(query, GERMANY).unique == expected


def test_ambiguous_prefix_lists_every_candidate() -> None:
    found = names.match("frankfurt", GERMANY)
    assert found.unique is None
    assert found.names == ("Frankfurt-Main", "Frankfurt-Oder")
    assert names.match("d", GERMANY).names == ("Dortmund", "Duisburg", "Düsseldorf")


def test_exact_name_beats_longer_names_it_starts() -> None:
    assert names.match("Essen", [*GERMANY, "Essenbach"]).unique == "Essen"


def test_unknown_name_matches_nothing() -> None:
    found = names.match("paris", GERMANY)
    assert found.names == () and found.tier == 0


def test_multi_word_names_are_read_greedily_from_split_words() -> None:
    parts = names.split_names(["new", "york", "salt", "lake", "city", "kansas", "city"], USA)
    assert [p.match.unique for p in parts] == ["New York", "Salt Lake City", "Kansas City"]
    parts = names.split_names(["st.", "louis", "new", "orl"], USA)
    assert [p.match.unique for p in parts] == ["St. Louis", "New Orleans"]


def test_split_names_keeps_ambiguous_and_unknown_runs() -> None:
    parts = names.split_names(["new", "paris", "kiel"], [*USA, "Kiel"])
    assert parts[0].match.names == ("New Orleans", "New York")
    assert parts[1].text == "paris" and parts[1].match.names == ()
    assert parts[2].match.unique == "Kiel"


def test_a_later_word_does_not_glue_two_cities_together() -> None:
    # "halle oder" is Halle then Frankfurt-Oder, not one name.
    parts = names.split_names(["halle", "oder"], GERMANY)
    assert [p.match.unique for p in parts] == ["Halle", "Frankfurt-Oder"]


def test_prefixed_completes_best_first_and_limits() -> None:
    assert names.prefixed("mün", GERMANY) == ["München", "Münster"]
    assert names.prefixed("", GERMANY, limit=3) == ["Dortmund", "Duisburg", "Düsseldorf"]
    assert names.prefixed("ode", GERMANY) == ["Frankfurt-Oder"]


def test_words_normalise_punctuation_and_scripts() -> None:
    assert names.words("Frankfurt (Oder)") == ["frankfurt", "oder"]
    assert names.words("Straße") == ["strasse"]
    assert names.words("Уголь") == ["уголь"]


# --------------------------------------------------------------------------------------------
# The command table
# --------------------------------------------------------------------------------------------


def test_every_command_has_help_examples_usage_and_a_parser() -> None:
    seen = set()
    for spec in commands.COMMANDS:
        assert spec.name not in seen
        seen.add(spec.name)
        assert spec.help and spec.examples, spec.name
        assert spec.name in commands.USAGE
        assert spec.kind in ("move", "quote")
        for example in spec.examples:
            assert example.split()[0] == f"/{spec.name}"
        for arg in spec.args:
            assert arg.kind in ("plant", "int", "resource", "city", "region", "rest", "choice"), arg
            assert arg.help
    assert seen == set(commands.TABLE.handlers)
    quotes = {c.name for c in commands.COMMANDS if c.kind == "quote"}
    assert quotes == {"cost", "price", "income", "market", "plants", "orders"}  # + issue 12


def test_options_are_exported() -> None:
    assert {o.key for o in commands.OPTIONS} >= {"map", "regions"}


# --------------------------------------------------------------------------------------------
# parse on hand-made views
# --------------------------------------------------------------------------------------------


def p(view: dict[str, Any], player: str, text: str) -> Any:
    name, *args = text.split()
    return commands.parse(view, player, name.lstrip("/"), args)


@pytest.mark.usefixtures("as_view")
class TestParse:
    def test_bid_opens_an_auction_with_the_plant_number_as_default(self) -> None:
        view = make_view()
        assert p(view, "bob", "/bid 8 12") == {"type": "open", "plant": 8, "bid": 12}
        assert p(view, "bob", "/bid 8") == {"type": "open", "plant": 8, "bid": 8}
        assert p(view, "bob", "/bid #6 +2") == {"type": "open", "plant": 6, "bid": 8}

    def test_bid_on_a_plant_outside_the_current_market_is_refused(self) -> None:
        with pytest.raises(IllegalAction) as err:
            p(make_view(), "bob", "/bid 12 20")
        assert err.value.rule_id == "PG-20"
        assert "3, 6, 8, 9" in err.value.english()

    def test_bid_during_an_auction_raises(self) -> None:
        view = auction_view()
        assert p(view, "bob", "/bid 8 20") == {"type": "raise", "bid": 20}
        assert p(view, "bob", "/bid 21") == {"type": "raise", "bid": 21}
        assert p(view, "bob", "/bid +3") == {"type": "raise", "bid": 18}
        assert p(view, "bob", "/bid 8") == {"type": "raise", "bid": 16}  # the plant: +1
        with pytest.raises(IllegalAction) as err:
            p(view, "bob", "/bid 9 20")
        assert err.value.rule_id == "PG-21"

    def test_raise_absolute_relative_and_default(self) -> None:
        view = auction_view()
        assert p(view, "bob", "/raise 21") == {"type": "raise", "bid": 21}
        assert p(view, "bob", "/raise +5") == {"type": "raise", "bid": 20}
        assert commands.parse(view, "bob", "raise", []) == {"type": "raise", "bid": 16}

    def test_raise_without_an_auction_is_refused(self) -> None:
        with pytest.raises(IllegalAction) as err:
            p(make_view(), "bob", "/raise 20")
        assert err.value.rule_id == "PG-21"

    @pytest.mark.parametrize("text", ["/raise lots", "/raise 1 2", "/raise +x", "/bid", "/bid x"])
    def test_malformed_numbers_give_the_usage(self, text: str) -> None:
        with pytest.raises(ParseError) as err:
            p(auction_view() if "raise" in text else make_view(), "bob", text)
        assert err.value.rule_id == "syntax"
        assert err.value.english().startswith("Usage: /")
        assert "\n" not in err.value.english()

    def test_pass_done_and_their_stray_arguments(self) -> None:
        assert p(make_view(), "bob", "/pass") == {"type": "pass"}
        assert p(make_view(), "bob", "/done") == {"type": "done"}
        with pytest.raises(ParseError):
            p(make_view(), "bob", "/pass now")
        with pytest.raises(ParseError):
            p(make_view(), "bob", "/done 3")

    def test_discard_only_own_plants(self) -> None:
        assert p(make_view(), "alice", "/discard 4") == {"type": "discard", "plant": 4}
        with pytest.raises(ParseError) as err:
            p(make_view(), "alice", "/discard 13")
        assert "4, 7" in err.value.english()

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("/buy coal 3", [("coal", 3)]),
            ("/buy c 3", [("coal", 3)]),
            ("/buy 3 coal", [("coal", 3)]),
            ("/buy coal=3", [("coal", 3)]),
            ("/buy c3 o2", [("coal", 3), ("oil", 2)]),
            ("/buy coal 3 oil 2", [("coal", 3), ("oil", 2)]),
            ("/buy Trash 2 ur 1", [("garbage", 2), ("uranium", 1)]),
            ("/buy g", [("garbage", 1)]),
            ("/buy coal 1 coal 2", [("coal", 3)]),
            ("/buy Kohle 2", [("coal", 2)]),
            ("/buy уголь 2", [("coal", 2)]),
        ],
    )
    def test_buy_reads_resource_count_pairs(
        self, text: str, expected: list[tuple[str, int]]
    ) -> None:
        got = p(make_view(), "alice", text)
        actions = got if isinstance(got, list) else [got]
        assert [(a["type"], a["resource"], a["count"]) for a in actions] == [
            ("buy", r, n) for r, n in expected
        ]

    @pytest.mark.parametrize("text", ["/buy", "/buy 3", "/buy coal oil 2 3 4", "/buy gold 2"])
    def test_buy_errors(self, text: str) -> None:
        with pytest.raises(ParseError):
            p(make_view(), "alice", text)

    @pytest.mark.parametrize(
        ("text", "word"),
        [
            ("/buy oil -1", "-1"),
            ("/buy oil 1.5", "1.5"),
            ("/buy oil 1,5", "1,5"),
            ("/buy oil 0", "0"),
            ("/buy -2 coal", "-2"),
            ("/buy oil=-1", "-1"),
            ("/buy o-1", "-1"),
            ("/buy c1.5", "1.5"),
            ("/buy coal 2 oil -3", "-3"),
            ("/price oil -1", "-1"),
            ("/price coal 0", "0"),
        ],
    )
    def test_pg31_a_bad_count_is_refused_as_a_count(self, text: str, word: str) -> None:
        """Found play-testing: "/buy oil -1" answered "Name a resource", "/buy oil 1.5"
        'Unknown resource ".5"', and "/buy oil=-1" bought 1 oil."""
        with pytest.raises(ParseError) as err:
            p(make_view(), "alice", text)
        assert err.value.english() == (
            f'"{word}" is not a count: give a whole number of at least 1.'
        )

    def test_pg27_the_tokens_kept_may_be_none_of_one_but_not_fewer(self) -> None:
        view = make_view()
        assert p(view, "alice", "/discard 4 keep 0 coal 3 oil")["keep"] == {"coal": 0, "oil": 3}
        with pytest.raises(ParseError) as err:
            p(view, "alice", "/discard 4 keep -1 coal")
        assert err.value.english() == '"-1" is not a count: give a whole number of at least 0.'

    def test_pg21_a_limit_with_no_auction_running_says_so(self) -> None:
        """Found play-testing: "/bid 5 max=20" off turn with nothing auctioned said "A limit
        can be set only on the plant being auctioned (-)." """
        with pytest.raises(IllegalAction) as err:
            p(make_view(), "alice", "/bid 8 max=20")
        assert err.value.rule_id == "PG-21"
        assert err.value.english() == "No plant is being auctioned now."
        with pytest.raises(IllegalAction) as err:
            p(auction_view(), "carol", "/bid 9 max=20")
        assert err.value.english() == "A limit can be set only on the plant being auctioned (8)."

    @pytest.mark.parametrize("lang", ["ru", "pl", "zh_Hant"])
    def test_buy_reads_each_resource_as_the_readers_prompts_print_it(self, lang: str) -> None:
        """Found playing (2026-12-02): the Chinese prompts print coal as 燃煤 and garbage as
        廢物, and /buy 燃煤 2 was an unknown resource."""
        for resource in ("coal", "oil", "garbage", "uranium"):
            word = tr(lang, resource)
            assert commands.resource_of(word) == resource, (lang, word)
            assert p(make_view(), "alice", f"/buy {word} 2") == {
                "type": "buy",
                "resource": resource,
                "count": 2,
            }

    @pytest.mark.parametrize(
        ("buyer", "fuel"), [("alice", "coal"), ("bob", "coal"), ("carol", "coal"), ("dan", "oil")]
    )
    def test_the_buy_prompts_example_is_a_fuel_the_buyers_plants_burn(
        self, buyer: str, fuel: str
    ) -> None:
        """Found playing (2026-12-02): "e.g. /buy coal 2" to a player whose one plant burns
        oil; the example now takes his first burning plant's fuel (a hybrid's: coal; none:
        coal), in the reader's word."""
        view = make_view(phase="resources", expected="buy", current_players=[buyer])
        view["players"]["dan"] = _player(20, [_owned(9, "oil", 1, 1)], [])
        assert f"e.g. /buy {fuel} 2 (/price {fuel} 2 " in turn_text(view, None, EnglishTranslator())
        polish = turn_text(view, None, translator("pl"))
        word = {"coal": "węgiel", "oil": "ropa"}[fuel]
        assert f"/buy {word} 2" in polish and commands.resource_of(word) == fuel

    def test_ambiguous_resource_prefix_names_the_candidates(self) -> None:
        with pytest.raises(ParseError) as err:
            commands.resource_of("")
        assert "coal" in err.value.english()

    def test_build_one_and_several_cities(self) -> None:
        view = make_view(phase="build", expected="build")
        assert p(view, "alice", "/build hamb") == {"type": "build", "city": "Hamburg"}
        assert p(view, "alice", "/build dussel ESSEN kiel") == [
            {"type": "build", "city": "Düsseldorf"},
            {"type": "build", "city": "Essen"},
            {"type": "build", "city": "Kiel"},
        ]

    def test_build_the_two_frankfurts(self) -> None:
        view = make_view(regions_in_play=["NE", "SW", "W", "E"])
        assert p(view, "alice", "/build frankfurt-m") == {"type": "build", "city": "Frankfurt-Main"}
        assert p(view, "alice", "/build Frankfurt (Oder)") == {
            "type": "build",
            "city": "Frankfurt-Oder",
        }
        assert p(view, "alice", "/build frankfurt main berlin") == [
            {"type": "build", "city": "Frankfurt-Main"},
            {"type": "build", "city": "Berlin"},
        ]
        with pytest.raises(ParseError) as err:
            p(view, "alice", "/build frankfurt")
        assert "Frankfurt-Main" in err.value.english()
        assert "Frankfurt-Oder" in err.value.english()

    def test_only_one_frankfurt_in_play_makes_the_prefix_unique(self) -> None:
        view = make_view(regions_in_play=["NE", "NW", "W"])
        assert p(view, "alice", "/build frankfurt") == {"type": "build", "city": "Frankfurt-Oder"}

    def test_city_outside_the_play_area_is_pg8(self) -> None:
        with pytest.raises(IllegalAction) as err:
            p(make_view(regions_in_play=["NW", "NE", "W"]), "alice", "/build München")
        assert err.value.rule_id == "PG-8"
        assert "München" in err.value.english()

    def test_unknown_city_lists_what_is_accepted(self) -> None:
        with pytest.raises(ParseError) as err:
            p(make_view(), "alice", "/build Paris")
        text = err.value.english()
        assert "Paris" in text and "Aachen" in text

    def test_building_twice_in_one_city_is_refused(self) -> None:
        with pytest.raises(IllegalAction) as err:
            p(make_view(), "alice", "/build kiel kiel")
        assert err.value.rule_id == "PG-38"

    def test_build_multi_word_cities_on_the_usa_map(self) -> None:
        view = make_view(map="usa", regions_in_play=["brown", "yellow", "red", "cyan"])
        assert p(view, "alice", "/build new york salt lake city st louis") == [
            {"type": "build", "city": "New York"},
            {"type": "build", "city": "Salt Lake City"},
            {"type": "build", "city": "St. Louis"},
        ]

    def test_region_by_id_or_name(self) -> None:
        view = make_view(phase="regions", expected="choose_region")
        assert p(view, "bob", "/region NW") == {"type": "choose_region", "region": "NW"}
        assert p(view, "bob", "/region north-west") == {"type": "choose_region", "region": "NW"}
        assert p(view, "bob", "/region west") == {"type": "choose_region", "region": "W"}
        assert p(view, "bob", "/region SOUTH EAST") == {"type": "choose_region", "region": "SE"}
        with pytest.raises(ParseError) as err:
            p(view, "bob", "/region north")
        assert "NE" in err.value.english() and "NW" in err.value.english()
        with pytest.raises(ParseError) as err:
            p(view, "bob", "/region atlantis")
        # as the prompt names them (PG-8): the id and the name, which /region both reads
        assert "NW (North-West)" in err.value.english()

    def test_power_named_plants_and_hybrid_fuel(self) -> None:
        view = make_view(phase="bureaucracy", expected="power", current_players=["carol"])
        assert p(view, "carol", "/power 10") == {"type": "power", "plants": [10]}
        assert p(view, "carol", "/power 10 5 coal=1 oil=1") == {
            "type": "power",
            "plants": [5, 10],
            "coal": 1,
            "oil": 1,
        }
        assert p(view, "carol", "/power 5 oil 1 c 1") == {
            "type": "power",
            "plants": [5],
            "coal": 1,
            "oil": 1,
        }
        assert p(view, "carol", "/power none") == {"type": "power", "plants": []}
        for bad in (
            "/power 13",
            "/power 5 5",
            "/power garbage=1 5",
            "/power coal=1",
            "/power 5 oil",
        ):
            with pytest.raises(ParseError):
                p(view, "carol", bad)

    def test_power_without_plants_powers_the_most_cities_cheapest(self) -> None:
        view = make_view(phase="bureaucracy", expected="power")
        # carol: 3 cities, plant 5 (hybrid 2->1) and 10 (coal 2->2), 3 coal + 1 oil.
        # Both plants: 3 cities; plant 10 takes 2 coal, the hybrid burns the cheaper fuel.
        action = p(view, "carol", "/power")
        assert action["plants"] == [5, 10]
        assert action["coal"] + action["oil"] == 2
        # alice: 2 cities, plants 4 (coal 2->1) and 7 (oil 3->2): 7 alone powers both.
        assert p(view, "alice", "/power") == {"type": "power", "plants": [7]}
        # bob: eco plant, one city.
        assert p(view, "bob", "/power") == {"type": "power", "plants": [13]}

    def test_best_power_prefers_cheaper_fuel_for_hybrids(self) -> None:
        market = _market({"coal": [0, 0, 0, 0, 0, 0, 3, 3], "oil": [3] * 8})
        view = make_view(resource_market=market)
        view["players"]["carol"]["resources"] = {"coal": 4, "oil": 2, "garbage": 0, "uranium": 0}
        plants, coal, oil, powered = commands.best_power(view, "carol")
        assert (plants, powered) == ([5, 10], 3)
        assert (coal, oil) == (0, 2)  # coal costs 7 now, oil 1: burn the oil

    def test_best_power_with_nothing_to_run(self) -> None:
        view = make_view()
        view["players"]["alice"]["resources"] = {r: 0 for r in commands.RESOURCES}
        assert commands.best_power(view, "alice") == ([], 0, 0, 0)

    def test_market_and_plants_quotes(self) -> None:
        view = make_view()
        market = p(view, "bob", "/market")
        assert isinstance(market, Reply)
        assert "3 oil 2→1" in market.text and "Future plants: 11 uranium 1→2" in market.text
        assert "coal: 3 at 1, 3 at 2" in market.text and "21 plants left" in market.text
        plants = p(view, "bob", "/plants")
        assert isinstance(plants, Reply)
        lines = plants.text.splitlines()
        assert lines[0].startswith("bob (40 E, 1 city): 13 eco →1")
        assert "2 coal, 3 oil" in lines[1]

    def test_hidden_money_shows_a_question_mark(self) -> None:
        view = make_view()
        view["players"]["bob"]["money"] = None
        assert p(view, "alice", "/plants").text.splitlines()[0].startswith("bob (?, 1 city)")

    def test_unknown_command(self) -> None:
        with pytest.raises(ParseError) as err:
            commands.parse(make_view(), "bob", "fly", [])
        assert "/bid" in err.value.english()

    def test_command_name_may_carry_a_slash_and_capitals(self) -> None:
        assert commands.parse(make_view(), "bob", "/PASS", []) == {"type": "pass"}

    def test_parse_never_changes_the_view(self) -> None:
        view = auction_view()
        before = copy.deepcopy(view)
        for text in ("/bid 8 20", "/raise +2", "/buy c 2", "/build kiel", "/power", "/market"):
            p(view, "bob", text)
        assert view == before


# --------------------------------------------------------------------------------------------
# Texts on hand-made views
# --------------------------------------------------------------------------------------------


def test_turn_text_for_an_auction_names_bidder_plant_and_bid() -> None:
    text = commands.turn_text(auction_view(), "bob", T)
    assert "Round 2, step 1: auction (phase 2)." in text
    assert "bob: your bid on plant 8 coal 3→2, at 15 now (alice) — /raise <amount> or /pass" in text
    assert "You have 40 E" in text


def test_turn_text_for_each_expectation() -> None:
    cases = {
        "choose_region": ("regions", "/region"),
        "choose_plant": ("auction", "/bid <plant>"),
        "discard": ("auction", "/discard"),
        "buy": ("resources", "/buy <resource>"),
        "build": ("build", "/build <city>"),
        "power": ("bureaucracy", "/power"),
    }
    for expected, (phase, hint) in cases.items():
        view = make_view(phase=phase, expected=expected, current_players=["alice"])
        if expected == "discard":
            view["pending_discard"] = "alice"
        text = commands.turn_text(view, None, T)
        assert "alice" in text and hint in text, (expected, text)
        assert len(text) <= commands.MAX_TURN_TEXT


def test_turn_text_in_round_one_says_everyone_must_buy() -> None:
    text = commands.turn_text(make_view(round=1), None, T)
    assert "must buy" in text and "/pass" not in text


def test_turn_text_when_over_ranks_players() -> None:
    view = make_view(
        phase="over", expected="", current_players=[], ranking=[["carol"], ["alice", "bob"]]
    )
    for name, powered in (("alice", 2), ("bob", 1), ("carol", 3)):
        view["players"][name]["powered"] = powered
    text = commands.turn_text(view, None, T)
    assert "1. carol (3 cities powered, 12 E); 2. alice" in text
    assert "2. bob (1 city powered, 40 E)" in text


SAMPLE_EVENTS: list[dict[str, Any]] = [
    {"type": "round_started"},
    {"type": "phase_started", "phase": "auction"},
    {"type": "phase_ended", "phase": "build"},
    {"type": "regions_chosen", "regions": ["NW", "NE"]},
    {"type": "player_order", "order": ["bob", "alice"]},
    {"type": "auction_opened", "player": "bob", "plant": 13, "bid": 13},
    {"type": "bid", "player": "alice", "bid": 15},
    {"type": "passed", "player": "carol", "plant": 13},
    {"type": "passed", "player": "carol"},
    {"type": "auction_won", "player": "bob", "plant": 13, "price": 19},
    {"type": "plant_discarded", "player": "bob", "plant": 4},
    {"type": "plant_drawn", "plant": 23},
    {"type": "plant_removed", "plant": 5},
    {"type": "resources_bought", "player": "alice", "resource": "coal", "count": 3, "price": 5},
    {"type": "city_built", "player": "alice", "city": "Berlin", "cost": 10},
    {"type": "powered", "player": "alice", "cities": 3, "income": 44},
    {"type": "step_started", "step": 2},
    {"type": "step_started", "step": 3},
    {"type": "step3_card_drawn"},
    {"type": "market_restocked", "added": {"coal": 4, "oil": 2}},
    {"type": "bought_nothing", "player": "alice", "by_order": True},
]


@pytest.mark.parametrize("event", SAMPLE_EVENTS, ids=lambda e: e["type"])
def test_every_event_type_has_a_line(event: dict[str, Any]) -> None:
    text = commands.describe_event({}, {**event, "round": 3}, T)
    assert text and "\n" not in text and "{" not in text


def test_event_lines_carry_the_facts() -> None:
    def line(event: dict[str, Any]) -> str:
        return commands.describe_event({}, event, T) or ""

    assert line(SAMPLE_EVENTS[9]) == "bob buys plant 13 for 19 E."
    assert line(SAMPLE_EVENTS[13]) == "alice buys 3 coal for 5 E."
    assert line(SAMPLE_EVENTS[14]) == "alice builds in Berlin for 10 E."
    assert line(SAMPLE_EVENTS[15]) == "alice powers 3 cities and earns 44 E."
    assert line({"type": "powered", "player": "x", "cities": 1, "income": None}) == (
        "x powers 1 city."
    )
    assert line(SAMPLE_EVENTS[19]) == "The resource market is restocked: 4 coal, 2 oil."
    # PG-43: a resource whose market was full (or supply empty) is not listed ("+0 coal")
    restock = {"type": "market_restocked", "added": {"coal": 0, "oil": 2, "garbage": 1}}
    assert line(restock) == "The resource market is restocked: 2 oil, 1 garbage."
    # as /log reads it back (its events' keys sorted): the rules' order all the same
    stored = {"type": "market_restocked", "added": {"coal": 2, "garbage": 1, "oil": 2}}
    assert line(stored) == "The resource market is restocked: 2 coal, 2 oil, 1 garbage."
    assert commands.describe_event({}, {"type": "no_such_event"}, T) is None


def test_every_contract_event_type_is_covered() -> None:
    contract = {
        "round_started", "phase_started", "phase_ended", "regions_chosen", "player_order",
        "region_chosen", "auction_opened", "bid", "passed", "auction_won", "plant_discarded",
        "plant_drawn", "plant_removed", "resources_bought", "city_built", "powered", "step_started",
        "step3_card_drawn", "market_restocked", "game_over",
        # issue 12: simultaneous Phase 5 and standing orders
        "power_declared", "order_placed", "order_dropped", "orders_cancelled",
        # issue 20: a buy_auto order with nothing to buy
        "bought_nothing",
    }  # fmt: skip
    assert contract == set(commands.EVENT_TYPES)


def test_picture_events() -> None:
    assert commands.is_picture_event({"type": "phase_ended", "phase": "auction"})
    assert commands.is_picture_event({"type": "step_started", "step": 2})
    # PG-8: the players' region choice ends a phase of its own (no phase_ended says so)
    assert commands.is_picture_event({"type": "regions_chosen", "regions": ["NW", "NE"]})
    assert commands.is_picture_event({"type": "game_over", "ranking": []})
    assert not commands.is_picture_event({"type": "city_built"})


def test_undoable_unless_a_card_was_revealed() -> None:
    assert commands.undoable([{"type": "bid"}, {"type": "passed"}])
    assert commands.undoable([])
    assert not commands.undoable([{"type": "auction_won"}, {"type": "plant_drawn", "plant": 20}])
    assert not commands.undoable([{"type": "step3_card_drawn"}])


# --------------------------------------------------------------------------------------------
# Buttons and autocomplete on hand-made views
# --------------------------------------------------------------------------------------------


@pytest.mark.usefixtures("as_view")
class TestButtonsAndComplete:
    def test_auction_buttons_raise_by_1_5_10_within_money_and_pass(self) -> None:
        view = auction_view()
        view["players"]["bob"]["money"] = 22
        assert commands.buttons(view, "bob") == [
            ("+1 → 16", "/raise 16"),
            ("+5 → 20", "/raise 20"),
            ("Pass", "/pass"),
        ]
        assert commands.buttons(view, "alice") == []

    def test_choosing_buttons_offer_affordable_plants(self) -> None:
        view = make_view()
        view["players"]["bob"]["money"] = 8
        got = commands.buttons(view, "bob")
        assert [cmd for _, cmd in got] == ["/bid 3", "/bid 6", "/bid 8", "/pass"]
        assert [cmd for _, cmd in commands.buttons(make_view(round=1), "bob")][-1] == "/bid 9"

    def test_phase_buttons(self) -> None:
        for expected, command in (("buy", "/done"), ("build", "/done"), ("power", "/power")):
            view = make_view(expected=expected, current_players=["alice"])
            assert [c for _, c in commands.buttons(view, "alice")] == [command]
        view = make_view(expected="discard", current_players=["alice"], pending_discard="alice")
        view["players"]["alice"]["plants"].append(_owned(15, "coal", 2, 3))
        view["log"] = [{"type": "auction_won", "player": "alice", "plant": 15, "price": 15}]
        assert [c for _, c in commands.buttons(view, "alice")] == ["/discard 4", "/discard 7"]
        view = make_view(phase="regions", expected="choose_region", current_players=["alice"])
        assert ("North-West", "/region NW") in commands.buttons(view, "alice")

    def test_button_commands_are_short_and_parse(self) -> None:
        views = [
            auction_view(),
            make_view(),
            make_view(expected="power", phase="bureaucracy", current_players=["bob"]),
            make_view(phase="regions", expected="choose_region"),
        ]
        for view in views:
            for _, command in commands.buttons(view, "bob"):
                assert len(command.encode()) <= 32
                name, *args = command.split()
                assert isinstance(commands.parse(view, "bob", name, args), dict)

    def test_complete_cities_plants_resources_regions(self) -> None:
        view = make_view()
        assert commands.complete(view, "alice", "city", "dü") == ["Duisburg", "Düsseldorf"]
        assert commands.complete(view, "alice", "city", "DÜS") == ["Düsseldorf"]
        assert commands.complete(view, "alice", "city", "mün") == ["Münster"]  # München: SE
        assert len(commands.complete(view, "alice", "city", "")) == 25
        assert commands.complete(view, "alice", "plant", "") == ["3", "6", "8", "9", "4", "7"]
        assert commands.complete(auction_view(), "bob", "plant", "1") == ["13"]
        assert commands.complete(view, None, "resource", "") == list(commands.RESOURCES)
        assert commands.complete(view, None, "resource", "u") == ["uranium"]
        assert commands.complete(view, None, "resource", "tr") == ["garbage"]
        assert commands.complete(view, None, "region", "north") == ["North-East", "North-West"]
        assert commands.complete(view, None, "region", "sw") == ["South-West"]
        assert commands.complete(view, None, "nonsense", "") == []

    def test_complete_without_a_game_still_knows_cities_and_resources(self) -> None:
        assert "New York" in commands.complete(None, None, "city", "new")
        assert commands.complete(None, None, "city", "dussel") == ["Düsseldorf"]
        assert commands.complete(None, None, "plant", "") == []
