"""``nimatron soak``: months of an exhibit's life in minutes, checked all the while.

    nimatron soak --games 2000 [--board pico-neopixel] [--seed 1]

Full-stack games on the real drivers (``Simulator``) with robot visitors
(random, and perfect ones that test the machine), switch bounce, random
host-link traffic (``HostLink.handle``, SETs included) and power cuts at
random instants: between presses, and in the middle of a flash write
(``flash.Power``), after which the machine restarts from the bytes its
nvm holds, as a board would. Checked all the while:

- the lamps read back from the pins equal the position of the game;
- the game never wedges: every game ends and the machine returns to attract;
- in perfect mode the machine never loses a game it could have won;
- after every restart the audits equal the games finished before it (a
  cut in the middle of the game's own write may lose that one game);
- memory does not grow.

One summary line; exit status 1 on any violation.
"""

import json
import random
import sys
import time

from nimatron_host.cli import UsageError

FAST = {"think_ms": 40, "show_ms": 40, "over_ms": 1000, "walkaway_ms": 20000, "seed": 1}
COMMANDS = (b"HELLO", b"STATE", b"AUDITS", b"CONFIG", b"CONFIG think_ms", b"EXPLAIN", b"HELP",
            b"EVENTS ON", b"EVENTS OFF", b"SET think_ms 30", b"SET think_ms 50", b"SET explain on",
            b"SET explain off", b"SET nosuch 1", b"SET difficulty", b"PLAY PRESS row0", b"NEW",
            b"UNLOCK 0000", b"LOCK", b"\xff\xfe", b"x" * 300, b"")
MEMORY_SLACK_KB = 30000  # growth allowed after the warm-up (allocator noise, caches)


def add_parser(sub):
    p = sub.add_parser("soak", help="many games with power cuts, bounce and host traffic; checks invariants",
                       description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--board", default="pico-neopixel", help="board (default pico-neopixel)")
    p.add_argument("--seed", type=int, default=1, help="seed for visitors, cuts and traffic (default 1)")
    p.add_argument("--cut-every", type=int, default=25, metavar="N",
                   help="a power cut about every N games (default 25)")
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

    def __init__(self, board, seed, cut_every, out=None, verbose=False):
        from nimatron.config import boards

        from .flash import FlashNvm, ModelFiles, Power

        self.board = board
        self.spec = boards.board(board)
        self.rng = random.Random(seed)
        self.cut_every = max(1, cut_every)
        self.verbose = verbose
        self.out = out or sys.stderr
        self.power = Power()
        self.nvm = FlashNvm(power=self.power)
        self.files = ModelFiles(self.power)
        self.games = 0
        self.cuts = 0
        self.torn = 0          # cuts in the middle of a flash write
        self.kept = 0          # games whose record a cut mid-write did not stop
        self.host = 0
        self.stuck = 0         # buttons held 10 s or more
        self.chords = 0
        self.violations = 0
        self.ended = {"finished": 0, "abandoned": 0}  # games over, as the events told
        self.sim = None
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
        store = Store(nvm=self.nvm, path="/nimatron-state.bin", files=self.files)
        self.sim = Simulator(self.board, FAST, seed=self.rng.randrange(1 << 30), bounce=self.rng.random() < 0.5,
                             store=store)
        self.sim.listeners.append(self._event)
        self.link = self.sim.machine.attach(HostLink(self.sim.controller, board=self.board, now_ms=self.sim.now))

    def _event(self, event):
        if event["event"] == "game_over":
            self.ended["abandoned" if event["winner"] == "abandoned" else "finished"] += 1

    def cut(self, torn):
        """The power fails: the machine is gone, the nvm's bytes and the disk stay."""
        from .flash import FlashNvm

        self.cuts += 1
        self.torn += torn
        try:
            self.sim.close()
        except Exception:  # noqa: BLE001
            pass
        self.nvm = FlashNvm(self.nvm.data, power=self.power)
        self.files = self.files.after_cut(self.rng.random() < 0.5).clone(self.power)
        self.start()
        audits = self.sim.machine.audits.lifetime
        got = {"finished": audits["finished"], "abandoned": audits["abandoned"]}
        extra = got["finished"] + got["abandoned"] - self.ended["finished"] - self.ended["abandoned"]
        # A cut mid-write may keep the game it was writing (its record reached a store) or
        # not (torn): never more than that game, never fewer than the games before it.
        if got["finished"] < self.ended["finished"] or got["abandoned"] < self.ended["abandoned"] or (
                extra > (1 if torn else 0)):
            self.violation("after a restart the audits hold %s; the games ended were %s" % (got, self.ended))
        self.kept += extra
        self.ended = got

    # -- the games -----------------------------------------------------------------
    def traffic(self):
        for _ in range(self.rng.randrange(3)):
            line = self.rng.choice(COMMANDS)
            reply = self.link.handle(line, self.sim.now)
            self.host += 1
            if not reply or reply.split(" ", 1)[0] not in ("OK", "ERR") or reply.startswith("ERR internal"):
                self.violation("host link: %r -> %r" % (line, reply[:80]))

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
        if (c.panel is None or c.state != "visitor" or c.selected or c.refused_at is not None or c.hint
                or c.asking is not None):
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
        robot = Visitor(sim, "perfect" if self.rng.random() < 0.3 else "random",
                        seed=self.rng.randrange(1 << 30), hold_ms=40, gap_ms=40)
        cut_after = None
        if self.rng.randrange(self.cut_every) == 0:
            cut_after = self.rng.randrange(-6, 8)  # after some moves, or (<= 0) in the next flash write
            if cut_after <= 0:
                self.power.cut_at = self.power.steps + self.rng.randrange(300)
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

    def run(self, games):
        memory = []
        started = time.monotonic()
        warm = min(300, games // 2)
        while self.games < games:
            self.play()
            if self.games == warm or self.games == games:
                memory.append(rss_kb())
        self.sim.close()
        if len(memory) == 2 and memory[0] and memory[1] - memory[0] > MEMORY_SLACK_KB:
            self.violation("memory grew from %d KB to %d KB" % (memory[0], memory[1]))
        return {"games": self.games, "power_cuts": self.cuts, "torn_writes": self.torn, "kept": self.kept,
                "host_commands": self.host, "stuck_buttons": self.stuck, "chords": self.chords, "violations": self.violations,
                "memory_kb": memory, "seconds": round(time.monotonic() - started, 1)}


def run(args):
    from nimatron.config import boards

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.cut_every < 1:
        raise UsageError("--cut-every must be at least 1")
    try:
        boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e))
    soak = Soak(args.board, args.seed, args.cut_every, verbose=args.verbose)
    result = soak.run(args.games)
    print("soak: %(games)d games, %(power_cuts)d power cuts (%(torn_writes)d mid-write), %(stuck_buttons)d stuck buttons, %(chords)d chords, %(host_commands)d host commands, %(violations)d violations; memory %(memory_kb)s KB; "
          "%(seconds)s s" % result)
    return 1 if result["violations"] else 0
