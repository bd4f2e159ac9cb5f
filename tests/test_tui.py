# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The interactive simulator, played headless through Textual's Pilot.

Every game here runs the real firmware and drivers on mocked pins (through
``nimatron_sim.face.Face``); keys and clicks press the simulated buttons;
the virtual clock is advanced by the test (``realtime=False``), so the
machine's 1.5 s of thinking costs nothing. What the screen shows is checked
against the simulator: the position in play and the lamps read back from
the pins.
"""

import pytest
from kit_tui import SIZE, make_app, run, screen_text, until
from nimatron.games import strategy
from nimatron.machine.controller import OVER, SHOWING, THINKING, VISITOR
from nimatron_host.cli import main
from nimatron_sim.face import Face
from nimatron_sim.tui import NimatronApp, lamp_width

LAMP_COLUMN = 4  # the face's padding (1) and row label (3)


def screen_rows(app):
    """The glyphs of each row of lamps, read off the screen."""
    lines = screen_text(app).splitlines()
    width = lamp_width(app.face.layout, app.face.input_model == "rows")
    rows = []
    for r, n in enumerate(app.face.layout):
        label = " %s " % "ABCDEFGH"[r]
        line = next(line for line in lines if line.startswith(label))
        rows.append("".join(line[LAMP_COLUMN + width * i + width // 2] for i in range(n)))  # " ● ", " ●", "●"
    return rows


def status_on(app):
    """The status lamps lit on screen (■), by their words."""
    text = screen_text(app)
    return sorted(
        words for words in ("YOUR TURN", "MACHINE THINKING", "NIM CHAMP", "MACHINE WINS") if "■ " + words in text
    )


def check_screen_matches_game(app):
    """The screen's lamps against the simulator: lit lamps are the position,
    and each glowing glyph is a lamp whose pin reads lit."""
    face = app.face
    rows = screen_rows(app)
    heaps, _ = face.heaps()
    in_play = ["".join(c for c in row if c in "●◉◆✕") for row in rows]
    counts = [len(row) for row in in_play]
    if face.controller.rules.ordered:
        assert counts[: len(heaps)] == heaps, (rows, heaps)
    elif face.controller.rules.name == "circular":  # runs of neighbours round one ring of lamps
        ring = rows[0]
        cut = ring.index("○") if "○" in ring else None
        runs = [len(run) for run in (ring[cut:] + ring[:cut]).split("○") if run] if cut is not None else [len(ring)]
        assert sorted(runs) == sorted(heaps), (rows, heaps)
    else:
        assert sorted(c for c in counts if c) == sorted(heaps), (rows, heaps)
    pins = face.sim.read_lamps()
    for r, row in enumerate(rows):
        for i, glyph in enumerate(row):
            if pins[r][i] and face.controller.state == VISITOR and not face.controller.selected:
                assert glyph == "●", (r, i, rows)
            if glyph == "·":
                assert not pins[r][i]


# -- the default machine, by keys -------------------------------------------------


def test_default_preset_whole_game_by_keys_machine_wins():
    """The visitor always takes one lamp from the longest row; the 1940 machine
    wins. Every turn, the screen shows the simulator's position."""
    app = make_app()

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            assert status_on(app) == ["YOUR TURN"]
            assert app.face.settings["preset"] == "nimatron"
            turns = 0
            while app.face.controller.state != OVER:
                check_screen_matches_game(app)
                heaps, _ = app.face.heaps()
                row = heaps.index(max(heaps))
                await pilot.press(str(row + 1))
                rows = screen_rows(app)
                assert rows[row][heaps[row] - 1] == "○"  # the lamp just put out
                assert app.face.controller.state in (VISITOR, THINKING, OVER)
                if app.face.controller.state == VISITOR:
                    await pilot.press("enter")
                if app.face.controller.state == OVER:
                    break
                assert app.face.controller.state == THINKING
                app.advance(200)
                await pilot.pause()
                assert "MACHINE THINKING" in screen_text(app)
                await until(app, pilot, (SHOWING,))
                assert "✕" in "".join(screen_rows(app))  # the lamps it will take
                assert "The machine plays (✕)" in screen_text(app)
                await until(app, pilot, (VISITOR, OVER))
                turns += 1
                assert turns < 40
            app.advance(100)
            await pilot.pause()
            assert app.face.controller.winner == "machine"
            assert status_on(app) == ["MACHINE WINS"] or app.face.sim.read_status()["machine_wins"] == 0
            text = screen_text(app)
            assert "The machine wins" in text
            assert "machine won 1" in text and "You won 0" in text and "Games 1" in text

    run(play())


