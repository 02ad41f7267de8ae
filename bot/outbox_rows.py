"""An outbox row and the message it stands for (bot/outbox.py's sender loop delivers them):
the row of a fitted message (`row_of`, its JSON body `body_of`) and the message again from
the stored row (`outbound_of`)."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.messages import Button, Outbound
from bot.store_outbox import AUDIENCE_CHAT, OutboxItem, OutRow

PLATFORM_OF_PREFIX = {"tg": "telegram", "dc": "discord", "local": "local"}


def platform_of(chat_key: str) -> str:
    return PLATFORM_OF_PREFIX.get(chat_key.split(":", 1)[0], "local")


def body_of(out: Outbound) -> dict[str, Any]:
    """The JSON body of an outbox row (the picture's bytes travel in their own column)."""
    body: dict[str, Any] = {"text": out.text}
    if out.buttons:
        body["buttons"] = [[[b.label, b.payload] for b in row] for row in out.buttons]
    if out.mentions:
        body["mentions"] = [list(m) for m in out.mentions]
    if out.sender_only:
        body["sender_only"] = True
    if out.monospace:
        body["monospace"] = True
    if out.render:
        body["render"] = dict(out.render)
    if out.album:  # rare (a /board answer drawn at once): the further pictures ride in the body
        body["album"] = [base64.b64encode(png).decode("ascii") for png in out.album]
    if out.picture is not None:
        body["picture"] = out.picture
    if out.status_of is not None:
        body["status_of"] = out.status_of
        body["status_lines"] = list(out.status_lines)
        body["status_reset"] = out.status_reset
        if out.unpin:
            body["unpin"] = True
    if out.reply_status is not None:
        body["reply_status"] = out.reply_status
    if out.fold_of is not None:
        body["fold_of"] = list(out.fold_of)
    if out.fold_tail:
        body["fold_tail"] = out.fold_tail
    return body


def row_of(out: Outbound, lang: str, game_id: int | None = None, sent: bool = False) -> OutRow:
    """The outbox row of one (fitted) message: its audience is the person it is private to,
    else the chat."""
    return OutRow(
        platform=platform_of(out.chat_key),
        chat_key=out.chat_key,
        audience=out.private_to or AUDIENCE_CHAT,
        lang=lang,
        body=body_of(out),
        kind=(
            "edit"
            if out.status_of is not None
            else "picture"
            if out.png is not None or out.picture is not None
            else "post"
        ),
        silent=out.silent,
        png=out.png,
        game_id=game_id,
        sent=sent,
    )


def outbound_of(item: OutboxItem) -> Outbound:
    body = item.body
    return Outbound(
        item.chat_key,
        str(body.get("text", "")),
        png=item.png,
        album=[base64.b64decode(p) for p in body.get("album", [])],
        buttons=[[Button(str(b[0]), str(b[1])) for b in row] for row in body.get("buttons", [])],
        mentions=[(str(m[0]), str(m[1])) for m in body.get("mentions", [])],
        private_to=None if item.audience == AUDIENCE_CHAT else item.audience,
        sender_only=bool(body.get("sender_only", False)),
        monospace=bool(body.get("monospace", False)),
        outbox_id=item.id,
        silent=item.silent,
        render=dict(body["render"]) if isinstance(body.get("render"), dict) else None,
        picture=body.get("picture"),
        status_of=_int_or_none(body.get("status_of")),
        status_lines=[str(x) for x in body.get("status_lines", [])],
        status_reset=bool(body.get("status_reset", False)),
        unpin=bool(body.get("unpin", False)),
        reply_status=_int_or_none(body.get("reply_status")),
        fold_of=_fold_of(body.get("fold_of")),
        fold_tail=str(body.get("fold_tail", "")),
        lang=item.lang,  # what the platform words itself (a note for a refused DM) goes in it
    )


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, int | str) and str(value).lstrip("-").isdigit() else None


def _fold_of(value: Any) -> tuple[int, int, int] | None:
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return (value[0], value[1], value[2])
    return None


def queued(outs: Sequence[Outbound], ids: Sequence[int]) -> list[Outbound]:
    """The messages with the ids of their outbox rows (in the same order)."""
    return [replace(out, outbox_id=i) for out, i in zip(outs, ids, strict=True)]
