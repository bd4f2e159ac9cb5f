# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""`nimatron solve`: for a person, for a program, and for bad input."""

import json
import os
import subprocess
import sys

import pytest
from nimatron_host.cli import main


def nimatron(*args, stdin=None):
    exe = os.path.join(os.path.dirname(sys.executable), "nimatron")
    return subprocess.run([exe] + list(args), input=stdin, capture_output=True, text=True, timeout=120)


def test_nim_explained_the_way_the_seeds_work_3_4_5(capsys):
    assert main(["solve", "--rules", "nim", "3", "4", "5"]) == 0
    out = capsys.readouterr().out
    assert "  011  3  heap A\n  100  4  heap B\n  101  5  heap C\n  ---\n  010  2  nim-sum" in out
    assert "take 2 from heap A" in out and "1 4 5" in out


def test_misere_game_of_21_for_a_person(capsys):
    assert main(["solve", "--rules", "subtract:3", "--misere", "21"]) == 0
    out = capsys.readouterr().out
    assert "loses" in out and "misère" in out


def test_json_is_one_line_with_the_engine_dict(capsys):
    assert main(["solve", "--rules", "circular", "--ring", "--json", "10"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert json.loads(out) == {"outcome": "loss", "after": [9], "ring": False, "nimber": 0}


def test_grundy_split_in_words(capsys):
    assert main(["solve", "--rules", "grundy", "8"]) == 0
    assert "split a heap of 8 into" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, words",
    [
        (["--rules", "chess", "3"], "unknown rules 'chess'"),
        (["--rules", "subtract:0", "3"], "1 <= K"),
        (["--rules", "subtract", "3"], "need a number"),
        (["3", "-1"], "cannot be negative"),
        (["3", "x"], "whole numbers"),
        (["3.5"], "whole numbers"),
        ([], "give the heap sizes"),
        (["--rules", "nim", "--ring", "5"], "only circular Nim has a ring"),
        (["--rules", "moore:2", "--misere", "900", "900", "900", "900", "900", "900"], "too large"),
        (["--rules", "grundy", "--misere", "30"], "at most 24 objects"),
        (["--bogus", "3"], "unrecognized arguments"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args, words):
    out = nimatron("solve", *args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], out.stderr
    assert "Traceback" not in out.stderr


def test_batch_answers_every_line_in_order_and_goes_on_after_errors():
    lines = [
        '{"rules": "nim", "position": [3, 4, 5]}',
        "not json",
        '{"rules": "nim"}',
        '{"rules": "nim", "position": [1, -2]}',
        '{"rules": "allheaps", "position": [1, 2]}',
        "[1, 2]",
        '{"rules": "nim", "position": [1], "misere": "yes"}',
        '{"rules": "circular", "position": [16], "ring": true, "misere": true}',
        "",
        '{"rules": "moore:2", "position": [900, 900, 900, 900, 900, 900], "misere": true}',
        '{"rules": "nim", "position": [1, 1], "misere": true}',
    ]
    out = nimatron("solve", "--batch", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(got) == len(lines)
    assert got[0] == {"outcome": "win", "after": [1, 4, 5], "ring": False, "nimber": 2}
    assert "broken JSON" in got[1]["error"]
    assert "missing field 'position'" in got[2]["error"]
    assert "negative" in got[3]["error"]
    assert got[4]["outcome"] == "loss" and got[4]["nimber"] == 0  # a Wythoff pair
    assert "JSON object" in got[5]["error"]
    assert "true or false" in got[6]["error"]
    assert got[7]["outcome"] in ("win", "loss") and got[7]["nimber"] is None
    assert "error" in got[8]
    assert "too large" in got[9]["error"]
    assert got[10] == {"outcome": "win", "after": [0, 1], "ring": False, "nimber": None}


def test_batch_of_100000_lines_is_routine():
    lines = []
    for i in range(100000):
        heaps = [(i * 7 + k * 13) % 8 for k in range(1 + i % 4)]
        rules = ("nim", "subtract:3", "greedy", "allheaps")[i % 4]
        lines.append(json.dumps({"rules": rules, "misere": i % 3 == 0, "position": heaps}))
    out = nimatron("solve", "--batch", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0
    answers = out.stdout.splitlines()
    assert len(answers) == 100000
    assert not any('"error"' in a for a in answers)


def test_batch_survives_deep_nesting_bad_utf8_and_huge_numbers():
    """Each bad line is one {"error"} line, whatever it holds; the batch goes on."""
    good = b'{"rules": "nim", "position": [3, 4, 5]}\n'
    stdin = (
        b"[" * 100000
        + b"]" * 100000
        + b"\n"
        + good
        + b"\xff\xfe not UTF-8\n"
        + good
        + b'{"rules": "nim", "position": ['
        + b"9" * 4300
        + b"]}\n"
        + b'{"rules": "nim", "position": ['
        + b"9" * 5000
        + b"]}\n"
        + good
    )
    exe = os.path.join(os.path.dirname(sys.executable), "nimatron")
    out = subprocess.run(
        [exe, "solve", "--batch"],
        input=stdin,
        capture_output=True,
        timeout=120,
        env=dict(os.environ, PYTHONIOENCODING="utf-8:strict", LC_ALL="C.UTF-8"),
    )
    assert out.returncode == 0, out.stderr
    got = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert len(got) == 7
    assert got[0] == {"error": "broken JSON: nested too deeply"}
    assert got[2] == {"error": "not UTF-8 text (byte 0xff at 0)"}
    assert got[4] == {"error": "heap sizes stop at 65535, got a 4,300-digit number"}
    assert got[5] == {"error": "broken JSON: a number longer than 4,300 digits"}
    assert got[1] == got[3] == got[6] == {"outcome": "win", "after": [1, 4, 5], "ring": False, "nimber": 2}


def test_a_huge_heap_on_the_command_line_is_named_not_echoed():
    out = nimatron("solve", "9" * 4300)
    assert out.returncode == 2
    assert out.stderr == "nimatron solve: error: heap sizes stop at 65535, got a 4,300-digit number\n"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--rules", "grundy", "1000"], "grundy from 1000 can split into more than 32 heaps"),
        (["--rules", "circular", "1000"], "circular from 1000 can split into more than 32 heaps"),
        (["--rules", "moore:2", "65535", "65535", "65535"], "more than 100,000 moves to choose from"),
        (["--rules", "moore:1000"] + [str(h) for h in range(1, 33)], "more than 100,000 moves to choose from"),
        (["--rules", "grundy", "--misere", "30"], "at most 24 objects"),  # solve's own check
        (["--rules", "chess"], "unknown rules 'chess'"),
        (["9" * 30], "got a 30-digit number"),
    ],
)
def test_demo_refuses_a_game_it_cannot_finish_before_the_first_move(args, words):
    out = nimatron("demo", *args)
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], out.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "grundy", "30"],
        ["--rules", "circular", "60"],
        ["--rules", "subtract:3", "--misere", "1000"],
        ["3", "4", "5"],
    ],
)
def test_demo_plays_to_the_end(args):
    out = nimatron("demo", "--seed", "1", *args)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith("wins.") or out.stdout.rstrip().endswith("NIM CHAMP!)")


