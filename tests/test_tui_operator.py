# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu in the interactive simulator, through Textual's Pilot:
O holds DONE and NEW GAME for 5 s; every screen is drawn without a crash and
says what it is; the lamps on screen are the ones read back from the pins."""

import pytest
from kit_tui import SIZE, make_app, run, screen_text
from nimatron.machine.controller import ATTRACT, SERVICE
from nimatron.machine.service import ITEMS
from nimatron_sim import operator_words

# item -> what its screen says
SAYS = {
    "lamp_test": "Lamp test",
    "button_test": "Button test",
    "audits": "Audits:",
    "adjust": "Adjust:",
    "check_switch": "Check switch:",
    "burn_in": "Burn-in",
    "clear_audits": "Clear audits?",
    "factory_reset": "Factory reset?",
}


@pytest.mark.parametrize("board", ["pico-neopixel", "pi-leds", "pico-grid", "macropad"])
def test_every_operator_screen_draws_and_says_what_it_is(board):
    app = make_app(board)
    next_key = "1" if app.face.input_model == "rows" else "space"

    async def play():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            assert app.face.controller.state == SERVICE
            assert "OPERATOR MENU: 1 lamp test" in screen_text(app)
            for _k, item in enumerate(ITEMS):
                assert ITEMS[app.face.controller.menu.item] == item
                await pilot.press("enter")
                for _step in range(3):
                    app.advance(700)
                    await pilot.pause()
                    assert SAYS[item] in screen_text(app), (item, screen_text(app))
                if item == "adjust":
                    await pilot.press("enter")  # choosing a value
                    assert "not saved yet" in screen_text(app)
                    await pilot.press("n")
                if item == "button_test":
                    await pilot.press(next_key)
                    last = app.face.controller.menu.last  # named as the face names it: "Row A", "DONE"
                    assert (
                        "Last: " + operator_words.button(last, app.face.words) in app.face.message()
                    )  # (wrapped on screen)
                    await pilot.press("n")  # NEW is tested...
                    assert app.face.controller.menu.screen == "button_test"
                    await pilot.press("n")  # ... and twice goes back
                else:
                    await pilot.press("n")
                await pilot.pause()
                assert app.face.controller.menu.screen == "menu", item
                await pilot.press(next_key)  # the next item
            app.advance(61000)  # a minute untouched: back to attract
            await pilot.pause()
            assert app.face.controller.state == ATTRACT
            assert "Operator menu closed (idle)" in screen_text(app)

    run(play())
