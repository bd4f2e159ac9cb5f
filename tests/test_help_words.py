# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every ``--help`` of the ``nimatron`` command in plain words.

The kind: help text taken from a module's docstring shows the docstring's
reStructuredText raw (two backquotes, ``:func:``), or points a person at a
source file where a command would answer (``--board``: "from
nimatron/config/boards.py" where ``--list-boards`` lists them). The walk
reads the help of the command and of every subcommand, so a new one is
checked the day it is added."""

import re

import pytest
from nimatron_host import cli

MARKUP = [
    (re.compile(r"``"), "reStructuredText's double backquotes"),
    (re.compile(r":[a-z]+:`"), "a reStructuredText role (:func:`...`)"),
    (re.compile(r"`[^`\n]+`_"), "a reStructuredText link"),
    (re.compile(r"^\s*\.\. \w+", re.M), "a reStructuredText directive"),
    (re.compile(r"[\w./-]+\.py\b"), "a source file's name"),
    (re.compile(r"(?<![\w/])(firmware|host|simulator|tests|nimatron)/[\w/]+"), "a path in the source tree"),
]


def faults(text):
    """(what, the line) for every mark of rST or source path in a help text."""
    found = []
    for line in text.splitlines():
        for pattern, what in MARKUP:
            if pattern.search(line):
                found.append((what, line.strip()))
    return found


def help_text(capsys, argv):
    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 0, argv
    return capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--help"]] + [[name, "--help"] for name in cli.COMMANDS], ids=" ".join)
def test_every_help_is_plain_words(capsys, argv):
    text = help_text(capsys, argv)
    assert text.startswith("usage: nimatron")
    assert faults(text) == [], "nimatron %s:\n%s" % (" ".join(argv), "\n".join("%s: %s" % f for f in faults(text)))
    # the description under the usage line begins with a capital, in words, not the command again
    description = text.split("\n\n")[1]
    assert description[:1].isupper() and not description.startswith("nimatron"), description


def test_the_walk_finds_what_it_looks_for():
    assert [w for w, _ in faults("``nimatron sim``: the firmware")] == ["reStructuredText's double backquotes"]
    assert faults("board from nimatron/config/boards.py (default pico-neopixel)")
    assert faults("see :func:`nimatron.app.run`")
    assert faults("rebuild firmware/nimatron/games/tables.bin")
    assert faults("the board (default pico-neopixel; --list-boards lists them)") == []
    assert faults("rebuild the tables (tables.bin, nim2d.bin); http://localhost:8000/crowd") == []


def test_the_docstrings_marks_are_taken_out():
    assert cli.plain("``nimatron power --board B``: a board's ``power`` budget") == "A board's power budget"
    assert cli.unmark("see :func:`~x.y` and ``z``") == "see x.y and z"


def test_power_takes_board_as_every_command_does(capsys):
    assert cli.main(["power", "--board", "pico-neopixel"]) == 0
    assert "verdict" in capsys.readouterr().out
    assert cli.main(["power", "pico-neopixel"]) == 0  # the old way still works, and says it will go
    assert "write --board pico-neopixel" in capsys.readouterr().err
    assert cli.main(["power"]) == 2
    assert "--board" in capsys.readouterr().err
    assert cli.main(["power", "pico-ring", "--board", "pico-grid"]) == 2
    assert "two boards" in capsys.readouterr().err


def test_install_pi_names_a_missing_folder_not_sudo(capsys, tmp_path):
    missing = tmp_path / "no" / "such"
    assert cli.main(["install-pi", "--board", "pi-leds", "--unit-dir", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "no such folder" in err and "sudo" not in err and err.count("\n") == 1
    (tmp_path / "file").write_text("")
    assert cli.main(["install-pi", "--board", "pi-leds", "--unit-dir", str(tmp_path / "file")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_an_arguments_help_is_unmarked_too():
    """A help string written tomorrow with ``marks`` in it reads plain too."""
    parser = cli.Parser(prog="nimatron x", description="``nimatron x``: do it")
    parser.add_argument("--y", help="the ``y`` of :func:`z`")
    text = parser.format_help()
    assert faults(text) == [] and "the y of z" in text and "\nDo it\n" in text
