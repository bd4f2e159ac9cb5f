# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The operator menu with the lists ``nimatron deploy`` checked on the host
# (config/choices.txt in the tree): the presets' list shows at once, loading
# no rule set's module; another preset chosen is checked here first, a
# pass at a time, then saved and played; a value the deploy listed that this
# board refuses is said (``adjusted`` with ``error``) and leaves the list.
# Prints "shown N", "saved P", "refused V: why", then "ok" (exit 3 at the first fault).
# MICROPYPATH=<compiled tree with config/choices.txt> micropython run_menu_deployed.py BOARD PRESET [REFUSED]
import sys

from counting_gc import counts, install
from fake_io import FakeIO

install()

from nimatron.machine.app import make_controller  # noqa: E402

board, preset = sys.argv[1], sys.argv[2]
refused = sys.argv[3] if len(sys.argv) > 3 else None
events = []
c = make_controller(board, {"preset": preset}, FakeIO(), listener=events.append)
now = 0


def fail(why):
    print(why)
    sys.exit(3)


def poll(what, n=1):
    """Passes of the main loop: at most one heavy thing in each (a module
    loaded or a collection)."""
    global now
    for _ in range(n):
        before = len(sys.modules)
        counts["collect"] = 0
        now += 20
        c.update(now)
        heavy = len(sys.modules) - before + counts["collect"]
        if heavy > 1:
            fail(
                "%s: a pass loaded %d modules and collected %d times"
                % (what, len(sys.modules) - before, counts["collect"])
            )


def tap(role):
    c.menu.tap(role, now)
    poll(role)


def games():
    return [m for m in sys.modules if m.startswith("nimatron.games.") or m.startswith("nimatron.panels.")]


fwd = "key 0 0" if c.input_model == "grid" else "row0"
c.service(True, now, by="link")
poll("open", 5)
for role in (fwd, fwd, fwd, "done"):  # the adjustments, then the presets' values
    tap(role)
poll("the adjustments' modules", 12)
menu = c.menu
if menu.screen != "adjust" or menu.adjustable()[menu.index] != "preset":
    fail("not on the presets: %s" % menu.screen)
before = games()
tap("done")
poll("the deploy's list read", 12)
if not menu.unchecked or menu.work is not None:
    fail("the deploy's list was not read")
if games() != before:
    fail("opening the list loaded %s" % " ".join(m for m in games() if m not in before))
shown = list(menu.choices)
print("shown", len(shown))
if menu.choices[menu.index] != preset:
    fail("the current preset is not the one shown")
want = refused if refused is not None else [p for p in shown if p != preset][-1]
while menu.choices[menu.index] != want:
    tap(fwd)
tap("done")
for _ in range(200):
    if menu.work is None and not menu.saving:
        break
    poll("checking and saving %s" % want)
else:
    fail("%s: not done after 200 passes" % want)
said = [e for e in events if e.get("event") == "adjusted"]
if not said:
    fail("no adjusted event")
if refused is not None:
    if "error" not in said[-1] or c.settings["preset"] != preset or want in menu.choices:
        fail(
            "refused value: %r, preset now %s, still listed %s" % (said[-1], c.settings["preset"], want in menu.choices)
        )
    print("refused %s: %s" % (want, said[-1]["error"]))
else:
    if said[-1].get("error") or c.settings["preset"] != want:
        fail("not saved: %r" % said[-1])
    print("saved", want)
for _ in range(3):  # back to the settings (a refused value leaves the list shown), the menu, out
    if c.menu is not None:
        tap("new")
poll("closed", 5)
if c.menu is not None:
    fail("the menu did not close")
c.new_game(now)
poll("the game", 50)
if c.panel is None:
    fail("no game after the menu")
print("ok")
