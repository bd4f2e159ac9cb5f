# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Compile the firmware package with CircuitPython's own mpy-cross, once per
CircuitPython major, into the repository (``firmware/mpy/cpN/``), the way
Adafruit's library bundles ship a build per major. ``nimatron deploy`` puts
these ``.mpy`` files on a board whose ``boot_out.txt`` names that major, so a
maker needs no CircuitPython build of their own.

Each build folder holds the ``.mpy`` of every module deploy can put on a
CircuitPython drive (``nimatron_host.deploy.carried_sources``) and
``manifest.json``: the SHA-256 of each source and of its ``.mpy``, and the
compiler. ``tests/test_carried_mpy.py`` holds the manifest against today's
sources (CI needs no mpy-cross). After a change to ``firmware/nimatron``:

    .venv/bin/python tools/build_mpy.py

Same sources and compilers, same bytes: a run changes only what a source
change changed. The compilers come from the emulator's cache
(``$CP_EMU_CACHE``, ``~/.cache/nimatron-cp-emu/mpy-cross-TAG``), built from
CircuitPython's source by the shared ``build-mpy-cross.sh MIRROR TAG``;
``--mpy-cross MAJOR=EXE`` names one elsewhere.

usage: tools/build_mpy.py [--mpy-cross MAJOR=EXE]... [--check]
  --check: build nothing; exit 1 and name the stale modules if a build is out of date.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CACHE = os.environ.get("CP_EMU_CACHE") or os.path.expanduser("~/.cache/nimatron-cp-emu")
# The CircuitPython each major's build is compiled by. 8.x writes mpy v5; 9.x
# (and 10.x) write mpy v6, bytecode-compatible within the major
# (py/persistentcode.h: a bytecode .mpy needs only MPY_VERSION to match).
COMPILERS = {8: "8.2.9", 9: "9.2.8"}
MPY_VERSION = {8: 5, 9: 6}


def main(argv=None):
    p = argparse.ArgumentParser(prog="build_mpy", description=__doc__.split("\n")[0])
    p.add_argument(
        "--mpy-cross",
        action="append",
        default=[],
        metavar="MAJOR=EXE",
        help="the compiler for one major (default: mpy-cross-TAG in %s)" % CACHE,
    )
    p.add_argument("--check", action="store_true", help="build nothing: say whether each build is current")
    args = p.parse_args(argv)
    sys.path[:0] = [os.path.join(REPO, "firmware"), os.path.join(REPO, "host")]
    from nimatron_host import deploy

    exes = {}
    for item in args.mpy_cross:
        major, sep, exe = item.partition("=")
        if not sep or not major.isdigit() or int(major) not in COMPILERS:
            p.error("--mpy-cross %r: give MAJOR=EXE, MAJOR one of %s" % (item, ", ".join(map(str, COMPILERS))))
        exes[int(major)] = exe
    sources = deploy.carried_sources()
    if args.check:
        stale = 0
        for major in sorted(COMPILERS):
            why = deploy.carried_stale(major, sources)
            if why:
                stale += 1
                print("build_mpy: firmware/mpy/cp%d: %s" % (major, why))
        if stale:
            print("rebuild: .venv/bin/python tools/build_mpy.py")
        return 1 if stale else 0
    for major in sorted(COMPILERS):  # every compiler checked before anything is written
        exe = exes[major] = exes.get(major) or os.path.join(CACHE, "mpy-cross-" + COMPILERS[major])
        try:
            said = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout.split()
        except OSError:
            print(
                "build_mpy: no mpy-cross for CircuitPython %d.x at %s (build it from CircuitPython's source: "
                "build-mpy-cross.sh MIRROR %s in the shared circuitpython-emu tool)" % (major, exe, COMPILERS[major]),
                file=sys.stderr,
            )
            return 2
        if said[:2] != ["CircuitPython", COMPILERS[major]]:
            print(
                "build_mpy: %s says %r, not CircuitPython %s" % (exe, " ".join(said[:2]), COMPILERS[major]),
                file=sys.stderr,
            )
            return 2
    for major in sorted(COMPILERS):
        build(deploy, major, exes[major], sources)
    return 0


def build(deploy, major, exe, sources):
    """Write firmware/mpy/cpMAJOR: the .mpy of each source and manifest.json."""
    from nimatron_host import payload

    folder = deploy.carried_dir(major)
    files = {payload.LIB + path: data for path, data in sources.items()}
    payload.compile_mpy(files, exe)
    modules = {}
    wanted = set()
    for path, data in sorted(sources.items()):
        mpy = files[payload.LIB + path[:-3] + ".mpy"]
        if mpy[:2] != bytes((ord("C"), MPY_VERSION[major])):
            raise SystemExit("build_mpy: %s wrote %r for %s, not mpy v%d" % (exe, mpy[:2], path, MPY_VERSION[major]))
        target = os.path.join(folder, *(path[:-3] + ".mpy").split("/"))
        wanted.add(target)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if payload.read(target) != mpy:
            with open(target, "wb") as f:
                f.write(mpy)
        modules[path] = {"source": payload.digest(data), "mpy": payload.digest(mpy)}
    for root, _dirs, names in os.walk(folder, topdown=False):  # a module no longer deployed goes
        for name in names:
            path = os.path.join(root, name)
            if name.endswith(".mpy") and path not in wanted:
                os.remove(path)
        if root != folder and not os.listdir(root):
            os.rmdir(root)
    manifest = {
        "circuitpython": "%d.x" % major,
        "compiler": "CircuitPython %s mpy-cross" % COMPILERS[major],
        "mpy_version": MPY_VERSION[major],
        "rebuild": deploy.REBUILD,
        "modules": modules,
    }
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    path = os.path.join(folder, "manifest.json")
    if payload.read(path) != text.encode():
        with open(path, "w") as f:
            f.write(text)
    print(
        "firmware/mpy/cp%d: %d modules, %.1f KB of .mpy (from %.1f KB of .py)"
        % (
            major,
            len(modules),
            sum(len(files[payload.LIB + p[:-3] + ".mpy"]) for p in modules) / 1024,
            sum(len(d) for d in sources.values()) / 1024,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
