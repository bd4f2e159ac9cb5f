# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The Nimatron simulator: the unchanged firmware and real drivers on mocked pins.

    from nimatron_sim import Simulator
    with Simulator("pi-leds") as sim:
        sim.tap("new"); sim.tap("row3"); sim.tap("done")
        sim.advance(4000)
        print(sim.read_lamps(), sim.read_status())

gpiozero boards run on gpiozero's ``MockFactory``; CircuitPython boards on
Adafruit Blinka's OS-agnostic board (see ``blinka_mock``). Import this
package before anything imports ``board``.
"""

from .engine import Simulator  # noqa: F401  (sets BLINKA_OS_AGNOSTIC only when a Blinka bench opens)
