# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The web page in a real browser: headless Chromium plays whole games by
mouse and keyboard on a row board, by keyboard only on a grid, by touch on
the ring; reads the lamps from the page's DOM; checks what a screen reader
and a keyboard user rely on; and watches the crowd view follow a game.

The machines run on the wall clock with the machine's pauses shortened
(``think_ms``/``show_ms``), and every wait is for a condition, never a
fixed sleep.
"""

import json
import os
import time
import urllib.error

import pytest
from devtools import CHROMIUM, Chromium, Served, call
from kit_page import LIT, QUICK, STATE, api, machine_state, wait_for_turn
from nimatron_sim.web.machines import PER_OWNER

STATIC = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "simulator", "nimatron_sim", "web", "static"
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)"
)


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def row_lit(tab):
    return tab.eval(
        "[...document.querySelectorAll('.lamp-row')].map(r => r.querySelectorAll('.lamp-cell[data-kind=lit]').length)"
    )


def test_a_whole_game_on_a_row_board_by_mouse_and_keyboard(browser):
    with Served("pico-neopixel", dict(QUICK, preset="nimatron")) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        assert tab.eval("document.querySelectorAll('.lamp-cell').length") == 28
        tab.key("n")
        # 3 4 5 7 lamps lit, read from the page, once the game is on (the
        # attract wave before it can light 19 lamps too)
        tab.wait("%s === 'visitor' && %s === 19" % (STATE, LIT))
        assert row_lit(tab) == [3, 4, 5, 7]
        turn = 0
        while wait_for_turn(tab) == "visitor":
            lit = row_lit(tab)
            r = max(range(4), key=lambda k: lit[k])  # take one lamp from the fullest row
            before = machine_state(tab, served)["t"]
            if turn % 2:
                tab.click("#take-%d" % r)  # the mouse
            else:
                tab.key(str(r + 1))  # the keyboard
            try:
                tab.wait("document.getElementById('say').textContent.includes('put out 1 from row %s')" % "ABCD"[r])
            except AssertionError:
                raise AssertionError(
                    "turn %d, row %s of %r: the page says %r in state %r; lamps %r; log %r"
                    % (
                        turn,
                        "ABCD"[r],
                        lit,
                        tab.eval("document.getElementById('say').textContent"),
                        tab.eval(STATE),
                        row_lit(tab),
                        tab.eval("document.getElementById('log').innerText"),
                    )
                ) from None
            tab.key("Enter")  # DONE
            tab.wait(
                "!['visitor'].includes(%s) || document.querySelectorAll('#log li').length > %d" % (STATE, 2 * turn + 2)
            )
            state = machine_state(tab, served)
            assert state["t"] > before
            moves = [e for e in state["events"] if e["kind"] == "move" and e["by"] == "visitor"]
            assert len(moves) == turn + 1 and moves[-1]["words"] == "take 1 from heap %s" % "ABCD"[r]
            turn += 1
            assert turn < 20
        state = machine_state(tab, served)
        assert state["state"] == "over" and state["winner"] in ("visitor", "machine")
        assert row_lit(tab) == [0, 0, 0, 0] or state["winner"]
        winner = "MACHINE WINS" if state["winner"] == "machine" else "NIM CHAMP"
        assert tab.wait(
            "[...document.querySelectorAll('.status-lamp.on')].map(e => e.textContent).join('|')"
            ".includes(%s)" % json.dumps(winner)
        )
        log = tab.eval("document.getElementById('log').innerText")
        assert "You: take 1 from row" in log and "Machine: take" in log
        assert ("The machine wins." in log) == (state["winner"] == "machine")
        assert state["audits"]["games"] == 1


def test_a_grid_board_by_keyboard_only(browser):
    with Served("pico-grid", dict(QUICK, preset="allheaps")) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        tab.key("n")
        tab.wait("%s > 0 && %s === 'visitor'" % (LIT, STATE))
        lit_before = tab.eval(LIT)
        for _ in range(200):  # Tab to the first lit lamp
            if tab.eval("document.activeElement.dataset.kind === 'lit'"):
                break
            tab.key("Tab")
        assert tab.eval("document.activeElement.classList.contains('lamp-cell')")
        tab.key(" ")  # Space selects it
        tab.wait("document.activeElement.dataset.kind === 'selected'")
        assert "1" in tab.eval("document.getElementById('say').textContent")
        tab.key("Enter")  # Enter is DONE, even with a lamp focused
        tab.wait("document.getElementById('log').innerText.includes('You: ')")
        state = machine_state(tab, served)
        assert sum(state["counts"]) <= lit_before - 1


def test_the_ring_by_touch_on_a_phone(browser):
    with Served("pico-ring", QUICK) as served:
        tab = browser.open(served.url + "/", width=390, height=844, mobile=True)
        tab.wait("document.body.dataset.ready")
        tab.tap("#press-new")
        tab.wait("%s === 16 && %s === 'visitor'" % (LIT, STATE))
        assert tab.eval("document.querySelector('.ring') !== null")
        tab.tap(".lamp-cell[data-r='0'][data-i='0']")
        tab.wait("document.querySelector(\".lamp-cell[data-i='0']\").dataset.kind === 'selected'")
        tab.tap("#press-done")
        tab.wait("document.getElementById('log').innerText.includes('You: take 1 from the circle of 16')")
        # the page fits the phone: nothing wider than the screen
        assert tab.eval("document.documentElement.scrollWidth") <= 390


CONTRAST = """(() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const v = rgb(c).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                       return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const back = (e) => { for (; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor;
                          if (!b.startsWith('rgba(0, 0, 0, 0)') && b !== 'transparent') return b; } return 'rgb(255,255,255)'; };
  return [...document.querySelectorAll('%s')].map((e) => { const a = lum(getComputedStyle(e).color), b = lum(back(e));
    return [e.className || e.tagName, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; });
})()"""


def test_the_page_for_screen_readers_and_keyboards(browser):
    with Served("pi-leds", QUICK) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        tab.key("n")
        tab.wait("%s === 'visitor'" % STATE)
        assert tab.eval("document.documentElement.lang") == "en"
        # every control has a name; every lamp says what it is, in words
        nameless = tab.eval(
            "[...document.querySelectorAll('button, select, a')].filter(e => "
            "!(e.getAttribute('aria-label') || e.textContent.trim() || (e.labels && e.labels.length)))"
            ".map(e => e.outerHTML)"
        )
        assert nameless == []
        labels = tab.eval(
            "[...document.querySelectorAll('.lamp-cell')].map(e => e.getAttribute('role') + ': ' "
            "+ e.getAttribute('aria-label'))"
        )
        assert len(labels) == 16 and all(label.startswith("img: Row ") for label in labels)
        assert "Row A, lamp 1: lit" in labels[0]
        # the TAKE button's name begins with what it shows (axe-core's label-content-name-mismatch)
        assert tab.eval("document.getElementById('take-3').textContent") == "4 TAKE one lamp from row D"
        # never colour alone: lit and dark status lamps differ in shape, lamps in shape
        marks = tab.eval("[...document.querySelectorAll('.status-lamp')].map(e => e.className + e.textContent)")
        assert any("on■ YOUR TURN" in m for m in marks) and any("□ MACHINE WINS" in m for m in marks)
        # contrast: words at least 4.5:1 against what is behind them
        for name, ratio in tab.eval(CONTRAST % ".say, .rules-line, .status-lamp, .take, .control, .row-count, h1"):
            assert ratio >= 4.5, (name, ratio)
        # keyboard: a TAKE reached by Tab answers Enter, with a visible focus ring
        for _ in range(40):
            if tab.eval("document.activeElement.id") == "take-3":
                break
            tab.key("Tab")
        assert tab.eval("getComputedStyle(document.activeElement).outlineStyle") != "none"
        tab.key("Enter")
        tab.wait("document.getElementById('say').textContent.includes('put out 1 from row D')")
        # the live region tells a screen reader each move, once
        assert tab.eval("document.getElementById('live').getAttribute('aria-live')") == "polite"
        tab.eval("document.activeElement.blur()")
        tab.key("Enter")
        tab.wait("document.getElementById('live').textContent.includes('You: take 1 from row D.')")
        # nothing of the page's own moves or flashes: no animations at all
        assert tab.eval("document.getAnimations().length") == 0
        # another language, chosen on the page
        tab.eval(
            "(() => { const s = document.getElementById('lang'); s.value = 'es';"
            " s.dispatchEvent(new Event('change')); })()"
        )
        tab.wait("document.getElementById('press-done').textContent === 'HECHO'")
        assert tab.eval("document.documentElement.lang") == "es"
        tab.wait("document.getElementById('log').innerText.includes('Tú: quitar 1 de la fila D.')")


def test_the_crowd_view_follows_the_game_without_a_touch(browser):
    with Served("pico-neopixel", dict(QUICK, preset="nimrod")) as served:
        tab = browser.open(served.url + "/crowd?slow=1")
        tab.wait("document.body.dataset.ready && %s === 'attract'" % STATE)
        assert tab.eval("document.getElementById('attract').hidden") is False
        assert tab.eval("document.querySelectorAll('button[data-press]').length") == 0  # read-only
        machine = api(served.url + "/api/machines", {})["machine"]
        press = served.url + "/api/machines/%s/press" % machine
        for what in ("new", "row3", "done"):
            api(press, {"press": what})
        tab.wait("document.getElementById('last').innerText.includes('You: take 1 from row D.')")
        tab.wait("document.getElementById('last').innerText.includes('Machine: ')")
        assert tab.eval("document.querySelectorAll('.lamp-cell').length") == 28
        # Nimrod's panel in slow mode: it is built up, a line at a time
        rows = "document.querySelectorAll('table.nimrod tr.heap-row').length"
        shown = (
            "[...document.querySelectorAll('#nimrod tr.heap-row, #nimrod tr.counts, #nimrod tr.sum-row, #nimrod p')]"
        )
        tab.wait("%s === 4" % rows)
        first = tab.eval(shown + ".filter(e => !e.hidden).length")
        total = tab.eval(shown + ".length")
        assert first < total
        tab.wait(shown + ".filter(e => !e.hidden).length > %d" % first)
        bits = tab.eval(
            "[...document.querySelectorAll('tr.heap-row')].map(r => [...r.querySelectorAll('.digit')]"
            ".map(d => d.textContent).join(''))"
        )
        state = api(served.url + "/api/machines/" + machine)
        assert bits == ["".join(str(b) for b in r["bits"]) for r in state["nimrod"]["rows"]]


def test_applying_settings_in_the_page_frees_the_old_machine(browser):
    """Settings → Apply makes the tab a new machine and closes its old one at
    once (48 Applies from one tab used to hold 48 slots for ten minutes)."""
    with Served("pico-neopixel", dict(QUICK, preset="nimatron")) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        first = tab.eval("sessionStorage.getItem('nimatron-machine')")
        replaced = []
        for _ in range(3):
            tab.eval(
                "document.querySelector('details.settings').open = true; "
                "document.getElementById('settings').requestSubmit(); 1"
            )
            tab.wait("sessionStorage.getItem('nimatron-machine') !== %s" % json.dumps(first))
            replaced.append(first)
            first = tab.eval("sessionStorage.getItem('nimatron-machine')")
        assert tab.eval("document.getElementById('settings-error').textContent") == ""
        assert machine_state(tab, served)["machine"] == first
        # a preset the board cannot hold: refused in the visitor's words, the machine kept
        tab.eval(
            "document.querySelector('#settings select[name=preset]').value = '100'; "
            "document.getElementById('settings').requestSubmit(); 1"
        )
        said = tab.wait("document.getElementById('settings-error').textContent")
        assert "28" in said and "100" in said and "layout" not in said and "pixel" not in said, said
        assert tab.eval("sessionStorage.getItem('nimatron-machine')") == first
        for old in replaced:  # each closed at once (another test's tab may poll this port: count ids, not machines)
            with pytest.raises(urllib.error.HTTPError) as gone:
                api(served.url + "/api/machines/" + old)
            assert gone.value.code == 404


def test_a_tab_past_its_computers_share_says_who_refused_and_why_and_stops_asking(browser):
    """A client that misbehaves, seen from a fifth tab: the refusal (429) is shown as the server's, in the
    page's words (not "no answer"), and the tab stops asking: no poll of a machine it does not have, no new
    machine until the visitor presses Try again, which succeeds once there is room."""
    with Served("pico-neopixel", dict(QUICK, preset="nimatron")) as served:
        for _ in range(PER_OWNER):
            assert call(served.url + "/api/machines", {})[0] == 201
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        note = tab.wait("!document.getElementById('lost').hidden && document.getElementById('lost').textContent")
        words = json.load(open(STATIC + "/lang/en.json", encoding="utf-8"))["text"]
        assert note.startswith(words["refused.429"]) and "No answer" not in note
        since = tab.eval("performance.now()")
        tab.wait("performance.now() > %f" % (since + 20 * 120))  # twenty polls' time
        asked = tab.eval(
            "performance.getEntriesByType('resource').filter(e => e.startTime > %f && "
            "new URL(e.name).pathname.startsWith('/api/machines')).map(e => e.name)" % since
        )
        assert asked == [] and len(served.machines) == PER_OWNER
        served.machines.per_owner = PER_OWNER + 1
        tab.click("#retry")
        tab.wait("document.getElementById('lost').hidden && sessionStorage.getItem('nimatron-machine')", limit=60)
        assert len(served.machines) == PER_OWNER + 1 and machine_state(tab, served)["machine"]


def test_a_closed_tab_gives_its_place_back_at_once(browser):
    """The page says goodbye on pagehide (fetch keepalive): the server gives the tab's place to the next
    machine its computer asks for, at once, not 2 minutes later."""
    with Served("pico-neopixel", dict(QUICK, preset="nimatron")) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready && sessionStorage.getItem('nimatron-machine')")
        mine = tab.eval("sessionStorage.getItem('nimatron-machine')")
        for _ in range(PER_OWNER - 1):
            assert call(served.url + "/api/machines", {})[0] == 201
        assert call(served.url + "/api/machines", {})[0] == 429
        tab.call("Page.navigate", url="about:blank")  # the tab closes: pagehide
        end = time.monotonic() + 30
        while not served.machines.get(mine).left and time.monotonic() < end:
            time.sleep(0.02)
        assert call(served.url + "/api/machines", {})[0] == 201
        assert call(served.url + "/api/machines/" + mine)[0] == 404
