# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Boards with everything built in: the MacroPad RP2040 and the Circuit
Playground, through the real ``onboard`` driver on Blinka's mocked pins.

Robot visitors play whole games by pressing the boards' own buttons (the
MacroPad's keys and encoder switch; the Circuit Playground's A, B, A+B and
slide switch through the cursor), reading the lamps back from the NeoPixel
bytes, and every move is judged by the exhaustive oracle (``tests/oracle``).
"""

import json
import os
import subprocess
import sys

import pytest
from nimatron.config import boards
from nimatron.config.boards import DriverError
from nimatron.drivers import open_io
from nimatron.drivers.cursor import CURSOR_MS
from nimatron.drivers.presses import HOLD_MS, Presses
from nimatron.games.rules import parse_rules
from nimatron.machine.ports import CURSOR, LIT, OFF
from nimatron_host.cli import main as nimatron
from nimatron_sim.visitor import Visitor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kit_sim import judge, oracle_for

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAST = {"think_ms": 0, "show_ms": 0}


def game(sim):
    """The game's events (sounds left out)."""
    return [e for e in sim.log if e["event"] != "sound"]


def lit(sim):
    return [[bool(x) for x in row] for row in sim.read_lamps()]


@pytest.mark.parametrize(
    "board, preset, games",
    [
        ("macropad", "pad-nim", 12),
        ("macropad", "pad-moore", 8),
        ("macropad", "pad-marienbad", 8),
        ("circuitplayground", "circle10", 12),  # the seeds' circle of ten
        ("circuitplayground", "arcs", 8),  # Nim 2-3-5 on arcs of the ring
    ],
)
def test_robots_play_whole_games_judged_by_the_oracle(sims, board, preset, games):
    sim = sims(board, dict(FAST, preset=preset), seed=7)
    robot = Visitor(sim, "random", seed=len(preset), hold_ms=40, gap_ms=40)
    for _ in range(games):
        result = robot.play_game()
        game = result["game"]
        assert result["winner"] in ("machine", "visitor")
        judge(game["rules"], game["misere"], game["position"], result["moves"])
        assert sum(map(sum, sim.read_lamps())) == 0 or result["winner"] == "visitor"


@pytest.mark.parametrize("board, preset", [("macropad", "pad-nim"), ("circuitplayground", "arcs")])
def test_a_perfect_visitor_wins_every_winnable_start(sims, board, preset):
    sim = sims(board, dict(FAST, preset=preset), seed=3)
    robot = Visitor(sim, "perfect", seed=1, hold_ms=40, gap_ms=40)
    for _ in range(6):
        result = robot.play_game()
        o = oracle_for(result["game"]["rules"])
        assert o.win(result["game"]["position"], result["game"]["misere"])
        assert result["winner"] == "visitor", result


def test_macropad_keys_are_the_lamps_above_them(sims):
    sim = sims("macropad", FAST)
    sim.tap("done")  # attract: any press plays
    assert sim.controller.position() == ([2, 3, 4], False)
    assert lit(sim) == sim.controller.panel.lit  # read back from the NeoPixel bytes
    data = sim.bench._frames[sim.bench._id["NEOPIXEL"]]
    lit_pixels = [p for p in range(12) if any(data[3 * p : 3 * p + 3])]
    # each column of keys is a row of the game, lit from the bottom key up
    assert lit_pixels == sorted([9, 6] + [10, 7, 4] + [11, 8, 5, 2])
    sim.tap("key 2 3")  # KEY3, top right: the fourth lamp of row C
    assert sim.controller.selected == [(2, 3)]
    sim.tap("done")
    sim.advance(200)
    assert game(sim)[-1]["event"] == "move" and game(sim)[-2]["after"] == [2, 3, 3]


@pytest.mark.parametrize("reads_back", ["its level", "0 (rp2040js)"])
def test_macropad_led_is_the_visitors_turn_whatever_an_output_reads_back(sims, monkeypatch, reads_back):
    """The red LED is the MacroPad's only "your turn" lamp: DONE's own pass
    puts it out, even when the selection's blink is dark and no key
    changes. The driver decided from the pin's read-back; in the emulated
    RP2040 an output reads 0, so the LED never went out there (DONE to a
    changed lamp 66 ms on pad-moore). It keeps what it wrote instead."""
    sim = sims("macropad", {"think_ms": 400, "show_ms": 400})
    bench = sim.bench
    led = bench._id["LED"]
    if reads_back != "its level":
        level = bench.level
        monkeypatch.setattr(bench, "level", lambda pin_id: 0 if pin_id == led else level(pin_id))
    sim.tap("done")  # attract: any press plays
    sim.advance(100)
    assert sim.controller.state == "visitor" and sim.read_status()["visitor"] == 1
    sim.tap("key 2 3")
    sim.tap("done")
    assert sim.controller.state in ("thinking", "showing") and sim.read_status()["visitor"] == 0
    for _ in range(100):
        if sim.controller.state != "thinking" and sim.controller.state != "showing":
            break
        sim.advance(50)
    assert sim.controller.state == "visitor" and sim.read_status()["visitor"] == 1


