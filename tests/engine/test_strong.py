"""The `strong` bots, their hints and the IEC `rush` bot (issue 24).

- determinism: the same RNG and iteration budget give the same action;
- no peeking (noninterference): two states that differ only in what the bot's player cannot
  see (deck order, the game's RNG, rivals' hidden money, face-down tokens, secret techs,
  undiscovered deposits) give the same action;
- a hint is a legal action with a non-empty reason;
- the budget: iterations, seconds (with an injected clock) and BOARDCHAT_BOT_BUDGET.
Legality of every strong and rush move in whole games is test_bots_accepted.py's job.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib

import pytest

from engine import registry
from engine.core import EnglishTranslator, Rng, State, search
from engine.core.rng import new_rng_state

POLICY = {
    "powergrid": "heuristic",
    "powergrid_alt": "heuristic",
    "hexania": "greedy",
    "iec": "economic",
}
GAMES = sorted(POLICY)
BUDGET = search.Budget(iterations=6, rollout_cap=12)


def _position(
    game_id: str, steps: int, seed: int = 7, options: dict[str, str] | None = None
) -> tuple[State, str]:
    """A mid-game position reached by the policy bots, and who acts there."""
    game = registry.get(game_id)
    n = 2 if game_id == "iec" else 4
    options = dict(options or {})
    if game_id.startswith("powergrid"):
        # The positions these tests were written on: regions drawn, not chosen by the players
        # (the table's default since DECISION PG-D-3), which would shift every step count.
        options.setdefault("regions", "random")
    state = game.setup([f"p{i}" for i in range(n)], options, seed)
    rng = Rng(new_rng_state(seed))
    policy = game.bots[POLICY[game_id]]
    for _ in range(steps):
        player = game.current_players(state)[0]
        game.apply(state, player, policy(state, player, rng))
    return state, game.current_players(state)[0]


def _decide(game_id: str, state: State, player: str, seed: int = 1) -> dict:
    strong = importlib.import_module(f"engine.{game_id}.strong")
    decision = strong.decide(copy.deepcopy(state), player, Rng(new_rng_state(seed)), BUDGET)
    return dict(decision.action)


@pytest.mark.parametrize("game_id", GAMES)
def test_strong_same_rng_same_action(game_id: str) -> None:
    state, player = _position(game_id, 40)
    first = _decide(game_id, state, player)
    assert _decide(game_id, state, player) == first
    registry.get(game_id).apply(copy.deepcopy(state), player, first)


def _hide_differently(game_id: str, state: State, player: str) -> State:
    """The same position with everything `player` cannot see changed."""
    other = copy.deepcopy(state)
    other["rng"] = new_rng_state(987654321)
    if game_id in ("powergrid", "powergrid_alt"):
        deck = other["deck"]
        body = [n for n in deck if n != 99]
        body.reverse()
        deck[: len(body)] = body
        if other["hidden_money"]:
            for name, p in other["players"].items():
                if name != player:
                    p["money"] += 17
        if game_id == "powergrid":
            # A rival's standing order is private to him (VIEW.md: own orders only).
            rival = next(n for n in other["seats"] if n != player)
            game = registry.get(game_id)
            game.apply(other, rival, {"type": "order", "kind": "power_auto"})
    elif game_id == "iec":
        for t in other["tokens"]:
            if not t["up"] and t["owner"] != player:
                t["real"] = not t["real"]
        for area in other["areas"].values():
            if area["deposit"] is None and len(area["candidates"]) > 1:
                area["candidates"].reverse()
        for name, pl in other["players"].items():
            if name != player:
                hidden = [n for n in pl["techs"] if n not in pl["revealed"]]
                pl["techs"] = list(pl["revealed"]) + [n + 1 if n < 19 else 1 for n in hidden]
    game = registry.get(game_id)
    if game_id != "iec":  # see test_iec_noninterference_changes_only_hidden_parts
        # The log is left out: a private event (the rival's order) pushes the oldest public
        # entry out of the 12 kept, so the view's log is one entry shorter.
        assert _without_log(game.view(other, player)) == _without_log(game.view(state, player))
    return other


def _without_log(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "log"}


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("steps", [25, 90])
def test_strong_does_not_peek_at_hidden_information(game_id: str, steps: int) -> None:
    options = {"hidden_money": "yes"} if game_id.startswith("powergrid") else {}
    state, player = _position(game_id, steps, options=options)
    other = _hide_differently(game_id, state, player)
    assert _decide(game_id, other, player) == _decide(game_id, state, player)


def test_iec_noninterference_changes_only_hidden_parts() -> None:
    """The IEC check above changes secrets a rival holds; the player's view stays the same
    except for the rng the view never shows (guards the test itself)."""
    state, player = _position("iec", 90)
    other = _hide_differently("iec", state, player)
    game = registry.get("iec")
    assert game.view(other, player) == game.view(state, player)


@pytest.mark.parametrize("game_id", GAMES)
def test_hint_is_a_legal_action_with_a_reason(game_id: str) -> None:
    state, player = _position(game_id, 30)
    strong = importlib.import_module(f"engine.{game_id}.strong")
    action, reason = strong.hint(state, player, EnglishTranslator(), budget=BUDGET)
    assert isinstance(reason, str) and reason.strip() and "\n" not in reason
    registry.get(game_id).apply(copy.deepcopy(state), player, action)


def test_powergrid_build_hint_quotes_the_connection_cost() -> None:
    state, player = _position("powergrid", 0)
    game = registry.get("powergrid")
    rng = Rng(new_rng_state(3))
    while state["phase"] != "build":
        p = game.current_players(state)[0]
        game.apply(state, p, game.bots["heuristic"](state, p, rng))
        player = game.current_players(state)[0] if game.current_players(state) else p
    strong = importlib.import_module("engine.powergrid.strong")
    action, reason = strong.hint(state, player, EnglishTranslator(), budget=BUDGET)
    if action["type"] == "build":  # led by the command that plays it (test_hint_command.py)
        city = action["city"]
        assert reason.startswith(f"/build {city} — Build {city}: ") and " E" in reason
    else:
        assert reason.startswith("/done — Stop building")


def test_odds_are_quoted_only_for_a_simulated_move() -> None:
    """A lone candidate is played without rollouts: its hint said "0% to win in the
    simulations" though none ran."""
    odds_reason = importlib.import_module("engine.powergrid.strong").odds_reason
    lone = search.Decision({"type": "pass"}, [search.Arm({"type": "pass"})], 0)
    assert odds_reason(lone, EnglishTranslator()) == "/pass: no other move is worth trying"
    tried = search.Decision({"type": "pass"}, [search.Arm({"type": "pass"}, [1.0, 0.0])], 2)
    assert odds_reason(tried, EnglishTranslator()) == "/pass: 50% to win in the simulations"


