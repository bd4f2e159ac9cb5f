# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every screen of the terminal face, in every language, at the sizes people use.

Played through Textual's Pilot on the real firmware:

- every screen (a game under way, the settings, each operator-menu screen,
  how the machine thinks, the legend and key bar, Grundy's game with a
  selection) in en, es and ru shows words from ``lang/`` only: never an
  internal id (a rule set's id such as ``subtract:3``, a setting's or
  counter's name such as ``walkaway_ms``, a language key such as
  ``sim.say.rows``) and never a key a language file lacks;
- the key bar is whole (every key and its words on screen) at 80x24, 120x40
  and 200x60 and at the size each board asks for, in every language; the
  README's size is enough for the default board;
- while "the terminal is too small" shows, no key but Q acts;
- a 200x60 terminal is used: wide lamps, a wide side panel.
"""

import pathlib
import re

import pytest
from kit_tui import run, screen_text, until
from kit_words import ids_on
from nimatron.config import boards
from nimatron.machine import service
from nimatron.machine.controller import ATTRACT, OVER, SERVICE, VISITOR
from nimatron_sim.face import Face
from nimatron_sim.nimrod import nimrod
from nimatron_sim.tui import ROOMY_LAMP, SIDE_WIDTH, NimatronApp, SettingsScreen
from nimatron_sim.words import Words

LANGS = ("en", "es", "ru")
SIZES = [(80, 24), (120, 40), (200, 60)]
ROOT = pathlib.Path(__file__).resolve().parent.parent


def key_bar(app):
    """(keys on the bar, keys cut or off the screen)."""
    keys = [k for k in app.query("FooterKey") if k.display]  # the key bar's keys, by their widget's type
    width = app.size.width
    return keys, [k.description for k in keys if k.region.right > width or k.region.width < len(k.description)]


async def settled(app, pilot):
    """The face once its closing up (``_fit``: a step each refresh, two at most) has run:
    it fits, or it has stayed closed up all it can for a few refreshes."""
    still = 0
    for _ in range(40):
        await pilot.pause()
        if app.query_one("#face").max_scroll_y == 0:
            return
        still = still + 1 if app._squeeze >= 2 else 0
        if still >= 5:
            return


def check_screen(app, where):
    text = screen_text(app)
    assert not ids_on(text), "%s: internal ids on screen: %s\n%s" % (where, ids_on(text), text)
    assert not app.face.words.missing, "%s: keys no language file has: %s" % (where, app.face.words.missing)
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_speaks_the_visitors_words(lang):
    """A game with its reasoning, the settings, every operator screen: no id, no missing key."""
    app = NimatronApp(
        Face("pico-neopixel", {"preset": "nimrod", "misere": True}, 1, lang=lang), realtime=False, thinking=True
    )

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            check_screen(app, "attract")
            await pilot.press("n")
            await until(app, pilot, (VISITOR, OVER))
            check_screen(app, "the visitor's turn")
            await pilot.press("4", "enter")
            app.advance(300)
            await pilot.pause()
            check_screen(app, "the machine thinking")
            await until(app, pilot, (VISITOR, OVER))
            check_screen(app, "after the machine's move (the log's why, Nimrod's table)")
            await pilot.press("2", "2", "2", "2", "2", "2")  # row B runs out: a refusal in words
            await pilot.pause()
            check_screen(app, "a refusal")
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen)
            check_screen(app, "the settings")
            for select in ("rules", "board", "preset"):  # each list, opened: every choice in words
                app.screen.query_one("#set-" + select).expanded = True
                await pilot.pause()
                check_screen(app, "the settings' %s list" % select)
                app.screen.query_one("#set-" + select).expanded = False
            await pilot.press("escape")
            await pilot.press("o")
            assert app.face.controller.state == SERVICE
            for item in service.ITEMS:
                check_screen(app, "the operator menu at %s" % item)
                await pilot.press("enter")
                app.advance(700)
                await pilot.pause()
                check_screen(app, "the operator's %s" % item)
                if item == "adjust":
                    for _ in range(len(app.face.controller.menu.adjustable())):
                        await pilot.press("enter")
                        check_screen(app, "adjusting %s" % app.face.controller.menu.key)
                        await pilot.press("n", "1")
                        check_screen(app, "the adjustments")
                if item == "audits":
                    for _ in service.AUDITS:
                        await pilot.press("1")
                        check_screen(app, "the audits")
                await pilot.press("n")
                if item == "button_test":
                    await pilot.press("n")
                await pilot.pause()
                await pilot.press("1")
            app.advance(61000)  # untouched a minute: the menu leaves itself
            await pilot.pause()
            assert app.face.controller.state == ATTRACT
            check_screen(app, "the operator's log")

    run(play())


@pytest.mark.parametrize("lang", LANGS)
def test_grundys_game_says_a_split_and_lists_heaps_as_the_lamps_do(lang):
    """A selection in Grundy's game is a split, said so; the heaps Nimrod's
    panel says a move leaves are the ones the log and the lamps then show,
    in the same order (the engine lists a split's parts its own way)."""
    app = NimatronApp(
        Face("pico-grid", {"preset": "grundy", "first": "visitor"}, 1, lang=lang), realtime=False, thinking=True
    )

    def rows_lit():
        return " ".join(str(sum(row)) for row in app.face.controller.panel.lit if sum(row))

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("n")
            await until(app, pilot, (VISITOR,))
            words = app.face.words
            for _ in range(3):
                if app.face.controller.state == OVER:
                    break
                promised = nimrod(app.face.controller)
                out, _ = app.face.controller.panel.lamps_for(promised["after_heaps"])
                for lamp in out:
                    app.cursor = lamp
                    await pilot.press("space")
                text = check_screen(app, "a split chosen")
                assert words.t("sim.say.selected.split", n=len(out)).split(";")[0] in text
                assert words.t("sim.say.selected", n=len(out)).split(";")[0] not in text
                await pilot.press("enter")
                mine = [line for style, line in app.face.log if style == "visitor"][-1]
                assert mine.endswith("→ " + promised["after"]) and rows_lit() == promised["after"], (mine, rows_lit())
                await until(app, pilot, (VISITOR, OVER))
                if app.face.log[-1][0] == "win":
                    break
                machine = [line for style, line in app.face.log if style == "machine"][-1]
                assert machine.endswith("→ " + rows_lit()), (machine, rows_lit())

    run(play())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_key_bar_is_whole_and_a_large_terminal_is_used(lang, size):
    app = NimatronApp(Face("pico-neopixel", {}, 1, lang=lang), realtime=False)

    async def play():
        async with app.run_test(size=size) as pilot:
            await pilot.press("n")
            await until(app, pilot, (VISITOR,))
            keys, cut = key_bar(app)
            assert len(keys) == 7 and not cut, "%s %s: the key bar cuts %s" % (lang, size, cut)
            assert not app.query_one("#too-small").display
            side = app.query_one("#side").region.width
            lamp = app.query_one("#lamp-0-0").region.width
            if size == (200, 60):
                assert side >= size[0] // 3 and lamp == ROOMY_LAMP, (side, lamp)
                assert app.query_one("#lamps").region.height == 3 * len(app.face.layout) - 2  # two lines between rows
            else:
                assert side == SIDE_WIDTH and lamp == 3
            await pilot.resize_terminal(80, 24)  # smaller again: the face as it was
            await pilot.pause()
            await pilot.pause()
            assert app.query_one("#lamp-0-0").region.width == 3 and app.query_one("#side").region.width == SIDE_WIDTH
            check_screen(app, "%s resized to 80x24" % (size,))

    run(play())


@pytest.mark.parametrize("board", boards.names())
def test_each_board_fits_the_size_it_asks_for_in_every_language(board):
    """At the size the app asks for, the face shows whole (no scrolling) and
    so does the key bar; the README's size is enough for the default board."""
    for lang in LANGS:
        app = NimatronApp(Face(board, {}, 1, lang=lang), realtime=False, thinking=True)
        need = app.needed_size()

        async def play():
            async with app.run_test(size=need) as pilot:
                await pilot.press("n")
                await until(app, pilot, (VISITOR, OVER))
                await settled(app, pilot)
                assert not app.query_one("#too-small").display, (board, lang, need)
                assert app.query_one("#face").max_scroll_y == 0, "%s %s scrolls at %s" % (board, lang, need)
                keys, cut = key_bar(app)
                assert len(keys) == 7 and not cut, (board, lang, need, cut)

        run(play())


def test_the_readme_states_the_size_the_default_board_asks_for():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"./run.sh sim .*\((\d+)×(\d+) or larger\)", readme)
    assert found, "README.md: the terminal's size for ./run.sh sim is not stated"
    stated = (int(found.group(1)), int(found.group(2)))
    asked = [NimatronApp(Face("pico-neopixel", {}, 1, lang=lang), realtime=False).needed_size() for lang in LANGS]
    assert all(w <= stated[0] and h <= stated[1] for w, h in asked), (stated, asked)
    docs = (ROOT / "docs" / "simulator.md").read_text(encoding="utf-8")
    assert "(%d×%d or larger)" % stated in docs


