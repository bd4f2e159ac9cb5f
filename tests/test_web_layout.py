# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The page and the crowd view fit the screens people use.

Headless Chromium at 1280x720, 1366x768 and 1920x1080 (laptops, a projector)
and 390x844 (a phone): the whole machine (every lamp, every row's TAKE,
DONE and NEW GAME) is on screen without scrolling and nothing is wider than
the screen, Settings open or closed; the crowd view fills a 1920x1080 kiosk
without scrolling, "Last moves" included, in every language. Measured from
the elements' bounding boxes; the screenshots are in docs/.
"""

import json
import time

import pytest
from devtools import CHROMIUM, Chromium, Served, call

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)"
)

SIZES = [(1280, 720), (1366, 768), (1920, 1080), (390, 844)]
BOARDS = [
    ("pico-neopixel", "nimrod"),
    ("pico-grid", "nim2d"),
    ("pico-ring", "circular"),
    ("macropad", "pad-nim"),
    ("circuitplayground", "21counter"),
]

BOXES = """(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (s) => [...document.querySelectorAll(s)].map(box);
  return {vw: innerWidth, vh: innerHeight, sw: document.documentElement.scrollWidth,
          sh: document.documentElement.scrollHeight,
          machine: all('.lamp-cell').concat(all('.take'), all('#controls button')),
          last: all('#last, #last li')};
})()"""


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def outside(g, boxes):
    """The boxes that are not wholly on the screen."""
    return [b for b in boxes if b[0] < -0.5 or b[1] < -0.5 or b[2] > g["vw"] + 0.5 or b[3] > g["vh"] + 0.5]


@pytest.mark.parametrize("board, preset", BOARDS)
def test_the_whole_machine_is_on_screen_at_every_size(browser, board, preset):
    with Served(board, {"preset": preset, "think_ms": 0, "show_ms": 100}) as served:
        for width, height in SIZES:
            lang = "es" if width == 1366 else "en"  # Spanish words are the longest
            tab = browser.open(served.url + "/?lang=" + lang, width=width, height=height, mobile=width < 600)
            tab.wait("document.body.dataset.ready")
            for settings in (False, True):
                tab.eval("document.querySelector('details.settings').open = %s; 1" % json.dumps(settings))
                g = tab.eval(BOXES)
                where = "%s %dx%d, settings %s" % (board, width, height, "open" if settings else "closed")
                assert g["sw"] <= g["vw"], "%s: the page is %d px wide" % (where, g["sw"])
                assert len(g["machine"]) > 6, where
                assert not outside(g, g["machine"]), "%s: off screen: %s" % (where, outside(g, g["machine"])[:3])


def play_a_few_moves(served, moves=5):
    _, state = call(served.url + "/api/machines", {})
    press = served.url + "/api/machines/%s/press" % state["machine"]
    _, state = call(press, {"press": "new"})
    for _ in range(moves):
        if state["state"] != "visitor":
            break
        lit = [(r, i) for r, row in enumerate(state["lamps"]) for i, lamp in enumerate(row) if lamp[0] == "lit"]
        call(press, {"press": ("row%d" % lit[-1][0]) if "row0" in state["buttons"] else "key %d %d" % lit[-1]})
        _, state = call(press, {"press": "done"})
        end = time.monotonic() + 30
        while state["state"] not in ("visitor", "over") and time.monotonic() < end:
            time.sleep(0.05)
            _, state = call(served.url + "/api/machines/" + state["machine"])
    return state


@pytest.mark.parametrize(
    "board, preset", [("pico-neopixel", "nimrod"), ("pico-grid", "candy"), ("pico-ring", "circular")]
)
def test_the_crowd_view_fills_a_kiosk_screen_in_every_language(browser, board, preset):
    with Served(board, {"preset": preset, "think_ms": 0, "show_ms": 50, "first": "visitor"}) as served:
        state = play_a_few_moves(served)
        for lang in ("en", "es", "ru"):
            tab = browser.open(served.url + "/crowd?lang=%s&watch=%s" % (lang, state["watch"]), width=1920, height=1080)
            tab.wait("!!(document.body.dataset.ready && document.querySelector('#last li'))")
            g = tab.eval(BOXES)
            where = "%s %s" % (preset, lang)
            assert g["sh"] <= g["vh"] and g["sw"] <= g["vw"], "%s: the page is %dx%d" % (where, g["sw"], g["sh"])
            assert not outside(g, g["machine"] + g["last"]), "%s: off screen" % where
            numbers = tab.eval("[...document.querySelectorAll('#last li')].map(li => li.value)")
            assert numbers == sorted(numbers) and numbers[-1] >= len(numbers), numbers  # the moves' own numbers
