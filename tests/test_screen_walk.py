# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every screen of every board and preset, in every language, walked in
words: no id, no missing key, and no screen that disagrees with the counts.

The kind of fault: a screen that shows the machine's own names (a board's
id "pico-neopixel", a preset's "allheaps" or "nimatron" written so, a rule
set's "subtract:3", a language key) or that contradicts another (a log that
says "Game abandoned." while the counter says none was; a lamp lit as "in
play" in a row whose count says 0; "Row A" on the buttons beside "take 3
from heap A" in the log: one heap called by two words). The generator is the walk itself: every
board with every preset it can play (the faces' own ``Face`` and the
terminal's and Settings' functions, no Textual, so it is quick), a whole
game played to its end with random legal moves, the win's light show, and
the operator menu's every screen; a Hypothesis run of presses (NEW before
and after moves, the operator chord, whole games) checks the log against
the counters. The page and the crowd view read the same words through the
same keys (``board.*``, ``preset.*``: every one is checked here); the
Chromium tests (``tests/test_web_words.py``) and the Textual one
(``tests/test_tui_screens.py``) read their screens with the same detector.
"""

import random
import re

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from kit_words import ids_on, mixed_words, names_shown
from nimatron.config import boards, settings as nsettings
from nimatron.games import strategy
from nimatron.machine import service
from nimatron.machine.controller import ATTRACT, OVER, SERVICE, VISITOR
from nimatron_sim.engine import playable_presets
from nimatron_sim.face import Face
from nimatron_sim.nimrod import nimrod
from nimatron_sim.operator_words import screen as operator_screen
from nimatron_sim.tui import CHOICE_WIDTH, board_choices, difficulty_choices, preset_choices, title, wrap_log
from nimatron_sim.web.state import snapshot
from nimatron_sim.words import Words

LANGS = ("en", "es", "ru")
QUICK = {"think_ms": 0, "show_ms": 100}
TWO_COLONS = re.compile(r": [^\n.;·—()]*: ")  # "No está permitido: una fila por turno: sigue…"


def check(texts, words, where):
    """Each text shown: no id, no two colons in one clause; no key missing."""
    for text in texts:
        assert not ids_on(text), "%s: ids on screen %s in %r" % (where, ids_on(text), text)
        assert not TWO_COLONS.search(text), "%s: two colons in a row: %r" % (where, text)
    assert not words.missing, "%s: keys no language file has: %s" % (where, sorted(words.missing))


def one_word_for_a_heap(texts, face, where):
    """A heap on a row of lamps is a "row" on the whole screen; Grundy's game says "heap" and never "row"."""
    mixed = mixed_words(texts, face.words, face.controller.rules.panel)
    assert not mixed, "%s: a heap called by two words on one screen: %s" % (where, mixed)


def log_agrees_with_counters(face, where):
    """The log against the counters: games begun less those withdrawn (NEW
    before any move), abandoned, won and lost; each "Game N" numbered as counted."""
    t = face.t
    counted = 0
    seen = {"abandoned": 0, "visitor_wins": 0, "machine_wins": 0}
    pending = False
    for style, line in face.log:
        if style == "game":
            counted += 1
            assert line.startswith(t("sim.log.game", n=counted, position="").split(" ")[0]), (where, line)
            assert (" %d" % counted) in line.split(":")[0], "%s: %r numbered as game %d" % (where, line, counted)
            pending = True
        elif line == t("log.withdrawn"):
            assert pending, (where, face.log)
            counted -= 1
            pending = False
        elif line == t("log.abandoned"):
            seen["abandoned"] += 1
            pending = False
        elif style == "win":
            seen["visitor_wins"] += 1
            pending = False
        elif style == "loss":
            seen["machine_wins"] += 1
            pending = False
    audits = face.audits()
    assert counted == audits["games"], "%s: the log shows %d games, the counter %d\n%s" % (
        where,
        counted,
        audits["games"],
        face.log,
    )
    for key, n in seen.items():
        assert audits[key] == n, "%s: the log shows %s %d, the counter %d\n%s" % (where, key, n, audits[key], face.log)


