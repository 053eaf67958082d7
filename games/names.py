"""The name rules (docs/fair-play.md "Names"): one module for every place a name enters.

A name is refused, with a sentence, when it

- holds a character nobody can see or that changes how the text around it reads: a control
  character (BEL, ESC, NUL, tab), a format or bidi control (RTL override, isolates), a zero-width
  or other default-ignorable character (the Hangul filler U+3164 among them), the blank Braille
  pattern, a line separator, or a space other than the plain one;
- has no letter or digit (nothing readable);
- stacks combining marks;
- is a reserved name: a bot's ("Strong bot 1", "Master bot"), "deleted player", a staff word
  (admin, moderator, staff, rummi, system, support...), or what the board writes where a name
  goes ("Open seat", "You", or a "(you)" tag), with or without a number;
- is confusable with an account's username or display name.

Nothing is silently removed: what a player types is what the table shows, or a sentence says
why not. Sign-up (accounts/adapter.py), the display name (players/forms.py) and a guest's name
at game create and join (games/identity.py ``become_guest``) all call :func:`check_name`.

"Confusable" is Unicode's (UTS #39): two names are confusable when their *skeletons* match. The
skeleton here is ICU's ``SpoofChecker.getSkeleton`` (the reference implementation of UTS #39)
of the name NFKC-normalised and case-folded (so the fullwidth ``ａｄｍｉｎ`` and the Cyrillic
``аdmin`` are both ``admin``), with spaces, dots, dashes and underscores dropped (``Master_bot``
is ``Master bot``).

>>> name_key("аdmin") == name_key("ADMIN") == name_key("ａｄｍｉｎ")
True
>>> problem("Ann\\u202eenoJ")
"A name may not contain characters that turn the text's direction (U+202E)."
>>> problem("Strong bot 1")
'"Strong bot 1" is reserved for the site: choose another name.'
>>> problem("Ann Jones") is None
True
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

import icu  # type: ignore[import-not-found]
from django.contrib.auth import get_user_model
from django.db import connection

from .errors import Conflict, Invalid
from .modes import BOT_STRENGTHS

# Characters that look blank but are not default-ignorable in Unicode's tables.
BLANK_LOOKING = frozenset({"\u2800"})  # BRAILLE PATTERN BLANK
# General categories never allowed in a name: controls, formats (bidi controls, zero-width
# joiners), surrogates, private use, unassigned, and line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Unicode's explicit bidi formatting characters (embeddings, overrides, isolates); the
# direction marks (LRM, RLM, ALM) are format characters, refused as invisible.
BIDI_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
SEPARATORS = re.compile(r"[\s._\-]+")
MAX_MARKS = 2  # combining marks on one letter ("Zalgo" text stacks dozens)
STAFF_WORDS = (
    "admin",
    "administrator",
    "moderator",
    "mod",
    "staff",
    "rummi",
    "system",
    "support",
    "official",
    "root",
)
BOT_WORDS = tuple(f"{strength} bot" for strength in BOT_STRENGTHS) + ("bot",)
DELETED = "deleted player"
# What the board and the waiting page write where a name goes: a seat taken by no one, the
# viewer's own tag.
BOARD_WORDS = ("open", "open seat", "empty seat", "you", "nobody")
# The board's tag for the viewer's own seat, which a name may not put beside itself.
OWN_TAG = re.compile(r"\(\s*you\s*\)", re.IGNORECASE)

_SPOOF = icu.SpoofChecker()
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """The name's confusable skeleton: equal keys mean names a reader can mistake for each
    other (UTS #39 skeleton of the NFKC case-folded name, without separators)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    skeleton = str(_SPOOF.getSkeleton(0, folded))
    return SEPARATORS.sub("", unicodedata.normalize("NFKC", skeleton).casefold())


@functools.lru_cache(maxsize=65536)
def name_keys(name: str) -> frozenset[str]:
    """The name's skeletons, as :func:`name_key` takes it and of its own skeleton: two names
    are confusable when they share one. Case-folding first makes ``ALICE`` ``alice``, but also
    turns the capital ``I`` into an ``i``, no longer the ``l`` it looks like; the second
    skeleton is taken before the fold, so ``zeIda`` is ``zelda`` (until 2026-12-08 it was not).

    >>> sorted(name_keys("zeIda")), bool(name_keys("zeIda") & name_keys("Zelda"))
    (['zeida', 'zelda'], True)
    >>> bool(name_keys("ALICE") & name_keys("alice")), bool(name_keys("Bob") & name_keys("Rob"))
    (True, False)
    """
    skeleton = str(_SPOOF.getSkeleton(0, unicodedata.normalize("NFKC", name)))
    return frozenset({name_key(name), name_key(skeleton)})


def confusable(name: str, other: str) -> bool:
    """Whether a reader can mistake one name for the other (:func:`name_keys`)."""
    return not name_keys(name).isdisjoint(name_keys(other))


RESERVED_KEYS = frozenset(
    key for word in (*STAFF_WORDS, *BOT_WORDS, DELETED, *BOARD_WORDS) for key in name_keys(word)
)


def _describe(char: str) -> str:
    return f"U+{ord(char):04X}"


def character_problem(name: str) -> str | None:
    """Why ``name`` cannot be shown as typed (invisible, control or bidi characters), or None."""
    for char in name:
        category = unicodedata.category(char)
        if category == "Cc":
            return f"A name may not contain control characters ({_describe(char)})."
        if unicodedata.bidirectional(char) in BIDI_CONTROLS:
            return (
                "A name may not contain characters that turn the text's direction "
                f"({_describe(char)})."
            )
        invisible = icu.Char.hasBinaryProperty(char, _IGNORABLE) or char in BLANK_LOOKING
        if invisible or category == "Cf":
            return f"A name may not contain invisible or zero-width characters ({_describe(char)})."
        if category in REFUSED_CATEGORIES:
            return f"A name may not contain {_describe(char)} ({category})."
        if category == "Zs" and char != " ":
            return f"A name may use only plain spaces ({_describe(char)} is another space)."
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        return "A name needs at least one letter or digit."
    marks = 0
    for char in unicodedata.normalize("NFD", name):
        marks = marks + 1 if unicodedata.category(char).startswith("M") else 0
        if marks > MAX_MARKS:
            return "A name may not stack accents or other marks."
    return None


def reserved(name: str) -> bool:
    """A bot's name, "deleted player", a staff word or a word the board writes where a name
    goes ("Open seat", "You"), with or without a number after it, or a name holding the board's
    "(you)" tag."""
    bare = unicodedata.normalize("NFKC", name).rstrip("0123456789 ._-#")
    if OWN_TAG.search(unicodedata.normalize("NFKC", name)):
        return True
    return not (name_keys(bare) | name_keys(name)).isdisjoint(RESERVED_KEYS)


def problem(name: str) -> str | None:
    """Why ``name`` may not be anyone's name, whoever has taken what; None when it may."""
    found = character_problem(name)
    if found is None and reserved(name):
        found = f'"{name}" is reserved for the site: choose another name.'
    return found


def shown_name(user: Any) -> str:
    """An account's name as every page shows it (the board, the scorecard, the lists, the
    profile): its display name (players.PlayerProfile, reached by its relation: the games core
    imports no other app), else its username."""
    profile = getattr(user, "player", None)  # None: no profile yet, or no players app
    return str(getattr(profile, "display_name", "") or user.get_username())


# Other names accounts go by, each source given by the app that keeps them (players' display
# names, registered in its AppConfig.ready): the games core imports no app above it.
NameSource = Callable[[int | None], Iterable[str]]
_NAME_SOURCES: list[NameSource] = []


def name_source(source: NameSource) -> NameSource:
    """Register ``source(exclude_user_id)``: more names accounts are known by."""
    if source not in _NAME_SOURCES:
        _NAME_SOURCES.append(source)
    return source


def account_names(exclude_user_id: int | None = None) -> Iterable[str]:
    """Every account's username and other names (but those of ``exclude_user_id``)."""
    users = get_user_model().objects.all()
    if exclude_user_id is not None:
        users = users.exclude(pk=exclude_user_id)
    yield from users.values_list(get_user_model().USERNAME_FIELD, flat=True).iterator()
    for source in _NAME_SOURCES:
        yield from source(exclude_user_id)


def confusable_account(name: str, exclude_user_id: int | None = None) -> str | None:
    """The account name that ``name`` can be mistaken for, or None."""
    keys = name_keys(name)
    return next(
        (
            other
            for other in account_names(exclude_user_id)
            if not keys.isdisjoint(name_keys(other))
        ),
        None,
    )


def hold_names() -> None:
    """Until the transaction ends, hold the lock under which an account's name is checked and
    taken, so that two sign-ups sent at once cannot both pass the check before either has
    committed (two accounts of one name, or of look-alikes). On PostgreSQL a transaction-scoped
    advisory lock; SQLite's transactions take the write lock as they begin (``transaction_mode``
    IMMEDIATE), so they already run one at a time."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", ["rummi.names"])


def check_name(name: str, exclude_user_id: int | None = None) -> None:
    """Refuse ``name`` with a sentence unless the account ``exclude_user_id`` (None: a guest, or
    an account being made) may use it: :class:`Invalid` (400) for a name nobody may have,
    :class:`Conflict` (409) for one that looks like an account's. An account's own names never
    count against it, so a display name may be the account's own username."""
    found = problem(name)
    if found is not None:
        raise Invalid("bad_name", found)
    if confusable_account(name, exclude_user_id) is not None:
        raise Conflict("name_taken", "That name is taken: it looks like another player's name.")