def test_macropad_key_queues_hold_a_press_and_release_of_every_key_not_keypads_64_events(sims):
    """``keypad``'s event queues default to 64 events of 6 bytes each: 768
    bytes of a stock MacroPad's heap for its 12 keys and the encoder's
    switch, read every pass of the main loop. Each now holds a press and a
    release of every key (24 and 4 events), and 12 keys pressed and let go
    between two reads still arrive, every one."""
    sim = sims("macropad", FAST)
    scanners = sim.controller.io._scanners
    assert [len(roles) for _, roles in scanners] == [12, 1]
    assert [keys.events._events.maxlen for keys, _ in scanners] == [24, 4]
    sim.tap("done")  # attract: any press plays
    sim.advance(200)
    queue = scanners[0][0].events
    for k in range(12):
        queue.keypad_eventqueue_record(k, True)
    for k in range(12):
        queue.keypad_eventqueue_record(k, False)
    assert not queue.overflowed
    from nimatron.drivers.circuitpython_io import CircuitPythonIO

    edges = CircuitPythonIO.events(sim.controller.io)  # the scanners' edges, before the presses read them
    assert sorted(edges) == sorted(
        [
            ("key %d %d" % place, pressed)
            for pressed in (True, False)
            for place in [(r, i) for r in range(3) for i in range(4)]
        ]
    )


def test_macropad_a_long_press_of_the_encoder_is_new_game(sims):
    sim = sims("macropad", FAST)
    sim.tap("done")
    sim.tap("key 0 1")
    sim.tap("done", hold_ms=HOLD_MS + 100)  # held: NEW GAME, never DONE
    kinds = [e["event"] for e in game(sim)]
    assert kinds == ["new_game", "game_over", "new_game"] and game(sim)[1]["winner"] == "abandoned"
    assert "move" not in kinds


def test_macropad_encoder_chooses_the_game_in_attract_mode_only(sims):
    sim = sims("macropad", dict(FAST, think_ms=700))
    assert sim.controller.settings["preset"] == "pad-nim"
    sim.tap("cw")
    assert sim.controller.settings["preset"] == "pad-nimrod" and sim.controller.settings["think_ms"] == 700
    sim.tap("ccw")
    sim.tap("ccw")
    assert sim.controller.settings["preset"] == "pad-marienbad" and sim.controller.misere
    assert [e["preset"] for e in sim.log if e["event"] == "preset"] == ["pad-nimrod", "pad-nim", "pad-marienbad"]
    sim.tap("done")
    assert game(sim)[-1]["event"] == "new_game" and game(sim)[-1]["position"] == [1, 3, 4]
    sim.tap("cw")  # mid-game the encoder changes nothing
    assert sim.controller.settings["preset"] == "pad-marienbad"


def cursor_lamp(sim):
    """Where the cursor shows, from the pixel colours (None in its off half)."""
    return Visitor(sim).cursor(wait_ms=0)


def test_playground_cursor_blinks_slowly_over_lamps_in_play_on_the_visitors_turn_only(sims):
    sim = sims("circuitplayground", dict(FAST, preset="arcs"))
    sim.advance(2000)
    assert cursor_lamp(sim) is None  # attract: no cursor
    sim.tap("b")  # any button starts a game
    assert sim.controller.state == "visitor"
    seen = []
    for _ in range(60):  # 3 s sampled every 50 ms
        seen.append(cursor_lamp(sim))
        sim.advance(50)
    assert set(seen) == {None, (0, 0)}
    flashes = sum(1 for a, b in zip(seen, seen[1:]) if a is None and b is not None)
    assert 1 <= flashes <= 3 * 3  # at most 3 a second
    # the cursor is dim and cooler than a lamp: not colour alone, it blinks
    sim.tap("a")
    sim.tap("a")
    assert cursor_lamp(sim) == (1, 0)  # past row A's two lamps onto row B


def test_playground_b_selects_a_plus_b_is_done_and_never_selects(sims):
    sim = sims("circuitplayground", dict(FAST, preset="arcs"))
    sim.tap("b")
    for _ in range(4):
        sim.tap("a")  # (0,0) -> (0,1) (1,0) (1,1) (1,2)
    assert cursor_lamp(sim) == (1, 2)
    sim.tap("b")
    assert sim.controller.selected == [(1, 2)]
    sim.tap("b")
    assert sim.controller.selected == []  # B again deselects
    sim.tap("b")
    sim.tap("a+b")  # DONE, with nothing else selected or moved
    sim.advance(100)
    moves = [e for e in game(sim) if e["event"] == "move"]
    assert moves[0]["by"] == "visitor" and moves[0]["after"] == [2, 2, 5]