def test_a_pass_hint_says_why_in_the_auctions_words() -> None:
    """PG-21: a pass on the plant being auctioned; PG-20 (a): a pass for the phase (both
    rules share the auction's words). It was "/pass: 56% to win in the simulations"."""
    auction_reason = importlib.import_module("engine.powergrid.strong").auction_reason
    t = EnglishTranslator()
    bidding = {"auction": {"plant": 13, "bid": 20}}
    assert auction_reason(bidding, {"type": "pass"}, t) == (
        "Pass: plant 13 is not worth more than 20 E to you"
    )
    choosing = {"auction": None}
    assert auction_reason(choosing, {"type": "pass"}, t) == (
        "Pass: keep your money for cities and fuel"
    )


def test_hexania_hint_counts_its_points_in_the_singular_too() -> None:
    """A birth costs 1 point (HEX-5): "1 point", never "1 points"."""
    state, player = _position("hexania", 0)
    strong = importlib.import_module("engine.hexania.strong")
    game = registry.get("hexania")
    reasons = []
    for _ in range(8):
        player = game.current_players(state)[0]
        action, reason = strong.hint(state, player, EnglishTranslator(), budget=BUDGET)
        reasons.append(reason)
        game.apply(state, player, action)
    assert any(": 1 point," in r for r in reasons), reasons
    assert not any(" 1 points" in r for r in reasons), reasons


