"""The Redis pub/sub layer's group sends go out at once, not one behind another
(rummi_site/pubsub.py): a move's frames no longer wait for every publish before them to be
answered. Against the real Redis server, every frame of many sends at once still arrives."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

from rummi_site.pubsub import PubSubChannelLayer, UnqueuedShard

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


class SlowRedis:
    """A Redis client whose PUBLISH takes a while to be answered; counts those in flight."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most = 0
        self.sent: list[tuple[str, bytes]] = []

    async def publish(self, channel: str, message: bytes) -> int:
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        await asyncio.sleep(0.05)
        self.in_flight -= 1
        self.sent.append((channel, message))
        return 1

    async def aclose(self, close_connection_pool: bool = True) -> None:
        """Closed with the loop's layers (channels-redis closes its clients then)."""


async def most_in_flight(layer: Any, sends: int) -> tuple[int, int]:
    inner = layer._get_layer()
    redis = SlowRedis()
    for shard in inner._shards:
        shard._redis = redis  # as if connected: the layer makes its client on first use
    await asyncio.gather(*(layer.group_send("game.x", {"type": "t", "n": n}) for n in range(sends)))
    return redis.most, len(redis.sent)


def test_group_sends_wait_for_no_other_publish() -> None:
    layer = PubSubChannelLayer(hosts=[REDIS_URL])
    assert asyncio.run(most_in_flight(layer, 5)) == (5, 5)
    # channels-redis's own connection answers them one at a time: what this replaces.
    assert asyncio.run(most_in_flight(RedisPubSubChannelLayer(hosts=[REDIS_URL]), 5)) == (1, 5)


def test_the_layer_made_for_each_loop_has_the_unqueued_connections() -> None:
    layer = PubSubChannelLayer(hosts=[REDIS_URL])

    async def shards() -> list[Any]:
        first = layer._get_layer()
        assert layer._get_layer() is first  # made once a loop
        return list(first._shards)

    for _ in range(2):  # a second loop gets its own
        found = asyncio.run(shards())
        assert found and all(type(s) is UnqueuedShard for s in found)
        assert all(isinstance(s, RedisSingleShardConnection) for s in found)


def redis_reachable() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.mark.skipif(not redis_reachable(), reason="no Redis server at REDIS_URL")
def test_every_frame_of_many_sends_at_once_reaches_the_group_through_redis() -> None:
    layer = PubSubChannelLayer(hosts=[REDIS_URL], prefix=f"test{os.getpid()}")

    async def scenario() -> list[int]:
        channel = await layer.new_channel()
        await layer.group_add("game.many", channel)
        await asyncio.gather(
            *(layer.group_send("game.many", {"type": "t", "n": n}) for n in range(50))
        )
        got = [(await asyncio.wait_for(layer.receive(channel), 10))["n"] for _ in range(50)]
        await layer.group_discard("game.many", channel)
        await layer.flush()
        return got

    assert sorted(asyncio.run(scenario())) == list(range(50))