def test_no_key_but_q_acts_while_the_terminal_is_too_small():
    app = NimatronApp(Face("pico-neopixel", {}, 1), realtime=False)

    async def play():
        async with app.run_test(size=(60, 18)) as pilot:
            await pilot.pause()
            assert app.query_one("#too-small").display
            await pilot.press("n", "1", "enter", "t", "m", "o", "s")
            app.advance(6000)
            await pilot.pause()
            assert app.face.controller.state == ATTRACT and not app.face.controller.audits.get("games")
            assert not isinstance(app.screen, SettingsScreen) and not app.muted
            keys, _ = key_bar(app)
            assert [k.description for k in keys] == [app.face.t("sim.key.quit")]  # the bar shows what acts
            await pilot.resize_terminal(100, 34)
            await pilot.pause()
            await pilot.press("n")
            assert app.face.controller.state != ATTRACT  # room again: the keys act again
            await pilot.resize_terminal(60, 18)
            await pilot.pause()
            await pilot.press("q")
        assert app.return_code == 0

    run(play())


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_every_refusal_the_firmware_says_has_its_words_in_every_language(lang):
    """A refusal is a firmware sentence through the phrase table: one with no
    template would show in English (Building Nim's did)."""
    said = []
    for path in [ROOT / "firmware" / "nimatron" / "machine" / "turns.py"] + sorted(
        (ROOT / "firmware" / "nimatron" / "panels").glob("*.py")
    ):  # the controller's and the panels' reasons
        said += re.findall(r'(?:_refuse\(\s*|return None, None, \(?)"([^"]+)"', path.read_text(encoding="utf-8"))
    assert len(said) >= 8, said
    words = Words(lang)
    samples = [re.sub(r"%d", "1", re.sub(r"%s", "A", text)) for text in said]
    untranslated = [text for text in samples if words.phrase(text) == text]
    assert not untranslated, untranslated