def test_default_preset_winning_game_by_mouse_clicks():
    """The visitor clicks the row buttons and DONE, playing the winning move
    each turn (the engine as the visitor's coach): NIM CHAMP lights."""
    app = make_app()

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.click("#new")
            assert app.face.controller.state == VISITOR
            while app.face.controller.state != OVER:
                check_screen_matches_game(app)
                heaps, _ = app.face.heaps()
                after = strategy.solve("nim", heaps)["after"]
                row = [i for i in range(len(heaps)) if heaps[i] != after[i]][0]
                for _ in range(heaps[row] - after[row]):
                    await pilot.click("#row-%d" % row)
                if app.face.controller.state == VISITOR:
                    await pilot.click("#done")
                await until(app, pilot, (VISITOR, OVER))
            app.advance(50)
            await pilot.pause()
            assert app.face.controller.winner == "visitor"
            text = screen_text(app)
            assert "NIM CHAMP" in text and "You win" in text
            assert "You won 1" in text
            assert "You win: NIM CHAMP!" in "\n".join(line for _, line in app.face.log)

    run(play())


# -- grid boards: cursor, space, clicks on lamps ---------------------------------------


def test_grid_allheaps_whole_game_by_arrows_space_and_clicks():
    """pico-grid (8x8 keys under 8x8 lamps), its own preset allheaps: the
    visitor selects lamps with the cursor and by clicking them, then DONE."""
    app = make_app("pico-grid")

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            assert app.face.settings["preset"] == "allheaps"
            await pilot.press("n")
            # the cursor: down twice, right once, Space selects lamp C2
            await pilot.press("down", "down", "right", "space")
            assert app.face.controller.selected == [(2, 1)]
            assert screen_rows(app)[2][1] == "◉"
            assert "[◉]" in screen_text(app)
            await pilot.press("space")  # again: put back
            assert app.face.controller.selected == []
            move = 0
            while app.face.controller.state != OVER:
                check_screen_matches_game(app)
                heaps, _ = app.face.heaps()
                # alternate: the whole last row by clicks, or one lamp by keys
                row = max(i for i in range(len(heaps)) if heaps[i])
                take = heaps[row] if move % 2 == 0 else 1
                if move % 2 == 0:
                    for i in range(heaps[row] - take, heaps[row]):
                        await pilot.click("#lamp-%d-%d" % (row, i))
                else:
                    app.cursor = (row, 0)
                    await pilot.press("left")  # stays at the row's first lamp
                    for _ in range(heaps[row] - 1):
                        await pilot.press("right")
                    await pilot.press("space")
                selected = screen_rows(app)[row].count("◉")
                assert selected == take
                await pilot.press("enter")
                move += 1
                await until(app, pilot, (VISITOR, OVER))
                assert move < 40
            assert app.face.controller.winner in ("visitor", "machine")
            won = app.face.audits()["visitor_wins"] + app.face.audits()["machine_wins"]
            assert won == 1

    run(play())


