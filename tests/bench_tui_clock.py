# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The interactive simulator's clock against the wall clock (not collected by
pytest): ``python tests/bench_tui_clock.py``.

The TUI's virtual clock follows ``time.monotonic`` from a 30 ms timer; the
logic is tested with an injected clock (tests/test_tui.py), the timing is
measured here: how far the virtual clock drifts from the wall clock over a
few seconds of an idle machine (a loaded computer shows as lag).
"""

import argparse
import asyncio
import time

from nimatron_sim.face import Face
from nimatron_sim.tui import NimatronApp


async def drift(seconds):
    app = NimatronApp(Face("pico-neopixel"), realtime=True)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause(0.5)  # past the start-up, which the first tick makes up for
        start_wall, start_virtual = time.monotonic(), app.face.now
        await pilot.pause(seconds)
        return (time.monotonic() - start_wall) * 1000, app.face.now - start_virtual


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=3.0)
    args = p.parse_args()
    wall, virtual = asyncio.run(drift(args.seconds))
    print(
        "wall %.0f ms, virtual %d ms: the virtual clock is %.0f ms behind (%.1f%%)"
        % (wall, virtual, wall - virtual, 100.0 * (wall - virtual) / wall)
    )


if __name__ == "__main__":
    main()