def lamps_agree_with_counts(face, where):
    """What each row shows against its count: the lamps drawn as in play
    (lit, selected, a hint, being taken) are as many as the count beside it."""
    panel = face.controller.panel
    if panel is None or face.counter() is not None:
        return
    for r, row in enumerate(face.lamps()):
        shown = sum(1 for lamp in row if lamp.kind in ("lit", "selected", "hint", "taking", "refused"))
        assert shown == sum(panel.lit[r]), "%s: row %d shows %d lamps in play, its count says %d: %s" % (
            where,
            r,
            shown,
            sum(panel.lit[r]),
            [lamp.glyph for lamp in row],
        )


def visitor_move(face, rng, best=False):
    """A random legal move (``best``: a winning one where there is one, so that
    the visitor wins and the champion's light show runs), pressed as the visitor
    would (the row's TAKE, or the lamps' keys, then DONE)."""
    c = face.controller
    heaps, ring = c.position()
    moves = list(c.rules.moves(heaps, ring))
    after = moves[rng.randrange(len(moves))]
    if best:
        try:
            solved = strategy.solve(c.rules, heaps, c.misere, ring)
        except ValueError:
            solved = None
        if solved is not None and solved["outcome"] == "win":
            after = solved["after"]
    lamps, light = c.panel.lamps_for(after)
    done = ["done"]
    if c.rules.name == "building" and light:  # a stone placed: one press, no DONE
        lamps, done = light, []
    if c.input_model == "rows":
        return ["row%d" % r for r, _ in lamps] + done
    return ["key %d %d" % (r, i) for r, i in lamps] + done


def press(face, role):
    face.controller.press(role, face.now)
    face.advance(20)


def screens(face):
    """Everything the terminal's face shows now, in words (the page shows the same, from the same keys)."""
    out = (
        [title(face), face.rules_line(), face.message(), face.counter_words(), face.t("sim.audits", **face.audits())]
        + face.rows_words()
        + [line for _, line in face.log]
    )
    if face.controller.state not in (ATTRACT, SERVICE):
        out += face.reasoning()
    return out


def play_a_game(face, rng, where):
    press(face, "new")
    face.advance(200)
    for _ in range(200):
        state = face.controller.state
        if state == OVER:
            break
        if state == VISITOR:
            check(screens(face), face.words, where + " the visitor's turn")
            one_word_for_a_heap(screens(face), face, where + " the visitor's turn")
            lamps_agree_with_counts(face, where)
            for role in visitor_move(face, rng, best=True):
                press(face, role)
                lamps_agree_with_counts(face, where + " after " + role)
                one_word_for_a_heap(screens(face), face, where + " after " + role)
        face.advance(150)
        lamps_agree_with_counts(face, where)
    assert face.controller.state == OVER, (where, face.controller.state)
    for _ in range(20):  # the win's light show: the lamps keep their meaning
        check(screens(face), face.words, where + " game over")
        one_word_for_a_heap(screens(face), face, where + " game over")
        lamps_agree_with_counts(face, where + " game over")
        face.advance(97)
    log_agrees_with_counters(face, where)


