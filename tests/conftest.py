# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
import os
import sys

import pytest

# Shared helpers in tests/ (oracle, scenarios) import as top-level modules.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# The scenario files hold the asserts of many tests (and run under MicroPython
# too): let pytest explain their failures as it does a test module's.
pytest.register_assert_rewrite(
    "kit_sim",
    "kit_link",
    "kit_tui",
    "kit_web",
    "kit_page",
    "kit_host",
    "kit_core",
    "controller_scenarios",
    "counter_scenarios",
    "service_scenarios",
    "store_scenarios",
    "oracle",
    "devtools",
)

# Markers by module, so a test file needs no decoration to be selected with
# -m: "browser" drives headless Chromium (or tmux), "micropython" runs the
# MicroPython unix port; "slow" (left out of the quick run) is given to
# those, to the modules in SLOW and to a test by its own decorator.
BROWSER = {
    "test_web_page",
    "test_web_boards",
    "test_web_games",
    "test_web_display",
    "test_web_layout",
    "test_kiosk",
    "test_web_axe",
    "test_host_miniterm",
}
MICROPYTHON = {
    "test_micropython",
    "test_micropython_controller",
    "test_board_memory",
    "test_macropad_memory",
    "test_resident",
    "test_set_passes",
    "test_hold_heap",
    "test_store_fragmented",
}
# Whole modules left out of the quick run (``./test.sh -m "not slow"``, the
# README): the thousand-game checks of the perfect machine, the terminal
# app's tours of every board, screen and language, the memory
# choreography under MicroPython, the deploy generators and the soaks. Each
# took 40-300 s of a worker's time in the whole suite (``--durations=0``,
# docs/benchmarks.md); a single slow test elsewhere carries its own mark.
SLOW = {
    "test_sim",
    "test_tui",
    "test_tui_screens",
    "test_tui_operator",
    "test_tui_lang",
    "test_tui_board",
    "test_deploy_faults",
    "test_deploy_drive",
    "test_registry",
    "test_soak",
    "test_host_deploy",
    "test_rule_words",
    "test_graph",
    "test_boards",
    "test_set_peak",
    "test_menu_passes",
    "test_one_collection",
    "test_building",
    "test_checks",
    "test_press_lamp",
    "test_nim2d",
    "test_menu_deployed",
    "test_link_room",
    "test_names_budget",
    "test_set_apply",
    "test_menu_visit",
    "test_link_loads",
    "test_store_spans",
    "test_start_faults",
    "test_frozen_firmware",
    "test_explain_passes",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rpartition(".")[2] if item.module else ""
        if module in BROWSER:
            item.add_marker(pytest.mark.browser)
        if module in MICROPYTHON:
            item.add_marker(pytest.mark.micropython)
        if module in SLOW or module in BROWSER or module in MICROPYTHON:
            item.add_marker(pytest.mark.slow)


# Fixtures every test module may ask for by name (test modules never import
# each other: what they share lives in the kit_* modules).
from kit_sim import sims  # noqa: E402,F401
from kit_web import display, machine_on_a_pty  # noqa: E402,F401


@pytest.fixture(scope="session")
def firmware_tree(tmp_path_factory):
    """The firmware compiled to .mpy with tests/fake_io (``mpy_runner.tree``)
    once a worker, for every module's MicroPython runs that only read it:
    each module (and some each test) compiled its own, about 44 compiles of
    the whole package a run. A short folder name: each module's path is one
    interned name in the heap the runs measure."""
    import mpy_runner

    return mpy_runner.tree(str(tmp_path_factory.mktemp("fw")))


@pytest.fixture(autouse=True, scope="module")
def _earlier_modules_objects_frozen():
    """The firmware collects the heap where a board must (``passes.collect``:
    ``gc.collect()``); on CPython that is a full collection of every object
    the worker holds. Late in a full run a worker held enough that each one
    took 50-300 ms: a deploy test that takes 23 s alone took 400 s there
    (``--durations``, 2026-11-27). So each test module starts with what the
    modules before it left frozen (``gc.freeze``: never scanned again), and
    unfreezes it at its end, when the next module's first collection frees
    whatever of it became garbage."""
    import gc

    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def _passes_as_at_power_on():
    """Each test starts with the main loop's pass bookkeeping as a fresh
    board has it (``nimatron.passes``: module state, like a board's): a
    collection one test made in "pass 0" otherwise told the next test's link
    that its first pass had collected already (tests/test_link_room.py)."""
    from nimatron import passes

    passes._swept[:] = [0, -1, -1]
    passes._next[0] = None
    passes._heap[:] = [0, 0, -2, None]
    yield
