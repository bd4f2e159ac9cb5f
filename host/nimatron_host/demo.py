"""``nimatron demo``: the machine plays a random visitor, explaining each move."""

import random

from nimatron import explain, strategy
from nimatron.rules import RulesError, parse_rules

from .cli import UsageError


def add_parser(sub):
    p = sub.add_parser("demo", help="watch the machine play a random visitor in the terminal", description=__doc__)
    p.add_argument("--rules", default="nim")
    p.add_argument("--misere", action="store_true")
    p.add_argument("--seed", type=int, default=None, help="repeat a game exactly")
    p.add_argument("heaps", nargs="*", type=int, default=[3, 4, 5], metavar="HEAP")


def run(args):
    try:
        rules = parse_rules(args.rules)
        heaps = rules.check(args.heaps)
        strategy.solve(rules, heaps, args.misere)
    except RulesError as e:
        raise UsageError(str(e))
    rng = random.Random(args.seed)
    print("The Nimatron (%s, %s) against a visitor who plays at random." % (rules.spec, "misère" if args.misere else "normal play"))
    print("Start: %s\n" % " ".join(map(str, heaps)))
    player = "visitor"
    while True:
        moves = list(rules.moves(heaps))
        if not moves:
            break
        if player == "visitor":
            after = rng.choice(moves)
            print("Visitor: %s -> %s" % (explain.describe_move(heaps, after, rules.ordered), " ".join(map(str, after))))
        else:
            result = strategy.solve(rules, heaps, args.misere)
            after = result["after"]
            if rules.name == "nim":
                print("\n".join(explain.nim_sum_lines(heaps)))
            verdict = "a winning move" if result["outcome"] == "win" else "no winning move exists, so it plays for time"
            print("Machine: %s -> %s  (%s)\n" % (explain.describe_move(heaps, after, rules.ordered), " ".join(map(str, after)), verdict))
        heaps = after
        player = "machine" if player == "visitor" else "visitor"
    # `player` cannot move: in normal play they lose, in misère they win.
    loser = player if not args.misere else ("machine" if player == "visitor" else "visitor")
    print("\n%s wins." % ("The machine" if loser == "visitor" else "The visitor (NIM CHAMP!)"))
    return 0
