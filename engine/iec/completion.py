"""What IEC's arguments complete to (Discord's autocomplete, the chat's suggestions): cells,
building types and technologies in the words the reader typed, a player's storages for
`from <storage>`. Read by commands.py's argument kinds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.protocol import State
from engine.iec import words as said
from engine.iec.rules import own, scen
from engine.iec.scenario import load
from engine.iec.techs import TECHS

MAX_COMPLETIONS = 25


def complete_kind(state: State | None, player: str | None, prefix: str) -> list[str]:
    """The building types `prefix` begins, each under its first name that does: typed in
    English the English name, typed in Cyrillic the Russian one («ша» -> «шахта»)."""
    found = said.begun_by(prefix, said.kind_names(), MAX_COMPLETIONS)
    return [name for name, _kind in found]


def complete_tech(state: State | None, player: str | None, prefix: str) -> list[str]:
    """ "N name" for each technology whose number or some name `prefix` begins, under the
    first such name (the English one unless another language's was typed)."""
    key = said.fold(prefix)
    out: list[str] = []
    for n in TECHS:
        for name, m in said.tech_names():
            label = f"{n} {name}"
            if m == n and (said.fold(label).startswith(key) or said.fold(name).startswith(key)):
                out.append(label)
                break
    return out[:MAX_COMPLETIONS]


def prefixed(cands: Sequence[str], prefix: str) -> list[str]:
    p = prefix.strip().lower()
    return [c for c in cands if c.lower().startswith(p)][:MAX_COMPLETIONS]


def complete_cell(state: State | None, player: str | None, prefix: str) -> list[str]:
    s = scen(state) if state is not None else load("chat_standard")
    return prefixed(s.cells, prefix)


def complete_storage(goods: str) -> Callable[[State | None, str | None, str], list[str]]:
    """The cells of the player's powered storages holding one of `goods` ("AC", "AC+BC"): what
    `from <storage>` names (IEC-S-10.5, IEC-S-21), most of those goods first."""
    wanted = goods.split("+")

    def complete(state: State | None, player: str | None, prefix: str) -> list[str]:
        if state is None or player is None or player not in state["players"]:
            return []
        held = [
            (sum(st["goods"].get(g, 0) for g in wanted), st["cell"])
            for st in own(state, player, "storage")
            if st["powered"] and any(st["goods"].get(g, 0) > 0 for g in wanted)
        ]
        cells = [cell for _, cell in sorted(held, key=lambda h: -h[0])]
        return prefixed(cells, prefix)

    return complete
