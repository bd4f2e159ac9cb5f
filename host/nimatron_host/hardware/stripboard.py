# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The DC input on stripboard: which strip each leg of each part goes into, and the wire links.

Strips run left to right, numbered from the top; every part stands across them in a column of its
own, its legs in the strips of its nets. A net that needs more than one strip (ground, S, the gates)
has its strips joined by wire links. ``tests/test_hardware_power_path.py`` checks every leg against
the ngspice deck (``supply_sim.netlist``): what is built is what is simulated.

The TO-220s stand with their legs across three strips (Q2's outer legs bent out to every other strip);
the TO-92s' legs go into three neighbouring strips; C_G (5 mm pitch) spans two strips.
"""

from . import parts as catalogue

# strip number (from the top) -> the deck's node
STRIPS = {
    1: "0",
    2: "j1",
    3: "s",
    4: "f1",
    5: "g",
    6: "0",
    7: "rail",
    8: "0",
    9: "s",
    10: "b",
    11: "g",
    12: "ref",
    13: "0",
    14: "k",
}

# (reference, the deck's element, [(leg, the element's node position, strip)]) in the columns' order
PARTS = (
    ("TVS1", "Dtvs1", [("either", 0, 2), ("either", None, 1)]),
    ("F1", "Rf", [("1", 0, 2), ("2", 1, 4)]),
    ("C_IN", "Cin", [("either", 0, 4), ("either", 1, 6)]),
    ("Q1", "M1", [("S", 2, 3), ("D", 0, 4), ("G", 1, 5)]),
    ("R_G", "Rg", [("1", 0, 5), ("2", 1, 6)]),
    ("Q2", "M2", [("G", 1, 5), ("D", 0, 7), ("S", 2, 9)]),
    ("Q3", "Q3", [("E", 2, 9), ("B", 1, 10), ("C", 0, 11)]),
    ("C_G", "Cg", [("1", 0, 9), ("2", 1, 11)]),
    ("DZ", "Dz", [("cathode (band)", 1, 9), ("anode", 0, 11)]),
    ("R_BE", "Rbe", [("1", 0, 9), ("2", 1, 10)]),
    ("R_TOP", "Rtop", [("1", 0, 9), ("2", 1, 12)]),
    ("R_BOT", "Rbot", [("1", 0, 12), ("2", 1, 13)]),
    ("U_OVP", "X431", [("REF", 2, 12), ("A", 0, 13), ("K", 1, 14)]),
    ("R_B", "Rb", [("1", 1, 14), ("2", 0, 10)]),
)

# wire links between strips of one net (18 AWG for S: the load current crosses it)
LINKS = ((1, 6, "22 AWG"), (6, 8, "22 AWG"), (8, 13, "22 AWG"), (3, 9, "18 AWG"), (5, 11, "22 AWG"))


# off-board wires: (what, strip)
def wires():
    """The off-board wires: (what, strip); J1's pairs as parts.json numbers them, joined after they are measured."""
    return (
        ("J1 pins %s (+)" % catalogue.pair("+"), 2),
        ("J1 pins %s (-)" % catalogue.pair("-"), 1),
        ("+5V to J2 pins 1, 2", 7),
        ("ground to J2 pins 3, 4", 8),
    )


# the deck's nodes that are inside a part or a sense source: the node a builder sees
INSIDE = {"jt": "j1", "cinr": "0", "refx": "ref", "rq": "rail", "zz": "s", "gq": "g"}


def deck_nodes(netlist):
    """{element: [nodes, each as a builder sees it]} from a ``supply_sim.netlist`` text."""
    out = {}
    for line in netlist.splitlines():
        words = line.split()
        if not words or words[0][0] in "*.+" or words[0].startswith("X") and len(words) < 4:
            continue
        count = 4 if words[0][0] in "MQX" else 2
        out[words[0]] = [INSIDE.get(node, node) for node in words[1 : 1 + count]]
    return out


def check(netlist):
    """Every leg that is not on its node's strip, every link between two nets, every net in pieces (empty: good)."""
    nodes = deck_nodes(netlist)
    out = []
    for ref, element, legs in PARTS:
        for leg, position, strip in legs:
            want = "0" if position is None else nodes[element][position]
            if STRIPS[strip] != want:
                out.append("%s %s: strip %d is %s, the deck has %s" % (ref, leg, strip, STRIPS[strip], want))
    for a, b, _ in LINKS:
        if STRIPS[a] != STRIPS[b]:
            out.append("link %d-%d joins %s to %s" % (a, b, STRIPS[a], STRIPS[b]))
    for net in set(STRIPS.values()):
        strips = [n for n, name in STRIPS.items() if name == net]
        joined = {strips[0]}
        for _ in strips:
            joined |= {b for a, b, _ in LINKS if a in joined} | {a for a, b, _ in LINKS if b in joined}
        if set(strips) - joined:
            out.append("net %s: strips %s are not linked" % (net, sorted(set(strips) - joined)))
    return out


NAMES = {"0": "GND", "j1": "J1 +", "s": "S", "f1": "F1 out", "g": "G", "rail": "+5V", "b": "B", "ref": "REF", "k": "K"}


def draw(d, x0, y0, pitch=16, column=36):
    """The layout on ``d`` (an svg.Drawing) from (x0, y0): strips, parts in columns, links."""
    columns = len(PARTS) + len(LINKS)
    width = (columns + 1) * column
    d.text(
        x0,
        y0 - 8,
        "Stripboard, component side (strips run left to right; every leg's strip named):",
        size=11,
        weight="bold",
    )
    for n, net in sorted(STRIPS.items()):
        y = y0 + n * pitch
        d.line(x0 + 60, y, x0 + 60 + width, y, stroke="#c08040", stroke_width=5, class_="strip")
        d.text(x0 + 54, y + 4, "%d %s" % (n, NAMES[net]), size=9, anchor="end")
    x = x0 + 60 + column
    for ref, _, legs in PARTS:
        top, bottom = min(s for _, _, s in legs), max(s for _, _, s in legs)
        d.group(class_="strip-part", data_part=ref)
        d.line(x, y0 + top * pitch, x, y0 + bottom * pitch, stroke_width=3)
        for _, _, s in legs:
            d.circle(x, y0 + s * pitch, 3, fill="#000000")
        d.end()
        d.text(x, y0 + top * pitch - 6, ref, size=8, anchor="middle")
        x += column
    for a, b, _gauge in LINKS:
        d.line(x, y0 + a * pitch, x, y0 + b * pitch, stroke="#2060c0", stroke_width=2, class_="strip-link")
        d.circle(x, y0 + a * pitch, 2.5, fill="#2060c0")
        d.circle(x, y0 + b * pitch, 2.5, fill="#2060c0")
        x += column
    words = [
        "Legs: "
        + "; ".join("%s %s" % (ref, ", ".join("%s→%d" % (leg, s) for leg, _, s in legs)) for ref, _, legs in PARTS),
        "Links (blue): "
        + ", ".join("%d-%d %s" % link for link in LINKS)
        + ". Wires: "
        + ", ".join("%s → strip %d" % w for w in wires())
        + ". No strip is cut. Tin strips 2, 3, 4, 7, 9 and "
        "lay 18 AWG along them: they carry the load current.",
    ]
    return (len(STRIPS) + 2) * pitch, words
