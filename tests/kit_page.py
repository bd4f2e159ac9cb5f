# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Driving the page in headless Chromium: the quick timings, the lamp and
state probes, the JSON API, and waiting for the visitor's turn."""

import json
import urllib.request

QUICK = {"think_ms": 0, "show_ms": 200}


LIT = "document.querySelectorAll('.lamp-cell[data-kind=lit]').length"


STATE = "document.body.dataset.state"


def api(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def machine_state(tab, served):
    return api(served.url + "/api/machines/" + tab.eval("sessionStorage.getItem('nimatron-machine')"))


def wait_for_turn(tab):
    return tab.wait("['visitor', 'over'].includes(%s) && %s" % (STATE, STATE))
