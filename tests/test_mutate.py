# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""tools/mutate.py: each fault handler broken in turn must be noticed by its
tests. Here: every mutant in tools/mutants/ still applies to today's code
(one that no longer does would pass for a kill it never made), and the runner
itself tells a killed mutant from one that survives, on a tree of its own."""

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import mutate  # noqa: E402


def test_every_mutant_applies_to_todays_code():
    mutants = mutate.load()
    problems = ["%s: %s" % (m["name"], mutate.stale(m)) for m in mutants if mutate.stale(m)]
    assert not problems, "mutants that no longer match their code (follow the code):\n" + "\n".join(problems)
    for mutant in mutants:
        args = mutant["tests"]
        for i, test in enumerate(args):
            if i and args[i - 1] in ("-k", "-m"):
                continue  # the value of an option: an expression, not a path
            path = test.split("::")[0]
            assert test.startswith("-") or os.path.exists(os.path.join(ROOT, path)), (mutant["name"], test)


def tree(tmp_path, mutants):
    """A small project: a handler, its test, and the mutants given."""
    (tmp_path / "firmware" / "guard").mkdir(parents=True)
    (tmp_path / "firmware" / "code.py").write_text("raise SystemExit('the board's code.py, never imported here')\n")
    (tmp_path / "firmware" / "guard" / "__init__.py").write_text(
        textwrap.dedent("""\
        def safe(value):
            if value < 0:
                return 0
            return value

        def untested(value):
            if value > 9:
                return 9
            return value
        """)
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_guard.py").write_text(
        textwrap.dedent("""\
        import guard

        def test_a_negative_is_held_at_zero():
            assert guard.safe(-3) == 0
        """)
    )
    (tmp_path / "tools" / "mutants").mkdir(parents=True)
    (tmp_path / "tools" / "mutants" / "guard.toml").write_text(mutants)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    return tmp_path


MUTANTS = textwrap.dedent("""\
    [[mutant]]
    name = "negative-check"
    why = "a negative value passes through"
    file = "firmware/guard/__init__.py"
    find = "if value < 0:"
    replace = "if False:"
    tests = ["tests/test_guard.py"]

    [[mutant]]
    name = "ceiling-check"
    why = "a value over 9 passes through"
    file = "firmware/guard/__init__.py"
    find = "if value > 9:"
    replace = "if False:"
    tests = ["tests/test_guard.py"]

    [[mutant]]
    name = "moved-on"
    why = "the code this mutant broke is gone"
    file = "firmware/guard/__init__.py"
    find = "if value == 7:"
    replace = "if False:"
    tests = ["tests/test_guard.py"]
    """)


def test_a_killed_mutant_a_survivor_and_a_stale_one_are_told_apart(tmp_path):
    root = tree(tmp_path, MUTANTS)
    mutants = mutate.load(str(root / "tools" / "mutants"))
    lines = []

    class Out:
        def write(self, text):
            lines.append(text)

        def flush(self):
            pass

    misses = mutate.run(mutants, root=str(root), out=Out())
    printed = "".join(lines)
    assert "killed   guard        negative-check" in printed
    assert [miss.split(":")[0] for miss in misses] == ["ceiling-check", "moved-on"]
    assert "SURVIVED" in misses[0] and "a value over 9 passes through" in misses[0]
    assert "occurs 0 times" in misses[1]
    assert (root / "firmware" / "guard" / "__init__.py").read_text().count(
        "if value < 0:"
    ) == 1  # the tree itself untouched


def test_tests_that_fail_unbroken_kill_nothing(tmp_path):
    root = tree(tmp_path, MUTANTS.split("[[mutant]]")[1].join(["[[mutant]]", ""]))
    (root / "tests" / "test_guard.py").write_text("def test_broken_anyway():\n    assert False\n")
    misses = mutate.run(mutate.load(str(root / "tools" / "mutants")), root=str(root), out=open(os.devnull, "w"))
    assert len(misses) == 1 and "its tests fail without it" in misses[0]


@pytest.mark.parametrize(
    "text, said",
    [
        ("[[mutant]]\nname = 'x'\n", "no why, file, find, replace, tests"),
        ("[[mutant]]\nname='x'\nwhy='w'\nfile='f'\nfind='a'\nreplace='a'\ntests=['t']\n", "same text as find"),
        ("[[mutant]]\nname='x'\nwhy='w'\nfile='f'\nfind='a'\nreplace='b'\ntests='t'\n", "tests a list"),
        ("[[mutant\n", "guard.toml"),
    ],
)
def test_a_malformed_mutants_file_is_one_line_naming_it(tmp_path, text, said):
    (tmp_path / "guard.toml").write_text(text)
    with pytest.raises(mutate.Usage, match=said):
        mutate.load(str(tmp_path))


@pytest.mark.parametrize(
    "args, said", [(["--fast"], "usage:"), (["no-such-area"], "no area or mutant named no-such-area")]
)
def test_usage_errors_say_one_line_and_exit_2(args, said):
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "mutate.py"), *args], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr and not done.stdout
