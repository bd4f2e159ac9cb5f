# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron demo``: the machine plays a random visitor, explaining each move."""

import random

from nimatron.games import explain, strategy
from nimatron.games.rules import MAX_HEAPS, RulesError

from .cli import UsageError
from .solve import checked, read_position, working

# The random visitor chooses among every move of a position: more than this
# many and the demo would crawl (Moore's game on big heaps has billions).
MOST_MOVES = 100000


def add_parser(sub):
    p = sub.add_parser("demo", help="watch the machine play a random visitor in the terminal", description=__doc__)
    p.add_argument("--rules", default="nim")
    p.add_argument("--misere", action="store_true")
    p.add_argument("--seed", type=int, default=None, help="repeat a game exactly")
    p.add_argument("--stones", metavar="R", help="Building Nim: stones still to place")
    p.add_argument(
        "heaps",
        nargs="*",
        default=["3", "4", "5"],
        metavar="HEAP",
        help="the start, read as nimatron solve reads it (2-D Nim: rows of 0s and 1s)",
    )


def most_heaps(rules, heaps):
    """The most heaps any position reachable from ``heaps`` can have.

    Taking never adds a heap; splitting does: a Grundy heap of h ends as at
    most h - 1 heaps (a 2 and 1s), a circular row of h as (h + 1) // 2 ones.
    """
    return rules.most_parts(heaps)


def check_game(rules, heaps):
    """UsageError unless a whole game from ``heaps`` stays within the demo's reach.

    The start is checked by ``solve``'s own check; what a game can grow
    into (more heaps than the engine takes, too many moves to choose from)
    is checked here, before the first move, so a demo never dies half-way.
    """
    if most_heaps(rules, heaps) > MAX_HEAPS:
        raise UsageError(
            "%s from %s can split into more than %d heaps: too large for a demo"
            % (rules.spec, rules.position_words(heaps), MAX_HEAPS)
        )
    for count, _ in enumerate(rules.moves(heaps), 1):
        if count > MOST_MOVES:
            raise UsageError(
                "%s from %s has more than %s moves to choose from: too large for a demo"
                % (rules.spec, rules.position_words(heaps), "{:,}".format(MOST_MOVES))
            )


def run(args):
    rules, heaps, _ = checked(args.rules, read_position(args, "nimatron demo --rules nim 3 4 5"), args.misere)
    check_game(rules, heaps)
    rng = random.Random(args.seed)
    print(
        "The Nimatron (%s, %s) against a visitor who plays at random."
        % (rules.spec, "misère" if args.misere else "normal play")
    )
    print("Start: %s\n" % rules.position_words(heaps))
    player = "visitor"
    while True:
        moves = list(rules.moves(heaps))
        if not moves:
            break
        if player == "visitor":
            after = rng.choice(moves)
            print(
                "Visitor: %s -> %s" % (explain.describe_move(heaps, after, rules.ordered), rules.position_words(after))
            )
        else:
            try:
                result = strategy.solve(rules, heaps, args.misere)
            except RulesError as e:  # the checks above should make this unreachable
                raise UsageError("the engine cannot answer %s: %s" % (rules.position_words(heaps), e)) from e
            after = result["after"]
            for line in working(rules, heaps, args.misere):
                print(line)
            verdict = "a winning move" if result["outcome"] == "win" else "no winning move exists, so it plays for time"
            print(
                "Machine: %s -> %s  (%s)\n"
                % (explain.describe_move(heaps, after, rules.ordered), rules.position_words(after), verdict)
            )
        heaps = after
        player = "machine" if player == "visitor" else "visitor"
    # `player` cannot move: in normal play they lose, in misère they win.
    loser = player if not args.misere else ("machine" if player == "visitor" else "visitor")
    print("\n%s wins." % ("The machine" if loser == "visitor" else "The visitor (NIM CHAMP!)"))
    return 0
