"""The game seam with declared parts (issue 26): every game declares its optional
capabilities, its chat part takes a translator, and bot/ never probes a game object."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from engine.core.game_base import BaseGame
from engine.core.protocol import Capabilities, EnglishTranslator, Game
from engine.powergrid.game import PowerGrid
from engine.powergrid_alt import VARIANTS
from engine.powergrid_alt.game import PowerGridAlt
from engine.registry import games

ROOT = Path(__file__).resolve().parents[3]
GAMES = games()
# The members whose presence the table used to find by reflection; now declared.
OPTIONAL = {"anytime", "describe_private_event", "rules_index", "rules_commands", "default_action"}


class Marking(EnglishTranslator):
    """A translator that marks every word it translates, to see that `t` is used."""

    def gettext(self, message: str) -> str:
        return "»" + message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return "»" + (singular if n == 1 else plural)


def started(game: Game) -> tuple[dict[str, Any], str]:
    state = game.setup(["alice", "bob"], {}, 7)
    return state, game.current_players(state)[0]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_declares_its_capabilities(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, BaseGame)
    assert isinstance(game.capabilities, Capabilities)
    for name in OPTIONAL:
        assert hasattr(game, name), name


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_undeclared_capabilities_are_no_ops(game_id: str) -> None:
    game = GAMES[game_id]
    caps = game.capabilities
    state, player = started(game)
    legal = game.legal_actions(state, player)
    if not caps.standing_orders:
        assert not any(game.anytime(a) for a in legal)
    if not caps.default_move:
        assert game.default_action(state, player) is None
    if not caps.rules_index:
        assert not game.rules_index and not game.rules_commands
    if not caps.private_events:
        event = {"type": "anything", "private_to": player}
        assert game.describe_private_event(state, event, EnglishTranslator()) is None


def test_declared_capabilities_of_the_games() -> None:
    assert GAMES["powergrid"].capabilities == Capabilities(
        standing_orders=True,
        off_turn_commands=frozenset({"bid", "maxbid", "pass", "buy", "build", "power", "cancel"}),
        private_events=True,
        secret_events=frozenset({"order_placed", "orders_cancelled"}),
        rules_index=True,
        default_move=True,
        forced_moves=True,
        simultaneous=True,
        view_speaks=True,
        secret_commands=True,
    )
    assert GAMES["powergrid_alt"].capabilities == Capabilities(
        standing_orders=True,
        off_turn_commands=frozenset({"endgame"}),
        default_move=True,
        private_events=True,
        secret_events=frozenset(
            {"buy_declared", "power_declared", "power_planned", "order_placed", "orders_cancelled"}
        ),
        forced_moves=True,
        simultaneous=True,
        off_turn_reasons=True,
        secret_commands=True,
    )
    iec = GAMES["iec"].capabilities
    assert iec == Capabilities(
        standing_orders=True,
        off_turn_commands=iec.off_turn_commands,
        private_events=True,
        secret_events=frozenset({"tokens_laid", "tech_chosen", "peeked", "declared", "order_set"}),
        forced_moves=True,
        simultaneous=True,
        off_turn_reasons=True,
        secret_commands=True,
    )
    assert {"power", "give", "use", "sweep", "peek"} <= iec.off_turn_commands
    assert not {"lay", "build", "fire", "done"} & iec.off_turn_commands
    assert GAMES["hexania"].capabilities == Capabilities(forced_moves=True, default_move=True)
    assert GAMES["powergrid"].rules_index and not GAMES["powergrid_alt"].rules_index


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_games_buttons_are_worded_through_the_translator(game_id: str) -> None:
    game = GAMES[game_id]
    state, player = started(game)
    english = game.buttons(state, player)
    marked = game.buttons(state, player, t=Marking())
    assert english, "a started game offers at least one button"
    assert [cmd for _, cmd in marked] == [cmd for _, cmd in english]
    worded = [label for label, _ in marked if any(c.isalpha() for c in label.lstrip("»"))]
    assert all("»" in label for label in worded), marked


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_games_parse_takes_a_translator_and_words_do_not_change_moves(game_id: str) -> None:
    game = GAMES[game_id]
    state, player = started(game)
    _, command = game.buttons(state, player)[0]
    name, *args = command.lstrip("/").split()
    plain = game.parse(state, player, name, args)
    assert game.parse(state, player, name, args, t=Marking()) == plain
    actions = plain if isinstance(plain, list) else [plain]
    assert actions and all(isinstance(a, dict) for a in actions)


def test_the_variants_are_listed_and_override_only_named_hooks_of_the_base() -> None:
    assert VARIANTS[0] is PowerGrid and PowerGridAlt in VARIANTS
    assert len({v.id for v in VARIANTS}) == len(VARIANTS)
    base_members = {n for n in dir(PowerGrid) if not n.startswith("__")}
    for variant in VARIANTS[1:]:
        assert issubclass(variant, PowerGrid)
        own = {n for n in vars(variant) if not n.startswith("__")}
        assert own <= base_members, own - base_members


def probes(path: Path) -> list[str]:
    """getattr(<x>, "<optional member>") and inspect.signature calls in one module."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = ast.unparse(node.func)
        if func in ("getattr", "hasattr") and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and name.value in OPTIONAL | {"parse", "buttons"}:
                found.append(ast.unparse(node))
        elif func == "inspect.signature":
            found.append(ast.unparse(node))
    return found


def test_bot_never_probes_a_game_object() -> None:
    found = {
        str(p.relative_to(ROOT)): calls
        for p in sorted((ROOT / "bot").glob("*.py"))
        if (calls := probes(p))
    }
    assert not found, found
