'use strict';
// SPDX-FileCopyrightText: 2026 The Nimatron project contributors
//
// SPDX-License-Identifier: MIT
//
// One host-link command on an emulated board (the shared circuitpython-emu tool's Session):
// send the line on the data port, run the board until its OK or ERR line. Shared by
// tools/emu_board.js and tools/emu_firmware.js.
function command(s, line, timeoutMs) {
  const from = s.data.length;
  const t0 = s.ms;
  s.sendData(line + '\n');
  let reply = null;
  s.runUntil(() => {
    const lines = s.data.slice(from).split('\n');
    lines.pop(); // an incomplete tail
    reply = lines.find((l) => l.startsWith('OK') || l.startsWith('ERR'));
    return !!reply;
  }, timeoutMs);
  return { reply, t0, latency_ms: reply ? +(s.ms - t0).toFixed(2) : null };
}

module.exports = { command };
