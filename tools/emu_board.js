'use strict';
// SPDX-FileCopyrightText: 2026 The Nimatron project contributors
//
// SPDX-License-Identifier: MIT
//
// The emulated board for tools/emu_board.py: real CircuitPython in rp2040js (the shared
// circuitpython-emu tool's Session), driven by one JSON object per line on stdin, one JSON
// answer per line on stdout. Emulated time only moves when asked to.
//
//   node emu_board.js --uf2 FW.uf2 --img DRIVE.img --pinmap PINMAP.json
//
// Every main-loop pass of the stock code.py feeds the watchdog: the time between two
// feeds is a tick, measured here from the watchdog's LOAD register, so the firmware
// carries no instrument of its own.
const path = require('path');
const readline = require('readline');

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a.startsWith('--')) args[a.slice(2)] = process.argv[++i];
}
const tool = process.env.CP_EMU_TOOL || path.join(__dirname, '..', '..', 'shared', 'tools', 'circuitpython-emu');
const { Session } = require(path.join(tool, 'session.js'));
const { command } = require('./emu_reply');

const s = new Session({ uf2: args.uf2, fsImage: args.img, pinmap: args.pinmap, echo: false });

// The shared flash model answers "never busy": a real Pico's flash (Winbond W25Q16JV) is busy
// for tSE 45 ms typical, 400 ms at most, per 4 KB sector erase and tPP 0.4 ms, 3 ms at most,
// per page program (its datasheet's AC table). With --flash typ|max the status register's
// BUSY bit stays set that long in emulated time, so the bootrom's wait loop (interrupts off
// for an nvm write) stops the board as the real chip does and the tick shows it.
const FLASH_NS = { typ: { erase: 45e6, program: 0.4e6 }, max: { erase: 400e6, program: 3e6 }, off: null }[args.flash || 'typ'];
if (FLASH_NS === undefined) throw new Error('--flash typ|max|off');
if (FLASH_NS) {
  const fm = s.b.flashModel;
  let busyUntil = 0;
  const respond = fm.respond.bind(fm);
  fm.respond = (byte) => {
    const v = respond(byte);
    if (fm.txn && fm.txn[0] === 0x05 && fm.txn.length > 1 && fm.mcu.clock.nanos < busyUntil) return v | 1;
    return v;
  };
  const csHigh = fm.csHigh.bind(fm);
  fm.csHigh = () => {
    const before = fm.log.length;
    csHigh();
    for (const o of fm.log.slice(before)) busyUntil = fm.mcu.clock.nanos + (o.op === 'erase' ? FLASH_NS.erase : FLASH_NS.program);
  };
}
const feeds = [];
const dog = s.b.mcu.peripherals[0x40058];
const write = dog.writeUint32.bind(dog);
dog.writeUint32 = (offset, value) => { if (offset === 0x04) feeds.push(s.ms); write(offset, value); };
let dataSeen = 0;
let started = 0; // feeds before the main loop's first pass (boot)

// two pixels or more on a board whose lamps share CircuitPython's status pixel (the MacroPad's chain)
const LEAST_LIT = s.pinmap && s.pinmap.keys ? 2 : 1;
function lit(frame) { return !!frame && frame.px.filter((p) => p.some((x) => x)).length >= LEAST_LIT; }
function same(a, b) { return JSON.stringify(a.px) === JSON.stringify(b.px); }
function frameAt(t) { let f = null; for (const fr of s.frames) { if (fr.t <= t) f = fr; else break; } return f; }
function newLines() { // complete lines on the data port since the last call
  const end = s.data.lastIndexOf('\n') + 1;
  const lines = s.data.slice(dataSeen, end).split('\n').filter((l) => l.length);
  dataSeen = Math.max(dataSeen, end);
  return lines;
}
function events(lines) {
  const out = [];
  for (const l of lines) if (l.startsWith('EV ')) { try { out.push(JSON.parse(l.slice(3))); } catch (e) { out.push({ bad: l }); } }
  return out;
}
function firstChange(since, until) { // ms from `since` to the first frame unlike the one shown at `since`
  const base = frameAt(since);
  for (const fr of s.frames) if (fr.t > since && fr.t <= until && (!base || !same(base, fr))) return +(fr.t - since).toFixed(2);
  return null;
}

