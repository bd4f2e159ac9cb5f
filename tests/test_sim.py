# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The whole chain on simulated boards: pin -> driver -> controller -> engine
-> driver -> pin, under both drivers (gpiozero's MockFactory on ``pi-leds``;
Blinka's agnostic board on the NeoPixel boards, with ``keypad.Keys`` and
``keypad.KeyMatrix``).

Lamps are always read back from the pins or the NeoPixel bytes, and compared
with the game the controller is playing. Robot visitors
(``nimatron_sim.visitor``) decide from those lamps too.
"""

import json
import os
import runpy
import signal
import subprocess
import sys
import types

import pytest
from kit_sim import FAST, events
from nimatron.config import boards
from nimatron.games import strategy
from nimatron.games.rules import parse_rules
from nimatron_host.cli import main as nimatron
from nimatron_sim import Simulator
from nimatron_sim.visitor import Visitor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
CHAIN = ["pi-leds", "pico-neopixel", "pico-grid", "pico-ring"]  # both drivers, both input models
ROWS = ["pi-leds", "pico-neopixel"]


def lit_rows(sim):
    """The lamps as the pins show them, as booleans per row."""
    return [[bool(x) for x in row] for row in sim.read_lamps()]


def assert_lamps_show_the_game(sim):
    """Read-back lamps == the controller's lamps == its position (steady state)."""
    controller = sim.controller
    assert lit_rows(sim) == controller.panel.lit
    heaps, ring = controller.position()
    lamps = sim.read_lamps()
    rules = controller.rules
    if rules.name == "grundy":
        assert sorted(sum(row) for row in lamps if sum(row)) == sorted(heaps)
    elif rules.name == "circular":
        assert sum(lamps[0]) == sum(heaps)
    else:
        for r, h in enumerate(heaps):
            assert lamps[r] == [1] * h + [0] * (len(lamps[r]) - h)  # lit from the left
    assert sim.read_status()["visitor"] == 1


def begin(sim):
    sim.tap("new")
    assert events(sim, "new_game"), "NEW did not start a game"
    return sim.controller.position()[0]


# -- the chain, both drivers ----------------------------------------------------------


@pytest.mark.parametrize("board", CHAIN)
def test_lamps_read_back_always_equal_the_game_in_steady_states(sims, board):
    sim = sims(board)  # real timings: the machine thinks 1.5 s and blinks its move 1.6 s
    robot = Visitor(sim, "random", seed=7)
    checked = 0
    for _ in range(6):
        robot.turn = None
        robot.tap("new")
        while robot.winner is None:
            if robot.turn == "visitor":
                assert_lamps_show_the_game(sim)
                checked += 1
                before, after = robot.move()
                if robot.turn == "machine":  # thinking: the visitor's move stands on the lamps
                    assert lit_rows(sim) == sim.controller.panel.lit
                    assert sim.controller.position()[0] == after or sorted(sim.controller.position()[0]) == sorted(
                        after
                    )
            else:
                sim.advance(sim.tick_ms)
    assert checked >= 12


@pytest.mark.parametrize("board", ROWS)
def test_a_refused_row_press_leaves_everything_as_it_was(sims, board):
    sim = sims(board)
    heaps = begin(sim)
    sim.tap("row3")
    lamps = sim.read_lamps()
    sim.tap("row1")  # one row per turn
    assert events(sim, "refused")[-1]["reason"].startswith("one row per turn")
    sim.advance(sim.controller.settings["refuse_ms"])
    assert sim.read_lamps() == lamps
    sim.tap("done")
    move = events(sim, "move")[-1]
    assert move["before"] == heaps and move["after"] == heaps[:3] + [heaps[3] - 1]


@pytest.mark.parametrize("board", ROWS)
def test_done_before_taking_is_refused_and_changes_nothing(sims, board):
    sim = sims(board)
    begin(sim)
    lamps = sim.read_lamps()
    sim.tap("done")
    assert events(sim, "refused")[-1]["reason"] == "take at least one lamp before DONE"
    sim.advance(1000)
    assert sim.read_lamps() == lamps and not events(sim, "move")
    assert_lamps_show_the_game(sim)


