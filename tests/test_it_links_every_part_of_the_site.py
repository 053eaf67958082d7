"""The site's navigation (issue 18): from any page one click reaches play, the puzzles, the
daily puzzle, the editor and the rules; signed in, the settings and signing out; and the footer
links the rules."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

EVERYWHERE = ["home", "puzzles:trainer", "puzzles:daily", "puzzles:editor", "how_to_play"]


@pytest.mark.parametrize("page", ["home", "how_to_play", "account_login", "puzzles:editor"])
def test_every_page_links_the_parts_of_the_site(page: str) -> None:
    html = Client().get(reverse(page)).content.decode()

    nav, _, rest = html.partition("</nav>")
    for name in EVERYWHERE:
        assert f'href="{reverse(name)}"' in nav, name
    assert f'href="{reverse("account_login")}"' in nav
    assert f'href="{reverse("how_to_play")}"' in rest.partition("<footer")[2]


def test_signed_in_the_navigation_has_settings_and_sign_out(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    nav = client.get(reverse("home")).content.decode().partition("</nav>")[0]

    assert f'href="{reverse("preferences")}"' in nav
    assert f'action="{reverse("account_logout")}"' in nav
    assert "Signed in as" in nav
    assert f'href="{reverse("player_profile", args=["alice"])}">alice</a>' in nav
    assert f'href="{reverse("account_login")}"' not in nav


def test_the_home_page_reaches_each_puzzle_page_in_one_click() -> None:
    main = Client().get(reverse("home")).content.decode().partition("<main")[2]

    for name in ("puzzles:trainer", "puzzles:daily", "puzzles:editor"):
        assert f'href="{reverse(name)}"' in main, name
