"""Noninterference of hidden money in the alternative rules (issue 20; PG-9 option
`hidden_money`, kept by the variant: "any rule not changed here is the base rule").

Two states that differ only in one player's (the holder's) money play the same public
sequence of moves, in rules versions 1 and 2 (version 2: purchases and power declared by
everybody at once, secretly). Everything the group and another player (the observer) receive
must be identical: `view` for the observer and for a spectator, `describe_turn` for both, who
is asked (`current_players`), every prompted player's buttons (posted in the group), who is
passed by the table (`forced_action`, for every player), the /board answer, the observer's
/income quote, every event's public line and the observer's private lines, and whether each
of the observer's and the others' moves is accepted.

The rules consult the money in a few places, which are the allowed differences (the
comparison stops at the first): a declared purchase filled only in part at resolution
(`resources_bought` with `wanted`, `purchase_short`: ALT-12, PG-9a) and penalties capped by
what the player holds (`powered`, ALT-36; only its penalties may differ); the end of the game,
which reveals the money (`game_over`: the ranking's tie-break, ALT-44). Moves of the holder
himself are chosen among those both worlds accept (his refusals reach him alone).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.core import EnglishTranslator, IllegalAction, Reply, Rng
from engine.core.rng import new_rng_state
from engine.core.search import copy_state  # the JSON state's deep copy, faster than deepcopy
from engine.powergrid_alt import GAME
from engine.powergrid_alt.bots import heuristic_bot, random_bot
from engine.powergrid_alt.rules import expected

T = EnglishTranslator()
State = dict[str, Any]
ALLOWED = {"resources_bought", "purchase_short", "powered", "game_over"}
STEPS = 40


def _reply(state: State, player: str, command: str) -> str:
    out = GAME.parse(state, player, command, [], T)
    assert isinstance(out, Reply)
    return out.text


def observe(state: State, obs: str) -> Any:
    current = GAME.current_players(state)
    return (
        json.dumps(GAME.view(state, obs), sort_keys=True),
        json.dumps(GAME.view(state, None), sort_keys=True),
        GAME.describe_turn(state, obs, T),
        GAME.describe_turn(state, None, T),
        current,
        [GAME.buttons(state, p, T) for p in current],
        [GAME.forced_action(state, p) for p in state["seats"]],
        _reply(state, obs, "board"),
        _reply(state, obs, "income"),
        GAME.is_over(state),
    )


def _lines(state: State, events: list[dict[str, Any]], obs: str) -> list[Any]:
    out = []
    for e in events:
        if e.get("private") and e.get("player") != obs:
            continue  # another player's private event reaches him alone
        mine = GAME.describe_private_event(state, e, T) if e.get("private") else None
        out.append((e, GAME.describe_event(state, e, T), mine))
    return out


def _try(state: State, player: str, action: dict[str, Any]) -> tuple[State, list[Any]] | str:
    s = copy_state(state)
    try:
        return GAME.apply(s, player, action)
    except IllegalAction as err:
        return f"{err.rule_id}: {err}"


def _bot(state: State, player: str, rng: Rng) -> dict[str, Any]:
    return (heuristic_bot if rng.below(3) else random_bot)(state, player, rng)


def _forward(state: State, steps: int, rng: Rng) -> None:
    for _ in range(steps):
        if GAME.is_over(state):
            return
        p = GAME.current_players(state)[0]
        GAME.apply(state, p, _bot(state, p, rng))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_pg9_alt_hidden_money_output_depends_on_public_information_only(
    data: st.DataObject,
) -> None:
    draw = data.draw
    n = draw(st.integers(2, 4), label="players")
    seed = draw(st.integers(0, 2**20), label="seed")
    version = draw(st.sampled_from(["1", "2"]), label="rules version")
    seats = [f"p{i}" for i in range(n)]
    base = GAME.setup(seats, {"hidden_money": "yes", "rules_version": version}, seed)
    rng = Rng(new_rng_state(seed))
    _forward(base, draw(st.integers(0, 60), label="forward"), rng)
    if GAME.is_over(base):
        event("game over before the comparison")
        return
    holder, obs = draw(st.permutations(seats), label="holder, observer")[:2]
    extra = draw(st.integers(1, 200), label="extra money")
    _compare(base, seed, holder, obs, extra, event)


def test_pg9_alt_hidden_money_is_compared_until_the_end_not_after_it() -> None:
    """Found by `make fuzz` (seed 3312269883): the game ended by agreement, and the next
    step compared the final state, where PG-9 shows every player's money."""
    base = GAME.setup(["p0", "p1"], {"hidden_money": "yes", "rules_version": "1"}, 122)
    _forward(base, 56, Rng(new_rng_state(122)))
    notes: list[str] = []
    _compare(base, 122, "p0", "p1", 1, notes.append)
    assert notes[-1] == "compared to the end of the game"


