# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The generator's few text helpers, which the guide, the commissioning sheet,
the safety sheet and the drawings share: a Markdown table, lines wrapped at
spaces, a resistance in words. They stand on nothing else in the package."""


def md_table(header, rows):
    """A Markdown table (the guide's and the commissioning sheet's): a | in a cell is shown as /."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        out.append("| " + " | ".join(str(c).replace("|", "/") for c in row) + " |")
    return out


def wrap(paragraphs, width):
    """Lines of at most ``width`` characters, broken at spaces."""
    out = []
    for text in paragraphs:
        line = ""
        for word in text.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = "   " + word
            else:
                line = line + " " + word if line else word
        out.append(line)
    return out


def ohms_words(ohms):
    """1500 -> '1.5 kΩ', 1e6 -> '1 MΩ'."""
    for scale, unit in ((1e6, "MΩ"), (1e3, "kΩ")):
        if ohms >= scale:
            return "%g %s" % (ohms / scale, unit)
    return "%g Ω" % ohms
