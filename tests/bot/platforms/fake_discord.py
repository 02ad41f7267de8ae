"""Fakes for the Discord adapter's tests: a table, interactions, and Discord's HTTP edge.

Two levels:
- `FakeInteraction` stands in for `discord.Interaction` when a command callback is called
  directly; it records defers, follow-ups and deletions.
- `DiscordHttp` replaces the two places where discord.py talks HTTP: `HTTPClient.request`
  (channels, threads, DMs, command sync, login) and `AsyncWebhookAdapter.request` (interaction
  callbacks and follow-ups). Raw gateway payloads (`slash_payload`, `button_payload`,
  `autocomplete_payload`) then go through discord.py's own parsing and dispatch.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

if TYPE_CHECKING:
    from discord.types.gateway import InteractionCreateEvent

from bot.messages import Button, Inbound, Outbound
from bot.outbox import Deliver
from bot.service import Sender
from engine.core.protocol import ArgSpec, CommandSpec

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
ALICE_ID = 600000000000000001
BOB_ID = 600000000000000002
PNG = b"\x89PNG\r\n\x1a\nfake-board"

_ids = itertools.count(500000000000000001)


def next_id() -> int:
    return next(_ids)


# --------------------------------------------------------------------------------------------
# A table service with a tiny auction game
# --------------------------------------------------------------------------------------------

SPECS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "new",
        "Start a new game in this chat",
        (
            ArgSpec("game", "choice", "Which game", choices=("powergrid", "hexania")),
            ArgSpec("options", "rest", "Options as key=value", required=False),
        ),
        kind="info",
    ),
    CommandSpec("join", "Take a seat at the table", kind="info"),
    CommandSpec(
        "bid",
        "Open an auction or raise the bid on a power plant",
        (
            ArgSpec("plant", "plant", "Plant number"),
            ArgSpec("amount", "int", "Your bid in Elektro", required=False),
        ),
    ),
    CommandSpec(
        "buy",
        "Buy resources",
        (
            ArgSpec("resource", "resource", "coal, oil, garbage or uranium"),
            ArgSpec("count", "int", "How many"),
        ),
    ),
    CommandSpec(
        "build",
        "Build in one or more cities " + "with a very long description " * 5,
        (ArgSpec("cities", "city", "Cities, cheapest order", repeated=True),),
    ),
    # A second game's /build with other arguments: Discord gets one free-text option.
    CommandSpec("build", "Build on a cell", (ArgSpec("cell", "cell", "Hex cell"),)),
    CommandSpec(
        "color",
        "Pick a colour",
        (ArgSpec("color", "choice", "Colour", choices=tuple(f"c{i}" for i in range(30))),),
        kind="info",
    ),
    CommandSpec("status", "Show the state of the game", kind="info"),
)

CITIES = ("Berlin", "Bremen", "Hamburg", "Hannover", "New York", "Newark")


@dataclass
class FakeTable:
    """TableService for tests: `/bid` in a one-plant auction, buttons with versions."""

    specs: Sequence[CommandSpec] = SPECS
    inbounds: list[Inbound] = field(default_factory=list)
    completions: list[tuple[str, str, str, str]] = field(default_factory=list)
    senders: dict[str, Sender] = field(default_factory=dict)
    deliveries: dict[str, Deliver] = field(default_factory=dict)
    version: int = 1
    high_bid: int = 0
    fail: bool = False
    turn: str | None = None  # when set, only this user key may /bid

    def command_specs(self) -> Sequence[CommandSpec]:
        return self.specs

    def command_menu(self, lang: str | None) -> list[tuple[str, str]]:
        return [(s.name, s.help) for s in self.specs]

    def register_sender(self, platform: str, send: Sender) -> None:
        self.senders[platform] = send

    def register_delivery(
        self, platform: str, deliver: Deliver, *, hold_replies: float = 0.0
    ) -> object:
        self.deliveries[platform] = deliver
        return deliver

    async def delivered(self, outbox_id: int, message_id: str | None) -> None:
        return None

    async def keep_update(self, platform: str, update_id: str, payload: str) -> None:
        return None

    async def update_done(self, platform: str, update_id: str) -> None:
        return None

    async def pending_updates(self, platform: str) -> list[tuple[str, str]]:
        return []

    async def complete(self, chat_key: str, user_key: str, kind: str, prefix: str) -> list[str]:
        self.completions.append((chat_key, user_key, kind, prefix))
        if kind == "city":
            return [c for c in CITIES if c.lower().startswith(prefix.lower())]
        if kind == "plant":
            return [str(n) for n in (3, 4, 5, 13, 31) if str(n).startswith(prefix)]
        return []

    def buttons(self) -> list[list[Button]]:
        return [
            [
                Button(f"Raise to {self.high_bid + 1}", f"g1:{self.version}:raise"),
                Button("Pass", f"g1:{self.version}:pass"),
            ]
        ]

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        self.inbounds.append(inbound)
        if self.fail:
            raise RuntimeError("table exploded")
        if inbound.payload is not None:
            return self._press(inbound)
        words = (inbound.text or "").split()
        name, args = words[0].lstrip("/"), words[1:]
        chat, user = inbound.chat_key, inbound.user_key
        if name == "bid" and self.turn is not None and user != self.turn:
            return [Outbound(chat, "Not your turn — waiting for Alice.", sender_only=True)]
        if name == "bid":
            amount = int(args[1]) if len(args) > 1 else int(args[0])
            if amount <= self.high_bid:
                return [
                    Outbound(
                        chat,
                        f"Your bid must be more than {self.high_bid} (PG-21)",
                        private_to=user,
                    )
                ]
            return [self._bid(inbound, amount)]
        if name == "new":
            return [Outbound(chat, f"New {args[0]} table. /join to sit down.")]
        if name == "status":
            return [
                Outbound(chat, "Round 1\n" + "market line\n" * 400, png=PNG),
                Outbound(chat, "Your hand: plant 13", private_to=user),
                Outbound(chat, "Bob, psst", private_to=f"dc:{BOB_ID}"),
            ]
        return [Outbound(chat, f"ok: {inbound.text}")]

    def _bid(self, inbound: Inbound, amount: int) -> Outbound:
        self.high_bid = amount
        self.version += 1
        return Outbound(
            inbound.chat_key,
            f"@{inbound.display_name} bids {amount}. @Bob, your turn.",
            png=PNG,
            buttons=self.buttons(),
            mentions=[(inbound.user_key, inbound.display_name), (f"dc:{BOB_ID}", "Bob")],
        )

    def _press(self, inbound: Inbound) -> list[Outbound]:
        _game, version, action = (inbound.payload or "").split(":")
        if int(version) != self.version:
            # Like bot/table.py: a private line that is also the toast.
            stale = "This button is out of date."
            return [Outbound(inbound.chat_key, stale, private_to=inbound.user_key, toast=stale)]
        if action == "raise":
            return [self._bid(inbound, self.high_bid + 1)]
        self.version += 1
        return [Outbound(inbound.chat_key, f"{inbound.display_name} passes.", toast="You passed.")]


# --------------------------------------------------------------------------------------------
# A fake Interaction for calling command callbacks directly
# --------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    id: int
    display_name: str

    @property
    def name(self) -> str:
        return self.display_name.lower()

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Sent:
    """One message the adapter sent, with the file read back."""

    content: str | None
    ephemeral: bool
    png: bytes | None
    view: discord.ui.View | None
    allowed_users: list[int]

    @classmethod
    def from_kwargs(cls, kwargs: dict[str, Any]) -> Sent:
        file: discord.File | None = kwargs.get("file")
        mentions: discord.AllowedMentions | None = kwargs.get("allowed_mentions")
        users = mentions.users if mentions is not None else []
        return cls(
            content=kwargs.get("content"),
            ephemeral=bool(kwargs.get("ephemeral", False)),
            png=file.fp.read() if file is not None else None,
            view=kwargs.get("view"),
            allowed_users=[u.id for u in users] if isinstance(users, list) else [],
        )

    @property
    def custom_ids(self) -> list[str]:
        if self.view is None:
            return []
        return [item.custom_id for item in self.view.children]  # type: ignore[attr-defined]


class FakeResponse:
    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.deferred: dict[str, Any] | None = None

    async def defer(self, *, thinking: bool = False, ephemeral: bool = False) -> None:
        if self.deferred is not None:
            raise AssertionError("deferred twice")
        self.deferred = {"thinking": thinking, "ephemeral": ephemeral}
        self.log.append("defer")

    def is_done(self) -> bool:
        return self.deferred is not None


class FakeFollowup:
    def __init__(self, log: list[str], sent: list[Sent]) -> None:
        self.log = log
        self.sent = sent

    async def send(self, **kwargs: Any) -> None:
        self.log.append("followup")
        self.sent.append(Sent.from_kwargs(kwargs))


class FakeInteraction:
    """What the adapter reads from and calls on a `discord.Interaction`."""

    def __init__(
        self,
        client: Any = None,
        *,
        user: FakeUser | None = None,
        channel_id: int = CHANNEL_ID,
        channel: Any = None,
        guild_id: int | None = GUILD_ID,
        locale: discord.Locale = discord.Locale.american_english,
        permissions: discord.Permissions | None = None,
    ) -> None:
        self.client = client
        self.id = next_id()
        self.user = user or FakeUser(ALICE_ID, "Alice")
        self.channel_id = channel_id
        self.channel = channel
        self.guild_id = guild_id
        self.locale = locale
        self.permissions = permissions or discord.Permissions.none()
        self.app_permissions = discord.Permissions.all()  # the bot's in the channel
        self.log: list[str] = []
        self.sent: list[Sent] = []
        self.response = FakeResponse(self.log)
        self.followup = FakeFollowup(self.log, self.sent)

    async def delete_original_response(self) -> None:
        self.log.append("delete_original")


def as_interaction(fake: FakeInteraction) -> discord.Interaction[Any]:
    """The fake where the adapter declares discord.py's Interaction (it reads only the above)."""
    return cast("discord.Interaction[Any]", fake)


