# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""J1's pairs are joined only after a checkpoint has measured them (``enclosure.pairs_check``).

Kind of fault: *contacts joined before they are known*. J1 (Kycon KPJX-PM-4S) has two contacts of
each polarity and its tails are joined in pairs. The safety sheet, the BOM and the commissioning
sheet said "pins 1 and 4 are +" as fact; the public readings of the makers' drawings pair 1 with 3
and 2 with 4 (Mean Well's R7B plug and Kycon's jack number the same contacts differently), and the
old CP2 measured pin 1 to pin 2 with the tails already joined, so it could not tell the wirings
apart: joined 1+4, a + and a − contact short the adapter. The rule: the + and − sets do not
overlap and cover every contact, they are where the plug's documented +V and −V meet the jack, the
harness joins exactly those pairs, and a checkpoint reads the four tails apart before any checkpoint
that names a joined pair. The generators: every assignment of the four contacts to +, −, both or
neither; every plug-to-jack mapping; the measuring checkpoint at every place in the build order;
each must fail the rule unless it is the documented one, and the planted old design fails it.
"""

import copy
import itertools

import pytest
from nimatron_host.hardware import checkpoints, designs, enclosure, harness, parts

JACKED = {d.name: d for d in designs() if d.jack}
D = JACKED["pico-grid"]
PLANTED = "planted-jack"


def plant(monkeypatch, **changes):
    """A copy of J1's catalogue entry with ``changes``, under its own key."""
    entry = copy.deepcopy(parts.part(parts.JACK))
    entry.update(changes)
    monkeypatch.setitem(parts.catalogue()["parts"], PLANTED, entry)
    return PLANTED


@pytest.fixture(scope="module")
def built():
    return checkpoints.checkpoints(D), harness.harness(D)["cables"]


@pytest.mark.parametrize("name", sorted(JACKED))
def test_every_board_with_a_jack_measures_its_pairs_first(name):
    d = JACKED[name]
    cps = checkpoints.checkpoints(d)
    assert enclosure.pairs_check(d, cps) == []
    assert cps[0]["key"] == checkpoints.PAIRS_KEY and cps[0]["stage"] == "inlet"
    assert not enclosure.joined(d, cps[0]) and any(enclosure.joined(d, cp) for cp in cps[1:])
    sheet = checkpoints.commissioning(d, ["x"])
    assert "red lead on tail 1, black on tail 2" in sheet and "(one pair)" in sheet


def test_the_documented_pairs():
    """Mean Well's R7B plug (its own numbers): 1 and 4 +V, 2 and 3 −V; they meet the jack's 1 and 3, 2 and 4."""
    plug = parts.contacts("r7b-plug")
    assert sorted(plug["+"]) == [1, 4] and sorted(plug["-"]) == [2, 3]
    assert parts.pair("+") == "1+3" and parts.pair("-") == "2+4"
    assert enclosure.polarity() == "pins 1+3 +, 2+4 −"


def test_every_assignment_of_the_contacts_but_the_documented_one_fails(monkeypatch, built):
    """The generator: each contact +, −, both or neither (256 assignments); only the documented one passes."""
    cps, cables = built
    passing = []
    for signs in itertools.product(("+", "-", "both", "neither"), repeat=4):
        plus = [n + 1 for n, s in enumerate(signs) if s in ("+", "both")]
        minus = [n + 1 for n, s in enumerate(signs) if s in ("-", "both")]
        key = plant(monkeypatch, contacts={"+": plus, "-": minus})
        if not enclosure.pairs_check(D, cps, jack=key, cables=cables):
            passing.append((plus, minus))
    assert passing == [([1, 3], [2, 4])]


def test_every_mapping_that_moves_the_plugs_pins_off_the_pairs_fails(monkeypatch, built):
    """The generator: every plug-to-jack mapping (24); those that bring the plug's +V to another pair fail."""
    cps, cables = built
    passing = []
    for perm in itertools.permutations((1, 2, 3, 4)):
        key = plant(monkeypatch, plug_to_jack={str(n + 1): j for n, j in enumerate(perm)})
        if not enclosure.pairs_check(D, cps, jack=key, cables=cables):
            passing.append(perm)
    # plug pins 1 and 4 (+V) on jack 1 and 3 in either order, 2 and 3 (−V) on 2 and 4 in either order
    assert sorted(passing) == [(1, 2, 4, 3), (1, 4, 2, 3), (3, 2, 4, 1), (3, 4, 2, 1)]


