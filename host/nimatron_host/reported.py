# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a Nimatron reported about itself, for ``audits`` and ``monitor``.

Every audit counter the firmware keeps (``nimatron.machine.audits.KEYS``,
never a list kept here), lifetime and since service, with 0 for the ones
the machine leaves out because they are 0; counters this tool does not
know (a newer firmware) too. And what ``HELLO`` says about the last start
(``why``, ``restored``, ``settings_from``) and about saving (``saving``,
``problems``), first, as warnings a museum technician can act on:

    *** This machine reported: nvm: 1 damaged record skipped
    *** Since its last service it counted: data_losses 1

    counters = counted(audits)            # [(key, lifetime, since service)]
    for line in warnings(hello, counters): print(line)
    for line in table(counters): print(line)
"""

import json

from nimatron.machine.audits import KEYS, RESETS

SENT_AS = {"games": "started"}  # AUDITS names the since-service game count "started"
NOT_COUNTERS = ("uptime_s", "events_dropped", "first_game", "last_game")  # counts, but not audits
GAMES = KEYS[:5]  # the five every firmware sends (and the presets')
RESET_KEYS = ("power_ups",) + tuple(RESETS[r] for r in sorted(RESETS))
IDENTITY = (
    "name",
    "version",
    "protocol",
    "board",
    "preset",
    "input",
    "pinmap",
    "pinmap_crc",
    "restored",
    "settings_from",
)
WARN = ("why", "saving", "problems")  # HELLO keys that say something went wrong
CSV_HELLO = ("restored", "settings_from") + WARN
RESTORED = {"stored": "it found what it had stored", "factory": "it found nothing stored and began afresh"}
SETTINGS_FROM = {
    "stored": "the changes saved with SET",
    "file": "its settings file",
    "last good": "the last settings that worked",
    "defaults": "the board's defaults",
}
MEANS = {  # words for a warning; a counter not here is named by its key alone
    "stuck_buttons": "a button held down too long",
    "faults": "a program fault, recovered",
    "engine_faults": "a move search that failed",
    "pin_lockouts": "wrong PINs, link paused",
    "factory_restores": "started with nothing stored",
    "settings_fallbacks": "its settings file not used",
    "start_failures": "a start that failed",
    "data_losses": "stored counts or settings lost",
}


def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def counted(audits):
    """[(key, lifetime, since service)] for every key in ``KEYS`` (in order),
    then every other counter the reply holds (sorted). A counter the reply
    leaves out is 0; lifetime is None if the reply has no ``lifetime`` at all
    (a firmware from before it kept one)."""
    audits = audits if isinstance(audits, dict) else {}
    lifetime = audits.get("lifetime")
    has_lifetime = isinstance(lifetime, dict)
    lifetime = lifetime if has_lifetime else {}

    def service(key):
        value = audits.get(key, audits.get(SENT_AS.get(key)))
        return value if _is_count(value) else 0

    def life(key):
        if not has_lifetime:
            return None
        value = lifetime.get(key, lifetime.get(SENT_AS.get(key)))
        return value if _is_count(value) else 0

    known = set(KEYS) | set(SENT_AS.values())
    extra = {k for k, v in lifetime.items() if k not in known and _is_count(v)}
    extra |= {k for k, v in audits.items() if k not in known and k not in NOT_COUNTERS and _is_count(v)}
    return [(key, life(key), service(key)) for key in KEYS + tuple(sorted(extra, key=str))]


GROUPS = ("games", "starts and resets", "faults and losses", "counters this tool does not know (a newer firmware)")


def group(key):
    """Where a counter goes in the table (one of ``GROUPS``)."""
    if key in GAMES:
        return GROUPS[0]
    if key in RESET_KEYS:
        return GROUPS[1]
    if key in KEYS:
        return GROUPS[2]
    return GROUPS[3]


def text(value):
    """A value the machine sent, in one printable line: text as it is, a
    list of texts joined with "; ", anything else as JSON."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "; ".join(value)
    if not isinstance(value, str):
        try:
            value = json.dumps(value, sort_keys=True)
        except (TypeError, ValueError, RecursionError):
            value = repr(value)
    return "".join(c if c.isprintable() else "?" for c in value)  # no line breaks, no terminal escapes


def others(hello):
    """HELLO's keys that this tool has no words for (a newer firmware's), sorted."""
    if not isinstance(hello, dict):
        return []
    return sorted((k for k in hello if k not in IDENTITY and k not in WARN), key=str)


def warnings(hello, counters):
    """The lines to print first: what went wrong, in the machine's words;
    none when nothing did."""
    hello = hello if isinstance(hello, dict) else {}
    out = []
    if hello.get("why"):
        out.append("This machine reported: %s" % text(hello["why"]))
    if hello.get("saving"):
        out.append(
            "Saving is failing now: %s (what it counts may be lost when it is switched off)" % text(hello["saving"])
        )
    if hello.get("problems"):
        out.append("Problems it reports: %s" % text(hello["problems"]))
    bad = [
        "%s %s%s" % (text(key), service, " (%s)" % MEANS[key] if key in MEANS else "")
        for key, _, service in counters
        if group(key) == GROUPS[2] and service
    ]
    if bad:
        out.append("Since its last service it counted: %s" % ", ".join(bad))
    return ["*** " + line for line in out]


def about(hello):
    """What the machine started with, and anything else HELLO says that this tool does not know."""
    hello = hello if isinstance(hello, dict) else {}
    out = []
    if "restored" in hello:
        r = text(hello["restored"])
        out.append("At its last start %s (restored: %s)." % (RESTORED.get(r, "it was restored from " + r), r))
    if "settings_from" in hello:
        s = text(hello["settings_from"])
        out.append("Its settings come from %s (settings_from: %s)." % (SETTINGS_FROM.get(s, s), s))
    if others(hello):
        out.append("It also says: " + ", ".join("%s: %s" % (text(k), text(hello[k])) for k in others(hello)))
    return out


def _cell(value):
    return "-" if value is None else str(value)


def table(counters):
    """Every counter, grouped, lifetime and since service."""
    width = max([len(text(key)) for key, _, _ in counters] + [20]) + 2
    lw = max([len(_cell(life)) for _, life, _ in counters] + [len("lifetime")])
    sw = max([len(_cell(service)) for _, _, service in counters] + [len("since service")])
    out = ["%-*s %*s  %*s" % (width, "counter", lw, "lifetime", sw, "since service")]
    for name in GROUPS:
        rows = [c for c in counters if group(c[0]) == name]
        if rows:
            out.append(name)
        for key, life, service in rows:
            out.append("  %-*s %*s  %*s" % (width - 2, text(key), lw, _cell(life), sw, _cell(service)))
    return out


def csv_header(counters, hello):
    """The counter and HELLO columns: ``lifetime_X`` and ``service_X`` for
    every counter, then what HELLO said (stable columns first, others after)."""
    keys = [key for key, _, _ in counters]
    return ["lifetime_" + k for k in keys] + ["service_" + k for k in keys] + list(CSV_HELLO) + others(hello)


def csv_values(counters, hello):
    """One row for ``csv_header``: counts (0, never blank, unless the machine
    keeps no lifetime counts), HELLO's words (blank when not said)."""
    hello = hello if isinstance(hello, dict) else {}
    lives = ["" if life is None else life for _, life, _ in counters]
    services = [service for _, _, service in counters]
    return lives + services + [text(hello[k]) if k in hello else "" for k in list(CSV_HELLO) + others(hello)]
