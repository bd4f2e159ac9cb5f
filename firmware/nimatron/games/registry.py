# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The registry of rule sets read for the menus: every name, module, class
and the K its menus offer, from the registry's ``lines`` (``rules.REGISTRY``,
passed in: a test or a tool may pass it extended). Apart from ``rules`` so
that a board playing a game keeps only ``rules_class`` resident; the
operator menu imports this while it builds its list, the host tools
whenever, and ``rules_class`` to refuse a name it does not know.

    >>> from nimatron.games.rules import REGISTRY
    >>> usage(REGISTRY)[:22]
    'nim, subtract:K, moore'
"""


def entries(lines):
    """The registry read: (name, module, class name, [K the menus offer]) per line."""
    out = []
    for line in lines:
        words = line.split()
        out.append((words[0], words[1], words[2], [int(k) for k in words[3:]]))
    return out


def usage(lines):
    """The names as a person types them: "nim, subtract:K, ..." (nothing imported)."""
    return ", ".join([name + (":K" if ks else "") for name, _, _, ks in entries(lines)])


def menu_specs(lines):
    """What every menu offers, before a board keeps what it can play:
    "nim", "subtract:2", "subtract:3", ... in registry order (nothing imported)."""
    out = []
    for name, _, _, ks in entries(lines):
        if ks:
            for k in ks:
                out.append("%s:%d" % (name, k))
        else:
            out.append(name)
    return out
