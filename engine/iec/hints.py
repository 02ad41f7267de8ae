"""IEC's /hint (issue 24): the strong bot's move as the very command a player would type, and
one line why in the game's own words.

The search decides (engine/iec/strong.py `hint`); this module only says it. Outside the last turns
the strong bot plays its policy alone (no rollouts), so a hint never quotes simulation odds:
it names the command with every argument (`command_text`, which `parse` reads back to the
same action) and the reason its kind of move is made. Standing orders and private choices
(IEC-S-26) are the asker's own: a hint is told to the asker alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import N_, State, Translator
from engine.core.protocol import Action
from engine.iec.commands import COMMANDS
from engine.iec.techs import TECHS

# Action type -> the chat command that makes it (where the names differ).
_COMMAND = {"transfers": "transfer"}


def _cells(cells: list[str] | None) -> list[str]:
    return [str(c) for c in cells or []]


def _from(action: Action) -> list[str]:
    source = action.get("from")
    return ["from", str(source)] if source else []


def _words_fire(a: Action) -> list[str]:
    words: list[str] = []
    for cell, shots in a["targets"].items():
        words += [str(cell), str(shots)]
    return [*words, str(a["launcher"]), *_from(a)]


def _words_build(a: Action) -> list[str]:
    words = [str(a["cell"])]
    if a.get("kind"):
        words.append(str(a["kind"]))
    if a.get("deposit") is not None:
        words.append(str(int(a["deposit"]) + 1))  # players count deposits from 1
    return [*words, str(a["developer"]), *_from(a)]


def _words_transfers(a: Action) -> list[str]:
    moves = a.get("moves") or []
    if not moves:
        return ["none"]
    return [str(w) for m in moves for w in (m["from"], m["to"], m["good"], m["n"])]


def _words_at_building(a: Action) -> list[str]:
    return ([str(a["building"])] if a.get("building") else []) + _from(a)


def _or_none(value: Any) -> list[str]:
    return ["none"] if value is None else [str(value)]


_WORDS: dict[str, Callable[[Action], list[str]]] = {
    "power": lambda a: _cells(a.get("buildings")) or ["none"],  # a bare /power shows the list
    "give": lambda a: [str(a["to"]), str(a["count"])],
    "extract": lambda a: [str(a["mine"]), str(a["resource"])],
    "mix": lambda a: [str(r) for r in a.get("recipes") or []] or ["none"],
    "transfers": _words_transfers,
    "deliver": lambda a: [str(a["building"]), *(_cells(a.get("storages")) or ["none"])],
    "destroy": lambda a: [str(a["cell"]), *(["cancel"] if a.get("cancel") else [])],
    "flex": lambda a: [str(a["phase"]), str(a["position"])],
    "antimissile": lambda a: ["on" if a.get("on") else "off"],
    "use": lambda a: [str(a["tech"]), str(a.get("mode", "now"))],
    "sweep": lambda a: _or_none(a.get("cell")),
    "lay": lambda a: ["+".join(_cells(a.get("real"))), *_cells(a.get("fake")), *_from(a)],
    "relocate": lambda a: [str(a["from"]), str(a["to"])],
    "prepare": lambda a: [str(a["cell"]), str(a["developer"])],
    "build": _words_build,
    "recycle": lambda a: [str(a["target"]), str(a["developer"])],
    "activate": lambda a: [str(a["cell"])],
    "fire": _words_fire,
    "transmit": _words_at_building,
    "research": _words_at_building,
    "tech": lambda a: [str(a["tech"])],
    "peek": lambda a: _or_none(a.get("area")),
    "subsidy": lambda a: ["none"] if a.get("kind") is None else [str(a["kind"]), str(a["cell"])],
    "done": lambda a: [],
}


def command_text(action: Action) -> str:
    """The chat command that makes `action`, every choice spelt out (the developer, the
    launcher, the storage paying): `commands.parse` reads it back to the same action."""
    kind = str(action["type"])
    name = _COMMAND.get(kind, kind)
    return " ".join(["/" + name, *_WORDS[kind](action)])


# Why a move of each kind is worth making, in the words of the rules it serves.
_WHY = {
    "done": N_("nothing more in this phase is worth its cost"),
    "lay": N_("a real mine where a rival is likely to build"),
    "relocate": N_("your token moves where a rival is likely to build"),
    "prepare": N_("a site for your next building"),
    "build": N_("more goods reach your transmitters"),
    "recycle": N_("the module's AB is worth more elsewhere"),
    "activate": N_("the mine hits the building on it"),
    "transmit": N_("each BC that reaches Earth is a victory point"),
    "research": N_("a science point, the last tie-break"),
    "mix": N_("your mixers make what your next moves need"),
    "extract": N_("your mixers need that good most"),
    "transfers": N_("goods move to the storages that use them"),
    "deliver": N_("goods go to the storages that use them"),
    "power": N_("power goes to the buildings that work this turn"),
    "sweep": N_("a rival's token probably lies there"),
}


def reason(state: State, action: Action, t: Translator) -> str:
    """One line: the command, then why (the command's own help when no reason is known)."""
    kind = str(action["type"])
    move = command_text(action)
    if kind == "fire":
        shots = sum(int(n) for n in action["targets"].values())
        cell = next(iter(action["targets"]))
        target = state["buildings"][cell]["kind"]
        why = t.ngettext(
            "{n} missile at the {target} on {cell}",
            "{n} missiles at the {target} on {cell}",
            shots,
        ).format(n=shots, target=t.gettext(target), cell=cell)
    elif kind == "tech":
        why = t.gettext("buy {tech}").format(tech=t.gettext(TECHS[action["tech"]]))
    elif kind in _WHY:
        why = t.gettext(_WHY[kind])
    else:
        spec = next(s for s in COMMANDS if s.name == _COMMAND.get(kind, kind))
        why = t.gettext(spec.help)
    return t.gettext("{move}: {why}").format(move=move, why=why)