@pytest.mark.parametrize("lang", LANGS)
def test_the_side_panel_fits_the_readme_size_and_keeps_positions_whole(lang):
    """At 80x24 (the README's size) with how the machine thinks shown, the
    session's counters are on screen (the panel scrolls, it does not push
    them off); at 100x30 the moves panel never breaks a position mid-way."""
    app = NimatronApp(
        Face("pico-neopixel", {"preset": "nimrod", "think_ms": 0}, 1, lang=lang), realtime=False, thinking=True
    )

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            await until(app, pilot, (VISITOR, OVER))
            text = check_screen(app, "80x24 thinking")
            assert app.t("sim.title.session") in text, text
            audits = app.query_one("#audits").region
            assert audits.bottom <= app.size.height - 1, audits  # above the key bar
            await pilot.resize_terminal(100, 30)
            for _ in range(3):
                if app.face.controller.state != VISITOR:
                    break
                await pilot.press("4", "enter")
                await until(app, pilot, (VISITOR, OVER))
            await pilot.pause()
            log = app.query_one("#log")
            shown = [strip.text for strip in log.lines]
            for line, after in zip(shown, shown[1:]):  # "→ 0" then "0 4 4" on the next line
                assert not (re.search(r"\d$", line.rstrip()) and re.match(r"\s*\d+( \d+)+\s*$", after)), (line, after)
            positions = [m.group(1) for style, line in app.face.log for m in re.finditer(r"→ (\d+(?: \d+)+)", line)]
            assert positions and all(any(p in line for line in shown) for p in positions), (positions, shown)

    run(play())


