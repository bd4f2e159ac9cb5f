/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* The join page: a first name or a nickname and a language; nothing else asked. */
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const config = await (await fetch("/api/config")).json();
  const words = () => { Nim.translatePage(); Class.translate(); document.title = Class.c("join.title"); };
  await Class.language($("lang"), config, words);
  words();
  $("join").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("name").value;
    try {
      await Class.post("/class/api/join", {name, lang: document.documentElement.lang});
      localStorage.setItem("nimatron-lang", document.documentElement.lang);
      location.href = "/";
    } catch (e) {
      const shown = name.trim().split(/\s+/).join(" ");
      $("error").textContent = e.key ? Class.c(e.key, {name: shown}) : Class.c("join.failed", {error: e.message});
      $("name").focus();
    }
  });
  document.body.dataset.ready = "1";
})();
