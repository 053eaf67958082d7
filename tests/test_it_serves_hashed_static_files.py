"""Static files under hashed names (rummi_site/staticfiles.py): a page names the hashed files,
each module it loads imports only hashed modules, all served by the site and cached for good,
and a changed module gets a new name, as does every module importing it. So after a deploy a
browser cannot run a new page with an old module, or a new module beside an old one."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db
HASHED = {"BACKEND": "rummi_site.staticfiles.HashedStaticFilesStorage"}
HASHED_NAME = re.compile(r"\.[0-9a-f]{12}\.(js|css|svg|webmanifest)$")
IMPORTED = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["']([./][^"']+)["']""")


def manifest(root: Path) -> dict[str, str]:
    paths: dict[str, str] = json.loads((root / "staticfiles.json").read_text())["paths"]
    return paths


def own_modules(paths: dict[str, str]) -> dict[str, str]:
    """The site's own ES modules (static/), not the admin's or allauth's scripts."""
    ours = Path(settings.BASE_DIR) / "static"
    return {n: h for n, h in paths.items() if n.endswith(".js") and (ours / n).exists()}


def test_every_module_imports_hashed_modules_only(collected_static: Path) -> None:
    paths = manifest(collected_static)
    modules = own_modules(paths)
    hashed = set(paths.values())
    checked = 0
    for stored in modules.values():
        text = (collected_static / stored).read_text(encoding="utf-8")
        for target in IMPORTED.findall(text):
            resolved = urljoin(stored, target)
            assert resolved in hashed, f"{stored} imports {target}, not a hashed module"
            checked += 1
    assert checked, "the modules import each other"


def test_a_page_names_hashed_files_served_for_good(collected_static: Path) -> None:
    with override_settings(
        STORAGES={**settings.STORAGES, "staticfiles": HASHED}, STATIC_ROOT=collected_static
    ):
        client = Client()
        page = client.get("/puzzles/editor/").content.decode()
        named = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
        assert named and all(HASHED_NAME.search(url) for url in named), named
        scripts = re.findall(r'<script type="module" src="([^"]+)"', page)
        assert scripts
        # Each module and each it imports, as the browser fetches them.
        seen, queue = set(scripts), list(scripts)
        while queue:
            url = queue.pop()
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert HASHED_NAME.search(url), url
            assert "immutable" in answer["Cache-Control"], (url, answer["Cache-Control"])
            body = b"".join(answer.streaming_content).decode()
            for target in IMPORTED.findall(body):
                if urljoin(url, target) not in seen:
                    seen.add(urljoin(url, target))
                    queue.append(urljoin(url, target))
        assert len(seen) > len(scripts), "the page's modules import others"


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module name -> the names of the modules it imports, read from the sources."""
    graph = {}
    for path in root.rglob("*.js"):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        graph[name] = {urljoin(name, target) for target in IMPORTED.findall(text)}
    return graph


def importers_of(name: str, graph: dict[str, set[str]]) -> set[str]:
    found, queue = set(), [name]
    while queue:
        target = queue.pop()
        for module, imports in graph.items():
            if target in imports and module not in found:
                found.add(module)
                queue.append(module)
    return found


@pytest.mark.slow
def test_a_changed_module_gets_a_new_name_and_so_do_its_importers(
    tmp_path: Path, collected_static: Path
) -> None:
    source = tmp_path / "static"
    shutil.copytree(Path(settings.BASE_DIR) / "static", source)
    graph = import_graph(source)
    # The module the most others import, directly or not, gets a change.
    changed_module = max(graph, key=lambda name: (len(importers_of(name, graph)), name))
    importers = importers_of(changed_module, graph)
    assert importers, "some module imports another"
    with (source / changed_module).open("a", encoding="utf-8") as out:
        out.write("\n// the next release\n")
    with override_settings(
        STORAGES={**settings.STORAGES, "staticfiles": HASHED},
        STATICFILES_DIRS=[source],
        STATIC_ROOT=tmp_path / "collected",
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
    before, after = manifest(collected_static), manifest(tmp_path / "collected")

    renamed = {name for name in graph if before[name] != after[name]}
    assert renamed == {changed_module} | importers
    assert before["css/site.css"] == after["css/site.css"]
