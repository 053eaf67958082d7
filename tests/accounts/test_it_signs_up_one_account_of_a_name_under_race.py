"""Sign-ups of one name, or of look-alikes, sent at once (docs/fair-play.md "Names"): found on
2026-12-08, six sign-ups of one username answered one 200 and five 500s (the username's
unique constraint), and ``oscar``, ``OSCAR`` and ``Oscar`` were all made, since each passed
the form's check before any had committed. The account is now made under the name lock and
its name checked again there (accounts/views.py ``SignupView``): one account, and the form
back with the reason for the others."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client

from accounts.adapter import AccountAdapter
from tests.matchmaking.test_it_matches_once_under_race import race

from ..conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def checks_pass_together(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every sign-up of a race passes the form's name check before any goes on to save: the
    window the race needs, made certain."""

    def arm(workers: int) -> None:
        barrier = threading.Barrier(workers)
        clean = AccountAdapter.clean_username

        def clean_then_wait(self: Any, username: str, shallow: bool = False) -> str:
            cleaned = clean(self, username, shallow=shallow)
            if not shallow:
                barrier.wait(timeout=20)
            return cleaned

        monkeypatch.setattr(AccountAdapter, "clean_username", clean_then_wait)

    return arm


def sign_up(username: str, n: int) -> tuple[int, str]:
    answer = Client().post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"racer{n}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    return answer.status_code, answer.content.decode()


@pytest.mark.parametrize(
    "names", [["racey"] * 4, ["oscar", "OSCAR", "Oscar"], ["mallory", "m\u0430llory"]]
)
def test_sign_ups_sent_together_make_one_account(
    django_user_model: Any, checks_pass_together: Any, names: list[str]
) -> None:
    checks_pass_together(len(names))

    answers = race(len(names), lambda n: sign_up(names[n], n))

    assert sorted(status for status, _ in answers) == [200] * (len(names) - 1) + [302]
    for status, page in answers:
        if status == 200:
            assert "taken: it looks like another player&#x27;s name" in page
    made = [u for u in django_user_model.objects.values_list("username", flat=True)]
    assert len(made) == 1 and made[0] in names
