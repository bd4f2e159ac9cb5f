# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The terminal app under test: made in virtual time, its screen read back
as text, its clock advanced until the game reaches a state."""

import asyncio
import io

from nimatron_sim.face import Face
from nimatron_sim.tui import NimatronApp
from rich.console import Console

SIZE = (100, 34)


def run(coro):
    return asyncio.run(coro)


def screen_text(app):
    """The whole screen as plain text, exactly as composed for the terminal."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


async def until(app, pilot, states, limit_ms=20000):
    """Advance the virtual clock in small steps until the controller is in one of ``states``."""
    spent = 0
    while app.face.controller.state not in states:
        assert spent < limit_ms, "stuck in %s" % app.face.controller.state
        app.advance(100)
        spent += 100
    await pilot.pause()


def make_app(board="pico-neopixel", overrides=None, seed=None, thinking=None):
    return NimatronApp(Face(board, overrides, seed), realtime=False, thinking=thinking)
