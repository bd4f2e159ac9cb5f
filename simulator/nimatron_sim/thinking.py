# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Nimrod's panel (``nimrod``) as lines of text: the terminal's "how the
machine thinks", in the visitor's language.

    for line in lines(nimrod(controller), Words("es")): print(line)

      8 4 2 1
      0 0 1 1 = 3   montón A
      ...
      0 1 0 0 = 4   suma-nim

    Binary digits, then "= " and the same number in decimal: the two are never
    side by side unmarked.
"""


def sentence(words, key, params):
    """One of the panel's sentences in words: firmware phrases translated,
    players named (a param ``who...`` or ``player...``: ``visitor`` or ``machine``)."""
    shown = {}
    for name, value in params.items():
        if name.startswith("who"):
            value = words.t("who." + value)
        elif name.startswith("player"):
            value = words.t("player." + value)
        elif name == "goal":  # "wins" or "loses"
            value = words.t("goal." + value)
        elif name in ("move", "note", "position", "after"):  # firmware words: a move, a note, a position
            value = words.phrase(value)
        shown[name] = value
    return words.t(key, **shown)


def lines(panel, words):
    """The panel as lines: the binary table (if the game has one), then its sentences."""
    if panel is None:
        return [words.t("nimrod.none"), "", words.t("sim.think.start")]
    out = []
    if panel.get("rows") is not None:
        width = panel["width"]
        if width <= 4:  # the column values, 8 4 2 1, over the digits
            out.append("  " + " ".join(str(1 << c) for c in range(width - 1, -1, -1)))
        for row in panel["rows"]:
            out.append(
                "  %s = %-3d %s"
                % (" ".join(str(b) for b in row["bits"]), row["value"], words.t(panel["row_key"], **row))
            )
        out.append("  " + "-" * (2 * width - 1))
        out.append("  %s        %s" % (" ".join(str(c % 10) for c in panel["counts"]), words.t("sim.think.ones")))
        if panel["kind"] != "moore":
            out.append(
                "  %s = %-3d %s" % (" ".join(str(b) for b in panel["sum_bits"]), panel["sum"], words.t("nimrod.sum"))
            )
    out.append("")
    out.extend(sentence(words, key, params) for key, params in panel["lines"])
    return out
