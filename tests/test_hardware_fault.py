# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every conductor rated for the fault current that can reach it (issue 42, H3).

Kind of fault: *a conductor rated below the fault current that can reach it*. Protection rests on the LPS
adapter's limit (150 % of its rating): a short right behind a conductor draws that until someone unplugs the
adapter, and no polyfuse of the input trips below it. The rule (``electrical.fault_check``, inside
``rules.checks``): each conductor from J1 to the last pixel is rated for that current, or sits behind a
5 x 20 mm fast fuse that carries its feed's worst case and opens any current above the conductor's rating within
``electrical.FAULT_SECONDS`` (the maker's IEC 60127-2 limits in parts.json). The design: the pixels in groups, each
fed from the fuse board through its own 0.8 A fast fuse (``electrical.pixel_groups``). Planted broken copies: the
design as it was (the Switchcraft 712A jack, 18 AWG leads; the string on one or two unfused feeds), one group, a
fuse too large, a conductor left outside the fuses' reach: each fails the rule on every board.
"""

import pytest
from nimatron_host import hardware
from nimatron_host.hardware import bom, electrical, harness, parts, rules

DESIGNS = {d.name: d for d in hardware.circuit.input_designs()}


def test_the_old_jack_and_leads_fail_the_rule_on_pico_grid(monkeypatch):
    design = DESIGNS["pico-grid"]
    assert electrical.fault_check(design) == []
    monkeypatch.setattr(parts, "JACK", "dc-jack-panel")
    monkeypatch.setattr(electrical, "lead_wire", lambda d: "wire-18")
    lines = electrical.fault_check(design)
    for ref, rated in (("J1", 4.0), ("W J1 lead", 5.6), ("W fuse board", 5.6)):
        assert any(
            x.startswith("pico-grid: %s (" % ref) and "rated %.2f A" % rated in x and "6.00 A" in x for x in lines
        ), (ref, lines)
    assert any(x.startswith("pico-grid: J1 (") and "rated 4.00 A" in x for x in rules.checks(design))
    monkeypatch.setattr(electrical, "pixel_groups", lambda d: [])  # the string fed at both ends, as it was
    assert any(
        x.startswith("pico-grid: W+5V far end (") and "rated 5.60 A" in x for x in electrical.fault_check(design)
    )


def test_the_loom_shares_a_fault_between_its_two_wires_and_a_single_one_would_not():
    """J2's loom has two 18 AWG each way: 3 A each in pico-grid's 6 A short; one wire alone is rated 5.6 A."""
    design = DESIGNS["pico-grid"]
    row = [r for r in electrical.fault_rows(design) if r[0] == "W+5V"][0]
    assert row[3] == pytest.approx(3.0) and row[4] == pytest.approx(5.6)
    saved = dict(electrical.PARALLEL)
    try:
        electrical.PARALLEL.clear()
        assert any(r[0] == "W+5V" for r in electrical.fault_short_of(design))
    finally:
        electrical.PARALLEL.update(saved)


@pytest.mark.parametrize(
    "amps, rating, within",
    [
        (6.0, 2.0, 2.0),  # 3 x In: the 275 % limit, 2 s at most
        (8.0, 2.0, 0.3),  # 4 x In
        (3.0, 2.0, None),  # 1.5 x In: at least 60 min, no opening promised
        (4.2, 2.0, 1800),  # 2.1 x In: 30 min at most
        (2.4, 0.8, 2.0),  # the pixels' conductors' rating on a 0.8 A fuse: 3 x In
    ],
)
def test_the_fuse_opens_as_its_datasheet_promises(amps, rating, within):
    assert electrical.fuse_opens_within(amps, rating) == within


def test_a_fuse_protects_only_what_it_opens_within_the_stated_time():
    assert electrical.fuse_protects(0.8, 2.4) and not electrical.fuse_protects(1.0, 2.4)
    assert electrical.largest_protecting_fuse(2.4) == 0.8
    assert electrical.fuse_for_feed(1.55) == 2.0 and electrical.fuse_for_feed(0.6) == 0.8


def test_a_fuse_per_feed_that_opens_in_time_clears_the_pixel_line(monkeypatch):
    """The rule's way to pass: fuses per feed that hold the load and open in time (planted feeds)."""
    design = DESIGNS["pico-neopixel"]
    monkeypatch.setattr(electrical, "feed_fuses", lambda d: [("first pixel", 0.6, 0.8)])
    assert electrical.fault_check(design) == []
    monkeypatch.setattr(electrical, "feed_fuses", lambda d: [("first pixel", 0.6, 2.0)])  # holds, opens too late
    assert electrical.fault_check(design)
    monkeypatch.setattr(electrical, "feed_fuses", lambda d: [("first pixel", 1.55, 0.8)])  # opens in time, too small
    assert electrical.fault_check(design)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_the_pixel_conductors_are_protected_in_a_fault(name):
    """Issue 42 H3 closed: each group of pixels fed through its own fast fuse, which carries the group's worst case
    within the derating and opens above the conductors' rating within FAULT_SECONDS; the BOM lists the fuses, the
    safety sheet names the conductors behind them."""
    design = DESIGNS[name]
    assert electrical.fault_check(design) == []
    fuses = electrical.feed_fuses(design)
    groups = electrical.pixel_groups(design)
    assert len(fuses) == len(groups) >= 2
    assert sum(size for _, size in groups) == len(electrical.pixel_gaps_mm(design)) + 1
    assert [first for first, _ in groups] == [0] + [f + s for f, s in groups[:-1]]  # consecutive, no gaps
    for _, amps, fuse in fuses:
        assert amps <= fuse * parts.derate() + 1e-9
        assert electrical.fuse_opens_within(2.4, fuse) <= electrical.FAULT_SECONDS
    assert sorted(r[0] for r in electrical.fault_fused(design)) == sorted(electrical.BEHIND_FUSES)
    text = bom.text(design)
    refs = harness.group_fuse_refs(design)
    assert ("%s-%s," % (refs[0], refs[-1])) in text and "0.8 A" in text
    sheet = hardware.files("en")[name + "/safety.md"]
    assert "behind its group's 0.8 A fast fuse" in sheet and "not protected" not in sheet


PLANTED = {
    "no groups: the string on one feed (or two), no fuse": lambda m: m.setattr(
        electrical, "pixel_groups", lambda d: []
    ),
    "one group: a fuse that cannot carry the load": lambda m: m.setattr(
        electrical, "pixel_groups", lambda d: [(0, len(electrical.pixel_gaps_mm(d)) + 1)]
    ),
    "a 1 A fuse per group: carries the load, opens too late": lambda m: m.setattr(
        electrical, "group_fuse", lambda: 1.0
    ),
    "a conductor outside the fuses' reach": lambda m: m.setattr(electrical, "BEHIND_FUSES", ("W pixel groups",)),
}


@pytest.mark.parametrize("how", sorted(PLANTED))
@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_a_planted_unprotected_conductor_fails_the_rule(name, how, monkeypatch):
    """Planted broken copies of the grouped feed: each leaves the pixels' conductors (or the groups' pairs) rated
    below the fault current with nothing that opens in time, and the rule names them."""
    design = DESIGNS[name]
    assert electrical.fault_check(design) == []
    PLANTED[how](monkeypatch)
    lines = electrical.fault_check(design)
    assert any("pixel conductors (" in x for x in lines), lines
    assert any("pixel conductors (" in x for x in rules.checks(design))
