# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The interactive simulator's speaker and display (issue 11), through
Textual's Pilot: each sound the board's scheduler starts is shown in words
(and rings the terminal bell for the fanfares and refusals unless muted);
the MacroPad's OLED is drawn from the mocked display's pixels in braille
where the face has room, else as the lines its driver wrote. The clock is
virtual (``realtime=False``): the test advances it."""

import asyncio

import pytest
from kit_tui import make_app, screen_text, until
from nimatron.games import strategy
from nimatron.machine.controller import OVER, VISITOR
from nimatron_sim.oled_mock import braille
from textual.widgets import Select

WIDE = (120, 48)
NARROW = (80, 24)


def run(coro):
    return asyncio.run(coro)


def test_braille_keeps_every_pixel():
    pixels = [[(x * 7 + y * 3) % 5 == 0 for x in range(10)] for y in range(7)]
    lines = braille(pixels)
    assert len(lines) == 2 and all(len(line) == 5 for line in lines)
    for y in range(7):
        for x in range(10):
            bits = ord(lines[y // 4][x // 2]) - 0x2800
            dot = {(0, 0): 1, (1, 0): 2, (2, 0): 4, (0, 1): 8, (1, 1): 16, (2, 1): 32, (3, 0): 64, (3, 1): 128}
            assert bool(bits & dot[(y % 4, x % 2)]) == pixels[y][x], (x, y)


def perfect_move(app):
    """The winning move of Nim, by the MacroPad's keys (the lamps of a row's right-hand end)."""
    heaps, _ = app.face.heaps()
    after = strategy.solve("nim", heaps)["after"]
    row = [r for r in range(len(heaps)) if heaps[r] != after[r]][0]
    lit = app.face.controller.panel.lit[row]
    for i in [i for i in range(len(lit)) if lit[i]][after[row] :]:
        app.tap("key %d %d" % (row, i))
    app.tap("done")


def test_sounds_are_shown_and_ring_the_bell_unless_muted():
    app = make_app("macropad", {"think_ms": 1500, "show_ms": 800})

    async def play():
        async with app.run_test(size=NARROW) as pilot:
            await pilot.press("n", "right", "right", "right", "space")  # a dark lamp: refused
            assert "♪ buzz: refused" in screen_text(app) and app.bells == 1
            await pilot.press("m", "space")  # muted: words, no bell
            assert "♪ buzz: refused (bell muted)" in screen_text(app) and app.bells == 1
            app.advance(1000)
            assert "♪ buzz" not in screen_text(app) and not app._shown["sound"]  # quiet again (the legend keeps its ♪)
            await pilot.press("m")  # the bell on again
            perfect_move(app)  # 2 3 4: take 3 from row C
            await pilot.pause()
            assert "♪ click" in screen_text(app)
            app.advance(300)
            await pilot.pause()
            assert "♪ relay chatter" in screen_text(app)  # while the machine thinks
            while app.face.controller.state != OVER:
                await until(app, pilot, (VISITOR, OVER))
                if app.face.controller.state == VISITOR:
                    perfect_move(app)
            await pilot.pause()
            assert app.face.controller.winner == "visitor"
            assert "♪ fanfare: NIM CHAMP" in screen_text(app) and app.bells == 2

    run(play())


@pytest.mark.parametrize("size", [WIDE, NARROW])
def test_the_oled_in_braille_where_the_face_has_room_else_as_text(size):
    app = make_app("macropad")

    async def play():
        async with app.run_test(size=size) as pilot:
            await pilot.press("n")
            app.advance(0)
            await pilot.pause()
            text = screen_text(app)
            words = app.face.display_text()
            assert words[:3] == ["YOUR TURN", "nim", "2 3 4"]  # the position in the rule set's words
            before = braille(app.face.display_pixels())
            assert len(before) == 16 and len(before[0]) == 64
            if size == NARROW:  # no room for 64 columns: the lines the driver wrote
                assert all(line in text for line in words)
                assert not any(0x2800 < ord(c) <= 0x28FF for c in text)
                assert app.needed_size()[0] <= NARROW[0] and app.needed_size()[1] <= NARROW[1]
                return
            assert all(line in text for line in before)
            assert "OLED 128×64" in text and "keys: choose lamps" not in text  # pixels, not text
            await pilot.press("space", "enter")  # take one lamp: the OLED says so
            await pilot.pause()
            after = braille(app.face.display_pixels())
            assert after != before and all(line in screen_text(app) for line in after)

    run(play())


def test_settings_set_the_speakers_volume_and_the_bell():
    app = make_app("macropad")

    async def play():
        async with app.run_test(size=NARROW) as pilot:
            await pilot.press("s")
            screen = app.screen
            assert type(screen).__name__ == "SettingsScreen"
            screen.query_one("#set-volume", Select).value = "0"
            screen.query_one("#set-bell", Select).value = "off"
            await pilot.click("#apply")
            await pilot.pause()
            assert type(app.screen).__name__ != "SettingsScreen"
            assert app.face.settings["volume"] == 0 and app.muted
            await pilot.press("n", "right", "right", "right", "space")
            assert "♪ muted (volume 0)" in screen_text(app)
            assert app.face.sounds == 0 and app.bells == 0  # volume 0: the board makes no sound
            await pilot.press("s")
            assert app.screen.query_one("#set-bell", Select).value == "off"
            app.screen.query_one("#set-volume", Select).value = ""
            app.screen.query_one("#set-bell", Select).value = "on"
            await pilot.click("#apply")
            await pilot.pause()
            assert app.face.settings["volume"] == 5 and not app.muted

    run(play())


def test_boards_without_a_speaker_or_display_show_neither():
    app = make_app("pico-neopixel")

    async def play():
        async with app.run_test(size=NARROW) as pilot:
            await pilot.press("n", "4", "enter")
            app.advance(300)
            await pilot.pause()
            text = screen_text(app)
            assert "♪" not in text and "OLED" not in text
            assert app.face.sound_words() is None and app.face.display_pixels() is None

    run(play())


def test_the_counter_on_screen():
    app = make_app("circuitplayground", {"preset": "21counter"})

    async def play():
        async with app.run_test(size=NARROW) as pilot:
            await pilot.press("b", "b", "a", "b", "enter")  # a new game, then two more
            await pilot.pause()
            text = screen_text(app)
            assert " = 2" in text and "says 21 loses" in text
            await until(app, pilot, (VISITOR,))
            count = app.face.controller.panel.count
            assert " =%2d" % count in screen_text(app)
            kinds = [lamp.kind for lamp in app.face.lamps()[0][:5]]
            assert kinds == ["lit" if count >> (4 - k) & 1 else "dark" for k in range(5)]

    run(play())


def test_the_count_is_shown_once_on_a_grid():
    """pico-grid's counter (21counter) lives in row A: the count stands beside
    that row alone, not beside seven rows of dark lamps as if they held it."""
    app = make_app("pico-grid", {"preset": "21counter"})

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("n")
            await pilot.pause()
            await until(app, pilot, (VISITOR,))
            count = app.face.controller.panel.count
            shown = [line for line in screen_text(app).splitlines() if " =%2d" % count in line]
            assert len(shown) == 1 and shown[0].lstrip().startswith("A"), shown

    run(play())
