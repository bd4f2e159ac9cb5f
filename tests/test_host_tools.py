# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host tools against the simulator over a real pseudo-terminal.

``nimatron sim --headless --serial`` runs in a subprocess exactly as a maker
would start it; the tools open the path it prints, through pyserial, as they
would open a board's USB data port.
"""

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from kit_host import Sim
from nimatron_host.cli import main
from nimatron_host.link import Link, MachineError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NIMATRON = [sys.executable, "-m", "nimatron_host"]
FAST = ["--set", "think_ms=0", "--set", "show_ms=0"]


@pytest.fixture
def sim_factory():
    sims = []

    def start(*args, script=None):
        sim = Sim(*args, script=script)
        sims.append(sim)
        return sim

    yield start
    for sim in sims:
        sim.stop()


def nimatron(*args, stdin=None, timeout=30, env=None):
    return subprocess.run(
        NIMATRON + list(args), cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=timeout, env=env
    )


PATIENT = dict(os.environ, NIMATRON_REPLY_S="20")  # a loaded test machine can be slower than a board


def test_hello_and_state(sim_factory):
    sim = sim_factory("--board", "pico-neopixel")
    with Link(sim.path) as link:
        hello = link.hello()
        assert (hello["name"], hello["protocol"], hello["board"], hello["preset"]) == (
            "nimatron",
            1,
            "pico-neopixel",
            "nimatron",
        )
        state = link.command("STATE")
        assert state["state"] == "attract" and state["rules"] == "nim"
        assert len(state["lamps"]) == 4


def test_ports_recognises_the_simulator(sim_factory, capsys):
    sim = sim_factory()
    assert main(["ports", sim.path]) == 0
    out = capsys.readouterr().out
    assert sim.path in out and "Nimatron (board pico-neopixel, preset nimatron" in out


# The visitor takes 1 each turn: 21, 17, 13, 9, 5, 1 after the machine's replies; the
# sixth take is the last lamp, which ends the game by itself. No press after it, so no
# second game can start while the audits are read; "wait host" starts the game only
# once the monitor listens, however slow its start on a loaded machine; the simulator
# then runs until killed, so the audits find it however long they take to start.
GAME_OF_21 = "wait host\npress new\n" + "press row0\npress done\nwait 60\n" * 5 + "press row0\n"


def test_monitor_watches_a_whole_game_then_audits_count_it(sim_factory):
    """A visitor at the buttons plays the game of 21; the office watches."""
    sim = sim_factory("--preset", "21", *FAST, "--until-killed", script=GAME_OF_21)
    watch = subprocess.Popen(
        NIMATRON + ["monitor", sim.path, "--games", "1"],
        cwd=ROOT,
        env=PATIENT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = watch.communicate(timeout=120)
    assert watch.returncode == 0, err
    assert "Watching the Nimatron on %s" % sim.path in out
    assert "New game: 21  (21, subtract:3, misère play" in out
    assert out.count("Visitor: take 1 from heap A") == 6
    assert (
        "  Machine: take 3 from heap A  ->  17\n            reasoning: Leave 1 more than a multiple of 4: "
        "1, 5, 9, 13, 17; From 20 take 3 to leave 17; winning move: take 3 from heap A"
    ) in out  # the lesson (issue 44)
    assert "The machine wins." in out
    csv = nimatron("audits", sim.path, "--csv", env=PATIENT, timeout=60)
    assert csv.returncode == 0, csv.stderr
    lines = csv.stdout.splitlines()
    header = lines[0].split(",")
    assert header[:7] == ["preset", "started", "finished", "visitor_wins", "machine_wins", "abandoned", "uptime_s"]
    assert lines[1].startswith("all,1,1,0,1,0,") and lines[2] == "21,1,1,0,1,0," + "," * (len(header) - 7)
    everything = dict(zip(header, lines[1].split(",")))
    assert everything["lifetime_games"] == everything["service_games"] == everything["service_machine_wins"] == "1"
    data = json.loads(nimatron("audits", sim.path, "--json").stdout)
    assert data["machine_wins"] == 1 and data["presets"]["21"]["finished"] == 1
    table = nimatron("audits", sim.path).stdout
    assert "up 0 h 00 min" in table and table.splitlines()[-1].split() == ["21", "1", "1", "0", "1", "0"]


def test_monitor_json_and_reasoning_for_nim(sim_factory):
    sim = sim_factory(
        *FAST, "--until-killed", script="wait host\npress new\npress row3\npress done\nwait 500\npress new\n"
    )
    lines = []
    watch = subprocess.Popen(
        NIMATRON + ["monitor", sim.path, "--json", "--games", "1"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    out, _ = watch.communicate(timeout=60)  # the second NEW GAME abandons the first: game_over
    for line in out.splitlines():
        lines.append(json.loads(line))
    kinds = [e["event"] for e in lines]
    assert kinds[:3] == ["new_game", "move", "move"] and kinds[-1] == "game_over"
    assert lines[2]["why"].startswith("nim-sum 100 (binary) = 4; winning move")


def test_config_set_refused_without_unlock_and_accepted_with_it(sim_factory):
    sim = sim_factory("--set", "operator_pin=4711")
    locked = nimatron("config", sim.path, "difficulty", "teach")
    assert locked.returncode == 1
    assert locked.stderr.strip() == (
        "nimatron config: this machine has an operator PIN: give it with --pin (or NIMATRON_PIN)"
    )
    wrong = nimatron("config", sim.path, "difficulty", "teach", "--pin", "1234")
    assert wrong.returncode == 1 and "UNLOCK refused: wrong PIN" in wrong.stderr
    assert nimatron("config", sim.path, "difficulty").stdout == "difficulty = perfect\n"
    ok = nimatron("config", sim.path, "difficulty", "teach", "--pin", "4711")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("difficulty = teach  (applies now")
    assert nimatron("config", sim.path, "difficulty").stdout == "difficulty = teach\n"
    env = dict(os.environ, NIMATRON_PIN="4711")
    bad = subprocess.run(
        NIMATRON + ["config", sim.path, "think_ms", "soon"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert bad.returncode == 1 and "think_ms not changed: think_ms must be a whole number" in bad.stderr
    everything = nimatron("config", sim.path).stdout
    assert "operator_pin = ****" in everything and "4711" not in everything
    with Link(sim.path) as link:  # the tool locked the link again behind it
        link.hello()
        with pytest.raises(Exception, match="UNLOCK PIN first"):
            link.command("SET difficulty perfect")


def test_play_from_the_keyboard(sim_factory):
    sim = sim_factory(*FAST, "--set", "remote_play=true")
    run = nimatron("play", sim.path, stdin="D 7\nB x\nq\n")
    assert run.returncode == 0, run.stderr
    assert "The machine leaves" in run.stdout and "nim-sum" in run.stdout
    assert "type a row letter and how many lamps to take" in run.stdout


def test_play_is_refused_unless_the_operator_allows_it(sim_factory):
    sim = sim_factory()
    run = nimatron("play", sim.path, stdin="q\n")
    assert run.returncode == 1
    assert "remote play is off on this machine" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "args, code, message",
    [
        (
            ["monitor", "/dev/no-such-port"],
            1,
            "nimatron monitor: cannot open /dev/no-such-port: No such file or directory",
        ),
        (
            ["audits", "/dev/no-such-port", "--csv"],
            1,
            "nimatron audits: cannot open /dev/no-such-port: No such file or directory",
        ),
        (["config"], 2, "nimatron config: error: the following arguments are required: PORT"),
        (
            ["audits", "x", "--csv", "--json"],
            2,
            "nimatron audits: error: argument --json: not allowed with argument --csv",
        ),
        (["play", "/dev/null"], 1, "nimatron play: cannot open /dev/null: not a serial port"),
    ],
)
def test_bad_input_is_one_line_and_an_exit_status(args, code, message):
    run = nimatron(*args)
    assert run.returncode == code
    assert run.stderr.strip() == message


def test_a_port_where_nothing_answers(capsys):
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        path = os.ttyname(slave)
        assert main(["ports", path, "--timeout", "0.3"]) == 0
        assert "no Nimatron here (no HELLO reply)" in capsys.readouterr().out
        assert main(["audits", path]) == 1
        assert capsys.readouterr().err.strip() == (
            "nimatron audits: no reply from %s within 3 s: is a Nimatron's host link there?" % path
        )
    finally:
        os.close(slave)
        os.close(master)


def test_noise_on_the_real_port_changes_nothing(sim_factory):
    """Binary noise, invalid UTF-8, an overlong line, a flood and a hang-up mid-line."""
    import serial

    sim = sim_factory("--set", "operator_pin=4711", "--set", "remote_play=false")
    with Link(sim.path) as link:
        link.hello()
        link.command("EVENTS ON")
        before = link.command("STATE")
        config = link.command("CONFIG")
    port = serial.Serial(sim.path, timeout=0.1)
    port.write(bytes(range(256)) * 4 + b"\xc3\x28\xed\xa0\x80\n" + b"A" * 4000 + b"\n")
    port.write(b"SET difficulty teach\nNEW\nPLAY PRESS row0\nUNLOCK 0000\n" * 50)
    port.write(b"SET operator_pin 1")  # and hang up in the middle of a line
    port.close()
    time.sleep(0.3)
    with Link(sim.path) as link:
        assert link.hello()["name"] == "nimatron"
        after = link.command("STATE")
        assert link.command("CONFIG") == config
        for key in ("state", "position", "rules", "difficulty"):
            assert after[key] == before[key]
        with pytest.raises(MachineError) as refused:  # wrong PINs paused UNLOCK, hang-up or not
            link.command("UNLOCK 4711")
        assert refused.value.code == "busy"


ROWS = {"lamps": ["1000000", "1110000", "1111100", "1111111"], "position": [1, 3, 5, 7], "rules": "nim"}
GRID = {"lamps": ["11110000", "11111000", "00000000"], "position": [4, 5, 0], "rules": "allheaps"}


@pytest.mark.parametrize(
    "state, grid, text, message",
    [
        (ROWS, False, "A 99999999999", "row A has 1 lamp lit: take 1"),
        (ROWS, False, "B 9", "row B has 3 lamps lit: take 1-3"),
        (ROWS, False, "Z 9", "no row Z (rows A-D)"),
        (ROWS, False, "5 1", "no row 5 (rows A-D)"),
        (ROWS, False, "B 0", "take at least one lamp"),
        (ROWS, False, "B -1", "type a row letter and how many lamps to take"),
        (dict(ROWS, rules="subtract:3"), False, "D 4", "subtract:3 does not allow taking 4 from row D"),
        (GRID, True, "C 1", "lamp C 1 is already out"),
        (GRID, True, "A 9", "no lamp A 9: row A has lamps 1-8"),
        (GRID, True, "A 1 A 1", "lamp A 1 is named twice"),
        (GRID, True, "Z 1", "no row Z (rows A-C)"),
        (GRID, True, "A 1 2", "name lamps by row and lamp, as on the screen"),
    ],
)
def test_play_checks_the_whole_move_before_pressing_anything(state, grid, text, message):
    from nimatron_host.play import parse_move

    with pytest.raises(ValueError) as refused:
        parse_move(text, state, grid)
    assert str(refused.value) == message or str(refused.value).startswith(message)


@pytest.mark.parametrize(
    "state, grid, text, presses",
    [
        (ROWS, False, "B 2", ["row1", "row1"]),
        (ROWS, False, "b,3", ["row1"] * 3),
        (ROWS, False, "2 1", ["row1"]),  # rows by number, from 1
        (GRID, True, "A 1 A 2", ["key 0 0", "key 0 1"]),  # the letters the screen shows
        (GRID, True, "A1 B5", ["key 0 0", "key 1 4"]),
        (GRID, True, "1 1 2 5", ["key 0 0", "key 1 4"]),  # or numbers
    ],
)
def test_play_reads_rows_as_the_screen_names_them(state, grid, text, presses):
    from nimatron_host.play import parse_move

    assert parse_move(text, state, grid) == presses


def test_play_refuses_a_move_too_big_and_the_game_goes_on(sim_factory):
    """Nothing is pressed for a refused move: the next good move is whole."""
    sim = sim_factory(*FAST, "--set", "remote_play=true")
    run = nimatron("play", sim.path, stdin="A 99999999999\nB 9\nZ 9\nD 7\nq\n")
    assert run.returncode == 0, run.stderr
    assert "  row A has 3 lamps lit: take 1" in run.stdout  # the start is 3 4 5 7
    assert "  row B has 4 lamps lit: take 1" in run.stdout and "  no row Z (rows A" in run.stdout
    assert "The machine leaves" in run.stdout and "refused" not in run.stdout


# -- a device that answers wrongly (issue 13, finding 11) -----------------------------------

HELLO = '{"name": "nimatron", "version": "0.1.0", "protocol": 1, "board": "pico-neopixel", "preset": "nim", "input": "rows"}'


class FakeDevice:
    """A "Nimatron" on a real pseudo-terminal that answers each command word
    from a table (``ERR syntax`` otherwise): for replies no real machine sends."""

    def __init__(self, answers):
        import tty

        self.answers = dict(answers)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.running = True
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        import select

        buf = b""
        while self.running:
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                words = line.decode("ascii", "replace").split()
                if not words:
                    continue
                reply = self.answers.get(" ".join(words[:2]), self.answers.get(words[0], "ERR syntax unknown"))
                os.write(self.master, reply.encode() + b"\n")

    def close(self):
        self.running = False
        time.sleep(0.1)
        os.close(self.slave)
        os.close(self.master)


@pytest.fixture
def device():
    made = []

    def make(**answers):
        answers.setdefault("HELLO", "OK " + HELLO)
        dev = FakeDevice(answers)
        made.append(dev)
        return dev

    yield make
    for dev in made:
        dev.close()


@pytest.mark.parametrize(
    "args, answers, message",
    [
        (
            ["audits"],
            {"AUDITS": 'OK {"started": "12", "finished": 9}'},
            "the device sent an AUDITS reply with 'started' = \"12\", where a whole number belongs",
        ),
        (
            ["audits", "--csv"],
            {"AUDITS": 'OK {"started": 1, "presets": {"nim": [1, 2]}}'},
            'the device sent an AUDITS reply that is not a JSON object (preset "nim")',
        ),
        (
            ["audits", "--csv"],
            {"AUDITS": 'OK {"started": 1, "presets": [1]}'},
            "the device sent an AUDITS reply with 'presets' = [1], where an object belongs",
        ),
        (
            ["audits"],
            {"AUDITS": 'OK {"started": 1, "uptime_s": Infinity}'},
            "the device sent an AUDITS reply with 'uptime_s' = Infinity, where a count belongs",
        ),
        (["audits"], {"AUDITS": "OK"}, "the device sent a bare OK to AUDITS, without its data"),
        (
            ["config", "PORT", "difficulty", "teach"],
            {"SET": 'OK {"value": "teach", "applies": "now"}'},
            "the device sent a SET reply without 'key'",
        ),
        (
            ["config", "PORT", "difficulty", "teach"],
            {"SET": 'OK {"key": "difficulty", "value": "teach", "applies": 5}'},
            "the device sent a SET reply with 'applies' = 5, where text belongs",
        ),
        (
            ["audits"],
            {"HELLO": 'OK {"name": "nimatron", "protocol": 2}'},
            "the Nimatron on PORT speaks protocol 2; this tool knows 1",
        ),
        (
            ["play"],
            {"STATE": 'OK {"state": "visitor", "remote_play": true, "position": "3 4 5", "lamps": []}'},
            "the device sent a STATE reply with 'position' = \"3 4 5\", where a list of heap sizes belongs",
        ),
    ],
)
def test_a_device_that_sends_wrong_types_is_one_line_and_exit_1(device, args, answers, message):
    dev = device(**answers)
    argv = [a.replace("PORT", dev.path) for a in args]
    if "PORT" not in args:
        argv.insert(1, dev.path)
    run = nimatron(*argv, stdin="q\n")
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stderr == "nimatron %s: %s\n" % (args[0], message.replace("PORT", dev.path)) or (
        message.replace("PORT", dev.path) in run.stderr and run.stderr.count("\n") == 1
    ), run.stderr


def test_a_newer_firmware_that_cannot_save_is_heard(device):
    """HELLO keys and counters this tool has never heard of are shown, not dropped."""
    hello = json.loads(HELLO)
    hello.update(saving="flash write failed 3 times", problems=["nvm worn"], restored="stored", settings_from="file")
    dev = device(
        HELLO="OK " + json.dumps(hello),
        AUDITS='OK {"started": 2, "finished": 2, "visitor_wins": 0, "machine_wins": 2, "abandoned": 0, '
        '"save_failures": 3, "lifetime": {"games": 9, "save_failures": 3}, "presets": {}}',
        STATE='OK {"state": "attract", "rules": "nim", "position": null, "lamps": []}',
        EVENTS='OK {"events": true}',
    )
    for args in (["audits", dev.path], ["monitor", dev.path, "--games", "0"]):
        run = nimatron(*args)
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines()[:2] == [
            "*** Saving is failing now: flash write failed 3 times (what it counts may be lost when it is switched off)",
            "*** Problems it reports: nvm worn",
        ]
        assert "counters this tool does not know (a newer firmware)\n  save_failures" in run.stdout
    csv = nimatron("audits", dev.path, "--csv").stdout.splitlines()
    row = dict(zip(csv[0].split(","), csv[1].split(",")))
    assert (row["saving"], row["lifetime_save_failures"], row["service_save_failures"]) == (
        "flash write failed 3 times",
        "3",
        "3",
    )


def test_config_of_a_machine_with_32_starts(sim_factory):
    """The whole CONFIG is longer than one reply line: config asks key by key."""
    starts = [[(i + r) % 7 + 1 for r in range(8)] for i in range(32)]  # the most a machine takes
    sim = sim_factory("--board", "pico-grid", "--preset", "nim", "--set", "starts=" + json.dumps(starts))
    run = nimatron("config", sim.path)
    assert run.returncode == 0, run.stderr
    shown = dict(line.split(" = ", 1) for line in run.stdout.splitlines())
    assert json.loads(shown["starts"]) == starts
    assert shown["difficulty"] == "perfect" and shown["preset"] == "nim"


def test_a_second_tool_on_a_busy_port_says_so_and_the_first_goes_on(sim_factory):
    """A monitor holds the port; audits, play, config and ports are told it is
    busy (never "no Nimatron here"), and the monitor keeps watching."""
    sim = sim_factory(*FAST, "--until-killed", script="wait host\nwait 500\npress new\npress row3\npress done\n")
    watch = subprocess.Popen(
        NIMATRON + ["monitor", sim.path, "--json", "--games", "1"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = watch.stdout.readline()  # the first event: the monitor is listening
    busy = "cannot open %s: port busy (another nimatron tool has it open)" % sim.path
    for args in (["audits", sim.path], ["play", sim.path], ["config", sim.path]):
        run = nimatron(*args, stdin="q\n")
        assert run.returncode == 1 and run.stderr == "nimatron %s: %s\n" % (args[0], busy)
    ports = nimatron("ports", sim.path)
    assert ports.returncode == 0 and busy in ports.stdout and "no Nimatron here" not in ports.stdout
    assert watch.poll() is None  # the first tool is untouched
    events = [json.loads(first)]
    while len(events) < 3:  # it goes on watching: the visitor's move, then the machine's
        line = watch.stdout.readline()
        if not line:
            break
        events.append(json.loads(line))
    watch.terminate()
    watch.communicate(timeout=30)
    assert [e["event"] for e in events[:3]] == ["new_game", "move", "move"]


@pytest.mark.parametrize("value, ok", [("7.5", True), ("0", False), ("-1", False), ("soon", False), ("1e9", False)])
def test_the_reply_wait_can_be_set_and_a_bad_value_is_named(value, ok):
    from nimatron_host.cli import UsageError
    from nimatron_host.link import reply_seconds

    if ok:
        assert reply_seconds({"NIMATRON_REPLY_S": value}) == 7.5
    else:
        with pytest.raises(UsageError, match="NIMATRON_REPLY_S must be seconds"):
            reply_seconds({"NIMATRON_REPLY_S": value})
    assert reply_seconds({}) == 3.0


def test_a_bad_reply_wait_is_one_line_not_a_traceback(sim_factory):
    sim = sim_factory()
    done = nimatron("audits", sim.path, env=dict(os.environ, NIMATRON_REPLY_S="soon"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "NIMATRON_REPLY_S must be seconds between 0 and 3600, got 'soon'" in done.stderr


@pytest.mark.parametrize(
    "reply, says",
    [
        ({"saved": True}, "saved for the next start"),
        ({"saved": False, "saving_in_ms": 8500}, "saved for the next start in 9 s"),
        ({"saved": False}, "until the machine restarts"),
        ({"saved": False, "saving_in_ms": "soon"}, "until the machine restarts"),  # a reply it does not know
    ],
)
def test_config_set_says_how_long_a_change_lasts(reply, says):
    from nimatron_host.config import kept

    assert kept(reply) == says
