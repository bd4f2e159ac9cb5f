# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Licences a museum, a school or a maker can read: the software (MIT), the
hardware (CERN-OHL-P-2.0) and the manual (CC-BY-4.0), each with its full
text, and every file saying which it is under, the REUSE way: a header at
the top of each source file, as Adafruit's are, ``REUSE.toml`` for the
files that cannot carry one, and ``reuse lint`` passing on the whole tree."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# REUSE-IgnoreStart   (the tags as text, not this file's own)
COPYRIGHT = "SPDX-FileCopyrightText: 2026 The Nimatron project contributors"
MIT = "SPDX-License-Identifier: MIT"
HARDWARE = "SPDX-License-Identifier: CERN-OHL-P-2.0"
# REUSE-IgnoreEnd
HEADER = "# %s\n#\n# %s\n" % (COPYRIGHT, MIT)
SOURCES = ("firmware", "host", "simulator", "tests", "tools")


def tracked():
    """The repository's files, as git lists them (what ``reuse lint`` reads)."""
    run = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if run.returncode != 0:
        pytest.skip("not a git checkout: %s" % run.stderr.decode(errors="replace").strip())
    return [ROOT / name for name in run.stdout.decode().split("\0") if name]


def test_each_part_has_its_licence_text():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "hardware" / "LICENSE").read_text().startswith("CERN Open Hardware Licence Version 2 - Permissive")
    assert (ROOT / "docs" / "LICENSE").read_text().startswith("Creative Commons Attribution 4.0 International")


@pytest.mark.parametrize(
    "text, kept",
    [
        ("LICENSES/MIT.txt", "LICENSE"),
        ("LICENSES/CERN-OHL-P-2.0.txt", "hardware/LICENSE"),
        ("LICENSES/CC-BY-4.0.txt", "docs/LICENSE"),
    ],
)
def test_licences_folder_holds_the_same_texts(text, kept):
    """REUSE's LICENSES/ and the LICENSE files GitHub and readers look for say the same, word for word."""
    assert (ROOT / text).read_bytes() == (ROOT / kept).read_bytes()


def test_every_source_file_starts_with_its_header():
    """Python files: the header first (after a shebang), the docstring after it."""
    missing = []
    for path in tracked():
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix != ".py" or not rel.startswith(SOURCES):
            continue
        text = path.read_text()
        if text.startswith("#!"):
            text = text.split("\n", 1)[1]
        if not text.startswith(HEADER):
            missing.append(rel)
    assert not missing, "no SPDX header at the top: %s" % ", ".join(missing)


def test_every_other_text_file_names_its_licence():
    """Shell scripts, the web pages, pyproject.toml, mkdocs.yml...: the header in comments."""
    missing = []
    for path in tracked():
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix in (".sh", ".html", ".css", ".js", ".toml", ".yml") or rel in (".ci/run", ".gitignore"):
            head = path.read_text()[:400]
            if COPYRIGHT not in head or MIT not in head:
                missing.append(rel)
    assert not missing, "no SPDX header: %s" % ", ".join(missing)


def test_every_drawing_carries_its_licence_and_revision():
    """Each generated SVG says, in itself, that it is CERN-OHL-P-2.0, whose it
    is and which revision (the project's version and the pin map's CRC)."""
    from nimatron_host import hardware
    from nimatron_host.hardware.circuit import revision

    drawings = {path: text for path, text in hardware.files().items() if path.endswith(".svg")}
    assert drawings
    for path, text in drawings.items():
        head = text.split("<svg", 1)[0]
        assert HARDWARE + "\n" in head and COPYRIGHT + "\n" in head, path
        assert revision(path.split("/")[0]) in head, path


def test_reuse_lint_passes():
    """Every tracked file has a copyright and a licence, and every licence its
    text in LICENSES/ (offline: ``reuse lint`` needs no network). reuse asks
    git: what .gitignore names (.venv, build output) is not read; a new file
    not yet added is, so it wants its header before it is committed."""
    tracked()  # skips outside a git checkout, where reuse would read .venv too
    run = subprocess.run(
        [sys.executable, "-m", "reuse", "--root", str(ROOT), "lint"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    if run.returncode != 0 and "No module named reuse" in run.stderr:
        pytest.fail("reuse is not installed: pip install -e '.[test]' (or ./test.sh)")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
