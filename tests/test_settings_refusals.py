# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Settings the firmware refuses, said in words (issue 44): the terminal's
Settings showed the firmware's sentence ("preset 100: layout [100] needs 100
pixels after pixel 4; the panel has 28 lamp holes"), a preset's id and a
driver's jargon. Every refusal a board and a preset can make (the sweep of
every board by every preset, built as Apply builds them) is said in every
language without an id, a layout's list or pixels, its numbers kept."""

import re

import pytest
from kit_words import LANGS, ids_on
from nimatron.config import boards, settings as nsettings
from nimatron_sim.face import Face
from nimatron_sim.words import Words

JARGON = re.compile(r"\[|\bpixels?\b|lamp holes|layout|heaps?\b|preset", re.I)
# Firmware sentences said in the general words ("that game cannot be played on this board"): none other
GENERAL = (re.compile(r"circular Nim on this ring needs a circle of all \d+ lamps"),)


def _refusals():
    """(board, preset, the firmware's first line) for every pair Apply refuses."""
    out = []
    for board in boards.names():
        for preset in nsettings.PRESETS:
            try:
                Face(board, {"preset": preset}).close()
            except ValueError as e:  # what NimatronApp.restart catches
                out.append((board, preset, str(e).split("\n")[0]))
    return out


@pytest.fixture(scope="module")
def refusals():
    return _refusals()


@pytest.mark.parametrize("lang", LANGS)
def test_the_large_preset_on_a_small_panel_is_said_in_lamps(lang):
    with pytest.raises(ValueError) as refused:  # the QA's case: Settings on the default board, the game of 100
        Face("pico-neopixel", {"preset": "100"})
    error = str(refused.value).split("\n")[0]
    words = Words(lang)
    said = words.refused(error)
    assert said == words.t("settings.refused.lamps", have=28, need=100)
    assert "28" in said and "100" in said
    assert not JARGON.search(said) and not ids_on(said), said


@pytest.mark.slow  # the sweep builds every board by every preset: ~17 s, most of it pi-leds' 0.6 s start
@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_is_said_in_words_without_ids(lang, refusals):
    words = Words(lang)
    general = words.t("settings.refused.other")
    kinds = {k: words.t("settings.refused." + k).split("{")[0] for k in ("lamps", "rows", "row", "grid")}
    seen = set()
    for board, preset, error in refusals:
        said = words.refused(error)
        assert error not in said and not JARGON.search(said) and not ids_on(said), (board, preset, error, said)
        assert said.strip() and "{" not in said, (board, preset, error, said)
        if said == general:
            assert any(p.search(error) for p in GENERAL), ("said only in general words", error)
        else:
            seen.update(k for k, start in kinds.items() if said.startswith(start))
    assert seen == set(kinds)  # every kind the boards and presets make, said in its own words
    assert not words.missing
    assert len(refusals) > 50  # the sweep found the refusals (boards by presets)
