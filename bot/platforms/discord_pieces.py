"""Discord's outgoing side: the table's buttons as persistent components (dispatched by
their custom id, even after a restart) and an Outbound cut into Discord messages."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.messages import Button, Outbound
from bot.outbox import MessageGone
from bot.platforms.discord_commands import (
    _ELLIPSIS,
    BUTTON_LABEL_LIMIT,
    BUTTON_PREFIX,
    BUTTON_TEMPLATE,
    CUSTOM_ID_LIMIT,
    ROW_BUTTONS,
    VIEW_ROWS,
    render_mentions,
    shorten,
    split_text,
)

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------
# Buttons
# --------------------------------------------------------------------------------------------


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button carrying the table's payload; dispatched by its custom id, even after a restart."""

    def __init__(self, payload: str, label: str = _ELLIPSIS, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL_LIMIT) or _ELLIPSIS,
                style=discord.ButtonStyle.secondary,
                custom_id=f"{BUTTON_PREFIX}{payload}",
            ),
            row=row,
        )
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        label = getattr(item, "label", None) or _ELLIPSIS
        return cls(match["payload"], label, row=getattr(item, "row", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        adapter = getattr(interaction.client, "adapter", None)
        if adapter is None or not hasattr(adapter, "on_button"):
            log.error("discord: button pressed on a client without a boardchat adapter")
            return
        await adapter.on_button(interaction, self.payload)


def build_view(rows: Sequence[Sequence[Button]]) -> discord.ui.View | None:
    """Outbound.buttons as a persistent view (at most 5 rows of 5); None without buttons."""
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(rows[:VIEW_ROWS]):
        for button in row[:ROW_BUTTONS]:
            if len(BUTTON_PREFIX) + len(button.payload) > CUSTOM_ID_LIMIT:
                log.error("discord: button payload too long, left out: %r", button.payload)
                continue
            view.add_item(TableButton(button.payload, button.label, row=r))
    return view if view.children else None


# --------------------------------------------------------------------------------------------
# Outgoing messages
# --------------------------------------------------------------------------------------------


ATTACHMENT_LIMIT = 10  # files in one Discord message


@dataclass
class Piece:
    """One Discord message of an Outbound (long texts take several)."""

    content: str
    png: bytes | None
    view: discord.ui.View | None
    user_ids: list[int]
    attachment: tuple[bytes, str] | None = None  # another file: (bytes, filename)
    # Further pictures of the set: attachments of the same message (Discord takes up to 10).
    album: list[bytes] = field(default_factory=list)
    silent: bool = False  # no notification (SUPPRESS_NOTIFICATIONS)

    def file(self) -> discord.File | None:
        # A fresh file object for each send: discord.File is consumed when sent.
        if self.attachment is not None:
            return discord.File(io.BytesIO(self.attachment[0]), filename=self.attachment[1])
        return discord.File(io.BytesIO(self.png), filename="board.png") if self.png else None

    def files(self) -> list[discord.File]:
        """The picture set as attachments of one message (fresh file objects, as `file`)."""
        pngs = [self.png, *self.album] if self.png else []
        return [
            discord.File(io.BytesIO(png), filename=f"board-{i + 1}.png")
            for i, png in enumerate(pngs[:ATTACHMENT_LIMIT])
        ]

    def allowed_mentions(self) -> discord.AllowedMentions:
        """Only the users the message names, and none when it is silent: a silent message
        shows the mention but pings nobody (issue 17)."""
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[] if self.silent else [discord.Object(id=uid) for uid in self.user_ids],
        )

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            out["content"] = self.content
        if self.album:
            out["files"] = self.files()
        else:
            file = self.file()
            if file is not None:
                out["file"] = file
        if self.silent:
            out["silent"] = True
        if self.view is not None:
            out["view"] = self.view
        return out


CODE_FENCE = "```"


def pieces(out: Outbound) -> list[Piece]:
    """The messages for one Outbound; the picture and the buttons go with the last one."""
    text, user_ids = render_mentions(out.text or "", out.mentions)
    if out.monospace and text.strip():  # a board in words: a code block keeps its columns
        text = CODE_FENCE + "\n" + text.replace(CODE_FENCE, "").rstrip() + "\n" + CODE_FENCE
    chunks = split_text(text)
    view = build_view(out.buttons)
    if not chunks and (out.png or out.file or view):
        chunks = [""]
    result = [
        Piece(content=c, png=None, view=None, user_ids=user_ids, silent=out.silent) for c in chunks
    ]
    if result:
        result[-1].png = out.png
        result[-1].album = list(out.album)
        result[-1].view = view
        if out.file is not None:
            result[-1].attachment = (out.file, out.filename or "file")
    return result


def toast_pieces(text: str) -> list[Piece]:
    return [Piece(content=c, png=None, view=None, user_ids=[]) for c in split_text(text)]


async def send_all(
    target: discord.abc.Messageable,
    items: list[Piece],
    *,
    reply_to: str | None = None,
    pin: bool = False,
) -> str | None:
    """Send the pieces; the first replies to `reply_to` (the live status message) when given,
    the last is pinned when asked (a Forbidden pin is ignored). The id of the last."""
    sent: discord.Message | None = None
    channel_id = getattr(target, "id", None)
    for i, piece in enumerate(items):
        kwargs = piece.kwargs()
        if i == 0 and reply_to is not None and reply_to.isdigit() and channel_id is not None:
            kwargs["reference"] = discord.MessageReference(
                message_id=int(reply_to), channel_id=channel_id, fail_if_not_exists=False
            )
        sent = await target.send(**kwargs)
    if pin and sent is not None:
        try:
            await sent.pin()
        except discord.HTTPException as exc:  # no Manage Messages permission: left unpinned
            log.info("discord: cannot pin in %s: %s", channel_id, exc)
    return str(sent.id) if sent is not None else None


async def edit_piece(channel: discord.abc.Messageable, message_id: str, piece: Piece) -> str:
    """Edit the live status message in place; `MessageGone` when it was deleted."""
    partial = getattr(channel, "get_partial_message", None)
    if partial is None or not message_id.isdigit():
        raise MessageGone(f"cannot edit message {message_id} here")
    try:
        await partial(int(message_id)).edit(
            content=piece.content, view=piece.view, allowed_mentions=piece.allowed_mentions()
        )
    except discord.NotFound as exc:
        raise MessageGone(f"NotFound: {exc}") from exc
    return message_id


async def edit_private(user: discord.User, message_id: str, items: list[Piece]) -> str:
    """Edit a private message the bot sent (a folded acknowledgement, bot/outbox.py): through
    the user's DM channel; `MessageGone` (post afresh) when the text no longer fits in one."""
    if len(items) != 1:
        raise MessageGone(f"{message_id}: the folded text is longer than one message")
    channel = user.dm_channel or await user.create_dm()
    return await edit_piece(channel, message_id, items[0])