@pytest.mark.parametrize(
    "board, keys",
    [
        ("pico-grid", ["key 0 0", "key 1 0", "key 1 1"]),  # allheaps: 1 from row 0 and 2 from row 1
        ("pico-ring", ["key 0 3", "key 0 9"]),  # circular: not neighbours
    ],
)
def test_a_refused_selection_restores_every_lamp(sims, board, keys):
    sim = sims(board)
    heaps = begin(sim)
    lamps = sim.read_lamps()
    for key in keys:
        sim.tap(key)
    sim.tap("done")
    assert events(sim, "refused")[-1]["reason"].startswith("not a legal move")
    sim.advance(sim.controller.settings["refuse_ms"])
    assert sim.read_lamps() == lamps and sim.controller.position()[0] == heaps
    assert not events(sim, "move")
    assert_lamps_show_the_game(sim)


@pytest.mark.parametrize("board", ROWS + ["pico-grid"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bouncing_switch_never_takes_twice(sims, board, seed):
    sim = sims(board, seed=seed, bounce=True)
    edges = []
    io = sim.controller.io
    raw = io.events

    def counting():
        got = raw()
        edges.extend(got)
        return got

    io.events = counting
    heaps = begin(sim)
    if board == "pico-grid":
        for i in (6, 5, 4):
            sim.tap("key 3 %d" % i)
    else:
        for _ in range(3):
            sim.tap("row3")
        assert sum(sim.read_lamps()[3]) == heaps[3] - 3
    sim.tap("done")
    move = events(sim, "move")[0]
    assert move["after"] == heaps[:3] + [heaps[3] - 3]
    assert not events(sim, "refused")
    if board == "pi-leds":  # gpiozero passes every chattering edge to the controller
        assert len(edges) > 2 * 5


@pytest.mark.parametrize("board", CHAIN)
def test_walking_away_mid_game_abandons_it_after_a_minute(sims, board):
    sim = sims(board)
    begin(sim)
    key = "row3" if sim.spec["input"] == "rows" else "key 0 0"
    sim.tap(key)  # mid-turn: a lamp taken or selected
    last_input = sim.now - sim.gap_ms - sim.hold_ms
    sim.advance(58000)
    assert not events(sim, "game_over")
    sim.advance(3000)
    over = events(sim, "game_over")
    assert [e["winner"] for e in over] == ["abandoned"]
    assert abs(over[0]["t"] - (last_input + 60000)) <= 25
    assert sim.controller.state == "attract"
    sim.advance(2000)
    assert sum(map(sum, sim.read_lamps())) < sum(map(len, sim.read_lamps()))  # the attract wave
    assert begin(sim)  # ready for the next visitor


@pytest.mark.parametrize("board", ROWS)
def test_a_visitor_who_leaves_after_the_machine_moved_is_abandoned_too(sims, board):
    sim = sims(board, FAST)
    begin(sim)
    sim.tap("row3")
    sim.tap("done")
    sim.advance(100)
    assert events(sim, "move")[-1]["by"] == "machine"
    sim.advance(61000)
    assert events(sim, "game_over")[-1]["winner"] == "abandoned"


@pytest.mark.parametrize("board", CHAIN)
def test_presses_while_the_machine_thinks_are_ignored(sims, board):
    sim = sims(board)
    robot = Visitor(sim, "random", seed=3)
    robot.tap("new")
    robot.move()
    assert robot.turn == "machine"
    visitor_move = events(sim, "move")[-1]
    buttons = ["row0", "row3", "done"] if sim.spec["input"] == "rows" else ["key 0 0", "key 0 1", "done"]
    pressed = 0
    while events(sim, "move")[-1]["by"] != "machine":
        sim.tap(buttons[pressed % len(buttons)], 40, 30)  # 70 ms a press: ends after the move
        pressed += 1
        assert sim.now - visitor_move["t"] < 5000
    assert pressed > 30
    machine = events(sim, "move")[-1]
    assert machine["before"] == visitor_move["after"]
    assert not events(sim, "refused")
    assert len(events(sim, "move")) == 2
    sim.advance(300)
    assert_lamps_show_the_game(sim)
    assert sim.controller.position()[0] == machine["after"]  # nothing queued into the visitor's turn


def test_the_same_script_gives_the_same_output_every_time(capsys):
    script = "press new\npress row3\nbounce on\npress row3\npress done\nwait 4000\n"
    outs = []
    for _ in range(2):
        sys.stdin = _Stdin(script)
        try:
            assert nimatron(["sim", "--headless", "--board", "pico-neopixel", "--seed", "5", "--script", "-"]) == 0
        finally:
            sys.stdin = sys.__stdin__
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]


class _Stdin:
    def __init__(self, text):
        self.text = text

    def read(self):
        return self.text


# -- the headless CLI -------------------------------------------------------------------


def run_cli(args, capsys, script=None, tmp_path=None):
    if script is not None:
        path = tmp_path / "script.txt"
        path.write_text(script)
        args = args + ["--script", str(path)]
    code = nimatron(["sim"] + args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("board", ["pi-leds", "pi-neopixel"])
def test_headless_prints_lamp_changes_and_events_as_json_lines(capsys, tmp_path, board):
    code, out, err = run_cli(
        ["--headless", "--board", board],
        capsys,
        "# take two from the last row\npress new\npress row3\npress row3\nhold done 80\nwait 4000\n",
        tmp_path,
    )
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert all("t" in x for x in lines)
    assert [x["t"] for x in lines] == sorted(x["t"] for x in lines)
    kinds = [x.get("event") for x in lines if "event" in x]
    assert kinds == ["boot", "new_game", "move", "move"]  # the boot event first: what survived, who it is
    moves = [x for x in lines if x.get("event") == "move"]
    assert moves[0]["by"] == "visitor" and moves[0]["after"][3] == moves[0]["before"][3] - 2
    last = [x for x in lines if "lamps" in x][-1]
    after = moves[1]["after"]
    assert [sum(row) for row in last["lamps"]] == after and last["status"]["visitor"] == 1
    assert set(last["status"]) == {"visitor", "machine", "champ", "machine_wins"}


def test_list_boards(capsys):
    code, out, err = run_cli(["--list-boards"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert "pi-leds gpiozero rows" in lines and "pico-grid circuitpython grid" in lines
    assert len(lines) == len(boards.names())


@pytest.mark.parametrize(
    "script, message",
    [
        ("press new\npress row9\n", "script line 2: no button 'row9'"),
        ("press new\n\n# fine\nwait soon\n", "script line 4: bad number 'soon'"),
        ("wait -5\n", "script line 1: bad number '-5'"),
        ("press new\njump row1\n", "script line 2: unknown action 'jump'"),
        ("hold done\n", "script line 1: hold needs a button and milliseconds"),
        ("bounce maybe\n", "script line 1: bounce on, or bounce off"),
        ("press\n", "script line 1: which button?"),
        ("press key 0 0\n", "script line 1: no button 'key 0 0'"),
        (
            "press new\nwait 99999999999999999999999999\n",
            "script line 2: a 26-digit number of ms is too long (at most 86400000",
        ),
        ("hold done 86400001\n", "script line 1: 86400001 ms is too long (at most 86400000, 24 hours"),
        ("wait host x\n", "script line 1: wait needs milliseconds"),
        ("press new\n" + "x" * 5000 + "\n", "script line 2: longer than 1000 bytes"),
    ],
)
def test_a_bad_script_exits_2_naming_its_line_before_running_anything(capsys, tmp_path, script, message):
    code, out, err = run_cli(["--headless", "--board", "pico-neopixel"], capsys, script, tmp_path)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert out == ""


def test_a_binary_file_as_script_is_one_line_and_exit_2(capsys, tmp_path):
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe" * 40)
    assert nimatron(["sim", "--headless", "--script", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == "nimatron sim: error: script line 1: not text (is this a script? a binary file cannot run)\n"
    path.write_bytes(b"press new\n\xc3\x28\n")  # invalid UTF-8 on line 2
    assert nimatron(["sim", "--headless", "--script", str(path)]) == 2
    assert "script line 2: not text" in capsys.readouterr().err


@pytest.mark.parametrize("tick", ["0", "1001", "1000000"])
def test_a_tick_beyond_1_to_1000_ms_is_refused(capsys, tick):
    assert nimatron(["sim", "--headless", "--tick", tick, "--script", os.devnull]) == 2
    assert capsys.readouterr().err == "nimatron sim: error: --tick must be 1 to 1000 ms, got %s\n" % tick


def test_a_long_script_is_read_as_it_plays_not_held(tmp_path, monkeypatch):
    """The script is checked whole, then read again line by line as it runs:
    the simulator never holds more than one line of it."""
    from nimatron_sim import script

    path = tmp_path / "long.txt"
    path.write_text("press new\n" + "wait 0\n# a comment\n" * 5000 + "press row3\n")
    held = []
    real = script.lines

    def watched(f):
        for line in real(f):
            held.append(f.tell())
            yield line

    monkeypatch.setattr(script, "lines", watched)
    source = script.Script(str(path))
    source.check()
    steps = source.actions()
    first = next(steps)
    assert first == (1, "press", ("new",))
    assert held[-1] < 100  # the first action came after reading one line, not the file
    assert sum(1 for _ in steps) == 5001
    source.close()


def test_wait_host_without_a_host_link_is_a_no_op(capsys, tmp_path):
    code, out, err = run_cli(["--headless", "--board", "pi-leds"], capsys, "wait host\npress new\n", tmp_path)
    assert code == 0, err
    assert '"new_game"' in out


def test_grid_keys_are_buttons_in_scripts(capsys, tmp_path):
    code, out, err = run_cli(
        ["--headless", "--board", "pico-grid"],
        capsys,
        "press new\npress key 3 6\npress key 3 5\npress done\nwait 100\n",
        tmp_path,
    )
    assert code == 0, err
    moves = [json.loads(x) for x in out.splitlines() if '"move"' in x]
    assert moves[0]["after"][3] == moves[0]["before"][3] - 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["--headless", "--board", "pi-zero"], "unknown board 'pi-zero'"),
        (["--headless", "--preset", "tic-tac-toe"], "unknown preset 'tic-tac-toe'"),
        (["--headless", "--difficulty", "easy"], "difficulty must be one of"),
        (
            ["--headless", "--board", "pico-neopixel", "--preset", "100"],
            "needs 100 pixels after pixel 4; the panel has 28 lamp holes",
        ),
        (["--headless", "--board", "pico-neopixel", "--rules", "moore:2"], "use a grid board"),
        (["--headless", "--script", "/nonexistent/script"], "cannot read script"),
        (["--headless", "--tick", "0"], "--tick"),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, args, message):
    code, out, err = run_cli(args, capsys)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_options_reach_the_settings(capsys, tmp_path):
    code, out, err = run_cli(
        ["--headless", "--board", "pico-neopixel", "--rules", "subtract:3", "--misere", "--set", "starts=[[5,6,7,7]]"],
        capsys,
        "press new\n",
        tmp_path,
    )
    assert code == 0, err
    game = json.loads([x for x in out.splitlines() if "new_game" in x][0])
    assert game["rules"] == "subtract:3" and game["misere"] is True and game["position"] == [5, 6, 7, 7]


def test_until_killed_keeps_running_in_real_time_and_stops_cleanly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "nimatron_host.cli", "sim", "--headless", "--board", "pi-leds", "--until-killed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert json.loads(proc.stdout.readline())["event"] == "boot"
        first = json.loads(proc.stdout.readline())  # the attract wave starts at once
        second = json.loads(proc.stdout.readline())  # and moves on in real time
        assert first["t"] == 0 and 0 < second["t"] <= 1500
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        proc.kill()


# -- the firmware entry points ------------------------------------------------------------


def start_pi(state):
    """``python -m nimatron`` on mock pins; returns (process, its boot event) once it plays."""
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    proc = subprocess.Popen(
        [sys.executable, "-m", "nimatron", "--board", "pi-leds", "--state", str(state)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    boot = json.loads(proc.stdout.readline())  # running: a signal now meets the main loop, not the imports
    assert boot["event"] == "boot" and boot["board"] == "pi-leds"
    return proc, boot


def test_python_m_nimatron_runs_on_mock_pins_and_exits_cleanly_on_ctrl_c(tmp_path):
    proc, boot = start_pi(tmp_path / "state.bin")
    assert boot["reset_reason"] == "power_on"  # no earlier run in this boot of the computer
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    assert "Traceback" not in proc.stderr.read()


def test_a_pi_tells_a_clean_restart_from_a_killed_run(tmp_path):
    state = tmp_path / "state.bin"
    for signum, _next_reason in ((signal.SIGTERM, "software"), (signal.SIGKILL, "watchdog")):
        proc, boot = start_pi(state)
        proc.send_signal(signum)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
    proc, boot = start_pi(state)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 0
    assert boot["reset_reason"] == "watchdog"
    lifetime = boot["audits"]["lifetime"]
    assert lifetime["power_ups"] == 3 and lifetime["software_resets"] == 1 and lifetime["watchdog_resets"] == 1


def test_a_new_boot_of_the_pi_is_a_power_on(tmp_path):
    from nimatron.__main__ import RunMarker

    boot_id = tmp_path / "boot_id"
    boot_id.write_text("aaaa\n")
    marker = RunMarker(str(tmp_path / "state.bin.run"), str(boot_id))
    assert marker.start() == "power_on"
    marker.stop()
    assert RunMarker(marker.path, str(boot_id)).start() == "software"
    boot_id.write_text("bbbb\n")  # the Pi lost power while running, and came back
    assert RunMarker(marker.path, str(boot_id)).start() == "power_on"
    assert RunMarker(marker.path, str(tmp_path / "none")).start() == "power_on"  # no boot id: no claim


def test_python_m_nimatron_names_a_bad_board():
    done = subprocess.run(
        [sys.executable, "-m", "nimatron", "--board", "pi-zero"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 2 and "unknown board 'pi-zero'" in done.stderr


def test_boot_py_opens_the_data_channel(monkeypatch):
    calls = []
    monkeypatch.setitem(sys.modules, "usb_cdc", types.SimpleNamespace(enable=lambda **kw: calls.append(kw)))
    runpy.run_path(os.path.join(FIRMWARE, "boot.py"))
    assert calls == [{"console": True, "data": True}]


# -- statistics: many games through the whole stack ------------------------------------------


def machine_could_win(rules, misere, moves):
    """True if the machine ever faced a position it could win with perfect play."""
    for k, move in enumerate(moves):
        if move["by"] == "machine":
            ring = rules.has_ring and k == 0
            if strategy.solve(rules, move["before"], misere, ring)["outcome"] == "win":
                return True
    return False


# The grid and ring games are the suite's longest (20-60 s each at 1,000 on a
# loaded 2-core machine): 400 each in the suite, 1,000 with NIMATRON_SIM_GAMES=1000.
GRID_GAMES = int(os.environ.get("NIMATRON_SIM_GAMES", "400"))


@pytest.mark.parametrize(
    "board, preset, games",
    [
        ("pico-neopixel", "nimatron", 1000),  # Nim, nine 1940 starts
        ("pi-leds", "marienbad", 1000),  # misère Nim, on gpiozero
        ("pico-neopixel", "subtract", 1000),
        ("pico-neopixel", "21", 1000),  # misère subtraction, one row of 21
        ("pico-neopixel", "greedy", 1000),
        ("pico-grid", "moore", GRID_GAMES),
        ("pico-grid", "allheaps", GRID_GAMES),
        ("pico-grid", "grundy", GRID_GAMES),
        ("pico-ring", "circular", GRID_GAMES),
    ],
)
def test_the_perfect_machine_never_loses_a_winnable_game(sims, board, preset, games):
    sim = sims(board, dict(FAST, preset=preset), seed=11)
    robot = Visitor(sim, "random", seed=sum(map(ord, preset)), hold_ms=40, gap_ms=40)
    winnable = 0
    for _ in range(games):
        result = robot.play_game()
        rules = parse_rules(result["game"]["rules"])
        if machine_could_win(rules, result["game"]["misere"], result["moves"]):
            winnable += 1
            assert result["winner"] == "machine", result
        assert result["winner"] in ("machine", "visitor")
    assert winnable > games // 2  # a random visitor gives the machine plenty of chances


def perfect_visitor_wins(sims, board, overrides, games, seed=5):
    sim = sims(board, dict(FAST, **overrides), seed=seed)
    robot = Visitor(sim, "perfect", seed=seed, hold_ms=40, gap_ms=40)
    return sum(robot.play_game()["winner"] == "visitor" for _ in range(games))


def test_dr_nims_equalizer_lets_a_perfect_visitor_win(sims):
    # Dr. NIM: 15 marbles, take 1-3, the machine first: 15 is a won start for it...
    assert perfect_visitor_wins(sims, "pico-neopixel", {"preset": "drnim", "difficulty": "perfect"}, 50) == 0
    # ...until the equalizer's gentle first move hands the win to a visitor who never errs
    assert perfect_visitor_wins(sims, "pico-neopixel", {"preset": "drnim"}, 200) == 200


def test_a_fallible_machine_lets_a_perfect_visitor_win_sometimes(sims):
    won_start = {"preset": "nim", "first": "machine"}  # 3 4 5 7: the first player wins
    assert perfect_visitor_wins(sims, "pico-neopixel", dict(won_start, difficulty="perfect"), 100) == 0
    wins = perfect_visitor_wins(sims, "pico-neopixel", dict(won_start, difficulty="fallible"), 400)
    assert 0.2 * 400 < wins < 400


def test_a_long_bouncy_run_keeps_no_history_of_pin_changes():
    """gpiozero's MockPin records every change of every pin; with bounce on, a
    button makes several per press. The bench trims them (lamps and buttons),
    so a soak of thousands of games stays flat in memory."""
    from nimatron_sim.bench import KEPT_STATES

    with Simulator("pi-leds", {"think_ms": 0, "show_ms": 0}, seed=3, bounce=True) as sim:
        for _ in range(60):
            sim.tap("new")
            sim.tap("row3")
            sim.tap("done")
            sim.advance(200)
        pins = list(sim.bench.factory.pins.values())
        assert len(pins) >= 20
        assert max(len(pin.states) for pin in pins) <= KEPT_STATES


def test_the_presets_a_board_starts_with():
    """What tools/emu_board.py measures per board: a pin map's own list, else what a start can build."""
    from nimatron.config import boards
    from nimatron_sim.engine import playable_presets

    assert playable_presets("macropad") == list(boards.board("macropad")["presets"])
    ring = playable_presets("pico-ring")
    assert "drnim" in ring and "nimatron" not in ring  # Dr. NIM's 15 marbles need the ring's row
    assert "graph" in playable_presets("pico-grid") and "graph" not in playable_presets("pico-neopixel")


def test_emu_board_refuses_frozen_with_mpy():
    """tools/emu_board.py: frozen firmware has its modules in flash, so .mpy on the drive is a usage error."""
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "emu_board.py"), "--frozen", "--mpy"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "--frozen and --mpy" in done.stderr and "Traceback" not in done.stderr


def test_emu_board_says_when_the_profile_has_no_symbols(tmp_path):
    """tools/emu_board.py --profile needs the firmware's ELF: anything else is
    said in words with exit status 2, before any emulator is looked for."""
    junk = tmp_path / "firmware.elf"
    junk.write_text("not an ELF file\n")
    for path in (str(junk), str(tmp_path / "missing.elf")):
        done = subprocess.run(
            [sys.executable, os.path.join(ROOT, "tools", "emu_board.py"), "--profile", path],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 2, done.stderr
        assert "cannot read the symbols of" in done.stderr and "Traceback" not in done.stderr


def test_emu_board_profile_reads_the_functions_it_names(tmp_path):
    """The symbols --profile hands the emulator: every function by address
    (sorted, for the sampled instructions) and the named ones; read from a
    real ELF made here when the ARM toolchain is present."""
    import shutil

    if not (shutil.which("arm-none-eabi-gcc") and shutil.which("arm-none-eabi-nm")):
        pytest.skip("no ARM toolchain (arm-none-eabi-gcc)")
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import emu_board
    finally:
        sys.path.pop(0)
    src = tmp_path / "f.c"
    src.write_text("int gc_collect(int x) { return x + 1; }\nint other(int x) { return gc_collect(x) * 2; }\n")
    elf = tmp_path / "f.elf"
    subprocess.run(["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m0plus", "-c", "-o", str(elf), str(src)], check=True)
    path = emu_board.profile_symbols(str(elf))
    assert path is not None
    with open(path) as f:
        found = json.load(f)
    os.unlink(path)
    names = [name for _, name in found["_table"]]
    assert "gc_collect" in found and "gc_collect" in names and "other" in names
    assert [a for a, _ in found["_table"]] == sorted(a for a, _ in found["_table"])
