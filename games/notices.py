"""Correspondence notices: "your turn" digests at most twice a day, and clock warnings.

The service queues a :class:`Notice` when a correspondence turn starts; beat sends them. A
digest goes to a player at most once per ``DIGEST_EVERY`` and lists only games still waiting
for them. A warning goes out once per turn when 80% of its clock is gone. Players opt out on
their preferences page or through the link in every email.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from .models import Game, Notice, NoticeKind, NoticeSettings, SeatKind, Status

DIGEST_EVERY = timedelta(hours=12)
WARN_AT = 0.8
UNSUBSCRIBE_SALT = "rummi.notices.unsubscribe"


def queue_turn_notice(
    gid: str, seat_index: int, turn_number: int
) -> tuple[int, dict[str, Any]] | None:
    """When correspondence turn ``turn_number`` starts for ``seat_index`` (``turn_started``):
    queue the digest's notice; the player and the notice for their open pages when it is new
    (games/receivers.py sends it on the player's socket, rummi_site/me.py)."""
    game = Game.objects.filter(public_id=gid, turn_number=turn_number).first()
    if game is None or not game.is_correspondence:
        return None
    seat = game.seats.filter(index=seat_index, kind=SeatKind.HUMAN, user__isnull=False).first()
    if seat is None or seat.user_id is None:
        return None
    _, new = Notice.objects.get_or_create(
        user_id=seat.user_id, game=game, kind=NoticeKind.YOUR_TURN, turn_number=turn_number
    )
    if not new:
        return None
    # Every page the player has open says so at once; the email digest follows at its pace.
    others = [s.name for s in game.seats.all() if s.index != seat_index]
    notice = {
        "kind": "turn",
        "game": gid,
        "url": game.get_absolute_url(),
        "against": others,
        "turn": turn_number,
    }
    return seat.user_id, notice


def turn_emails_on(user_id: int) -> bool:
    """Whether the player wants "your turn" digests and clock warnings (default yes)."""
    found = NoticeSettings.objects.filter(user_id=user_id).first()
    return True if found is None else found.email_turn_notices


def set_turn_emails(user_id: int, on: bool) -> None:
    """Switch a player's game emails on or off (preferences, the unsubscribe link)."""
    NoticeSettings.objects.update_or_create(user_id=user_id, defaults={"email_turn_notices": on})


def unsubscribe_url(user_id: int) -> str:
    token = signing.dumps(user_id, salt=UNSUBSCRIBE_SALT)
    return settings.RUMMI_SITE_URL + reverse("unsubscribe", args=[token])


def user_from_token(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def _still_waiting(notice: Notice) -> bool:
    game = notice.game
    return game.status == Status.PLAYING and game.turn_number == notice.turn_number


def send_digests(now: datetime | None = None) -> int:
    """Send each player with pending "your turn" notices one digest, if they are due one."""
    now = now or timezone.now()
    pending = Notice.objects.filter(kind=NoticeKind.YOUR_TURN, sent__isnull=True)
    sent = 0
    for user_id in pending.values_list("user_id", flat=True).distinct():
        with transaction.atomic():
            notices = list(
                pending.filter(user_id=user_id).select_related("game", "user").select_for_update()
            )
            if not notices:
                continue
            user = notices[0].user
            wishes = NoticeSettings.of(user.pk)
            waiting = [n for n in notices if _still_waiting(n)]
            due = wishes.last_digest is None or now - wishes.last_digest >= DIGEST_EVERY
            if waiting and not due:
                continue
            if waiting and wishes.email_turn_notices and user.email:
                _mail_digest(user, [n.game for n in waiting])
                wishes.last_digest = now
                wishes.save(update_fields=["last_digest"])
                sent += 1
            Notice.objects.filter(pk__in=[n.pk for n in notices]).update(sent=now)
    return sent


def _mail_digest(user: object, games: list[Game]) -> None:
    lines = [
        f"{settings.RUMMI_SITE_URL}{g.get_absolute_url()}  "
        f"({g.get_mode_display()}{f': {g.occasion}' if g.occasion else ''})"
        for g in games
    ]
    send_mail(
        subject=f"Rummi: {len(games)} game{'s' if len(games) > 1 else ''} waiting for your move",
        message=(
            "It is your turn in:\n\n"
            + "\n".join(lines)
            + f"\n\nStop these emails: {unsubscribe_url(user.pk)}\n"  # type: ignore[attr-defined]
        ),
        from_email=None,
        recipient_list=[user.email],  # type: ignore[attr-defined]
    )


def warn_clocks(now: datetime | None = None) -> int:
    """Warn players whose correspondence clock is 80% gone (once per turn)."""
    now = now or timezone.now()
    warned = 0
    games = Game.objects.filter(
        status=Status.PLAYING, correspondence_days__isnull=False, deadline__gt=now
    )
    for game in games:
        total = timedelta(days=game.correspondence_days or 0)
        if game.deadline is None or game.deadline - now > total * (1 - WARN_AT):
            continue
        turn = (game.state or {}).get("turn")
        seat = game.seats.filter(index=turn, kind=SeatKind.HUMAN, user__isnull=False).first()
        if seat is None:
            continue
        notice, created = Notice.objects.get_or_create(
            user_id=seat.user_id,
            game=game,
            kind=NoticeKind.CLOCK_WARNING,
            turn_number=game.turn_number,
        )
        if not created:
            continue
        user = seat.user
        if user is not None and user.email and turn_emails_on(user.pk):
            left = game.deadline - now
            hours = int(left.total_seconds() // 3600)
            send_mail(
                subject="Rummi: your move clock is running out",
                message=(
                    f"About {hours} hours are left for your move in "
                    f"{settings.RUMMI_SITE_URL}{game.get_absolute_url()} . When the clock runs out "
                    f"you draw the penalty and the turn passes.\n\n"
                    f"Stop these emails: {unsubscribe_url(user.pk)}\n"
                ),
                from_email=None,
                recipient_list=[user.email],
            )
            warned += 1
        Notice.objects.filter(pk=notice.pk).update(sent=now)
    return warned
