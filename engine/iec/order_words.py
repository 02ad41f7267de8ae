"""A standing order or private choice in words, for its owner alone (IEC-S-10.5, IEC-S-26).

The private line of `order_set` ("Standing order saved: mixers make BC and AB, most wanted
first.") is read in the confirmation and later in the owner's own /log, where twelve lines
"Standing order saved." told him nothing. The words come from the order's action as it was
accepted (the event's `secret.action`), not from today's orders, which may have changed since.
Never public: the line is `describe_private_event`'s, for `event["private_to"]`.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, NP_, Translator, join_list
from engine.iec.scenario import KINDS
from engine.iec.techs import TECHS

SAVED = N_("Standing order saved: {order}.")

_ANTI_MISSILE, _SUBSIDY = 11, 16  # IEC-TECH-11, IEC-TECH-16

_GIVE = NP_(
    "give power for {count} building to {to} every turn",
    "give power for {count} buildings to {to} every turn",
)
_TRANSFER = N_("{n} {good} from {src} to {dst}")
_FLEX = {
    "first": N_("you act first in phase {phase}"),
    "last": N_("you act last in phase {phase}"),
    "unchanged": N_("your usual place in phase {phase}"),
}
_USE = {
    "now": N_("{tech_name} used now"),
    "auto": N_("{tech_name} used when it first acts"),
    "off": N_("{tech_name} off"),
}


def order_text(action: dict[str, Any], t: Translator) -> str | None:
    """The order `action` saved, as a phrase after "Standing order saved:"; None for one this
    module does not know (the caller keeps the plain "Standing order saved.")."""
    kind = action.get("type")
    worded = _WORDERS.get(str(kind))
    if worded is None:
        return None
    try:
        return worded(action, t)
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def _cells(t: Translator, cells: Any) -> str:
    return join_list(t, [str(c) for c in cells or ()])


def _kind(t: Translator, kind: Any) -> str:
    """A building type's name: its id is its msgid (lines.KIND_NAMES marks them)."""
    return t.gettext(kind) if kind in KINDS else str(kind)


def _tech(t: Translator, number: Any) -> str:
    name = TECHS.get(number) if isinstance(number, int) else None
    return t.gettext(name) if name else str(number)


def _power(action: dict[str, Any], t: Translator) -> str:
    cells = action.get("buildings") or []
    if not cells:
        return t.gettext(N_("power in the default order"))
    return t.gettext(N_("power {cells} first")).format(cells=_cells(t, cells))


def _give(action: dict[str, Any], t: Translator) -> str:
    n, to = int(action["count"]), action["to"]
    if n == 0:
        return t.gettext(N_("no Intergrid power for {to}")).format(to=to)
    return t.ngettext(*_GIVE, n).format(count=n, to=to)


def _extract(action: dict[str, Any], t: Translator) -> str:
    return t.gettext(N_("mine {mine} extracts {resource}")).format(
        mine=action["mine"], resource=action["resource"]
    )


def _mix(action: dict[str, Any], t: Translator) -> str:
    recipes = list(dict.fromkeys(action.get("recipes") or []))  # as orders.standing keeps them
    if not recipes:
        return t.gettext(N_("mixers make nothing"))
    if len(recipes) == 1:
        return t.gettext(N_("mixers make {recipe}")).format(recipe=recipes[0])
    # IEC-S-15: the order is the priority, so it is kept as given ("BC and AB")
    return t.gettext(N_("mixers make {recipes}, most wanted first")).format(
        recipes=join_list(t, recipes)
    )


def _transfers(action: dict[str, Any], t: Translator) -> str:
    moves = action.get("moves") or []
    if not moves:
        return t.gettext(N_("no transfers"))
    each = (
        t.gettext(_TRANSFER).format(n=m["n"], good=m["good"], src=m["from"], dst=m["to"])
        for m in moves
    )
    return t.gettext(N_("each turn move {moves}")).format(moves=join_list(t, each))


def _deliver(action: dict[str, Any], t: Translator) -> str:
    building, storages = action["building"], action.get("storages") or []
    if not storages:
        return t.gettext(N_("{building} delivers to the storages linked to it")).format(
            building=building
        )
    if len(storages) == 1:
        return t.gettext(N_("{building} delivers to {storage}")).format(
            building=building, storage=storages[0]
        )
    return t.gettext(N_("{building} delivers to {storages}, best first")).format(
        building=building, storages=_cells(t, storages)
    )


def _destroy(action: dict[str, Any], t: Translator) -> str:
    if action.get("cancel"):
        return t.gettext(N_("do not blow up {cell}")).format(cell=action["cell"])
    return t.gettext(N_("blow up {cell} at the start of next turn")).format(cell=action["cell"])


def _flex(action: dict[str, Any], t: Translator) -> str:
    return t.gettext(_FLEX[action["position"]]).format(phase=action["phase"])


def _antimissile(action: dict[str, Any], t: Translator) -> str:
    template = N_("{tech_name} on") if action.get("on") else N_("{tech_name} off")
    return t.gettext(template).format(tech_name=_tech(t, _ANTI_MISSILE))


def _use(action: dict[str, Any], t: Translator) -> str:
    template = _USE[action.get("mode", "now")]
    return t.gettext(template).format(tech_name=_tech(t, action["tech"]))


def _sweep(action: dict[str, Any], t: Translator) -> str:
    if action.get("cell") is None:
        return t.gettext(N_("no sweeping"))
    return t.gettext(N_("sweep {cell} in the next phase 4")).format(cell=action["cell"])


def _peek(action: dict[str, Any], t: Translator) -> str:
    if action.get("area") is None:
        return t.gettext(N_("no look into an area"))
    return t.gettext(N_("look into area {area} in the next phase 14")).format(area=action["area"])


def _subsidy(action: dict[str, Any], t: Translator) -> str:
    name = _tech(t, _SUBSIDY)
    if action.get("cell") is None:
        return t.gettext(N_("no {tech_name}")).format(tech_name=name)
    return t.gettext(N_("{tech_name} builds a {kind_name} on {cell} in phase 14")).format(
        tech_name=name, kind_name=_kind(t, action["kind"]), cell=action["cell"]
    )


_WORDERS = {
    "power": _power,
    "give": _give,
    "extract": _extract,
    "mix": _mix,
    "transfers": _transfers,
    "deliver": _deliver,
    "destroy": _destroy,
    "flex": _flex,
    "antimissile": _antimissile,
    "use": _use,
    "sweep": _sweep,
    "peek": _peek,
    "subsidy": _subsidy,
}
