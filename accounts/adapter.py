"""The sign-up and sign-in rules allauth asks this site about (settings ACCOUNT_ADAPTER).

Failed sign-ins are counted per address, and per address and login together, never per login
alone (docs/fair-play.md "Signing in"): allauth's ``login_failed`` limit keys its ``key``
bucket on what :meth:`AccountAdapter._get_login_attempts_cache_key` returns, which here holds
the address too. A stranger guessing someone's password then locks only their own address
out, and the owner still signs in from theirs.

A username follows the name rules of docs/fair-play.md "Names" (games/names.py): at most 24
characters, no invisible, control or bidi characters, no reserved name, nothing confusable with
another account's username or display name. allauth's own checks (its validators, a taken
username) run first.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.http import HttpRequest

from games.errors import DomainError
from games.identity import length_problem
from games.names import check_name


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        # A username is the name shown at tables until a display name replaces it: at most as
        # long as any name there (allauth's own limit is the user model's 150).
        too_long = length_problem(username)
        if too_long:
            raise forms.ValidationError(too_long, code="bad_name")
        if not shallow:
            try:
                check_name(username)
            except DomainError as error:
                raise forms.ValidationError(error.message, code=error.code) from None
        return username

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """allauth's per-login bucket (site and login), narrowed to the asking address."""
        login = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{self.get_client_ip(request)}:{login}"
