"""Links come from reverse() and the models' URL methods; no page or view writes a path out."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import resolve, reverse

from games import services
from games.models import Game, socket_path
from games.routing import websocket_urlpatterns

from .conftest import client_for, viewer

ROOT = Path(__file__).resolve().parents[2]
ROUTES = re.compile(r"^/(g|join|api|puzzles|accounts|ws|internal|games|admin)(/|$)")


def _path_literals(source: str) -> list[str]:
    """String literals (and literal parts of f-strings) that start with one of the site's
    paths; docstrings (which document the API) aside."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):  # an f-string's literal parts are constants of their own
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and ROUTES.match(node.value)
        ):
            found.append(node.value)
    return found


@pytest.mark.parametrize("app", ["games", "puzzles", "accounts", "rummi_site"])
def test_no_view_or_model_writes_a_site_path_out(app: str) -> None:
    written = {
        str(path.relative_to(ROOT)): _path_literals(path.read_text())
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and "engine" not in path.parts
    }
    assert {path: found for path, found in written.items() if found} == {}


def test_no_template_writes_a_site_path_out() -> None:
    attribute = re.compile(r"""(href|action|src)=["']/""")
    written = {
        str(path.relative_to(ROOT)): attribute.findall(path.read_text())
        for path in (ROOT / "templates").rglob("*.html")
    }
    assert {path: found for path, found in written.items() if found} == {}


@pytest.mark.django_db
def test_the_models_links_resolve_to_their_views(duel: Game) -> None:
    assert resolve(duel.get_absolute_url()).url_name == "game"
    assert resolve(duel.api_url).url_name == "api_game"
    seat = duel.seats.get(index=1)
    assert resolve(seat.invite_url).url_name == "join"
    assert seat.invite_url == reverse("join", args=[seat.invite_token])


def test_the_socket_path_is_the_route_the_router_serves() -> None:
    [route] = websocket_urlpatterns
    path = socket_path("Ab-9_x")

    assert path == "/ws/games/Ab-9_x/"
    match = route.pattern.match(path.lstrip("/"))
    assert match is not None and match[2] == {"gid": "Ab-9_x"}


@pytest.mark.django_db
def test_the_board_gets_its_addresses_from_the_bootstrap(duel: Game, alice: Any) -> None:
    html = client_for(alice).get(duel.get_absolute_url()).content.decode()
    found = re.search(r'<script id="bootstrap" type="application/json">(.*?)</script>', html)
    assert found is not None
    boot = json.loads(found[1])

    assert boot["api"] == duel.api_url == f"/api/games/{duel.public_id}/"
    assert boot["ws"] == duel.socket_path
    assert boot["home"] == reverse("home")


@pytest.mark.django_db
def test_the_waiting_room_listens_on_the_games_socket(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    html = client_for(alice).get(game.get_absolute_url()).content.decode()

    assert f"${{location.host}}{game.socket_path}`" in html.replace("\\u002D", "-")
    invite = game.seats.get(index=1).invite_url
    assert invite in html


@pytest.mark.django_db
def test_a_csrf_failure_is_json_on_the_api_and_a_page_elsewhere(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    api = client.post(reverse("api_create"), {}, content_type="application/json")
    assert api.status_code == 403 and api.json()["error"] == "csrf"
    puzzles_api = client.post(reverse("puzzles:api_editor"), {}, content_type="application/json")
    assert puzzles_api.status_code == 403 and puzzles_api.json()["error"] == "csrf"
    page = client.post(reverse("new_game"), {"mode": "parlor"})
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")
