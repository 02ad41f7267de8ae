"""legal_actions returns exactly what it returned before the speed work (HEX-T-5).

The hashes below were recorded with the original (slow) generator: for every position of a
few seeded bot games (2..6 players, random and greedy bots, every variant), the canonical JSON
of `legal_actions` in order, and a summary of each plan the bots see (`legal_plans`). Any
change to which actions come back, their order or their plans changes a hash. Re-recorded once
for the HEX-2 correction (rules v1.1): the games changed (bots spend every affordable point, and
`end` is listed only before acting); `legal.py`, the generator itself, did not change.

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
        119,
        "d366a17a8ba8a2ffb72f85d775749ab035e1179675c3a187b614d2e4e03878ec",
        "60f6fffa382e97572326808bb86c373bde01b36f65658dffa823cbcfb1389404",
    ),
    1: (
        165,
        "5f3bf4658bfdc7ce4207a91051fc59dd3d6055384375964f96fa62d597ea1f25",
        "7db7fe15e004a9b019a262833f60865237042209aca5726e900711fbb3a88d4e",
    ),
    2: (
        230,
        "ca066675974b5d659e8284c3a17de583c24d9b5a6b8d879627c46b31c03fdcaa",
        "28152deecdbcceba21e9eb540f1a7720884c3397765a4262fa87270750fce357",
    ),
    3: (
        336,
        "249259153ac89222da59faa5763f770062a0d6f82273cb392df21f0d48a3ab77",
        "2856247b48fc5eab742f012ec2ec544d64a83ccdb83ee3e96440d40281d6b122",
    ),
    4: (
        203,
        "7b5000a44051e22831bc9d5bde549ef0628ad179ce947c1fb326e212cd29342b",
        "551410436827cac592f1d2b1fa1c1504ec825d81b3f9f21acd5ab4413a92739b",
    ),
    5: (
        11,
        "fbbfbd3b6ad0f8b03fd4c71df017f0944fe83636a911d7d3ba40abdd3fe0af85",
        "9f0a1b093177f10d67665f3f63491ac4fad13312249ea586f325fbac5553148c",
    ),
    6: (
        195,
        "8c733233b96a1ab084b34e298f2f76fc6d7e4d9d15847f5175ed7542a214891e",
        "39000dd52cc82829c5d493f10d2ea2add9648f6712e86a0e0d4848f9e3eed50c",
    ),
    7: (
        357,
        "03ff881bbc60e61d89edfa79b6a7940b7ec352cbd17325a04e27e20fe6dd1ef9",
        "46d04697b930601b4a03a306e1da4e0766ba34e0e8c66fb6fa7f39d6e0dab021",
    ),
    8: (
        157,
        "9f4f0f7aa9d1563c44779dd9b93bf41e23a7d128b5ca2a7b6f284100eb48d04c",
        "5d99a1bb3a7927102c6b50feeae4bb1ef016984ec7631798fa71f51dceefc4df",
    ),
    9: (
        65,
        "54844cda281ab0e189c12a6ab28de00f79f374746fe8ca27b2716d3c62a02b56",
        "44840e17b5a0d8f5393db6597fd26b903a95e42228158d1d0572021ba9ce8eb2",
    ),
    10: (
        54,
        "ac27a6d7a31fe6c1a11d498f6a03c95eba7d7226ca0e8615c1458528c2011ff3",
        "8823846bd560387e14523ef45bfc3abbec3437147374e22ca56845b1d2719f58",
    ),
    11: (
        146,
        "6437ec39c997b980490da53c82edffcf4009e4b0abe9e1e8c55950fce17a205e",
        "21d56ffba02bcd36ce6ecc4317d43147385a7330f39c32bde9494fddbc964495",
    ),
    12: (
        185,
        "1648526442794fc4f13d34d8d1887872e845c651a07abc18488932fd97c3725a",
        "4c9216514deb94d7195323a0e415286514c88b3e8a8baee94da402344298ca2a",
    ),
    13: (
        217,
        "72619aca6152de5f8b46de70264154e6a0d0dbd1b769e8b56b4cd62bb9e8c535",
        "b5175abaec8a8d2d48739b7c88c4cf1d5da820ea24e17be1b2ada7dfac6457b4",
    ),
    14: (
        199,
        "98d1e67c1c3146f4749f46021f51c12e08669f50a64b03472acbbd9ecd93ee9e",
        "c32e7b93cd4ee386c149ccd0ca44b9a48d62ba1d95452b52eb5a45ddac8dc185",
    ),
    15: (
        50,
        "b741f6fe516bd003f2b4e6bed4412e57ef2d0c8002131c318e4d239008c5ea5a",
        "698b0500360e1357f5bdc6db721b43d06fc571c854c3ae5eb22f488881e3af84",
    ),
    16: (
        216,
        "7d51a740df40b3668007663fb60d9117f4c92f7a57b2c19c9ebb120f89ac9f18",
        "e8e3866750ff5dbca3f646bbd6df94cbba3e776b381b0e4bd5a4c6f7acbaeb27",
    ),
    17: (
        188,
        "4c06d74da0848959de408c549f73921a1856c3a32bd5767978172b6cd4c75853",
        "7c33b30c899280fb902729b291baed508a8dbb0590f13df20569f79b3bcc9d22",
    ),
    18: (
        311,
        "47add4fde146ddacad7ebfca0e3a2f56c0a487676dcd2f06d1cdee460659b54f",
        "b0289b9b8eb3da473ca17556d4d93db6f9b9120b1f43990be37f9d1cb66f27d3",
    ),
    19: (
        214,
        "b82d40ebc54a8bb910529c72aca02f6f2f24e837f143bb87d742665f24ce0c75",
        "3cb2bf978a8767f685784cb6d7cf7afaa51d2ff68f52bd79d19c4de25ce56e45",
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
    checked = list(rules.checked_legal(act.Position(state, player), None))
    reference = [a for a, _ in checked]
    assert fast == reference
    # The plans built with the actions are `actions.plan`'s, field for field and in order.
    plans = list(legal.legal_plans(act.Position(state, player)))
    assert [plan_summary(a, p) for a, p in plans] == [plan_summary(a, p) for a, p in checked]
    assert [list(p.destroyed) for _, p in plans] == [list(p.destroyed) for _, p in checked]
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
