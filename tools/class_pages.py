#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron class``'s pages in headless Chromium, with a dozen scripted
students playing and a round answered and revealed: axe-core on the join,
student, teacher and projector pages at phone, laptop and 1080p sizes in
each language, and screenshots of them.

    .venv/bin/python tools/class_pages.py --shots /tmp/class-shots       # axe in en, es, ru; PNGs
    .venv/bin/python tools/class_pages.py --lang es

axe-core is read from $AXE_JS, the test extra's axe-playwright-python, or ~/.cache/nimatron-axe (made by
``npm install --prefix ~/.cache/nimatron-axe axe-core@4.14.1``); without it
only the screenshots and the pages' own errors are checked. Exit status 1 if
axe finds a violation or a page throws.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from http.cookiejar import CookieJar

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from devtools import Chromium, free_port  # noqa: E402

SIZES = {"phone": (390, 844, True), "laptop": (1366, 768, False), "1080p": (1920, 1080, False)}
NAMES = ["Ana", "Bruno", "Chen", "Dasha", "Emeka", "Fatima", "Gus", "Hana", "Ivan", "Jo", "Kofi", "Lena"]


def _axe_path():
    try:
        import axe_playwright_python  # the test extra's copy of axe-core (tests/test_web_axe.py reads it too)
    except ImportError:
        return os.path.expanduser("~/.cache/nimatron-axe/node_modules/axe-core/axe.min.js")
    return os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")


AXE = os.environ.get("AXE_JS") or _axe_path()
CATCH = (
    "window.__errors = window.__errors || []; window.addEventListener('error', (e) => "
    "window.__errors.push(String(e.message))); 1"
)


class Student:
    """A scripted phone: its own cookies, the page's requests."""

    def __init__(self, url, name):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.post("/class/api/join", {"name": name, "lang": "en"})
        self.key = self.post("/api/machines", {})["machine"]

    def post(self, path, body):
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
        )
        with self.opener.open(request, timeout=30) as r:
            return json.loads(r.read())

    def press(self, what):
        return self.post("/api/machines/%s/press" % self.key, {"press": what})


def teacher(url, key, what, body=None):
    request = urllib.request.Request(
        url + "/class/api/teacher/" + what,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Teacher-Key": key},
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def axe(tab, source):
    """axe-core's violations on the page as it is now: ["rule: target", ...]."""
    if source is None:
        return []
    if not tab.eval("typeof axe !== 'undefined'"):
        tab.eval(source + "; 1")
    found = tab.eval(
        "axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map("
        "(v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')))"
    )
    return found or []


def serve(lang):
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="nimatron-class-"), "class.sqlite3")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nimatron_host.cli",
            "class",
            "--host",
            "localhost",
            "--port",
            str(port),
            "--db",
            db,
            "--lang",
            lang,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    key = None
    for line in server.stdout:
        m = re.search(r"#key=(\S+)", line)
        if m:
            key = m.group(1)
        if "Ctrl-C" in line:
            break
    return server, "http://localhost:%d" % port, key, db


def sweep(browser, lang, shots, source):
    """Every page at every size in ``lang``: axe's violations and the pages' errors, as lines."""
    server, url, key, db = serve(lang)
    problems = []
    try:
        students = [Student(url, name) for name in NAMES]
        for k, s in enumerate(students):  # a few moves each
            s.press("new")
            for _ in range(k % 3):
                s.press("row%d" % (k % 4))
            if k % 3:
                s.press("done")
        join = browser.open(url + "/join?lang=" + lang, 390, 844, True)
        join.eval(CATCH)
        join.wait("document.body.dataset.ready")
        pages = {"join": join}
        for size, (w, h, mobile) in SIZES.items():
            join.size(w, h, mobile)
            problems += ["%s join %s: %s" % (lang, size, v) for v in axe(join, source)]
        join.eval("document.getElementById('name').value = 'Mía'")
        join.click("#join button")
        join.wait(
            "location.pathname === '/' && document.body && document.body.dataset.ready && !!document.getElementById('class-bar')"
        )
        join.eval(CATCH)
        join.click("#press-new")
        pages = {"student": join}
        pages["teacher"] = browser.open(url + "/teacher?lang=%s#key=%s" % (lang, key))
        pages["projector"] = browser.open(url + "/projector?lang=" + lang)
        for tab in pages.values():
            tab.eval(CATCH)
            tab.wait("document.body.dataset.ready")

        def look(stage):
            time.sleep(0.6)
            for name, tab in pages.items():
                tab.call("Page.bringToFront")  # a tab behind another draws no frame to capture
                for size, (w, h, mobile) in SIZES.items():
                    tab.size(w, h, mobile)
                    time.sleep(0.3)
                    problems.extend("%s %s %s %s: %s" % (lang, name, stage, size, v) for v in axe(tab, source))
                    if shots:
                        tab.screenshot(
                            os.path.join(shots, "class-%s-%s-%s-%s.png" % (name, stage, size, lang)), full=False
                        )

        look("games")
        teacher(url, key, "round", {"position": "3 4 5", "preset": "nimrod"})
        time.sleep(0.5)
        for k, s in enumerate(students[:9]):
            row, n = [(0, 2), (0, 2), (1, 1), (2, 1), (0, 1), (1, 3), (0, 2), (2, 2), (0, 3)][k]
            for _ in range(n):
                s.press("row%d" % row)
            s.press("done")
        look("round")
        teacher(url, key, "reveal")
        look("reveal")
        for name, tab in pages.items():
            problems.extend("%s %s: page error %s" % (lang, name, e) for e in tab.eval("window.__errors || []"))
    finally:
        server.terminate()
        server.wait(10)
        import shutil

        shutil.rmtree(os.path.dirname(db), ignore_errors=True)
    return problems


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shots", metavar="DIR", help="save screenshots here")
    p.add_argument("--lang", action="append", help="en, es or ru (default: all three)")
    args = p.parse_args(argv)
    if args.shots:
        os.makedirs(args.shots, exist_ok=True)
    source = None
    if os.path.exists(AXE):
        with open(AXE, encoding="utf-8") as f:
            source = f.read()
    else:
        print("axe-core not found (%s): screenshots and page errors only" % AXE)
    problems = []
    with Chromium() as browser:
        for lang in args.lang or ["en", "es", "ru"]:
            problems += sweep(browser, lang, args.shots, source)
    for line in problems:
        print(line)
    print("%d problems%s" % (len(problems), " (axe-core %s)" % AXE if source else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
