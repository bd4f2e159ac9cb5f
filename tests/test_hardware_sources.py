# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every ``parts.json`` figure a design rule reads names where it comes from.

Kind of fault: *a figure quoted from memory* (issue 42; the guide: check against the truth, a
datasheet, not memory). A rule is only as good as the rating it compares with. The generator is not a
hand-made list of keys: every design rule of every board runs with the catalogue instrumented
(``rules.ratings``, ``rules.checks`` with its socket, conductor, fault and key-level rules, the
supply decks' limits on the committed simulation, the decks' models at every corner), so each part a
rule reads is collected. Each must cite a document and a section of it, or be our own part, or say it
is an ASSUMPTION and what was searched for it (the rules then count its rating at 80 %,
``parts.trusted``); none may be a SUPERSEDED part. And every ``.model`` in the decks names its source:
a part's ``model`` (or ``spice``) field, or ``supply_sim.BENCH_MODELS`` for what no builder buys. The safety
sheet names every assumed figure the supply's rules rest on (issue 42: it states only what the models show).
"""

import re

import pytest
from nimatron_host.hardware import designs, electrical, keylevel, parts, rules, safety, supply_sim

DOCUMENT = re.compile(
    r"datasheet|data sheet|specification|catalogue|drawing|guide|document|PS-\d|SLVS|/D\b|"
    r"rev\.|revision|revised",
    re.I,
)
SECTION = re.compile(
    r"\b(tables?|sections?|chart|fig\.|figure|drawing|page|characteristics|ratings|"
    r"specifications|scope|overview)\b",
    re.I,
)
MODEL = re.compile(r"^\.(?:model|subckt)\s+(\S+)", re.I | re.M)


def source_problem(entry):
    """Why an entry's source does not do, or None."""
    text = entry.get("source", "")
    if "SUPERSEDED" in text or "SUPERSEDED" in entry.get("part", ""):
        return "a SUPERSEDED part"
    if "ASSUMPTION" in text:
        return None if "Searched" in text else "an ASSUMPTION that does not say what was searched"
    if "our own" in text:
        return None
    if not DOCUMENT.search(text):
        return "no document named"
    if not SECTION.search(text):
        return "no table or section of the document named"
    return None


def reads(monkeypatch, run):
    """{part key} ``parts.part`` is asked for while ``run()`` runs."""
    seen = set()
    real = parts.part

    def part(key):
        seen.add(key)
        return real(key)

    monkeypatch.setattr(parts, "part", part)
    run()
    return seen


def supply_rules(design):
    """The supply's rules on one board: the decks' limits on the committed simulation, the decks' models at
    every corner, and the fault-current rule over the power path."""
    for key, by_corner in supply_sim.load_results().get(design.name, {}).items():
        supply_sim.all_violations(design, key, by_corner)
    for corner in supply_sim.CORNER:
        supply_sim.models(corner)
    electrical.fault_check(design)


def every_rule():
    for design in designs():
        rules.ratings(design)
        rules.checks(design)
        supply_rules(design)


def rule_reads(monkeypatch):
    """{part key} every design rule reads, on today's designs and committed simulation."""
    return reads(monkeypatch, every_rule)


def problems(keys):
    return {key: source_problem(parts.part(key)) for key in sorted(keys) if source_problem(parts.part(key))}


def test_every_figure_a_rule_reads_names_its_document_and_section(monkeypatch):
    keys = rule_reads(monkeypatch)
    monkeypatch.undo()
    assert {
        "power-din-panel",
        "minifit-jr",
        "wire-18",
        "sup90p06",
        "tl431a",
        "2n5401",
        supply_sim.TVS,
        "heatsink-to220",
        "rp2040-gpio",
    } <= keys, sorted(keys)  # the generator reaches every kind of rule
    assert problems(keys) == {}


