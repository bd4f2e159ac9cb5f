# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron class``'s teacher and projector pages in headless Chromium, in
every language: no board, preset or rule set's id in what they show, the
choices of the rule set included (the teacher's lists read "nimrod: Ferranti
Nimrod, 1951: ..." and "pad-marienbad: ...", where the simulator's page
names each preset in words)."""

import os
import re
import subprocess
import sys
import tempfile

import pytest
from devtools import Chromium, free_port
from kit_words import LANGS, ids_on

pytestmark = [pytest.mark.slow, pytest.mark.browser]  # a class server and Chromium: about 10 s

SHOWN = (
    "document.body.innerText + '\\n' + Array.from(document.querySelectorAll('option'))"
    ".map((o) => o.textContent).join('\\n')"
)


@pytest.fixture(scope="module")
def served():
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="nimatron-class-"), "class.sqlite3")
    server = subprocess.Popen(
        [sys.executable, "-m", "nimatron_host.cli", "class", "--host", "localhost", "--port", str(port), "--db", db],
        stdout=subprocess.PIPE,
        text=True,
    )
    key = None
    for line in server.stdout:
        found = re.search(r"#key=(\S+)", line)
        key = found.group(1) if found else key
        if "Ctrl-C" in line:
            break
    try:
        yield "http://localhost:%d" % port, key
    finally:
        server.terminate()
        server.wait(10)


def test_the_teacher_and_the_projector_name_every_preset_in_words(served):
    url, key = served
    with Chromium() as browser:
        for lang in LANGS:
            for page in ("/teacher?lang=%s#key=%s" % (lang, key), "/projector?lang=" + lang):
                tab = browser.open(url + page)
                tab.wait(
                    "document.body.dataset.ready && document.querySelectorAll('option').length > 3"
                    if page.startswith("/teacher")
                    else "document.body.dataset.ready"
                )
                text = tab.eval(SHOWN)
                assert not ids_on(text), (lang, page, ids_on(text))
                if page.startswith("/teacher"):  # each preset by its name in this language, once
                    names = tab.eval("Array.from(document.getElementById('preset').options).map((o) => o.textContent)")
                    assert len(set(names)) == len(names) and not any(re.match(r"[\w-]+: ", n) for n in names), names