@pytest.mark.parametrize("preset,size", [("grundy", (80, 24)), ("graph", (100, 30))])
def test_how_it_thinks_scrolls_to_its_last_line(preset, size):
    """A long panel (Grundy's value table, Graph Nim's groups) does not fit
    the side at 80x24 or 100x30: it scrolls, with a scroll bar, and its last
    line (the move, the glosses) can be reached; it was clipped mid-sentence."""
    app = NimatronApp(Face("pico-grid", {"preset": preset, "think_ms": 0}, 1, lang="en"), realtime=False, thinking=True)

    async def play():
        async with app.run_test(size=size) as pilot:
            await pilot.press("n")
            await until(app, pilot, (VISITOR,))
            await pilot.pause()
            panel = [w for w in app.query("*") if w.border_title == app.t("sim.title.thinking")][0]
            assert panel.show_vertical_scrollbar, "the panel is longer than its place: a scroll bar says so"
            panel.scroll_end(animate=False)
            await pilot.pause()
            last = [line for line in app.face.reasoning() if line.strip()][-1]
            assert " ".join(last.split()[:3]) in " ".join(screen_text(app).split()), last

    run(play())


def test_every_preset_of_the_row_boards_asks_for_no_more_than_80x24():
    """The README's 80x24 holds every game the row boards play, in every
    language (issue 44: the count to 21 on one row asked for 99x13, Dr. NIM's
    15 for 87x13: two columns a lamp beside the TAKE button)."""
    from nimatron.config import settings as nsettings

    too_big = []
    for board in ("pico-neopixel", "pi-neopixel"):
        for preset in nsettings.PRESETS:
            for lang in LANGS:
                try:
                    face = Face(board, {"preset": preset}, 1, lang=lang)
                except ValueError:  # refused on this board (said in words by Settings)
                    continue
                need = NimatronApp(face, realtime=False).needed_size()
                face.close()
                if need[0] > 80 or need[1] > 24:
                    too_big.append((board, preset, lang, need))
    assert not too_big, too_big


@pytest.mark.parametrize("preset", ["21", "drnim"])
def test_a_long_row_fits_80x24_whole_in_every_language(preset):
    """At 80x24 a row of 21 (or 15) shows every lamp, its TAKE button, the key
    bar and the title whole (in Spanish the title was cut to "E…")."""
    for lang in LANGS:
        app = NimatronApp(Face("pico-neopixel", {"preset": preset}, 1, lang=lang), realtime=False)

        async def play():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.press("n")
                await until(app, pilot, (VISITOR, OVER))
                await settled(app, pilot)
                assert not app.query_one("#too-small").display, (preset, lang)
                assert app.query_one("#face").max_scroll_y == 0, (preset, lang)
                lamps = list(app.query("LampWidget"))
                assert len(lamps) == app.face.layout[0] and all(0 < w.region.right <= 80 for w in lamps), (preset, lang)
                face = app.query_one("#face").region
                button = app.query_one("#row-0").region
                assert button.width and button.right <= face.right, (preset, lang, button, face)
                keys, cut = key_bar(app)
                assert len(keys) == 7 and not cut, (preset, lang, cut)
                text = check_screen(app, "%s %s 80x24" % (preset, lang))
                assert app.sub_title in text, (preset, lang, app.sub_title)

        run(play())