def test_grid_grundy_whole_game_splits_move_lamps_to_free_rows():
    """Grundy's game on the 8x8 grid: the visitor splits a row by selecting
    its last lamps; the new row lights below; the screen follows the game."""
    app = make_app("pico-grid", {"preset": "grundy"}, thinking=True)

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            assert "nim-value" in screen_text(app).lower()
            turns = 0
            while app.face.controller.state != OVER:
                check_screen_matches_game(app)
                lit = app.face.controller.panel.lit
                counts = [sum(row) for row in lit]
                row = max(range(len(counts)), key=lambda r: counts[r])
                h = counts[row]
                assert h >= 3
                for i in range(h - 1, h):  # split off one lamp
                    await pilot.click("#lamp-%d-%d" % (row, i))
                await pilot.press("enter")
                await until(app, pilot, (VISITOR, OVER))
                turns += 1
                assert turns < 20
            assert "Game 1" in screen_text(app) or app.face.log[0][1].startswith("Game 1")

    run(play())


# -- bad input ------------------------------------------------------------------------


def test_meaningless_keys_are_ignored_and_refusals_are_explained():
    app = make_app()

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            before = screen_rows(app)
            await pilot.press("x", "z", "9", "0", "space", "up", "left", "f5", "escape")
            assert screen_rows(app) == before
            assert app.face.controller.state == VISITOR
            await pilot.press("enter")  # DONE with nothing taken
            assert "Not allowed — take at least one lamp" in screen_text(app)
            await pilot.press("1", "2")  # a second row in one turn
            app.advance(300)  # past the dark half of the refusal flash
            await pilot.pause()
            assert "one row per turn" in screen_text(app)
            assert "✗" in screen_rows(app)[1]
            app.advance(3000)
            await pilot.pause()
            assert "✗" not in "".join(screen_rows(app))
            assert "Not allowed" not in screen_text(app)

    run(play())


def test_terminal_too_small_says_what_size_it_needs():
    app = make_app()

    async def play():
        async with app.run_test(size=(60, 18)) as pilot:
            await pilot.pause()
            need = app.needed_size()
            text = screen_text(app)
            assert "needs at least %d×%d" % need in text
            assert "60×18" in text
            await pilot.press("q")
        assert app.return_code == 0

    run(play())

    app = make_app()

    async def grow():
        async with app.run_test(size=(60, 18)) as pilot:
            await pilot.resize_terminal(*SIZE)
            await pilot.pause()
            assert "needs at least" not in screen_text(app)
            assert len(screen_rows(app)) == 4

    run(grow())


def test_default_fits_an_80x24_terminal():
    app = make_app()
    assert app.needed_size()[0] <= 80 and app.needed_size()[1] <= 24


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
def test_quit_keys(key):
    app = make_app()

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n", key)
            await pilot.pause()
        assert app.return_code == 0

    run(play())


# -- the thinking panel, the log, settings ---------------------------------------------------


def test_thinking_panel_shows_binary_parities_nim_sum_and_the_move():
    app = make_app(overrides={"preset": "nimrod"})  # Nimrod explains itself: panel open

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            heaps, _ = app.face.heaps()
            x = 0
            for h in heaps:
                x ^= h
            text = screen_text(app)
            for i, h in enumerate(heaps):
                assert "%s = %-3d row %s" % (" ".join(format(h, "03b")), h, "ABCD"[i]) in text
            assert "%s = %-3d nim-sum" % (" ".join(format(x, "03b")), x) in text
            assert "ones" in text
            win = strategy.solve("nim", heaps)["after"]
            assert "leaving %s" % " ".join(map(str, win)) in text
            await pilot.press("t")
            assert "nim-sum" not in screen_text(app)
            await pilot.press("t")
            assert "nim-sum" in screen_text(app)
            # the machine's move in the log, with its reason
            await pilot.press("4", "enter")
            await until(app, pilot, (VISITOR, OVER))
            log = "\n".join(line for _, line in app.face.log)
            assert "You: take 1 from row D" in log
            assert "Machine: take" in log and "why — nim-sum" in log

    run(play())


