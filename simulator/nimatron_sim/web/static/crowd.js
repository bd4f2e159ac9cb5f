/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* The crowd view: the machine played last (or ?watch=HANDLE), for an
   audience, read-only. Large lamps, the last moves in words, Nimrod's
   panel; ?slow=1 builds the panel up one step at a time, as Nimrod's slow
   mode did. Nothing here can press a button. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 150;
  const STEP_MS = 1500;     // slow mode: one more line of the working
  const LAST = 4;   // a kiosk's screen holds four moves beside the lamps
  const params = new URLSearchParams(location.search);
  const slow = params.get("slow") === "1";
  let machine = params.get("watch");   // a tab's watch handle: it shows that tab's machine, presses nothing
  let lamps = null;
  let built = "";
  let panelKey = "";
  let step = 0;
  let steps = 0;
  let lastEvent = null;
  let state = null;

  function drawPanel(s) {
    const key = JSON.stringify(s.nimrod) + document.documentElement.lang;
    if (key !== panelKey) {
      panelKey = key;
      step = slow ? 1 : Infinity;
    }
    steps = Nim.drawNimrod($("nimrod"), s.nimrod, slow ? step : undefined, false);   // a kiosk's screen: no glossary
  }

  function drawLast(s) {
    const newest = s.events.length ? s.events[s.events.length - 1].n : 0;
    if (newest === lastEvent) return;
    const fresh = lastEvent === null ? [] : s.events.filter((e) => e.n > lastEvent);
    lastEvent = newest;
    const list = $("last");
    list.textContent = "";
    for (const e of s.events.filter((e) => e.kind !== "refused").slice(-LAST)) {  // a refusal is said, not listed
      const li = document.createElement("li");
      li.value = e.n;   // the event's own number: the list never renumbers as old moves leave it
      li.className = "event-" + e.kind + (e.by ? " by-" + e.by : "");
      li.textContent = Nim.eventWords(e);
      list.appendChild(li);
    }
    if (fresh.length) $("live").textContent = fresh.map(Nim.eventWords).join(" ");
  }

  function show(s) {
    state = s;
    $("lost").hidden = true;
    const key = [s.watch, s.board, s.layout.join(","), s.shape, document.documentElement.lang].join("|");
    if (key !== built) {
      lamps = Nim.buildLamps($("lamps"), s, {take: false});
      built = key;
      lastEvent = null;
    }
    $("follows").textContent = Nim.t("crowd.follows", {board: Nim.t("board." + s.board)});
    Nim.drawStatus($("status"), s);
    Nim.drawLamps(lamps, s);
    reserve();
    $("attract").hidden = s.state !== "attract";
    $("say").textContent = s.state === "attract" ? "" : Nim.say(s, true);   // a watcher's words: nothing to press here
    document.body.dataset.state = s.state;
    drawPanel(s);
    drawLast(s);
    $("play-link").href = "/?lang=" + document.documentElement.lang;
  }

  /** Room beside the lamps for the row's label and its count, as wide as
      their words ("encendidas: 6" is longer than "lit: 6"): the lamps take the rest. */
  function reserve() {
    const box = $("lamps");
    const rows = [...box.querySelectorAll(".lamp-row")];
    const beside = Math.max(0, ...rows.map((row) => {
      const parts = [...row.children].filter((c) => !c.classList.contains("strip"));
      const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
      return parts.reduce((w, c) => w + c.scrollWidth, 0) + gap * parts.length + 2;
    }));
    const want = beside ? beside + "px" : "";
    if (box.style.getPropertyValue("--reserve") !== want) box.style.setProperty("--reserve", want);
  }

  function lost(e) {
    $("lost").textContent = Nim.t("lost");
    $("lost").hidden = false;
    if (e && e.status === 404) machine = null;   // that tab's machine is gone: follow the last played
  }

  async function start() {
    const config = await (await fetch("/api/config")).json();
    const lang = await Nim.loadLang(Nim.chosenLang(config.lang), config.langs);
    await Nim.languageSelect($("lang"), config, lang, () => { built = ""; panelKey = ""; Nim.translatePage(); if (state) show(state); });
    Nim.translatePage();
    $("slow-note").hidden = !slow;
    if (slow) setInterval(() => {
      if (step < steps && state) { step += 1; drawPanel(state); }
    }, STEP_MS);
    Nim.poll(() => (machine ? "/api/watch/" + encodeURIComponent(machine) : "/api/crowd"), POLL_MS, (s) => {
      show(s);
      document.body.dataset.ready = "1";
    }, lost);
  }

  start().catch(lost);
})();