def test_playground_the_slide_switch_is_done_each_way(sims):
    sim = sims("circuitplayground", FAST)
    sim.tap("slide")  # attract: starts a game
    assert sim.controller.state == "visitor"
    sim.tap("b")
    sim.tap("slide")  # flipped back: DONE again
    sim.advance(100)
    assert [e["event"] for e in game(sim)][:3] == ["new_game", "move", "move"]
    assert game(sim)[1]["after"] == [9]


def test_playground_holding_a_and_b_is_new_game(sims):
    sim = sims("circuitplayground", FAST)
    sim.tap("b")
    sim.tap("b")
    sim.tap("a+b", hold_ms=HOLD_MS + 100)
    assert [e["event"] for e in game(sim)] == ["new_game", "game_over", "new_game"]
    assert sim.controller.selected == []


def test_playground_buttons_read_high_when_pressed_and_the_led_is_your_turn(sims):
    sim = sims("circuitplayground", FAST)
    bench = sim.bench
    a = bench._id["BUTTON_A"]
    assert bench.level(a) == 0  # pulled down at rest
    sim.press("a")
    assert bench.level(a) == 1
    sim.advance(60)
    sim.release("a")
    sim.advance(100)
    assert sim.read_status()["visitor"] == 1 and sim.controller.state == "visitor"
    sim.tap("b")
    sim.tap("a+b")
    sim.advance(5)
    assert sim.controller.state in ("thinking", "showing", "visitor")


def test_presses_are_pure_logic_any_board_can_reuse():
    spec = {
        "buttons": {"x": "P1", "y": "P2"},
        "cursor": {"move": "x", "select": "y"},
        "presses": {"x+y": "done"},
        "holds": {"x+y": "new"},
    }
    p = Presses(spec)

    class Game:
        state = "visitor"

        class panel:
            lit = [[True, False, True]]

    p.watch(Game, 0)
    assert p.shown(0) == (0, 0) and p.shown(CURSOR_MS) is None
    p.feed("x", True, 0)
    p.feed("x", False, 100)
    assert not p.update(100)  # a cursor move is no core press
    assert p.at == (0, 2)  # the dark lamp is skipped
    p.feed("y", True, 200)
    p.feed("y", False, 300)
    assert p.update(300) == [("key 0 2", True), ("key 0 2", False)]
    assert p.overlay([[LIT, OFF, LIT]], 300) == [[LIT, OFF, CURSOR]]
    p.feed("x", True, 400)
    p.feed("y", True, 420)
    p.feed("y", False, 500)
    p.feed("x", False, 520)
    assert p.update(520) == [("done", True), ("done", False)]
    Game.state = "thinking"
    p.watch(Game, 600)
    assert p.shown(600) is None