def walk_menu(face, where):
    """Every screen of the operator menu, opened by the chord (or SERVICE ON)."""
    before = face.audits()
    face.chord()
    c = face.controller
    assert c.state == SERVICE, where
    assert face.audits()["abandoned"] == before["abandoned"], "%s: opening the menu counted a game abandoned" % where
    menu = c.menu
    seen = set()
    for _k, item in enumerate(service.ITEMS):
        check([operator_screen(c, face.roles, face.words)], face.words, "%s menu %s" % (where, item))
        if item in ("burn_in",):
            menu.step(1, face.now)
            continue
        menu.select(face.now)
        face.advance(50)
        for _ in range(len(service.AUDITS) if item == "audits" else len(menu.adjustable()) if item == "adjust" else 1):
            text = operator_screen(c, face.roles, face.words)
            check([text], face.words, "%s %s" % (where, item))
            seen.add(text)
            if item == "adjust":
                menu.select(face.now)  # the value's screen: every choice of it in words
                for _ in range(40):
                    face.advance(30)
                    if menu.screen == "adjust_value" and menu.work is None:
                        break
                for _ in range(len(getattr(menu, "choices", None) or [])):
                    check([operator_screen(c, face.roles, face.words)], face.words, "%s adjusting" % where)
                    menu.step(1, face.now)
                menu.back(face.now)
                face.advance(30)
            if item in ("audits", "adjust"):
                menu.step(1, face.now)
        if menu.screen == "confirm":  # clear the counters / factory settings: answer no
            menu.select(face.now)
        else:
            menu.back(face.now)
        face.advance(50)
        menu.step(1, face.now)
    menu.back(face.now)
    face.advance(100)
    check(screens(face), face.words, where + " the menu closed")
    log_agrees_with_counters(face, where + " the menu closed")


def test_every_board_and_preset_has_a_name_in_every_language():
    """The faces name a board and a preset only through ``board.*`` and ``preset.*``."""
    for lang in LANGS:
        words = Words(lang)
        for board in boards.names():
            assert not ids_on(words.board(board)), (lang, board)
        for preset in nsettings.PRESETS:
            assert not ids_on(words.preset(preset)), (lang, preset)
        assert not words.missing, (lang, words.missing)


def test_the_detector_finds_every_kind_of_id():
    """Planted: each wrong screen the issue found, and a Settings line by id, is caught."""
    planted = [
        "NIMATRON — pico-grid · allheaps",
        "Difficulty: perfect · first: you · preset nimatron",
        "modo nimatron",
        "набор nimatron",
        "Board pico-neopixel: Raspberry Pi Pico",
        "Following the game on board pico-neopixel.",
        "allheaps: Take from one row",
        "pad-marienbad: Misere Nim",
        "take 1 to 3 (subtract:3)",
        "sim.say.rows",
        "Cannot use these — preset 100: layout [100] needs 100 pixels after pixel 4; the panel has 28 lamp holes",
    ]
    for text in planted:
        assert ids_on(text), text
    for fine in ("Nimatron, 1940", "nim-sum 3", "Nim circular", "The game of 21", "Nimrod, 1951"):
        assert not ids_on(fine), fine
    assert {"pico-neopixel", "pad-marienbad", "allheaps", "nimatron"} <= set(names_shown())


@pytest.mark.parametrize("lang", LANGS)
def test_settings_name_every_board_preset_and_difficulty_in_words(lang):
    words = Words(lang)
    for board in boards.names():
        texts = [text for text, _ in board_choices(words) + preset_choices(board, words) + difficulty_choices(words)]
        check(texts, words, "%s settings on %s" % (lang, board))
        cut = [text for text in texts if len(text) > CHOICE_WIDTH]  # at 80x24 the list shows this much
        assert not cut, "%s: Settings would cut %s" % (lang, cut)
        own = preset_choices(board, words)[0][0]
        assert words.preset(boards.board(board)["preset"]) in own, "%s: %r does not say which preset" % (lang, own)
    for d in nsettings.DIFFICULTIES:  # each difficulty said what it does, where it is chosen
        assert words.t("difficulty.about." + d) in {v: k for k, v in difficulty_choices(words)}[d]


def walks():
    """(board, preset, language): each preset a board plays in one language
    (in turn), the board's own preset in all three (with its operator menu)."""
    out = []
    for board in boards.names():
        own = boards.board(board)["preset"]
        others = [p for p in playable_presets(board) if p != own]
        out += [(board, p, LANGS[k % 3]) for k, p in enumerate(others)] + [(board, own, lang) for lang in LANGS]
    return out