def _compare(base: State, seed: int, holder: str, obs: str, extra: int, note: Any) -> None:
    """Play on from `base` twice, the holder `extra` E richer in the second copy: what `obs`
    reads is the same until a rule consults the money or the game ends."""
    event = note
    a, b = copy_state(base), copy_state(base)
    # The holder is richer in b: whatever a accepts of his moves, b accepts too.
    b["players"][holder]["money"] += extra
    pick = Rng(new_rng_state(seed ^ 0x5EED))
    for _step in range(STEPS):
        if GAME.is_over(a):  # PG-9: every player's money is shown once the game is over
            event("compared to the end of the game")
            return
        assert observe(a, obs) == observe(b, obs)
        current = GAME.current_players(a)
        actor = current[pick.below(len(current))]
        action = _bot(a, actor, pick)
        ra, rb = _try(a, actor, action), _try(b, actor, action)
        if actor == holder and (isinstance(ra, str) or isinstance(rb, str)):
            for alt in GAME.legal_actions(a, actor):
                ra, rb = _try(a, actor, alt), _try(b, actor, alt)
                if not isinstance(ra, str) and not isinstance(rb, str):
                    break
        if isinstance(ra, str) and isinstance(rb, str) and actor != holder:
            assert ra == rb  # the same refusal (it reaches the actor alone)
            continue
        assert not isinstance(ra, str) and not isinstance(rb, str), (actor, action, ra, rb)
        (a, ea), (b, eb) = ra, rb
        la, lb = _lines(a, ea, obs), _lines(b, eb, obs)
        if la != lb:
            i = next(
                (j for j, (x, y) in enumerate(zip(la, lb, strict=False)) if x != y),
                min(len(la), len(lb)),
            )
            kinds = {x[i][0]["type"] for x in (la, lb) if i < len(x)}
            assert kinds & ALLOWED, (action, la[i:], lb[i:])
            if kinds == {"powered"}:  # only the penalties may differ (capped by money)
                ea_i, eb_i = la[i][0], lb[i][0]
                fines = ("penalty_bank", "penalty_players")
                assert {k: v for k, v in ea_i.items() if k not in fines} == {
                    k: v for k, v in eb_i.items() if k not in fines
                }, (ea_i, eb_i)
            event(f"stopped at a rule that consults money: {sorted(kinds & ALLOWED)}")
            return
        event(f"phase {a['phase']} compared")
    event(f"compared all {STEPS} steps")


def test_pg9_alt_board_shows_no_money_to_the_group_and_buttons_do_not_filter_by_it() -> None:
    """Regression (issue 20): /board printed every player's money under hidden money, and the
    auction buttons, posted in the group, left out the plants the player could not afford."""
    seats = ["p0", "p1", "p2"]
    for hidden in ("yes", "no"):
        a = GAME.setup(seats, {"hidden_money": hidden}, 7)
        rng = Rng(new_rng_state(1))
        while expected(a) != "choose_plant":
            _forward(a, 1, rng)
        b = copy_state(a)
        actor = GAME.current_players(a)[0]
        b["players"][actor]["money"] = 3  # affords no plant at all
        board_a, board_b = _reply(a, "p0", "board"), _reply(b, "p0", "board")
        buttons_a, buttons_b = GAME.buttons(a, actor, T), GAME.buttons(b, actor, T)
        if hidden == "yes":
            assert board_a == board_b and " E)" not in board_a
            assert buttons_a == buttons_b
            for viewer in seats:
                if viewer != actor:  # pictures for the other players and a spectator
                    assert GAME.render(a, viewer, T) == GAME.render(b, viewer, T)
            assert GAME.render(a, None, T) == GAME.render(b, None, T)
        else:
            assert board_a != board_b and buttons_a != buttons_b
