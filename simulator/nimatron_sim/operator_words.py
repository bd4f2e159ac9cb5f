# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu in the visitor's language: its screens and its log lines.

Every word comes from the language files (keys ``op.*``); a button is named
as its face shows it ("Row A", "DONE"), a setting and a counter by their
words ("Difficulty", "games won by the visitor"), a rule set by what it
does: an operator in Madrid reads no ``walkaway_ms`` and no ``row0``.

    words = Words("es")
    screen(controller, roles, words)   # 'MENÚ DEL OPERADOR: 1 prueba de lámparas ...'
    log_line(event, words)             # 'Menú del operador abierto (HECHO + NUEVA 5 s).'
"""

from nimatron.games import explain
from nimatron.machine.service import AUDITS, ITEMS

from .words import rules_words


def button(role, words):
    """A button as the face names it: "row0" -> "Row A", "done" -> "DONE"."""
    t = words.t
    if role.startswith("row") and role[3:].isdigit():
        return t("row", row=explain.label(int(role[3:])))
    if role.startswith("key "):
        r, i = role.split()[1:]
        return t("op.button.key", row=explain.label(int(r)), i=int(i) + 1)
    if role in ("done", "new"):
        return t(role)
    return t("button." + role)


def setting(key, words):
    return words.t("op.setting." + key)


def value(key, v, words):
    """A setting's value in words: a rule set by what it does, a choice by its name, seconds for times."""
    t = words.t
    if key == "rules":
        return rules_words(v, words)
    if key == "preset":
        return words.preset(v)
    if key in ("difficulty", "first"):
        return t("%s.%s" % (key, v))
    if key == "misere" or isinstance(v, bool):
        return t("op.yes" if v else "op.no")
    if key.endswith("_ms"):
        return t("op.seconds", s=("%g" % (v / 1000)))
    return str(v)


def item(name, words):
    return words.t("op.item." + name, n=ITEMS.index(name) + 1)


def counter(name, words):
    return words.t("op.audit." + name)


def _step(roles, words):
    if "row0" in roles:
        return words.t("op.step.rows" if "row1" in roles else "op.step.row")
    return words.t("op.step.grid")


def screen(controller, roles, words):
    """What the operator menu's screen shows, and which keys do what."""
    t = words.t
    menu = controller.menu
    shown = menu.screen
    step = _step(roles, words)
    if shown == "menu":
        return t("op.menu", item=item(ITEMS[menu.item], words), step=step)
    if shown == "lamp_test":
        return t("op.lamp_test.one" if menu.one_by_one else "op.lamp_test.every")
    if shown == "button_test":
        return t("op.button_test", last=button(menu.last, words) if menu.last else t("op.nothing_yet"))
    if shown == "audits":
        key = AUDITS[menu.index]
        return t("op.audits", counter=counter(key, words), n=controller.audits.get(key, 0), step=step)
    if shown == "adjust":
        key = menu.adjustable()[menu.index]
        return t("op.adjust", setting=setting(key, words), value=value(key, controller.settings[key], words), step=step)
    if shown == "adjust_value":
        return t(
            "op.adjust_value",
            setting=setting(menu.key, words),
            value=value(menu.key, menu.choices[menu.index], words),
            step=step,
        )
    if shown == "check_switch":
        switches = controller.switches
        return t(
            "op.check_switch",
            idle=_buttons(switches.check_switch(), words, "op.nothing"),
            stuck=_buttons(switches.stuck_now(), words, "op.nothing"),
        )
    if shown == "burn_in":
        return t("op.burn_in", n=menu.cycles + 1)
    if shown == "confirm":
        return t(
            "op.confirm." + menu.action,
            answer=t("op.yes" if menu.yes else "op.no").upper(),
            step=t("op.toggle.rows" if "row0" in roles else "op.toggle.grid"),
        )
    return t("op.title")


def _buttons(roles, words, none):
    return ", ".join(button(r, words) for r in roles) or words.t(none)


def _service(e, words):
    t = words.t
    if e.get("open") is True:
        return t("op.log.opened", by=t("op.by." + e["by"]))
    if e.get("open") is False:
        return t("op.log.closed", by=t("op.by." + e["by"]))
    if "item" in e:
        return t("op.log.item", item=item(e["item"], words))
    if "counter" in e:
        return t("op.log.audit", counter=counter(e["counter"], words), n=e["value"])
    if "key" in e:
        return t("op.log.adjust", setting=setting(e["key"], words), value=value(e["key"], e["value"], words))
    if "answer" in e:
        return t("op.log.answer", item=item(e["screen"], words), answer=t("op." + e["answer"]).upper())
    return t("op.log.screen", item=item(e["screen"], words) if e.get("screen") in ITEMS else t("op.title"))


def _adjusted(e, words):
    t = words.t
    if "error" in e:
        return t("op.log.not_changed", error=words.phrase(e["error"]))
    if e["saved"]:
        kept = t("op.log.saved")
    elif e.get("saving_in_ms"):
        kept = t("op.log.saved_in", s=-(-e["saving_in_ms"] // 1000))
    else:
        kept = t("op.log.until_restart")
    return t(
        "op.log.adjusted.next" if e["applies"] == "next game" else "op.log.adjusted",
        setting=setting(e["key"], words),
        value=value(e["key"], e["value"], words),
        kept=kept,
    )


def _stuck(e, words):
    if e.get("released"):
        return words.t("op.log.released", button=button(e["button"], words))
    return words.t("op.log.stuck", button=button(e["button"], words), why=words.t("op.why." + e["why"]))


def _check_switch(e, words):
    if "button" in e:
        return words.t("op.log.unpressed", button=button(e["button"], words), games=e["games"])
    return words.t(
        "op.log.check_switch",
        idle=_buttons(e["buttons"], words, "op.none"),
        stuck=_buttons(e["stuck"], words, "op.none"),
    )


# event kind -> its log line
LINES = {
    "service": _service,
    "stuck": _stuck,
    "check_switch": _check_switch,
    "switch": lambda e, words: words.t(
        "op.log.switch." + ("down" if e["pressed"] else "up"), button=button(e["button"], words)
    ),
    "adjusted": _adjusted,
    "burn_in": lambda e, words: words.t("op.log.burn_in", n=e["cycles"]),
    "audits_cleared": lambda e, words: words.t("op.log.audits_cleared"),
    "factory_reset": lambda e, words: words.t(
        "op.log.factory_reset" if e["applied"] else "op.log.factory_reset.later", preset=words.preset(e["preset"])
    ),
}


def log_line(event, words):
    """The operator event's line for the log, or None for an event that is not the menu's."""
    line = LINES.get(event.get("event"))
    return line(event, words) if line else None
