"""Game state is plain JSON data; this is its one canonical serialisation."""

from __future__ import annotations

import json
from typing import Any

# One encoder for every call (the table serialises a state, an action, its events and the
# public view per move): sorted keys, no spaces, UTF-8 text kept as is. No circularity check:
# JSON state is a tree (a cycle would end in RecursionError instead of ValueError).
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False
)


def canonical_json(value: Any) -> str:
    """Serialise deterministically: sorted keys, no spaces, UTF-8 text kept as is."""
    return _CANONICAL.encode(value)


def load_state(text: str) -> Any:
    return json.loads(text)
