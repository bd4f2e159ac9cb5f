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
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-q",
            "-f",
            str(ROOT / "mkdocs.yml"),
            "-d",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
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


FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")


def fence_faults(text):
    """Where a Markdown file's code fences do not pair up, as (line, why).

    A fence opened and never closed turns the rest of the page into one code
    block, and MkDocs builds it without a word. Inside an open block, a line
    that opens another fence (```sh) is the sign that the block before it was
    never closed: Markdown reads it as code, the writer meant a new block."""
    faults = []
    opened = None  # (line number, fence characters)
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if not match:
            continue
        marks, info = match.group(2), match.group(3).strip()
        if opened is None:
            if marks[0] == "`" and "`" in info:
                continue  # inline code such as ```x```, not a fence
            opened = (number, marks)
        elif marks[0] == opened[1][0] and len(marks) >= len(opened[1]):
            if info:
                faults.append(
                    (
                        number,
                        "a fence opening (%s) inside the block opened at line %d: "
                        "that block was never closed" % (line.strip(), opened[0]),
                    )
                )
                opened = (number, marks)  # read on as the writer meant: a new block
            else:
                opened = None
    if opened is not None:
        faults.append((opened[0], "a fence opened here is never closed"))
    return faults


MARKDOWN = sorted([ROOT / "README.md"] + list(DOCS.rglob("*.md")))


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_code_fence_is_closed(path):
    faults = fence_faults(path.read_text())
    assert faults == [], "\n".join("%s:%d: %s" % (path.relative_to(ROOT), n, why) for n, why in faults)


def test_the_fence_check_finds_an_unclosed_fence():
    good = "text\n\n```sh\nls\n```\n\n~~~\n```\n~~~\n"
    assert fence_faults(good) == []
    assert fence_faults("```sh\nls\n") == [(1, "a fence opened here is never closed")]
    unclosed = "```sh\nls\n\n### A heading\n\n```sh\nmore\n```\n"
    assert [n for n, _ in fence_faults(unclosed)] == [6]


def _prose(text):
    """A page's sentences, without its code blocks, tables and headings."""
    text = re.sub(r"^(```|~~~).*?^\1\s*$", "", text, flags=re.M | re.S)
    lines = [line for line in text.splitlines() if not line.lstrip().startswith(("|", "#"))]
    return "\n".join(lines)


def test_the_operator_card_reads_at_the_machine():
    """docs/operator.md is read by a technician at the machine: no code
    names (a class's method, a file's path, a setting's key), and sentences
    short enough to read while holding two buttons (the page averaged 54
    words a sentence). The part for engineers, at the end, is left out."""
    text = (DOCS / "operator.md").read_text().split("## For engineers")[0]
    assert "## The card" in text and all(w in text for w in ("**Open.**", "**Step.**", "**Confirm.**", "**Leave.**"))
    body = re.sub(r"^(```|~~~).*?^\1\s*$", "", text, flags=re.M | re.S)
    codes = re.findall(r"`([^`]+)`", body)
    names = [c for c in codes if re.search(r"\w\.\w|/|\(\)", c) and not c.startswith(("./run.sh", "/dev/"))]
    assert names == [], "code names on the operator's card: %s" % names
    keys = re.findall(r"\b[a-z]+_[a-z_]+\b", re.sub(r"`[^`]+`", "", body))
    assert keys == [], "settings' keys in the operator's sentences: %s" % keys
    sentences = [s for s in re.split(r"(?<=[.!?:])\s+", _prose(text).replace("\n", " ")) if len(s.split()) > 2]
    words = [len(s.split()) for s in sentences]
    assert sum(words) / len(words) <= 16, "%.1f words a sentence" % (sum(words) / len(words))
    assert max(words) <= 35, max(sentences, key=lambda s: len(s.split()))


def test_a_section_named_in_the_code_exists():
    """A comment or docstring that sends its reader to a page's section
    (``docs/board.md, "What a pass costs"``) names one the page has: a page
    rewritten leaves no reader looking for a heading that is gone."""
    quoted = re.compile(r'docs/([\w-]+\.md)(?:,\s*|\s*\()"([^"]+?)"', re.S)
    missing = []
    for folder in ("firmware", "host", "simulator", "tests", "tools"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".sh", ".js") or ".venv" in path.parts:
                continue
            for page, heading in quoted.findall(path.read_text(encoding="utf-8", errors="replace")):
                heading = " ".join(heading.split())
                target = DOCS / page
                headings = (
                    [
                        " ".join(line.lstrip("#").split())
                        for line in target.read_text().splitlines()
                        if line.startswith("#")
                    ]
                    if target.is_file()
                    else []
                )
                if not any(h.startswith(heading) for h in headings):
                    missing.append('%s: docs/%s, "%s"' % (path.relative_to(ROOT), page, heading))
    assert missing == [], "sections named in the code that the manual does not have:\n" + "\n".join(missing)
