#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Screenshots of ``nimatron class``'s pages in headless Chromium: the
projector, the teacher's view and a student's phone, at phone, laptop and
1080p sizes, with a dozen scripted students playing and a round answered.

    .venv/bin/python tools/class_shots.py /tmp/class-shots [--lang es]

Writes PNGs to the folder (docs/images/class-*.png were made so).
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


class Student:
    def __init__(self, url, name):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.name = name
        self.state = self.post("/class/api/join", {"name": name, "lang": "en"})
        self.state = self.post("/api/machines", {})
        self.key = self.state["machine"]

    def post(self, path, body):
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with self.opener.open(request, timeout=30) as r:
            return json.loads(r.read())

    def press(self, what):
        self.state = self.post("/api/machines/%s/press" % self.key, {"press": what})
        return self.state


def teacher(url, key, what, body=None):
    request = urllib.request.Request(url + "/class/api/teacher/" + what, data=json.dumps(body or {}).encode(),
                                     method="POST", headers={"Content-Type": "application/json", "X-Teacher-Key": key})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--lang", default="en")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="nimatron-class-"), "class.sqlite3")
    server = subprocess.Popen([sys.executable, "-m", "nimatron_host.cli", "class", "--host", "localhost", "--port",
                               str(port), "--db", db, "--lang", args.lang], stdout=subprocess.PIPE, text=True)
    try:
        key = None
        for line in server.stdout:
            m = re.search(r"#key=(\S+)", line)
            if m:
                key = m.group(1)
            if "Ctrl-C" in line:
                break
        url = "http://localhost:%d" % port
        time.sleep(0.5)
        students = [Student(url, name) for name in NAMES]
        for k, s in enumerate(students):   # a few moves each; some games lost in a row
            s.press("new")
            for _ in range(k % 4):
                s.press("row%d" % (k % 4))
                s.press("done")
                time.sleep(0.05)
        with Chromium() as browser:
            tab = browser.open(url + "/join?lang=" + args.lang, 390, 844, True)
            tab.wait("document.body.dataset.ready")
            tab.eval("document.getElementById('name').value = 'Mía'")
            tab.click("#join button")
            tab.wait("location.pathname === '/' && document.body.dataset.ready")
            tab.click("#press-new")
            time.sleep(1)
            for name, (w, h, mobile) in SIZES.items():
                tab.size(w, h, mobile)
                time.sleep(0.4)
                tab.screenshot(os.path.join(args.out, "class-student-%s.png" % name), full=False)
            t = browser.open(url + "/teacher?lang=%s#key=%s" % (args.lang, key))
            t.wait("document.body.dataset.ready")
            proj = browser.open(url + "/projector?lang=" + args.lang)
            proj.wait("document.body.dataset.ready")
            for name, (w, h, mobile) in SIZES.items():
                for page, label in ((t, "teacher"), (proj, "projector")):
                    page.size(w, h, mobile)
                    time.sleep(0.4)
                    page.screenshot(os.path.join(args.out, "class-%s-%s.png" % (label, name)), full=False)
            teacher(url, key, "round", {"position": "3 4 5", "preset": "nimrod"})
            for k, s in enumerate(students[:9]):
                s.state = s.post("/api/machines/%s" % s.key, {}) if False else s.state
                row = [0, 0, 1, 2, 0, 1, 0, 2, 0][k]
                for _ in range([2, 2, 1, 1, 1, 3, 2, 2, 3][k]):
                    s.press("row%d" % row)
                s.press("done")
            time.sleep(0.6)
            tab.size(390, 844, True)
            time.sleep(0.4)
            tab.screenshot(os.path.join(args.out, "class-student-round-phone.png"), full=False)
            proj.size(1920, 1080)
            time.sleep(0.5)
            proj.screenshot(os.path.join(args.out, "class-projector-round-1080p.png"), full=False)
            teacher(url, key, "reveal")
            time.sleep(0.6)
            proj.screenshot(os.path.join(args.out, "class-projector-reveal-1080p.png"), full=False)
            tab.screenshot(os.path.join(args.out, "class-student-reveal-phone.png"), full=False)
            errors = [pg.eval("window.__errors || []") for pg in (tab, t, proj)]
            print("page errors:", errors)
    finally:
        server.terminate()
        server.wait(10)
    print("screenshots in", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
