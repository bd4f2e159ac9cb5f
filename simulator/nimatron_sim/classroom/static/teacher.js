/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* The teacher's view: every student's lamps as a small live panel and their
   score, the class's rule set and difficulty, the puzzle rounds. Its key
   (the address printed in the terminal, #key=...) goes with every request,
   never to another page; it is kept for this tab, so a reload keeps working. */
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("key")) sessionStorage.setItem("nimatron-teacher", hash.get("key"));
  const key = sessionStorage.getItem("nimatron-teacher") || "";
  let view = null;
  let config = null;

  function say(text, bad) {
    $("said").textContent = text;
    $("said").className = bad ? "error" : "ok";
  }

  async function act(what, body) {
    try {
      const answer = await Class.post("/class/api/teacher/" + what, body || {}, {"X-Teacher-Key": key});
      say(Class.c("t.done"));
      return answer;
    } catch (e) {
      say(Class.c("t.refused", {error: e.status === 403 ? Class.c("t.key_wrong")
                                        : e.key ? Class.c(e.key) : e.message}), true);  // the server's sentence, in the teacher's words
      return null;
    }
  }

  function options(select, items, value) {
    select.textContent = "";
    for (const [text, v] of items) select.add(new Option(text, v));
    if (value !== undefined) select.value = value;
  }

  function fill() {
    const presets = config.presets.map((p) => [Nim.t("preset." + p.name), p.name]);   // in words, as the play page names them
    const s = view ? view.settings : config.settings;
    options($("preset"), presets, s.preset);
    options($("round-preset"), presets, $("round-preset").value || s.preset);
    options($("difficulty"), [[Class.c("t.preset_own"), ""]].concat(config.difficulties.map((d) => [Nim.t("difficulty." + d), d])),
            s.difficulty || "");
  }

  function panel(s) {
    const li = document.createElement("li");
    li.className = "student" + (s.stuck ? " stuck" : "") + (s.online ? "" : " offline");
    const h = document.createElement("h3");
    h.textContent = s.name;
    li.appendChild(h);
    const mini = document.createElement("div");
    mini.className = "mini";
    mini.setAttribute("role", "img");
    const lit = (s.lamps || []).map((row) => row.filter((k) => k === "lit").length);
    mini.setAttribute("aria-label", Class.c("t.lamps", {name: s.name}) + ": " + lit.join(" "));
    for (const row of s.lamps || []) {
      const r = document.createElement("div");
      r.className = "r";
      for (const kind of row) {
        const l = document.createElement("span");
        l.className = "l " + kind;
        r.appendChild(l);
      }
      mini.appendChild(r);
    }
    li.appendChild(mini);
    const p = document.createElement("p");
    p.textContent = Class.c("t.score", s);
    li.appendChild(p);
    const notes = [];
    if (s.stuck) notes.push(Class.c("t.stuck", {n: s.streak}));
    if (!s.online) notes.push(Class.c("t.offline"));
    if (s.puzzle) notes.push(Class.c(s.answered ? "t.answered" : "t.not_answered"));
    if (notes.length) {
      const q = document.createElement("p");
      q.className = "flag";
      q.textContent = notes.join(" · ");
      li.appendChild(q);
    }
    return li;
  }

  function draw(v) {
    const first = !view;
    view = v;
    if (first) fill();
    $("count").textContent = Class.c("t.students", {n: v.students.length, limit: v.limit});
    $("none").hidden = v.students.length > 0;
    const list = $("students");
    list.textContent = "";
    for (const s of v.students) list.appendChild(panel(s));
    const r = v.round;
    $("tally").textContent = r ? Class.c("proj.round", {id: r.id}) + " · " + Class.c("proj.answered", r) + " · " +
      Class.c("proj.found", r) : "";
    $("reveal").disabled = !r || r.revealed;
    $("games").disabled = !r;
  }

  function words() {
    Nim.translatePage();
    Class.translate();
    document.title = Class.c("t.title");
    if (config) fill();
    if (view) draw(view);
  }

  config = await (await fetch("/api/config")).json();
  await Class.language($("lang"), config, words);
  words();
  if (!key) {
    $("key-note").textContent = Class.c("t.key_missing");
    $("key-note").hidden = false;
    return;
  }
  $("settings").addEventListener("submit", (e) => {
    e.preventDefault();
    act("settings", {preset: $("preset").value, difficulty: $("difficulty").value});
  });
  $("round").addEventListener("submit", (e) => {
    e.preventDefault();
    act("round", {position: $("position").value, preset: $("round-preset").value});
  });
  $("reveal").addEventListener("click", () => act("reveal"));
  $("games").addEventListener("click", () => act("games"));
  $("export").addEventListener("click", async () => {
    const r = await fetch("/class/api/teacher/export.csv", {headers: {"X-Teacher-Key": key}});
    if (!r.ok) { say(Class.c("t.refused", {error: (await r.json()).error}), true); return; }
    const a = document.createElement("a");
    a.href = URL.createObjectURL(await r.blob());
    a.download = "nimatron-class.csv";
    a.click();
  });
  $("end").addEventListener("click", async () => {
    if (!confirm(Class.c("t.end_confirm"))) return;
    if (await act("end")) say(Class.c("t.ended"));
  });
  Class.connect("teacher", (m) => {
    if (m.teacher) { $("key-note").hidden = true; draw(m.teacher); document.body.dataset.ready = "1"; }
  }, {
    hello: () => ({key: sessionStorage.getItem("nimatron-teacher") || key}),
    onClose: (code) => {
      if (code === 4003) {
        $("key-note").textContent = Class.c("t.key_wrong");
        $("key-note").hidden = false;
        return true;
      }
      return false;
    },
  });
})();
