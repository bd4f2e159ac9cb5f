# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Words in the visitor's language, for both faces (the terminal and the page).

One JSON file per language (``web/static/lang/en.json``, ``es.json``,
``ru.json``): ``text`` holds the faces' own words by key ("status.visitor":
"YOUR TURN"), ``phrases`` translates the firmware's English sentences (a
move described by ``nimatron.games.explain``, a refusal's reason) by template.
The page reads the same files in JavaScript (``common.js``); this is the
terminal's reader, with the same rules: a key a file lacks falls back to
English, a sentence with no template stays as the firmware said it.
The firmware speaks Nim's theory (a heap); the screens call a heap on a
row of lamps a row, in English too (``en.json`` translates its phrases).

    words = Words("es")
    words.t("status.visitor")                  # 'TU TURNO'
    words.phrase("take 2 from heap A")         # 'quitar 2 de la fila A'
"""

import json
import os
import re

FOLDER = os.path.join(os.path.dirname(__file__), "web", "static", "lang")
_PLACE = re.compile(r"\{([\w+]+)\}")


def languages():
    """The languages there is a file for: ['en', 'es', 'ru']."""
    return sorted(name[:-5] for name in os.listdir(FOLDER) if name.endswith(".json"))


def _load(lang):
    with open(os.path.join(FOLDER, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)


def fill(template, params):
    """``{name}`` replaced by its parameter; unknown names stay as written."""
    return _PLACE.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), template)


# Settings refused by the firmware (its checks' sentences, ``machine.app``,
# ``panels``, ``drivers``): each kind said in words, its numbers kept, never
# the preset's id, the layout's list or the driver's pixels; any other: "other".
_REFUSALS = (
    ("lamps", re.compile(r"needs (?P<need>\d+) pixels after pixel \d+; the (?:board|panel) has (?P<have>\d+)")),
    ("lamps", re.compile(r"a circle of (?P<need>\d+) does not fit this board: at most (?P<have>\d+)")),
    (
        "lamps",
        re.compile(
            r"a board of (?P<a>\d+) by (?P<b>\d+) cells does not fit these lamps \((?P<r>\d+) rows of (?P<c>\d+)\)"
        ),
    ),
    ("rows", re.compile(r"(?P<need>\d+) heaps but only (?P<have>\d+) rows of lamps")),
    ("rows", re.compile(r"Building Nim on \d+ heaps needs (?P<need>\d+) rows .*; this board has (?P<have>\d+)")),
    ("rows", re.compile(r"layout \[(?P<layout>[^\]]*)\] has more rows than the panel's (?P<have>\d+) rows")),
    ("row", re.compile(r"heap (?P<need>\d+) does not fit row (?P<row>\w+) of (?P<have>\d+) lamps")),
    ("row", re.compile(r"heap (?P<row>\w+) may reach (?P<need>\d+) .*, but row \w+ has (?P<have>\d+) lamps")),
    ("buttons", re.compile(r"needs (?P<need>\d+) row buttons; this board has (?P<have>\d+)")),
    ("grid", re.compile(r"use a grid board|needs a grid")),
)


class Words:
    """The words of one language (English where its file lacks a key)."""

    def __init__(self, lang="en"):
        if lang not in languages():
            raise ValueError("--lang must be one of %s, got %r" % (", ".join(languages()), lang))
        self.lang = lang
        self.missing = set()  # keys asked for that no file has (the tests check it stays empty)
        self.english = _load("en")
        self.words = self.english if lang == "en" else _load(lang)
        self._rules = []
        for template, to in self.words["phrases"].items():
            names = []

            def group(m, names=names):
                names.append(m.group(1))
                return "(.+?)"

            source = _PLACE.sub(group, re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            self._rules.append((re.compile("^" + source + "$"), names, to))

    def t(self, key, **params):
        """A face's text by key, its ``{placeholders}`` filled."""
        text = self.words["text"].get(key)
        if text is None:
            text = self.english["text"].get(key)
            if text is None:
                self.missing.add(key)
                text = key
        return fill(text, params)

    def refused(self, error):
        """Settings the firmware refused (its ``error`` sentence), in words:
        "This board has 28 lamps; that game needs 100. ..." (``settings.refused.*``)."""
        for kind, pattern in _REFUSALS:
            m = pattern.search(error)
            if m:
                params = m.groupdict()
                if "layout" in params:  # the layout's rows: the need is their count
                    params["need"] = len(params.pop("layout").split(","))
                if "a" in params:  # a board of cells: its lamps against the board's
                    params = {"need": int(params["a"]) * int(params["b"]), "have": int(params["r"]) * int(params["c"])}
                return self.t("settings.refused." + kind, **params)
        return self.t("settings.refused.other")

    def preset(self, name):
        """A preset by its name in words ("allheaps" -> 'One row or every row'), never its id."""
        return self.t("preset." + name)

    def board(self, name):
        """A board by its name in words ("pico-grid" -> 'Pico: an 8×8 grid of lamps and keys')."""
        return self.t("board." + name)

    def phrase(self, text):
        """A firmware sentence (English) through the phrase table; its parts
        are translated too. A sentence with no template: as it came."""
        if not isinstance(text, str):
            return text
        for pattern, names, to in self._rules:
            m = pattern.match(text)
            if m:
                return fill(to, {name: self.phrase(m.group(k + 1)) for k, name in enumerate(names)})
        return text


def rules_words(spec, words):
    """A rule set as a visitor reads it, never its id: "subtract:3" -> "take 1
    to 3 from one heap" (the rule set's own ``about``, through the phrase table)."""
    from nimatron.games.rules import parse_rules

    rules = parse_rules(spec)
    return words.phrase(rules.about or spec)


def position_text(heaps, words=None):
    if heaps and isinstance(heaps[0], list):  # two-dimensional Nim: rows of cells
        return "/".join("".join(str(x) for x in row) for row in heaps)
    return " ".join(str(h) for h in heaps) if heaps else (words.phrase("nothing") if words else "nothing")
