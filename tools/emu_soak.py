# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A long run on real CircuitPython: N whole games, another preset before every one.

Deploys this checkout as ``nimatron deploy`` puts it on a board (through
tools/emu_board.py, the same emulated RP2040), then for each game sends
``SET preset P`` (the board's presets in turn), plays the game to its end
with a robot visitor, and checks that the game's save was written: it reads
microcontroller.nvm's sector back from the emulated flash, recovers it as
the board would at its next start (``Store.load``) and compares the stored
audits and settings with what the board answers over the link (``AUDITS``,
the preset just set). After each game ``MEMORY`` gives the heap's free bytes
and its largest free block.

    .venv/bin/python tools/emu_soak.py --board pico-grid --games 50
    .venv/bin/python tools/emu_soak.py --board pico-grid --games 50 --moves 2
    .venv/bin/python tools/emu_soak.py --board macropad --games 50 --elf firmware.elf

With ``--elf`` (the UF2's own firmware.elf) every allocation is watched and
the largest one after the start is printed beside the least largest free
block: the run passes when every save is written, no save failed, and the
least largest block held the largest allocation. Exit status 1 if it did not.
The ``--json`` file then also has ``profile``: each pass over ``EMU_PROFILE_MS``
(40 ms) with where its time went, as ``tools/emu_board.py --profile`` prints them.
Not for CI (the emulator's set-up: tools/emu_board.py). Figures: docs/board.md.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def stored(emu):
    """The records microcontroller.nvm holds now, recovered as a start would."""
    from nimatron.machine.store import Store

    nvm = bytearray(bytes.fromhex(emu("nvm_read")["hex"]))
    return Store(nvm=nvm).load()


SETTINGS_GAP_MS = 11000  # machine.startup's _SETTINGS_GAP_MS (10 s), and a little
# audits.KEYS' counts of ended games ("games", the games begun, is saved with the next game's end)
COUNTS = ("finished", "visitor_wins", "machine_wins", "abandoned")
FIRST = 1  # where they begin in a stored record's lifetime list


def soak(board, uf2, mpy_cross, games, presets, log, symbols=None, flash="typ", moves=None, save=None):
    import emu_board
    from nimatron.config import boards
    from nimatron_sim.visitor import Visitor

    spec = boards.board(board)
    row = emu_board.Row(board, "soak", "set")
    out = {
        "board": board,
        "games": [],
        "unsaved": [],
        "save_failures": [],
        "least_free": None,
        "least_block": None,
        "largest_alloc": None,
        "errors": row.errors,
    }
    work, image, pinmap = emu_board.deploy(board, None, mpy_cross, None, emu_board.boot_out_of(uf2))
    emu = emu_board.Emulator(uf2, image, pinmap, flash, symbols)
    try:
        booted = emu("boot")
        if booted["boot"] is None:
            row.errors.append("no boot line: " + booted["console"][-300:])
            return out
        sim = emu_board.BoardSim(emu, board, spec, row)
        sim.command("HELLO")
        sim.command("EVENTS ON")
        sim.listeners.append(
            lambda ev: (
                out["save_failures"].append(ev.get("failing"))
                if ev.get("event") == "saving" and ev.get("failing")
                else None
            )
        )
        if spec["input"] != "rows":
            sim.command("SET remote_play on")
        started_ms = sim.now
        seen = 0  # console lines read
        probes = []  # MEMORY's spans of emulated time: not the exhibit's allocations
        for g in range(games):
            preset = presets[g % len(presets)]
            errors = len(row.errors)
            sim.command("SET preset %s" % preset)
            sim.advance(1000)  # the SET's steps, one a pass
            sim.refresh()
            skill = ("random", "perfect")[g % 2]
            robot = Visitor(sim, skill, seed=g, hold_ms=emu_board.HOLD_MS, gap_ms=emu_board.GAP_MS)
            winner = emu_board.play(sim, robot, row, measure=False, moves=moves)
            sim.listeners.remove(robot._event)
            if winner is None and moves:  # a game left after a few moves: NEW abandons it (counted, saved)
                robot.tap_for("new")
                winner = "abandoned"
            sim.advance(1500)  # the game's end and its save
            for wait in (0, SETTINGS_GAP_MS):  # a SET's save waits for the gap since the last (wear)
                sim.advance(wait)
                audits = sim.command("AUDITS") or {}
                found = stored(emu)
                kept = (found.get("audits") or {}).get("l") or []
                live = audits.get("lifetime") or {}
                counts = [live.get(key) for key in COUNTS]
                counts_stored = [kept[i] if i < len(kept) else 0 for i in range(FIRST, FIRST + len(COUNTS))]
                settings = (found.get("settings") or {}).get("set") or {}
                ok = counts == counts_stored and settings.get("preset") == preset
                if ok:
                    break
            if not ok:
                out["unsaved"].append(g + 1)
            since = sim.now
            memory = sim.command("MEMORY", cause="MEMORY (the soak's)") or {}
            probes.append([since, sim.now])  # its search for the largest block allocates up to all that is free
            free, block = memory.get("free"), memory.get("block")
            said = emu("console", tail=1 << 24)["console"].splitlines()  # after every game: a run stopped early has it
            for line in said[seen:]:
                if any(word in line for word in emu_board.CONSOLE_TROUBLE) or "saving failed" in line:
                    row.errors.append("console: " + line.strip()[:160])
            seen = len(said)
            for key, value in (("least_free", free), ("least_block", block)):
                if value is not None and (out[key] is None or value < out[key]):
                    out[key] = value
            game = {
                "game": g + 1,
                "preset": preset,
                "skill": skill,
                "winner": winner,
                "saved": ok,
                "counts": counts,
                "counts_stored": counts_stored,
                "preset_stored": settings.get("preset"),
                "free": free,
                "block": block,
                "at_s": round((sim.now - started_ms) / 1000, 1),
                "errors": row.errors[errors:],
            }
            out["games"].append(game)
            if symbols:
                out["largest_alloc"] = emu("allocs", since=started_ms, skip=probes)["largest"]
                out["profile"] = row.profile  # the passes over EMU_PROFILE_MS: where their time went
            out["longest_tick_by_cause"] = row.by_cause  # MEMORY's: its collection, and the search for the block
            if save:
                save(out)  # after every game: a run stopped early keeps what it saw
            log(
                "  game %2d %-12s %-7s %-9s saved %-3s free %s block %s%s%s"
                % (
                    g + 1,
                    preset,
                    skill,
                    winner,
                    "yes" if ok else "NO",
                    free,
                    block,
                    ""
                    if ok
                    else " (counts %s, stored %s, preset stored %s)" % (counts, counts_stored, settings.get("preset")),
                    "  " + "; ".join(e[:100] for e in game["errors"]) if game["errors"] else "",
                )
            )
        status = emu("status")
        out["watchdog_fired"] = status["watchdog_fired"]
    finally:
        emu.close()
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="emu_soak", description=__doc__.split("\n")[0])
    p.add_argument("--board", default="pico-grid")
    p.add_argument("--uf2", help="as tools/emu_board.py's --uf2")
    p.add_argument(
        "--mpy",
        action="store_true",
        help="precompile with CircuitPython's own mpy-cross (from the cache); "
        "without it, deploy's default: the .mpy the repository carries "
        "(made by that compiler: the same files)",
    )
    p.add_argument("--games", type=int, default=50)
    p.add_argument(
        "--moves",
        type=int,
        help="the visitor's moves a game, then NEW abandons it (saved as "
        "abandoned): more games an hour (default: whole games)",
    )
    p.add_argument("--presets", help="comma-separated presets to switch between (default: every one the board plays)")
    p.add_argument("--elf", help="the UF2's firmware.elf: watch every allocation (the largest after the start)")
    p.add_argument("--json", metavar="FILE", help="also write the run as JSON")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    sys.path[:0] = [HERE, os.path.join(REPO, "firmware"), os.path.join(REPO, "simulator")]
    import emu_board
    from nimatron.config import boards

    if args.board not in boards.names():
        p.error("no board %s (one of: %s)" % (args.board, ", ".join(boards.names())))
    offered = emu_board.playable(args.board)
    presets = args.presets.split(",") if args.presets else offered
    unknown = [x for x in presets if x not in offered]
    if unknown:
        p.error("board %s does not offer %s (it offers: %s)" % (args.board, ", ".join(unknown), ", ".join(offered)))
    if args.uf2 is None:
        args.uf2 = emu_board.MACROPAD_UF2 if args.board == "macropad" else "cp9.2.8.uf2"
    uf2 = args.uf2 if os.path.isfile(args.uf2) else os.path.join(emu_board.CACHE, args.uf2)
    if not os.path.isfile(uf2) or not os.path.isfile(os.path.join(emu_board.TOOL, "session.js")):
        print("emu_soak: the emulator is not set up, or no firmware %s (tools/emu_board.py)" % uf2, file=sys.stderr)
        return 2
    mpy_cross = None
    if args.mpy:
        mpy_cross = os.path.join(emu_board.CACHE, "mpy-cross-9.2.8")
        if not os.access(mpy_cross, os.X_OK):
            print("emu_soak: no %s" % mpy_cross, file=sys.stderr)
            return 2
    symbols = None
    if args.elf:
        symbols = emu_board.profile_symbols(args.elf)
        if symbols is None:
            print("emu_soak: cannot read the symbols of %s" % args.elf, file=sys.stderr)
            return 2
    print(
        "board %s, %s, %s, %d games over %d presets%s"
        % (
            args.board,
            os.path.basename(uf2),
            ".mpy" if args.mpy else ".mpy carried",
            args.games,
            len(presets),
            ", %d moves a game" % args.moves if args.moves else "",
        )
    )

    def save(out):
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)

    out = soak(
        args.board,
        uf2,
        mpy_cross,
        args.games,
        presets,
        lambda s: print(s, flush=True),
        symbols,
        moves=args.moves,
        save=save if args.json else None,
    )
    saved = sum(1 for g in out["games"] if g["saved"])
    print(
        "saves written: %d of %d games; saves that failed (events): %d"
        % (saved, len(out["games"]), len(out["save_failures"]))
    )
    print("least free %s bytes; least largest free block %s bytes" % (out["least_free"], out["least_block"]))
    big = out["largest_alloc"]
    if big:
        print("largest allocation after the start: %d bytes at %.1f s" % (big["n"], big["t"] / 1000))
    ticks = out.get("longest_tick_by_cause") or {}
    print(
        "longest tick during each: " + ", ".join("%s %.1f" % kv for kv in sorted(ticks.items(), key=lambda kv: -kv[1]))
    )
    for e in out["errors"][:12]:
        print("    " + e[:160])
    if args.json:
        save(out)
    held = big is None or out["least_block"] is None or out["least_block"] >= big["n"]
    good = saved == args.games == len(out["games"]) and not out["save_failures"] and held
    print("PASS" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