@pytest.mark.parametrize("board,preset,lang", walks())
def test_every_screen_of_every_preset_in_words_and_in_agreement(board, preset, lang):
    """A whole game to its end and its light show; the operator menu on the board's own preset."""
    where = "%s %s %s" % (board, preset, lang)
    rng = random.Random(where)
    face = Face(board, dict(QUICK, preset=preset), rng.randrange(1000), lang=lang)
    try:
        check(screens(face), face.words, where + " attract")
        play_a_game(face, rng, where)
        if preset == boards.board(board)["preset"]:
            walk_menu(face, where)
    finally:
        face.close()


@pytest.mark.parametrize("board", ["pico-neopixel", "pico-grid"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(st.sampled_from(["new", "move", "moves", "menu", "wait"]), min_size=1, max_size=10),
    seed=st.integers(0, 99),
)
def test_the_log_and_the_counters_agree_whatever_is_pressed(board, steps, seed):
    """NEW before any move is no game (the log says so, the counter agrees);
    NEW after a move is an abandoned game in both; the operator menu opened
    over an untouched game counts nothing."""
    rng = random.Random(seed)
    face = Face(board, dict(QUICK), seed)
    try:
        for step in steps:
            c = face.controller
            if step == "new":
                press(face, "new")
            elif step in ("move", "moves") and c.state == VISITOR:
                for _ in range(1 if step == "move" else 3):
                    if face.controller.state != VISITOR:
                        break
                    for role in visitor_move(face, rng):
                        press(face, role)
                    face.advance(400)
            elif step == "menu":
                face.chord()
                face.controller.menu.back(face.now) if face.controller.menu else None
            face.advance(300)
            log_agrees_with_counters(face, "%s %s" % (board, steps))
            lamps_agree_with_counts(face, "%s %s" % (board, steps))
    finally:
        face.close()


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.sampled_from(["Machine:", "take", "3", "from", "heap", "A", "→", "why", "—"]), max_size=12),
    heaps=st.lists(st.integers(0, 15), min_size=2, max_size=6),
    width=st.integers(12, 40),
)
@example(words=["3", "3"], heaps=[0, 0, 0, 0, 0], width=12)  # "→ 0 0 0 0 0 3": 11 columns with the 3, a line's room 10
def test_the_log_never_breaks_a_position(words, heaps, width):
    """The terminal's moves panel wraps a line at its width but never inside
    a position ("→ 0 0 4 4" once broke as "→ 0" / "0 4 4" at 100x30), unless
    the position, with the numbers that follow it, is longer than a line."""
    position = " ".join(str(h) for h in heaps)
    after = words[1:] if words and words[0].isdigit() else words
    text = " ".join(words + ["→", position] + after)
    lines = wrap_log(text, width)
    run = position  # "→ 0 0 0 0 0 3": the numbers after it read as part of it (``tui.POSITION``)
    for word in after:
        if not word.isdigit():
            break
        run += " " + word
    if len(run) <= width - 2:
        assert any(position in line for line in lines), (lines, position)
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # nothing lost, nothing added


