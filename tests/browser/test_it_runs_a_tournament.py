"""An organiser creates a tournament in the admin; two people join from its page, bots are
added, it starts; each person is told of their table, plays it out (resigns), and a watcher's
standings change without a reload."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from .conftest import shoot

pytestmark = pytest.mark.browser


def test_an_admin_made_tournament_is_played_and_its_standings_update_live(
    site: str, new_page: Any
) -> None:
    boss = new_page()
    boss.goto(f"{site}/__test__/organiser/?next=/admin/tournaments/tournament/add/")
    boss.fill("#id_name", "Browser Cup")
    boss.fill("#id_description", "One round at tables of two.")
    boss.select_option("#id_format", "swiss")
    boss.select_option("#id_mode", "lan")
    boss.select_option("#id_table_size", "2")
    boss.fill("#id_rounds", "1")
    later = timezone.now() + timedelta(days=1)
    boss.fill("#id_starts_at_0", later.strftime("%Y-%m-%d"))
    boss.fill("#id_starts_at_1", "18:00:00")
    boss.click("input[name=_continue]")
    boss.wait_for_selector("text=was added successfully")
    tid = re.search(r"/tournament/(\d+)/change/", boss.url)[1]  # type: ignore[index]
    page_url = f"{site}/tournaments/{tid}/"

    players = {}
    for name in ("alice", "bob"):
        page = new_page()
        page.goto(f"{site}/__test__/login/{name}/?next=/tournaments/{tid}/")
        page.click("button:has-text('Join')")
        page.wait_for_selector("text=You are in")
        players[name] = page

    boss.goto(f"{site}/admin/tournaments/tournament/{tid}/add-player/")
    boss.select_option("#id_bot", "beginner")
    boss.fill("#id_count", "2")
    boss.click("input[value=Add]")
    boss.wait_for_selector("text=Added beginner")

    watcher = new_page()
    watcher.goto(page_url)
    assert watcher.locator("#standings tbody tr").count() == 4

    boss.goto(f"{site}/admin/tournaments/tournament/")
    boss.check(f"input[name=_selected_action][value='{tid}']")
    boss.select_option("select[name=action]", "start_now")
    boss.click("button[name=index]")
    boss.wait_for_selector("text=Started Browser Cup")

    tables: dict[str, str] = {}
    for name, page in players.items():
        # Their page hears of the new round, and the table toast comes with it.
        toast = page.locator(".tournament-toast")
        toast.wait_for(timeout=15_000)
        assert re.search(r"your table [12] is ready", toast.inner_text())
        shoot(page, f"tournament-toast-{name}.png")
        tables[name] = toast.locator("a").get_attribute("href")
    for name, page in players.items():
        href = tables[name]
        for _ in range(3):  # the tournament page may be reloading itself as results come in
            try:
                page.goto(site + href)
                break
            except Exception:
                page.wait_for_timeout(300)
        page.wait_for_selector("#rummi.rummi")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click(".rm-resign")  # beside End turn, with a confirm
        page.wait_for_selector("#rummi[data-ended] .rm-end .rm-home", timeout=15_000)

    # The watcher never reloads: the page follows the results on its own.
    watcher.wait_for_function(
        "document.getElementById('t-state')?.dataset.state === 'finished'", timeout=20_000
    )
    rows = watcher.locator("#standings tbody tr")
    text = rows.first.inner_text()
    assert "Beginner bot" in text and "1" in text
    assert watcher.locator("#standings tbody tr:has-text('alice')").inner_text().split()[2] == "0"
    # The standings as the page draws them from its frames: a person's name links to their
    # profile after their avatar, a bot's is text (issue 19).
    alice = watcher.locator("#standings tbody tr:has-text('alice') a.player-link")
    assert alice.get_attribute("href") == "/@/alice/" and alice.locator("img.avatar").count() == 1
    assert rows.first.locator("a").count() == 0
    shoot(watcher, "tournament-standings.png")
    assert "resigned" in watcher.content() or watcher.locator(".round .tables li").count() == 2
