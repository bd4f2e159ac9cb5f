# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A few lines of SVG writing: elements as text, numbers rounded, so the same
drawing is the same bytes on every machine."""

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
COPYRIGHT = "2026 The Nimatron project contributors"
LICENCE = "CERN-OHL-P-2.0"  # the hardware package's (hardware/LICENSE)


def num(x):
    """A coordinate: at most two decimals, no trailing zeros."""
    text = "%.2f" % x
    text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def attrs(values):
    out = []
    for key, value in values:
        if value is None:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = num(value)
        out.append('%s="%s"' % (key.rstrip("_").replace("_", "-"), esc(value)))
    return " ".join(out)


class Drawing:
    """Elements appended in order; ``text()`` gives the document."""

    def __init__(self, width, height, unit="", title="", background="#ffffff"):
        self.width = width
        self.height = height
        self.unit = unit
        self.title = title
        self.background = background
        self.items = []

    def add(self, tag, _text=None, **kw):
        pairs = sorted(kw.items())
        line = "<%s %s" % (tag, attrs(pairs))
        if _text is None:
            self.items.append(line + "/>")
        else:
            self.items.append(line + ">" + esc(_text) + "</%s>" % tag)

    def raw(self, text):
        self.items.append(text)

    def line(self, x1, y1, x2, y2, **kw):
        kw.setdefault("stroke", "#000000")
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, **kw)

    def path(self, d, **kw):
        kw.setdefault("fill", "none")
        kw.setdefault("stroke", "#000000")
        self.add("path", d=d, **kw)

    def rect(self, x, y, w, h, **kw):
        kw.setdefault("fill", "none")
        kw.setdefault("stroke", "#000000")
        self.add("rect", x=x, y=y, width=w, height=h, **kw)

    def circle(self, cx, cy, r, **kw):
        kw.setdefault("fill", "none")
        kw.setdefault("stroke", "#000000")
        self.add("circle", cx=cx, cy=cy, r=r, **kw)

    def text(self, x, y, words, size=12, anchor="start", weight=None, **kw):
        kw.setdefault("fill", "#000000")
        self.add(
            "text", words, x=x, y=y, font_size=size, text_anchor=anchor, font_weight=weight, font_family=FONT, **kw
        )

    def group(self, **kw):
        self.items.append("<g %s>" % attrs(sorted(kw.items())))

    def end(self):
        self.items.append("</g>")

    def document(self):
        u = self.unit
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" viewBox="0 0 %s %s">\n'
            % (num(self.width), u, num(self.height), u, num(self.width), num(self.height))
        )
        body = ["<title>%s</title>" % esc(self.title)]
        if self.background:
            body.append(
                '<rect x="0" y="0" width="%s" height="%s" fill="%s"/>'
                % (num(self.width), num(self.height), self.background)
            )
        return head + "\n".join(body + self.items) + "\n</svg>\n"


def licensed(document, revision):
    """``document`` (an SVG) saying in itself whose it is, under which licence
    and which revision it is: an SPDX comment after the XML declaration, the
    way the REUSE convention (``reuse lint``) reads a file's licence."""
    head, sep, rest = document.partition("?>\n")
    if not sep or not head.startswith("<?xml"):
        raise ValueError("an SVG without its XML declaration")
    return "%s%s<!--\nSPDX-FileCopyrightText: %s\n\nSPDX-License-Identifier: %s\n\n%s\n-->\n%s" % (
        head,
        sep,
        COPYRIGHT,
        LICENCE,
        revision.replace("--", "- -"),
        rest,
    )
