"""What flows between the platform adapters and the table service.

Adapters turn a platform update into an `Inbound` and send every `Outbound` they get back.
They never look inside a game. Keys:
- chat key: "tg:<chat_id>[:<thread_id>]", "dc:<channel_or_thread_id>", "local:<name>"
- user key: "tg:<user_id>", "dc:<user_id>", "local:<name>"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Button payloads travel as Telegram callback data, which is limited to 64 bytes.
MAX_PAYLOAD_BYTES = 64


@dataclass(frozen=True)
class Inbound:
    platform: str  # "telegram" | "discord" | "local"
    chat_key: str
    user_key: str
    display_name: str
    lang: str | None = None  # the platform's language for this user ("ru", "pl", "zh-hant", ...)
    update_id: str | None = None  # platform update id, for de-duplication
    text: str | None = None  # "/bid 13 20" (a leading "/" is optional)
    payload: str | None = None  # a pressed button's payload
    is_admin: bool = False  # the platform says this user administers the chat
    is_private: bool = False  # a one-to-one chat with the bot
    # The command is a message everyone in the chat reads (a group's text message on Telegram,
    # a group line on the terminal); not a button press, a Discord interaction (its answer
    # decides who sees it) or a private chat. A secret order typed so is refused (issue 20).
    seen_by_chat: bool = False
    # How the chat is named where it lives ("Game night", "My server / #games") and a link that
    # opens it ("https://t.me/c/123/45", "https://discord.com/channels/1/2"), when the platform
    # tells: the table stores them to name the chat to people (bot/chatnames.py).
    chat_title: str | None = None
    chat_link: str | None = None
    # Whether the bot may post pictures and files in the chat now, when the platform tells
    # (Discord: the bot's Attach Files in the interaction's channel); None: it does not say.
    # A chat that refused them takes them again (bot/outbox.py `pictures_seen`).
    files_allowed: bool | None = None


@dataclass(frozen=True)
class Button:
    label: str
    payload: str


@dataclass
class Outbound:
    chat_key: str
    text: str
    png: bytes | None = None
    # Further pictures sent with `png` as one group (Telegram media group, Discord attachments
    # of one message); the caption (`text`) goes with the first.
    album: list[bytes] = field(default_factory=list)
    buttons: list[list[Button]] = field(default_factory=list)  # rows of buttons
    # (user_key, display_name): the adapter turns "@display_name" in `text` into a real mention.
    mentions: list[tuple[str, str]] = field(default_factory=list)
    # When set, the message is for this user only (DM, or an ephemeral reply on Discord).
    private_to: str | None = None
    # Answer to a button press: a short toast (Telegram callback answer / Discord ephemeral).
    toast: str | None = None
    # A reply only the user who acted needs (a refused move, "not your turn", a usage hint):
    # shown to that user alone where the platform can (an ephemeral reply on Discord), an
    # ordinary reply in the chat elsewhere.
    sender_only: bool = False
    # Set when the message is already in the outbox (bot/outbox.py): the platform's sender loop
    # delivers it, so whoever receives it from `handle` must not send it again.
    outbox_id: int | None = None
    # Deliver without a notification sound (Telegram's disable_notification).
    silent: bool = False
    # Text laid out in columns (a board in words): a fixed-width font, every space kept
    # (Telegram's <pre>, a Discord code block).
    monospace: bool = False
    # An attached file other than a picture (the replay: "replay.mp4" is sent as an animation
    # on Telegram, anything else as a document; a Discord attachment).
    file: bytes | None = None
    filename: str = ""
    # An instruction the sender loop turns into pictures at send time (bot/ending.py), e.g.
    # {"what": "end", "game": 7, "lang": "ru"}: the outbox keeps the instruction, not megabytes.
    render: dict[str, Any] | None = None
    # A board picture still to draw: the instruction the sender loop renders at send time
    # (bot/announce.py `picture_instruction`); `text` is a fallback caption.
    picture: dict[str, Any] | None = None
    # The catalog language `text` is written in (its reader's); None: the sender's.
    lang: str | None = None
    # The live status message of this game (issue 17): the sender loop edits the game's one
    # status message in place, or posts (and pins) it when there is none or it is gone.
    status_of: int | None = None
    # Its event lines, which the sender loop adds to those the status message shows (after
    # `status_reset`: a new phase began, the old lines go); `text` is the rest (who acts).
    status_lines: list[str] = field(default_factory=list)
    status_reset: bool = False
    # Post as a reply to this game's status message (a prompt: replies gather under it).
    reply_status: int | None = None
    # A private acknowledgement of its reader's own run of moves: (game id, the run's first
    # version, its last). The sender loop folds it into the reader's previous private message
    # when that one acknowledged his moves of the same game just before (no other move came
    # between) and nothing else reached him since (bot/outbox.py, issue 17).
    fold_of: tuple[int, int, int] | None = None
    # The end of `text` a fold says once (the confirmation "Done in ..." of a move sent
    # privately, bot/confirm.py): when the message it folds into ends with the same words,
    # they are dropped there and stand only at the end of the joined text.
    fold_tail: str = ""
    # Filled in by the sender loop at delivery time: the platform's id of the message this
    # one edits (`edit_of`) or replies to (`reply_to`), and whether to pin it once posted.
    edit_of: str | None = None
    reply_to: str | None = None
    pin: bool = False
    # The game is over: unpin its live status message after this last edit (issue 17).
    unpin: bool = False
