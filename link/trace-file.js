'use strict'

// A link spec's trace=FILE (link/spec.js): a mahimahi packet-delivery trace,
// read and checked here, so the forwarder (link/forwarder/) gets only a file
// it can replay, and the link's description its mean rate.

const fs = require('node:fs')
const path = require('node:path')
const { fail } = require('./spec-error')

// mahimahi's PACKET_SIZE (its default maximum TUN payload): each trace line
// is one chance to deliver up to 1504 bytes.
const TRACE_OPPORTUNITY_BYTES = 1504

// A mahimahi packet-delivery trace: one integer millisecond per line, never
// decreasing; it repeats with the last timestamp as its period. Blank lines
// (whitespace only, too) are skipped and numbers may be padded with spaces;
// the forwarder's own reader only skips empty lines.
function parseTrace (key, raw, cwd) {
  const file = path.resolve(cwd, raw)
  const name = file === raw ? raw : `${raw} (${file})`
  // The forwarder's control line is space-separated KEY=VALUE; a comma could
  // not have reached here (it separates items).
  if (/[\s=]/.test(file)) fail(key, `trace path must not contain spaces or "=": ${JSON.stringify(file)}; move or link the file elsewhere`)
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    const why = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a directory' }[err.code] || err.message
    fail(key, `cannot read trace ${name}: ${why}; give a readable mahimahi trace file (one integer ms per line)`)
  }
  let opportunities = 0
  let last = null
  let lastLine = 0
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim()
    if (line === '') continue
    if (!/^\d+$/.test(line) || !Number.isSafeInteger(Number(line))) {
      fail(key, `trace ${name} line ${i + 1} is not an integer; each line is a delivery time in whole milliseconds ≥ 0`)
    }
    const ms = Number(line)
    if (last !== null && ms < last) {
      fail(key, `trace ${name} line ${i + 1}: ${ms} is less than ${last} on line ${lastLine}; timestamps must not decrease`)
    }
    opportunities++
    last = ms
    lastLine = i + 1
  }
  if (!opportunities) fail(key, `trace ${name} is empty; a mahimahi trace has one integer millisecond per line`)
  if (last === 0) fail(key, `trace ${name}: its last timestamp (the period it repeats with) is 0; it must be > 0 ms`)
  return {
    path: file,
    opportunities,
    periodMs: last,
    meanBitsPerSecond: Math.round(opportunities * TRACE_OPPORTUNITY_BYTES * 8 / last * 1000)
  }
}

module.exports = { parseTrace }
