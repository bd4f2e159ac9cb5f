// SPDX-FileCopyrightText: 2026 The Nimatron project contributors
//
// SPDX-License-Identifier: MIT
'use strict';
// One board in the emulator (the shared circuitpython-emu tool's Session), run by
// tools/emu_firmware.sh: boots, reads the lamps from the NeoPixel pin, answers HELLO, then
//  --presets a,b,c  chooses each preset over the host link (SET preset, NEW, EXPLAIN, STATE);
//  --games N        (the MacroPad) plays whole games with its keys: the visitor presses the
//                   keys of the lamps it takes (the column of the row, from the top) and the
//                   encoder switch for DONE; a hold of 1.6 s is NEW GAME. A "perfect" visitor
//                   plays EXPLAIN's move, a "greedy" one takes one lamp from the largest row.
//
//   node emu_firmware.js --uf2 FW.uf2 --img DRIVE.img --pinmap PINMAP.json --out DIR
//                     [--presets nim,grundy] [--games 2] [--strategy greedy,perfect]
const fs = require('fs');
const path = require('path');
const tool = process.env.CP_EMU_TOOL;
const { Session } = require(path.join(tool, 'session'));
const { command: sendCommand } = require('./emu_reply');

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a.startsWith('--')) {
    const v = process.argv[i + 1] && !process.argv[i + 1].startsWith('--') ? process.argv[++i] : true;
    args[a.slice(2)] = v;
  }
}
const out = args.out;
fs.mkdirSync(out, { recursive: true });
const wall0 = Date.now();
const s = new Session({ uf2: args.uf2, fsImage: args.img, pinmap: args.pinmap, echo: false });
const pin = s.pinmap;
const MAP = pin.lamps.map;
const report = { firmware: path.basename(args.uf2), pinmap: path.basename(args.pinmap), games: [], commands: [], notes: [] };
function note(msg) { const line = `[board ${s.ms.toFixed(1)} ms] ${msg}`; console.error(line); report.notes.push(line); }
function save() {
  report.wall_s = (Date.now() - wall0) / 1000;
  report.emulated_ms = +s.ms.toFixed(1);
  report.watchdog_fired = s.b.watchdogFired;
  fs.writeFileSync(path.join(out, 'report.json'), JSON.stringify(report, null, 1));
  fs.writeFileSync(path.join(out, 'console.txt'), s.console);
  fs.writeFileSync(path.join(out, 'data.txt'), s.data);
}
process.on('exit', save);

function events() {
  return s.data.split('\n').filter((l) => l.startsWith('EV ')).map((l) => { try { return JSON.parse(l.slice(3)); } catch (e) { return {}; } });
}
function command(line, timeoutMs = 8000) {
  const { reply, t0, latency_ms } = sendCommand(s, line, timeoutMs);
  const r = { cmd: line, t: +t0.toFixed(1), latency_ms, reply: reply ? reply.slice(0, 300) : null };
  report.commands.push(r);
  let json = null;
  if (reply && reply.startsWith('OK {')) { try { json = JSON.parse(reply.slice(3)); } catch (e) { /* */ } }
  return { ...r, json };
}
// two pixels or more: CircuitPython's own status light is one pixel of the MacroPad's chain
const lit = (f) => f && f.px.filter((p) => p.some((x) => x)).length >= 2;