def test_settings_screen_restarts_with_new_board_and_keeps_the_audits():
    from textual.widgets import Select
    from textual.widgets.select import InvalidSelectValueError

    app = make_app()

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n", "s")
            screen = app.screen
            assert type(screen).__name__ == "SettingsScreen"
            await pilot.press("n")  # keys go to the settings, not the game
            assert app.face.audits()["games"] == 1
            # a rule set row buttons cannot play is not offered; a preset too large is refused in words
            with pytest.raises(InvalidSelectValueError):
                screen.query_one("#set-rules", Select).value = "grundy"
            screen.query_one("#set-preset", Select).value = "100"
            await pilot.click("#apply")
            shown = screen_text(app)  # refused in words (this board's lamps, that game's), the settings kept
            assert (
                "This board has 28 lamps; that game needs 100." in shown
                and "pixel" not in shown
                and "layout" not in shown
            )
            screen.query_one("#set-board", Select).value = "pico-grid"
            await pilot.pause()
            screen.query_one("#set-rules", Select).value = "grundy"  # offered on a grid
            screen.query_one("#set-rules", Select).value = ""
            screen.query_one("#set-preset", Select).value = "grundy"
            screen.query_one("#set-first", Select).value = "machine"
            await pilot.click("#apply")
            await pilot.pause()
            assert type(app.screen).__name__ != "SettingsScreen"
            assert app.face.board == "pico-grid" and app.face.layout == [8] * 8
            assert app.face.settings["rules"] == "grundy" and app.face.settings["first"] == "machine"
            assert len(screen_rows(app)) == 8
            await pilot.press("n")
            assert app.face.controller.state == THINKING  # the machine moves first
            await until(app, pilot, (VISITOR, OVER))
            check_screen_matches_game(app)
            assert app.face.audits()["games"] == 2  # counted across the restart
            assert "Games 2" in screen_text(app)
            await pilot.press("s", "escape")
            assert type(app.screen).__name__ != "SettingsScreen"

    run(play())


def test_command_line_options_reach_the_machine():
    """--preset drnim --difficulty equalizer: Dr. NIM's lever, the machine first."""
    app = make_app(overrides={"preset": "drnim", "difficulty": "equalizer"})

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            assert app.face.layout == [15]
            await until(app, pilot, (VISITOR,))
            log = "\n".join(line for _, line in app.face.log)
            assert "Machine: take 1 from row A" in log and "deliberate slip" in log
            assert "1 TAKE" in screen_text(app)

    run(play())


class FakeClock:
    """A wall clock that moves only when the test says so."""

    def __init__(self):
        self.s = 1000.0

    def __call__(self):
        return self.s


def test_real_time_clock_follows_the_wall_clock():
    """The virtual clock gains what the wall clock gained: fractions carried,
    a visitor's press not counted twice, a stall (a suspended laptop) capped."""
    from nimatron_sim.tui import MAX_STEP_MS

    clock = FakeClock()
    app = NimatronApp(Face("pico-neopixel"), realtime=True, clock=clock)

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()  # the app's own timer ticks: the fake clock has not moved
            start = app.face.now
            for _ in range(3):
                clock.s += 0.1335
                app._tick()
            assert app.face.now - start == 400  # 3 x 133.5 ms: the half milliseconds carried
            before = app.face.now
            app.tap("new")  # a press runs the virtual clock ahead by its own length...
            spent = app.face.now - before
            assert spent > 0
            clock.s += spent / 1000.0 + 0.05  # ...which the wall clock then catches up
            app._tick()
            assert app.face.now - before == spent + 50  # the wall clock's gain, the press not counted twice
            before = app.face.now
            clock.s += 3600
            app._tick()
            assert app.face.now - before == MAX_STEP_MS

    run(play())


# -- the command line ----------------------------------------------------------------------


