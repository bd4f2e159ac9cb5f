# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A number of tests the manual states is true today, or says when it was measured.

A count beside a test file ("`tests/test_web.py` (...; 24 tests") is
checked against what pytest collects from that file now. A count of the
whole suite ("3,854 tests") goes stale with every commit: it must be a
dated measurement (a YYYY-MM-DD date in the same sentence), never a claim
about today.
"""

import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
COUNT = re.compile(r"\b(\d{1,3}(?:,\d{3})*|\d+)\s+tests?\b")
FILE = re.compile(r"`tests/(test_\w+\.py)`")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def claims():
    """(page, test file or None, count, sentence) for every count of tests the pages state."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in COUNT.finditer(text):
            before = text[: m.start()]
            named = list(FILE.finditer(before))
            # the count belongs to the test file named last before it, in the same parenthesis
            owner = None
            if named:
                between = before[named[-1].end() :]
                if between.lstrip().startswith("(") and ")" not in between and "`tests/" not in between:
                    owner = named[-1].group(1)
            start = max(before.rfind(". "), before.rfind("\n\n")) + 1
            end = text.find(". ", m.end())
            out.append(
                (
                    page.relative_to(ROOT).as_posix(),
                    owner,
                    int(m.group(1).replace(",", "")),
                    text[start : end if end > 0 else len(text)],
                )
            )
    return out


CLAIMS = claims()


def collected(name):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            str(ROOT / "tests" / name),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return sum(1 for line in run.stdout.splitlines() if "::" in line)


@pytest.mark.parametrize("page, name, count", sorted({(p, n, c) for p, n, c, _ in CLAIMS if n}))
def test_a_count_beside_a_test_file_is_what_it_collects(page, name, count):
    assert collected(name) == count, "%s says tests/%s has %d tests; it has %d" % (page, name, count, collected(name))


def test_a_count_of_the_whole_suite_is_dated():
    undated = [
        (page, count)
        for page, name, count, sentence in CLAIMS
        if name is None and count >= 100 and not DATE.search(sentence)
    ]
    assert not undated, "counts of the suite without the date they were measured: %s" % undated


def test_the_pages_state_counts_at_all():
    """The sweep is not empty: the pages do name test files with their counts."""
    assert any(name for _, name, _, _ in CLAIMS)
