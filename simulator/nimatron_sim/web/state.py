# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A machine's face as JSON for the pages: lamps, status lamps, buttons, words.

Everything here is read off the running firmware (``Face.lamps()`` reads the
pins and the NeoPixel bytes); nothing decides a move. The words are keys
with parameters (``["say.rows_more", {"n": 2, "row": "D"}]``), worded by the
page in the visitor's language; sentences that come from the firmware itself
(a refusal's reason, a move described by ``nimatron.games.explain``) are sent in
English and translated by the page's phrase table.
"""

from nimatron.games import explain
from nimatron.machine.controller import ATTRACT, OVER, SERVICE, SHOWING, THINKING, VISITOR

from ..face import STATUS_ROLES


def snapshot(machine):
    face = machine.face
    controller = face.controller
    spec = face.sim.spec
    settings = controller.settings
    lamps = face.lamps()
    panel = controller.panel
    keys = any(role.startswith("key ") for role in face.roles)
    return {
        "machine": machine.id,
        "watch": getattr(machine, "watch", machine.id),  # the read-only handle (/crowd?watch=)
        "t": face.now,
        "board": face.board,
        "about": spec.get("about", ""),
        "input": face.input_model,
        "shape": spec["lamps"].get("shape") or "rows",
        "layout": list(face.layout),
        "keys": keys,
        "buttons": machine.buttons(),
        "cursor": _cursor(face),
        "state": controller.state,
        "winner": controller.winner,
        "lamps": [[[lamp.kind, 1 if lamp.on else 0, lamp.colour] for lamp in row] for row in lamps],
        "counts": [sum(row) for row in panel.lit] if panel is not None else None,
        "status": face.status(),
        "status_order": list(STATUS_ROLES),
        "settings": {
            "preset": settings["preset"],
            "rules": controller.rules.spec,
            "about": rules_about(controller.rules),
            "last_move": controller.rules.last_move,
            "misere": bool(controller.misere),
            "difficulty": settings["difficulty"],
            "first": settings["first"],
            "explain": bool(settings["explain"]),
        },
        "say": say(machine),
        "events": machine.events,
        "audits": face.audits(),
    }


def rules_about(rules):
    """The rule set in words, its k filled in: "take 1 to 3 from one heap"."""
    about = rules.about or rules.spec
    if rules.k is not None:
        about = about.replace(" k ", " %d " % rules.k)
    return about


def _cursor(face):
    """A cursor board's cursor (the lamp B would select), held steady: the
    page never adds a blink of its own."""
    presses = getattr(face.controller.io, "presses", None)
    cursor = getattr(presses, "cursor", None)  # drivers.cursor.Cursor, only where the pin map has one
    if cursor is None or not cursor.active or cursor.at is None:
        return None
    return list(cursor.at)


def say(machine):
    """What is happening and what to do, as [key, params] for the page."""
    face = machine.face
    controller = face.controller
    state = controller.state
    now = face.now
    if state == SERVICE:
        return ["say.service", {}]
    if state == VISITOR and controller.asking is not None:
        left = (controller.settings["walkaway_ms"] - (now - controller.last_input) + 999) // 1000
        return ["say.still", {"s": max(0, left)}]
    if machine.note is not None:
        if now < machine.note[0] and state == VISITOR:
            return ["say.refused", {"reason": machine.note[1]}]
        machine.note = None
    if state == ATTRACT:
        return ["say.attract", {}]
    if state == VISITOR:
        hint = bool(controller.hint)
        if controller._building():  # Building Nim's first half: a press places a stone, no DONE
            heaps = controller.position()[0]
            return [
                "say.building",
                {"n": heaps[-1], "row": explain.label(len(heaps) - 1), "last": explain.label(len(heaps) - 2)},
            ]
        if controller.input_model == "rows":
            if controller.taken:
                return ["say.rows_more", {"n": len(controller.taken), "row": explain.label(controller.turn_row)}]
            return ["say.rows", {"hint": hint}]
        if controller.selected:
            return [
                "say.selected" if controller.rules.removes else "say.selected.split",
                {"n": len(controller.selected)},
            ]
        if face.sim.spec.get("cursor"):
            return ["say.cursor", {"hint": hint}]
        return ["say.grid", {"hint": hint}]
    if state == THINKING:
        return ["say.thinking", {}]
    if state == SHOWING:
        heaps, ring = controller.position()
        return [
            "say.showing",
            {
                "move": explain.describe_move(
                    heaps,
                    controller.machine_after,
                    controller.rules.ordered,
                    ring,
                    getattr(controller.panel, "unlettered", None),
                )
            },
        ]
    if state == OVER:
        if controller.winner == "visitor":
            return ["say.win", {}]
        if controller.winner == "machine":
            return ["say.loss", {}]
        return ["say.abandoned", {}]
    return ["say.attract", {}]
