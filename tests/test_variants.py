# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every registered rule set, and what it provides to the rest of the machine.

The faces, the panels, the simulated visitor, Nimrod, the OLED and the link
ask a rule set's class (``panel``, ``one_row``, ``countable``, ``nim_sum``,
``reasoning``, ``about``) instead of testing its name. Adding a variant is
its class and one line of ``REGISTRY`` in ``games/rules.py``, plus its words
in the three language files (docs/contributing.md); this test names whatever
a new one lacks, and prints the table of what each provides.
"""

import pytest
from nimatron.games.registry import entries
from nimatron.games.rules import REGISTRY, parse_rules, rules_class
from nimatron.panels import make_panel
from nimatron.panels.panel import PanelError
from nimatron_sim.words import Words

RULES = [entry[0] for entry in entries(REGISTRY)]
PANELS = ("heaps", "ring", "cells", "supply", "tally", "splits")
REASONING = (None, "nim", "values", "groups", "moore", "building")
# a start each panel can show: (start, layout of the lamps, their shape)
STARTS = {
    "heaps": ([3, 4, 5], [7, 7, 7], "grid"),
    "ring": ([8], [8], "ring"),
    "splits": ([4], [7, 7, 7], "grid"),
    "cells": ([[1, 1, 0], [1, 0, 1]], [3, 3], "grid"),
    "supply": ([1, 2, 3], [7, 7, 7, 7, 7], "grid"),
    "tally": ([1, 2, 3], [7, 7, 7, 7, 7, 7, 7], "grid"),
}


def variant(name):
    cls = rules_class(name)
    return parse_rules(name if not cls.takes_k or cls.default_k else name + ":3")


def table():
    rows = [
        "%-9s %-7s %-9s %-7s %-9s %-7s %s" % ("rules", "panel", "reasoning", "one_row", "countable", "nim_sum", "about")
    ]
    for name in sorted(RULES):
        r = variant(name)
        rows.append(
            "%-9s %-7s %-9s %-7s %-9s %-7s %s"
            % (r.spec, r.panel, r.reasoning, r.one_row, r.countable, r.nim_sum, r.about)
        )
    return "\n".join(rows)


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_variant_says_what_the_machine_needs_to_know(name):
    r = variant(name)
    missing = []
    if r.panel not in PANELS:
        missing.append("panel %r (one of %s)" % (r.panel, ", ".join(PANELS)))
    if r.reasoning not in REASONING:
        missing.append("reasoning %r (one of %s)" % (r.reasoning, REASONING))
    for flag in ("one_row", "countable", "nim_sum", "ordered", "removes"):
        if not isinstance(getattr(r, flag), bool):
            missing.append("%s: True or False" % flag)
    if not isinstance(r.position_words(r.check(STARTS[r.panel][0])), str):
        missing.append("position_words: the position in words, for solve, demo, monitor, the OLED and the faces")
    if not (isinstance(r.dead_below, int) and r.dead_below >= 1):
        missing.append("dead_below: a whole number >= 1")
    if r.panel != "cells" and r.most_parts([5, 6]) < 2:
        missing.append("most_parts: at least the heaps it starts with")
    if not r.about:
        missing.append("about: the rule in one line, for the settings and the panel")
    if r.countable and not r.one_row:
        missing.append("countable but not one_row: a counter's moves take from its one heap")
    if r.nim_sum and r.reasoning != "nim":
        missing.append("nim_sum without Nimrod's 'nim' reasoning")
    assert not missing, "%s lacks: %s\n\n%s" % (name, "; ".join(missing), table())


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_variant_gets_the_panel_it_asks_for(name):
    r = variant(name)
    start, layout, shape = STARTS[r.panel]
    panel = make_panel(r, layout, start, shape=shape)
    heaps, ring = panel.position()
    assert r.check(heaps, ring) is not None


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_every_variant_is_described_in_every_language(lang):
    words = Words(lang)
    untranslated = [variant(n).about for n in sorted(RULES) if words.phrase(variant(n).about) == variant(n).about]
    assert not untranslated, untranslated


def test_nimrods_value_tables_have_their_words():
    en = Words("en")
    for name in sorted(RULES):
        r = variant(name)
        if r.reasoning == "values":
            key = "nimrod.values." + r.name
            assert en.t(key) != key, "%s: Nimrod needs the words %r (lang/*.json)" % (name, key)


def test_a_panel_kind_nobody_draws_is_named(monkeypatch):
    r = parse_rules("nim")
    monkeypatch.setattr(type(r), "panel", "hexagons")
    with pytest.raises(PanelError, match="ask for 'hexagons' lamps, which no panel draws"):
        make_panel(r, [7, 7, 7], [3, 4, 5])
