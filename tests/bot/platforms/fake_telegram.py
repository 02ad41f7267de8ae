"""A fake Telegram world for the adapter tests: a Bot API HTTP server, an in-process request
class, and a small scripted table service.

`FakeBotApi` is an aiohttp server on 127.0.0.1 (random port) that answers the Bot API methods
the adapter uses, queues updates for getUpdates (long polls wait briefly), records every call,
and can be told to fail (429 with retry_after, 403 for a user who never started the bot).
`DictRequest` answers the same methods without HTTP, for the fast handler tests.
`FakeTable` is a TableService with a tiny game: enough to prove the plumbing end to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self

from aiohttp import web
from telegram.ext import AIORateLimiter
from telegram.request import BaseRequest, RequestData

from bot.messages import Button, Inbound, Outbound
from bot.outbox import Deliver
from bot.platforms.telegram import MAX_RETRIES
from bot.service import Sender
from bot.settings import Settings
from engine.core.protocol import ArgSpec, CommandSpec

# The calls that post a message (flood control and a gone chat apply to them).
SENDING = ("sendMessage", "sendPhoto", "sendMediaGroup")
TOKEN = "123456:TEST-token"
BOT_USER = {
    "id": 123456,
    "is_bot": True,
    "first_name": "Boardchat",
    "username": "boardchat_test_bot",
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}
# A 1x1 PNG.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)
ADMIN_FIELDS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
}


@dataclass
class Call:
    """One Bot API call as the fake saw it. `params` hold the raw form values (strings)."""

    method: str
    params: dict[str, str]
    files: dict[str, bytes] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)
    result: Any = None  # what the fake answered ("result" of an ok answer)

    @property
    def message_id(self) -> int:
        return int(self.result["message_id"])

    def json(self, name: str) -> Any:
        return json.loads(self.params[name])

    @property
    def chat_id(self) -> int | None:
        return int(self.params["chat_id"]) if "chat_id" in self.params else None

    @property
    def thread_id(self) -> int | None:
        value = self.params.get("message_thread_id")
        return int(value) if value else None

    @property
    def text(self) -> str:
        return self.params.get("text") or self.params.get("caption") or ""

    @property
    def buttons(self) -> list[list[tuple[str, str]]]:
        """The inline keyboard as rows of (label, callback_data)."""
        if "reply_markup" not in self.params:
            return []
        rows = self.json("reply_markup")["inline_keyboard"]
        return [[(b["text"], b["callback_data"]) for b in row] for row in rows]


# The sending methods a group's media permissions restrict, with the word its error uses.
MEDIA = {
    "sendPhoto": "photos",
    "sendMediaGroup": "photos",
    "sendDocument": "documents",
    "sendAnimation": "animations",
}


class BotApiState:
    """The world behind the API: chats, users, sent messages, queued updates, recorded calls."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.updates: list[dict[str, Any]] = []
        self.admins: set[tuple[int, int]] = set()
        self.unstarted: set[int] = set()  # users who never pressed Start in a private chat
        self.failures: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self.chats: dict[int, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.sent: dict[int, dict[str, Any]] = {}
        self.max_poll_wait = 0.2
        # Flood control: when set, every send asks it; a number n answers 429 retry_after n.
        self.flood: Callable[[], int] | None = None
        self.gone: set[int] = set()  # chats the bot was removed from (403 for good)
        self.pinned: dict[int, int] = {}  # chat -> its pinned message
        self.no_pin: set[int] = set()  # chats where the bot may not pin
        self.no_media: set[int] = set()  # groups whose members (the bot) may send text only
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._callback_ids = itertools.count(1)
        self._changed = asyncio.Condition()

    # ---- the world

    def user(
        self, user_id: int, first_name: str, last_name: str | None = None, lang: str | None = None
    ) -> dict[str, Any]:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if last_name:
            user["last_name"] = last_name
        if lang:
            user["language_code"] = lang
        self.users[user_id] = user
        return user

    def group(self, chat_id: int, title: str = "Game night", forum: bool = False) -> dict[str, Any]:
        chat = {"id": chat_id, "type": "supergroup", "title": title}
        if forum:
            chat["is_forum"] = True
        self.chats[chat_id] = chat
        return chat

    def chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id > 0:
            user = self.users.get(chat_id, {"first_name": str(chat_id)})
            return {"id": chat_id, "type": "private", "first_name": user["first_name"]}
        return self.group(chat_id)

    def fail_next(self, method: str, status: int, description: str, **parameters: Any) -> None:
        """The next call of `method` gets this error answer (queue several for several calls)."""
        body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
        if parameters:
            body["parameters"] = parameters
        self.failures.setdefault(method, []).append((status, body))

    # ---- updates

    def push(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        self.updates.append({"update_id": update_id, **update})
        asyncio.get_running_loop().create_task(self._notify())
        return update_id

    def message_update(
        self, chat_id: int, user: dict[str, Any], text: str, thread_id: int | None = None
    ) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self.chat(chat_id),
            "from": user,
            "text": text,
        }
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        return {"message": message}

    def command(
        self, chat_id: int, user: dict[str, Any], text: str, thread_id: int | None = None
    ) -> int:
        return self.push(self.message_update(chat_id, user, text, thread_id))

    def press_update(self, user: dict[str, Any], message: dict[str, Any], data: str) -> dict:
        return {
            "callback_query": {
                "id": str(next(self._callback_ids)),
                "from": user,
                "message": message,
                "chat_instance": f"ci{message['chat']['id']}",
                "data": data,
            }
        }

    def press(self, user: dict[str, Any], message_id: int, data: str) -> int:
        return self.push(self.press_update(user, self.sent[message_id], data))

    # ---- calls

    def record(self, call: Call) -> None:
        self.calls.append(call)
        asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def since(self, mark: int, *methods: str) -> list[Call]:
        calls = self.calls[mark:]
        return [c for c in calls if not methods or c.method in methods]

    def messages(self, mark: int = 0) -> list[Call]:
        return self.since(mark, "sendMessage", "sendPhoto", "sendMediaGroup")

    async def wait_for(self, predicate: Callable[[Self], Any], timeout: float = 5.0) -> Any:
        """Wait until `predicate(self)` is truthy; return its value."""

        async def wait() -> Any:
            async with self._changed:
                while not (value := predicate(self)):
                    await self._changed.wait()
                return value

        return await asyncio.wait_for(wait(), timeout)

    async def wait_calls(
        self, mark: int, method: str, count: int = 1, timeout: float = 5.0
    ) -> list[Call]:
        return await self.wait_for(
            lambda s: (found := s.since(mark, method))[count - 1 :] and found, timeout
        )

    # ---- answers

    def answer(self, method: str, params: dict[str, str], files: dict[str, bytes]) -> Any:
        """(status, body) for one call; the result objects are what Telegram would send."""
        call = Call(method, params, files)
        self.record(call)
        if self.failures.get(method):
            return self.failures[method].pop(0)
        if method in SENDING and self.flood is not None:
            retry_after = self.flood()
            if retry_after:
                body = {
                    "ok": False,
                    "error_code": 429,
                    "description": f"Too Many Requests: retry after {retry_after}",
                    "parameters": {"retry_after": retry_after},
                }
                call.result = "flood"
                return 429, body
        if method in SENDING and int(params.get("chat_id", 0)) in self.gone:
            return 403, {
                "ok": False,
                "error_code": 403,
                "description": "Forbidden: bot was kicked from the supergroup chat",
            }
        if method in MEDIA and int(params.get("chat_id", 0)) in self.no_media:
            kind = MEDIA[method]  # Telegram's words when a group restricts its media
            return 400, {
                "ok": False,
                "error_code": 400,
                "description": f"Bad Request: not enough rights to send {kind} to the chat",
            }
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        status, body = handler(params, files)
        call.result = body.get("result")
        return status, body

    def _ok(self, result: Any) -> tuple[int, dict[str, Any]]:
        return 200, {"ok": True, "result": result}

    def _m_getMe(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._ok(BOT_USER)

    def _m_deleteWebhook(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._ok(True)

    def _m_setWebhook(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._ok(True)

    def _m_setMyCommands(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._ok(True)

    def _m_answerCallbackQuery(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._ok(True)

    def _m_getChatMember(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        user = self.users.get(user_id, {"id": user_id, "is_bot": False, "first_name": "?"})
        if (chat_id, user_id) in self.admins:
            return self._ok({"status": "administrator", "user": user, **ADMIN_FIELDS})
        return self._ok({"status": "member", "user": user})

    def _new_message(self, params: dict[str, str], **content: Any) -> Any:
        chat_id = int(params["chat_id"])
        if chat_id in self.unstarted:
            return 403, {
                "ok": False,
                "error_code": 403,
                "description": "Forbidden: bot can't initiate conversation with a user",
            }
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self.chat(chat_id),
            "from": BOT_USER,
            **content,
        }
        if params.get("message_thread_id"):
            message["message_thread_id"] = int(params["message_thread_id"])
            message["is_topic_message"] = True
        if "reply_markup" in params:
            message["reply_markup"] = json.loads(params["reply_markup"])
        self.sent[message["message_id"]] = message
        return self._ok(message)

    def _m_sendMessage(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._new_message(params, text=params["text"])

    def _m_sendPhoto(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        if not files:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: no photo"}
        photo = [{"file_id": "photo1", "file_unique_id": "u1", "width": 1, "height": 1}]
        extra = {"caption": params["caption"]} if "caption" in params else {}
        return self._new_message(params, photo=photo, **extra)

    def _m_sendAnimation(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        if not files:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: no file"}
        data = next(iter(files.values()))
        animation = {"file_id": "anim1", "file_unique_id": "a1", "width": 1, "height": 1}
        animation |= {"duration": 1, "file_size": len(data)}
        extra = {"caption": params["caption"]} if "caption" in params else {}
        return self._new_message(params, animation=animation, **extra)

    def _m_sendDocument(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        if not files:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: no file"}
        data = next(iter(files.values()))
        document = {"file_id": "doc1", "file_unique_id": "d1", "file_size": len(data)}
        extra = {"caption": params["caption"]} if "caption" in params else {}
        return self._new_message(params, document=document, **extra)

    def _m_sendMediaGroup(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        """2-10 photos as one group: one message each, sharing a media_group_id; the caption
        rides on the photo that carries it (the first, by convention)."""
        media = json.loads(params.get("media") or "[]")
        bad = not 2 <= len(media) <= 10 or any(
            m.get("type") != "photo"
            or not str(m.get("media", "")).startswith("attach://")
            or str(m["media"])[len("attach://") :] not in files
            for m in media
        )
        if bad:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: media"}
        if "reply_markup" in params:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: markup"}
        group = f"group{next(self._message_ids)}"
        messages = []
        for m in media:
            photo = [{"file_id": m["media"], "file_unique_id": m["media"], "width": 1, "height": 1}]
            extra = {"caption": m["caption"]} if "caption" in m else {}
            status, body = self._new_message(params, photo=photo, media_group_id=group, **extra)
            if status != 200:
                return status, body
            messages.append(body["result"])
        return self._ok(messages)

    def album(self, call: Call) -> list[bytes]:
        """The PNGs of a sendMediaGroup call, in order."""
        media = json.loads(call.params["media"])
        return [call.files[str(m["media"])[len("attach://") :]] for m in media]

    def _edited(self, params: dict[str, str], **changes: Any) -> Any:
        message = self.sent.get(int(params["message_id"]))
        if message is None:
            return 400, {"ok": False, "error_code": 400, "description": "message not found"}
        message.update(changes)
        if "reply_markup" in params:
            message["reply_markup"] = json.loads(params["reply_markup"])
        else:
            message.pop("reply_markup", None)
        return self._ok(message)

    def _m_editMessageText(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._edited(params, text=params["text"])

    def _m_pinChatMessage(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        chat_id, message_id = int(params["chat_id"]), int(params["message_id"])
        if chat_id in self.no_pin:
            return 400, {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: not enough rights to manage pinned messages",
            }
        if message_id not in self.sent:
            return 400, {"ok": False, "error_code": 400, "description": "message not found"}
        self.pinned[chat_id] = message_id
        return self._ok(True)

    def _m_unpinChatMessage(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        chat_id = int(params["chat_id"])
        if chat_id in self.no_pin:
            return 400, {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: not enough rights to manage pinned messages",
            }
        message_id = int(params.get("message_id") or self.pinned.get(chat_id, 0))
        if self.pinned.get(chat_id) == message_id:
            del self.pinned[chat_id]
        return self._ok(True)

    def _m_editMessageReplyMarkup(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        return self._edited(params)

    def _m_getUpdates(self, params: dict[str, str], files: dict[str, bytes]) -> Any:
        offset = int(params.get("offset") or 0)
        self.updates = [u for u in self.updates if u["update_id"] >= offset]
        return self._ok(self.updates[:100])


class FakeBotApi(BotApiState):
    """The Bot API over real HTTP: `async with FakeBotApi() as api: api.base_url ...`."""

    def __init__(self) -> None:
        super().__init__()
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.open_polls = 0  # getUpdates requests being held right now
        self.closing = False

    async def __aenter__(self) -> FakeBotApi:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._serve)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/bot"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.closing = True  # release held long polls, so cleanup does not wait for them
        await self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _serve(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            body = {"ok": False, "error_code": 401, "description": "Unauthorized"}
            return web.json_response(body, status=401)
        method = request.match_info["method"]
        params: dict[str, str] = {}
        files: dict[str, bytes] = {}
        form = await request.post()
        for name, value in form.items():
            if isinstance(value, web.FileField):
                files[name] = value.file.read()
            elif isinstance(value, bytes | bytearray):
                params[name] = value.decode()
            else:
                params[name] = str(value)
        if method == "getUpdates" and not self.pending(params):
            # Long polling: hold the request until an update comes (briefly, in tests) or the
            # server closes.
            timeout = min(float(params.get("timeout") or 0), self.max_poll_wait)
            self.open_polls += 1
            await self._notify()
            try:
                with contextlib.suppress(TimeoutError):
                    await self.wait_for(lambda s: s.closing or s.pending(params), timeout=timeout)
            finally:
                self.open_polls -= 1
        status, body = self.answer(method, params, files)
        return web.json_response(body, status=status)

    def pending(self, params: dict[str, str]) -> bool:
        offset = int(params.get("offset") or 0)
        return any(u["update_id"] >= offset for u in self.updates)


class DictRequest(BaseRequest):
    """An in-process `BaseRequest`: the same answers as the server, without HTTP."""

    def __init__(self, state: BotApiState | None = None) -> None:
        self.state = state or BotApiState()

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        api_method = url.rsplit("/", 1)[-1]
        params: dict[str, str] = {}
        files: dict[str, bytes] = {}
        if request_data is not None:
            params = dict(request_data.json_parameters)
            for name, (_filename, content, _mime) in request_data.multipart_data.items():
                files[name] = content if isinstance(content, bytes) else content.read()
        status, body = self.state.answer(api_method, params, files)
        return status, json.dumps(body).encode()


# ---------------------------------------------------------------- a scripted table


class FakeTable:
    """A TableService with a toy game, to prove the adapter's plumbing.

    /new opens a lobby, /join seats the sender, /start deals; then /bid N (N >= 10, else a
    one-line refusal), /pass (a button too) ends the phase and a picture follows. Button
    payloads carry the game version; a press on an older version only gets a toast.
    """

    SPECS: Sequence[CommandSpec] = (
        CommandSpec("new", "Open a table", (ArgSpec("game", "choice", choices=("toy",)),)),
        CommandSpec("join", "Take a seat"),
        CommandSpec("start", "Start the game"),
        CommandSpec("bid", "Bid on the lot", (ArgSpec("amount", "int"),)),
        CommandSpec("pass", "Pass"),
        CommandSpec("status", "Where are we?", kind="info"),
        CommandSpec("whisper", "A private word", kind="info"),
        CommandSpec("abort", "End the game (admins)"),
        CommandSpec("Bad-Name", "Not a Telegram command"),
    )

    def __init__(self) -> None:
        self.inbounds: list[Inbound] = []
        self.senders: dict[str, Sender] = {}
        self.deliveries: dict[str, Deliver] = {}
        self.inbox: dict[tuple[str, str], str] = {}
        self.inbox_done: set[tuple[str, str]] = set()
        self.players: list[tuple[str, str]] = []
        self.started = False
        self.version = 0
        self.phase = 1
        self.high_bid = 0

    # ---- TableService

    def command_specs(self) -> Sequence[CommandSpec]:
        return self.SPECS

    def command_menu(self, lang: str | None) -> list[tuple[str, str]]:
        suffix = f" [{lang}]" if lang else ""
        return [(s.name, s.help + suffix) for s in self.SPECS]

    async def complete(self, chat_key: str, user_key: str, kind: str, prefix: str) -> list[str]:
        return []

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
        self.inbox.setdefault((platform, update_id), payload)

    async def update_done(self, platform: str, update_id: str) -> None:
        self.inbox_done.add((platform, update_id))

    async def pending_updates(self, platform: str) -> list[tuple[str, str]]:
        return [
            (u, p)
            for (pl, u), p in self.inbox.items()
            if pl == platform and (pl, u) not in self.inbox_done
        ]

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        self.inbounds.append(inbound)
        if inbound.payload is not None:
            version, _, text = inbound.payload.partition(":")
            if int(version.lstrip("v")) != self.version:
                msg = "This button is out of date."  # as the real table: toast + private
                return [Outbound(inbound.chat_key, msg, private_to=inbound.user_key, toast=msg)]
            return self._command(inbound, text)
        return self._command(inbound, inbound.text or "")

    # ---- the toy game

    def _out(self, inbound: Inbound, text: str, **kw: Any) -> Outbound:
        return Outbound(inbound.chat_key, text, mentions=list(self.players), **kw)

    def _buttons(self) -> list[list[Button]]:
        return [
            [Button("Pass", f"v{self.version}:/pass"), Button("Bid 20", f"v{self.version}:/bid 20")]
        ]

    def _command(self, inbound: Inbound, text: str) -> list[Outbound]:
        name, *args = text.lstrip("/").split() or [""]
        me = (inbound.user_key, inbound.display_name)
        if name == "new":
            self.players, self.started, self.version = [], False, 0
            return [self._out(inbound, "A new table for toy. /join to play.")]
        if name == "join":
            if me not in self.players:
                self.players.append(me)
            return [self._out(inbound, f"@{inbound.display_name} joined ({len(self.players)}).")]
        if name == "abort":
            if not inbound.is_admin:
                return [self._out(inbound, "Only an admin of this chat may abort the game.")]
            self.started = False
            return [self._out(inbound, "The game was aborted.")]
        if name == "whisper":
            return [Outbound(inbound.chat_key, "Psst.", private_to=inbound.user_key)]
        if name == "status":
            state = f"phase {self.phase}, high bid {self.high_bid}" if self.started else "lobby"
            return [self._out(inbound, f"Status: {state}.")]
        if not self.started and name == "start":
            self.started, self.version = True, 1
            names = ", ".join(f"@{n}" for _, n in self.players)
            return [self._out(inbound, f"Game on: {names}. Bid or pass.", buttons=self._buttons())]
        if not self.started:
            return [self._out(inbound, "No game here yet: /new toy")]
        if name == "bid":
            amount = int(args[0]) if args and args[0].isdigit() else 0
            if amount < max(10, self.high_bid + 1):
                return [self._out(inbound, f"Bid at least {max(10, self.high_bid + 1)} (PG-21).")]
            self.high_bid, self.version = amount, self.version + 1
            text = f"@{inbound.display_name} bids {amount}."
            return [self._out(inbound, text, buttons=self._buttons())]
        if name == "pass":
            self.phase, self.version, self.high_bid = self.phase + 1, self.version + 1, 0
            text = f"@{inbound.display_name} passes. Phase {self.phase - 1} ended."
            return [
                self._out(inbound, text, png=PNG),
                self._out(inbound, f"Phase {self.phase}: bid or pass.", buttons=self._buttons()),
            ]
        return [self._out(inbound, f"Unknown command /{name}.")]

    async def remind(self, chat_key: str, text: str) -> None:
        """What the scheduler would do: push a message nobody asked for."""
        await self.senders["telegram"](Outbound(chat_key, text, mentions=list(self.players)))


def make_settings(**overrides: Any) -> Settings:
    """Settings for the tests: our token, long polling, no self-hosted server."""
    base = Settings(
        telegram_token=TOKEN,
        telegram_webhook_url="",
        telegram_webhook_listen="127.0.0.1:8443",
        telegram_api_base_url="",
        discord_token="",
        discord_guild_id="",
        db=":memory:",
        log_level="INFO",
        default_lang="en",
    )
    return replace(base, **overrides)


def no_retries() -> AIORateLimiter:
    """No pacing and no retries inside the library: a 429 reaches the outbox sender loop."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=0)


def unthrottled() -> AIORateLimiter:
    """The production limiter's retries without its per-minute pacing (tests send a lot)."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=MAX_RETRIES)
