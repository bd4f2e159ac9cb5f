"""Scripts for the headless simulator: one action per line.

    # a visitor takes two lamps from row 3
    press new
    press row3
    bounce on          # later presses chatter like a worn switch
    press row3
    hold done 200
    wait 4000

``press BUTTON`` (down ~60 ms, then up ~40 ms), ``hold BUTTON MS``,
``wait MS``, ``bounce on|off``. BUTTON is a role: ``row0``..., ``done``,
``new``, or ``key R I`` on a grid board. Blank lines and ``#`` comments are
ignored. ``parse`` checks every line before anything runs.
"""


class ScriptError(ValueError):
    """A line of a script that cannot run: ``script line N: ...``."""


ACTIONS = ("press", "hold", "wait", "bounce")


def _ms(text, n):
    try:
        value = int(text)
    except ValueError:
        raise ScriptError("script line %d: bad number %r (milliseconds, a whole number)" % (n, text))
    if value < 0:
        raise ScriptError("script line %d: bad number %r (milliseconds cannot be negative)" % (n, text))
    return value


def _role(words, n, roles):
    role = " ".join(words)
    if not words:
        raise ScriptError("script line %d: which button? (%s)" % (n, _choices(roles)))
    if roles is not None and role not in roles:
        raise ScriptError("script line %d: no button %r on this board (%s)" % (n, role, _choices(roles)))
    return role


def _choices(roles):
    if roles is None:
        return "row0..., done, new, key R I"
    plain = [r for r in roles if not r.startswith("key ")]
    keys = [r for r in roles if r.startswith("key ")]
    if keys:
        plain.append("key R I: %s..%s" % (keys[0][4:], keys[-1][4:]))
    return ", ".join(plain)


def parse(lines, roles=None):
    """[(line number, action, args)] or ScriptError for the first bad line.

    ``roles`` (the board's buttons) checks button names too.
    """
    out = []
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        action, rest = words[0].lower(), words[1:]
        if action == "press":
            out.append((n, "press", (_role(rest, n, roles),)))
        elif action == "hold":
            if len(rest) < 2:
                raise ScriptError("script line %d: hold needs a button and milliseconds (hold done 500)" % n)
            out.append((n, "hold", (_role(rest[:-1], n, roles), _ms(rest[-1], n))))
        elif action == "wait":
            if len(rest) != 1:
                raise ScriptError("script line %d: wait needs milliseconds (wait 1000)" % n)
            out.append((n, "wait", (_ms(rest[0], n),)))
        elif action == "bounce":
            if len(rest) != 1 or rest[0].lower() not in ("on", "off"):
                raise ScriptError("script line %d: bounce on, or bounce off" % n)
            out.append((n, "bounce", (rest[0].lower() == "on",)))
        else:
            raise ScriptError("script line %d: unknown action %r (choose from %s)" % (n, words[0], ", ".join(ACTIONS)))
    return out


def run(sim, actions):
    """Play parsed actions on a Simulator."""
    for _, action, args in actions:
        if action == "press":
            sim.tap(args[0])
        elif action == "hold":
            sim.tap(args[0], hold_ms=args[1])
        elif action == "wait":
            sim.advance(args[0])
        elif action == "bounce":
            sim.bounce = args[0]