def test_the_old_design_fails(monkeypatch, built):
    """The planted broken copy: the jack's pairs 1+4 / 2+3 as the sheets stated them, with the old checkpoint
    that read pin 1 to pin 2 with the tails already joined and nothing before it."""
    cps, cables = built
    key = plant(monkeypatch, contacts={"+": [1, 4], "-": [2, 3]})
    old = [cp for cp in cps if cp["key"] != checkpoints.PAIRS_KEY]
    old[1] = dict(old[1], points=[("J1", "1+4"), ("J1", "2+3")])
    lines = enclosure.pairs_check(D, old, jack=key, cables=cables)
    assert any("J1's + contacts [1, 4] are not where the r7b-plug plug puts +V" in line for line in lines), lines
    assert any("joins J1's tails before a checkpoint has measured its pairs" in line for line in lines), lines
    assert any("the harness joins J1's tails as 1+3, 2+4, its contacts pair as 1+4, 2+3" in line for line in lines), (
        lines
    )


def test_overlapping_contacts_fail(monkeypatch, built):
    cps, cables = built
    key = plant(monkeypatch, contacts={"+": [1, 3], "-": [3, 4]})
    lines = enclosure.pairs_check(D, cps, jack=key, cables=cables)
    assert "pico-grid: J1 contacts 3 are both + and −: joining the pairs shorts the adapter" in lines, lines


def test_a_plug_documented_otherwise_fails(monkeypatch, built):
    cps, cables = built
    plug = copy.deepcopy(parts.part("r7b-plug"))
    plug["contacts"] = {"+": [1, 2], "-": [3, 4]}
    monkeypatch.setitem(parts.catalogue()["parts"], "planted-plug", plug)
    key = plant(monkeypatch, plug="planted-plug")
    lines = enclosure.pairs_check(D, cps, jack=key, cables=cables)
    assert any("are not where the planted-plug plug puts +V" in line for line in lines), lines


@pytest.mark.parametrize("where", range(6))
def test_the_measuring_checkpoint_anywhere_after_a_joined_pair_fails(where, built):
    """The generator: the measuring checkpoint moved to each place in the power checks' order."""
    cps, cables = built
    first = cps[0]
    rest = cps[1:]
    moved = rest[:where] + [first] + rest[where:]
    joined_before = any(enclosure.joined(D, cp) for cp in rest[:where])
    lines = enclosure.pairs_check(D, moved, cables=cables)
    assert bool(lines) == joined_before, (where, lines)


def test_a_build_with_no_measuring_checkpoint_fails(built):
    cps, cables = built
    lines = enclosure.pairs_check(D, cps[1:], cables=cables)
    assert lines == [
        "pico-grid: %s joins J1's tails before a checkpoint has measured its pairs (the adapter "
        "plugged in, the tails apart)" % cps[2]["id"]
    ]


def test_a_measuring_checkpoint_that_skips_a_reading_fails(built):
    cps, cables = built
    short = dict(cps[0], readings=[r for r in cps[0]["readings"] if "tail 3, black on tail 2" not in r[0]])
    lines = enclosure.pairs_check(D, [short] + cps[1:], cables=cables)
    assert lines == ["pico-grid: CP1 does not read tail 3 (+) against tail 2 (−)"]
    joined = dict(cps[0], points=[("J1", "1+3"), ("J1", "2+4")])
    lines = enclosure.pairs_check(D, [joined] + cps[1:], cables=cables)
    assert any("does not measure J1's 4 tails one by one" in line for line in lines), lines


def test_no_sheet_states_the_old_pairs():
    """The words a builder reads: no sheet says pins 1 and 4 are + (the safety sheet, the BOM, the guide,
    the harness and input drawings, the enclosure's marking)."""
    from nimatron_host.hardware import bom, guide, input_drawing, safety

    for d in JACKED.values():
        texts = [
            safety.sheet(d),
            guide.board_guide(d),
            enclosure.draw(d),
            harness.draw(d),
            input_drawing.draw(d),
            " ".join(" ".join(str(c) for c in r) for r in bom.rows(d)),
            checkpoints.commissioning(d, ["x"]),
        ]
        for text in texts:
            text = text.replace("Mean Well's own pin numbers: pins 1 and 4 +V", "")  # the plug's, not J1's
            assert "1+4" not in text and "pins 1 and 4 +" not in text and "2+3" not in text, d.name