@pytest.mark.parametrize(
    "args, start",
    [
        (["--rules", "nim2d", "111", "111"], "Start: 111 / 111"),  # rows of cells, as solve reads them
        (["--rules", "building", "--stones", "2", "3", "0", "0"], "Start: heaps 3 0 0, 2 stones still to place"),
    ],
)
def test_demo_reads_a_start_as_solve_does(args, start):
    out = nimatron("demo", "--seed", "1", *args)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == start
    assert out.stdout.rstrip().endswith("wins.") or out.stdout.rstrip().endswith("NIM CHAMP!)")


def test_demo_of_building_nim_wants_the_stones():
    out = nimatron("demo", "--rules", "building", "3", "0", "0")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().endswith(
        'building: say how many stones are still to place (--stones R, "stones": R; 0 is plain Nim)'
    )


@pytest.mark.parametrize(
    "request_, error",
    [
        (
            {"rules": "nim2d", "position": [[1, 1], [1]]},
            "nim2d: every row has the same number of cells, got rows of 1, 2",
        ),
        ({"rules": "nim2d", "position": [7, 7]}, "nim2d: the position is a list of rows, each a list of 0s and 1s"),
        ({"rules": "graph:2", "position": [1, 1]}, "graph: the position is a list of rows, each a list of 0s and 1s"),
        ({"rules": "candy", "position": [3, 4]}, "candy: give the candies each player already holds"),
    ],
)
def test_batch_refuses_what_it_would_have_to_guess(request_, error):
    out = nimatron("solve", "--batch", stdin=json.dumps(request_) + "\n")
    assert out.returncode == 0
    assert json.loads(out.stdout)["error"].startswith(error)


def test_batch_answers_a_rectangle_and_candies_given():
    lines = [
        {"rules": "nim2d", "position": [[1, 1], [1, 0]]},
        {"rules": "candy", "position": [3, 4], "candies": [0, 0]},
    ]
    out = nimatron("solve", "--batch", stdin="".join(json.dumps(r) + "\n" for r in lines))
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert got[0]["outcome"] == "win" and got[0]["after"] == [[0, 1], [1, 0]]
    assert got[1]["candies"] == 4


def test_a_mixed_batch_reads_each_table_once_and_learns_grundy_values_once(monkeypatch):
    """A PC's batch keeps what it read and learnt: tables.bin is opened once
    per table, not once a line, and Grundy's nim-values are worked out once
    for the batch (tests/bench_solve_batch.py: 18.7 s -> 0.5 s for 600 lines)."""
    import io

    from nimatron.games import splits, tables
    from nimatron_host.solve import batch

    opened = []
    monkeypatch.setattr(tables, "open", lambda *a: opened.append(a) or open(*a), raising=False)
    monkeypatch.setattr(tables, "_loaded", {})
    worked = []
    real = splits.Grundy.next_value
    monkeypatch.setattr(splits.Grundy, "next_value", lambda self, n: worked.append(n) or real(self, n))
    requests = []
    for i in range(30):
        requests.append({"rules": "moore:2", "position": [i % 8, 3, 4, 5], "misere": True})
        requests.append({"rules": "grundy", "position": [3, 4, 1 + i % 5], "misere": True})
        requests.append({"rules": "grundy", "position": [200 + i]})
    out = io.StringIO()
    batch(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    assert '"error"' not in out.getvalue()
    assert len(opened) <= 2, "tables.bin opened %d times for 2 tables" % len(opened)
    assert len(worked) == len(set(worked)) == 229, "each heap size (1 to 229)'s nim-value is worked out once"