def test_presses_runs_under_micropython():
    from mpy_runner import micropython

    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    code = (
        "from nimatron.drivers.presses import Presses\n"
        "p = Presses({'buttons': {'done': 'B'}, 'holds': {'done': 'new'}})\n"
        "p.feed('done', True, 0); assert not p.update(0)\n"
        "assert p.update(1600) == [('new', True)]\n"
        "p.feed('done', False, 1700); assert p.update(1700) == [('new', False)]\n"
        "import nimatron.drivers.onboard_io, nimatron.drivers.tone\n"
        "from nimatron.machine.sound import Sound\n"
        "class T:\n    def play(self, hz, v): print('play', hz)\n    def stop(self): pass\n"
        "s = Sound(T()); s.hear({'event': 'refused'}); s.update(0)\n"
        "print('ok')\n"
    )
    done = subprocess.run([micropython(), "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.split() == ["play", "110", "ok"], done.stderr


def test_pin_maps_are_checked():
    spec = json.loads(json.dumps(boards.board("circuitplayground")))
    boards.check("circuitplayground", spec)
    del spec["status_led"]
    with pytest.raises(boards.BoardError, match="more pixels"):
        boards.check("x", spec)
    spec = json.loads(json.dumps(boards.board("macropad")))
    spec["holds"] = {}
    with pytest.raises(boards.BoardError, match="button new is not wired"):
        boards.check("x", spec)
    spec = json.loads(json.dumps(boards.board("macropad")))
    spec["keys"][3] = "KEY1"
    with pytest.raises(boards.BoardError, match="pin KEY1 is used twice"):
        boards.check("x", spec)


def test_the_onboard_driver_names_a_missing_pin():
    from nimatron_sim.bench import BlinkaBench

    spec = boards.board("macropad")
    bench = BlinkaBench(spec)
    try:
        broken = dict(spec, encoder=["ROTA", "NOPE"])
        with pytest.raises(DriverError, match="no pin NOPE"):
            bench.open(lambda: open_io(broken, [4, 4, 4]))
    finally:
        bench.close()


def run_cli(args, capsys, script):
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "boards-%d.txt" % os.getpid())
    with open(path, "w") as f:
        f.write(script)
    try:
        code = nimatron(["sim", "--headless", "--script", path] + args)
    finally:
        os.unlink(path)
    out, err = capsys.readouterr()
    return code, [json.loads(x) for x in out.splitlines()], err


def test_headless_scripts_press_the_boards_own_buttons(capsys):
    code, lines, err = run_cli(
        ["--board", "circuitplayground", "--preset", "arcs", "--set", "think_ms=0", "--set", "show_ms=0"],
        capsys,
        "press b\npress a\npress a\npress a\npress b\npress a+b\nwait 200\n",
    )
    assert code == 0, err
    moves = [x for x in lines if x.get("event") == "move"]
    assert moves[0]["before"] == [2, 3, 5] and moves[0]["after"] == [2, 2, 5]
    code, lines, err = run_cli(
        ["--board", "macropad"],
        capsys,
        "press cw\npress done\npress key 2 3\nhold done 200\nwait 100\nhold done 1600\n",
    )
    assert code == 0, err
    kinds = [x["event"] for x in lines if "event" in x and x["event"] != "sound"]
    assert kinds == ["boot", "preset", "new_game", "move", "game_over", "new_game"]
    clicks = [x["t"] for x in lines if x.get("event") == "sound" and x["name"] == "click"]
    assert clicks and 0 <= clicks[0] - moves_t(lines) <= 10  # sounds in headless output, as the lamp goes out


def moves_t(lines):
    return [x for x in lines if x.get("event") == "move"][0]["t"]


def test_list_boards_names_the_new_boards(capsys):
    assert nimatron(["sim", "--list-boards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "macropad onboard grid" in out and "circuitplayground onboard grid" in out


# -- sound ----------------------------------------------------------------------------


def sounds(sim):
    return [e["name"] for e in sim.log if e["event"] == "sound"]


@pytest.mark.parametrize("board, preset", [("macropad", "pad-nim"), ("circuitplayground", "arcs")])
def test_the_sounds_of_a_whole_game(sims, board, preset):
    sim = sims(board, {"preset": preset, "think_ms": 800, "show_ms": 400})
    robot = Visitor(sim, "perfect", seed=2, hold_ms=40, gap_ms=40)
    result = robot.play_game()
    sim.advance(2000)
    assert result["winner"] == "visitor"
    heard = sounds(sim)
    lamps = sum(result["game"]["position"])
    assert heard.count("click") == lamps  # one click per lamp put out
    visitor_moves = [m for m in result["moves"] if m["by"] == "visitor"]
    assert heard.count("chatter") == len(visitor_moves) - 1  # the machine thinks after all but the last
    assert heard[-1] == "champ" and "machine_wins" not in heard
    assert sim.bench.tones and sim.bench.tones[-1][1] == 0  # the speaker's PWM fell silent at the end
    # each sound starts as the lamps go out: the machine's clicks come with its move
    kinds = [(e["event"], e.get("name"), e.get("by")) for e in sim.log if e["event"] in ("move", "sound")]
    first_machine = kinds.index(("move", None, "machine"))
    assert kinds[first_machine + 1] == ("sound", "click", None)


def test_the_machines_win_and_a_refusal_sound_differently_and_volume_0_is_silent(sims):
    sim = sims("macropad", dict(FAST, preset="pad-nim"))
    sim.tap("done")
    sim.tap("done")  # DONE with nothing selected: refused
    sim.advance(300)
    assert sounds(sim) == ["buzz"]
    robot = Visitor(sim, "random", seed=5, hold_ms=40, gap_ms=40)
    while robot.play_game()["winner"] != "machine":
        pass
    sim.advance(2000)
    assert sounds(sim)[-1] == "machine_wins"
    quiet = sims("macropad", dict(FAST, preset="pad-nim", volume=0))
    Visitor(quiet, "random", seed=5, hold_ms=40, gap_ms=40).play_game()
    quiet.tap("done")
    quiet.advance(3000)
    assert sounds(quiet) == [] and all(duty == 0 for _, duty in quiet.bench.tones)


def test_sound_never_waits_hear_only_queues_and_update_plays_what_is_due():
    from nimatron.machine.sound import CHAMP, Sound

    calls = []

    class Speaker:
        def play(self, hz, volume):
            calls.append(("play", hz, volume))

        def stop(self):
            calls.append(("stop",))

    sound = Sound(Speaker(), volume=3)
    sound.update(1000)
    sound.hear({"event": "game_over", "winner": "visitor"})
    assert calls == []  # hearing plays nothing
    sound.update(1000)
    assert calls == [("play", CHAMP[0][1], 3)]
    sound.update(1000 + CHAMP[0][2])
    assert calls[-1] == ("stop",)
    sound.update(100000)  # a stalled loop skips to the last note due
    assert calls[-1] == ("play", CHAMP[-1][1], 3) and len(calls) == 3
    sound.update(100000 + CHAMP[-1][2])
    assert not sound.busy() and calls[-1] == ("stop",)


@pytest.mark.parametrize("value", [11, -1, "loud", True])
def test_volume_is_checked(value):
    from nimatron.config.settings import SettingsError, resolve

    assert resolve({"volume": 0})["volume"] == 0
    with pytest.raises(SettingsError, match="volume"):
        resolve({"volume": value})


# -- the MacroPad's OLED --------------------------------------------------------------


def drawn(text, y):
    """The pixels the terminal font draws for ``text`` at line ``y`` (a fresh display)."""
    import displayio
    import terminalio
    from adafruit_display_text import label
    from nimatron_sim.oled_mock import make_display

    display = make_display()
    group = displayio.Group()
    group.append(label.Label(terminalio.FONT, text=text, color=0xFFFFFF, x=0, y=y))
    display.root_group = group
    display.refresh()
    return display.bus_pixels


def test_bench_displays_stay_out_of_displayios_pool_and_its_thread_lives(sims):
    """displayio's background thread refreshes every display in its pool; a
    bench display is never there, not even half-built (the thread died on
    one once: 'BusDisplay' object has no attribute '_auto_refresh')."""
    sims("macropad", FAST)  # the simulator's Blinka first, as every OLED test
    import displayio
    from nimatron_sim.oled_mock import make_display

    made = [make_display() for _ in range(20)]
    assert not [d for d in displayio.displays if d in made]
    assert displayio.background_thread.is_alive()


def test_a_display_half_built_for_long_is_never_refreshed(sims, monkeypatch):
    """The same race, widened: a BusDisplay joins the pool in ``__new__`` and
    sets itself up in ``__init__``; with 30 ms between them displayio's thread
    (every 1 ms) would meet it half-built and die, as it did once in a loaded
    suite. The pool it joins while it is built shows the thread nothing."""
    sims("macropad", FAST)
    import time

    import displayio
    from nimatron_sim.oled_mock import make_display

    allocate = displayio.allocate_display

    def slowly(display):
        allocate(display)
        time.sleep(0.03)

    monkeypatch.setattr(displayio, "allocate_display", slowly)
    made = [make_display() for _ in range(5)]
    time.sleep(0.01)
    assert displayio.background_thread.is_alive()
    assert not [d for d in displayio.displays if d in made]


def assert_oled_shows(sim, k, text):
    """Line k of the OLED's framebuffer has exactly the pixels of ``text``."""
    from nimatron.drivers.oled import LINE_Y

    y = LINE_Y[k]
    band = range(max(0, y - 6), min(64, y + 7))
    pixels = sim.bench.read_display()
    want = drawn(text, y)
    assert any(any(want[r]) for r in band)
    assert [pixels[r] for r in band] == [want[r] for r in band], "OLED line %d is not %r" % (k, text)


def test_the_oled_shows_the_status_words_and_the_position_in_real_pixels(sims):
    sim = sims("macropad", dict(FAST, think_ms=600, show_ms=400))
    sim.advance(100)
    assert_oled_shows(sim, 0, "NIMATRON")
    assert_oled_shows(sim, 1, "game: pad-nim")
    sim.tap("cw")  # the encoder chooses the game: the OLED says which
    assert_oled_shows(sim, 1, "game: pad-nimrod")
    sim.tap("done")
    assert_oled_shows(sim, 0, "YOUR TURN")
    assert_oled_shows(sim, 2, "3 4 4")  # the rule set's own words for the position (position_words)
    sim.tap("key 0 2")
    sim.tap("done")
    sim.advance(100)
    assert_oled_shows(sim, 0, "MACHINE THINKING")
    sim.advance(1200)
    heaps = sim.controller.position()[0]
    assert_oled_shows(sim, 0, "YOUR TURN")
    assert_oled_shows(sim, 2, "%d %d %d" % tuple(heaps))
    # Nimrod's panel: each heap in binary, then the nim-sum
    assert_oled_shows(sim, 3, "A%s B%s C%s" % tuple(format(h, "03b") for h in heaps))
    assert sim.controller.io.oled.text[4].startswith("nim-sum")


def test_the_oled_draws_each_line_as_one_tile_grid_not_an_object_per_letter(sims):
    """The OLED's five lines are five TileGrids over the built-in font,
    whatever they say: a Label per line built a TileGrid for every letter
    (over a hundred objects on the board's heap, and a library to compile)."""
    import displayio
    from nimatron.drivers.oled import _WIDTH as WIDTH, LINE_Y

    def objects(node):
        out = [node]
        if isinstance(node, displayio.Group):
            for child in node:
                out.extend(objects(child))
        return out

    sim = sims("macropad", dict(FAST, think_ms=600, show_ms=400))
    sim.advance(100)
    oled = sim.controller.io.oled
    for step in ("attract", "done", "key 0 2", "done"):
        if step != "attract":
            sim.tap(step)
        assert any(len(line) > 4 for line in oled.text), oled.text
        drawn = objects(sim.bench.display.root_group)
        grids = [o for o in drawn if isinstance(o, displayio.TileGrid)]
        assert len(drawn) == 1 + len(LINE_Y) and len(grids) == len(LINE_Y), (step, len(drawn))
        assert all(g.width == WIDTH and g.height == 1 for g in grids)


class _CountedRow:
    """A line's TileGrid, counting the tiles set on it."""

    def __init__(self, grid, counts, k):
        self.grid, self.counts, self.k = grid, counts, k

    def __setitem__(self, x, tile):
        self.counts.append(self.k)
        self.grid[x] = tile


def test_the_oled_draws_a_changed_line_a_pass_only_its_changed_characters(sims):
    """Left to CircuitPython, the OLED's refresh ran in a background task in
    whichever pass came next, the whole new text at once: 46-64 ms of a stock
    MacroPad's tick (a command's, a collection's or a press's pass). Now a new
    text is drawn one changed line a pass, a tile only where a character
    changed, each line refreshed as it is drawn."""
    sim = sims("macropad", dict(FAST, think_ms=600, show_ms=400))
    sim.advance(100)
    oled = sim.controller.io.oled
    set_tiles = []
    oled._rows = [_CountedRow(row, set_tiles, k) for k, row in enumerate(oled._rows)]
    refreshes = []
    refresh = oled.display.refresh
    oled.display.refresh = lambda *a, **kw: refreshes.append(1) or refresh(*a, **kw)
    before = list(oled.text)
    sim.press("done")
    sim.advance(HOLD_MS // 2)
    sim.release("done")
    lines_a_pass = []
    for _ in range(40):
        del set_tiles[:], refreshes[:]
        sim.advance(sim.tick_ms)
        lines_a_pass.append(len(set(set_tiles)))
        assert len(refreshes) == len(set(set_tiles)), (set_tiles, refreshes)
    after = oled.text
    changed = [k for k in range(5) if after[k] != before[k]]
    assert after[0] == "YOUR TURN" and len(changed) >= 4, (before, after)
    assert max(lines_a_pass) == 1 and sum(lines_a_pass) == len(changed), lines_a_pass
    assert_oled_shows(sim, 0, "YOUR TURN")
    assert_oled_shows(sim, 2, after[2])
    # a move changes one character of the position's line: one tile set
    del set_tiles[:]
    position = after[2]
    sim.tap("key 0 0")
    sim.tap("done", gap_ms=100)
    assert sim.controller.state == "thinking" and oled.text[0] == "MACHINE THINKING"
    now = oled.text[2]
    assert now != position and len(now) == len(position), (position, now)
    assert_oled_shows(sim, 2, now)
    assert set_tiles.count(2) == sum(1 for a, b in zip(now, position) if a != b), (position, now, set_tiles)


def test_the_oled_turns_circuitpythons_own_refresh_off_and_back_on():
    """On the board ``board.DISPLAY`` refreshes by itself (``auto_refresh``):
    the driver turns that off, refreshes after each line it draws, and gives
    CircuitPython its terminal back (refreshing) when it closes."""
    from nimatron.drivers.oled import Oled
    from nimatron_sim.oled_mock import make_display

    make_display()  # the board's tiled terminal font, as CircuitPython has it

    class BoardDisplay:
        auto_refresh = True
        root_group = None
        refreshes = 0

        def refresh(self):
            self.refreshes += 1

    display = BoardDisplay()
    oled = Oled(display)
    assert display.auto_refresh is False and display.root_group is not None
    oled.show(["NIMATRON", "game: pad-nim", "", "", "press a key to play"])
    assert display.refreshes == 1 and oled.text[0] == "NIMATRON" and oled.text[1] == ""
    while oled._wanted is not None:
        oled._draw_line()
    assert display.refreshes == 3 and oled.text[4] == "press a key to play"
    oled.deinit()
    assert display.auto_refresh is True and display.root_group is None


FIRST_IN_A_PROCESS = {
    "the OLED's display": "from nimatron_sim.oled_mock import make_display; make_display()",
    "a whole simulator": "from nimatron_sim import Simulator; Simulator('macropad')",
    "a Pi's bench": "from nimatron_sim import Simulator; Simulator('pi-leds')",
}


@pytest.mark.parametrize("first", sorted(FIRST_IN_A_PROCESS))
def test_whatever_the_simulator_builds_first_blinka_is_on_the_bench(first):
    """Blinka asks which board it is on once, when its first module loads.
    The OLED test built a display before any bench: Blinka found a PC, and
    every MacroPad and Pico simulator after it in that process failed
    (``-n 2``, one order in many). Whatever is built first, a MacroPad
    bench opens after it."""
    code = (
        FIRST_IN_A_PROCESS[first] + "\n"
        "from nimatron_sim import Simulator\n"
        "sim = Simulator('macropad')\n"
        "sim.advance(100)\n"
        "from adafruit_blinka.agnostic import board_id\n"
        "print(board_id)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "OS_AGNOSTIC_BOARD"


def test_a_quiet_pass_on_the_macropad_reads_no_position_and_redraws_no_text(sims, monkeypatch):
    """Its driver ran every pass: the OLED built the position and a key to
    compare, the key cursor a list of the lamps in play (garbage each pass,
    so a collection in the pass that sees a press: press to lamp 55 ms on the
    stock board). Now a pass with nothing new asks the game for nothing and
    draws no text; a move still changes the text."""
    sim = sims("macropad", dict(FAST, think_ms=600, show_ms=400))
    controller = sim.controller
    oled_module = sys.modules[type(controller.io.oled).__module__]  # the driver's own (the sim's firmware path)
    calls = {"position": 0, "lines": 0}
    position, lines = controller.position, oled_module.lines

    def counted_position():
        calls["position"] += 1
        return position()

    def counted_lines(c, words=None):
        calls["lines"] += 1
        return lines(c, words)

    monkeypatch.setattr(controller, "position", counted_position)
    monkeypatch.setattr(oled_module, "lines", counted_lines)
    for step in ("attract", "done"):
        if step != "attract":
            sim.tap(step)
        sim.advance(200)
        calls.update(position=0, lines=0)
        sim.advance(1000)  # 200 quiet passes
        assert calls == {"position": 0, "lines": 0}, (step, calls)
    before = list(controller.io.oled.text)
    sim.tap("key 0 0")  # the first lamp of a row is lit while the row is
    sim.tap("done")
    sim.advance(100)
    assert calls["lines"] and controller.io.oled.text != before


def test_the_oled_reads_a_presets_words_once_not_at_every_return_to_attract(sims, monkeypatch):
    """The attract text's "about" comes from the presets file (and, on a
    board, config.settings loaded for it, then dropped: a file read, an import
    and a collection in one tick). Read when the preset changes, not after
    every game."""
    from nimatron_sim.visitor import Visitor

    sim = sims("macropad", dict(FAST, over_ms=1000))
    oled = sim.controller.io.oled
    oled_module = sys.modules[type(oled).__module__]
    read = []
    about = oled_module.about
    monkeypatch.setattr(oled_module, "about", lambda preset: read.append(preset) or about(preset))
    sim.advance(100)
    assert read == ["pad-nim"]
    for _ in range(2):
        Visitor(sim, "perfect", seed=1).play_game()
        sim.advance(2500)
        assert sim.controller.state == "attract" and oled.text[1] == "game: pad-nim", oled.text
    assert read == ["pad-nim"]
    sim.tap("cw")  # the encoder chooses another game: its words are read
    assert read == ["pad-nim", "pad-nimrod"] and oled.text[1] == "game: pad-nimrod"


def test_the_oled_text_layer_for_every_state():
    from nimatron.drivers.oled import _WIDTH as WIDTH, lines

    class Panel:
        pass

    class Game:
        state = "over"
        winner = "visitor"
        misere = True
        settings = {"preset": "pad-marienbad", "explain": False}

        rules = parse_rules("nim")

        def position(self):
            return [0, 0, 0], False

    text = lines(Game())
    assert text[:3] == ["NIM CHAMP!", "nim misere", "0 0 0"] and len(text) == 5
    Game.winner = "machine"
    assert lines(Game())[0] == "MACHINE WINS"
    Game.state = "attract"
    assert all(len(line) <= WIDTH for line in lines(Game()))


def test_the_screenshot_includes_the_oled_as_png(tmp_path, capsys):
    path = tmp_path / "pad.png"
    assert nimatron(["sim", "--board", "macropad", "--screenshot", str(path)]) == 0
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[16:24] == (256).to_bytes(4, "big") + (128).to_bytes(4, "big")
    svg = tmp_path / "pad.svg"
    assert nimatron(["sim", "--board", "macropad", "--screenshot", str(svg)]) == 0
    assert "data:image/png;base64," in svg.read_text()
    assert nimatron(["sim", "--board", "circuitplayground", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "has none" in capsys.readouterr().err


# -- nimatron deploy ---------------------------------------------------------------------

MACROPAD_BOOT = (
    "Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Macropad RP2040 with rp2040\n"
    "Board ID:adafruit_macropad_rp2040\nUID:E6614C311B2F2A36\n"
)
BLUEFRUIT_BOOT = (
    "Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Circuit Playground Bluefruit with nRF52840\n"
    "Board ID:circuitplayground_bluefruit\n"
)


@pytest.fixture
def drive(tmp_path, monkeypatch):
    """make(boot_out text) -> an empty CIRCUITPY-shaped folder, never online."""
    from nimatron_host import deploy

    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)

    def make(boot_out):
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        (folder / "boot_out.txt").write_text(boot_out)
        return folder

    return make


def deployed(folder):
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_deploy_recognises_the_board_from_boot_out_and_copies_what_it_needs(drive, capsys):
    pad = drive(MACROPAD_BOOT)
    assert nimatron(["deploy", "--to", str(pad)]) == 0
    got = deployed(pad)
    assert json.loads((pad / "settings.json").read_text()) == {"board": "macropad"}
    assert {
        "lib/nimatron/drivers/onboard_io.mpy",
        "lib/nimatron/drivers/presses.mpy",
        "lib/nimatron/drivers/tone.mpy",
        "lib/nimatron/drivers/oled.mpy",
        "lib/nimatron/config/pinmaps/macropad.json",
        "lib/neopixel.py",
    } <= got
    assert not [p for p in got if "adafruit_display_text" in p]  # the OLED draws with displayio alone
    assert not [p for p in got if "gpiozero_io" in p]
    express = drive(BLUEFRUIT_BOOT)
    assert nimatron(["deploy", "--to", str(express)]) == 0
    got = deployed(express)
    assert json.loads((express / "settings.json").read_text()) == {"board": "circuitplayground"}
    assert "lib/nimatron/drivers/presses.mpy" in got and not [p for p in got if "drivers/oled" in p]
    assert not [p for p in got if "adafruit_display_text" in p]


@pytest.mark.parametrize(
    "boot_out, board, names",
    [
        (MACROPAD_BOOT, "pico-neopixel", ("pico-neopixel", "adafruit_macropad_rp2040", "use --board macropad")),
        (BLUEFRUIT_BOOT, "macropad", ("macropad", "circuitplayground_bluefruit", "use --board circuitplayground")),
    ],
)
def test_deploy_refuses_a_pin_map_for_another_board(drive, capsys, boot_out, board, names):
    folder = drive(boot_out)
    assert nimatron(["deploy", "--to", str(folder), "--board", board]) == 2
    err = capsys.readouterr().err
    assert all(name in err for name in names) and len(err.strip().splitlines()) == 1
    assert deployed(folder) == {"boot_out.txt"}  # nothing written


def test_holding_a_and_b_past_new_game_is_the_operators_chord(sims):
    """A+B is DONE, held 1.5 s NEW GAME: held on, DONE and NEW are both down, the chord."""
    from nimatron.machine.switches import CHORD_MS

    sim = sims("circuitplayground", FAST)
    sim.tap("a+b", hold_ms=HOLD_MS + 100)  # released after NEW: a new game, no menu
    assert sim.controller.state == "visitor" and sim.controller.menu is None
    sim.tap("a+b", hold_ms=HOLD_MS + CHORD_MS + 200)
    assert sim.controller.menu is not None and sim.controller.state == "service"
    opened = [e for e in sim.log if e["event"] == "service"]
    assert opened and opened[-1]["open"] and opened[-1]["by"] == "buttons"


def test_one_button_held_long_never_opens_the_operator_menu(sims):
    """The MacroPad's encoder switch is DONE and, held, NEW: a child can hold one button 7 s."""
    from nimatron.machine.switches import CHORD_MS

    sim = sims("macropad", FAST)
    sim.tap("done", hold_ms=HOLD_MS + CHORD_MS + 500)
    assert sim.controller.menu is None and sim.controller.state == "visitor"


def test_presses_hold_done_and_new_together_only_for_a_chord_whose_press_is_done():
    chord = Presses({"presses": {"a+b": "done"}, "holds": {"a+b": "new"}})
    chord.feed("a", True, 0)
    chord.feed("b", True, 0)
    chord.update(40)
    assert chord.update(40 + HOLD_MS) == [("new", True), ("done", True)]
    chord.feed("a", False, 2000)
    chord.feed("b", False, 2000)
    assert chord.update(2040) == [("new", False), ("done", False)]
    pad = Presses({"holds": {"done": "new"}})  # one button: NEW alone
    pad.feed("done", True, 0)
    pad.update(40)
    assert pad.update(40 + HOLD_MS) == [("new", True)]
