"""A socket the site will not keep open is accepted and closed with the code docs/api.md gives
(4401 signed out, 4404 nothing there), which the page reads; only a foreign origin is refused at
the handshake itself (HTTP 403), before anything of the site runs."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from rummi_site.asgi import application
from tests.games.test_it_pushes_frames_without_leaking_racks import closing

pytestmark = pytest.mark.django_db(transaction=True)


def socket(path: str, origin: bytes = b"http://127.0.0.1") -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"127.0.0.1")]
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/ws/me/", 4401),  # signed out
        ("/ws/games/%00/", 4404),  # an id no game can have
        ("/ws/games/no-such-game/", 4404),
        ("/ws/tournaments/987654/", 4404),
        ("/ws/no/such/socket/", 4404),
    ],
)
def test_a_refused_socket_closes_with_the_documented_code(path: str, code: int) -> None:
    assert asyncio.run(closing(socket(path))) == ("closed", code)


def test_a_foreign_origin_is_refused_at_the_handshake() -> None:
    refused = socket("/ws/games/no-such-game/", origin=b"https://evil.example")
    assert asyncio.run(closing(refused))[0] == "refused"
