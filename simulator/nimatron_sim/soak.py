# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron soak``: months of an exhibit's life in minutes, checked all the while.

    nimatron soak --games 2000 [--board pico-neopixel] [--seed 1] [--state-file] [--tear bytes]

Full-stack games on the real drivers (``Simulator``) with robot visitors
(random, and perfect ones that test the machine), switch bounce, random
host-link traffic (``HostLink.handle``, SETs included) and power cuts at
random instants: between presses, and in the middle of a flash write
(``flash.Power``), after which the machine restarts from the bytes its
nvm holds, as a board would. By default the board is as shipped: the nvm
alone (``--state-file`` adds the second store a writable drive gives), and a
cut tears the flash as NOR flash tears (a page's bits half programmed, a
sector's half erased; ``--tear bytes`` cuts between bytes instead). Checked
all the while:

- the lamps read back from the pins equal the position of the game;
- the game never wedges: every game ends and the machine returns to attract;
- in perfect mode the machine never loses a game it could have won;
- after every restart the audits equal the games finished before it (a
  cut in the middle of the game's own write may lose that one game), unless
  the boot *reports* a loss (``why``, ``data_losses``): reported losses are
  counted, a silent one is a violation;
- after every restart each setting a ``SET`` was answered ``"saved": true``
  for is there (or a later value the machine accepted), unless reported;
- memory does not grow.

One summary line; exit status 1 on any violation. Ctrl-C prints the
summary of the games played so far and exits 130.
"""

import json
import random
import sys
import time

from nimatron_pc.errors import UsageError

FAST = {"think_ms": 40, "show_ms": 40, "over_ms": 1000, "walkaway_ms": 20000, "seed": 1}
COMMANDS = (
    b"HELLO",
    b"STATE",
    b"AUDITS",
    b"CONFIG",
    b"CONFIG think_ms",
    b"EXPLAIN",
    b"HELP",
    b"EVENTS ON",
    b"EVENTS OFF",
    b"SET think_ms 30",
    b"SET think_ms 50",
    b"SET explain on",
    b"SET explain off",
    b"SET nosuch 1",
    b"SET difficulty",
    b"PLAY PRESS row0",
    b"NEW",
    b"UNLOCK 0000",
    b"LOCK",
    b"\xff\xfe",
    b"x" * 300,
    b"",
)
MEMORY_SLACK_KB = 30000  # growth allowed after the warm-up (allocator noise, caches)


def add_parser(sub):
    p = sub.add_parser(
        "soak",
        help="many games with power cuts, bounce and host traffic; checks invariants",
        description=__doc__.split("\n")[0],
    )
    p.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--board", default="pico-neopixel", help="board (default pico-neopixel)")
    p.add_argument("--seed", type=int, default=1, help="seed for visitors, cuts and traffic (default 1)")
    p.add_argument(
        "--cut-every", type=int, default=25, metavar="N", help="a power cut about every N games (default 25)"
    )
    p.add_argument(
        "--state-file",
        action="store_true",
        help="also keep the state file a writable drive gives (default: the nvm alone, as shipped)",
    )
    p.add_argument(
        "--tear",
        choices=("bits", "bytes"),
        default="bits",
        help="how a cut tears the flash: NOR pages and sectors at random bits (default), or between bytes",
    )
    p.add_argument("--verbose", action="store_true", help="one line per violation as it happens")


def rss_kb():
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        import resource

        return pages * resource.getpagesize() // 1024
    except (OSError, ValueError, ImportError, IndexError):
        return 0


class Soak:
    """One machine's life: games, cuts, restarts; counts and violations."""

    def __init__(self, board, seed, cut_every, out=None, verbose=False, state_file=False, tear="bits"):
        from nimatron.config import boards

        from .flash import FlashNvm, ModelFiles, Power

        self.board = board
        self.spec = boards.board(board)
        self.rng = random.Random(seed)
        self.cut_every = max(1, cut_every)
        self.verbose = verbose
        self.out = out or sys.stderr
        self.power = Power()
        self.tear = random.Random(seed ^ 0x5EED) if tear == "bits" else None
        self.nvm = FlashNvm(power=self.power, tear=self.tear)
        self.files = ModelFiles(self.power) if state_file else None
        self.reported = 0  # restarts whose boot said something was lost
        self.lost = 0  # games the audits lost at those restarts
        self.short = 0  # restarts at which the audits were short (all reported)
        self.factory = 0  # restarts on a blank sector: "restored to factory", said at boot
        self.durable = {}  # setting -> the values it may hold after a cut (answered saved, or later)
        self.inflight = None  # (setting, value) of a SET whose reply the cut may have stopped
        self.games = 0
        self.cuts = 0
        self.torn = 0  # cuts in the middle of a flash write
        self.kept = 0  # games whose record a cut mid-write did not stop
        self.host = 0
        self.stuck = 0  # buttons held 10 s or more
        self.chords = 0
        self.violations = 0
        self.ended = {"finished": 0, "abandoned": 0}  # games over, as the events told
        self.sim = None
        self.settings_seed = self.rng.randrange(1 << 30)
        self.start()

    def violation(self, what):
        self.violations += 1
        if self.verbose or self.violations <= 10:
            self.out.write("violation: %s\n" % what)

    # -- power ------------------------------------------------------------------
    def start(self):
        """Power up on what the nvm and the disk hold."""
        from nimatron.link.hostlink import HostLink
        from nimatron.machine.store import Store

        from .engine import Simulator

        self.power.cut_at = None
        if self.files is None:
            store = Store(nvm=self.nvm)
        else:
            store = Store(nvm=self.nvm, path="/nimatron-state.bin", files=self.files)
        # The same settings at every power-up, as a board's settings file: SET changes
        # saved on top of them are restored (a changed source would rightly discard them).
        self.sim = Simulator(self.board, FAST, seed=self.settings_seed, bounce=self.rng.random() < 0.5, store=store)
        self.sim.listeners.append(self._event)
        self.link = self.sim.machine.attach(HostLink(self.sim.controller, board=self.board, now_ms=self.sim.now))

    def _event(self, event):
        if event["event"] == "game_over" and event.get("counted", True):
            self.ended["abandoned" if event["winner"] == "abandoned" else "finished"] += 1

    def cut(self, torn):
        """The power fails: the machine is gone, the nvm's bytes and the disk stay."""
        from .flash import FlashNvm

        self.cuts += 1
        self.torn += torn
        try:
            self.sim.close()
        except Exception:
            pass
        self.nvm = FlashNvm(self.nvm.data, power=self.power, tear=self.tear)
        if self.files is not None:
            self.files = self.files.after_cut(self.rng.random() < 0.5).clone(self.power)
        self.start()
        machine = self.sim.machine
        reported = bool(machine.damaged)  # the boot said why, and counted data_losses
        self.reported += reported
        if machine.restored == "factory" and not reported:
            # a blank sector: the cut fell between a compaction's erase and its first
            # page. The boot says "settings restored to factory" and counts it; the
            # store cannot tell this from a new board (docs/store.md: the erase window)
            self.factory += 1
            reported = True
        audits = machine.audits.lifetime
        got = {"finished": audits["finished"], "abandoned": audits["abandoned"]}
        extra = got["finished"] + got["abandoned"] - self.ended["finished"] - self.ended["abandoned"]
        # A cut mid-write may keep the game it was writing (its record reached a store) or
        # not (torn): never more than that game, never fewer than the games before it
        # -- unless the boot reports the loss.
        if not reported and (
            got["finished"] < self.ended["finished"]
            or got["abandoned"] < self.ended["abandoned"]
            or extra > (1 if torn else 0)
        ):
            self.violation(
                "after a restart the audits hold %s; the games ended were %s (nothing reported)" % (got, self.ended)
            )
        self.check_settings(reported)
        if reported and extra < 0:
            self.lost += -extra
            self.short += 1
        self.kept += max(0, extra)
        self.ended = got

    def check_settings(self, reported):
        """Each setting a SET was answered "saved" for survived the cut (or a later value did)."""
        if self.inflight is not None:
            key, value = self.inflight
            self.durable.setdefault(key, []).append(value)
            self.inflight = None
        settings = self.sim.controller.settings
        for key in self.durable:
            if not reported and settings[key] not in self.durable[key]:
                self.violation(
                    "after a restart %s is %r; the machine had answered %r saved"
                    % (key, settings[key], self.durable[key][0])
                )
            self.durable[key] = [settings[key]]

    # -- the games -----------------------------------------------------------------
    def traffic(self):
        for _ in range(self.rng.randrange(3)):
            line = self.rng.choice(COMMANDS)
            if line.startswith(b"SET think_ms") or line.startswith(b"SET explain"):
                word = line.split()[2].decode()
                key = line.split()[1].decode()
                self.durable.setdefault(key, [self.sim.controller.settings[key]])  # what it was before any SET
                self.inflight = (key, int(word) if word.isdigit() else word == "on")
            reply = self.link.handle(line, self.sim.now)
            self.host += 1
            if not reply or reply.split(" ", 1)[0] not in ("OK", "ERR") or reply.startswith("ERR internal"):
                self.violation("host link: %r -> %r" % (line, reply[:80]))
            elif self.inflight is not None and reply.startswith("OK "):
                key, value = self.inflight
                if json.loads(reply[3:]).get("saved") is True:
                    self.durable[key] = [value]  # durable now: only this, or a later value, may come back
                else:
                    self.durable.setdefault(key, []).append(value)  # saved later, or lost with the power
            self.inflight = None

    def mischief(self):
        """A child at the buttons: one held down for seconds (stuck, from 10 s), or a chord."""
        sim = self.sim
        roles = [r for r in sim.roles if r != "new"]
        if self.rng.random() < 0.5:
            role = self.rng.choice(roles)
            ms = self.rng.randrange(1000, 15000)
            self.stuck += ms >= 10000
            sim.press(role)
            sim.advance(ms)
            sim.release(role)
        else:
            self.chords += 1
            chord = self.rng.sample(roles, min(len(roles), self.rng.randrange(2, 5)))
            for role in chord:
                sim.press(role)
            sim.advance(self.rng.randrange(40, 400))
            for role in chord:
                sim.release(role)
        sim.advance(sim.controller.settings["refuse_ms"] + 100)  # any refusal flash over: the lamps tell the truth

    def check_lamps(self):
        c = self.sim.controller
        if (
            c.panel is None
            or c.state != "visitor"
            or c.selected
            or c.refused_at is not None
            or c.hint
            or c.asking is not None
        ):
            return
        want = [[1 if lit else 0 for lit in row] for row in c.panel.lit]
        lamps = self.sim.read_lamps()
        if lamps != want:
            self.violation("lamps %s but the position is %s" % (lamps, want))

    def play(self):
        """One game; a power cut now and then, between presses or mid-write."""
        from .flash import PowerCut
        from .visitor import Visitor

        sim = self.sim
        robot = Visitor(
            sim,
            "perfect" if self.rng.random() < 0.3 else "random",
            seed=self.rng.randrange(1 << 30),
            hold_ms=40,
            gap_ms=40,
        )
        cut_after = None
        if self.rng.randrange(self.cut_every) == 0:
            cut_after = self.rng.randrange(-6, 8)  # after some moves, or (<= 0) in the next flash write
            if cut_after <= 0:
                # a step of the next few writes: a byte each (bytes), a page or an erase each (bits)
                self.power.cut_at = self.power.steps + self.rng.randrange(300 if self.tear is None else 6)
        self.games += 1
        try:
            robot.tap_for("new")
            moves = 0
            end = sim.now + 600000
            while robot.winner is None and sim.now < end:
                if robot.turn == "visitor":
                    if sim.controller.asking is not None:
                        # "still playing?" (after a long hold): the visitor answers yes;
                        # that press takes nothing, and the lamps show the game again.
                        robot.tap_for("done")
                        continue
                    if sim.controller.refused_at is not None:
                        sim.advance(sim.tick_ms)  # a refusal flash: the visitor waits for the lamps
                        continue
                    self.check_lamps()
                    if self.rng.random() < 0.05:
                        self.mischief()
                        if sim.controller.selected:
                            # keys of a grid board pressed in the chord stay selected; the
                            # visitor presses DONE: a legal move counts, else every lamp returns
                            robot.tap_for("done")
                            sim.advance(sim.controller.settings["refuse_ms"] + 100)
                        continue
                    if sim.controller.selected:
                        # keys still selected (a press the last restart or chord left): the
                        # visitor presses DONE first, as after a chord
                        robot.tap_for("done")
                        sim.advance(sim.controller.settings["refuse_ms"] + 100)
                        continue
                    robot.move()
                    moves += 1
                    self.traffic()
                    sim.advance(sim.tick_ms)  # the lamps follow what the link did
                    if cut_after and moves == cut_after:
                        return self.cut(False)
                else:
                    sim.advance(sim.tick_ms)
            if robot.winner is None:
                self.violation("game %d wedged in state %s" % (self.games, sim.controller.state))
                return self.cut(False)
            self.check_machine(robot)
            sim.advance(sim.controller.settings["over_ms"] + 100)
            if sim.controller.state != "attract":
                self.violation("not back in attract after a game: %s" % sim.controller.state)
            self.traffic()
        except PowerCut:
            return self.cut(True)
        finally:
            if robot._event in sim.listeners:
                sim.listeners.remove(robot._event)

    def check_machine(self, robot):
        """In perfect mode the machine never loses a game it could have won."""
        from nimatron.games import strategy
        from nimatron.games.rules import parse_rules

        c = self.sim.controller
        if robot.winner != "visitor" or c.settings["difficulty"] != "perfect" or robot.game is None:
            return
        rules = parse_rules(robot.game["rules"])
        for k, move in enumerate(robot.moves):
            if move["by"] == "machine":
                ring = rules.has_ring and k == 0
                if strategy.solve(rules, move["before"], robot.game["misere"], ring)["outcome"] == "win":
                    self.violation("the perfect machine lost a game it could win: %s" % json.dumps(robot.moves)[:200])
                    return

    def run(self, games, started=None):
        """Play ``games`` (``started()`` first); the figures so far, with
        ``interrupted`` set, on Ctrl-C."""
        memory = []
        began = time.monotonic()
        warm = min(300, games // 2)
        interrupted = False
        try:
            if started is not None:
                started()
            while self.games < games:
                self.play()
                if self.games == warm or self.games == games:
                    memory.append(rss_kb())
        except KeyboardInterrupt:
            interrupted = True
        try:
            self.sim.close()
        except Exception:  # interrupted anywhere
            pass
        if len(memory) == 2 and memory[0] and memory[1] - memory[0] > MEMORY_SLACK_KB:
            self.violation("memory grew from %d KB to %d KB" % (memory[0], memory[1]))
        return {
            "games": self.games,
            "power_cuts": self.cuts,
            "torn_writes": self.torn,
            "kept": self.kept,
            "reported_losses": self.reported,
            "games_lost": self.lost,
            "short_starts": self.short,
            "factory_starts": self.factory,
            "host_commands": self.host,
            "stuck_buttons": self.stuck,
            "chords": self.chords,
            "violations": self.violations,
            "memory_kb": memory,
            "seconds": round(time.monotonic() - began, 1),
            "interrupted": interrupted,
        }


def run(args):
    from nimatron.config import boards

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.cut_every < 1:
        raise UsageError("--cut-every must be at least 1")
    try:
        boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e)) from e
    store = "nvm and state file" if args.state_file else "nvm alone"
    tears = "NOR bits" if args.tear == "bits" else "bytes"
    soak = Soak(args.board, args.seed, args.cut_every, verbose=args.verbose, state_file=args.state_file, tear=args.tear)

    def started():
        sys.stderr.write(
            "soak: %d games on %s (%s, %s); Ctrl-C stops it with the summary so far\n"
            % (args.games, args.board, store, tears)
        )
        sys.stderr.flush()

    result = soak.run(args.games, started)
    result["store"] = store
    result["tears"] = tears
    print(
        "soak%s: %%(games)d games (%%(store)s, %%(tears)s), %%(power_cuts)d power cuts (%%(torn_writes)d mid-write), "
        "%%(reported_losses)d reported losses and %%(factory_starts)d factory starts (audits short at %%(short_starts)d starts, by %%(games_lost)d games in all), "
        "%%(stuck_buttons)d stuck buttons, %%(chords)d chords, "
        "%%(host_commands)d host commands, %%(violations)d violations; memory %%(memory_kb)s KB; %%(seconds)s s"
        % (" interrupted" if result["interrupted"] else "")
        % result
    )
    sys.stdout.flush()
    if result["interrupted"]:
        return 130
    return 1 if result["violations"] else 0
