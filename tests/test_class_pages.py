# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron class`` in headless Chromium, as a phone and the teacher use it:
joining by the page, playing, a refresh, a round pushed to the page without
a reload, the server killed and started again (the page comes back to its
game by itself), and axe-core on every page when it is installed
(``npm install --prefix ~/.cache/nimatron-axe axe-core@4.14.1``, or $AXE_JS).

Slow (a browser and the real command, 20-40 s): marked slow and browser."""

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

import axe_playwright_python
import pytest
from devtools import CHROMIUM, Chromium, free_port

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium"),
]

# axe-core's axe.min.js as the test extra installs it (the axe-playwright-python package, as
# tests/test_web_axe.py reads it), or $AXE_JS: never a check that passes for want of its engine
AXE = os.environ.get("AXE_JS") or os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")


class Served:
    def __init__(self, db, port):
        self.db, self.port = db, port

    def start(self):
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "nimatron_host.cli",
                "class",
                "--host",
                "localhost",
                "--port",
                str(self.port),
                "--db",
                self.db,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for line in self.proc.stdout:
            m = re.search(r"#key=(\S+)", line)
            if m:
                self.key = m.group(1)
            if "Ctrl-C" in line:
                break
        self.url = "http://localhost:%d" % self.port
        return self

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def act(self, what, body=None):
        request = urllib.request.Request(
            self.url + "/class/api/teacher/" + what,
            data=json.dumps(body or {}).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "X-Teacher-Key": self.key},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())


def violations(tab, skip=()):
    with open(AXE, encoding="utf-8") as f:
        tab.eval(f.read() + "; 1")
    found = tab.eval(
        "axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map("
        "(v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))"
    )
    return [v for v in found if v.split(":")[0] not in skip]


def test_a_phone_joins_plays_refreshes_gets_a_round_and_survives_a_restart(tmp_path):
    served = Served(str(tmp_path / "class.sqlite3"), free_port()).start()
    try:
        with Chromium() as browser:
            phone = browser.open(served.url + "/join?lang=es", 390, 844, True)
            phone.wait("document.body && document.body.dataset.ready")
            assert violations(phone) == []
            phone.eval("document.getElementById('name').value = 'Mía'")
            phone.click("#join button")
            phone.wait(
                "location.pathname === '/' && document.body && document.body.dataset.ready"
                " && !!document.getElementById('class-bar')"
            )
            assert "Mía" in phone.eval("document.getElementById('class-bar').textContent")
            phone.click("#press-new")
            phone.wait("document.body.dataset.state === 'visitor'")
            key = phone.eval("sessionStorage.getItem('nimatron-machine')")
            phone.click("#take-3")
            phone.wait("document.querySelectorAll('#lamps [data-kind=taken]').length >= 1")
            phone.call("Page.reload")
            phone.wait("document.body && document.body.dataset.ready && !!document.getElementById('class-bar')")
            assert phone.eval("sessionStorage.getItem('nimatron-machine')") == key
            phone.wait("document.querySelectorAll('#lamps [data-kind=taken]').length >= 1")  # the same game
            served.act("round", {"position": "3 4 5"})
            phone.wait(
                "!document.querySelector('.class-round').hidden && "
                "document.querySelector('.class-round').textContent.includes('3 4 5')"
            )  # pushed, no reload
            assert violations(phone) == []
            teacher = browser.open(served.url + "/teacher#key=" + served.key)
            teacher.wait("document.body.dataset.ready && document.querySelectorAll('.student').length === 1")
            assert violations(teacher) == []
            projector = browser.open(served.url + "/projector")
            projector.wait("document.body.dataset.ready")
            assert violations(projector) == []
            served.kill()
            served.start()
            phone.call("Page.bringToFront")
            phone.wait(
                "document.getElementById('lost').hidden && "
                "document.querySelector('.class-round').textContent.includes('3 4 5')",
                limit=30,
            )
            phone.click("#take-0")  # the page presses its machine again: the same one, brought back
            phone.wait("document.querySelectorAll('#lamps [data-kind=taken]').length >= 1")
            assert phone.eval("sessionStorage.getItem('nimatron-machine')") == key
            # the reveal on a 1080p projector: the tally, the moves tried and Nimrod's winning move
            # all above the fold (under one another the move and the tally ran below it)
            projector = browser.open(served.url + "/projector", 1920, 1080)
            projector.wait("document.body.dataset.ready && !document.getElementById('round').hidden")
            served.act("reveal", {})
            projector.wait(
                "!document.getElementById('reveal').hidden && "
                "document.getElementById('nimrod').textContent.includes('1 4 5')"
            )
            below = projector.eval(
                "['answered', 'found', 'moves', 'nimrod'].filter((id) => "
                "document.getElementById(id).getBoundingClientRect().bottom > innerHeight)"
            )
            assert below == [], below
            assert violations(projector) == []
    finally:
        served.proc.terminate()
        served.proc.wait(10)