def test_hexania_hint_says_what_the_move_does() -> None:
    """The reason names what the guarded bot values in the move: enemy pieces off the
    homeland (HEX-5), destroyed pieces, a birth, a growth (HEX-4, HEX-15)."""
    from engine.hexania.actions import Plan
    from engine.hexania.board import HOMELANDS

    strong = importlib.import_module("engine.hexania.strong")
    state, _ = _position("hexania", 0)
    player = state["order"][0]
    home = HOMELANDS[state["sides"][player]]
    t = EnglishTranslator()

    def why(plan: Plan) -> str:
        return str(strong._why(state, player, plan, t))

    assert why(Plan("move", player, 1, destroyed={home[0]: "x"})) == (
        "frees your homeland of 1 enemy piece"
    )
    assert why(Plan("move", player, 1, destroyed={"K11": "x", "K12": "x"})) == (
        "destroys 2 enemy pieces"
    )
    assert why(Plan("birth", player, 1, added=[home[1]])) == "a new piece on your homeland"
    assert why(Plan("grow", player, 1, added=[home[2]])) == (
        "one piece more, and a figure harder to pierce"
    )


def test_budget_counts_iterations_and_seconds_with_an_injected_clock() -> None:
    glue = importlib.import_module("engine.powergrid.strong").glue()
    state, player = _position("powergrid", 30)
    decision = search.search(
        glue, state, player, Rng(new_rng_state(1)), search.Budget(iterations=5)
    )
    arms = len(decision.arms)
    # Rounds of one rollout per candidate until 5 rollouts are reached.
    assert decision.iterations == -(-5 // arms) * arms or arms == 1
    steps = iter([1.0 / arms] * 1000)
    now = [0.0]

    def evaluate(state: State, player: str) -> float:
        now[0] += next(steps)  # every rollout takes 1/arms: a round lasts 1
        return glue.evaluate(state, player)

    timed = search.Budget(seconds=10.0, rollout_cap=4, clock=lambda: now[0])
    slow = dataclasses.replace(glue, evaluate=evaluate)
    decision = search.search(slow, state, player, Rng(new_rng_state(1)), timed)
    # The clock reads 0 at the start (deadline 10) and r after round r, so a round lasts 1 on
    # average: the search stops after round 9, when one more would end at the deadline
    # (a decision never overruns its budget by a round).
    assert decision.iterations == 9 * arms or arms == 1


def test_production_budget_keeps_a_reserve_with_an_injected_clock() -> None:
    """A production budget (BOARDCHAT_BOT_BUDGET, default 2 s) aims to stop at 80 % of its
    seconds, so the p99 think time stays within the budget on a loaded machine (issue 24)."""
    assert search.parse_budget("2").reserve == pytest.approx(0.4)
    assert search.parse_budget("200i").reserve == 0.0
    glue = importlib.import_module("engine.powergrid.strong").glue()
    state, player = _position("powergrid", 30)
    arms = len(
        search.search(glue, state, player, Rng(new_rng_state(1)), search.Budget(iterations=1)).arms
    )
    steps = iter([1.0 / arms] * 1000)
    now = [0.0]

    def evaluate(state: State, player: str) -> float:
        now[0] += next(steps)  # a round lasts 1
        return glue.evaluate(state, player)

    budget = dataclasses.replace(search.timed(10.0), rollout_cap=4, clock=lambda: now[0])
    slow = dataclasses.replace(glue, evaluate=evaluate)
    decision = search.search(slow, state, player, Rng(new_rng_state(1)), budget)
    # Deadline 8 (10 less the 20 % reserve): the search stops after round 7.
    assert decision.iterations == 7 * arms or arms == 1
    assert now[0] <= 8.0


def test_budget_drops_a_round_the_deadline_cuts_short() -> None:
    """A round far slower than the average is abandoned at the deadline, and its partial
    rollouts are dropped so that every candidate keeps the same paired samples."""
    glue = importlib.import_module("engine.hexania.strong").glue()
    state, player = _position("hexania", 30)
    once = search.search(glue, state, player, Rng(new_rng_state(1)), search.Budget(iterations=1))
    arms = len(once.arms)
    # A round of `arms` rollouts lasting 1 each, then the second round's second takes 10.
    steps = iter([1.0] * (arms + 1) + [10.0] * 1000)
    now = [0.0]

    def evaluate(state: State, player: str) -> float:
        now[0] += next(steps)
        return glue.evaluate(state, player)

    timed = search.Budget(seconds=10.0, rollout_cap=4, clock=lambda: now[0])
    slow = dataclasses.replace(glue, evaluate=evaluate)
    decision = search.search(slow, state, player, Rng(new_rng_state(1)), timed)
    assert 2 < arms < 10 and len(decision.arms) == arms  # the round goes on after 1 + 10
    assert decision.iterations == arms
    assert all(arm.visits == 1 for arm in decision.arms)


def test_budget_counts_the_time_spent_listing_candidates() -> None:
    """The think time a table sees (p99 ≤ the budget, issue 24) includes choosing the
    candidates: a glue whose candidates take longer than the budget plays the policy's own
    move (the first candidate) without a rollout."""
    base = importlib.import_module("engine.hexania.strong").glue()
    now = [0.0]

    def slow_candidates(state: State, player: str, rng: Rng) -> list[dict]:
        now[0] += 20.0  # past the 10 s deadline before any rollout
        return base.candidates(state, player, rng)

    glue = dataclasses.replace(base, candidates=slow_candidates)
    state, player = _position("hexania", 30)
    timed = search.Budget(seconds=10.0, rollout_cap=4, clock=lambda: now[0])
    decision = search.search(glue, state, player, Rng(new_rng_state(1)), timed)
    assert len(decision.arms) > 1
    assert decision.iterations == 0 and all(arm.visits == 0 for arm in decision.arms)
    assert decision.action == decision.arms[0].action


def test_budget_cuts_a_rollout_at_the_deadline() -> None:
    """The deadline holds inside a rollout too (issue 24: the search honours its budget): a
    first rollout that would run past it is stopped, and with no round finished the policy's
    own move is played."""
    glue = importlib.import_module("engine.hexania.strong").glue()
    state, player = _position("hexania", 30)
    now = [0.0]
    policy = glue.policy

    def slow_policy(state: State, player: str, rng: Rng) -> dict:
        now[0] += 4.0  # every rollout step takes 4 s: the 10 s deadline falls in the first
        return policy(state, player, rng)

    slow = dataclasses.replace(glue, policy=slow_policy)
    timed = search.Budget(seconds=10.0, rollout_cap=50, clock=lambda: now[0])
    decision = search.search(slow, state, player, Rng(new_rng_state(1)), timed)
    assert len(decision.arms) > 1 and decision.iterations == 0
    assert decision.action == decision.arms[0].action
    assert 10.0 <= now[0] <= 14.0  # stopped at the first step past the deadline


def test_budget_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "override", None)
    monkeypatch.setenv(search.ENV_BUDGET, "0.5")
    assert search.current_budget().seconds == 0.5
    monkeypatch.setenv(search.ENV_BUDGET, "40i")
    assert search.current_budget().iterations == 40
    monkeypatch.delenv(search.ENV_BUDGET)
    assert search.current_budget().seconds == search.DEFAULT_SECONDS
    with pytest.raises(ValueError):
        search.parse_budget("0")


def test_rush_bot_fires_at_a_transmitter_or_mixer() -> None:
    """The launcher rush (issue 24): a launcher on turn 1, then missiles at the rival's
    transmitter or mixer."""
    game = registry.get("iec")
    state = game.setup(["a", "b"], {}, 3)
    rng = Rng(new_rng_state(3))
    kinds = {"a": "rush", "b": "economic"}
    targets: list[str] = []
    while not game.is_over(state):
        player = game.current_players(state)[0]
        action = game.bots[kinds[player]](state, player, rng)
        if action["type"] == "fire" and player == "a":
            targets += [state["buildings"][c]["kind"] for c in action["targets"]]
        game.apply(state, player, action)
    assert targets and set(targets) <= {"transmitter", "mixer"}
