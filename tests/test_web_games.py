# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The reasoning panel of the four newest games in a real browser: the crowd
view (and the play page's "how the machine thinks") draw the panel the
server worked out from the firmware (``nimatron_sim.nimrod``): Building
Nim's plan, Graph Nim's and 2-D Nim's groups and their nim-sum, Candy Nim's
candies. The page's words are checked against the terminal's rendering of
the same panel (``thinking.lines``), in English and in Spanish, so the two
faces say the same; then a move is played and the panel follows it."""

import json

import pytest
from devtools import CHROMIUM, Chromium, Served
from kit_page import QUICK, api
from nimatron_sim.thinking import sentence
from nimatron_sim.words import Words

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)"
)

PANEL = "document.getElementById('nimrod').innerText"


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def first_move(state):
    """The visitor's presses for a move: Building Nim places a stone on row A
    (a key of its row); the others put out the first lit lamp."""
    if state["settings"]["rules"] == "building":
        return ["key 0 0"]
    r, i = next((r, i) for r, row in enumerate(state["lamps"]) for i, lamp in enumerate(row) if lamp[0] == "lit")
    return ["key %d %d" % (r, i), "done"]


@pytest.mark.parametrize(
    "preset, lang, shows",
    [
        ("building", "en", ["The last stone is placed by", "builds rows", "stones still to place: 8"]),
        ("building", "es", ["Coloca la última piedra: la máquina.", "piedras por colocar: 8"]),
        ("graph", "en", ["group 1 (lamps: 6)", "group 2 (lamps: 4)", "Each group of touching lamps"]),
        ("candy", "en", ["Candies so far: you 0, the machine 0.", "can be sure of"]),
        ("nim2d", "ru", ["группа 1 (ламп: 6)", "группа 2 (ламп: 2)", "ним-сумма"]),
    ],
)
def test_the_crowd_view_explains_the_new_games(browser, preset, lang, shows):
    settings = {"starts": [[7, 7, 0, 12]]} if preset == "nim2d" else {}  # two groups, quick to search
    with Served("pico-grid", dict(QUICK, preset=preset, first="visitor", **settings)) as served:
        machine = api(served.url + "/api/machines", {})["machine"]
        press = served.url + "/api/machines/%s/press" % machine
        state = api(press, {"press": "new"})
        tab = browser.open(served.url + "/crowd?lang=%s&watch=%s" % (lang, state["watch"]))
        tab.wait("document.body.dataset.ready && document.querySelector('#nimrod p') !== null")
        words = Words(lang)
        panel = state["nimrod"]
        text = tab.eval(PANEL)
        for key, params in panel["lines"]:  # each sentence, as the terminal words it
            if not key.startswith("nimrod.gloss."):  # the glossary: the page and the T panel, not the kiosk's screen
                assert sentence(words, key, params) in text, (key, text)
        for phrase in shows:
            assert phrase in text, text
        values = tab.eval("[...document.querySelectorAll('#nimrod tr.heap-row td.value')].map(e => e.textContent)")
        assert values == [str(r["value"]) for r in panel["rows"]]
        # a move: the panel follows the game to the machine's position
        for what in first_move(state):
            api(press, {"press": what})
        tab.wait("document.getElementById('last').innerText.split('\\n').length >= 3")
        tab.wait("%s !== %s" % (PANEL, json.dumps(text)))
        now = api(served.url + "/api/machines/" + machine)["nimrod"]
        said = [line for line in now["lines"] if not line[0].startswith("nimrod.gloss.")]  # the kiosk's: no glossary
        tab.wait("%s.includes(%s)" % (PANEL, json.dumps(sentence(words, *said[-1]))))


def test_the_play_page_explains_building_nim(browser):
    with Served("pico-grid", dict(QUICK, preset="building", first="visitor")) as served:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        tab.key("n")
        tab.wait("document.body.dataset.state === 'visitor'")
        shown = tab.eval("(() => { const t = document.getElementById('nimrod'); return t ? t.innerText : ''; })()")
        if "The last stone is placed by" not in shown:  # the panel is behind "How the machine thinks"
            tab.key("t")
        tab.wait("document.getElementById('nimrod').innerText.includes('The last stone is placed by')")
