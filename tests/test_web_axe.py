# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""axe-core finds nothing on the page and the crowd view, in every language,
at a laptop's size and a phone's, a game under way and Settings open; and
nothing beside the lamps reaches past its panel.

axe-core is Deque's accessibility engine, the one browsers' own audits use;
its ``axe.min.js`` comes from the ``axe-playwright-python`` package (the
test extra in pyproject.toml installs it; nothing is fetched at run time)
and runs in the same headless Chromium as the page's other tests. A
violation is named with its rule, its impact and the first elements it
found (``label-content-name-mismatch`` on the TAKE buttons was one).
Screenshots of every view are left in /tmp/nimatron-axe-*.png to look at.
"""

import json
import os

import pytest
from devtools import CHROMIUM, Chromium, Served
from kit_page import QUICK, wait_for_turn

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)"
)

LANGS = ("en", "es", "ru")
SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844, "mobile": True}}


# every rule set axe-core has, its experimental rules too (label-content-name-mismatch is one)
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]


def axe_source():
    import axe_playwright_python

    with open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8") as f:
        return f.read()


# elements that reach past their panel's edge (the Spanish counts once went 15 px past it at 390 px)
PAST = """(() => {
  const past = [];
  for (const panel of document.querySelectorAll('.panel')) {
    const edge = panel.getBoundingClientRect();
    for (const e of panel.querySelectorAll('.lamp-row > *, .status-lamp, #say, #follows')) {
      const r = e.getBoundingClientRect();
      if (r.width && r.right > edge.right + 1) past.push([e.className || e.id, e.textContent.trim().slice(0, 30), Math.round(r.right - edge.right)]);
    }
  }
  return past;
})()"""


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def violations(tab, axe):
    """axe-core's violations on the tab as it is now: [(rule, impact, [elements...])]."""
    if not tab.eval("typeof axe !== 'undefined'"):
        tab.eval(axe + "\n;1")
    run = "axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag', values: %s}})" % json.dumps(TAGS)
    found = tab.eval(
        run + ".then((r) => JSON.stringify(r.violations.map((v) =>"
        " [v.id, v.impact, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])))"
    )
    return json.loads(found)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_and_the_crowd_view_have_no_violation(browser, lang):
    axe = axe_source()
    found = {}
    with Served("pico-neopixel", dict(QUICK, preset="nimrod", first="visitor"), per_owner=20, limit=20) as served:
        watch = None
        for size, how in SIZES.items():
            tab = browser.open(served.url + "/?lang=" + lang, **how)
            tab.wait("document.body.dataset.ready && document.querySelector('#settings button') !== null")
            tab.key("n")
            wait_for_turn(tab)
            tab.key("4")
            tab.key("Enter")
            tab.wait("[...document.querySelectorAll('#log li')].length >= 3")
            wait_for_turn(tab)
            found["/ %s" % size] = violations(tab, axe)
            found["/ %s, past its panel" % size] = tab.eval(PAST)
            tab.screenshot("/tmp/nimatron-axe-%s-play-%s.png" % (lang, size), full=False)
            tab.eval(
                "document.querySelector('details.settings').open = true; document.querySelector('details.legend').open = true; 1"
            )
            found["/ %s, settings open" % size] = violations(tab, axe)
            watch = tab.eval("document.getElementById('crowd-link').href.split('watch=')[1].split('&')[0]")
            crowd = browser.open(served.url + "/crowd?watch=%s&lang=%s" % (watch, lang), **how)
            crowd.wait("document.body.dataset.ready && document.getElementById('follows').textContent !== ''")
            found["/crowd %s" % size] = violations(crowd, axe)
            crowd.wait("document.querySelectorAll('.lamp-row').length > 0")
            found["/crowd %s, past its panel" % size] = crowd.eval(PAST)
            crowd.screenshot("/tmp/nimatron-axe-%s-crowd-%s.png" % (lang, size), full=False)
            crowd.close()
            tab.close()
    bad = {where: v for where, v in found.items() if v}
    assert not bad, "%s: axe-core finds %s" % (lang, json.dumps(bad, indent=1, ensure_ascii=False))
