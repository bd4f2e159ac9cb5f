# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The terminal app in English, Spanish and Russian (``--lang``), from the
same one-file-per-language JSON as the web page: no English word left on a
Spanish or Russian screen, every key it asks for in every file, and the face
fits an 80x24 terminal in every language (also the Circuit Playground's long
legend), or the size a board asks for where it needs more, played headless through Textual's Pilot on the real firmware."""

import json
import os
import re

import pytest
from kit_tui import run, screen_text, until
from nimatron.machine.controller import OVER, VISITOR
from nimatron_host.cli import main
from nimatron_sim import words as words_module
from nimatron_sim.face import Face
from nimatron_sim.tui import NimatronApp
from nimatron_sim.words import Words

SMALL = (80, 24)
# (board, settings, presses of the visitor's first move): a row board, the ring, each new game on the grid
GAMES = [
    ("pico-neopixel", {"preset": "nimrod"}, ["4", "enter"]),
    ("circuitplayground", {}, ["b", "enter"]),
    ("pico-grid", {"preset": "building", "first": "visitor"}, ["1", "enter"]),
    ("pico-grid", {"preset": "graph"}, ["space", "enter"]),
    ("pico-grid", {"preset": "candy"}, ["space", "enter"]),
    ("pico-grid", {"preset": "nim2d"}, ["space", "enter"]),
]


def at_least_80x24(app):
    """80x24, or the size the board asks for where it needs more (pico-grid's eight rows)."""
    need = app.needed_size()
    return max(SMALL[0], need[0]), max(SMALL[1], need[1])


def english_words(lang):
    """Words of the English file that the other language's file never uses:
    any of them on a screen in that language is a word left untranslated."""

    def words_of(name):
        with open(os.path.join(words_module.FOLDER, name + ".json"), encoding="utf-8") as f:
            data = json.load(f)
        text = " ".join(list(data["text"].values()) + list(data["phrases"].values()))
        return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", " ", text))}

    return words_of("en") - words_of(lang)


def english_left(text, lang, face):
    """English words on a screen in ``lang`` (the settings' lists included:
    the boards' and presets' descriptions are phrases of the language file)."""
    names = set(re.findall(r"[a-z]{4,}", " ".join([face.board, face.settings["preset"], face.controller.rules.spec])))
    names.add("nimatron")  # the machine's name, in the title
    return sorted({w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)} & english_words(lang) - names)


def test_words_by_key_and_phrases_with_fallback():
    es = Words("es")
    assert es.t("status.visitor") == "TU TURNO"
    assert es.t("sim.log.why", why="x") == "  por qué — x"
    assert es.phrase("take 2 from heap A") == "quitar 2 de la fila A"  # the firmware says heap, a screen row
    assert es.phrase("not a legal move: take 1 to 3 from one heap") == "no es una jugada válida: " + es.phrase(
        "take 1 to 3 from one heap"
    )  # parts translated too
    assert es.phrase("a sentence with no template") == "a sentence with no template"
    assert es.t("no.such.key") == "no.such.key" and es.missing == {"no.such.key"}
    with pytest.raises(ValueError, match="--lang must be one of en, es, ru"):
        Words("tlh")


@pytest.mark.parametrize("lang", ["es", "ru"])
@pytest.mark.parametrize("board, settings, presses", GAMES)
def test_screen_has_no_english_words_and_fits_80x24(lang, board, settings, presses):
    app = NimatronApp(Face(board, settings, 1, lang=lang), realtime=False, thinking=True)
    size = at_least_80x24(app)

    async def play():
        async with app.run_test(size=size) as pilot:
            seen = [screen_text(app)]
            await pilot.press("n")
            await until(app, pilot, (VISITOR, OVER))
            seen.append(screen_text(app))
            await pilot.press(*presses)
            app.advance(300)
            await pilot.pause()
            seen.append(screen_text(app))  # the machine thinking, then showing its move
            await until(app, pilot, (VISITOR, OVER))
            seen.append(screen_text(app))
            face = app.query_one("#face")
            assert face.max_scroll_y == 0, "the face scrolls at 80x24 in %s" % lang
            assert app.query_one("#legend").region.bottom <= size[1] - 1  # the legend is on screen, whole
            await pilot.press("s")
            seen.append(screen_text(app))  # the settings screen
            await pilot.press("escape")
            for text in seen:
                assert not english_left(text, lang, app.face), text
            assert not app.face.words.missing

    run(play())


def test_english_screen_words_are_all_in_the_english_file():
    """Every key the terminal asks for exists (no key shown as itself)."""
    for board, settings, presses in GAMES:
        app = NimatronApp(Face(board, settings, 1), realtime=False, thinking=True)

        async def play():
            async with app.run_test(size=at_least_80x24(app)) as pilot:
                await pilot.press("n")
                await until(app, pilot, (VISITOR, OVER))
                await pilot.press(*presses)
                await until(app, pilot, (VISITOR, OVER))
                assert app.query_one("#face").max_scroll_y == 0, board

        run(play())
        assert not app.face.words.missing, board


def test_bad_lang_is_one_line_and_exit_2(capsys):
    assert main(["sim", "--lang", "tlh"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lang must be one of en, es, ru, got 'tlh'" in err


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_every_board_and_preset_description_is_translated(lang):
    """The settings' lists (terminal and page) show each board's and preset's
    description: a new pin map or preset needs its sentence in every file."""
    from nimatron.config import boards, settings

    words = Words(lang)
    abouts = [boards.board(n)["about"] for n in boards.names()] + [p["about"] for p in settings.PRESETS.values()]
    untranslated = [a for a in abouts if words.phrase(a) == a]
    assert not untranslated, untranslated
