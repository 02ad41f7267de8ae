"""Actions -> the words of the chat command that plays them (the reverse of commands.py's
parsers, CONTRACT.md's actions): what /hint leads with. `commands.command_text` reads the
words back through the parser before offering them. Pure: nothing here reads chat words.
"""

from __future__ import annotations

from engine.core.protocol import Action, State
from engine.powergrid.data import PLANTS
from engine.powergrid.wording import RESOURCES

# /cancel's word -> the kinds of standing order it cancels ([]: all of them)
CANCEL_KINDS: dict[str, list[str]] = {
    "bid": ["maxbid"],
    "maxbid": ["maxbid"],
    "pass": ["pass_plant", "pass_round"],
    "buy": ["buy_auto"],
    "build": ["build_plan"],
    "power": ["power_auto"],
    "all": [],
}


def _hybrid_need(action: Action) -> int:
    """The coal and oil the action's hybrid plants burn in one run, together (PG-42)."""
    return sum(PLANTS[n].cost for n in action.get("plants") or [] if PLANTS[n].type == "hybrid")


def hybrid_fuel(action: Action) -> dict[str, int]:
    """What the hybrids burn as the action says it, both fuels named: one given, the other is
    the rest of their need, as the rules read it (bureaucracy.power_check); none when the
    action leaves the mix to the engine (coal first)."""
    if action.get("coal") is None and action.get("oil") is None:
        return {}
    need = _hybrid_need(action)
    coal = int(action["coal"]) if action.get("coal") is not None else need - int(action["oil"])
    oil = int(action["oil"]) if action.get("oil") is not None else need - coal
    return {"coal": coal, "oil": oil}


def _words_power(action: Action) -> list[str]:
    plants = [str(n) for n in sorted(action.get("plants") or [])]
    if not plants:
        return ["none"]
    return [*plants, *(f"{res}={n}" for res, n in hybrid_fuel(action).items())]


def _words_discard(action: Action) -> list[str]:
    """PG-26/27: the plant, and the tokens kept when the action names them (each resource
    it names, a zero too: an unnamed one would keep as many as fit)."""
    keep = action.get("keep")
    if keep is None:
        return [str(action["plant"])]
    return [str(action["plant"]), "keep", *(f"{keep[r]} {r}" for r in RESOURCES if r in keep)]


def _words_open(action: Action) -> list[str]:
    words = [str(action["plant"])]
    if action["bid"] != action["plant"] or "max" in action:
        words.append(str(action["bid"]))
    return words + ([f"max={action['max']}"] if "max" in action else [])


def _words_raise(state: State, action: Action) -> tuple[str, list[str]]:
    """ "/raise 21"; with a proxy limit (PG-22 max=) only /bid says both: "/bid 13 21 max=25"."""
    if "max" not in action:
        return "raise", [str(action["bid"])]
    return "bid", [str(state["auction"]["plant"]), str(action["bid"]), f"max={action['max']}"]


# the kinds -> the first word that cancels them ("bid" before "maxbid")
_CANCEL_WORDS = {tuple(kinds): word for word, kinds in reversed(CANCEL_KINDS.items())}


def _words_order(action: Action) -> tuple[str, list[str]]:
    """A standing order (PG-O) in the words that place it."""
    kind = action["kind"]
    if kind == "maxbid":
        return "maxbid", [str(action["limit"])]
    if kind == "pass_round":
        return "pass", ["round"]
    if kind == "pass_plant":
        return "pass", ["plant"]
    if kind == "buy_auto":
        limit = action.get("limit")
        return "buy", ["auto", *([f"limit={limit}"] if limit is not None else [])]
    if kind == "build_plan":
        return "build", ["plan", *(action["cities"] or ["none"])]
    if kind == "power_auto":
        return "power", ["auto"]
    raise KeyError(kind)


def command_words(state: State, action: Action) -> tuple[str, list[str]]:
    """The command's name and words for an action of the contract (CONTRACT.md); KeyError
    for a type no command plays."""
    kind = action["type"]
    if kind == "choose_region":
        return "region", [str(action["region"])]
    if kind == "open":
        return "bid", _words_open(action)
    if kind == "raise":
        return _words_raise(state, action)
    if kind in ("pass", "done"):
        return kind, []
    if kind == "discard":
        return "discard", _words_discard(action)
    if kind == "buy":
        return "buy", [str(action["resource"]), str(action["count"])]
    if kind == "build":
        return "build", [str(action["city"])]
    if kind == "power":
        return "power", _words_power(action)
    if kind == "order":
        return _words_order(action)
    if kind == "cancel":
        return "cancel", [_CANCEL_WORDS[tuple(action["kinds"])]] if action["kinds"] else []
    raise KeyError(kind)
