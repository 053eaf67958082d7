"""The tournament socket: anyone may watch; it forwards the public standings frames."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from rummi_site.pings import PING, PONG, answer_here
from rummi_site.refusals import close_socket

from .live import group_name
from .models import Tournament
from .views import standings_frame


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tid = int(self.scope["url_route"]["kwargs"]["tid"])
        frame = await self._frame()
        if frame is None:
            await close_socket(self, 4404)
            return
        self.group = group_name(self.tid)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        answer_here(self.scope)  # a ping needs nothing from this consumer
        await self.send(text_data=json.dumps(frame))

    @database_sync_to_async
    def _frame(self) -> dict[str, Any] | None:
        t = Tournament.objects.filter(pk=self.tid).first()
        return standings_frame(t) if t is not None else None

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data == PING:
            await self.send(text_data=PONG)

    async def tournament_update(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])
