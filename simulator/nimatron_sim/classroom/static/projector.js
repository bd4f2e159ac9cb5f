/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* The projector: how to join (the address and its QR code), the class as it
   arrives, the round's answers live and Nimrod's reasoning once revealed, the
   leaderboard between rounds. Read-only: it sends nothing. */
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  let view = null;
  let lampsFor = "";
  let lamps = null;

  function words() {
    Nim.translatePage();
    Class.translate();
    document.title = Class.c("proj.title");
    lampsFor = "";
    if (view) draw(view);
  }

  function cell(tr, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
  }

  function draw(v) {
    view = v;
    $("url").textContent = v.join;
    $("qr").alt = Class.c("proj.qr", {url: v.join});
    if ($("qr").dataset.url !== v.join) { $("qr").dataset.url = v.join; $("qr").src = "/qr.svg?u=" + encodeURIComponent(v.join); }
    $("count").textContent = Class.c("proj.students", {n: v.students.length, limit: v.limit});
    $("waiting").hidden = v.students.length > 0;
    const names = $("names");
    names.textContent = "";
    for (const name of v.students) {
      const li = document.createElement("li");
      li.textContent = name;
      names.appendChild(li);
    }
    const r = v.round;
    $("round").hidden = !r;
    document.body.classList.toggle("in-round", !!r);
    $("between").hidden = !!r;
    if (r) {
      $("round-title").textContent = Class.c("proj.round", {id: r.id});
      $("round-rules").textContent = Class.c("proj.position", {position: Nim.phrase(r.position), about: Nim.phrase(r.about),
        last: Nim.phrase(r.last_move || "takes the last lamp"), goal: Nim.t(r.misere ? "goal.loses" : "goal.wins")});
      const key = r.id + document.documentElement.lang;
      if (key !== lampsFor) {
        lampsFor = key;
        lamps = Nim.buildLamps($("lamps"), {layout: r.layout, shape: r.shape, keys: false, buttons: []}, {});
      }
      Nim.drawLamps(lamps, {lamps: r.lamps, state: "visitor", cursor: null, counts: null});
      $("answered").textContent = Class.c("proj.answered", {answered: r.answered, students: r.students});
      $("found").textContent = Class.c("proj.found", {found: r.found});
      $("found").hidden = !r.revealed;
      const moves = $("moves");
      moves.textContent = "";
      const most = Math.max(1, ...r.moves.map((m) => m[1]));
      for (const [words, n, found] of r.moves) {
        const li = document.createElement("li");
        li.className = r.revealed && found ? "found" : "";
        const label = document.createElement("span");
        label.textContent = Nim.phrase(words) + (r.revealed && found ? " (" + Class.c("proj.move.found") + ")" : "");
        const count = document.createElement("span");
        count.textContent = n;
        const bar = document.createElement("span");
        bar.className = "bar";
        bar.style.width = (100 * n / most) + "%";
        li.append(label, count, bar);
        moves.appendChild(li);
      }
      $("reveal").hidden = !r.revealed;
      if (r.revealed) Nim.drawNimrod($("nimrod"), r.panel);
    }
    $("rules").textContent = Class.c("proj.rules", {preset: Nim.t("preset." + v.settings.preset)});
    const board = $("board");
    board.textContent = "";
    for (const row of v.leaderboard) {
      const tr = document.createElement("tr");
      cell(tr, row.name);
      cell(tr, row.found, "n");
      cell(tr, row.wins, "n");
      cell(tr, row.games, "n");
      board.appendChild(tr);
    }
  }

  const config = await (await fetch("/api/config")).json();
  await Class.language($("lang"), config, words);
  words();
  Class.connect("projector", (m) => {
    if (m.projector) { draw(m.projector); document.body.dataset.ready = "1"; }
  });
})();
