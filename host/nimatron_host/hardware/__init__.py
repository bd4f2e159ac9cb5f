# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The hardware package, generated from the pin maps: ``nimatron hardware``.

``files(lang)`` gives every text file of ``hardware/`` (Markdown, CSV, SVG)
as ``{relative path: text}``, deterministically: the same pin maps give the
same bytes on every machine. PNG pictures are rendered from the SVGs with
``rsvg-convert``; renderers differ between versions, so a PNG is current
when ``png-sources.txt`` records the SHA-256 of the SVG it came from.
"""

import hashlib
import os
import shutil
import subprocess

from . import bom, checkpoints, enclosure, guide, harness, input_drawing, panel, parts, safety, svg, wiring
from .circuit import designs, revision

SOURCES = "png-sources.txt"
RENDER_ZOOM = {
    "wiring": "1.5",
    "harness": "1.5",
    "panel": "0.8",
    "enclosure": "0.8",
}  # drawings: 1.5 px per unit; panel (mm): 0.8 x 3.78 = 3 px/mm


def files(lang="en"):
    """{path: text} of every generated text file."""
    out = {}
    all_designs = designs()
    for design in all_designs:
        name = design.name
        out[name + "/bom.csv"] = bom.text(design)
        out[name + "/wiring.svg"] = wiring.draw(design)
        if parts.has_dc_input(design):  # the input protection's own schematic
            out[name + "/input.svg"] = input_drawing.draw(design)
            out[name + "/enclosure.svg"] = enclosure.draw(design)  # the socket on the service face
        if not design.onboard:  # nothing to wire, no harness
            out[name + "/harness.svg"] = harness.draw(design)
        if not design.onboard:  # a board with its keys built in is its own panel
            out[name + "/panel.svg"] = panel.draw(name, design.spec, lang, kerf=panel.KERF_MM)
            for n, tile in enumerate(panel.tiles(name, design.spec, lang, kerf=panel.KERF_MM)):  # bigger than the bed
                out["%s/panel-tile-%d.svg" % (name, n + 1)] = tile
            for n, rib in enumerate(panel.splices(name, design.spec, lang, kerf=panel.KERF_MM)):  # behind each join
                out["%s/panel-splice-%d.svg" % (name, n + 1)] = rib
        out[name + "/README.md"] = guide.board_guide(design) + "\n"
        out[name + "/commissioning.md"] = checkpoints.commissioning(design, guide.self_test(design))
        out[name + "/safety.md"] = safety.sheet(design)
    out["README.md"] = guide.index(all_designs) + "\n"
    for path in out:  # every drawing says its licence and its revision itself
        if path.endswith(".svg"):
            out[path] = svg.licensed(out[path], revision(path.split("/")[0]))
    return out


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def png_sources(texts):
    """{png path: sha256 of its SVG} for every SVG."""
    out = {}
    for path in sorted(texts):
        if path.endswith(".svg"):
            out[path[:-4] + ".png"] = digest(texts[path])
    return out


def read_sources(folder):
    out = {}
    try:
        with open(os.path.join(folder, SOURCES)) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    out[parts[1]] = parts[0]
    except OSError:
        pass
    return out


def sources_text(recorded):
    return "".join("%s  %s\n" % (recorded[p], p) for p in sorted(recorded))


def stale(folder, lang="en"):
    """Paths under ``folder`` that are missing or differ from what would be generated."""
    texts = files(lang)
    out = []
    for path in sorted(texts):
        try:
            with open(os.path.join(folder, path), encoding="utf-8") as f:
                if f.read() != texts[path]:
                    out.append(path)
        except OSError:
            out.append(path)
    recorded = read_sources(folder)
    for png, source in sorted(png_sources(texts).items()):
        if recorded.get(png) != source or not os.path.exists(os.path.join(folder, png)):
            out.append(png)
    return out


def renderer():
    return shutil.which("rsvg-convert")


def render(svg_path, png_path):
    base = os.path.basename(svg_path)
    kind = "wiring"
    for name in ("panel", "harness", "enclosure"):
        kind = name if base.startswith(name) else kind
    tmp = png_path + ".tmp"
    background = "white"
    source = svg_path
    if kind == "panel":  # the laser file has no background and 0.01 mm cuts; the preview shows both
        background = panel.FACE
        with open(svg_path, encoding="utf-8") as f:
            text = f.read().replace('stroke="#ff0000" stroke-width="0.01"', 'stroke="#ff0000" stroke-width="0.5"')
            text = text.replace(' style="display:none"', "")  # the notes layer: revision and tile
        source = png_path + ".svg.tmp"
        with open(source, "w", encoding="utf-8") as f:
            f.write(text)
    try:
        subprocess.run(
            [renderer(), "--zoom", RENDER_ZOOM[kind], "--background-color", background, "-o", tmp, source],
            check=True,
            capture_output=True,
            timeout=120,
        )
    finally:
        if source != svg_path:
            os.remove(source)
    os.replace(tmp, png_path)


def write(folder, lang="en", pngs=True):
    """Write what is stale; returns (written paths, PNGs left stale for want of a renderer)."""
    texts = files(lang)
    written = []
    for path in sorted(texts):
        full = os.path.join(folder, path)
        try:
            with open(full, encoding="utf-8") as f:
                same = f.read() == texts[path]
        except OSError:
            same = False
        if not same:
            os.makedirs(os.path.dirname(full) or ".", exist_ok=True)
            with open(full + ".tmp", "w", encoding="utf-8", newline="\n") as f:
                f.write(texts[path])
            os.replace(full + ".tmp", full)
            written.append(path)
    recorded = read_sources(folder)
    wanted = png_sources(texts)
    left = []
    for png, source in sorted(wanted.items()):
        if recorded.get(png) == source and os.path.exists(os.path.join(folder, png)):
            continue
        if not pngs or not renderer():
            left.append(png)
            continue
        render(os.path.join(folder, png[:-4] + ".svg"), os.path.join(folder, png))
        recorded[png] = source
        written.append(png)
    keep = {p: recorded[p] for p in wanted if p in recorded}
    text = sources_text(keep)
    path = os.path.join(folder, SOURCES)
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read()
    except OSError:
        old = None
    if old != text:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return written, left
