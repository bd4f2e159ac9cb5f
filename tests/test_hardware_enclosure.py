# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The supply's socket is off the visitor's face (``host/nimatron_host/hardware/enclosure.py``).

Kind of fault: *a socket a visitor can reach*. Issue 42 (H5): every board with a
DC jack had it on the front panel, where a visitor can unplug the machine or
plug something else in, while the safety sheet said nothing on that side comes
off. The rule: no socket on the visitor's face (panel.svg), exactly one on the
service face of enclosure.svg, marked with its volts, amps and polarity, its
lead retained; each planted broken copy must fail it.

Kind: *a part a visitor touches with no ESD element*. Bullet pixels sit in the
panel's holes, their LEDs under a visitor's finger, and their string had no ESD
element on data or +5V: a board whose pixels are touched needs one more SRV05-4
at the first pixel, and the rule fails with it left out.
"""

import pytest
from nimatron_host.hardware import circuit, designs, electrical, enclosure, panel, parts, rules, safety

JACKED = {d.name: d for d in designs() if d.jack}


@pytest.mark.parametrize("name", sorted(JACKED))
def test_every_board_with_a_jack_passes(name):
    assert enclosure.socket_check(JACKED[name]) == []
    assert enclosure.pairs_check(JACKED[name]) == []
    assert [x for x in rules.checks(JACKED[name]) if electrical.OPEN not in x] == []  # H3's open finding


def test_a_socket_neither_keyed_nor_locking_fails():
    """The planted broken copy: the old Switchcraft 712A barrel jack takes any 2.1 mm plug and lets go on a tug."""
    d = JACKED["pico-grid"]
    lines = enclosure.socket_check(d, jack="dc-jack-panel")
    assert lines == [
        "pico-grid: J1 Switchcraft 712A panel-mount DC power jack 2.1 mm is neither keyed nor locking: "
        "any plug of its size goes in, a tug pulls it out"
    ]
    assert enclosure.socket_check(d) == []
    assert parts.part(parts.JACK)["keyed"] and parts.part(parts.JACK)["locking"]


def test_a_jack_planted_on_the_panel_fails():
    d = JACKED["pico-grid"]
    text = panel.draw(d.name, d.spec)
    broken = text.replace("</svg>", '<circle cx="40" cy="500" r="5.55" class="jack"/>\n</svg>')
    assert enclosure.socket_check(d, panel_svg=broken) == ["pico-grid: J1 DC jack on the visitor's face (panel.svg)"]


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda s: s.replace('class="jack"', 'class="hole"'), "0 sockets on the service face"),
        (lambda s: s.replace('data-face="service"', 'data-face="visitor"'), "0 sockets on the service face"),
        (lambda s: s.replace(enclosure.polarity(), "pins"), "lacks %r" % enclosure.polarity()),
        (lambda s: s.replace("5 V DC", "DC"), "lacks '5 V'"),
        (lambda s: s.replace("4 A max", "max"), "lacks '4 A'"),
        (lambda s: s.replace('class="retention"', 'class="note"'), "nothing holds the adapter's lead"),
    ],
)
def test_each_broken_enclosure_fails(change, words):
    d = JACKED["pico-grid"]
    lines = enclosure.socket_check(d, enclosure_svg=change(enclosure.draw(d)))
    assert any(words in line for line in lines), lines


@pytest.mark.parametrize("name", sorted(JACKED))
def test_the_guide_bom_and_safety_sheet_say_where_the_socket_is(name):
    from nimatron_host.hardware import bom, guide

    d = JACKED[name]
    jack = [r for r in bom.rows(d) if r[0] == d.jack][0]
    assert "service face" in jack[5] and "enclosure.svg" in jack[5]
    assert "enclosure.svg" in guide.board_guide(d)
    sheet = safety.sheet(d)
    assert "service face" in sheet and "metal frame is bonded" not in sheet and "snap in from behind" not in sheet


ALL = {d.name: d for d in designs()}


@pytest.mark.parametrize("name", sorted(n for n, d in ALL.items() if not d.onboard))
def test_touched_pixels_get_an_esd_array_at_the_first_pixel(name):
    d = ALL[name]
    need = electrical.esd_need(d)
    data = [ref for ref, chains in parts.looms(d) if parts.is_data_loom(chains)]
    if parts.touched_pixels(d):
        assert need.get(data[0]) == 1
        fitted = electrical.esd_arrays(d)
        assert electrical.esd_check(d, fitted) == []
        lines = electrical.esd_check(d, fitted - 1)  # the string left without its array, as before
        assert lines and ("%s 1" % data[0]) in lines[0], lines
    else:
        assert not data or data[0] not in need


def test_bullet_pixel_boards_are_the_touched_ones():
    assert sorted(n for n, d in ALL.items() if parts.touched_pixels(d)) == ["pico-grid", "pico-ring"]


@pytest.mark.parametrize("name", sorted(n for n, d in ALL.items() if not d.onboard))
def test_the_index_says_what_lamps_the_bom_buys(name):
    """hardware/README.md called pico-grid "an 8x8 NeoPixel matrix": it is 64 bullet pixels in holes."""
    from nimatron_host.hardware import guide

    d = ALL[name]
    words = circuit.what_words(d)
    kind = parts.lamp_part(d)
    assert ("bullet pixels" in words) == (kind == parts.BULLET_PIXEL)
    assert ("strip" in words) == (kind == "ws2812b-strip")
    assert ("LEDs" in words) == (not d.neopixel)
    assert "NeoPixel matrix" not in words
    assert words in guide.index(list(ALL.values())) and words in guide.board_guide(d)