def test_the_page_shows_every_counter_the_server_sends():
    """The page's and the terminal's counters' words have a place for every
    counter a state carries (the page once dropped "abandoned")."""
    face = Face("pico-neopixel", dict(QUICK), 1)

    class Machine:
        id = "x"
        note = None
        events = []

        def buttons(self):
            return []

    Machine.face = face
    sent = snapshot(Machine())["audits"]
    face.close()
    for lang in LANGS:
        words = Words(lang)
        for key in ("audits", "sim.audits"):
            shown = words.t(key, **{k: 1000 + n for n, k in enumerate(sent)})
            assert all(str(1000 + n) in shown for n in range(len(sent))), (lang, key, shown)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "preset,terms",
    [
        ("nimrod", ["nimrod.gloss.binary", "nimrod.gloss.sum"]),
        ("marienbad", ["nimrod.gloss.binary", "nimrod.gloss.sum", "nimrod.gloss.misere"]),
        ("subtract", ["nimrod.gloss.binary", "nimrod.gloss.sum", "nimrod.gloss.value"]),
        ("grundy", ["nimrod.gloss.binary", "nimrod.gloss.sum", "nimrod.gloss.value"]),
        ("moore", ["nimrod.gloss.binary", "nimrod.gloss.counts"]),
    ],
)
def test_the_panel_glosses_each_term_it_uses(preset, terms, lang):
    """How the machine thinks (the T panel; the page draws the same panel):
    binary, the nim-sum ("an odd count gives a 1"), value and misère each
    said in a short sentence, with the table's own example."""
    face = Face("pico-grid", dict(QUICK, preset=preset, first="visitor"), 1, lang=lang)
    try:
        press(face, "new")
        face.advance(300)
        shown = face.reasoning()
        panel = nimrod(face.controller)
        for key in terms:
            said = [line for k, line in zip([k for k, _ in panel["lines"]], shown[-len(panel["lines"]) :]) if k == key]
            assert said, "%s %s: no %s in %s" % (preset, lang, key, shown)
        width = len(panel["rows"][0]["bits"])  # no heap with two 1s: the widest number is the example
        row = next((r for r in panel["rows"] if sum(r["bits"]) > 1), {"bits": [1] * width, "value": (1 << width) - 1})
        example = "%s = %s = %d" % (
            " ".join(map(str, row["bits"])),
            " + ".join(str(1 << (len(row["bits"]) - 1 - c)) for c, b in enumerate(row["bits"]) if b),
            row["value"],
        )
        assert any(example in line for line in shown), (example, shown)
        check(shown, face.words, "%s %s" % (preset, lang))
    finally:
        face.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_heap_has_one_word_on_every_screen_of_every_preset(lang):
    """Every preset in every language (on the board that plays them all, the
    ring that draws arcs, the row buttons that take a lamp at a time): each screen of a game played to its end calls
    a heap on a row of lamps a "row" (the log's moves, the rules, the
    reasoning and its table), outside the one gloss that says Nim's books
    call it a heap; Grundy's game says "heap" and never "row" beside it."""
    boards_and_presets = (
        ("pico-grid", playable_presets("pico-grid")),
        ("pico-ring", ["grundy", "circular"]),
        ("pico-neopixel", playable_presets("pico-neopixel")),
    )  # row buttons: a take in progress
    for board, presets in boards_and_presets:
        for preset in presets:
            where = "%s %s %s" % (board, preset, lang)
            rng = random.Random(where)
            face = Face(board, dict(QUICK, preset=preset, first="visitor"), rng.randrange(1000), lang=lang)
            try:
                press(face, "new")
                face.advance(200)
                for _ in range(200):
                    if face.controller.state == OVER:
                        break
                    if face.controller.state == VISITOR:
                        one_word_for_a_heap(screens(face), face, where)
                        for role in visitor_move(face, rng):
                            press(face, role)
                            one_word_for_a_heap(screens(face), face, where + " after " + role)
                    face.advance(150)
                one_word_for_a_heap(screens(face), face, where + " game over")
                panel = nimrod(face.controller)
                if panel and panel.get("rows") and panel.get("row_key") in ("nimrod.heap", "nimrod.value.heaps"):
                    assert face.words.t("nimrod.gloss.heap") in face.reasoning(), (
                        "%s: the heap gloss is missing" % where
                    )
            finally:
                face.close()


def test_the_one_word_detector_catches_a_heap_beside_its_row():
    """Planted: the issue's screens (a row's button and the log's move), in each language, and Grundy's heap beside a row."""
    planted = {
        "en": ["Row A: 3 lit", "You: take 3 from heap A → 0 4 5"],
        "es": ["Fila A: 3 encendidas", "Tú: quitar 3 del montón A → 0 4 5"],
        "ru": ["Ряд A: горит 3", "Вы: из кучки A взять 3 → 0 4 5"],
    }
    for lang, screen in planted.items():
        words = Words(lang)
        assert mixed_words(screen, words, "heaps") == [screen[1]], lang
        assert mixed_words(screen[:1] + [words.t("nimrod.gloss.heap")], words, "heaps") == [], lang
        assert mixed_words(screen, words, "splits") == [screen[0]], lang
        assert mixed_words(screen[1:], words, "splits") == [], lang
