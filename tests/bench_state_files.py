# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Which files a Pi or a simulator starts on, and which it refuses: figures
for docs/reliability.md ("Another writer and damage at rest").

    .venv/bin/python tests/bench_state_files.py                  # this tree
    .venv/bin/python tests/bench_state_files.py --against 6d8eb0b  # and a revision's problem()

Generates files of each kind (seeded): one of our records among junk, a
zeroed or blank file, a header hit at byte 0 (maybe torn), every bit of a
state file flipped in turn, text, files bigger than any state. A file of
ours refused is a dark exhibit (harm); a foreign file accepted would be
overwritten (harm).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from nimatron.machine import statefile  # noqa: E402
from nimatron.machine.store import AUDITS, SETTINGS, encode  # noqa: E402


def state(rng):
    return encode(
        AUDITS, rng.randrange(2**24), {"power_ups": rng.randrange(1000), "games": rng.randrange(99)}
    ) + encode(SETTINGS, rng.randrange(2**24), {"board": "pi-leds", "set": {"think_ms": rng.randrange(900)}})


def junk(rng, n):
    return bytes(rng.randrange(256) for _ in range(rng.randrange(n)))


def cases(rng, n):
    """(kind, ours?, bytes) of every generated file."""
    for _ in range(n):
        yield "a record among junk", True, junk(rng, 300) + state(rng)[: rng.choice((67, 10**6))] + junk(rng, 300)
        yield "zeroed", True, bytes(rng.randrange(1, statefile.LIMIT))
        yield "blank (0xFF)", True, b"\xff" * rng.randrange(1, statefile.LIMIT)
        data = bytearray(state(rng))
        data[rng.randrange(4)] ^= rng.randrange(1, 256)
        yield "a header hit at byte 0, maybe torn", True, bytes(data[: rng.randrange(8, len(data) + 1)])
        text = "".join(
            rng.choice('abcdefghijklmnopqrstuvwxyz NAS\n\t0123456789,.;{}"') for _ in range(rng.randrange(1, 3000))
        )
        yield "text", False, text.encode()
        yield "bigger than any state", False, state(rng) + bytes(statefile.LIMIT)
    whole = state(rng)
    for at in range(len(whole)):
        for bit in range(8):
            data = bytearray(whole)
            data[at] ^= 1 << bit
            yield "one bit flipped (every bit of a state file)", True, bytes(data)


LOCKS = (b"\0\0\0\0", b"12s45\n", b"\n", b"123\n456\n", b"\xff\xff\xff\xff")  # the (46)


def lock_cases(rng, n):
    """(kind, ours?, bytes) of lock files: what a power cut, a flipped bit or
    two writers can leave, then any bytes of any length."""
    for data in LOCKS:
        yield "a damaged lock file", True, data
    for _ in range(n):
        pid = b"%d\n" % rng.randrange(1, 4194304)
        at = rng.randrange(len(pid))
        yield "a damaged lock file", True, pid[:at] + bytes([pid[at] ^ (1 << rng.randrange(8))]) + pid[at + 1 :]
        yield "a damaged lock file", True, junk(rng, 64)
        yield "a damaged lock file", True, bytes(rng.randrange(1, 5000))
    yield "a hard link at the lock", False, b""


def lock_refused(statefile, folder, data, link=False):
    path = os.path.join(folder, "state.bin")
    lock = path + ".lock"
    if link:
        victim = os.path.join(folder, "victim")
        open(victim, "wb").close()
        os.link(victim, lock)
    else:
        with open(lock, "wb") as f:
            f.write(data)
    owner = statefile.Owner(path)
    refused = owner.take() is not None
    owner.close()
    os.remove(lock)
    if link:
        os.remove(victim)
    return refused


def refused_by(problem, folder, data):
    path = os.path.join(folder, "state.bin")
    with open(path, "wb") as f:
        f.write(data)
    return problem(path) is not None


def base_statefile(revision, folder):
    """``statefile`` as it was at ``revision`` (its package renamed)."""
    os.makedirs(folder)
    subprocess.run(
        "git -C %s archive %s firmware/nimatron | tar -x -C %s" % (ROOT, revision, folder), shell=True, check=True
    )
    os.rename(os.path.join(folder, "firmware", "nimatron"), os.path.join(folder, "nimatron_base"))
    sys.path.insert(0, folder)
    from nimatron_base.machine import statefile as old

    return old


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cases", type=int, default=300, help="files of each generated kind (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--against", metavar="REVISION", help="also count what a revision's problem() refused")
    args = p.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        old = base_statefile(args.against, os.path.join(folder, "base")) if args.against else None
        rows = {}
        for kind, ours, data in cases(rng, args.cases):
            row = rows.setdefault(kind, [ours, 0, 0, 0])
            row[1] += 1
            row[2] += refused_by(statefile.problem, folder, data) == ours  # harm: ours refused, or foreign taken
            if old is not None:
                row[3] += refused_by(old.problem, folder, data) == ours
        for kind, ours, data in lock_cases(rng, args.cases):
            row = rows.setdefault(kind, [ours, 0, 0, 0])
            row[1] += 1
            link = not ours
            row[2] += lock_refused(statefile, folder, data, link) == ours
            if old is not None:
                row[3] += lock_refused(old, folder, data, link) == ours
    print("| kind | ours? | files | harm now |%s" % (" harm at %s |" % args.against if old else ""))
    print("|---|---|---|---|%s" % ("---|" if old else ""))
    for kind, (ours, n, now, then) in rows.items():
        print("| %s | %s | %d | %d |%s" % (kind, "yes" if ours else "no", n, now, " %d |" % then if old else ""))
    return 1 if any(row[2] for row in rows.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