def test_a_rule_figure_quoted_from_memory_is_caught(monkeypatch):
    """A planted copy: a rule's figure whose source names no section, and a rule that reads a superseded
    part (as the ratings rule once read p6ke33ca for the TVS stand-off after p6ke43ca replaced it)."""
    entry = parts.part("minifit-jr")
    monkeypatch.setitem(entry, "source", "Molex Mini-Fit Jr., 8.5 A per circuit, quoted from memory")
    monkeypatch.setattr(supply_sim, "TVS", "p6ke33ca")
    keys = rule_reads(monkeypatch)
    monkeypatch.undo()
    monkeypatch.setitem(entry, "source", "Molex Mini-Fit Jr., 8.5 A per circuit, quoted from memory")
    found = problems(keys)
    assert found.get("minifit-jr") == "no document named", found
    assert found.get("p6ke33ca") == "a SUPERSEDED part", found


@pytest.mark.parametrize(
    "text, problem",
    [
        (
            "ASSUMPTION (treat pessimistically): 7 A, quoted from memory",
            "an ASSUMPTION that does not say what was searched",
        ),
        ("Molex PS-43810-001 rev. B2: 8 A", "no table or section of the document named"),
        ("Molex PS-43810-001 rev. B2, section 4.2 'Current ratings': 8 A", None),
        ("ASSUMPTION: 7 A. Searched (2026-11-29, ...): 'Alpha Wire ampacity': nothing", None),
    ],
)
def test_what_a_source_must_say(text, problem):
    assert source_problem({"source": text}) == problem


def deck_models():
    """{model name} of every .model and .subckt in the supply decks (every corner) and the key-level deck."""
    names = set()
    for corner in supply_sim.CORNER:
        names |= set(MODEL.findall(supply_sim.models(corner)))
    for design in designs():
        if design.matrix:
            case, _, _ = keylevel.worst(design.matrix, 1)
            names |= set(MODEL.findall(keylevel.netlist(case)))
    return names


def model_sources():
    """{model name: part key} for every model a parts.json "model" field names (as a word)."""
    out = {}
    for key, entry in parts.catalogue()["parts"].items():
        for word in re.findall(r"\b[A-Z][A-Z0-9]{1,}\b", entry.get("model", "")):
            out.setdefault(word, key)
    return out


def test_every_model_in_the_decks_names_its_source():
    """Issue 42: "each model's source named in parts.json", for every model the decks use, not a list."""
    named = model_sources()
    missing = sorted(m for m in deck_models() - {"DKEY"} if m not in named and m not in supply_sim.BENCH_MODELS)
    assert missing == [], missing
    for design in designs():  # DKEY: the matrix diode's own "spice" cards, sourced in its entry
        if design.matrix:
            entry = parts.part(design.matrix["diode"])
            assert entry.get("spice") and "SPICE" in entry["source"], design.matrix["diode"]
    for name, why in supply_sim.BENCH_MODELS.items():
        assert name in deck_models() and len(why) > 20, name  # no stale excuse


def test_a_model_without_a_source_is_caught(monkeypatch):
    """A planted copy: the zener's model field gone, its DZ card names no source."""
    monkeypatch.delitem(parts.part("1n4742a"), "model")
    assert "DZ" in deck_models() and "DZ" not in model_sources()


def supply_reads(monkeypatch, design):
    """{part key} the supply's rules read for one board (``supply_rules``)."""
    seen = reads(monkeypatch, lambda: supply_rules(design))
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize("name", [d.name for d in designs() if parts.has_dc_input(d)])
def test_the_safety_sheet_names_every_assumed_figure_its_supply_rests_on(name, monkeypatch):
    """The sheet states only what the models show: a figure the supply's rules rest on that was not read in its
    maker's document is named as such, for the safety officer to check on the bought part."""
    design = next(d for d in designs() if d.name == name)
    line = safety.assumed_words(design)
    assert line in safety.sheet(design)
    for key in supply_reads(monkeypatch, design):
        if parts.assumed(key):
            assert parts.part(key)["part"].split(",")[0] in line, (key, line)


def test_a_figure_marked_assumed_appears_on_the_safety_sheet_and_a_checked_one_does_not(monkeypatch):
    design = next(d for d in designs() if d.name == "pico-grid")
    label = parts.part("2n5401")["part"].split(",")[0]
    assert label not in safety.assumed_words(design)
    monkeypatch.setitem(parts.part("2n5401"), "source", "ASSUMPTION (planted): quoted from memory")
    assert label in safety.assumed_words(design)
