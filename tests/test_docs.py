# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The manual builds, and every page and link of it is reachable.

`mkdocs build --strict` fails on a broken link between pages; the checks
here add what MkDocs only logs: a page left out of the navigation, and a
link of the README (which GitHub shows, not MkDocs) to a file that is gone.
"""
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_manual_builds_strict(tmp_path):
    pytest.importorskip("mkdocs")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                          "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_every_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text()
    listed = set(re.findall(r":\s*([\w./-]+\.md)\s*$", nav, re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert pages - listed == set(), "pages missing from mkdocs.yml's nav: %s" % sorted(pages - listed)
    assert listed - pages == set(), "nav names pages that do not exist: %s" % sorted(listed - pages)


@pytest.mark.parametrize("name", ["README.md", "docs/index.md"])
def test_readme_links_resolve(name):
    path = ROOT / name
    text = path.read_text()
    for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
        if target.startswith(("http:", "https:", "mailto:")):
            continue
        assert (path.parent / target).exists(), "%s links to %s, which does not exist" % (name, target)


def test_readme_stays_short():
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 170, "README.md has %d lines: the manual belongs in docs/" % lines

