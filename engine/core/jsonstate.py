"""Game state is plain JSON data; this is its one canonical serialisation."""

from __future__ import annotations

import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Serialise deterministically: sorted keys, no spaces, UTF-8 text kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load_state(text: str) -> Any:
    return json.loads(text)
