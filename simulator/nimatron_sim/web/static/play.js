/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* The play page: this tab's own machine, drawn from its state, pressed by
   mouse, touch or keyboard. The page decides nothing: every press goes to
   the firmware on the server, every lamp is read back from its pins. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 120;
  let config = null;
  let machine = sessionStorage.getItem("nimatron-machine");
  let state = null;
  let built = "";          // the layout the lamps were built for
  let lamps = null;        // Nim.buildLamps: the lamp elements
  let lastEvent = null;    // the newest event announced
  let nimrodShown = "";
  let countsFitted = "";   // the counts' lengths the lamps were last fitted to
  let busy = Promise.resolve();

  const BOARD_KEYS = {a: "a", b: "b", w: "slide", "[": "ccw", "]": "cw"};

  // -- pressing ---------------------------------------------------------------
  function press(what) {
    // one press at a time, in order, as a hand would
    busy = busy.then(async () => {
      try {
        show(await Nim.post("/api/machines/" + machine + "/press", {press: what}));
      } catch (e) {
        if (e.status === 404) { machine = null; await renew(); }
        else lost(e);
      }
    });
    return busy;
  }

  async function newMachine(settings) {
    // new settings: this tab's old machine is closed at once, its slot free for another tab
    const body = Object.assign({}, settings || {}, settings && machine ? {replaces: machine} : {});
    const s = await Nim.post("/api/machines", body);
    machine = s.machine;
    sessionStorage.setItem("nimatron-machine", machine);
    lastEvent = null;
    show(s);
    return s;
  }

  // a machine refused (this computer already runs its share: 429, or the server is full: 503):
  // the page says the server refused and why, and asks again only when the visitor says so;
  // no answer at all is asked again after a few seconds, not on every poll
  let retryAt = 0;
  let asking = false;
  let refused = false;
  async function renew() {
    if (asking || refused || Date.now() < retryAt) return;
    asking = true;
    try {
      await newMachine();
    } catch (e) {
      machine = null;
      sessionStorage.removeItem("nimatron-machine");
      if (e.status) refuse(e);
      else { retryAt = Date.now() + 5000; lost(e); }
    } finally {
      asking = false;
    }
  }

  function refuse(e) {
    refused = true;
    const note = $("lost");
    note.textContent = refusal(e) + " ";
    const again = document.createElement("button");
    again.type = "button";
    again.id = "retry";
    again.textContent = Nim.t("retry");
    again.addEventListener("click", () => { refused = false; note.hidden = true; renew(); });
    note.appendChild(again);
    note.hidden = false;
  }

  function refusal(e) {
    // who refused and why, in the page's language: a machine too many for this computer or the server
    return e.status === 429 || e.status === 503 ? Nim.t("refused." + e.status) : Nim.t("refused", {error: e.message});
  }

  function goodbye() {
    // the tab closes (or reloads): its place is given back at once; a reload takes the machine up again
    if (machine) {
      fetch("/api/machines/" + machine + "/leave", {method: "POST", keepalive: true,
        headers: {"Content-Type": "application/json"}, body: "{}"}).catch(() => {});
    }
  }

  // -- drawing ----------------------------------------------------------------
  function buttonLabel(role) {
    if (role === "done") return Nim.t("done");
    if (role === "new") return Nim.t("new");
    return Nim.t("button." + role);
  }

  /** Shrink the lamps until every lamp, TAKE, DONE and NEW GAME is on the
      screen: the CSS sizes them from the screen's height, this measures
      what the words (longer in some languages) really left. */
  function fit() {
    const box = $("lamps");
    box.style.removeProperty("--lamp-max");
    box.style.removeProperty("--side-max");
    box.style.removeProperty("--reserve");
    // beside the lamps: the label, the count ("encendidas: 7") and TAKE, as wide as their words
    const beside = Math.max(0, ...[...box.querySelectorAll(".lamp-row")].map((row) => {
      const parts = [...row.children].filter((c) => !c.classList.contains("strip"));
      const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
      return parts.reduce((w, c) => w + c.getBoundingClientRect().width, 0) + gap * parts.length + 2;
    }));
    if (beside) box.style.setProperty("--reserve", beside + "px");
    for (let round = 0; round < 3; round++) {
      const parts = [...document.querySelectorAll("#lamps .lamp-cell, #lamps .take, #controls button")];
      if (!parts.length) return;
      const top = Math.min(...parts.map((e) => e.getBoundingClientRect().top)) + window.scrollY;
      const bottom = Math.max(...parts.map((e) => e.getBoundingClientRect().bottom)) + window.scrollY;
      const over = bottom + 8 - window.innerHeight;
      if (over <= 0 || bottom - top > window.innerHeight) return;  // fits (or never can: a phone scrolls)
      const ring = box.querySelector(".ring");
      if (ring) {
        box.style.setProperty("--side-max", Math.max(120, ring.getBoundingClientRect().width - over) + "px");
      } else {
        const lamp = box.querySelector(".lamp-cell").getBoundingClientRect().height;
        const rows = box.querySelectorAll(".lamp-row").length || 1;
        box.style.setProperty("--lamp-max", Math.max(16, lamp - over / rows / 1.12) + "px");
      }
    }
  }

  function build(s) {
    lamps = Nim.buildLamps($("lamps"), s, {take: true});
    const controls = $("controls");
    controls.textContent = "";
    for (const role of s.buttons) {
      if (role.startsWith("row")) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.press = role;
      b.id = "press-" + role.replace("+", "-");
      b.className = "control control-" + role.replace("+", "-");
      b.textContent = buttonLabel(role);
      controls.appendChild(b);
    }
    Nim.drawLegend($("legend"), s);
  }

  function drawEvents(s) {
    const events = s.events;
    const newest = events.length ? events[events.length - 1].n : 0;
    if (newest === lastEvent) return;
    const fresh = lastEvent === null ? [] : events.filter((e) => e.n > lastEvent);
    lastEvent = newest;
    const log = $("log");
    log.textContent = "";
    for (const e of events.slice(-12)) {
      const li = document.createElement("li");
      li.value = e.n;   // the event's own number: no renumbering as old moves leave the list
      li.className = "event-" + e.kind + (e.by ? " by-" + e.by : "");
      li.textContent = Nim.eventWords(e);
      log.appendChild(li);
    }
    if (fresh.length) {
      // the screen reader hears each new move and result once
      $("live").textContent = fresh.map(Nim.eventWords).join(" ");
    }
  }

  function show(s) {
    // A poll sent before a press can be answered after it: never step back to
    // an older state of the same machine (its clock, t, only goes forward).
    if (state && s.machine === state.machine && s.t < state.t) return;
    state = s;
    $("lost").hidden = true;
    const key = [s.machine, s.board, s.shape, s.layout.join(","), s.keys, s.buttons.join(","), document.documentElement.lang].join("|");
    const fresh = key !== built;
    if (fresh) {
      build(s);
      built = key;
      if (s.settings.explain && !$("think").dataset.touched) $("think").open = true;
      fillSettings(s);
    }
    $("board-line").textContent = Nim.t("board", {board: Nim.t("board." + s.board), about: Nim.phrase(s.about)});
    Nim.drawStatus($("status"), s);
    Nim.drawLamps(lamps, s);
    // the counts' words take room beside the lamps: measure again when they change length
    const counted = lamps.counts.map((node) => node.textContent.length).join(",");
    if (fresh || counted !== countsFitted) fit();
    countsFitted = counted;
    $("rules-line").textContent = Nim.t("rules.line", {about: Nim.phrase(s.settings.about),
      last: Nim.phrase(s.settings.last_move || "takes the last lamp"),
      goal: Nim.t(s.settings.misere ? "goal.loses" : "goal.wins")}) + " " + Nim.t("settings.line", {
      difficulty: Nim.t("difficulty." + s.settings.difficulty), first: Nim.t("first." + s.settings.first),
      preset: Nim.t("preset." + s.settings.preset)});
    $("say").textContent = Nim.say(s);
    document.body.dataset.state = s.state;
    drawEvents(s);
    $("audits").textContent = Nim.t("audits", s.audits);
    if ($("think").open) {
      const panel = JSON.stringify(s.nimrod);
      if (panel !== nimrodShown) {
        nimrodShown = panel;
        Nim.drawNimrod($("nimrod"), s.nimrod);
      }
    }
    $("crowd-link").href = "/crowd?watch=" + s.watch + "&lang=" + document.documentElement.lang;
    document.querySelector("details.settings").hidden = !!s.follow;   // a real machine: watched, not set
  }

  function lost(e) {
    // the server answered (a refusal or a fault of its own) or did not answer at all
    const note = $("lost");
    note.textContent = e && e.status ? refusal(e)
      : Nim.t("lost") + (e && e.message ? " (" + e.message + ")" : "");
    note.hidden = false;
  }

  // -- settings ------------------------------------------------------------------
  function fillSettings(s) {
    const form = $("settings");
    form.textContent = "";
    // each setting's label by its own key: "misere" is worded "Goal" (settings.misere is the "on" choice)
    const LABELS = {misere: "settings.goal"};
    const field = (key, options, value) => {
      const label = document.createElement("label");
      label.textContent = Nim.t(LABELS[key] || "settings." + key) + " ";
      const select = document.createElement("select");
      select.name = key;
      for (const [text, v] of options) {
        const o = document.createElement("option");
        o.value = v;
        o.textContent = text;
        select.appendChild(o);
      }
      select.value = value;
      label.appendChild(select);
      form.appendChild(label);
    };
    const keep = [Nim.t("settings.keep"), ""];
    // boards and presets by their names in words, never their ids; the first preset says which is the board's own
    field("board", config.boards.map((b) => [Nim.t("board." + b.name), b.name]), s.board);
    const own = (board) => [Nim.t("settings.own", {preset: Nim.t("preset." + (config.boards.find((b) => b.name === board) || {}).preset)}), ""];
    field("preset", [own(s.board)].concat(config.presets.map((p) => [Nim.t("preset." + p.name), p.name])), "");
    // the rule sets the chosen board plays (the server derives them from the one registry), in words
    const rulesFor = (board) => [keep].concat((config.rules[board] || []).map((r) => [Nim.phrase(config.rules_about[r] || r), r]));
    field("rules", rulesFor(s.board), "");
    form.elements.board.addEventListener("change", () => {
      const select = form.elements.rules;
      select.textContent = "";
      for (const [text, v] of rulesFor(form.elements.board.value)) select.add(new Option(text, v));
      form.elements.preset.options[0].textContent = own(form.elements.board.value)[0];   // another board's own preset
    });
    field("misere", [keep, [Nim.t("settings.normal"), "off"], [Nim.t("settings.misere"), "on"]], "");
    // each difficulty said what it does, where it is chosen
    field("difficulty", [keep].concat(config.difficulties.map((d) => [Nim.t("difficulty.choice",
      {name: Nim.t("difficulty." + d), about: Nim.t("difficulty.about." + d)}), d])), "");
    field("first", [keep].concat(config.first.map((f) => [Nim.t("first." + f), f])), "");
    const apply = document.createElement("button");
    apply.type = "submit";
    apply.textContent = Nim.t("settings.apply");
    form.appendChild(apply);
  }

  async function applySettings(event) {
    event.preventDefault();
    const data = new FormData($("settings"));
    const body = {};
    for (const [k, v] of data.entries()) {
      if (k === "misere") { if (v) body.misere = v === "on"; }
      else if (v) body[k] = v;
    }
    // in line with the presses: none goes to the old machine once it is closed
    busy = busy.then(async () => {
      try {
        await newMachine(body);
        $("settings-error").textContent = "";
      } catch (e) {
        // refused settings come in the visitor's words ("This board has 28 lamps; ..."), not the firmware's
        const said = e.said && e.said[document.documentElement.lang];
        $("settings-error").textContent = said || Nim.t("settings.refused", {error: e.message});
      }
    });
    return busy;
  }

  // -- keys -----------------------------------------------------------------------
  function lampAt(r, i) { return lamps.nodes[r] && lamps.nodes[r][i]; }

  function moveFocus(node, key) {
    const r = +node.dataset.r;
    const i = +node.dataset.i;
    const rows = state.layout.length;
    let next = null;
    if (state.shape === "ring") {
      const n = state.layout[0];
      if (key === "ArrowRight" || key === "ArrowDown") next = lampAt(0, (i + 1) % n);
      if (key === "ArrowLeft" || key === "ArrowUp") next = lampAt(0, (i + n - 1) % n);
    } else if (key === "ArrowRight") next = lampAt(r, Math.min(i + 1, state.layout[r] - 1));
    else if (key === "ArrowLeft") next = lampAt(r, Math.max(i - 1, 0));
    else if (key === "ArrowDown") { const rr = (r + 1) % rows; next = lampAt(rr, Math.min(i, state.layout[rr] - 1)); }
    else if (key === "ArrowUp") { const rr = (r + rows - 1) % rows; next = lampAt(rr, Math.min(i, state.layout[rr] - 1)); }
    if (next) next.focus();
    return !!next;
  }

  function onKey(event) {
    if (!state || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const tag = target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA" || target.closest("summary")) return;
    const key = event.key;
    if (key.startsWith("Arrow") && target.classList.contains("lamp-cell") && target.dataset.r !== undefined) {
      if (moveFocus(target, key)) event.preventDefault();
      return;
    }
    const onLamp = target.classList.contains("lamp-cell");
    // a focused button answers Enter itself; on a lamp, as on the machine's keys, Space selects and Enter is DONE
    if (key === "Enter" && tag === "BUTTON" && !onLamp) return;
    let what = null;
    if (/^[1-9]$/.test(key) && state.buttons.includes("row" + (+key - 1))) what = "row" + (+key - 1);
    else if (key === "Enter" && state.buttons.includes("done")) what = "done";
    else if ((key === "n" || key === "N") && state.buttons.includes("new")) what = "new";
    else if (key === "t" || key === "T") { $("think").open = !$("think").open; $("think").dataset.touched = "1"; }
    else if (key.toLowerCase() in BOARD_KEYS && state.buttons.includes(BOARD_KEYS[key.toLowerCase()])) what = BOARD_KEYS[key.toLowerCase()];
    if (what) {
      event.preventDefault();
      press(what);
    }
  }

  // -- start ------------------------------------------------------------------------
  async function start() {
    config = await (await fetch("/api/config")).json();
    const lang = await Nim.loadLang(Nim.chosenLang(config.lang), config.langs);
    await Nim.languageSelect($("lang"), config, lang, () => {
      built = "";
      nimrodShown = "";
      lastEvent = null;   // the log is worded again, not announced again
      Nim.translatePage();
      if (state) show(state);
    });
    Nim.translatePage();
    document.addEventListener("keydown", onKey);
    // a mouse or a finger presses without taking the focus: Enter stays DONE
    document.addEventListener("mousedown", (event) => {
      if (event.target.closest("button[data-press]")) event.preventDefault();
    });
    document.addEventListener("click", (event) => {
      const b = event.target.closest("button[data-press]");
      if (b) press(b.dataset.press);
    });
    $("think").addEventListener("toggle", () => { nimrodShown = ""; if (state) show(state); });
    $("think").querySelector("summary").addEventListener("click", () => { $("think").dataset.touched = "1"; });
    $("settings").addEventListener("submit", applySettings);
    Nim.reduced.addEventListener("change", () => { built = ""; if (state) show(state); });
    window.addEventListener("resize", () => fit());
    window.addEventListener("pagehide", goodbye);
    if (machine) {
      try {
        show(await (await fetch("/api/machines/" + machine)).json().then((s) => { if (s.error) throw s; return s; }));
      } catch (e) {
        machine = null;
      }
    }
    if (!machine) await renew();
    document.body.dataset.ready = "1";
    // no machine: nothing to poll; it is asked for again (a few seconds after no answer), unless refused
    Nim.poll(() => {
      if (machine) return "/api/machines/" + machine;
      renew();
      return null;
    }, POLL_MS, (s) => {
      if (s.machine === machine) show(s);
    }, async (e) => {
      // this tab's machine is gone (closed after idling, a restarted server): a new one;
      // a poll of the machine it just replaced (Apply) is answered 404 too, and ignored
      if (e.status === 404 && e.url === "/api/machines/" + machine) await renew();
      else if (e.status !== 404) lost(e);
    });
  }

  start().catch(lost);
})();
