"""Both backends implement the whole `Store` protocol (bot/store_protocol.py): every method
present, async where the protocol's is, with the protocol's parameters (names, kinds, defaults)
in order; an implementation may only add optional parameters. mypy checks the same statically
(bot/storage.py's `open_store` returns the protocol type)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from bot.store import Store as SqliteStore
from bot.store_pg import PgStore
from bot.store_protocol import MessageStore, SharedStore, Store


def members(proto: type) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for klass in reversed(proto.__mro__):
        if klass is object or not getattr(klass, "_is_protocol", False):
            continue
        for name, value in vars(klass).items():
            if callable(value) and not name.startswith("_"):
                found[name] = value
    return found


def incompatibilities(proto: type, impl: type) -> list[str]:
    wrong: list[str] = []
    for name, want in sorted(members(proto).items()):
        have = getattr(impl, name, None)
        if have is None:
            wrong.append(f"{name}: missing")
            continue
        if inspect.iscoroutinefunction(want) != inspect.iscoroutinefunction(have):
            wrong.append(f"{name}: async in one, not in the other")
        w = list(inspect.signature(want).parameters.values())
        h = list(inspect.signature(have).parameters.values())
        for i, p in enumerate(w):
            q = next((x for x in h if x.name == p.name), None)
            if q is None:
                wrong.append(f"{name}: no parameter {p.name}")
                continue
            if p.kind is not inspect.Parameter.KEYWORD_ONLY and h.index(q) != i:
                wrong.append(f"{name}: {p.name} at position {h.index(q)}, not {i}")
            if q.kind is not p.kind and q.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
                wrong.append(f"{name}: {p.name} is {q.kind.name}, not {p.kind.name}")
            if (p.default is inspect.Parameter.empty) != (q.default is inspect.Parameter.empty):
                wrong.append(f"{name}: {p.name} default differs")
            elif p.default is not Ellipsis and p.default != q.default:
                wrong.append(f"{name}: {p.name} = {q.default!r}, not {p.default!r}")
        variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        for q in h:
            extra = q.name not in {p.name for p in w} and q.kind not in variadic
            if extra and q.default is inspect.Parameter.empty:
                wrong.append(f"{name}: extra required parameter {q.name}")
    return wrong


@pytest.mark.parametrize("impl", [SqliteStore, PgStore], ids=["sqlite", "postgresql"])
def test_every_backend_implements_the_whole_store_protocol(impl: type) -> None:
    assert {"users", "inbox_put", "outbox_due", "game_lock", "commit_moves"} <= set(members(Store))
    assert incompatibilities(Store, impl) == []
    assert incompatibilities(MessageStore, impl) == []


def test_only_the_shared_backend_leases_and_listens_across_workers() -> None:
    assert incompatibilities(SharedStore, PgStore) == []
    assert incompatibilities(SharedStore, SqliteStore) != []


def test_the_check_finds_a_missing_method_and_a_changed_signature() -> None:
    class Broken(SqliteStore):
        users = None  # type: ignore[assignment]

        async def outbox_due(self, platform: str, limit: int = 500) -> list:  # type: ignore[override]
            return []

    found = incompatibilities(Store, Broken)
    assert "users: missing" in found
    assert any(f.startswith("outbox_due: no parameter now") for f in found)
