# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Imports point one way.

    firmware core (nimatron: games, machine, config, link, panels)
        <- drivers (nimatron.drivers)
        <- nimatron_pc (what every PC-side package shares: usage errors, failures)
        <- simulator (nimatron_sim)
        <- faces (nimatron_sim.tui, nimatron_sim.web)
        <- host tools (nimatron_host: the `nimatron` command line)

A package may import those left of it, never those right of it. The host is
the top: it is the command line a user types (`nimatron sim`, `nimatron
display --web` serves the web face for a real machine, the hardware panels
engrave the faces' words), so it may start the simulator and its faces. The
simulator once imported the host's command line for its error classes and
the web follower imported the host's link: a circle, now gone. Every import
is read from the source with ``ast``, function-level imports too.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("firmware", "simulator", "host")
ORDER = ["core", "drivers", "pc", "sim", "faces", "host"]

# (importing file, imported module): allowed against the order, and why.
ALLOWED = {
    # the device's composition root: it picks the board's driver at start-up
    # (the only place the core names a driver; everything else gets ports passed in)
    ("firmware/nimatron/machine/app.py", "nimatron.drivers"),
}


def layer(module):
    parts = module.split(".")
    if parts[0] == "nimatron":
        return "drivers" if len(parts) > 1 and parts[1] == "drivers" else "core"
    if parts[0] == "nimatron_pc":
        return "pc"
    if parts[0] == "nimatron_sim":
        return "faces" if len(parts) > 1 and parts[1] in ("tui", "web") else "sim"
    if parts[0] == "nimatron_host":
        return "host"
    return None   # the standard library, a third-party library


def modules():
    """(path relative to the checkout, module name, package) of every source file."""
    for base in SOURCES:
        for folder, _, files in os.walk(os.path.join(ROOT, base)):
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                module = os.path.relpath(path, os.path.join(ROOT, base))[:-3].replace(os.sep, ".")
                package = module.rsplit(".", 1)[0] if name != "__init__.py" else module[:-len(".__init__")]
                if module.endswith(".__init__"):
                    module = module[:-len(".__init__")]
                if layer(module):
                    yield os.path.relpath(path, ROOT).replace(os.sep, "/"), module, package


def imports(path, package):
    """(line, imported module) of every import in one file, relative ones resolved."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                yield node.lineno, ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.lineno, node.module


def edges():
    for path, module, package in modules():
        for line, target in imports(path, package):
            if layer(target) and layer(target) != layer(module):
                yield path, line, module, target


def test_no_import_points_against_the_layers():
    wrong = []
    for path, line, module, target in edges():
        if ORDER.index(layer(target)) > ORDER.index(layer(module)) and (path, target) not in ALLOWED:
            wrong.append("%s:%d: %s (%s) imports %s (%s)" % (path, line, module, layer(module), target,
                                                             layer(target)))
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_every_allowed_exception_is_still_needed():
    """An exception nobody uses any more is taken off the list, so it cannot hide a new one."""
    used = set((path, target) for path, _, _, target in edges())
    assert ALLOWED <= used, sorted(ALLOWED - used)


def test_the_reader_sees_the_imports_it_must_judge(tmp_path):
    """The checker itself: relative and function-level imports are read, and an edge against the order fails."""
    found = dict(((path, target), module) for path, _, module, target in edges())
    assert ("simulator/nimatron_sim/web/follow.py", "nimatron_pc.errors") in found      # inside a method
    assert ("host/nimatron_host/display.py", "nimatron_sim.web.follow") in found         # the host starts a face
    assert any(path.startswith("firmware/nimatron/drivers/") and layer(t) == "core" for path, t in found)
    assert ORDER.index(layer("nimatron_host.cli")) > ORDER.index(layer("nimatron_sim.cli"))


@pytest.mark.parametrize("package", ["nimatron_pc"])
def test_the_shared_module_stands_on_the_firmware_alone(package):
    for path, line, module, target in edges():
        if module.startswith(package):
            assert layer(target) == "core", (path, line, target)


def test_test_modules_never_import_each_other():
    """What tests share lives in conftest.py (fixtures) and the tests/kit_*.py
    modules (helpers): a test module imported by another runs its imports and
    module-level fixtures twice, and renaming a test breaks its neighbours."""
    here = os.path.join(ROOT, "tests")
    wrong = []
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            for line, target in imports(os.path.join("tests", name), ""):
                if target and target.split(".")[0].startswith("test_"):
                    wrong.append("tests/%s:%d imports %s" % (name, line, target))
    assert not wrong, "\n".join(wrong)


# -- the structure drawing (docs/structure.dot, rendered to docs/structure.svg) --
PACKAGES = (("nimatron.games", "core"), ("nimatron.panels", "core"), ("nimatron.config", "core"),
            ("nimatron.machine", "core"), ("nimatron.link", "core"), ("nimatron.drivers", "drivers"),
            ("nimatron_pc", "pc"), ("nimatron_sim", "sim"), ("nimatron_sim.tui", "faces"),
            ("nimatron_sim.web", "faces"), ("nimatron_host", "host"), ("nimatron_host.hardware", "host"))


def package_of(module):
    best = None
    for name, _ in PACKAGES:
        if module == name or module.startswith(name + "."):
            if best is None or len(name) > len(best):
                best = name
    return best


def structure_dot():
    """The packages and who imports whom, as Graphviz DOT: the picture of the layers."""
    links = {}
    for path, _, module, target in edges_all():
        a, b = package_of(module), package_of(target)
        if a and b and a != b:
            links[(a, b)] = links.get((a, b), 0) + 1
    out = ["// generated by tests/test_layers.py (structure_dot); render: dot -Tsvg docs/structure.dot -o docs/structure.svg",
           "digraph nimatron {", '  rankdir=BT; node [shape=box, fontname="DejaVu Sans", fontsize=11];',
           '  edge [color="#555555", arrowsize=0.6]; nodesep=0.4; ranksep=0.7;']
    for layer_name in ORDER:
        names = [n for n, l in PACKAGES if l == layer_name]
        out.append("  { rank=same; %s }" % " ".join('"%s";' % n for n in names))
    for a, b in sorted(links):   # which package imports which (not how often: a new import elsewhere changes nothing)
        out.append('  "%s" -> "%s";' % (a, b))
    out.append("}")
    return "\n".join(out) + "\n"


def edges_all():
    """Every import between the project's modules, the same layer included."""
    for path, module, package in modules():
        for line, target in imports(path, package):
            if layer(target):
                yield path, line, module, target


def test_the_structure_drawing_is_current():
    path = os.path.join(ROOT, "docs", "structure.dot")
    with open(path, encoding="utf-8") as f:
        assert f.read() == structure_dot(), ("docs/structure.dot is stale: python -c 'import sys; sys.path.insert(0, "
                                            "\"tests\"); import test_layers; open(\"docs/structure.dot\", \"w\")"
                                            ".write(test_layers.structure_dot())' && dot -Tsvg docs/structure.dot "
                                            "-o docs/structure.svg")


def test_the_drawing_shows_no_circle_between_packages():
    """Reading the drawing bottom to top, every arrow climbs or stays level: no package
    imports one that imports it back, through any path."""
    graph = {}
    for path, _, module, target in edges_all():
        a, b = package_of(module), package_of(target)
        if a and b and a != b and (path, target) not in ALLOWED:   # app.py choosing the driver: listed above
            graph.setdefault(a, set()).add(b)

    def reach(start):
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    circles = [(a, b) for a in graph for b in graph[a] if a in reach(b)]
    assert not circles, circles
