"""Discord on 127.0.0.1 for the crash tests: the HTTP API (answered by `DiscordHttp`, the
recording fake of tests/bot/platforms/fake_discord.py) and a gateway websocket that says hello,
answers IDENTIFY with READY and heartbeats with their ACK, and dispatches the interactions a
test hands it. A bot in another process reaches it by pointing discord.py's `Route.BASE` at
`base_url` (tests/bot/platforms/durable_discord_bot.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import discord
from aiohttp import WSMsgType, web

from tests.bot.platforms.fake_discord import APP_ID, BOT_ID, DiscordHttp, Request, _user


class FakeDiscord:
    def __init__(self) -> None:
        self.http = DiscordHttp()
        self.at: list[float] = []  # when each of `http.requests` arrived (time.monotonic)
        self.sockets: set[web.WebSocketResponse] = set()
        self.ready = asyncio.Event()  # a client identified since the last `expect_ready`
        # (method, path) -> seconds the answer waits (Discord slow or stalled); None: none.
        self.stall: Callable[[str, str], float | None] = lambda method, path: None
        self._seq = 0
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server: Any = site._server
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closing.set()
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- the test's side ----

    def expect_ready(self) -> None:
        self.ready.clear()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """A gateway event to every connected client (an interaction: INTERACTION_CREATE)."""
        self._seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        for ws in list(self.sockets):
            if not ws.closed:
                await ws.send_str(frame)

    def requests_since(self, index: int) -> list[tuple[float, Request]]:
        return list(zip(self.at[index:], self.http.requests[index:], strict=True))

    # ---- HTTP ----

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        if path == "/gateway/bot":
            return _json(
                {
                    "url": f"ws://127.0.0.1:{self.port}/gateway",
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 1000,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        body, files = await _body(request)
        self.http.requests.append(Request(request.method, path, body, files))
        self.at.append(time.monotonic())
        delay = self.stall(request.method, path)
        if delay:
            with contextlib.suppress(TimeoutError):  # a stall ends early when the fake closes
                await asyncio.wait_for(self._closing.wait(), delay)
        if self.http.refuses_files(path, files):  # no Attach Files there
            return _json({"code": 50013, "message": "Missing Permissions"}, status=403)
        try:
            answer = self.http.answer(request.method, path, body)
        except discord.HTTPException as exc:
            return _json({"code": exc.code, "message": exc.text}, status=exc.status)
        return web.Response(status=204) if answer is None else _json(answer)

    # ---- the gateway ----

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                if frame["op"] == 1:  # heartbeat
                    await ws.send_str(json.dumps({"op": 11}))
                elif frame["op"] in (2, 6):  # IDENTIFY (or RESUME: treated as a new session)
                    self._seq += 1
                    ready = {
                        "v": 10,
                        "user": _user(BOT_ID, "Boardchat", bot=True),
                        "session_id": f"session-{self._seq}",
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                        "guilds": [],
                        "shard": [0, 1],
                        "application": {"id": str(APP_ID), "flags": 0},
                    }
                    frame = {"op": 0, "t": "READY", "s": self._seq, "d": ready}
                    await ws.send_str(json.dumps(frame))
                    self.ready.set()
        finally:
            self.sockets.discard(ws)
        return ws


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads JSON only under exactly this content type (no charset).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


async def _body(request: web.Request) -> tuple[Any, list[bytes]]:
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[bytes] = []
        reader = await request.multipart()
        while True:
            part: Any = await reader.next()
            if part is None:
                return body, files
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                files.append(bytes(await part.read()))
    raw = await request.read()
    return (json.loads(raw) if raw else None), []
