# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The MacroPad keeps in its heap only what it plays (MicroPython, precompiled
as a board runs it): the stock board had 12.7 KB free in a game, and
``config.settings`` (5 KB of bytecode on the board) stayed resident after the
OLED's attract text read one preset's words from it."""


import mpy_runner


def test_the_oled_and_the_encoder_leave_no_module_behind(tmp_path):
    tree = mpy_runner.tree(str(tmp_path))
    out = mpy_runner.run("mpy/run_pad_memory.py", heap="256K", paths=(tree,))
    assert out.returncode == 0, out.stdout + out.stderr
    # resident afterwards: config.settings, games.explain (the binary words of Nimrod's presets)
    assert out.stdout.split("\n")[:3] == ["attract False False", "nim False False", "encoder False"], out.stdout
