# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Save the README's pictures of the web page and the crowd view.

    .venv/bin/python tests/web_shots.py [FOLDER]     # default: docs/

A row board mid-game (the machine showing its move), on a desktop and a
phone; the ring with two lamps selected; the crowd view with Nimrod's
panel in slow mode, on a projector-sized screen and a phone. Each scene is
played through the page or the API on a real server, in headless Chromium.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from devtools import Chromium, Served

SHOWING = "document.body.dataset.state === 'showing' && document.querySelector('.lamp-cell[data-kind=taking]') !== null"


def play_mid_game(browser, served, path, **size):
    tab = browser.open(served.url + "/", **size)
    tab.wait("document.body.dataset.ready")
    tab.key("n")
    tab.wait("document.body.dataset.state === 'visitor'")
    tab.key("4")
    tab.key("4")
    tab.key("Enter")
    tab.wait(SHOWING)
    tab.eval("window.scrollTo(0, 0)")
    tab.screenshot(path)
    return tab.eval("document.getElementById('crowd-link').href.split('watch=')[1].split('&')[0]")  # its watch handle


def shoot_new_game(browser, folder, preset, slow):
    """The crowd view of one of the newest games after a move each: its
    reasoning (the building plan, the groups' nim-values, the candies)."""
    import json
    import urllib.request

    def api(url, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())

    with Served("pico-grid", dict(slow, preset=preset, first="visitor", show_ms=200)) as served:
        machine = api(served.url + "/api/machines", {})["machine"]
        press = served.url + "/api/machines/%s/press" % machine
        state = api(press, {"press": "new"})
        lit = [(r, i) for r, row in enumerate(state["lamps"]) for i, lamp in enumerate(row) if lamp[0] == "lit"]
        for what in ["key 0 0"] if preset == "building" else ["key %d %d" % lit[-1], "done"]:
            api(press, {"press": what})
        tab = browser.open(served.url + "/crowd?watch=" + state["watch"], width=1600, height=1000)
        tab.wait(
            "document.body.dataset.ready && document.body.dataset.state === 'visitor'"
            " && document.getElementById('last').innerText.includes('Machine')"
        )
        tab.screenshot(os.path.join(folder, "web-%s.png" % preset), full=False)


def main(folder):
    os.makedirs(folder, exist_ok=True)
    slow = {"think_ms": 300, "show_ms": 60000}
    with Chromium() as browser:
        with Served("pico-neopixel", dict(slow, preset="nimrod")) as served:
            machine = play_mid_game(browser, served, os.path.join(folder, "web-play.png"))
            crowd = browser.open(served.url + "/crowd?slow=1&watch=" + machine, width=1920, height=1080)
            crowd.wait(
                "document.body.dataset.ready && document.querySelector('#nimrod p:last-child:not([hidden])') !== null"
            )
            crowd.screenshot(os.path.join(folder, "web-crowd.png"), full=False)
            phone = browser.open(served.url + "/crowd?watch=" + machine, width=390, height=844, mobile=True)
            phone.wait("document.body.dataset.ready && document.querySelector('#nimrod table') !== null")
            phone.screenshot(os.path.join(folder, "web-crowd-phone.png"))
        with Served("pi-leds", dict(slow, preset="marienbad")) as served:
            play_mid_game(
                browser, served, os.path.join(folder, "web-play-phone.png"), width=390, height=844, mobile=True
            )
        with Served("pico-ring", slow) as served:
            tab = browser.open(served.url + "/")
            tab.wait("document.body.dataset.ready")
            tab.key("n")
            tab.wait("document.body.dataset.state === 'visitor'")
            for i in (3, 4):
                tab.click(".lamp-cell[data-i='%d']" % i)
            tab.wait("document.querySelectorAll('.lamp-cell[data-kind=selected]').length === 2")
            tab.screenshot(os.path.join(folder, "web-ring.png"))
        for preset in ("building", "graph", "candy", "nim2d"):
            shoot_new_game(browser, folder, preset, slow)
    for name in sorted(os.listdir(folder)):
        if name.startswith("web-"):
            print(os.path.join(folder, name))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs")
