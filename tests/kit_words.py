# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Words a visitor must never read, for the tests of both faces: language
keys, rule sets' ids, settings' and counters' names."""

import json
import os
import re

from nimatron.config import boards, settings as nsettings
from nimatron.games import registry, rules
from nimatron.machine import service
from nimatron_sim import words as words_module

LANGS = ("en", "es", "ru")


def _language_text():
    """Every word of every language file, placeholders left out."""
    out = []
    for lang in LANGS:
        with open(os.path.join(words_module.FOLDER, lang + ".json"), encoding="utf-8") as f:
            data = json.load(f)
        out.append(re.sub(r"\{\w+\}", " ", " ".join(list(data["text"].values()) + list(data["phrases"].values()))))
    return " ".join(out)


def _language_words():
    return {w.lower() for w in re.findall(r"\w+", _language_text())}


def _exact_words():
    """Every word as written (case kept, hyphenated words whole: "nim-sum")."""
    return set(re.findall(r"\w+(?:-\w+)*", _language_text()))


def names_shown():
    """Board and preset ids a visitor must never read ("pico-neopixel",
    "pad-marienbad", "nimatron" written so): every one that no language file
    writes as a word, exactly (the machine's name "Nimatron" is a word; a
    bare number such as the preset "21" is a number)."""
    words = _exact_words()
    ids = list(boards.names()) + list(nsettings.PRESETS)
    return [n for n in ids if n not in words and not n.isdigit()]


# The firmware's own sentences a face must say in words (issue 44: Settings showed a driver's refusal)
FIRMWARE = [r"layout \[[\d, ]*\]", r"\d+ pixels after pixel \d+", r"\d+ lamp holes"]


def internal_ids():
    """Words a visitor must never read: language keys ("sim.say.rows"), rule
    sets' ids ("subtract:3", "allheaps": those no language file uses as a
    word), board and preset ids (``names_shown``), settings' and counters'
    names ("walkaway_ms"), the firmware's layouts and pixels ("layout [100]")."""
    with open(os.path.join(words_module.FOLDER, "en.json"), encoding="utf-8") as f:
        keys = [k for k in json.load(f)["text"] if "." in k]
    words = _language_words()
    every = [name for name, _, _, _ in registry.entries(rules.REGISTRY)]  # the one registry of rule sets
    names = [n for n in every if n.lower() not in words]
    specs = [r"%s:\d+" % re.escape(n) for n in every]
    setting_names = [k for k in list(nsettings.DEFAULTS) + list(service.AUDITS) if "_" in k]
    return re.compile(
        r"(?<![\w.:-])(%s)(?![\w:-])|(?<![\w.:-])(%s)(?![\w-])"
        % (
            "|".join([re.escape(k) for k in keys] + specs + [re.escape(n) for n in names + setting_names] + FIRMWARE),
            "|".join(re.escape(n) for n in names_shown()),
        )
    )  # a board's or preset's id, also before a colon


IDS = internal_ids()


def ids_on(text):
    return sorted({m.group(1) or m.group(2) for m in IDS.finditer(text)})


# One word for a heap on one screen (issue 44: "Row A" on the buttons, "take 3 from heap A" in the log).
# A heap that sits on a row of lamps is a "row" on every screen; "heap" stays only in the one gloss that
# says so, and in Grundy's game (``panel == "splits"``: a row holds several heaps), which says "heap" and
# never "row" on the same screen.
ROW_WORDS = {"en": r"\brows?\b", "es": r"\bfilas?\b", "ru": r"\bряд(?:а|у|ом|е|ы|ов|ам|ами|ах)?\b"}
HEAP_WORDS = {"en": r"\bheaps?\b", "es": r"\bmont[oó]n(?:es)?\b", "ru": r"\bкучк\w*|\bкучек\b"}


def mixed_words(texts, words, panel):
    """The lines of one screen (``texts``, in ``words``' language) that break
    the one-word rule for a rule set whose lamps are drawn as ``panel``: a
    heap called "heap" where its row is a "row" (outside the heap gloss), or
    in Grundy's game a "row" beside its "heap"s. Empty: the screen agrees."""
    lang = words.lang
    gloss = words.t("nimrod.gloss.heap")
    heap = [
        t for t in texts if re.search(HEAP_WORDS[lang], t.replace(gloss, ""), re.IGNORECASE)
    ]  # the page joins glosses
    if panel != "splits":
        return heap
    row = [t for t in texts if re.search(ROW_WORDS[lang], t, re.IGNORECASE)]
    return row if heap else []
