"""The puzzle editor's page: its form bounds the table and rack text."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from puzzles.forms import RACK_MAX_CHARS, TABLE_MAX_CHARS, EditorForm
from puzzles.models import Puzzle

pytestmark = pytest.mark.django_db
TABLE = "R3 R4 R5 R6 R7 R8\nK9, B9, Y9"


def test_a_position_of_the_largest_size_the_editor_takes_fits_the_form() -> None:
    table = "\r\n".join(" ".join(["R13"] * 4) for _ in range(20))  # 80 tiles, as a browser sends
    form = EditorForm({"table": table, "rack": " ".join(["K13"] * 20), "action": "check"})

    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"table": "R1 " * TABLE_MAX_CHARS, "rack": "R6"}, "table"),
        ({"table": "\n" * (TABLE_MAX_CHARS + 1), "rack": "R6"}, "table"),
        ({"table": TABLE, "rack": "R6 " * RACK_MAX_CHARS}, "rack"),
        ({"table": TABLE, "rack": "R6", "action": "delete"}, "action"),
        ({"table": TABLE, "rack": "R\x006"}, "rack"),
    ],
)
def test_each_bound_is_a_form_error(data: dict[str, str], field: str) -> None:
    form = EditorForm(data)

    assert not form.is_valid()
    assert list(form.errors) == [field]


def test_the_page_shows_a_form_error_with_a_400(db: Any) -> None:
    answer = Client().post(reverse("puzzles:editor"), {"table": "R1 " * 1000, "rack": "R6"})

    assert answer.status_code == 400
    html = answer.content.decode()
    assert f"Table: Ensure this value has at most {TABLE_MAX_CHARS} characters" in html
    assert 'role="alert"' in html and 'name="table"' in html and 'name="rack"' in html
    assert not Puzzle.objects.exists()


def test_the_page_keeps_its_fields_and_what_was_typed(db: Any) -> None:
    page = Client().get(reverse("puzzles:editor")).content.decode()
    assert 'id="editor-table"' in page and 'id="editor-rack"' in page
    assert f'maxlength="{TABLE_MAX_CHARS}"' in page and f'maxlength="{RACK_MAX_CHARS}"' in page

    checked = Client().post(reverse("puzzles:editor"), {"table": TABLE, "rack": "R6, <b>"})
    html = checked.content.decode()
    assert "K9, B9, Y9</textarea>" in html
    assert 'value="R6, &lt;b&gt;"' in html
