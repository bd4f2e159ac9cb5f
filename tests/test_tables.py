# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The shipped exhibit-size tables equal a fresh exhaustive search."""

from nimatron.games import strategy, tables
from nimatron.games.rules import parse_rules
from nimatron_host import tables as build
from nimatron_host.cli import main


def test_shipped_file_is_what_the_search_builds():
    with open(build.path(), "rb") as f:
        assert f.read() == build.build(), "run: nimatron tables"


def test_tables_check_command(capsys):
    assert main(["tables", "--check"]) == 0
    out = capsys.readouterr().out
    assert "tables.bin is up to date" in out and "nim2d.bin is up to date" in out


def test_tables_rebuilds_a_stale_file_and_check_names_it(capsys, monkeypatch, tmp_path):
    from nimatron_host import tables_cmd

    stale = tmp_path / "nim2d.bin"
    stale.write_bytes(b"\xff" * 10)
    monkeypatch.setattr(tables_cmd, "BUILDERS", (lambda: (str(stale), lambda: b"fresh"),))
    assert main(["tables", "--check"]) == 1
    assert "nim2d.bin is out of date: run nimatron tables" in capsys.readouterr().err
    assert main(["tables"]) == 0 and stale.read_bytes() == b"fresh"
    assert main(["tables", "--check"]) == 0


def test_rank_numbers_every_sorted_position_once():
    for n in range(1, tables.HEAPS + 1):
        ranks = [tables.rank(p) for p in build.sorted_positions(n)]
        start = ranks[0]
        assert ranks == list(range(start, start + tables.size(n)))


def test_stored_misere_moves_are_legal_and_winning():
    for spec in ("subtract:2", "moore:3", "greedy", "allheaps"):
        rules = parse_rules(spec)
        memo = {}
        for heaps in ([3, 1, 7], [7, 6, 5, 4], [2, 2], [6, 0, 6, 1], [5]):
            stored = tables.move(rules, heaps, True)
            wins = strategy.misere_wins(rules, heaps, False, memo)
            assert bool(stored) == wins, (spec, heaps)
            if stored:
                assert rules.is_legal(heaps, stored[0])
                assert not strategy.misere_wins(rules, stored[0], False, memo)


def test_a_missing_table_file_falls_back_to_search(monkeypatch):
    monkeypatch.setattr(tables, "FILE", "no-such-file.bin")
    monkeypatch.setattr(tables, "_loaded", {})
    monkeypatch.setattr(tables, "_index", [])
    result = strategy.solve("moore:2", [3, 4, 5], misere=True)
    assert result["outcome"] in ("win", "loss")
    memo = {}
    rules = parse_rules("moore:2")
    assert (result["outcome"] == "win") == strategy.misere_wins(rules, [3, 4, 5], False, memo)
