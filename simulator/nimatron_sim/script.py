# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Scripts for the headless simulator: one action per line.

    # a visitor takes two lamps from row 3
    press new
    press row3
    bounce on          # later presses chatter like a worn switch
    press row3
    hold done 200
    wait 4000

``press BUTTON`` (down ~60 ms, then up ~40 ms), ``hold BUTTON MS``,
``wait MS``, ``wait host`` (with ``--serial``: until a host has sent
``EVENTS ON``, so a watching tool sees the whole game), ``bounce on|off``;
``down BUTTON`` and ``up BUTTON`` close and open a switch and leave it so,
to hold several at once (``down`` lines at the very start are switches
closed at power-up); ``chord BUTTON... MS`` holds several together
(``chord done new 5000`` opens the operator menu). BUTTON is a role: ``row0``..., ``done``,
``new``, or ``key R I`` on a grid board. Blank lines and ``#`` comments are
ignored. Every line is checked before anything runs (``check``), then the
script is read again as it plays (``actions``): a script of millions of
lines runs in the memory of one line. A wait or hold lasts at most 24 h of
virtual time (``MAX_MS``); lines are text of at most ``MAX_LINE`` bytes.
"""

MAX_MS = 24 * 3600 * 1000  # one line's wait or hold: a day of virtual time
MAX_LINE = 1000  # bytes in one line


class ScriptError(ValueError):
    """A line of a script that cannot run: ``script line N: ...``."""


ACTIONS = ("press", "hold", "wait", "bounce", "down", "up", "chord")


def _ms(text, n):
    if not (text.isdigit() and text.isascii()) and not (text[:1] == "-" and text[1:].isdigit()):
        raise ScriptError("script line %d: bad number %r (milliseconds, a whole number)" % (n, text[:20]))
    if text[:1] == "-":
        raise ScriptError("script line %d: bad number %r (milliseconds cannot be negative)" % (n, text[:20]))
    if len(text) > 9 or int(text) > MAX_MS:
        raise ScriptError(
            "script line %d: %s ms is too long (at most %d, 24 hours, per line)"
            % (n, text if len(text) <= 20 else "a %d-digit number of" % len(text), MAX_MS)
        )
    return int(text)


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


def _chord(words, n, roles):
    """Button names in a row: ``done new``, ``row0 key 1 2``..."""
    out = []
    while words:
        size = 3 if words[0].lower() == "key" else 1
        out.append(_role(words[:size], n, roles))
        words = words[size:]
    if len(out) < 2:
        raise ScriptError("script line %d: chord needs two or more buttons and milliseconds (chord done new 5000)" % n)
    return out


def parse(lines, roles=None):
    """[(line number, action, args)] or ScriptError for the first bad line.

    ``roles`` (the board's buttons) checks button names too.
    """
    return list(actions(lines, roles))


def actions(lines, roles=None):
    """(line number, action, args) for each action, one line at a time."""
    for n, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            line = _text(line, n)
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        action, rest = words[0].lower(), words[1:]
        if action == "press":
            yield (n, "press", (_role(rest, n, roles),))
        elif action == "hold":
            if len(rest) < 2:
                raise ScriptError("script line %d: hold needs a button and milliseconds (hold done 500)" % n)
            yield (n, "hold", (_role(rest[:-1], n, roles), _ms(rest[-1], n)))
        elif action in ("down", "up"):
            yield (n, action, (_role(rest, n, roles),))
        elif action == "chord":
            yield (n, "chord", (_chord(rest[:-1], n, roles), _ms(rest[-1] if rest else "", n)))
        elif action == "wait":
            if len(rest) != 1:
                raise ScriptError("script line %d: wait needs milliseconds (wait 1000)" % n)
            if rest[0].lower() == "host":
                yield (n, "host", ())
            else:
                yield (n, "wait", (_ms(rest[0], n),))
        elif action == "bounce":
            if len(rest) != 1 or rest[0].lower() not in ("on", "off"):
                raise ScriptError("script line %d: bounce on, or bounce off" % n)
            yield (n, "bounce", (rest[0].lower() == "on",))
        else:
            raise ScriptError(
                "script line %d: unknown action %r (choose from %s)" % (n, words[0][:20], ", ".join(ACTIONS))
            )


def _text(line, n):
    if b"\0" in line:
        raise ScriptError("script line %d: not text (is this a script? a binary file cannot run)" % n)
    if len(line) > MAX_LINE:
        raise ScriptError("script line %d: longer than %d bytes (is this a script?)" % (n, MAX_LINE))
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError("script line %d: not text (is this a script? a binary file cannot run)" % n) from None


def lines(f):
    """The lines of a binary file without line ends; an overlong one is cut to ``MAX_LINE`` + 1 bytes."""
    while True:
        line = f.readline(MAX_LINE + 2)
        if not line:
            return
        if not line.endswith(b"\n") and len(line) > MAX_LINE:
            rest = line
            while rest and not rest.endswith(b"\n"):  # skip the rest, a block at a time
                rest = f.readline(1 << 16)
            line = line[: MAX_LINE + 1]
        yield line.rstrip(b"\r\n")


class Script:
    """A script file, checked whole, then read again as it plays (memory: one line).

    ``-`` reads stdin, spooled to a temporary file so it too can be read twice.
    """

    def __init__(self, path):
        import shutil
        import sys
        import tempfile

        if path == "-":
            self.file = tempfile.TemporaryFile()  # noqa: SIM115 - read a line at a time, closed by close()
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:  # a stand-in holding text
                self.file.write(sys.stdin.read().encode())
            else:
                shutil.copyfileobj(stdin, self.file)
        else:
            self.file = open(path, "rb")  # noqa: SIM115 - the same

    def check(self, roles=None):
        """ScriptError for the first bad line; nothing is kept."""
        self.file.seek(0)
        for _ in actions(lines(self.file), roles):
            pass

    def actions(self, roles=None):
        self.file.seek(0)
        return actions(lines(self.file), roles)

    def close(self):
        self.file.close()


def run(sim, actions):
    """Play parsed actions on a Simulator."""
    for _, action, args in actions:
        if action == "down" and not sim.powered:
            sim.hold_at_power_up(args[0])  # before the first tick: closed at power-up
        elif action == "down":
            sim.press(args[0])
        elif action == "up":
            sim.release(args[0])
        elif action == "chord":
            sim.chord(args[0], args[1])
        elif action == "press":
            sim.tap(args[0])
        elif action == "hold":
            sim.tap(args[0], hold_ms=args[1])
        elif action == "wait":
            sim.advance(args[0])
        elif action == "bounce":
            sim.bounce = args[0]
        # "host": no host link without --serial, nothing to wait for
