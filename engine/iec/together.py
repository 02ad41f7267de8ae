"""Phases declared by everybody at once (rules version 2, issue 17; `model.SIMULTANEOUS_PHASES`).

IEC-S-10.4 plays a phase one company after another, effects at once; IEC-M-21 leaves the
choice open. In the phases where no company's choice depends on another's (power 3, mine
laying 5, transmission 10, science 11, technologies 14) every company with a real choice is
asked at the same time:

- each move is checked as it would be if he acted first with his own earlier declarations
  already carried out (`planned`: a copy of the state; the copy's dice come from a fixed seed,
  so the check never shows the game's coming rolls), then kept in `state["pending"]`; its
  owner gets a private `declared` event, nobody else learns anything but that he is still
  deciding (`view` shows each player his own declarations only);
- /done, or a declaration that leaves him nothing more to decide, ends his part
  (`declaration_done`, public);
- when the last one is done, the declarations are carried out in the phase's order (IEC-26,
  IEC-S-10.3 with Flexible Order), each company's in the order he made them, with the game's
  dice: the rolls fall as they would in turn. A declaration that no longer applies then (a
  second transmission after Fast Transmission's bonus launch used the last BC) lapses, and
  the `declaration_lapsed` event says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core import N_, IllegalAction
from engine.core.jsonstate import copy_state
from engine.core.rng import new_rng_state
from engine.iec import choices as ch
from engine.iec.orders import _bad
from engine.iec.rules import Action, Event, State, _compute_power, _ev
from engine.iec.state_types import PlainState, plain

# The phase actions' handlers (actions.HANDLERS), registered by actions.py, which builds on
# this module: no import cycle.
Handler = Callable[[State, str, Action, list[Event]], None]
HANDLERS: dict[str, Handler] = {}


def register(handlers: Mapping[str, Handler]) -> None:
    HANDLERS.update(handlers)


# The dice of a trial state: fixed, so a check never shows the game's coming rolls.
_TRIAL_SEED = 0


def planned(state: State, player: str, public: bool = False) -> PlainState:
    """A copy of the state after `player`'s own declarations of this phase (see above).

    A technology chosen in this phase (phase 14) acts only once the declarations are carried
    out, so that nothing about it shows before (IEC-S-23, corrections 1.1).

    `public`: the same, as the table can judge it: his technologies not yet revealed take no
    part (corrections 1.1, "No side channel through prompts"). Whether he is done
    (`declaration_done`), his forced /done (forced.py) and his buttons, which are posted in
    the group, come from this copy only, so they never tell a secret technology: Fast
    Transmission's bonus launch, for one, does not use up the BC another transmitter could
    still declare; in a phase played in turn, Missile Salvo's third missile is no button. A
    declaration that only a secret technology allows (two real mines with Total Mine War)
    counts there as his one placement of the turn (IEC-19)."""
    mine = state.get("pending", {}).get(player)
    if not mine and not public:
        return plain(state)
    trial: PlainState = copy_state(state)
    trial["rng"] = new_rng_state(_TRIAL_SEED)
    known = set(state["players"][player]["techs"])
    if "pending" in trial:
        trial["pending"][player] = []  # carried out in the copy: planning it again is a no-op
    if public:
        _secret_techs_off(trial, player, set())
    for action in mine or []:
        try:
            HANDLERS[action["type"]](trial, player, action, [])
        except IllegalAction:
            if not public:
                raise
            if action["type"] in ("lay", "relocate"):
                trial["players"][player]["laid"] = True
        _secret_techs_off(trial, player, known if not public else set())
    return trial


def _secret_techs_off(trial: State, player: str, known: set[int]) -> None:
    """In a trial copy: the player's technologies outside `known` and not revealed act not."""
    pl = trial["players"][player]
    use = pl["orders"].setdefault("use", {})
    for tech in pl["techs"]:
        if tech not in known and tech not in pl["revealed"]:
            use[str(tech)] = "off"


# A move that may leave its building out: (the kind that acts, its tag in "used").
_DEFAULT_BUILDING = {
    "transmit": ("transmitter", "transmit"),
    "research": ("laboratory", "research"),
}


def declare(state: State, player: str, action: Action, events: list[Event]) -> None:
    """One move of `player` in a phase declared at once (already known to be one of his)."""
    ph = state["phase"]
    trial = planned(state, player)
    if trial is state:
        trial = copy_state(state)
        trial["rng"] = new_rng_state(_TRIAL_SEED)
    if action["type"] == "done":
        if ph == 14 and ch.must_choose_tech(trial, player):
            raise _bad(
                "IEC-24",
                N_("Science points: {points}. You must choose a technology."),
                points=trial["players"][player]["science"],
            )
        _finish(state, player, events)
        return
    shown = dict(action)  # the owner's line names the building a bare move defaults to
    tag = _DEFAULT_BUILDING.get(str(action["type"]))
    if tag is not None and action.get("building") is None:
        b = ch.first_ready(trial, player, *tag)
        if b is not None:
            shown["building"] = b["cell"]
    HANDLERS[action["type"]](trial, player, action, [])  # refuses as it would in turn
    state["pending"][player].append(dict(action))
    _ev(
        state,
        events,
        "declared",
        player=player,
        phase=ph,
        private_to=player,
        secret={"action": shown},
    )
    # Done once nothing is left to decide, as the table can judge it (planned, public).
    seen = planned(state, player, public=True)
    if player in seen["done"] or not ch.has_choice(seen, player, ph):
        _finish(state, player, events)


def _finish(state: State, player: str, events: list[Event]) -> None:
    state["actors"].remove(player)
    state["done"].append(player)
    _ev(state, events, "declaration_done", player=player, phase=state["phase"])


def resolve(state: State, events: list[Event]) -> None:
    """Everybody done: carry the declarations out in the phase's order (see above)."""
    ph = state["phase"]
    book = state.pop("pending", {})
    for p in state["phase_order"][str(ph)]:
        if p not in book:
            continue
        for action in book[p]:
            try:
                HANDLERS[action["type"]](state, p, action, events)
            except IllegalAction as err:
                _ev(
                    state,
                    events,
                    "declaration_lapsed",
                    player=p,
                    action=action["type"],
                    rule=err.rule_id,
                )
        if ph == 3:  # IEC-15.2: the declared power list applies (orders.standing stored it)
            _compute_power(state, p, events)
