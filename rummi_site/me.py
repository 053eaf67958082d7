"""The signed-in player's own socket (``/ws/me/``, docs/design.md "The live layer"): one per
open page, for what reaches a player wherever they are on the site: a tournament's call to a
new table, and "your move" in a correspondence game. Apps send to it through the one push path
(:func:`rummi_site.push.notify`); a page loaded before the call hears it all the same, with no
polling.

A visitor who is not signed in is refused (4401): the group is the account's. The socket is
accepted first and then closed with that code, as docs/api.md says: closed before it is
accepted, the server refuses the handshake itself (HTTP 403), and the page sees 1006 and tries
again, where 4401 tells it there is nothing to hear (static/players/notices.js).
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from rummi_site.pings import PING, PONG, answer_here
from rummi_site.push import user_group
from rummi_site.refusals import close_socket


class PlayerConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await close_socket(self, 4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        answer_here(self.scope)  # a ping needs nothing from this consumer

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data == PING:
            await self.send(text_data=PONG)

    async def player_notice(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])