const ops = {
  boot({ timeout = 60000 }) {
    s.runUntil(() => s.connectedAt !== null, 15000);
    const start = s.data.length;
    s.runUntil(() => /\{[^\n{]*"event": "boot"[^\n]*\}\r?\n/.test(s.console) || /Traceback|Code done running/.test(s.console)
      || (s.frames.some(lit) && s.ms > 12000), timeout);
    s.runUntil(() => s.frames.some(lit), 5000);
    const first = s.frames.find(lit);
    const m = s.console.match(/\{[^\n{]*"event": "boot"[^\n]*\}/);
    dataSeen = start;
    // the start's own pass (the Machine built, the boot event said) is the first lamp's figure,
    // not a tick: the first pass of the main loop runs once it has fed the watchdog again
    const fed = feeds.length;
    s.runUntil(() => feeds.length > fed, 5000);
    started = feeds.length;
    return { first_lit_ms: first ? +first.t.toFixed(1) : null, boot: m ? JSON.parse(m[0]) : null,
      console: s.console.slice(-1500), now: s.ms };
  },
  run({ ms }) { s.runFor(ms); return { now: s.ms }; },
  cmd({ line, timeout = 10000 }) {
    const { reply, t0, latency_ms } = command(s, line, timeout);
    return { reply, latency_ms, t: t0, events: events(newLines()), now: s.ms };
  },
  tap({ name, hold = 80, gap = 250, on_release = false }) { // on_release: a button that acts when let go
    const t0 = s.ms;
    s.press(name);
    s.runFor(hold);
    const up = s.ms;
    s.release(name);
    s.runFor(gap);
    return { lamp_ms: on_release ? firstChange(up, s.ms) : firstChange(t0, s.ms), t: t0, events: events(newLines()),
      now: s.ms };
  },
  press({ name }) { s.press(name); return { now: s.ms }; },
  release({ name }) { s.release(name); return { now: s.ms }; },
  poll() { return { events: events(newLines()), now: s.ms }; },
  frame() { const f = s.lastFrame(); return { t: f ? f.t : null, px: f ? f.px : null, now: s.ms }; },
  ticks({ since = 0 }) { // the longest gap between watchdog feeds ending after `since` (the pass
    // already running when a command was sent is the one that may handle it)
    let worst = 0, at = null, n = 0;
    for (let i = 1; i < feeds.length; i++) {
      if (feeds[i] <= since || i < started) continue;
      n++;
      const gap = feeds[i] - feeds[i - 1];
      if (gap > worst) { worst = gap; at = feeds[i - 1]; }
    }
    if (feeds.length > 200000) feeds.splice(0, 100000);
    return { longest_ms: +worst.toFixed(2), at, passes: n, now: s.ms };
  },
  nvm({ hex }) { // microcontroller.nvm's sector as an earlier life left it (before boot)
    const { NVM_OFFSET } = require(path.join(tool, 'emu.js'));
    s.b.mcu.flash.set(Buffer.from(hex, 'hex'), NVM_OFFSET);
    return { now: s.ms };
  },
  erases() { // every sector erase since boot, with the tick (gap between feeds) it fell in
    const out = [];
    for (const o of s.flashOps) {
      if (o.op !== 'erase') continue;
      let tick = null;
      for (let i = 1; i < feeds.length; i++) if (feeds[i - 1] <= o.t && o.t <= feeds[i]) { tick = feeds[i] - feeds[i - 1]; break; }
      out.push({ t: +o.t.toFixed(1), addr: o.addr, tick_ms: tick === null ? null : +tick.toFixed(2) });
    }
    return { erases: out, now: s.ms };
  },
  drive({ file }) { // CIRCUITPY as the board left it, a FAT image (what CircuitPython wrote, boot_out.txt)
    const { FS_OFFSET } = require(path.join(tool, 'emu.js'));
    require('fs').writeFileSync(file, s.b.mcu.flash.subarray(FS_OFFSET, FS_OFFSET + 0x100000));
    return { now: s.ms };
  },
  console({ tail = 600 }) { return { console: s.console.slice(-tail), now: s.ms }; },
  status() {
    return { now: s.ms, watchdog_fired: s.b.watchdogFired, console: s.console.slice(-600),
      erases: s.flashOps.filter((o) => o.op === 'erase').length };
  },
};

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let out;
  try {
    const req = JSON.parse(line);
    if (req.op === 'quit') { process.stdout.write('{"bye": true}\n'); process.exit(0); }
    out = ops[req.op](req);
  } catch (e) {
    out = { error: String(e && e.stack || e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