// ---- boot
if (!s.runUntil(() => s.connectedAt !== null, 15000)) { note('USB never enumerated'); process.exit(1); }
const BOOT_RE = /\{[^\n{]*"event": "boot"[^\n]*\}(?=\r?\n)/;
s.runUntil(() => BOOT_RE.test(s.console) || /Traceback|Code done running/.test(s.console), 60000);
const m = s.console.match(BOOT_RE);
report.boot_line_ms = m ? +s.ms.toFixed(1) : null;
report.boot = m ? JSON.parse(m[0]) : null;
s.runUntil(() => s.frames.some(lit), 5000);
const fl = s.frames.find(lit);
report.first_lit_frame_ms = fl ? +fl.t.toFixed(1) : null;
note(`boot line ${report.boot_line_ms} ms, first lit lamp ${report.first_lit_frame_ms} ms`);
report.hello = command('HELLO');
note('HELLO -> ' + report.hello.reply);
command('EVENTS ON');
if (!report.hello.reply) { save(); process.exit(2); }

// ---- every preset over the link
report.presets = [];
for (const preset of String(args.presets || '').split(',').filter((p) => p)) {
  const r = { preset, set: command('SET preset ' + preset, 15000).reply };
  r.new = command('NEW', 15000).reply;
  s.runFor(600);
  const ex = command('EXPLAIN', 15000);
  r.explain = ex.reply && ex.reply.slice(0, 120);
  r.explain_ms = ex.latency_ms;
  const st = command('STATE').json;
  r.position = st && st.position;
  r.heap_low_lines = (s.console.match(/heap-low \d+/g) || []).length;
  report.presets.push(r);
  note(`${preset}: SET ${r.set && r.set.slice(0, 60)}; NEW ${r.new && r.new.slice(0, 30)}; EXPLAIN ${r.explain && r.explain.slice(0, 70)} (${ex.latency_ms} ms)`);
  save();
}

// ---- games
const strategies = String(args.strategy || 'greedy,perfect').split(',');
for (let g = 0; g < +(args.games || 0); g++) {
  const strategy = strategies[g % strategies.length];
  const game = { index: g, strategy, moves: [] };
  report.games.push(game);
  const from = events().length;
  s.press('done'); s.runFor(1700); s.release('done');
  s.runUntil(() => events().slice(from).some((e) => e.event === 'new_game'), 3000);
  const ng = events().slice(from).find((e) => e.event === 'new_game');
  if (!ng) { note(`game ${g}: no new_game event after holding DONE`); break; }
  game.start = ng.position;
  note(`game ${g} (${strategy}): new_game ${JSON.stringify(ng.position)} first=${ng.first}`);
  s.runFor(300);
  for (let turn = 0; turn < 40; turn++) {
    const st = command('STATE').json;
    if (!st) { note('STATE failed'); break; }
    if (st.winner || st.state === 'over' || st.state === 'attract') break;
    if (st.turn !== 'visitor' || st.state !== 'visitor') { s.runFor(200); continue; }
    const pos = st.position;
    let after = null;
    if (strategy === 'perfect') {
      const ex = command('EXPLAIN');
      after = ex.json && ex.json.after;
      if (!after) note('EXPLAIN -> ' + ex.reply);
    }
    if (!after) { const r = pos.indexOf(Math.max(...pos)); after = pos.slice(); after[r] -= 1; }
    const row = pos.findIndex((x, i) => x !== after[i]);
    const take = pos[row] - after[row];
    const evFrom = events().length;
    for (let k = 0; k < take; k++) { s.tap('key' + MAP[row][pos[row] - 1 - k], 80); s.runFor(200); }
    s.tap('done', 80);
    s.runUntil(() => events().slice(evFrom).some((e) => (e.event === 'move' && e.by === 'machine') || e.event === 'game_over' ||
      e.event === 'refused'), 15000);
    const evs = events().slice(evFrom);
    const refused = evs.find((e) => e.event === 'refused');
    const mm = evs.find((e) => e.event === 'move' && e.by === 'machine');
    game.moves.push({ before: pos, visitor: after, machine: mm ? mm.after : null, refused: refused ? refused.reason : null });
    note(`visitor ${JSON.stringify(pos)} -> ${JSON.stringify(after)}; machine -> ${mm ? JSON.stringify(mm.after) : '-'}${refused ? ' REFUSED ' + refused.reason : ''}`);
    if (refused) break;
    s.runFor(400);
  }
  // after this game's new_game: holding DONE first ends a game in play ("abandoned")
  const mine = () => { const ev = events().slice(from); return ev.slice(ev.findIndex((e) => e.event === 'new_game')); };
  s.runUntil(() => mine().some((e) => e.event === 'game_over'), 5000);
  game.game_over = mine().find((e) => e.event === 'game_over') || null;
  note(`game ${g} over: ${JSON.stringify(game.game_over)}`);
  s.runFor(1000);
  save();
}
note(`done: ${s.ms.toFixed(0)} ms emulated in ${((Date.now() - wall0) / 1000).toFixed(0)} s wall`);
