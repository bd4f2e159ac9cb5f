# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The class on disk, as it happens: SQLite (the standard library's), one file.

Every join, game, result and answer is written when it happens (WAL, one
small transaction each), so ``nimatron class`` killed and started again
finds its class where it was: each student's name, secret, score and the
position of the game in play; the rounds and their answers. Nothing else is
kept: no address, no device, no time beyond the class's own. The file is the
teacher's to export (``csv_text``) and to end (``erase``).

    store = Store(":memory:")
    sid = store.add_student("Ana", "secret", "es", "m1")
    store.save_game(sid, {"games": 1, "wins": 1, "losses": 0, "streak": 0, "position": None})
"""

import csv
import io
import json
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS students (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, token TEXT NOT NULL UNIQUE, lang TEXT NOT NULL,
    machine TEXT NOT NULL, joined REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0, losses INTEGER NOT NULL DEFAULT 0,
    streak INTEGER NOT NULL DEFAULT 0, found INTEGER NOT NULL DEFAULT 0,
    game TEXT);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY, preset TEXT NOT NULL, position TEXT NOT NULL, opened REAL NOT NULL,
    revealed INTEGER NOT NULL DEFAULT 0, ended INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS answers (
    round INTEGER NOT NULL, student INTEGER NOT NULL, after TEXT NOT NULL, words TEXT NOT NULL,
    found INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (round, student));
"""


class Store:
    """One class's file (``path``; ":memory:" for tests)."""

    def __init__(self, path):
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    # -- the class's own settings and secret -----------------------------------------
    def meta(self, key, default=None):
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def set_meta(self, key, value):
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    # -- students ---------------------------------------------------------------------
    def add_student(self, name, token, lang, machine):
        cur = self.db.execute(
            "INSERT INTO students (name, token, lang, machine, joined) VALUES (?, ?, ?, ?, ?)",
            (name, token, lang, machine, time.time()),
        )
        return cur.lastrowid

    def drop_student(self, sid):
        self.db.execute("DELETE FROM students WHERE id=?", (sid,))

    def students(self):
        rows = self.db.execute(
            "SELECT id, name, token, lang, machine, games, wins, losses, streak, found, game FROM students ORDER BY id"
        ).fetchall()
        keys = ("id", "name", "token", "lang", "machine", "games", "wins", "losses", "streak", "found", "game")
        out = []
        for row in rows:
            item = dict(zip(keys, row))
            item["game"] = json.loads(item["game"]) if item["game"] else None
            out.append(item)
        return out

    def save_game(self, sid, score):
        """A student's score and the game in play (``position``: None when none is)."""
        self.db.execute(
            "UPDATE students SET games=?, wins=?, losses=?, streak=?, found=?, game=? WHERE id=?",
            (
                score["games"],
                score["wins"],
                score["losses"],
                score["streak"],
                score.get("found", 0),
                json.dumps(score.get("position")) if score.get("position") else None,
                sid,
            ),
        )

    # -- rounds and answers -----------------------------------------------------------------
    def open_round(self, preset, position):
        cur = self.db.execute(
            "INSERT INTO rounds (preset, position, opened) VALUES (?, ?, ?)",
            (preset, json.dumps(position), time.time()),
        )
        return cur.lastrowid

    def mark_round(self, rid, what):
        self.db.execute("UPDATE rounds SET %s=1 WHERE id=?" % ("revealed" if what == "revealed" else "ended"), (rid,))

    def rounds(self):
        rows = self.db.execute("SELECT id, preset, position, revealed, ended FROM rounds ORDER BY id").fetchall()
        return [
            {"id": r[0], "preset": r[1], "position": json.loads(r[2]), "revealed": bool(r[3]), "ended": bool(r[4])}
            for r in rows
        ]

    def add_answer(self, rid, sid, after, words, found):
        """The student's first answer to a round; False if one was kept already."""
        try:
            self.db.execute(
                "INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                (rid, sid, json.dumps(after), words, 1 if found else 0, time.time()),
            )
        except sqlite3.IntegrityError:
            return False
        return True

    def answers(self, rid):
        rows = self.db.execute(
            "SELECT student, after, words, found FROM answers WHERE round=? ORDER BY at", (rid,)
        ).fetchall()
        return [{"student": r[0], "after": json.loads(r[1]), "words": r[2], "found": bool(r[3])} for r in rows]

    # -- the end of the class -------------------------------------------------------------
    def csv_text(self, named=str):
        """The class's results: one line per student, then one per answer;
        ``named`` gives a rule set's name in words (``Words.preset``), as the
        teacher read it on the projector."""
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["student", "games", "wins", "losses", "puzzles found"])
        names = {}
        for s in self.students():
            names[s["id"]] = s["name"]
            w.writerow([_cell(s["name"]), s["games"], s["wins"], s["losses"], s["found"]])
        w.writerow([])
        w.writerow(["round", "rules", "position", "student", "move", "found"])
        for r in self.rounds():
            for a in self.answers(r["id"]):
                w.writerow(
                    [
                        r["id"],
                        _cell(named(r["preset"])),
                        " ".join(map(str, r["position"])),
                        _cell(names.get(a["student"], "?")),
                        a["words"],
                        "yes" if a["found"] else "no",
                    ]
                )
        return out.getvalue()

    def erase(self):
        """The class ended: every student, round and answer gone (the secret too)."""
        self.db.executescript("DELETE FROM answers; DELETE FROM rounds; DELETE FROM students; DELETE FROM meta;")
        self.db.execute("VACUUM")

    def close(self):
        self.db.close()


def _cell(text):
    """A name as a spreadsheet cell, never a formula (=, +, -, @ lead a formula)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
