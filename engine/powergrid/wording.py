"""Words for the values of Power Grid (money, resources, plants, phases), shared by the chat
texts: English templates marked for translation, read through a Translator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import N_, Worded
from engine.core.protocol import Translator
from engine.core.sentences import Listed, join_list

RESOURCES = ("coal", "oil", "garbage", "uranium")
HYBRID_FUELS = ("coal", "oil")

RESOURCE_NAMES = {
    "coal": N_("coal"),
    "oil": N_("oil"),
    "garbage": N_("garbage"),
    "uranium": N_("uranium"),
}
PLANT_TYPES = {
    "coal": N_("coal"),
    "oil": N_("oil"),
    "hybrid": N_("hybrid"),
    "garbage": N_("garbage"),
    "uranium": N_("uranium"),
    "eco": N_("eco"),
    "fusion": N_("fusion"),
}
PHASES = {
    "regions": N_("choosing regions"),
    "auction": N_("auction (phase 2)"),
    "resources": N_("buying resources (phase 3)"),
    "build": N_("building (phase 4)"),
    "bureaucracy": N_("bureaucracy (phase 5)"),
    "over": N_("game over"),
}


def money_text(t: Translator, amount: int | None) -> str:
    if amount is None:
        return "?"
    return t.gettext("{amount} E").format(amount=amount)


def resource_text(t: Translator, resource: str) -> str:
    return t.gettext(RESOURCE_NAMES.get(resource, resource))


def count_text(t: Translator, resource: str, n: int) -> str:
    """ "2 coal" in the count's plural form ("уголь × 2", "węgiel × 2", "2 個燃煤"): a bare
    number before the name read "2 уголь"."""
    return t.ngettext("{n} {resource}", "{n} {resource}", n).format(
        n=n, resource=resource_text(t, resource)
    )


def plant_text(t: Translator, plant: dict[str, Any]) -> str:
    """ "13 eco →1" / "4 coal 2→1": number, type, resources per run → cities."""
    kind = t.gettext(PLANT_TYPES.get(plant.get("type", ""), plant.get("type", "")))
    cost = plant.get("cost", 0)
    if cost:
        return f"{plant['number']} {kind} {cost}→{plant.get('output', 0)}"
    return f"{plant['number']} {kind} →{plant.get('output', 0)}"


def phase_text(t: Translator, phase: str) -> str:
    return t.gettext(PHASES.get(phase, phase))


def join(t: Translator, items: Sequence[str]) -> str:
    """The items as one list in the reader's words ("a, b"; "a、b" in Chinese)."""
    return join_list(t, items)


def candidates(items: Sequence[str], limit: int = 12) -> Listed:
    """The first `limit` items, "…" after them when there are more: a refusal's parameter
    (raised without a translator), listed in its reader's words when the message is filled."""
    shown = list(items[:limit])
    if len(items) > limit:
        shown.append("…")
    return Listed(shown)


def keep_command(plant: int, option: dict[str, int]) -> str:
    # coal and oil always named: an unnamed resource would keep as many as fit
    words = [f"{option[r]} {r}" for r in RESOURCES if r in HYBRID_FUELS or option[r]]
    return f"/discard {plant} keep " + " ".join(words)


def keep_text(t: Translator, option: dict[str, int]) -> str:
    kept = [count_text(t, r, n) for r, n in option.items() if n]
    return join(t, kept) if kept else t.gettext("nothing")


@dataclass(frozen=True)
class KeepOptions(Worded):
    """PG-27: the ways to keep tokens after a discard, in a refusal's parameters: worded
    for its reader ("уголь × 2 | нефть × 1") by whoever fills the message."""

    options: tuple[tuple[tuple[str, int], ...], ...]

    @classmethod
    def of(cls, options: Sequence[dict[str, int]]) -> KeepOptions:
        return cls(tuple(tuple(option.items()) for option in options))

    def words(self, t: Any) -> str:
        return " | ".join(keep_text(t, dict(option)) for option in self.options)
