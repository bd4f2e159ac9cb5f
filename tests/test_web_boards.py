# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Whole games in a real browser on the grid (``pico-grid``) and the ring
(``pico-ring``), by mouse and by keyboard, the lamps read from the page's
DOM and checked against the machine's own state after every move; and the
crowd view in a browser, served by ``nimatron display PORT --web`` and
following ``nimatron sim --serial`` on a pseudo-terminal."""

import time

import pytest
from devtools import CHROMIUM, Chromium, Served, call
from kit_page import LIT, QUICK, STATE, machine_state, wait_for_turn
from nimatron_sim.words import Words

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)"
)

DOM_LAMPS = "[...document.querySelectorAll('.lamp-cell')].map(e => [+e.dataset.r, +e.dataset.i, e.dataset.kind])"


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def visitor_moves(state):
    return [e for e in state["events"] if e["kind"] == "move" and e["by"] == "visitor"]


def lit_in(state):
    return sorted((r, i) for r, row in enumerate(state["lamps"]) for i, lamp in enumerate(row) if lamp[0] == "lit")


def until(tab, served, ready, limit=120):
    """The machine's state once ``ready(state)`` (polled; an assertion after
    ``limit`` seconds: a loaded machine is slow, never wrong)."""
    end = time.monotonic() + limit
    while True:
        state = machine_state(tab, served)
        if ready(state):
            return state
        if time.monotonic() > end:
            raise AssertionError("the machine never got there: %r" % (state,))
        time.sleep(0.05)


def lit_on_page(tab):
    lamps = tab.eval(DOM_LAMPS)
    assert lamps, lamps
    return [(r, i) for r, i, kind in lamps if kind == "lit"]


def keyboard_to(tab, target, shape, layout):
    """Move the focus to a lamp with the arrow keys (Tab first reaches the lamps)."""
    for _ in range(200):
        if tab.eval("document.activeElement.classList.contains('lamp-cell')"):
            break
        tab.key("Tab")
    for _ in range(200):
        r, i = tab.eval("[+document.activeElement.dataset.r, +document.activeElement.dataset.i]")
        if (r, i) == target:
            return
        if shape == "ring":
            tab.key("ArrowRight")
        elif r != target[0]:
            tab.key("ArrowDown")
        else:
            tab.key("ArrowRight" if i < target[1] else "ArrowLeft")
    raise AssertionError("the arrows never reached %s" % (target,))


@pytest.mark.parametrize("board, lamps", [("pico-grid", 64), ("pico-ring", 16)])
def test_a_whole_game_by_mouse_and_keyboard(browser, board, lamps):
    with Served(board, QUICK) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        assert tab.eval("document.querySelectorAll('.lamp-cell').length") == lamps
        # everything said to a screen reader, kept: on a loaded machine one poll can bring the
        # visitor's move and the machine's answer at once, and the live region shows the last
        tab.eval(
            "window.said = []; new MutationObserver(() => window.said.push("
            "document.getElementById('live').textContent)).observe(document.getElementById('live'),"
            " {childList: true, characterData: true, subtree: true}); true"
        )
        tab.key("n")
        turn = 0
        while wait_for_turn(tab) == "visitor":
            # the page's lamps are the machine's (the page polls: it catches up within a few polls)
            for _ in range(200):
                state = machine_state(tab, served)
                page = lit_on_page(tab)
                if state["state"] != "visitor" or sorted(page) == lit_in(state):
                    break
                time.sleep(0.05)
            if state["state"] != "visitor":  # the page saw the turn before the machine's last move ended it
                continue
            assert sorted(page) == lit_in(state) and len(page) == sum(state["counts"])
            target = page[-1]  # one lamp: legal in every game here
            if turn % 2:
                tab.click(".lamp-cell[data-r='%d'][data-i='%d']" % target)  # the mouse
                tab.wait(
                    "document.querySelector(\".lamp-cell[data-r='%d'][data-i='%d']\").dataset.kind"
                    " === 'selected'" % target
                )
                tab.click("#press-done")
            else:
                keyboard_to(tab, target, state["shape"], state["layout"])  # the keyboard
                tab.key(" ")
                tab.wait("document.activeElement.dataset.kind === 'selected'")
                tab.key("Enter")
            turn += 1
            tab.wait("window.said.some(t => t.includes('You: '))")  # said to a screen reader
            tab.eval("window.said = []; true")
            for _ in range(600):
                if len(visitor_moves(machine_state(tab, served))) == turn:
                    break
                time.sleep(0.05)
            assert len(visitor_moves(machine_state(tab, served))) == turn
            assert turn < 70
        state = machine_state(tab, served)
        assert state["state"] == "over" and state["winner"] in ("visitor", "machine")
        assert len(visitor_moves(state)) == turn and not [e for e in state["events"] if e["kind"] == "refused"]
        assert state["audits"]["games"] == 1 and lit_on_page(tab) == [] or state["winner"]
        winner = "MACHINE WINS" if state["winner"] == "machine" else "NIM CHAMP"
        tab.wait(
            "[...document.querySelectorAll('.status-lamp.on')].map(e => e.textContent).join('|').includes('%s')"
            % winner
        )


def test_the_crowd_view_in_a_browser_follows_a_machine_on_a_serial_line(browser, display):
    url, _ = display
    tab = browser.open(url + "/crowd")
    tab.wait("document.body.dataset.ready")
    tab.wait("document.getElementById('last').innerText.includes('You: take 1 from row D.')")
    tab.wait("document.getElementById('last').innerText.includes('Machine: ')")
    assert tab.eval("document.querySelectorAll('.lamp-cell').length") == 28
    assert tab.eval("document.querySelectorAll('button[data-press]').length") == 0  # it can only watch
    # the lamps and Nimrod's panel are the machine's, as its link reports them
    tab.wait("%s === 'visitor'" % STATE)
    _, state = call(url + "/api/crowd")
    tab.wait("%s === %d" % (LIT, sum(state["counts"])))
    values = tab.eval("[...document.querySelectorAll('#nimrod tr.heap-row td.value')].map(e => +e.textContent)")
    assert values == state["counts"] == [r["value"] for r in state["nimrod"]["rows"]]
    follows = tab.eval("document.getElementById('follows').textContent")
    # the board by its name in words, never its id nor the machine's handle
    assert follows == "Following the game on this machine: %s." % Words("en").board(state["board"])


def test_building_nim_played_to_the_end_on_the_page(browser):
    """Building Nim on pico-grid by mouse: a click on a heap's row places a stone
    (lit in the supply row D until all are placed), then Nim: a lamp and DONE."""
    with Served("pico-grid", dict(QUICK, preset="building", starts=[[0, 0, 0, 4]], first="visitor")) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        tab.click("#press-new")
        placed = taken = 0
        while wait_for_turn(tab) == "visitor":
            # the page and the machine agree on the lamps (or the turn moved on)
            state = until(tab, served, lambda st: st["state"] != "visitor" or sorted(lit_on_page(tab)) == lit_in(st))
            if state["state"] != "visitor":
                continue
            before = len(visitor_moves(state))
            if state["counts"][3]:  # stones still to place: a click on row A's key
                tab.click(".lamp-cell[data-r='0'][data-i='0']")
                placed += 1
            else:  # Nim: one lit lamp of a heap, selected, then DONE
                lamp = lit_in(state)[-1]
                tab.click(".lamp-cell[data-r='%d'][data-i='%d']" % lamp)
                until(tab, served, lambda st: st["lamps"][lamp[0]][lamp[1]][0] == "selected")
                tab.wait(
                    "document.querySelector(\".lamp-cell[data-r='%d'][data-i='%d']\").dataset.kind === 'selected'"
                    % lamp
                )  # the page has redrawn with it: DONE stays put
                tab.click("#press-done")
                taken += 1
            until(tab, served, lambda st: len(visitor_moves(st)) > before)
            assert placed + taken < 40
        state = machine_state(tab, served)
        assert state["state"] == "over" and placed == 2 and taken >= 1
        assert not [e for e in state["events"] if e["kind"] == "refused"]
        words = [e["words"] for e in visitor_moves(state)]
        assert words[0] == "place a stone on heap A (3 left to place)" and words[-1].startswith("take ")
