"""The puzzle editor's HTML form: a table (one meld a line) and a rack, bounded in length.

The bounds are far above what the editor takes (puzzles/editor.py: 80 table tiles, a rack of
20; a tile code is at most three characters), so any position it accepts fits, and a pasted
novel is refused before it is split into lines.
"""

from __future__ import annotations

from django import forms

from .editor import MAX_EDITOR_RACK, MAX_EDITOR_TABLE

# Room for every tile as "R13" with a separator, and a line per meld, twice over.
TABLE_MAX_CHARS = 2 * MAX_EDITOR_TABLE * 5
RACK_MAX_CHARS = 2 * MAX_EDITOR_RACK * 4


class EditorForm(forms.Form):
    table = forms.CharField(
        max_length=TABLE_MAX_CHARS,
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"id": "editor-table", "rows": 8}),
    )
    rack = forms.CharField(
        max_length=RACK_MAX_CHARS,
        required=False,
        widget=forms.TextInput(attrs={"id": "editor-rack", "size": 60}),
    )
    action = forms.ChoiceField(
        choices=[("check", "Check"), ("save", "Save and share")], required=False
    )
