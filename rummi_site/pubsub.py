"""The Redis pub/sub channel layer, its group sends not queued one behind another
(docs/deploy.md "Sockets").

channels-redis 4.3's pub/sub layer sends every ``PUBLISH`` of a process through one lock that
it holds until Redis answers: a process's group sends go out one at a time, each waiting for
the previous one's answer, which on a busy event loop is a turn of the loop each. A move's
frames queued so behind the frames of every move that finished just before it. Here a publish
takes the client of the layer's connection as it is (made on first use, as the layer makes it)
and sends on a connection of its pool, as a Redis client's commands may run at once; the lock
still guards what needs it: subscribing, unsubscribing and closing.
"""

from __future__ import annotations

from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection


class UnqueuedShard(RedisSingleShardConnection):  # type: ignore[misc]
    """A shard connection whose publishes do not wait for each other."""

    async def publish(self, channel: str, message: bytes) -> None:
        self._ensure_redis()
        await self._redis.publish(channel, message)


class PubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels-redis's pub/sub layer with :class:`UnqueuedShard` connections."""

    def _get_layer(self) -> Any:
        layer = super()._get_layer()
        if not getattr(layer, "unqueued", False):
            # Before any use: a shard connects on its first publish or subscription.
            layer._shards = [UnqueuedShard(shard.host, layer) for shard in layer._shards]
            layer.unqueued = True
        return layer
