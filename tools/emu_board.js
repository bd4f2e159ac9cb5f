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
dog.writeUint32 = (offset, value) => { if (offset === 0x04) { feeds.push(s.ms); endPass(); } write(offset, value); };

// --symbols FILE ({"name": address} from the firmware's ELF): time inside each of those
// functions, per main-loop pass (outermost call, children included: a collection that an
// allocation starts counts in both). An instruction hook: the emulator runs slower with it.
const allocs = []; // --symbols: every gc_alloc request of 256 bytes or more, { n: bytes, t: emulated ms }
const passes = new Map(); // feed time that ended a pass -> { name: [calls, ms] } (passes over 20 ms)
let pass = {};
let passStart = 0;
// With the firmware's whole symbol table ("_table": [[address, name], ...] sorted), every
// SAMPLE_EVERY-th instruction's address is kept too, and a pass over 40 ms says where its
// time went by function (the C functions of the interpreter: "~mp_execute_bytecode" is Python).
const SAMPLE_EVERY = 37;
const SAMPLED_MS = +(args['profile-ms'] || 40); // passes longer than this say where their time went
let samples = [];
let table = null;
function where(pc) { // the function holding `pc` (binary search in the sorted table)
  let lo = 0, hi = table.length - 1;
  if (pc < table[0][0]) return '?';
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (table[mid][0] <= pc) lo = mid; else hi = mid - 1; }
  return table[lo][1];
}
function endPass() {
  const now = s.ms;
  const ms = now - passStart;
  if (table && ms > SAMPLED_MS && samples.length) {
    const by = new Map();
    for (const pc of samples) { const f = where(pc); by.set(f, (by.get(f) || 0) + 1); }
    for (const [f, n] of [...by.entries()].sort((x, y) => y[1] - x[1]).slice(0, 10)) pass['~' + f] = [n, ms * n / samples.length];
  }
  samples = [];
  if (ms > Math.min(20, SAMPLED_MS) && Object.keys(pass).length) passes.set(+now.toFixed(3), pass);
  pass = {};
  passStart = now;
}
if (args.symbols) {
  const syms = JSON.parse(require('fs').readFileSync(args.symbols, 'utf8'));
  table = syms._table || null;
  delete syms._table;
  let count = 0;
  const at = new Map(Object.entries(syms).map(([n, a]) => [a & ~1, n]));
  const core = s.b.mcu.core;
  const frames = []; // { name, ret, sp, t0 }
  const open = new Set();
  const close = (f) => {
    open.delete(f.name);
    const e = pass[f.name] || (pass[f.name] = [0, 0]);
    e[0]++;
    e[1] += s.ms - Math.max(f.t0, passStart);
  };
  const exec = core.executeInstruction.bind(core);
  core.executeInstruction = () => {
    const pc = core.PC;
    const sp = core.SP;
    if (table && ++count === SAMPLE_EVERY) { count = 0; samples.push(pc); }
    while (frames.length) { // returned (at its return address, stack as on entry) or unwound past (nlr)
      const f = frames[frames.length - 1];
      if (sp > f.sp || (pc === f.ret && sp === f.sp)) { frames.pop(); close(f); } else break;
    }
    const name = at.get(pc);
    if (name !== undefined && !open.has(name)) {
      open.add(name);
      frames.push({ name, ret: core.LR & ~1, sp, t0: s.ms });
      if (name === 'gc_alloc') { // its first argument (r0): the bytes asked for
        const n = core.registers[0] >>> 0;
        if (n >= 256) {
          allocs.push({ n, t: +s.ms.toFixed(1) });
          if (allocs.length > 200000) allocs.splice(0, 100000);
        }
      }
      if (name === 'gc_collect') { // who asked: its caller's address (the Python builtin, an allocation, ...)
        const k = 'gc_collect from 0x' + ((core.LR & ~1) >>> 0).toString(16);
        pass[k] = pass[k] || [0, 0];
        pass[k][0]++;
      }
    }
    return exec();
  };
}
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
// A board's own status LED (the MacroPad's red LED: lit while it is the visitor's turn) is a
// lamp too: DONE in the selection's dark half changes no key's pixel, only that LED.
const leds = []; // { t, on }: every change of the status LED's output
if (s.pinmap && s.pinmap.status_led) {
  const { gpio } = require(path.join(tool, 'session.js'));
  const g = s.b.mcu.gpio[gpio(s.pinmap.status_led)];
  let level = null;
  g.addListener(() => {
    const on = g.outputEnable ? g.outputValue : null;
    if (on === level) return;
    level = on;
    leds.push({ t: s.ms, on });
    if (leds.length > 20000) leds.splice(0, 10000);
  });
}
function firstChange(since, until) { // ms from `since` to the first change of a lamp: a pixel or the status LED
  const base = frameAt(since);
  let first = null;
  for (const fr of s.frames) {
    if (fr.t > since && fr.t <= until && (!base || !same(base, fr))) { first = fr.t; break; }
  }
  for (const e of leds) {
    if (e.t > since && e.t <= until) { if (first === null || e.t < first) first = e.t; break; }
  }
  return first === null ? null : +(first - since).toFixed(2);
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
    const consoleAt = s.console.length;
    const { reply, t0, latency_ms } = command(s, line, timeout);
    return { reply, latency_ms, t: t0, events: events(newLines()), now: s.ms, console_at: consoleAt };
  },
  back({ t0, console_at, timeout = 90000 }) { // a board that said it restarts (a SET's "restart": supervisor.reload),
    // from the command sent at t0: run until its boot event; when code.py began again, its first lit lamp then
    let again = null;
    s.runUntil(() => {
      const out = s.console.slice(console_at);
      if (again === null && /code\.py output:/.test(out)) again = s.ms;
      return /\{[^\n{]*"event": "boot"[^\n]*\}\r?\n/.test(out);
    }, timeout);
    const out = s.console.slice(console_at);
    const m = out.match(/\{[^\n{]*"event": "boot"[^\n]*\}/);
    const first = again === null ? null : s.frames.find((fr) => fr.t >= again && lit(fr));
    const fed = feeds.length; // the start's own passes are no ticks, as at power-on
    s.runUntil(() => feeds.length > fed, 5000);
    started = feeds.length;
    dataSeen = s.data.length;
    return { boot: m ? JSON.parse(m[0]) : null, again_ms: again === null ? null : +(again - t0).toFixed(1),
      first_lit_ms: first ? +(first.t - t0).toFixed(1) : null, boot_ms: +(s.ms - t0).toFixed(1),
      console: out.slice(-600), now: s.ms };
  },
  tap({ name, hold = 80, gap = 250, on_release = false }) { // on_release: a button that acts when let go
    const t0 = s.ms;
    s.press(name);
    s.runFor(hold);
    const up = s.ms;
    s.release(name);
    s.runFor(gap);
    const from = on_release ? up : t0;
    return { lamp_ms: firstChange(from, s.ms), t: t0, events: events(newLines()),
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
    const out = { longest_ms: +worst.toFixed(2), at, passes: n, now: s.ms };
    if (args.symbols) { // each pass over 20 ms since `since`: its length and the time in each function
      out.profile = [];
      for (let i = 1; i < feeds.length; i++) {
        if (feeds[i] <= since || i < started || feeds[i] - feeds[i - 1] <= Math.min(20, SAMPLED_MS)) continue;
        const p = passes.get(+feeds[i].toFixed(3)) || {};
        const fns = {};
        for (const [k, v] of Object.entries(p)) fns[k] = [v[0], +v[1].toFixed(2)];
        out.profile.push({ at: +feeds[i - 1].toFixed(1), ms: +(feeds[i] - feeds[i - 1]).toFixed(2), fns });
      }
      if (passes.size > 5000) for (const k of [...passes.keys()].slice(0, 2500)) passes.delete(k);
    }
    return out;
  },
  nvm({ hex }) { // microcontroller.nvm's sector as an earlier life left it (before boot)
    const { NVM_OFFSET } = require(path.join(tool, 'emu.js'));
    s.b.mcu.flash.set(Buffer.from(hex, 'hex'), NVM_OFFSET);
    return { now: s.ms };
  },
  nvm_read() { // microcontroller.nvm's sector as the board has written it (the soak reads its records back)
    const { NVM_OFFSET } = require(path.join(tool, 'emu.js'));
    return { hex: Buffer.from(s.b.mcu.flash.subarray(NVM_OFFSET, NVM_OFFSET + 4096)).toString('hex'), now: s.ms };
  },
  allocs({ since = 0, skip = [] }) { // with --symbols: the largest gc_alloc asked for after `since` (emulated
    // ms), leaving out those inside the `skip` spans ([from, to]: the instrument's own, MEMORY's search)
    const big = allocs.filter((a) => a.t >= since && !skip.some(([f, t]) => a.t >= f && a.t <= t))
      .sort((x, y) => y.n - x.n)[0] || null;
    return { largest: big, now: s.ms };
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
    return { now: s.ms,  watchdog_fired: s.b.watchdogFired, console: s.console.slice(-600),
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
