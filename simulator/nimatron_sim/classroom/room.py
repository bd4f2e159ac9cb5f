# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A class: its students, each on their own machine, the teacher's settings
and the puzzle rounds. No web here (``app`` serves it); no game logic either.

Every student plays a ``web.machines.WebMachine``: the unchanged firmware on
mocked pins, exactly what a tab of ``nimatron sim --web`` plays. A puzzle
round puts one position to every student as a machine of its own, started at
that position (the firmware's ``starts`` setting, the visitor first): the
student's first move on it is their answer, checked by the engine
(``strategy.solve``: a move is found when it leaves the other player lost).
The reveal is Nimrod's panel of that position (``nimrod``), the same the
play page's "How the machine thinks" draws.

    room = Room(Store(":memory:"), "pico-neopixel")
    ana = room.join("Ana", "es")
    room.press(ana, "new")
    room.open_round("3 4 5", "nimrod")
    room.projector()["round"]["answered"]      # 0 of 1

Limits count students, never addresses: ``MAX_STUDENTS`` places, a place held
by a student who never played and whose page has been gone ``RECLAIM_S`` is
given to the next newcomer.
"""

import secrets
import time
import unicodedata

from nimatron.games import explain, strategy
from nimatron.machine.controller import ATTRACT, OVER, VISITOR

from ..web.machines import LOCK, MachineError, WebMachine, echo
from ..web.state import rules_about

MAX_STUDENTS = 40  # phones in one class
MAX_NAME = 24  # characters in a name
RECLAIM_S = 300  # a place held by someone who never played, page gone this long: given back
STREAK = 3  # losses in a row the teacher's view points out
PRESS_BURST = 20  # presses a student may send at once ...
PRESS_RATE = 10  # ... and per second after that (a hand presses far fewer)
DEAL = 4  # puzzle machines made per tick when a round opens


class ClassError(ValueError):
    """A request the class refuses, with the status and a sentence for the page."""

    def __init__(self, message, status=400, key=None):
        ValueError.__init__(self, message)
        self.status = status
        self.key = key  # the sentence's key in the pages' words (static/lang), when they have it


def clean_name(raw):
    """A first name or nickname as shown: spaces folded, 1 to ``MAX_NAME``
    letters, digits, spaces and - ' . only; ClassError otherwise."""
    if not isinstance(raw, str):
        raise ClassError("type a first name or a nickname", key="join.empty")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise ClassError("type a first name or a nickname", key="join.empty")
    if len(name) > MAX_NAME:
        raise ClassError("a name of at most %d letters, please" % MAX_NAME, key="join.long")
    for c in name:
        if not (c.isalnum() or c in " -'."):
            raise ClassError("letters, digits, spaces and - ' . only, please", key="join.chars")
    return name


class Student:
    """One phone's player: a name, a secret (its page's cookie), a game machine
    and, during a round, a puzzle machine; the score."""

    def __init__(self, sid, name, token, lang, key):
        self.id = sid
        self.name = name
        self.token = token
        self.lang = lang
        self.key = key  # the machine id the page presses (the same across restarts and rounds)
        self.game = None  # WebMachine: the student's own game (made when first needed)
        self.puzzle = None  # WebMachine: the round's position, while a round is open
        self.resume = None  # a game to bring back: {"heaps", "mover", "preset", "difficulty"}
        self.puzzle_at = None  # the round's puzzle as played on: {"round", "heaps", "mover"}, kept for a restart
        self.stale = False  # the class's settings changed: a fresh machine at the next game
        self.score = {"games": 0, "wins": 0, "losses": 0, "streak": 0, "found": 0}
        self.position = None  # the game in play, as kept: {"heaps", "mover", "preset", "difficulty"}
        self.sockets = 0  # pages open now
        self.gone = time.monotonic()  # since when no page is open
        self.played = False
        self.last_t = 0  # the newest state's t sent (always forward: machines change under the page)
        self.events = 0  # the newest event number sent: each machine's own are numbered after it
        self.bucket = PRESS_BURST
        self.filled = time.monotonic()
        self.sent = None  # the last state sent (to push only changes)

    @property
    def machine(self):
        return self.puzzle if self.puzzle is not None else self.game

    def __repr__(self):
        return "<Student %d %s>" % (self.id, self.name)


def resting(machine):
    """Is the machine waiting for a hand, with nothing of its own to do? (in
    attract mode, after a game, or a visitor's turn with no lamp to blink,
    no refusal showing and no frame owed). A resting machine is not run: 40
    machines on the wall clock cost 40 simulated main loops at 200 Hz, and a
    class spends most of its time thinking. Its clock skips the rest (the
    walk-away timer waits for the student, who is listening to the teacher)."""
    c = machine.face.controller
    if c.menu is not None:
        return False  # the operator's menu: its own timers
    if c.state in (ATTRACT, OVER):
        return True
    return (
        c.state == VISITOR
        and c._redraw_at is None
        and not c._dirty
        and c.asking is None
        and c._begun is None
        and not c.moved
        and machine.note is None
    )


def rest(machine):
    """Drop the wall-clock time a resting machine has not been run for."""
    if resting(machine):
        machine.wall.due()
        machine.seen = machine.wall.last


class Room:
    """The class: students by secret, the teacher's settings, the rounds."""

    def __init__(
        self, store, board, preset="nimrod", difficulty=None, *, seed=None, limit=MAX_STUDENTS, clock=time.monotonic
    ):
        self.store = store
        self.board = board
        self.seed = seed
        self.limit = limit
        self.clock = clock
        self.students = {}  # token -> Student
        self.by_id = {}
        self.round = None  # the round open now (``open_round``)
        self.dealing = []  # students still to get the round's machine (``deal``)
        self.rounds = 0
        self.changed = True  # something the teacher or the projector shows changed
        self.teacher_key = store.meta("teacher") or secrets.token_urlsafe(9)
        store.set_meta("teacher", self.teacher_key)
        self.settings = store.meta("settings") or {"preset": preset}
        if difficulty and store.meta("settings") is None:
            self.settings["difficulty"] = difficulty
        self.check_settings(self.settings)
        store.set_meta("settings", self.settings)
        self._load()

    # -- settings -----------------------------------------------------------------
    def overrides(self, settings=None):
        s = settings or self.settings
        out = {"preset": s["preset"]}
        if s.get("difficulty"):
            out["difficulty"] = s["difficulty"]
        return out

    def check_settings(self, settings):
        """ClassError (400) unless a machine on this board plays them."""
        try:
            WebMachine("check", self.board, self.overrides(settings), self.seed).close()
        except ValueError as e:
            raise ClassError("%s: %s" % (settings.get("preset"), str(e).split("\n")[0][:200])) from e

    def set_settings(self, preset, difficulty):
        """The teacher's rule set and difficulty for everyone, from each student's next game."""
        from nimatron.config import settings as config

        if preset not in config.PRESETS:
            raise ClassError("no preset %s; presets: %s" % (echo(preset, quote=True), ", ".join(config.PRESETS)))
        if difficulty not in (None, "") and difficulty not in config.DIFFICULTIES:
            raise ClassError(
                "no difficulty %s; difficulties: %s" % (echo(difficulty, quote=True), ", ".join(config.DIFFICULTIES))
            )
        new = {"preset": preset}
        if difficulty:
            new["difficulty"] = difficulty
        self.check_settings(new)
        self.settings = new
        self.store.set_meta("settings", new)
        for student in self.by_id.values():
            student.stale = True
        self.changed = True

    # -- students -----------------------------------------------------------------
    def _load(self):
        for row in self.store.students():
            s = Student(row["id"], row["name"], row["token"], row["lang"], row["machine"])
            s.score = {k: row[k] for k in ("games", "wins", "losses", "streak", "found")}
            s.played = bool(row["games"] or row["game"])
            game = dict(row["game"]) if row["game"] else None
            s.puzzle_at = game.pop("puzzle", None) if game else None
            s.resume = s.position = game if game and "heaps" in game else None
            s.gone = s.filled = self.clock()
            self.students[s.token] = s
            self.by_id[s.id] = s
        for r in self.store.rounds():
            self.rounds = max(self.rounds, r["id"])
            if not r["ended"]:
                try:
                    self._start_round(r["id"], r["preset"], r["position"], reopened=True)
                    if r["revealed"]:
                        self.round["revealed"] = True
                except ClassError:
                    self.store.mark_round(r["id"], "ended")

    def join(self, name, lang="en"):
        """A new student; ClassError for a name taken or a full class (sentences the page shows)."""
        name = clean_name(name)
        folded = name.casefold()
        if any(s.name.casefold() == folded for s in self.by_id.values()):
            raise ClassError(
                "%s is already in this class: add the first letter of your family name "
                "(%s B) or choose a nickname" % (name, name),
                409,
                "join.taken",
            )
        if len(self.by_id) >= self.limit and not self._reclaim():
            raise ClassError(
                "the class is full (%d students): ask your teacher, or share a phone with a classmate" % self.limit,
                503,
                "join.full",
            )
        token = secrets.token_urlsafe(24)
        key = secrets.token_urlsafe(16)
        sid = self.store.add_student(name, token, lang, key)
        student = Student(sid, name, token, lang, key)
        student.gone = student.filled = self.clock()
        self.students[token] = student
        self.by_id[sid] = student
        if self.round is not None:
            self.dealing.append(student)  # late to the round: it is theirs too
        self.changed = True
        return student

    def _reclaim(self):
        """Give back one place held by a student who never played and whose page
        has been gone ``RECLAIM_S`` (the longest gone first); True if one was."""
        now = self.clock()
        idle = [
            s
            for s in self.by_id.values()
            if not s.played and s.sockets == 0 and now - s.gone >= RECLAIM_S and not self._answered(s)
        ]
        if not idle:
            return False
        self.remove(min(idle, key=lambda s: s.gone))
        return True

    def _answered(self, student):
        return self.round is not None and student.id in self.round["answers"]

    def remove(self, student):
        for m in (student.game, student.puzzle):
            if m is not None:
                m.close()
        self.students.pop(student.token, None)
        self.by_id.pop(student.id, None)
        self.store.drop_student(student.id)
        self.changed = True

    def student(self, token):
        student = self.students.get(token) if isinstance(token, str) else None
        if student is None:
            raise ClassError("join the class first (your name is not in this class)", 401, "join.first")
        return student

    def owned(self, token, key):
        """The student whose page presses machine ``key``: their own only."""
        student = self.student(token)
        if not isinstance(key, str) or not secrets.compare_digest(key.encode(), student.key.encode()):
            raise ClassError("no machine %s for you here" % echo(key, quote=True), 404)
        return student

    def connected(self, student, up):
        student.sockets += 1 if up else -1
        if student.sockets == 0:
            student.gone = self.clock()
        self.changed = True

    # -- machines ---------------------------------------------------------------------
    def _machine(self, student, overrides):
        try:
            machine = WebMachine(student.key, self.board, overrides, self.seed)
        except ValueError as e:
            raise ClassError(str(e).split("\n")[0][:300]) from e
        # the page knows one machine id and tells a new move by its number: a new machine's
        # events are numbered after the last one sent, or its log would look already shown
        machine.class_base = student.events
        return machine

    def game_machine(self, student):
        """The student's own game machine, made (or brought back) when first needed."""
        if student.game is None:
            resume = student.resume
            student.resume = None
            if resume:
                settings = {"preset": resume["preset"], "difficulty": resume.get("difficulty")}
                try:
                    machine = self._machine(
                        student, dict(self.overrides(settings), starts=[resume["heaps"]], first=resume["mover"])
                    )
                except ClassError:
                    machine = None
                if machine is not None:
                    self._listen(student, machine, self._game_event)
                    student.game = machine
                    machine.press("new")  # the kept game, where it was
                    student.stale = True  # its next game: the class's settings again
                    return machine
            student.game = self._machine(student, self.overrides())
            self._listen(student, student.game, self._game_event)
        return student.game

    def _listen(self, student, machine, handler):
        machine.face.sim.listeners.append(lambda event: handler(student, machine, event))

    def _game_event(self, student, machine, event):
        kind = event.get("event")
        if machine is not student.game:
            return
        controller = machine.face.controller
        if kind == "new_game":
            student.played = True
            student.position = {
                "heaps": list(event.get("position") or []),
                "mover": event.get("first") or "visitor",
                "preset": controller.settings["preset"],
                "difficulty": controller.settings["difficulty"],
            }
            if event.get("ring"):
                student.position = None  # a circle's first move is not a position ``starts`` can hold
        elif kind == "move" and student.position is not None:
            student.position = dict(
                student.position, heaps=list(event["after"]), mover="machine" if event["by"] == "visitor" else "visitor"
            )
        elif kind == "game_over":
            student.position = None
            winner = event.get("winner")
            score = student.score
            if winner in ("visitor", "machine"):
                score["games"] += 1
                if winner == "visitor":
                    score["wins"] += 1
                    score["streak"] = 0
                else:
                    score["losses"] += 1
                    score["streak"] += 1
        else:
            return
        self._save(student)
        self.changed = True

    def _save(self, student):
        """The student's score, the game in play and the puzzle as played on (a restart brings both back)."""
        kept = student.position
        if student.puzzle_at is not None:
            kept = dict(kept or {}, puzzle=student.puzzle_at)
        self.store.save_game(student.id, dict(student.score, position=kept))

    def press(self, student, press):
        """One press on the student's machine (a game, or the round's puzzle); its state."""
        now = self.clock()
        student.bucket = min(PRESS_BURST, student.bucket + max(0, now - student.filled) * PRESS_RATE)
        student.filled = now
        if student.bucket < 1:
            raise ClassError("too many presses at once: one at a time, please", 429)
        student.bucket -= 1
        student.played = True  # a place in use: never given back
        with LOCK:
            self._dealt(student)
            if student.puzzle is None:
                machine = self.game_machine(student)
                state = machine.face.controller.state
                if student.stale and (press == "new" or state in (ATTRACT, OVER)):
                    machine.close()  # the teacher's settings, from this game on
                    student.game = None
                    student.stale = False
                    machine = self.game_machine(student)
                    student.stale = False
            else:
                machine = student.puzzle
            rest(machine)
            try:
                machine.press(press)
            except MachineError as e:
                raise ClassError(str(e), e.status) from e
            student.sent = self.digest(machine)
            return self.state(student, catch_up=False)

    def state(self, student, catch_up=True):
        """The student's machine as the play page draws it (``WebMachine.state``),
        with a clock that only goes forward and, in an unrevealed round, without
        Nimrod's panel (it would give the answer away)."""
        with LOCK:
            self._dealt(student)
            machine = student.machine or self.game_machine(student)
            if catch_up:
                machine.catch_up()
            out = machine.state()
        t = max(int(time.time() * 1000), student.last_t + 1)
        out["t"] = student.last_t = t
        base = getattr(machine, "class_base", 0)
        if base:
            out["events"] = [dict(e, n=e["n"] + base) for e in out["events"]]
        if out["events"]:
            student.events = max(student.events, out["events"][-1]["n"])
        rnd = self.round
        if student.puzzle is not None and rnd is not None and not rnd["revealed"]:
            out["nimrod"] = None
        out["classroom"] = self.student_words(student)
        return out

    def student_words(self, student):
        """What the page adds to the machine: the name, the round, the answer."""
        rnd = self.round
        out = {"name": student.name, "score": dict(student.score)}
        if rnd is not None:
            answer = rnd["answers"].get(student.id)
            out["round"] = {
                "id": rnd["id"],
                "position": rnd["words"],
                "revealed": rnd["revealed"],
                "answer": answer["words"] if answer else None,
                "found": answer["found"] if answer and rnd["revealed"] else None,
            }
        return out

    def tick(self, students=None):
        """Run every machine a page shows up to now (unless it rests), or only
        ``students``' (the server runs the class a few students at a time, so
        a press waits for a few machines, never for forty); the students whose
        lamps or words changed, with their state."""
        out = []
        with LOCK:
            if students is None:
                self.deal()
                students = list(self.by_id.values())
            for student in students:
                machine = student.machine
                if student.sockets == 0 or machine is None:
                    continue
                if resting(machine):
                    rest(machine)
                else:
                    machine.catch_up()
                digest = self.digest(machine)
                if digest != student.sent:
                    student.sent = digest
                    out.append((student, self.state(student, catch_up=False)))
        return out

    @staticmethod
    def digest(machine):
        """What the page shows of a machine, in short: pushed again only when it changes."""
        c = machine.face.controller
        return (
            machine,
            c.state,
            machine.events[-1]["n"] if machine.events else 0,
            machine.face.sim.bench.version,  # bumped on every change of a pin or a pixel
            c.asking is not None,
            machine.note is not None,
        )

    # -- rounds ---------------------------------------------------------------------------
    def open_round(self, position, preset=None):
        """A position for every phone: "find the winning move". ``position``:
        heaps as "3 4 5" (or a list); ClassError unless the board plays it and
        it has a winning move."""
        if self.round is not None:
            self.end_round()
        if isinstance(position, str):
            words = position.replace(",", " ").split()
            if not words or len(words) > 16 or not all(w.isdigit() and len(w) <= 3 for w in words):
                raise ClassError("type the position as the lamps in each row, e.g. 3 4 5", key="t.position")
            position = [int(w) for w in words]
        if not isinstance(position, list) or not all(isinstance(h, int) and not isinstance(h, bool) for h in position):
            raise ClassError("type the position as the lamps in each row, e.g. 3 4 5", key="t.position")
        preset = preset or self.settings["preset"]
        from nimatron.config import settings as config

        if preset not in config.PRESETS:
            raise ClassError("no preset %s; presets: %s" % (echo(preset, quote=True), ", ".join(config.PRESETS)))
        rid = self.rounds + 1
        self._start_round(rid, preset, position)
        self.store.open_round(preset, position)
        self.rounds = rid
        return self.round

    def _start_round(self, rid, preset, position, reopened=False):
        overrides = {"preset": preset, "difficulty": "perfect", "starts": [position], "first": "visitor"}
        try:
            model = WebMachine("round", self.board, overrides, self.seed)
        except ValueError as e:
            raise ClassError(
                "this board cannot play %s from %s: %s"
                % (preset, " ".join(map(str, position)), str(e).split("\n")[0][:200]),
                key="t.cannot",
            ) from e
        model.press("new")
        controller = model.face.controller
        heaps, ring = controller.position()
        result = strategy.solve(controller.rules, heaps, controller.misere, ring)
        if result["outcome"] != "win" and not reopened:
            model.close()
            raise ClassError(
                "%s has no winning move for the player to move: choose another position"
                % controller.rules.position_words(heaps),
                key="t.lost",
            )
        state = model.state()
        self.round = {
            "id": rid,
            "preset": preset,
            "overrides": overrides,
            "heaps": heaps,
            "words": controller.rules.position_words(heaps, ring),
            "rules": controller.rules,
            "misere": controller.misere,
            "about": rules_about(controller.rules),
            "last_move": controller.rules.last_move,
            "lamps": state["lamps"],
            "layout": state["layout"],
            "shape": state["shape"],
            "panel": state["nimrod"],
            "revealed": False,
            "answers": {},
        }
        model.close()
        for a in self.store.answers(rid):
            self.round["answers"][a["student"]] = a
        for student in self.by_id.values():
            if student.puzzle is not None:
                student.puzzle.close()
                student.puzzle = None
            student.sent = None
        self.dealing = [s for s in self.by_id.values() if s.sockets] + [s for s in self.by_id.values() if not s.sockets]
        self.changed = True

    def deal(self, most=DEAL):
        """Give the open round's position to at most ``most`` more students
        (a machine each: 40 at once held every page up for 0.4 s); the pages
        open first. A student who asks before their turn gets theirs at once."""
        while most > 0 and self.dealing:
            student = self.dealing.pop(0)
            if student.id in self.by_id and student.puzzle is None and self.round is not None:
                self._puzzle_for(student)
                most -= 1

    def _puzzle_for(self, student):
        if student.puzzle is not None:
            student.puzzle.close()
        overrides = self.round["overrides"]
        at = student.puzzle_at
        if at is not None and at.get("round") == self.round["id"]:  # brought back where it was played to
            overrides = dict(overrides, starts=[at["heaps"]], first=at["mover"])
        machine = self._machine(student, overrides)
        self._listen(student, machine, self._answer)
        self._listen(student, machine, self._puzzle_event)
        machine.press("new")
        student.puzzle = machine
        student.sent = None

    def _answer(self, student, machine, event):
        rnd = self.round
        if event.get("event") != "move" or event.get("by") != "visitor" or rnd is None or machine is not student.puzzle:
            return
        if student.id in rnd["answers"]:
            return  # the first answer counts; the rest of the game is play
        if event["before"] != rnd["heaps"]:
            return
        after = list(event["after"])
        found = strategy.solve(rnd["rules"], after, rnd["misere"], False)["outcome"] == "loss"
        words = explain.describe_move(event["before"], after, rnd["rules"].ordered, False)
        if self.store.add_answer(rnd["id"], student.id, after, words, found):
            rnd["answers"][student.id] = {"student": student.id, "after": after, "words": words, "found": found}
            if found:
                student.score["found"] += 1
                self._save(student)
        self.changed = True

    def _puzzle_event(self, student, machine, event):
        kind = event.get("event")
        if machine is not student.puzzle or self.round is None or kind not in ("move", "game_over"):
            return
        student.puzzle_at = (
            None
            if kind == "game_over"
            else {
                "round": self.round["id"],
                "heaps": list(event["after"]),
                "mover": "machine" if event["by"] == "visitor" else "visitor",
            }
        )
        self._save(student)

    def _dealt(self, student):
        if self.round is not None and student.puzzle is None and student in self.dealing:
            self.dealing.remove(student)
            self._puzzle_for(student)

    def reveal(self):
        if self.round is None:
            raise ClassError("no round is open: put a position to the class first", 409, "t.no_round")
        self.round["revealed"] = True
        self.store.mark_round(self.round["id"], "revealed")
        for student in self.by_id.values():
            student.sent = None
        self.changed = True

    def end_round(self):
        """Back to the games: every puzzle machine closed, each student's game where it was."""
        if self.round is None:
            raise ClassError("no round is open", 409, "t.no_round")
        self.store.mark_round(self.round["id"], "ended")
        self.round = None
        self.dealing = []
        for student in self.by_id.values():
            if student.puzzle is not None:
                student.puzzle.close()
                student.puzzle = None
            student.sent = None
        self.changed = True

    # -- what the teacher and the projector see ----------------------------------------------
    def tally(self):
        rnd = self.round
        if rnd is None:
            return None
        moves = {}
        for a in rnd["answers"].values():
            entry = moves.setdefault(a["words"], [a["words"], 0, a["found"]])
            entry[1] += 1
        out = {
            "id": rnd["id"],
            "preset": rnd["preset"],
            "position": rnd["words"],
            "about": rnd["about"],
            "last_move": rnd["last_move"],
            "misere": rnd["misere"],
            "lamps": rnd["lamps"],
            "layout": rnd["layout"],
            "shape": rnd["shape"],
            "students": len(self.by_id),
            "answered": len(rnd["answers"]),
            "found": sum(1 for a in rnd["answers"].values() if a["found"]),
            "moves": sorted(moves.values(), key=lambda m: (-m[1], m[0])),
            "revealed": rnd["revealed"],
        }
        if rnd["revealed"]:
            out["panel"] = rnd["panel"]
        return out

    def leaderboard(self, n=10):
        rows = sorted(
            self.by_id.values(),
            key=lambda s: (-s.score["found"], -s.score["wins"], s.score["losses"], s.name.casefold()),
        )
        return [
            {"name": s.name, "found": s.score["found"], "wins": s.score["wins"], "games": s.score["games"]}
            for s in rows[:n]
        ]

    def projector(self):
        return {
            "students": [s.name for s in self.by_id.values()],
            "limit": self.limit,
            "round": self.tally(),
            "leaderboard": self.leaderboard(),
            "rounds": self.rounds,
            "settings": dict(self.settings),
        }

    def teacher(self):
        panels = []
        with LOCK:
            for s in self.by_id.values():
                machine = s.machine
                lamps = [[lamp.kind for lamp in row] for row in machine.face.lamps()] if machine else None
                panels.append(
                    {
                        "id": s.id,
                        "name": s.name,
                        "online": s.sockets > 0,
                        "lamps": lamps,
                        "t": s.last_t,
                        "state": machine.face.controller.state if machine else "attract",
                        "puzzle": s.puzzle is not None,
                        "answered": self._answered(s),
                        "stuck": s.score["streak"] >= STREAK,
                        **s.score,
                    }
                )
        return {
            "students": panels,
            "settings": dict(self.settings),
            "round": self.tally(),
            "limit": self.limit,
            "streak": STREAK,
        }

    def end_class(self):
        """The teacher ends the class: every machine closed, the file emptied."""
        self.round = None
        self.dealing = []
        for student in list(self.by_id.values()):
            self.remove(student)
        self.store.erase()
        self.rounds = 0
        self.store.set_meta("teacher", self.teacher_key)  # the teacher's page goes on with the next class
        self.store.set_meta("settings", self.settings)
        self.changed = True

    def close(self):
        for student in self.by_id.values():
            for m in (student.game, student.puzzle):
                if m is not None:
                    m.close()
