"""legal_actions returns exactly what it returned before the speed work (HEX-T-5).

The hashes below were recorded with the original (slow) generator: for every position of a
few seeded bot games (2..6 players, random and greedy bots, every variant), the canonical JSON
of `legal_actions` in order, and a summary of each plan the bots see (`legal_plans`). Any
change to which actions come back, their order or their plans changes a hash.

The fast generator (`legal.legal_actions`) is also compared, list for list, with the reference
that runs every candidate through the full validation path (`rules.checked_legal`): on crowded
random boards (big figures, collapses, homelands, every variant) and in random bot games.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.hexania import GAME, legal, rules
from engine.hexania import actions as act
from engine.hexania.board import CELLS, HOMELANDS, NEIGHBOURS, SIDES_BY_PLAYERS

from .helpers import position

VARIANTS = ("split", "guard", "bastions", "birthattack", "viscous", "mergebirth")

# (players, bot, options, seed, bot seed); the last ten are the games of bench/hexania_engine.py
GAMES: tuple[tuple[int, str, dict[str, str], int, int], ...] = (
    (2, "random", {}, 11, 87109),
    (3, "greedy", {}, 12, 95028),
    (4, "random", {"split": "yes", "viscous": "yes"}, 13, 102947),
    (5, "greedy", {"guard": "yes", "birthattack": "yes"}, 14, 110866),
    (6, "random", {"rounds": "20", "bastions": "yes", "mergebirth": "yes"}, 15, 118785),
    (2, "greedy", {"rounds": "off", "split": "yes", "birthattack": "yes"}, 16, 126704),
    (3, "random", {"viscous": "yes", "guard": "yes", "mergebirth": "yes"}, 17, 134623),
    (6, "greedy", {}, 18, 142542),
    (4, "greedy", {"bastions": "yes", "viscous": "yes", "split": "yes"}, 19, 150461),
    (2, "random", {"rounds": "off", "birthattack": "yes", "guard": "yes"}, 20, 158380),
    *((2 + g % 5, "greedy" if g % 2 else "random", {}, 1000 + g, g) for g in range(10)),
)

# game index -> (positions, sha256 of legal_actions, sha256 of the plan summaries)
EXPECTED: dict[int, tuple[int, str, str]] = {
    0: (
        135,
        "e7f3c38a763bd5171e301f16c8a712bb2d729398e39e90e049a649759864c87f",
        "a7376259f5eabb38d44ef81483904239ab4b32dfa4aca63e6fea725c3566ff1a",
    ),
    1: (
        165,
        "527a5001ef80fc4cdb1de634cb87df747c4935c9e301620a48d1e596b06f4d80",
        "7db7fe15e004a9b019a262833f60865237042209aca5726e900711fbb3a88d4e",
    ),
    2: (
        266,
        "f660faff9792f462faa760aeac100dc702978fcab8dd40d73ee2664e26a7fe1d",
        "7ee2a0fb32d4fcefbf5e2f7fb4b2c4b79417ddd16ab7acde17ed70930578c0a2",
    ),
    3: (
        336,
        "81d11c5b640a8cd2a3fe6c24756c266fe823c316401323e4d02fe21e301363dd",
        "2856247b48fc5eab742f012ec2ec544d64a83ccdb83ee3e96440d40281d6b122",
    ),
    4: (
        243,
        "1a0623ac8b347a4393e3f956d20a7998e0e484f5ff1d61a56a62c23067e2b9fb",
        "7a923f696347aea53ba74bf6c2a41554ffe39ce6338f13fafe6055d9cb9e9c81",
    ),
    5: (
        11,
        "4b77403632bc23848f3ea8ffb54279c24858bd7add03804710cba021ab51e995",
        "9f0a1b093177f10d67665f3f63491ac4fad13312249ea586f325fbac5553148c",
    ),
    6: (
        211,
        "0925fac5c566b45548c1ed7a226799b6f811afcd3bbe4bedc779eedb19e18d0a",
        "44120f351655caa75c95fde556f119e8946f6775f835d5123fdb694a77d9f7ab",
    ),
    7: (
        357,
        "768625e5fb304562802d9b10a475cdd01be66ca46c7ea2f20498d75b4fa5d9ed",
        "46d04697b930601b4a03a306e1da4e0766ba34e0e8c66fb6fa7f39d6e0dab021",
    ),
    8: (
        157,
        "4cc2c500dedaee5090438a611e9d05d7ca56e31fd9f2338d091227bf37124ebd",
        "5d99a1bb3a7927102c6b50feeae4bb1ef016984ec7631798fa71f51dceefc4df",
    ),
    9: (
        352,
        "e15e5d8d3ace821f458bcec99c5f543dd180a90d8597164388414b9c2a46007a",
        "f18006a2a76a8eac7dc7c026e9db52b22c868eb5c920862c2d2a33a66fc886dc",
    ),
    10: (
        130,
        "444046f5b99399430022415faed648a88d1957c524c3b255c560c2a72a2eeeb0",
        "e426dc29680c5dca4dcb62a90a4bc601e9452a7d7c223adacdb3879faf3cfa5e",
    ),
    11: (
        146,
        "ba5051ee1fab76eecd1f7ea7730e19f00c4e019742e14368589918a9428bee5f",
        "21d56ffba02bcd36ce6ecc4317d43147385a7330f39c32bde9494fddbc964495",
    ),
    12: (
        190,
        "4bd297698eec65c76e758e47e4f9f938c77c60718a3371954c68105f98cf7d36",
        "d294e23ff4b9f1d17690aa4bc8852f86e1f2aee28a99a04b6228671872f9ea7f",
    ),
    13: (
        217,
        "760226fa19f4f16a9f3a1699d4198a435eea4c45b002ffe2e799990a821878fa",
        "b5175abaec8a8d2d48739b7c88c4cf1d5da820ea24e17be1b2ada7dfac6457b4",
    ),
    14: (
        305,
        "82b4cfdc17ea50090987f4cde52654221d15795fadb22feca218ae703d6b4df9",
        "744553d258c2305eb325e279ebe2b6f01a8c4b30e2d6d91435cdb905e833a23f",
    ),
    15: (
        50,
        "477a1ff1d2f66295c639b18b409970e04fe82292ef09936c3794b520a6f6cc70",
        "698b0500360e1357f5bdc6db721b43d06fc571c854c3ae5eb22f488881e3af84",
    ),
    16: (
        108,
        "5bdb8ee90ec3659a545f7ad574049c8155918490280e11084b487725cfe4e6ed",
        "599d68cd5d4ff44cf0d298b12554f27d40f7314728126964d0fecbb801af3996",
    ),
    17: (
        188,
        "5c9101a344cc584f4d9e66ebe54384e44c3c199bdc385ac8f257416893db6246",
        "7c33b30c899280fb902729b291baed508a8dbb0590f13df20569f79b3bcc9d22",
    ),
    18: (
        328,
        "4187226b2f1cc55cdd5433cb33256a4c5a53ff5bafd37ef61441956841a68773",
        "3bf3f11a0db254459bc2115a994205ecd7da1d0dc8f1be14c189489d01fcbd33",
    ),
    19: (
        217,
        "24950fc940d1f45865a0e80ff9491af5005fd15580b5e5326bec0953e8c6d5d8",
        "317db0cdc5e12d674085ea69b405aee6ba0308ba6d62f0246d935a10c5cfacf0",
    ),
}


def plan_summary(action: dict[str, Any], plan: Any) -> list[Any]:
    return [
        action,
        plan.kind,
        plan.base,
        plan.steps,
        plan.cost,
        plan.armour,
        plan.added,
        plan.vacated,
        plan.destroyed,
        sorted(plan.merged),
        plan.collapse,
        plan.keep,
    ]


def play(index: int) -> tuple[int, str, str]:
    n, bot, options, seed, bot_seed = GAMES[index]
    state = GAME.setup([f"p{i}" for i in range(n)], dict(options), seed)
    rng = Rng(new_rng_state(bot_seed))
    legal_hash = hashlib.sha256()
    plan_hash = hashlib.sha256()
    positions = 0
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        legal_hash.update(canonical_json(GAME.legal_actions(state, player)).encode())
        legal_hash.update(b"\n")
        plans = rules.legal_plans(state, player)
        plan_hash.update(canonical_json([plan_summary(a, p) for a, p in plans]).encode())
        plan_hash.update(b"\n")
        positions += 1
        state, _ = GAME.apply(state, player, GAME.bots[bot](state, player, rng))
    return positions, legal_hash.hexdigest(), plan_hash.hexdigest()


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_legal_actions_unchanged_by_the_speed_work(index: int) -> None:
    assert play(index) == EXPECTED[index]


def same_as_reference(state: dict[str, Any], player: str) -> None:
    fast = list(legal.legal_actions(act.Position(state, player)))
    reference = [a for a, _ in rules.checked_legal(act.Position(state, player), None)]
    assert fast == reference
    assert rules.can_act(state, player) == bool(reference)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 4),
    variants=st.lists(st.sampled_from(VARIANTS), unique=True, max_size=3),
    points=st.integers(1, 26),
    first=st.booleans(),
    lost=st.booleans(),
)
def test_fast_generator_matches_the_checked_path_on_crowded_boards(
    seed: int, n: int, variants: list[str], points: int, first: bool, lost: bool
) -> None:
    rng = Rng(new_rng_state(seed))
    players = tuple(f"p{i}" for i in range(n))
    sides = SIDES_BY_PLAYERS[n]
    taken: dict[str, str] = {}
    for i, p in enumerate(players):
        # blobs grown from homeland cells and random cells: big figures touching each other
        homeland = list(HOMELANDS[sides[i]])
        for _ in range(1 + rng.below(4)):
            cell = rng.choice(homeland) if rng.below(2) else rng.choice(list(CELLS))
            for _ in range(rng.below(16)):
                taken.setdefault(cell, p)
                cell = rng.choice(list(NEIGHBOURS[cell]))
    pieces: dict[str, list[str]] = {p: [] for p in players}
    for cell, p in taken.items():
        pieces[p].append(cell)
    state = position(
        pieces,
        players=players,
        turn=players[rng.below(n)],
        points=points,
        first=first,
        options={v: "yes" for v in variants},
    )
    state["lost_piece"] = {p: lost and rng.below(2) == 0 for p in players}
    same_as_reference(state, state["turn"]["player"])


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 6),
    variants=st.lists(st.sampled_from(VARIANTS), unique=True, max_size=3),
    bot=st.sampled_from(["random", "greedy"]),
)
def test_fast_generator_matches_the_checked_path_in_bot_games(
    seed: int, n: int, variants: list[str], bot: str
) -> None:
    state = GAME.setup(
        [f"p{i}" for i in range(n)], {"rounds": "10", **dict.fromkeys(variants, "yes")}, seed
    )
    rng = Rng(new_rng_state(seed ^ 0xFA57))
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        same_as_reference(state, player)
        state, _ = GAME.apply(state, player, GAME.bots[bot](state, player, rng))
