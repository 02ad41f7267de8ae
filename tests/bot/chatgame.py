"""The core tests' dice-pile game with a chat layer, for testing the table service.

Commands: /take n (a move), /again n (take without ending the turn, so `/takes 1 2` can be a
list of actions), /takes n n ... (several actions, all or nothing), /pile (a public quote),
/peek (a private info reply). A die roll of 6 after a take adds a stone and emits a "bonus"
event, which is random information: such a move cannot be undone, and it is a picture event.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core import N_, IllegalAction, ParseError, Reply, Rng, canonical_json
from engine.core.game_base import BaseGame
from engine.core.picture import Picture
from engine.core.protocol import (
    ArgSpec,
    BotFn,
    Capabilities,
    CommandSpec,
    EnglishTranslator,
    OptionSpec,
    Translator,
)
from tests.engine.core.toygame import DicePile

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class ChatDicePile(DicePile, BaseGame):
    id = "dicepile"
    name = "Dice pile"
    options = (
        OptionSpec("start", N_("stones added to the pile at the start"), "10", ("5", "10", "20")),
    )
    commands: tuple[CommandSpec, ...] = (
        CommandSpec("take", N_("Take 1 to 3 stones"), (ArgSpec("n", "int"),), ("/take 2",)),
        CommandSpec(
            "takes",
            N_("Take several times in one turn, all or nothing"),
            (ArgSpec("n", "int", repeated=True),),
            ("/takes 1 2",),
        ),
        CommandSpec("pile", N_("How many stones are left"), kind="quote"),
        CommandSpec("peek", N_("A private look"), kind="info"),
    )
    rules_index = {"TOY-1": "Turn order", "TOY-2": "Taking stones"}
    capabilities = Capabilities(rules_index=True)

    def __init__(self, fail_render: bool = False) -> None:
        self.fail_render = fail_render
        self.bots: dict[str, BotFn] = {"random": self._random_bot, "greedy": self._greedy_bot}

    # --- rules: the toy's, plus {"take": n, "again": true} and setup option "start"
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> dict[str, Any]:
        state = super().setup(players, options, seed)
        state["pile"] += int(options.get("start", "10")) - 10
        return state

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if player not in self.current_players(state):
            raise IllegalAction("TOY-1", N_("It is not your turn."))
        take = action.get("take")
        if (
            not isinstance(take, int)
            or isinstance(take, bool)
            or not 1 <= take <= min(3, state["pile"])
        ):
            raise IllegalAction("TOY-2", N_("Take 1 to {most} stones."), most=min(3, state["pile"]))
        state["pile"] -= take
        if state["pile"] == 0:
            state["winner"] = player
            return state, [{"type": "game_over", "winner": player}]
        events: list[dict[str, Any]] = [{"type": "took", "player": player, "n": take}]
        if Rng(state["rng"]).die() == 6:
            state["pile"] += 1
            events.append({"type": "bonus"})
        if not action.get("again"):
            state["turn"] = (state["turn"] + 1) % len(state["players"])
        return state, events

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        return {"pile": state["pile"], "players": state["players"], "winner": state["winner"]}

    # --- chat layer
    def parse(
        self,
        state: dict[str, Any],
        player: str,
        name: str,
        args: list[str],
        t: Translator | None = None,
    ) -> dict[str, Any] | list[dict[str, Any]] | Reply:
        if name == "pile":
            return Reply(f"{state['pile']} stones left.")
        if name == "peek":
            return Reply(f"Psst {player}: the pile has {state['pile']} stones.", private=True)
        if name not in ("take", "takes"):
            raise ParseError(N_("Unknown command /{name}."), name=name)
        if not args:
            raise ParseError(N_("How many? /{name} <n>"), name=name)
        try:
            numbers = [int(a) for a in args]
        except ValueError:
            raise ParseError(N_("Numbers, please: /{name} 2"), name=name) from None
        if name == "take":
            if len(numbers) != 1:
                raise ParseError(N_("One number: /take 2"))
            return {"take": numbers[0]}
        return [{"take": n, "again": True} for n in numbers[:-1]] + [{"take": numbers[-1]}]

    def describe_turn(self, state: dict[str, Any], player: str | None, t: Translator) -> str:
        if state["winner"] is not None:
            return t.gettext("Game over: {winner} wins.").format(winner=state["winner"])
        who = self.current_players(state)[0]
        return t.gettext("{pile} stones left; {who} takes 1 to 3.").format(
            pile=state["pile"], who=who
        )

    def describe_event(
        self, state: dict[str, Any], event: dict[str, Any], t: Translator
    ) -> str | None:
        if event["type"] == "took":
            return t.gettext("{player} takes {n}.").format(**event)
        if event["type"] == "bonus":
            return t.gettext("The die adds a stone.")
        if event["type"] == "game_over":
            return t.gettext("{winner} takes the last stone!").format(**event)
        return None

    def buttons(
        self, state: dict[str, Any], player: str, t: Translator | None = None
    ) -> list[tuple[str, str]]:
        word = (t or EnglishTranslator()).gettext
        return [(word(f"Take {n}"), f"/take {n}") for n in (1, 2, 3) if n <= state["pile"]]

    def complete(
        self, state: dict[str, Any] | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        if kind == "int":
            return [n for n in ("1", "2", "3") if n.startswith(prefix)]
        return []

    def is_picture_event(self, event: dict[str, Any]) -> bool:
        return event["type"] in ("bonus", "game_over")

    def render(self, state: dict[str, Any], viewer: str | None, t: Any = None) -> bytes:
        if self.fail_render:
            raise RuntimeError("the renderer broke")
        return PNG_MAGIC + canonical_json(self.view(state, viewer)).encode()

    def render_set(
        self, state: dict[str, Any], viewer: str | None, t: Any = None, previous: Any = None
    ) -> list[Picture]:
        return [Picture(self.render(state, viewer, t), "", 1, 1)]

    def undoable(self, events: list[dict[str, Any]]) -> bool:
        return not any(e["type"] == "bonus" for e in events)

    # --- bots
    def _random_bot(self, state: dict[str, Any], player: str, rng: Rng) -> dict[str, Any]:
        return {"take": rng.randint(1, min(3, state["pile"]))}

    def _greedy_bot(self, state: dict[str, Any], player: str, rng: Rng) -> dict[str, Any]:
        return {"take": min(3, state["pile"])}


GAME = ChatDicePile()


class Together(ChatDicePile):
    """Everybody takes once per round, in any order (a simultaneous phase, as Power Grid's
    bureaucracy asks every player at once)."""

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> dict[str, Any]:
        state = super().setup(players, options, seed)
        state["waiting"] = list(players)
        return state

    def current_players(self, state: dict[str, Any]) -> list[str]:
        return [] if state["winner"] is not None else list(state["waiting"])

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if player not in state["waiting"]:
            raise IllegalAction("TOY-1", N_("It is not your turn."))
        take = action.get("take")
        if not isinstance(take, int) or not 1 <= take <= min(3, state["pile"] - 1):
            raise IllegalAction("TOY-2", N_("Take 1 to {most} stones."), most=3)
        state = json.loads(json.dumps(state))
        state["pile"] -= take
        state["waiting"].remove(player)
        if not state["waiting"]:
            state["waiting"] = list(state["players"])
        return state, [{"type": "took", "player": player, "n": take}]

    def describe_turn(self, state: dict[str, Any], player: str | None, t: Any) -> str:
        return f"{state['pile']} stones; everybody takes 1 to 3."
