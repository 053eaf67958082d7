"""The repository carries its own documents, and what cites them names what is in them.

Code and docs cite the rules and the design by heading, ``docs/rules.md "Melds"`` (or with a
comma after the file name), and by rule, ``docs/rules.md rule 5`` or ``rules 3-5``: every
heading and rule cited must exist in the file cited. The first drafts, which lived outside
the repository, are cited by nothing, neither by their old names nor by their path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = {".py", ".md", ".html", ".js", ".toml"}
SKIPPED_DIRS = {".venv", "var", "node_modules", "__pycache__"}

# A document's name anywhere: whatever path is written before it is checked below.
DOCUMENT_NAME = re.compile(r"[\w./-]*\b(?:rules|design)\.md", re.IGNORECASE)
OWN_DOCUMENTS = ("docs/rules.md", "docs/design.md")
OUTSIDE_PATH = re.compile(r"(?:\.\./|/work/)shared\b")

# A citation: a document under docs/, then any run of quoted headings and rule numbers, each
# optionally after a comma: docs/rules.md, "Melds" / docs/rules.md "A round", rules 3-5 /
# (docs/rules.md rule 5) / docs/rules.md 3-5 / docs/rules.md (rules 3-5).
_ITEM = r'"\w[^"\n]*"|\(?\brules?\s+\d+(?:\s*-\s*\d+)?\)?|\b\d+(?:\s*-\s*\d+)?\b'
CITATION = re.compile(rf"\b(?P<doc>docs/[\w-]+\.md)(?P<tail>(?:,?[ \t]*(?:{_ITEM}))*)")
ITEM = re.compile(_ITEM)
# A quoted heading left open at the end of a line: it could not be checked.
SPLIT_CITATION = re.compile(r'\bdocs/[\w-]+\.md,?[ \t]*"\w[^"\n]*$')
RULE_NUMBERS = re.compile(r"(\d+)(?:\s*-\s*(\d+))?")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
RULE_HEADING = re.compile(r"^Rule (\d+)\b")


def repository_files() -> Iterator[Path]:
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".")]
        for name in files:
            if Path(name).suffix in SUFFIXES:
                yield Path(folder) / name


def lines_of_the_repository() -> Iterator[tuple[str, int, str]]:
    """Every line of every file checked here, as ``(path, line number, text)``."""
    for path in repository_files():
        where = str(path.relative_to(ROOT))
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            yield where, number, line


def citations(line: str) -> list[tuple[str, list[str], list[int]]]:
    """The citations in a line: ``(document, headings, rule numbers)`` each."""
    found = []
    for match in CITATION.finditer(line):
        headings, rules = [], []
        for item in ITEM.findall(match["tail"]):
            if item.startswith('"'):
                headings.append(item.strip('"'))
                continue
            numbers = RULE_NUMBERS.search(item)
            assert numbers is not None
            first, last = int(numbers[1]), int(numbers[2] or numbers[1])
            rules.extend(range(first, last + 1))
        found.append((match["doc"], headings, rules))
    return found


def headings_of(document: Path) -> tuple[set[str], set[int]]:
    """A document's headings (outside code blocks) and the numbers of its "Rule N" headings."""
    headings: set[str] = set()
    in_code = False
    for line in document.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        heading = HEADING.match(line)
        if heading and not in_code:
            headings.add(heading[1])
    rules = {int(m[1]) for h in headings if (m := RULE_HEADING.match(h))}
    return headings, rules


def test_the_citation_reader_reads_every_form() -> None:
    assert citations('(docs/rules.md "Matches and modes")') == [
        ("docs/rules.md", ["Matches and modes"], [])
    ]
    assert citations('docs/rules.md, "Melds").') == [("docs/rules.md", ["Melds"], [])]
    assert citations('docs/rules.md "A round", rules 3-5).') == [
        ("docs/rules.md", ["A round"], [3, 4, 5])
    ]
    assert citations('(docs/rules.md "A round", "Scoring", "Matches").') == [
        ("docs/rules.md", ["A round", "Scoring", "Matches"], [])
    ]
    assert citations("(docs/rules.md rule 5)") == [("docs/rules.md", [], [5])]
    assert citations("the most points (docs/rules.md 3-5).") == [("docs/rules.md", [], [3, 4, 5])]
    assert citations("Turn rules of docs/rules.md (rules 3-5) and") == [
        ("docs/rules.md", [], [3, 4, 5])
    ]
    assert citations("Meld rules of docs/rules.md, table-driven") == [("docs/rules.md", [], [])]
    assert citations("docs/design.md's ``solve`` command") == [("docs/design.md", [], [])]
    assert citations("no citation here") == []
    split = ["see docs/design.md, " + '"Engine command', 'line".']  # a heading over two lines
    assert SPLIT_CITATION.search(split[0]) and not SPLIT_CITATION.search(" ".join(split))


def test_the_documents_are_in_the_repository() -> None:
    for name in OWN_DOCUMENTS:
        headings, _ = headings_of(ROOT / name)
        assert headings, f"{name} has no headings"
    headings, rules = headings_of(ROOT / "docs/rules.md")
    # The code cites these by name and number: renumbering or renaming breaks its citations.
    assert {"Melds", "A round", "Scoring", "Matches and modes", "Matches"} <= headings
    assert set(range(1, 9)) <= rules


def test_nothing_cites_the_old_drafts_by_name() -> None:
    wrong = [
        f"{where}:{number}: {name}"
        for where, number, line in lines_of_the_repository()
        for name in DOCUMENT_NAME.findall(line)
        if not name.endswith(OWN_DOCUMENTS)
    ]
    assert wrong == [], "cite docs/rules.md and docs/design.md instead:\n" + "\n".join(wrong)


def test_every_citation_names_a_heading_and_rule_that_exist() -> None:
    contents: dict[str, tuple[set[str], set[int]]] = {}
    wrong, seen = [], 0
    for where, number, line in lines_of_the_repository():
        if SPLIT_CITATION.search(line):
            wrong.append(f"{where}:{number}: keep a cited heading on one line, to check it")
        for document, headings, rules in citations(line):
            seen += 1
            path = ROOT / document
            if not path.is_file():
                wrong.append(f"{where}:{number}: {document} does not exist")
                continue
            known_headings, known_rules = contents.setdefault(document, headings_of(path))
            for heading in headings:
                if heading not in known_headings:
                    wrong.append(f'{where}:{number}: {document} has no heading "{heading}"')
            for rule in rules:
                if rule not in known_rules:
                    wrong.append(f"{where}:{number}: {document} has no rule {rule}")
    assert seen > 0
    assert wrong == [], "\n".join(wrong)


def test_nothing_cites_a_path_outside_the_repository() -> None:
    wrong = [
        f"{where}:{number}: {line.strip()}"
        for where, number, line in lines_of_the_repository()
        if OUTSIDE_PATH.search(line)
    ]
    assert wrong == [], "\n".join(wrong)
