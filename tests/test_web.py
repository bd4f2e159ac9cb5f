# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim --web``: the HTTP server, its JSON API and the command line.

The machines here run on a clock the test holds (``Clock``): the state after
scripted presses is compared with a plain ``Simulator`` given the same
presses, so what the page is told is what the firmware's pins show. Bad
requests get a 4xx and one sentence, never a traceback.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from devtools import Served, call, free_port
from nimatron_sim.engine import Simulator
from nimatron_sim.web import port_problem
from nimatron_sim.web.server import languages, static_files

NIMATRON = [sys.executable, "-m", "nimatron_host"]


class Clock:
    """Wall-clock seconds the test moves by hand."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def served():
    clock = Clock()
    with Served("pico-neopixel", {"preset": "nimatron"}, clock=clock) as s:
        s.clock = clock
        yield s


def lit(state):
    return [[1 if lamp[0] == "lit" else 0 for lamp in row] for row in state["lamps"]]


# -- the state is the firmware's --------------------------------------------------


def test_state_after_scripted_presses_is_what_the_pins_show(served):
    status, state = call(served.url + "/api/machines", {})
    assert status == 201 and state["state"] == "attract" and state["layout"] == [7, 7, 7, 7]
    ident = state["machine"]
    presses = ["new", "row3", "row3", "done"]
    for press in presses:
        status, state = call(served.url + "/api/machines/%s/press" % ident, {"press": press})
        assert status == 200
    with Simulator("pico-neopixel", {"preset": "nimatron"}) as sim:  # the same hand, no page
        for press in presses:
            sim.tap(press)
        assert [[lamp[1] for lamp in row] for row in state["lamps"]] == sim.read_lamps()
        assert state["status"] == {k: bool(v) for k, v in sim.read_status().items()}
        assert state["counts"] == [sum(row) for row in sim.controller.panel.lit] == [3, 4, 5, 5]
    assert state["state"] == "thinking"
    assert [lamp[0] for lamp in state["lamps"][3]] == ["lit"] * 5 + ["taken"] * 2
    assert [e["kind"] for e in state["events"]] == ["game", "move"]
    assert state["events"][1]["words"] == "take 2 from heap D" and state["events"][1]["by"] == "visitor"
    assert state["say"] == ["say.thinking", {}]
    # the wall clock moves on: the machine answers, and the page is told in words
    for _ in range(8):
        served.clock.now += 1.0
        status, state = call(served.url + "/api/machines/" + ident)
        if state["state"] == "visitor":
            break
    assert state["state"] == "visitor"
    move = state["events"][-1]
    assert move["kind"] == "move" and move["by"] == "machine" and move["before"] == [3, 4, 5, 5]
    assert state["counts"] == move["after"]
    assert sum(row.count(1) for row in lit(state)) == sum(move["after"])


def test_nimrods_panel_is_the_engines_working(served):
    _, state = call(served.url + "/api/machines", {})
    ident = state["machine"]
    _, state = call(served.url + "/api/machines/%s/press" % ident, {"press": "new"})
    panel = state["nimrod"]
    assert panel["kind"] == "nim" and [r["value"] for r in panel["rows"]] == [3, 4, 5, 7]
    assert [r["bits"] for r in panel["rows"]] == [[0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 1]]
    assert panel["counts"] == [3, 2, 3] and panel["sum"] == 3 ^ 4 ^ 5 ^ 7 == 5 and panel["sum_bits"] == [1, 0, 1]
    assert panel["outcome"] == "win" and panel["mover"] == "visitor"
    after = [int(h) for h in panel["after"].split()]
    assert panel["move"].startswith("take ") and after[0] ^ after[1] ^ after[2] ^ after[3] == 0


def test_nim_values_for_the_subtraction_game(served):
    _, state = call(served.url + "/api/machines", {"preset": "subtract"})
    _, state = call(served.url + "/api/machines/%s/press" % state["machine"], {"press": "new"})
    panel = state["nimrod"]
    assert panel["kind"] == "values" and panel["how"] == "subtract"
    k = panel["k"]
    assert [r["value"] for r in panel["rows"]] == [r["heap"] % (k + 1) for r in panel["rows"]]


@pytest.mark.parametrize(
    "board", ["circuitplayground", "macropad", "pi-leds", "pi-neopixel", "pico-grid", "pico-neopixel", "pico-ring"]
)
def test_every_board_has_a_page_state_and_a_new_game(served, board):
    status, state = call(served.url + "/api/machines", {"board": board})
    assert status == 201, state
    assert state["board"] == board
    assert [len(row) for row in state["lamps"]] == state["layout"]
    assert "done" in state["buttons"] and "new" in state["buttons"]
    assert state["keys"] == (board in ("macropad", "pico-grid", "pico-ring"))
    assert state["shape"] == ("ring" if board in ("circuitplayground", "pico-ring") else "rows")
    _, state = call(served.url + "/api/machines/%s/press" % state["machine"], {"press": "new"})
    assert state["state"] in ("visitor", "thinking") and state["events"][0]["kind"] == "game"
    assert any(lamp[0] == "lit" for row in state["lamps"] for lamp in row)


def test_a_lamp_key_takes_on_a_grid_board(served):
    _, state = call(served.url + "/api/machines", {"board": "pico-ring"})
    url = served.url + "/api/machines/%s/press" % state["machine"]
    call(url, {"press": "new"})
    _, state = call(url, {"press": "key 0 0"})
    assert state["lamps"][0][0][0] == "selected" and state["say"] == ["say.selected", {"n": 1}]
    _, state = call(url, {"press": "done"})
    assert state["events"][-1]["kind"] == "move" and state["lamps"][0][0][0] == "taken"


def test_each_tab_has_its_own_machine_and_the_crowd_follows_the_last_played(served):
    _, one = call(served.url + "/api/machines", {})
    _, two = call(served.url + "/api/machines", {"board": "pi-leds"})
    assert one["machine"] != two["machine"]
    call(served.url + "/api/machines/%s/press" % one["machine"], {"press": "new"})
    _, crowd = call(served.url + "/api/crowd")
    assert crowd["watch"] == one["watch"] and crowd["state"] == "visitor"
    assert "machine" not in crowd and one["machine"] not in json.dumps(crowd)  # watchers cannot press
    _, two_now = call(served.url + "/api/machines/" + two["machine"])
    assert two_now["state"] == "attract"  # a press in one tab never reaches another
    status, answer = call(served.url + "/api/crowd", {"press": "new"})
    assert status == 405 and "read-only" in answer["error"]


def test_the_crowd_view_makes_a_machine_when_none_runs(served):
    status, crowd = call(served.url + "/api/crowd")
    assert status == 200 and crowd["state"] == "attract" and crowd["board"] == "pico-neopixel"


def test_idle_machines_are_closed_and_a_full_server_says_so():
    clock = Clock()
    with Served("pi-leds", clock=clock, limit=2) as s:
        _, a = call(s.url + "/api/machines", {})
        call(s.url + "/api/machines", {})
        status, answer = call(s.url + "/api/machines", {})
        assert status == 503 and "close a tab" in answer["error"]
        clock.now += 601  # ten idle minutes
        status, _ = call(s.url + "/api/machines", {})
        assert status == 201 and len(s.machines) == 1
        status, answer = call(s.url + "/api/machines/" + a["machine"])
        assert status == 404 and "idle" in answer["error"]


# -- bad requests: 4xx and one sentence ---------------------------------------------


def test_bad_requests_get_a_4xx_and_a_sentence(served):
    _, state = call(served.url + "/api/machines", {})
    press = served.url + "/api/machines/%s/press" % state["machine"]
    cases = [
        (call(press, {"press": "row9"}), 400, "has no button 'row9'"),
        (call(press, {"press": 3}), 400, "has no button 3"),
        (call(press, {"press": "key 0 0"}), 400, "it has: done, new, row0"),
        (call(press, {"button": "done"}), 400, 'send {"press": BUTTON}'),
        (call(press, {}), 400, "got keys none"),
        (call(press, raw=b"{not json"), 400, "not JSON"),
        (call(press, raw=b"[1, 2]"), 400, "a JSON object"),
        (call(press, raw=b'{"press": "done"}', kind="text/plain"), 415, "application/json"),
        (call(press, raw=b"x" * 20000), 413, "at most"),
        (call(served.url + "/api/machines/nobody/press", {"press": "done"}), 404, "no machine 'nobody'"),
        (call(served.url + "/api/machines/nobody"), 404, "no machine"),
        (call(served.url + "/api/machines", {"board": "abacus"}), 400, "unknown board 'abacus'"),
        (call(served.url + "/api/machines", {"colour": "red"}), 400, "unknown setting colour"),
        (call(served.url + "/api/machines", {"misere": "yes"}), 400, "misere must be true or false"),
        (call(served.url + "/api/machines", {"preset": "chess"}), 400, "chess"),
        (call(served.url + "/api/machines", {"rules": "grundy"}), 400, "grid board"),
        (call(served.url + "/api/config", {}), 405, "read-only"),
        (call(served.url + "/api/nothing"), 404, "no such API"),
        (call(served.url + "/static/../server.py"), 404, "no file"),
        (call(served.url + "/etc/passwd"), 404, "no page"),
    ]
    for (status, answer), want_status, words in cases:
        assert status == want_status and words in answer["error"], (answer, want_status, words)
        assert "\n" not in answer["error"]
    status, state = call(served.url + "/api/machines/" + state["machine"])
    assert status == 200 and state["state"] == "attract" and state["events"] == []  # nothing happened


def test_refused_settings_are_said_in_each_languages_words_not_the_firmwares(served):
    """A preset the board cannot hold: the answer carries the refusal in
    every language the page may show ("This board has 28 lamps; that game
    needs 100."), as the terminal's Settings says it (``Words.refused``);
    the firmware's own sentence ("preset 100: layout [100] needs ...") stays
    in ``error`` for the log."""
    from kit_words import ids_on
    from nimatron_sim.words import Words

    status, answer = call(served.url + "/api/machines", {"preset": "100"})
    assert status == 400 and "layout" in answer["error"]
    assert sorted(answer["said"]) == sorted(languages())
    for lang, said in answer["said"].items():
        assert said == Words(lang).refused(answer["error"]) and "100" in said and "28" in said, (lang, said)
        assert "layout" not in said and "pixel" not in said and ids_on(said) == [], (lang, said)
    status, answer = call(served.url + "/api/machines", {"colour": "red"})  # not the firmware's refusal
    assert status == 400 and "said" not in answer


# -- the pages and their words ----------------------------------------------------------


def get(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.headers.get("Content-Type"), r.read().decode()


def test_pages_are_served_and_need_nothing_from_the_internet(served):
    for path, words in (("/", "play.js"), ("/crowd", "crowd.js")):
        status, kind, page = get(served.url + path)
        assert status == 200 and kind.startswith("text/html") and words in page
        assert 'lang="en"' in page and 'name="viewport"' in page
    for name, path in static_files().items():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, name
        status, kind, _ = get(served.url + "/static/" + name)
        assert status == 200 and "charset=utf-8" in kind


def test_every_language_file_words_every_key():
    folder = os.path.dirname(static_files()["lang/en.json"])
    english = json.load(open(os.path.join(folder, "en.json"), encoding="utf-8"))
    assert languages() == ["en", "es", "ru"]
    for lang in languages():
        words = json.load(open(os.path.join(folder, lang + ".json"), encoding="utf-8"))
        assert sorted(words["text"]) == sorted(english["text"]), lang
        assert sorted(words["phrases"]) == sorted(english["phrases"]), lang
        for key, text in list(words["text"].items()) + list(words["phrases"].items()):
            placeholders = sorted({part.split("}")[0] for part in english["text"].get(key, key).split("{")[1:]})
            assert sorted({part.split("}")[0] for part in text.split("{")[1:]}) == placeholders, (lang, key)
        if lang != "en":
            # names (NIMATRON, DONE, a preset's "Nimrod, 1951"...) may stay; sentences may not
            same = [
                k
                for k, v in words["text"].items()
                if v == english["text"][k]
                and k.split(".")[0] not in ("preset", "board")
                and any(c.isalpha() for c in re.sub(r"\{\w+\}", "", v))
            ]
            assert len(same) <= 8, (lang, same)


# -- the command line ----------------------------------------------------------------------


def test_port_problem_names_a_port_in_use_and_a_bad_number():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert "port %d on localhost is in use" % port in port_problem(port)
    assert port_problem(free_port()) is None
    assert "between 1 and 65535" in port_problem(70000)
    assert "--host" in port_problem(free_port(), "no-such-host.invalid")


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--board", "abacus"], "unknown board"),
        (["--lang", "tlh"], "--lang must be one of en, es, ru"),
        (["--preset", "grundy"], "preset grundy: layout [8, 8, 8, 8, 8, 8, 8, 8] has more rows than the panel"),
    ],
)
def test_web_with_bad_options_is_one_line_exit_2(extra, words):
    done = subprocess.run(
        NIMATRON + ["sim", "--web", "--port", str(free_port())] + extra, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert done.stdout == ""


def test_web_on_a_port_in_use_is_one_line_exit_2_before_starting():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = subprocess.run(
            NIMATRON + ["sim", "--web", "--port", str(port)], capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "is in use" in done.stderr and "--port" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_web_serves_on_localhost_and_stops_cleanly(stop):
    port = free_port()
    proc = subprocess.Popen(
        NIMATRON + ["sim", "--web", "--port", str(port), "--preset", "drnim", "--lang", "es"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        line = proc.stdout.readline().decode()  # printed once the server listens
        assert "http://localhost:%d" % port in line and "/crowd" in line
        status, kind, page = get("http://localhost:%d/" % port)
        assert status == 200 and "play.js" in page
        status, config = call("http://localhost:%d/api/config" % port)
        assert config["lang"] == "es" and config["settings"] == {"preset": "drnim"}
        status, state = call("http://localhost:%d/api/machines" % port, {})
        assert status == 201 and state["settings"]["preset"] == "drnim"
        proc.send_signal(stop)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert b"Traceback" not in err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
