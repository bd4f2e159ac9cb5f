/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* The simulator's play page, in a class: loaded before play.js, it answers
   play.js's poll with the class's pushes (one WebSocket, no polling) and adds
   a line above the machine: the student's name and score, the puzzle round. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let shown = null;      // the classroom words last drawn
  let loaded = "";       // the language the class words are loaded in

  const bar = document.createElement("section");
  bar.id = "class-bar";
  bar.className = "class-bar";
  bar.setAttribute("aria-live", "polite");
  const who = document.createElement("p");
  who.className = "class-who";
  const round = document.createElement("p");
  round.className = "class-round";
  bar.append(who, round);

  async function draw(classroom) {
    if (classroom) shown = classroom;
    if (!shown) return;
    const lang = document.documentElement.lang;
    if (lang !== loaded) { loaded = lang; await Class.load(lang); }
    if (!bar.isConnected) $("machine").prepend(bar);
    who.textContent = Class.c("class.you", {name: shown.name, wins: shown.score.wins, losses: shown.score.losses});
    const r = shown.round;
    round.hidden = !r;
    document.body.classList.toggle("in-round", !!r);
    if (!r) return;
    const move = r.answer ? Nim.phrase(r.answer) : "";
    const position = Nim.phrase(r.position);
    if (!r.revealed) round.textContent = r.answer ? Class.c("round.answered", {move}) : Class.c("round.ask", {id: r.id, position});
    else if (!r.answer) round.textContent = Class.c("round.none");
    else round.textContent = Class.c(r.found ? "round.found" : "round.missed", {move});
    if (r.revealed && !$("think").dataset.opened) { $("think").dataset.opened = "1"; $("think").open = true; }
    if (!r.revealed) delete $("think").dataset.opened;
  }

  function ended() {
    bar.textContent = "";
    const p = document.createElement("p");
    p.textContent = Class.c("class.ended");
    bar.append(p);
    document.body.classList.add("class-ended");
  }

  // play.js's poll, answered by pushes: the state of this student's machine whenever it changes
  Nim.poll = (url, ms, show, lost) => Class.connect("student", (message) => {
    if (message.ended) { ended(); return; }
    if (message.state) {
      draw(message.state.classroom);
      show(message.state);
    }
  }, {
    onOpen: () => { $("lost").hidden = true; },
    onClose: (code) => {
      if (code === 1008 || document.body.classList.contains("class-ended")) return true;   // another page took over
      lost(Object.assign(new Error(Class.c("class.offline")), {status: 0}));
      // the class ended, or this name is no longer in it: join again
      fetch("/class/api/me").then((r) => { if (r.status === 401) location.href = "/join"; }, () => {});
      return false;
    },
  });
  // a press's answer carries the class's words too
  const post = Nim.post;
  Nim.post = async (url, body) => {
    try {
      const s = await post(url, body);
      draw(s.classroom);
      return s;
    } catch (e) {
      if (e.status === 401) location.href = "/join";
      throw e;
    }
  };
  // the language changed: the class's line in the new one
  document.addEventListener("DOMContentLoaded", () => {
    $("lang").addEventListener("change", () => setTimeout(() => draw(), 50));
  });
})();
