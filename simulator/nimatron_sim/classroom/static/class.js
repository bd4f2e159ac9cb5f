/*
 * SPDX-FileCopyrightText: 2026 The Nimatron project contributors
 *
 * SPDX-License-Identifier: MIT
 */
/* What the class's pages share: their own words (lang/*.json beside this
   file; the machine's words are the simulator's, through Nim.t), and a
   WebSocket that comes back by itself after a sleep or a restart. */
"use strict";

const Class = (() => {
  let words = {};
  let english = {};

  async function load(lang) {
    const get = async (name) => (await fetch("/class/static/lang/" + name + ".json")).json();
    english = await get("en");
    words = lang === "en" ? english : await get(lang);
  }

  /** A class page's text by key, in the chosen language (English if missing). */
  function c(key, params) {
    const template = key in words ? words[key] : (key in english ? english[key] : key);
    return template.replace(/\{(\w+)\}/g, (m, name) => (params && name in params ? String(params[name]) : m));
  }

  function translate(root) {
    for (const node of (root || document).querySelectorAll("[data-c]")) node.textContent = c(node.dataset.c);
    for (const node of (root || document).querySelectorAll("[data-c-label]")) node.setAttribute("aria-label", c(node.dataset.cLabel));
  }

  /** A WebSocket to the class as ``as`` (student, projector, teacher), opened
      again after it drops (1 s, then up to 10 s apart); ``hello`` is sent
      first each time (the teacher's key). ``onClose(code)`` returning true stops it. */
  function connect(as, onMessage, opts) {
    const o = opts || {};
    let wait = 1000;
    let stopped = false;
    function open() {
      if (stopped) return;
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/class/ws?as=" + as);
      ws.onopen = () => { wait = 1000; if (o.hello) ws.send(JSON.stringify(o.hello())); if (o.onOpen) o.onOpen(); };
      ws.onmessage = (m) => onMessage(JSON.parse(m.data));
      ws.onclose = (e) => {
        if (o.onClose && o.onClose(e.code)) { stopped = true; return; }
        setTimeout(open, wait);
        wait = Math.min(10000, wait * 2);
      };
    }
    open();
    // a phone woken from sleep: try at once rather than after the back-off
    document.addEventListener("visibilitychange", () => { if (!document.hidden) wait = 1000; });
    return () => { stopped = true; };
  }

  async function post(url, body, headers) {
    const r = await fetch(url, {method: "POST", headers: Object.assign({"Content-Type": "application/json"}, headers || {}),
                               body: JSON.stringify(body || {})});
    const data = await r.json();
    if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), {status: r.status, key: data.key});
    return data;
  }

  /** The language chosen (?lang=, then the simulator's saved choice), the pages' select filled. */
  async function language(select, config, onChange) {
    const lang = await Nim.loadLang(Nim.chosenLang(config.lang), config.langs);
    await load(lang);
    if (select) {
      await Nim.languageSelect(select, config, lang, async () => {
        await load(document.documentElement.lang);
        onChange();
      });
    }
    return lang;
  }

  return {c, translate, connect, post, load, language};
})();
