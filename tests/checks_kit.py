# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The games' check as it was, and an answer to compare, for
tests/test_checks.py (CPython) and tests/mpy/run_checks.py (MicroPython:
mpy_runner.tree compiles this module beside the firmware)."""

from nimatron.games.rules import SizeError


def expensive(rules, start, misere, ring):
    """The check as it was: the theory's answer (a search, where it searches)."""
    return rules.theory(start, misere, ring) is not None or rules.searchable(start, ring)


def answer(check, rules, start, misere, ring):
    """``check``'s answer, or "too large" where it raises SizeError."""
    try:
        return bool(check(rules, start, misere, ring))
    except SizeError:
        return "too large"