# A TranslationContext's data (the command, parameter, ...) for the tests of translators that
# read only the context's location.
NO_DATA: Any = None


# --------------------------------------------------------------------------------------------
# Discord's HTTP edge
# --------------------------------------------------------------------------------------------


@dataclass
class Request:
    method: str
    path: str
    json: Any
    files: list[bytes]

    @property
    def flags(self) -> int:
        data = self.json.get("data", self.json) if isinstance(self.json, dict) else {}
        return int((data or {}).get("flags", 0) or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)


def _user(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def _payload_from(kwargs: dict[str, Any]) -> tuple[Any, list[bytes]]:
    """The JSON body and file contents of a request, multipart or not."""
    files = [f.fp.read() for f in kwargs.get("files") or []]
    for part in kwargs.get("multipart") or kwargs.get("form") or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"]), files
    body = kwargs.get("payload", kwargs.get("json"))
    return body, files


class DiscordHttp:
    """Records every HTTP request discord.py makes and answers like Discord would."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        # Users whose DMs refuse the bot (Discord answers 403, code 50007).
        self.closed_dms: set[int] = set()
        self.messages: dict[int, dict[str, Any]] = {}  # channel messages the bot sent
        self.pinned: dict[int, int] = {}  # channel -> its pinned message
        self.may_pin = True  # False: the bot lacks Manage Messages (pinning is Forbidden)
        # Channels where the bot lacks Attach Files: a post with files is Forbidden (50013).
        self.no_files: set[int] = set()
        self.channels: dict[int, dict[str, Any]] = {
            CHANNEL_ID: {
                "id": str(CHANNEL_ID),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "games",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            }
        }

    # ---- helpers for assertions ----

    def find(self, method: str, contains: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and contains in r.path]

    def callbacks(self) -> list[Request]:
        return self.find("POST", "/callback")

    def followups(self) -> list[Request]:
        return [r for r in self.find("POST", "/webhooks/") if "/messages" not in r.path]

    # ---- answers ----

    def _message(self, channel_id: int, body: Any) -> dict[str, Any]:
        body = body or {}
        return {
            "id": str(next_id()),
            "channel_id": str(channel_id),
            "author": _user(BOT_ID, "Boardchat", bot=True),
            "content": body.get("content", ""),
            "timestamp": "2025-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags", 0),
            "components": body.get("components", []),
        }

    def answer(self, method: str, path: str, body: Any) -> Any:
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return _user(BOT_ID, "Boardchat", bot=True)
        if path == "/oauth2/applications/@me":
            return {
                "id": str(APP_ID),
                "name": "boardchat",
                "description": "",
                "icon": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": _user(ALICE_ID, "Alice"),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
            }
        if method == "PUT" and path.endswith("/commands"):
            return [
                {**cmd, "id": str(next_id()), "application_id": str(APP_ID), "version": "1"}
                for cmd in body
            ]
        if method == "POST" and parts[0] == "interactions":
            return {"interaction": {"id": parts[1], "type": 2}}
        if parts[0] == "webhooks":
            if method == "DELETE":
                return None
            return self._message(CHANNEL_ID, body)
        if method == "POST" and path.endswith("/threads"):
            thread_id = next_id()
            parent = int(parts[1])
            data = {
                "id": str(thread_id),
                "type": 11,
                "guild_id": str(GUILD_ID),
                "parent_id": str(parent),
                "owner_id": str(BOT_ID),
                "name": body["name"],
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": body.get("auto_archive_duration", 1440),
                    "archive_timestamp": "2025-01-01T00:00:00+00:00",
                    "locked": False,
                },
            }
            self.channels[thread_id] = data
            return data
        if method == "POST" and path.endswith("/messages") and parts[0] == "channels":
            if int(parts[1]) - 1 in self.closed_dms:  # a DM channel's id is its user's + 1
                raise _forbidden()
            message = self._message(int(parts[1]), body)
            self.messages[int(message["id"])] = message
            return message
        if method == "PATCH" and parts[0] == "channels" and parts[2] == "messages":
            edited = self.messages.get(int(parts[3]))
            if edited is None:
                raise _not_found()
            edited.update({k: v for k, v in (body or {}).items() if k in ("content", "components")})
            return edited
        if method == "PUT" and parts[0] == "channels" and parts[2:4] == ["messages", "pins"]:
            if not self.may_pin:
                raise _forbidden()
            self.pinned[int(parts[1])] = int(parts[4])
            return None
        if method == "DELETE" and parts[0] == "channels" and parts[2:4] == ["messages", "pins"]:
            if not self.may_pin:
                raise _forbidden()
            if self.pinned.get(int(parts[1])) == int(parts[4]):
                del self.pinned[int(parts[1])]
            return None
        if method == "GET" and parts[0] == "channels":
            cid = int(parts[1])
            if cid not in self.channels:
                raise _not_found()
            return self.channels[cid]
        if method == "POST" and path == "/users/@me/channels":
            uid = int(body["recipient_id"])
            return self.open_dm(uid)
        if method == "GET" and parts[0] == "users":
            return _user(int(parts[1]), "Bob")
        raise AssertionError(f"unexpected request {method} {path}")

    def open_dm(self, uid: int) -> dict[str, Any]:
        """The user's private channel with the bot (its id the user's + 1), known from now on
        to GET /channels/<id> as Discord knows it (a DM interaction's channel too)."""
        data = {"id": str(uid + 1), "type": 1, "recipients": [_user(uid, "Bob")]}
        self.channels[uid + 1] = data
        return data

    # ---- the two edges ----

    def refuses_files(self, path: str, files: list[bytes]) -> bool:
        """A post with files to a channel where the bot lacks Attach Files."""
        return bool(files) and path.strip("/").split("/")[1:2] in ([str(c)] for c in self.no_files)

    async def client_request(self, route: Any, **kwargs: Any) -> Any:
        body, files = _payload_from(kwargs)
        path = _path(route)
        self.requests.append(Request(route.method, path, body, files))
        if self.refuses_files(path, files):
            raise _forbidden(50013, "Missing Permissions")
        return self.answer(route.method, path, body)

    def install(self, client: discord.Client) -> None:
        client.http.request = self.client_request  # type: ignore[method-assign]


class RecordingWebhookAdapter(AsyncWebhookAdapter):
    def __init__(self, http: DiscordHttp) -> None:
        super().__init__()
        self.http = http

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        body, files = _payload_from(kwargs)
        path = _path(route)
        self.http.requests.append(Request(route.method, path, body, files))
        return self.http.answer(route.method, path, body)


def _path(route: Any) -> str:
    return route.url[len(Route.BASE) :].split("?")[0]


def _not_found() -> discord.NotFound:
    class _Resp:
        status = 404
        reason = "Not Found"

    return discord.NotFound(_Resp(), {"code": 10003, "message": "Unknown Channel"})


def _forbidden(
    code: int = 50007, message: str = "Cannot send messages to this user"
) -> discord.Forbidden:
    class _Resp:
        status = 403
        reason = "Forbidden"

    return discord.Forbidden(_Resp(), {"code": code, "message": message})


@contextlib.asynccontextmanager
async def discord_http(client: discord.Client) -> AsyncIterator[DiscordHttp]:
    """Put the recording HTTP edge under `client` (and the interaction webhooks)."""
    http = DiscordHttp()
    http.install(client)
    token = async_context.set(RecordingWebhookAdapter(http))
    try:
        yield http
    finally:
        async_context.reset(token)


async def settle() -> None:
    """Wait for every task discord.py spawned (command invokers, view dispatch) to finish
    (the table's outbox sender loops run for good: not waited for)."""
    me = asyncio.current_task()
    for _ in range(50):
        pending = [
            t
            for t in asyncio.all_tasks()
            if t is not me and not t.done() and not t.get_name().startswith("outbox:")
        ]
        if not pending:
            return
        await asyncio.wait(pending, timeout=5)
    raise AssertionError("tasks did not settle")


# --------------------------------------------------------------------------------------------
# Raw gateway payloads
# --------------------------------------------------------------------------------------------


def _base(
    kind: int,
    *,
    user_id: int,
    name: str,
    channel_id: int,
    locale: str,
    permissions: int,
) -> dict[str, Any]:
    return {
        "id": str(next_id()),
        "application_id": str(APP_ID),
        "type": kind,
        "token": f"token-{next_id()}",
        "version": 1,
        "guild_id": str(GUILD_ID),
        "channel_id": str(channel_id),
        "channel": {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": "games",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        },
        "member": {
            "user": _user(user_id, name),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(permissions),
        },
        "locale": locale,
        "guild_locale": "en-US",
        "app_permissions": str(discord.Permissions.all().value),
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
    }


def as_event(payload: dict[str, Any]) -> InteractionCreateEvent:
    """A payload built here as plain JSON, typed as the gateway event discord.py parses."""
    return cast("InteractionCreateEvent", payload)


def slash_payload(
    name: str,
    options: dict[str, Any] | None = None,
    *,
    user_id: int = ALICE_ID,
    user_name: str = "Alice",
    channel_id: int = CHANNEL_ID,
    locale: str = "en-US",
    permissions: int = 0,
    focused: str | None = None,
) -> dict[str, Any]:
    """INTERACTION_CREATE for `/name option=value ...` (type 2), or autocomplete (type 4) when
    `focused` names the option being typed."""
    option_types = {bool: 5, int: 4, str: 3}
    opts = []
    for key, value in (options or {}).items():
        opt: dict[str, Any] = {"name": key, "type": option_types[type(value)], "value": value}
        if key == focused:
            opt["focused"] = True
        opts.append(opt)
    data = _base(
        4 if focused else 2,
        user_id=user_id,
        name=user_name,
        channel_id=channel_id,
        locale=locale,
        permissions=permissions,
    )
    data["data"] = {
        "id": str(next_id()),
        "name": name,
        "type": 1,
        "options": opts,
        "guild_id": str(GUILD_ID),
    }
    return data


def button_payload(
    custom_id: str,
    label: str = "Pass",
    *,
    user_id: int = BOB_ID,
    user_name: str = "Bob",
    channel_id: int = CHANNEL_ID,
    locale: str = "en-US",
) -> dict[str, Any]:
    """INTERACTION_CREATE for a press of a button on a message the bot sent earlier."""
    data = _base(
        3, user_id=user_id, name=user_name, channel_id=channel_id, locale=locale, permissions=0
    )
    button = {"type": 2, "style": 2, "label": label, "custom_id": custom_id}
    data["data"] = {"custom_id": custom_id, "component_type": 2}
    data["message"] = {
        "id": str(next_id()),
        "channel_id": str(channel_id),
        "author": _user(BOT_ID, "Boardchat", bot=True),
        "content": "Alice bids 13.",
        "timestamp": "2025-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
        "components": [{"type": 1, "components": [button]}],
    }
    return data


async def status_prompt(http: DiscordHttp, channel_id: int = CHANNEL_ID) -> Request:
    """The first status message of a game, which asks the players at /start (posted by the
    table's outbox sender loop after the command's follow-ups, pinned): waited for."""
    for _ in range(500):
        posted = [
            r
            for r in http.find("POST", f"/channels/{channel_id}/messages")
            if "<@" in r.json.get("content", "") and r.json.get("components")
        ]
        if posted:
            return posted[-1]
        await asyncio.sleep(0.01)
    raise AssertionError("no status message asked the players")
