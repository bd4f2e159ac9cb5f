# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The page and the crowd view in every language, at the screens people use:
words from ``lang/`` only, none of them cut.

Headless Chromium at 1280x720, 1366x768 and 1920x1080, in en, es and ru, a
game under way with Nimrod's panel open, then Settings opened:

- no internal id anywhere a visitor reads (the text, the settings' choices,
  the labels a screen reader speaks): no rule set's id ("subtract:3"), no
  language key ("settings.misere", or one no file has), no machine's or
  watch handle;
- each setting is labelled by its own words (the Goal, not its "misère" choice);
- no labelled box cuts its words (``scrollWidth <= clientWidth``: the
  counts beside the lamps, the status lamps, the buttons, Nimrod's table's
  names) and nothing is wider than its panel or the screen;
- opened, Settings has its Apply button on screen, with no scrolling;
- Grundy's game says a selection is split off, not taken.
"""

import json
import re

import pytest
from devtools import CHROMIUM, Chromium, Served
from kit_page import QUICK, wait_for_turn
from kit_words import ids_on, mixed_words
from nimatron_sim.words import Words

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)"
)

SIZES = [(1280, 720), (1366, 768), (1920, 1080)]
LANGS = ("en", "es", "ru")
KEYLIKE = re.compile(r"(?<![\w.])[a-z][a-z_+]*(?:\.[a-z_+0-9]+)+(?![\w.])")  # "say.selected", "nimrod.win.said"

# every word a visitor can read or hear: text, the settings' choices, labels
WORDS = """(() => {
  const out = [document.body.innerText];
  for (const o of document.querySelectorAll('option')) out.push(o.textContent);
  for (const e of document.querySelectorAll('[aria-label]')) out.push(e.getAttribute('aria-label'));
  return out.join('\\n');
})()"""

# boxes whose words do not fit them, and boxes that reach past their panel or the screen
CUT = """(() => {
  const shown = (e) => e.getClientRects().length && !e.closest('[hidden], .sr-only, details:not([open]) > :not(summary)');
  const cut = [...document.querySelectorAll('.row-count, .status-lamp, button, summary, label, .say, .rules-line,'
                                            + ' .board-line, .nimrod th, .nimrod td, #log li, .audits, h1, h2, a')]
    .filter((e) => shown(e) && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto')
    .map((e) => [e.className || e.tagName, e.textContent.trim().slice(0, 40), e.scrollWidth, e.clientWidth]);
  const past = [];
  for (const panel of document.querySelectorAll('.panel, .side > *')) {
    const edge = panel.getBoundingClientRect();
    for (const e of panel.querySelectorAll('*')) {
      if (!shown(e) || e.closest('#nimrod') && getComputedStyle(document.getElementById('nimrod')).overflowX === 'auto'
          && e.closest('#nimrod').scrollWidth <= e.closest('#nimrod').clientWidth + 1) continue;
      const r = e.getBoundingClientRect();
      if (r.width && (r.right > edge.right + 1 || r.left < edge.left - 1)) past.push([e.className || e.tagName, e.textContent.trim().slice(0, 30)]);
    }
  }
  return {cut, past: past.slice(0, 5), wide: document.documentElement.scrollWidth > innerWidth};
})()"""


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def ids_in(text, handles=()):
    found = sorted(set(ids_on(text)) | set(KEYLIKE.findall(text)))
    return found + [h for h in handles if h and h in text]


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_speaks_the_visitors_words_and_cuts_none(browser, lang):
    words = Words(lang)
    with Served("pico-neopixel", dict(QUICK, preset="nimrod", first="visitor"), per_owner=20, limit=20) as served:
        for width, height in SIZES:
            where = "%s %dx%d" % (lang, width, height)
            tab = browser.open(served.url + "/?lang=" + lang, width=width, height=height)
            tab.wait("document.body.dataset.ready && document.querySelector('#settings button') !== null")
            tab.key("n")
            wait_for_turn(tab)
            tab.key("4")
            tab.key("Enter")  # a move: the log, the machine's reply and Nimrod's panel have words
            tab.wait("[...document.querySelectorAll('#log li')].length >= 3")
            wait_for_turn(tab)
            tab.eval(
                "document.querySelector('details.legend').open = true; 1"
            )  # the help: what the lamps mean, the keys
            handles = tab.eval(
                "[sessionStorage.getItem('nimatron-machine'),"
                " document.getElementById('crowd-link').href.split('watch=')[1].split('&')[0]]"
            )
            text = tab.eval(WORDS)
            assert not ids_in(text, handles), "%s: ids on the page: %s" % (where, ids_in(text, handles))
            mixed = mixed_words(text.split("\n"), words, "heaps")  # the rows' buttons, the log and the reasoning agree
            assert not mixed, "%s: a heap called by two words: %s" % (where, mixed)
            boxes = tab.eval(CUT)
            assert not boxes["cut"] and not boxes["past"] and not boxes["wide"], "%s: %s" % (where, boxes)

            tab.eval("document.querySelector('details.settings').open = true; 1")
            labels = tab.eval(
                "[...document.querySelectorAll('#settings label')].map(l => l.firstChild.textContent.trim())"
            )
            goal = tab.eval(
                "document.querySelector('#settings select[name=misere]').parentElement.firstChild.textContent.trim()"
            )
            assert goal == words.t("settings.goal"), (where, labels)
            assert len(set(labels)) == len(labels), labels
            apply = tab.eval(
                "(() => { const r = document.querySelector('#settings button[type=submit]')"
                ".getBoundingClientRect(); return [r.top, r.bottom, innerHeight, scrollY]; })()"
            )
            assert apply[3] == 0 and apply[0] >= 0 and apply[1] <= apply[2], "%s: Apply at %s" % (where, apply)
            text = tab.eval(WORDS)
            assert not ids_in(text, handles), "%s, settings: %s" % (where, ids_in(text, handles))
            boxes = tab.eval(CUT)
            assert not boxes["cut"] and not boxes["past"] and not boxes["wide"], "%s, settings: %s" % (where, boxes)
            tab.screenshot("/tmp/nimatron-web-words-%s-%d.png" % (lang, width), full=False)
            tab.close()

        crowd = browser.open(served.url + "/crowd?lang=" + lang, width=1920, height=1080)
        crowd.wait("document.body.dataset.ready && document.getElementById('follows').textContent !== ''")
        text = crowd.eval(WORDS)
        assert not ids_in(text, handles), "crowd %s: %s" % (lang, ids_in(text, handles))
        assert not mixed_words(text.split("\n"), words, "heaps"), "crowd %s: %s" % (
            lang,
            mixed_words(text.split("\n"), words, "heaps"),
        )
        crowd.close()

    # pico-grid with its own preset (One row or every row): the board and the preset by name, Settings open
    with Served("pico-grid", dict(QUICK, first="visitor")) as served:
        tab = browser.open(served.url + "/?lang=" + lang, width=1366, height=768)
        tab.wait("document.body.dataset.ready && document.querySelector('#settings button') !== null")
        tab.key("n")
        wait_for_turn(tab)
        tab.eval("document.querySelector('details.settings').open = true; 1")
        text = tab.eval(WORDS)
        assert words.t("preset.allheaps") in text and words.t("board.pico-grid") in text, text
        assert not ids_in(text), "pico-grid %s: %s" % (lang, ids_in(text))
        tab.close()


@pytest.mark.parametrize("lang", LANGS)
def test_grundys_game_on_the_page_says_a_split(browser, lang):
    words = Words(lang)
    with Served("pico-grid", dict(QUICK, preset="grundy", first="visitor")) as served:
        tab = browser.open(served.url + "/?lang=" + lang)
        tab.wait("document.body.dataset.ready")
        tab.key("n")
        wait_for_turn(tab)
        last = tab.eval(
            "(() => { const lit = [...document.querySelectorAll('.lamp-cell[data-kind=lit]')];"
            " const e = lit[lit.length - 1]; return [+e.dataset.r, +e.dataset.i]; })()"
        )
        tab.click(".lamp-cell[data-r='%d'][data-i='%d']" % tuple(last))
        tab.wait("document.querySelectorAll('.lamp-cell[data-kind=selected]').length === 1")
        said = words.t("say.selected.split", n=1)
        tab.wait("document.getElementById('say').textContent === %s" % json.dumps(said))
        assert words.t("say.selected", n=1) != said