def test_sim_without_a_terminal_is_one_line_and_exit_2(capsys):
    assert main(["sim"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err


def test_bad_settings_fail_before_the_screen_opens(capsys):
    assert main(["sim", "--rules", "grundy"]) == 2
    assert "grid board" in capsys.readouterr().err


def test_screenshot_command_writes_an_svg(tmp_path, capsys):
    path = tmp_path / "face.svg"
    assert main(["sim", "--screenshot", str(path)]) == 0
    svg = path.read_text()
    assert svg.startswith("<svg") and "NIMATRON" in svg
    assert "YOUR&#160;TURN" in svg or "YOUR TURN" in svg


# -- every board, and the teaching hint ------------------------------------------------------


@pytest.mark.parametrize("board", ["pi-leds", "pi-neopixel", "pico-neopixel", "pico-grid", "pico-ring"])
def test_every_board_plays_a_turn_on_screen(board):
    """Each board with its own preset: one visitor move by its own input
    model, the machine's answer, and the screen agreeing with the pins."""
    app = make_app(board)

    async def play():
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.press("n")
            await until(app, pilot, (VISITOR,))
            check_screen_matches_game(app)
            before = app.face.heaps()[0]
            if app.face.input_model == "rows":
                heaps = before
                await pilot.press(str(heaps.index(max(heaps)) + 1))
            else:
                lit = app.face.controller.panel.lit
                r = max(range(len(lit)), key=lambda k: sum(lit[k]))
                await pilot.click("#lamp-%d-%d" % (r, sum(lit[r]) - 1))
            await pilot.press("enter")
            assert app.face.heaps() is None or app.face.heaps()[0] != before or app.face.controller.state == OVER
            await until(app, pilot, (VISITOR, OVER))
            if app.face.controller.state == VISITOR:
                check_screen_matches_game(app)
            log = "\n".join(line for _, line in app.face.log)
            assert "You: " in log

    run(play())


def test_teach_mode_shows_the_winning_move_as_diamonds():
    app = make_app(overrides={"difficulty": "teach"})

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            assert "◆" not in "".join(screen_rows(app))
            app.advance(app.face.settings["hint_ms"] + 50)
            await pilot.pause()
            rows = screen_rows(app)
            heaps, _ = app.face.heaps()
            after = strategy.solve("nim", heaps)["after"]
            diamonds = ["".join(row).count("◆") for row in rows]
            assert diamonds[: len(heaps)] == [h - a for h, a in zip(heaps, after)]
            assert "Hint: ◆ shows a winning move" in screen_text(app)
            app.advance(500)  # the hint blinks slowly, the shape stays
            await pilot.pause()
            assert ["".join(row).count("◆") for row in screen_rows(app)] == diamonds

    run(play())


def board_tour(names):
    """A sequence of boards in which every ordered pair appears as a step."""
    steps = {a: [b for b in names if b != a] for a in names}
    tour, stack = [], [names[0]]
    while stack:  # Hierholzer: an Euler circuit of the complete directed graph
        if steps[stack[-1]]:
            stack.append(steps[stack[-1]].pop(0))
        else:
            tour.append(stack.pop())
    return tour[::-1]


def test_switching_between_every_pair_of_boards_redraws_the_lamps():
    """The settings screen restarts on another board while the clock ticks:
    a tick between the restart and the new lamps must not draw the old
    board's rows (it crashed with NoMatches '#count-4' going to pico-grid)."""
    from nimatron.config import boards
    from textual.widgets import Select

    names = list(boards.names())
    tour = board_tour(names)
    assert len(tour) == len(names) * (len(names) - 1) + 1
    app = make_app(tour[0])

    async def play():
        async with app.run_test(size=(110, 40)) as pilot:
            for k, board in enumerate(tour[1:]):
                if k % 4 == 0:  # through the screen itself now and then
                    await pilot.press("s")
                    app.screen.query_one("#set-board", Select).value = board
                    await pilot.click("#apply")
                else:
                    assert app.restart(board, {}) is None
                app.refresh_face()  # the clock's tick, before the lamps are rebuilt
                await pilot.pause()
                assert type(app.screen).__name__ != "SettingsScreen"
                assert app.face.board == board
                assert len(screen_rows(app)) == len(app.face.layout)
                await pilot.press("n")
                app.advance(100)
                await pilot.pause()
                if app.face.controller.state == VISITOR:
                    check_screen_matches_game(app)

    run(play())
