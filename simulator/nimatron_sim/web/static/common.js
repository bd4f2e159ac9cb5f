/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* What the play page and the crowd view share: words in the visitor's
   language, lamps drawn as SVG, Nimrod's panel, the state poll.
   No build step, no library, nothing from the internet. */
"use strict";

const Nim = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

  // -- words --------------------------------------------------------------
  let words = {text: {}, phrases: {}};
  let english = {text: {}, phrases: {}};
  let phraseRules = [];

  function chosenLang(fallback) {
    const asked = new URLSearchParams(location.search).get("lang");
    return asked || localStorage.getItem("nimatron-lang") || fallback || "en";
  }

  async function loadLang(lang, langs) {
    if (langs && !langs.includes(lang)) lang = "en";
    const get = async (name) => (await fetch("/static/lang/" + name + ".json")).json();
    english = await get("en");
    words = lang === "en" ? english : await get(lang);
    phraseRules = Object.keys(words.phrases).map((template) => {
      const names = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (m, name) => {
        names.push(name);
        return "(.+?)";
      });
      return {re: new RegExp("^" + source + "$"), names, to: words.phrases[template]};
    });
    document.documentElement.lang = lang;
    return lang;
  }

  function fill(template, params) {
    return template.replace(/\{([\w+]+)\}/g, (m, name) => (params && name in params ? String(params[name]) : m));
  }

  /** A page text by key, in the chosen language (English if a file lacks it). */
  function t(key, params) {
    const template = key in words.text ? words.text[key] : (key in english.text ? english.text[key] : key);
    return fill(template, params);
  }

  /** A sentence from the firmware (English), through the phrase table;
      its parts are translated too ("{about}: not allowed"). Unknown: as sent. */
  function phrase(text) {
    if (typeof text !== "string") return text;
    for (const rule of phraseRules) {
      const m = rule.re.exec(text);
      if (m) {
        const params = {};
        rule.names.forEach((name, k) => { params[name] = phrase(m[k + 1]); });
        return fill(rule.to, params);
      }
    }
    return text;
  }

  /** The words of a state's "say": [key, params], with firmware phrases translated.
      ``watching``: the crowd view's words, which tell no one to press (``crowd.say.rows``). */
  function say(s, watching) {
    const [key, params] = s.say;
    const p = Object.assign({}, params);
    for (const k of ["reason", "move"]) if (k in p) p[k] = phrase(p[k]);
    let text = t(watching && ("crowd." + key) in english.text ? "crowd." + key : key, p);
    if (p.hint) text += " " + t("say.hint");
    return text;
  }

  /** One event in words, for the log and the screen reader. */
  function eventWords(e) {
    if (e.kind === "game") return t("log.game", {position: phrase(e.words)});   // the rule set's words (position_words)
    if (e.kind === "move") return t(e.by === "visitor" ? "log.you" : "log.machine", {move: phrase(e.words)});
    if (e.kind === "refused") return t("log.refused", {reason: phrase(e.reason)});
    if (e.kind === "over") return t(e.winner === "visitor" ? "log.win" : e.winner === "machine" ? "log.loss"
                                    : e.counted === false ? "log.withdrawn" : "log.abandoned");
    return "";
  }

  function label(r) { return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r] || String(r + 1); }

  // -- lamps ----------------------------------------------------------------
  // Shape carries the meaning (as the terminal's ● ○ ◉ ◆ ✕ ✗ ·); colour repeats it.
  const STEADY = {lit: "#ffd27a", taken: "#8a8a8a", selected: "#7fd8ff", hint: "#33dd66",
                  taking: "#ffaa3c", refused: "#ff66cc", dark: "#5c5c5c"};

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }

  /** An SVG lamp: kind, glowing or not, colour from the firmware's palette.
      Under prefers-reduced-motion the lamp shows its meaning steadily
      (its kind's own colour), not the machine's blink. */
  function lampSvg(kind, on, colour, opts) {
    const svg = el("svg", {viewBox: "0 0 40 40", class: "lamp lamp-" + kind + (on ? " on" : ""),
                           "aria-hidden": "true", focusable: "false"});
    const c = reduced.matches ? STEADY[kind] : colour;
    if (kind === "lit") {
      el("circle", {cx: 20, cy: 20, r: 16, fill: c, stroke: "#fff6", "stroke-width": 1.5}, svg);
      el("circle", {cx: 14, cy: 14, r: 4, fill: "#ffffff66"}, svg);
    } else if (kind === "taken") {
      el("circle", {cx: 20, cy: 20, r: 14, fill: "none", stroke: c, "stroke-width": 3}, svg);
    } else if (kind === "selected") {
      el("circle", {cx: 20, cy: 20, r: 17, fill: "none", stroke: c, "stroke-width": 3}, svg);
      el("circle", {cx: 20, cy: 20, r: 10, fill: c}, svg);
    } else if (kind === "hint") {
      el("polygon", {points: "20,2 38,20 20,38 2,20", fill: c, stroke: "#fff8", "stroke-width": 1.5}, svg);
    } else if (kind === "taking") {
      el("circle", {cx: 20, cy: 20, r: 16, fill: c}, svg);
      el("path", {d: "M11 11 L29 29 M29 11 L11 29", stroke: "#101418", "stroke-width": 5, "stroke-linecap": "round"}, svg);
    } else if (kind === "refused") {
      el("circle", {cx: 20, cy: 20, r: 16, fill: "none", stroke: c, "stroke-width": 2, "stroke-dasharray": "4 3"}, svg);
      el("path", {d: "M12 12 L28 28 M28 12 L12 28", stroke: c, "stroke-width": 5, "stroke-linecap": "round"}, svg);
    } else {
      el("circle", {cx: 20, cy: 20, r: 4, fill: c}, svg);
    }
    if (opts && opts.cursor) {
      el("rect", {x: 1, y: 1, width: 38, height: 38, rx: 6, fill: "none", stroke: "#ffffff", "stroke-width": 2.5,
                  "stroke-dasharray": "6 4"}, svg);
    }
    return svg;
  }

  /** Lamps as the page shows them: under reduced motion the attract wave
      stands still (every lamp shown as not in play). */
  function shownLamps(s) {
    if (reduced.matches && s.state === "attract") {
      return s.lamps.map((row) => row.map(() => ["dark", 0, STEADY.dark]));
    }
    return s.lamps;
  }

  /** Place lamp elements: rows (a line per row) or a ring (a circle from the top). */
  function ringPlaces(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
      out.push([50 + 40 * Math.cos(a), 50 + 40 * Math.sin(a)]);
    }
    return out;
  }

  /** Status lamps: shape (■ filled, □ hollow) and words, never colour alone.
      Under reduced motion, the steady meaning of the machine's state. */
  function statusOn(s, role) {
    if (!reduced.matches) return !!s.status[role];
    const over = s.state === "over";
    return {visitor: s.state === "visitor", machine: s.state === "thinking" || s.state === "showing",
            champ: over && s.winner === "visitor", machine_wins: over && s.winner === "machine"}[role];
  }

  function drawStatus(box, s) {
    box.textContent = "";
    for (const role of s.status_order) {
      const on = statusOn(s, role);
      const item = document.createElement("li");
      item.className = "status-lamp" + (on ? " on" : "");
      item.dataset.role = role;
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = on ? "■" : "□";
      item.appendChild(mark);
      item.appendChild(document.createTextNode(" " + t("status." + role)));
      const sr = document.createElement("span");
      sr.className = "sr-only";
      sr.textContent = ": " + t(on ? "status.lit" : "status.dark");
      item.appendChild(sr);
      box.appendChild(item);
    }
  }

  // -- the lamp panel: rows or a ring of lamp elements, drawn from a state ------
  /** Build the lamp elements for a state's layout into ``box``; lamps are
      buttons on boards with a key under every lamp (``opts.take``: the
      play page, also a TAKE button per row). Returns the handle drawLamps needs. */
  function buildLamps(box, s, opts) {
    const take = !!(opts && opts.take);
    const keys = take && s.keys;
    const nodes = [];
    const shown = [];
    box.textContent = "";
    box.className = "lamps shape-" + s.shape + (keys ? " keys" : "");
    box.style.setProperty("--n", Math.max(...s.layout));
    box.style.setProperty("--rows", s.layout.length);   // the lamps share the screen's height too
    const makeLamp = (r, i) => {
      const node = document.createElement(keys ? "button" : "span");
      node.className = "lamp-cell";
      if (keys) {
        node.type = "button";
        node.dataset.press = "key " + r + " " + i;
        node.dataset.r = r;
        node.dataset.i = i;
      } else {
        node.setAttribute("role", "img");
      }
      nodes[r][i] = node;
      shown[r] = shown[r] || [];
      return node;
    };
    if (s.shape === "ring") {
      const ring = document.createElement("div");
      ring.className = "ring";
      nodes[0] = [];
      ringPlaces(s.layout[0]).forEach(([x, y], i) => {
        const node = makeLamp(0, i);
        node.style.left = x + "%";
        node.style.top = y + "%";
        ring.appendChild(node);
      });
      box.appendChild(ring);
    } else {
      s.layout.forEach((n, r) => {
        nodes[r] = [];
        const row = document.createElement("div");
        row.className = "lamp-row";
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", t("row", {row: label(r)}));
        const name = document.createElement("span");
        name.className = "row-label";
        name.setAttribute("aria-hidden", "true");
        name.textContent = label(r);
        row.appendChild(name);
        const strip = document.createElement("span");
        strip.className = "strip";
        for (let i = 0; i < n; i++) strip.appendChild(makeLamp(r, i));
        row.appendChild(strip);
        const count = document.createElement("span");
        count.className = "row-count";
        row.appendChild(count);
        if (take && s.buttons.includes("row" + r)) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "take";
          button.dataset.press = "row" + r;
          button.id = "take-" + r;
          // its name begins with the words it shows ("1 TAKE"), then says what it does to a screen reader
          button.innerHTML = '<span class="key">' + (r + 1) + "</span> ";
          button.appendChild(document.createTextNode(t("take")));
          const more = document.createElement("span");
          more.className = "sr-only";
          more.textContent = " " + t("take.row", {row: label(r)});
          button.appendChild(more);
          row.appendChild(button);
        }
        box.appendChild(row);
      });
    }
    return {nodes, shown, counts: [...box.querySelectorAll(".row-count")]};
  }

  /** Bring the lamps up to date: each element is redrawn only when it changed. */
  function drawLamps(handle, s) {
    shownLamps(s).forEach((row, r) => row.forEach(([kind, on, colour], i) => {
      const node = handle.nodes[r] && handle.nodes[r][i];
      if (!node) return;
      const cursor = !!(s.cursor && s.cursor[0] === r && s.cursor[1] === i);
      let words = t("lamp", {row: label(r), i: i + 1, kind: t("kind." + kind)});
      if (cursor) words = t("lamp.cursor", {lamp: words});
      node.setAttribute("aria-label", words);
      node.dataset.kind = kind;
      const key = kind + " " + on + " " + colour + " " + cursor + " " + reduced.matches;
      if (handle.shown[r][i] === key) return;
      handle.shown[r][i] = key;
      node.textContent = "";
      node.appendChild(lampSvg(kind, on, colour, {cursor}));
    }));
    handle.counts.forEach((node, r) => { node.textContent = s.counts ? t("row.count", {n: s.counts[r]}) : ""; });
  }

  function drawLegend(box, s) {
    box.textContent = "";
    for (const kind of ["lit", "taken", "selected", "hint", "taking", "refused", "dark"]) {
      if (kind === "selected" && s.input === "rows") continue;
      const li = document.createElement("li");
      li.appendChild(lampSvg(kind, kind !== "taken" && kind !== "dark", STEADY[kind]));
      li.appendChild(document.createTextNode(" " + t("kind." + kind)));
      box.appendChild(li);
    }
  }

  /** A new element under ``parent``, with a class and a text. */
  function add(parent, tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }

  // -- Nimrod's panel -----------------------------------------------------------
  function bitLamp(bit) {
    const svg = el("svg", {viewBox: "0 0 40 40", class: "bit bit-" + bit, "aria-hidden": "true", focusable: "false"});
    if (bit) el("circle", {cx: 20, cy: 20, r: 15, fill: "#ffd27a", stroke: "#fff8", "stroke-width": 1.5}, svg);
    else el("circle", {cx: 20, cy: 20, r: 13, fill: "none", stroke: "#8a8a8a", "stroke-width": 3}, svg);
    return svg;
  }

  /** One of the panel's sentences (worked out by the server, ``nimrod.py``):
      firmware phrases translated, players named (as ``thinking.py`` does). */
  function sentence(key, params) {
    const p = {};
    for (const [name, value] of Object.entries(params)) {
      if (name.startsWith("who")) p[name] = t("who." + value);
      else if (name.startsWith("player")) p[name] = t("player." + value);
      else if (name === "goal") p[name] = t("goal." + value);   // "wins" or "loses"
      else if (["move", "note", "position", "after"].includes(name)) p[name] = phrase(value);   // firmware words
      else p[name] = value;
    }
    return t(key, p);
  }

  /** The panel as a table of lamps (1 a filled lamp, 0 a hollow ring, each
      with its digit), then the sentences; ``upto`` shows only its first
      steps (the crowd view's slow mode). Returns the number of steps. */
  function drawNimrod(box, panel, upto, glossed = true) {
    box.textContent = "";
    if (!panel) {
      add(box, "p", "", t("nimrod.none"));
      return 1;
    }
    const steps = [];
    if (panel.rows) {
      const table = document.createElement("table");
      table.className = "nimrod";
      add(table, "caption", "sr-only", t("nimrod.title"));
      const head = add(table, "tr", "");
      add(head, "td", "");
      for (let c = panel.width - 1; c >= 0; c--) add(head, "th", "", String(1 << c)).scope = "col";
      add(head, "td", "");
      // a row of the table: its name, one cell per column, a value at the end
      const line = (name, cls, cells, value) => {
        const tr = add(table, "tr", cls);
        add(tr, "th", "", name).scope = "row";
        cells.forEach((fillCell) => fillCell(add(tr, "td", "")));
        add(tr, "td", "value", value);
        steps.push(tr);
      };
      const bitCells = (bits) => bits.map((b) => (td) => {
        td.appendChild(bitLamp(b));
        add(td, "span", "digit", t(b ? "nimrod.bit1" : "nimrod.bit0"));
      });
      const row = (name, bits, value, cls) => line(name, cls, bitCells(bits), value);
      for (const r of panel.rows) row(t(panel.row_key || "nimrod.heap", r), r.bits, String(r.value), "heap-row");
      line(t("nimrod.counts"), "counts", panel.counts.map((n) => (td) => {
        td.textContent = n + " " + t(n % 2 ? "nimrod.odd" : "nimrod.even");
        td.className = n % 2 ? "odd" : "even";
      }), "");
      if (panel.kind !== "moore") row(t("nimrod.sum"), panel.sum_bits, String(panel.sum), "sum-row");
      box.appendChild(table);
    }
    // the rule and the move, then what the words mean (binary, nim-sum...) in one small paragraph;
    // the crowd view (``glossed`` false) keeps its screen for the game
    const said = (panel.lines || []).filter(([key]) => !key.startsWith("nimrod.gloss."));
    for (const [key, params] of said) steps.push(add(box, "p", "", sentence(key, params)));
    const glosses = (panel.lines || []).filter(([key]) => key.startsWith("nimrod.gloss."));
    if (glossed && glosses.length) steps.push(add(box, "p", "gloss", glosses.map(([key, params]) => sentence(key, params)).join(" ")));
    if (upto !== undefined) steps.forEach((node, k) => { node.hidden = k >= upto; });
    return steps.length;
  }

  // -- the poll -----------------------------------------------------------------
  /** Ask ``url`` for the state every ``ms``, one request at a time; ``show``
      draws it, ``lost`` says the server is gone (it keeps trying). A ``url``
      of null asks nothing this time. */
  function poll(url, ms, show, lost) {
    let stopped = false;
    async function step() {
      if (stopped) return;
      const asked = url();
      if (!asked) { setTimeout(step, ms); return; }
      try {
        const r = await fetch(asked, {cache: "no-store"});
        const body = await r.json();
        if (!r.ok) throw Object.assign(new Error(body.error || r.statusText), {status: r.status, url: asked});
        show(body);
      } catch (e) {
        lost(e);
      }
      setTimeout(step, ms);
    }
    step();
    return () => { stopped = true; };
  }

  async function post(url, body) {
    const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body || {})});
    const data = await r.json();
    if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), {status: r.status, said: data.said});
    return data;
  }

  async function languageSelect(select, config, current, onChange) {
    select.textContent = "";
    for (const lang of config.langs) {
      const file = await (await fetch("/static/lang/" + lang + ".json")).json();
      const option = document.createElement("option");
      option.value = lang;
      option.textContent = file.name;
      option.lang = lang;
      select.appendChild(option);
    }
    select.value = current;
    select.addEventListener("change", async () => {
      localStorage.setItem("nimatron-lang", select.value);
      await loadLang(select.value, config.langs);
      onChange();
    });
  }

  /** Words of the page marked data-t="key" (and data-t-label for aria-label). */
  function translatePage(root) {
    document.title = t(document.body.classList.contains("crowd") ? "crowd.title" : "title");
    for (const node of (root || document).querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
    for (const node of (root || document).querySelectorAll("[data-t-label]")) node.setAttribute("aria-label", t(node.dataset.tLabel));
  }

  return {t, phrase, say, eventWords, label, lampSvg, buildLamps, drawLamps, drawLegend, drawStatus,
          drawNimrod, poll, post, loadLang, chosenLang, languageSelect, translatePage, reduced};
})();
