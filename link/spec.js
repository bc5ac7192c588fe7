'use strict'

// Link specs: what a user types for the packet-level link (the forwarder in
// link/forwarder/ between the client's network namespace and the servers),
// turned into a validated, normalised description of both directions.
// "up" is client → server, "down" is server → client.
//
//   SPEC  := PRESET | ITEM {, ITEM} | PRESET {, ITEM}
//   ITEM  := KEY=VALUE, KEY is rtt | up | down | NAME | NAME.up | NAME.down
//            with NAME one of delay jitter queue loss dup corrupt reorder trace
//
// A NAME without suffix sets both directions; within one layer (the preset's
// items, then the user's) NAME.up / NAME.down wins over NAME, whatever the
// order, and the user's items win over the preset's. The same setting twice in
// one layer is an error (rtt and delay count as the same setting).

const fs = require('node:fs')
const path = require('node:path')
const { InputError } = require('../common/errors')
const { LINK_PRESETS, presetByName } = require('./presets')

class LinkSpecError extends InputError {
  constructor (message, { param = null } = {}) {
    super(message, { param, code: 'H2B_BAD_LINK' })
    this.name = 'LinkSpecError'
  }
}

const DIRECTIONS = ['up', 'down']
const MAX_DELAY_US = 60e6 // one way; an RTT may be twice that
const MAX_RATE_BPS = 100e9
const MTU_BYTES = 1500
// Default droptail limit: 1000 packets, netem's default `limit` and Linux's
// default txqueuelen, so a rate here queues as a netem user expects. Only a
// rate or a trace builds a queue; without one the limit is unused.
const DEFAULT_QUEUE_PACKETS = 1000
// mahimahi's PACKET_SIZE (its default maximum TUN payload): each trace line
// is one chance to deliver up to 1504 bytes.
const TRACE_OPPORTUNITY_BYTES = 1504

// Units. Rates are bits per second with SI (×1000) or binary (×1024)
// prefixes; a "b" alone (kbps, MB/s) could be bits or bytes, so it is refused.
const TIME_UNITS = { us: 1, µs: 1, ms: 1e3, s: 1e6 }
const RATE_UNITS = { bit: 1, kbit: 1e3, mbit: 1e6, gbit: 1e9, kibit: 1024, mibit: 1024 ** 2, gibit: 1024 ** 3 }
const QUEUE_BYTE_UNITS = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2 }
const RATE_HELP = 'units: bit, kbit, mbit, gbit (×1000), kibit, mibit, gibit (×1024), "/s" optional; or unlimited'
const QUEUE_HELP = 'allowed: a packet count (100, 100p, 100packets), bytes ≥ 1500 (B, KB = 1000 B, KiB, MB, MiB), or unlimited'
const PERCENT_HELP = 'allowed: 0…100 %'

const DIRECTIONAL = ['delay', 'jitter', 'queue', 'loss', 'dup', 'corrupt', 'reorder', 'trace']
const KNOWN_KEYS = ['rtt', 'down', 'up', ...DIRECTIONAL.flatMap(k => [k, `${k}.up`, `${k}.down`])]
const KEYS_HELP = `known keys: rtt, delay, jitter, down, up, queue, loss, dup, corrupt, reorder, trace (all but rtt, down and up also as KEY.up / KEY.down)`

const fail = (param, message) => { throw new LinkSpecError(param ? `${param}: ${message}` : message, { param }) }
const num = x => String(Number(x.toPrecision(6)))

// "12.5ms" → { n: 12.5, unit: 'ms' }; null when it does not start with a number.
function splitNumber (key, raw, allowed) {
  const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)\s*(.*)$/.exec(raw)
  if (!m) return null
  if (m[1] === '-') fail(key, `"${raw}" is negative; ${allowed}`)
  return { n: Number(m[2]), unit: m[3] }
}

function parseTime (key, raw, maxUs) {
  const allowed = `allowed: 0…${num(maxUs / 1e6)} s, with a unit: us, ms or s`
  const v = splitNumber(key, raw, allowed)
  if (!v) fail(key, `"${raw}" is not a time; ${allowed}`)
  if (v.unit === '') fail(key, `"${raw}" has no unit; write ${raw}ms (units: us, ms, s)`)
  const mult = TIME_UNITS[v.unit.toLowerCase()]
  if (!mult) fail(key, `unknown time unit "${v.unit}" in "${raw}"; ${allowed}`)
  const us = Math.round(v.n * mult)
  if (us > maxUs) fail(key, `${raw} is above ${num(maxUs / 1e6)} s; ${allowed}`)
  return us
}

function parseRate (key, raw) {
  if (raw.toLowerCase() === 'unlimited') return null
  const v = splitNumber(key, raw, `allowed: more than 0 up to 100 gbit/s; ${RATE_HELP}`)
  if (!v) fail(key, `"${raw}" is not a rate; ${RATE_HELP}`)
  if (v.unit === '') fail(key, `"${raw}" has no unit; write e.g. ${raw}kbit (${RATE_HELP})`)
  const unit = v.unit.toLowerCase().replace(/\/s$/, '')
  const ambiguous = /^(k|m|g|ki|mi|gi)?(b|bps|bytes?)$/.exec(unit)
  if (ambiguous) {
    const prefix = ambiguous[1] || ''
    fail(key, `"${raw}" is ambiguous (bits or bytes per second?); write ${prefix}bit: ${v.n}${prefix}bit for ${v.n} ${prefix}bit/s, or ${num(v.n * 8)}${prefix}bit if you meant ${v.n} ${prefix}bytes/s`)
  }
  const mult = RATE_UNITS[unit]
  if (!mult) fail(key, `unknown rate unit "${v.unit}" in "${raw}"; ${RATE_HELP}`)
  const bps = Math.round(v.n * mult)
  if (v.n === 0) fail(key, `a rate of 0 delivers nothing; allowed: more than 0 up to 100 gbit/s, or unlimited for no limit`)
  if (bps < 1) fail(key, `${raw} is below 1 bit/s; allowed: 1 bit/s … 100 gbit/s, or unlimited`)
  if (bps > MAX_RATE_BPS) fail(key, `${raw} is above 100 gbit/s; allowed: 1 bit/s … 100 gbit/s, or unlimited`)
  return bps
}

function parseQueue (key, raw) {
  if (raw.toLowerCase() === 'unlimited') return null
  const v = splitNumber(key, raw, QUEUE_HELP)
  if (!v) fail(key, `"${raw}" is not a queue limit; ${QUEUE_HELP}`)
  const unit = v.unit.toLowerCase()
  if (unit === '' || unit === 'p' || unit === 'packet' || unit === 'packets') {
    if (!Number.isInteger(v.n) || v.n < 1) fail(key, `${raw} is not a whole number of packets ≥ 1; ${QUEUE_HELP}`)
    if (!Number.isSafeInteger(v.n)) fail(key, `${raw} is too large; ${QUEUE_HELP}`)
    return { packets: v.n }
  }
  const mult = QUEUE_BYTE_UNITS[unit]
  if (!mult) fail(key, `unknown queue unit "${v.unit}" in "${raw}"; ${QUEUE_HELP}`)
  const bytes = Math.round(v.n * mult)
  if (Math.abs(bytes - v.n * mult) > 1e-6) fail(key, `${raw} is not a whole number of bytes; ${QUEUE_HELP}`)
  // Fewer bytes than one full packet would drop every full-size packet.
  if (bytes < MTU_BYTES) fail(key, `${raw} = ${bytes} bytes cannot hold one full packet (${MTU_BYTES} bytes); ${QUEUE_HELP}`)
  if (!Number.isSafeInteger(bytes)) fail(key, `${raw} is too large; ${QUEUE_HELP}`)
  return { bytes }
}

// "1%", "1" and "0.5 %" are percentages; stored as a fraction 0…1.
function parsePercent (key, raw) {
  const v = splitNumber(key, raw, PERCENT_HELP)
  if (!v || (v.unit !== '' && v.unit !== '%')) fail(key, `"${raw}" is not a percentage; ${PERCENT_HELP} (e.g. 1% or 0.5%)`)
  if (v.n > 100) fail(key, `${v.n}% is above 100%; ${PERCENT_HELP}`)
  return Number((v.n / 100).toPrecision(15))
}

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

// Distance between two short strings, for "did you mean".
function editDistance (a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = row
  }
  return prev[b.length]
}

function unknownKey (key) {
  const base = key.split('.')[0]
  if (['rate', 'bw', 'bandwidth', 'throughput'].includes(base)) {
    fail(key, `unknown key "${key}": a direction's rate is down=<rate> (server → client) and up=<rate> (client → server)`)
  }
  const close = KNOWN_KEYS.filter(k => editDistance(k, key) <= 2).sort((a, b) => editDistance(a, key) - editDistance(b, key))
  const hint = close.length ? `did you mean "${close[0]}"? ` : ''
  fail(key, `unknown key "${key}"; ${hint}${KEYS_HELP}`)
}

// One KEY=VALUE item → { key, raw, param, scope, value, from }.
function parseItem (item, cwd, from) {
  const eq = item.indexOf('=')
  if (eq < 0) {
    fail(null, `"${item}" is not KEY=VALUE${from ? '' : ' (a preset name can only come first)'}; ${KEYS_HELP}`)
  }
  const key = item.slice(0, eq).trim().toLowerCase()
  const raw = item.slice(eq + 1).trim()
  if (!key) fail(null, `"${item}" has no key before "="; ${KEYS_HELP}`)
  const [base, dir, ...rest] = key.split('.')
  if (rest.length) unknownKey(key)
  if (raw === '') fail(key, `empty value; write ${key}=VALUE`)
  const out = { key, raw, from }
  if (base === 'rtt') {
    if (dir !== undefined) fail(key, `an RTT covers both directions; for one direction write delay.${DIRECTIONS.includes(dir) ? dir : 'up'}=<one-way delay>`)
    return { ...out, param: 'delay', scope: 'both', value: Math.round(parseTime(key, raw, 2 * MAX_DELAY_US) / 2) }
  }
  if (base === 'up' || base === 'down') {
    if (dir !== undefined) unknownKey(key)
    return { ...out, param: 'rate', scope: base, value: parseRate(key, raw) }
  }
  if (!DIRECTIONAL.includes(base)) unknownKey(key)
  if (dir !== undefined && !DIRECTIONS.includes(dir)) fail(key, `unknown direction "${dir}"; write ${base}.up (client → server) or ${base}.down (server → client)`)
  const scope = dir || 'both'
  let value
  if (base === 'delay' || base === 'jitter') value = parseTime(key, raw, MAX_DELAY_US)
  else if (base === 'queue') value = parseQueue(key, raw)
  else if (base === 'trace') value = parseTrace(key, raw, cwd)
  else value = parsePercent(key, raw)
  return { ...out, param: base, scope, value }
}

// Items of one layer (a preset's, or the user's) by "param:scope".
function layer (items) {
  const byParam = new Map()
  for (const item of items) {
    const slot = `${item.param}:${item.scope}`
    const before = byParam.get(slot)
    if (before) {
      const what = before.key === item.key
        ? `duplicate key "${item.key}" (${before.key}=${before.raw} and ${item.key}=${item.raw})`
        : `${before.key}=${before.raw} and ${item.key}=${item.raw} both set the ${item.param} of ${item.scope === 'both' ? 'both directions' : item.scope}`
      fail(item.key, `${what}; give each key once`)
    }
    byParam.set(slot, item)
  }
  for (const dir of DIRECTIONS) {
    const rate = byParam.get(`rate:${dir}`)
    const trace = byParam.get(`trace:${dir}`) || byParam.get('trace:both')
    if (rate && trace) fail(trace.key, `the ${dir} direction cannot have both a trace and a rate (${rate.key}=${rate.raw}); the trace is its rate, drop one`)
  }
  return byParam
}

// The item that decides `param` in `dir`: the user's over the preset's, and
// in each a NAME.dir item over a NAME item.
function pick (layers, param, dir) {
  for (const l of layers) {
    const item = l.get(`${param}:${dir}`) || l.get(`${param}:both`)
    if (item) return item
  }
  return null
}

// An error about an item that may come from the preset: say so.
const failItem = (item, message) => {
  throw new LinkSpecError(`${item.key}${item.from ? ` (from preset "${item.from}")` : ''}: ${message}`, { param: item.key })
}

function resolveDirection (layers, dir) {
  const value = (param, fallback) => { const it = pick(layers, param, dir); return it ? it.value : fallback }
  const out = {
    delayUs: value('delay', 0),
    jitterUs: value('jitter', 0),
    rateBps: null,
    trace: null,
    queue: value('queue', { packets: DEFAULT_QUEUE_PACKETS }),
    loss: value('loss', 0),
    dup: value('dup', 0),
    corrupt: value('corrupt', 0),
    reorder: value('reorder', 0)
  }
  // The bottleneck (rate or trace) of the highest layer that sets one.
  for (const l of layers) {
    const rate = l.get(`rate:${dir}`)
    const trace = l.get(`trace:${dir}`) || l.get('trace:both')
    if (rate) { out.rateBps = rate.value; break }
    if (trace) { out.trace = trace.value; break }
  }
  const delay = pick(layers, 'delay', dir)
  const delayText = `the ${dir} delay of ${fmtTime(out.delayUs)}${delay ? ` (${delay.key}=${delay.raw})` : ' (none set)'}`
  if (out.jitterUs > out.delayUs) {
    failItem(pick(layers, 'jitter', dir), `jitter ${fmtTime(out.jitterUs)} is above ${delayText}; allowed: 0…${fmtTime(out.delayUs)} (the jitter is ± around the delay)`)
  }
  // netem's reorder: a reordered packet is sent without the delay, so it
  // overtakes the packets in flight; with no delay there is nothing to overtake.
  if (out.reorder > 0 && out.delayUs === 0) {
    failItem(pick(layers, 'reorder', dir), `reordering needs a delay > 0 in the ${dir} direction (a reordered packet skips the delay to overtake the packets in flight), and its delay is 0 ms; add delay.${dir}=… or rtt=…`)
  }
  return out
}

// `traces: false` for specs from the page (POST /link): a trace is a file on
// the server, named on the command line only, never read for a web client.
function parseLinkSpec (text, { cwd = process.cwd(), traces = true } = {}) {
  if (typeof text !== 'string') fail(null, `a link spec must be a string, got ${typeof text}`)
  const trimmed = text.trim()
  const presets = `presets: ${LINK_PRESETS.map(p => p.slug).join(', ')}`
  if (!trimmed) fail(null, `empty link spec; give a preset name or KEY=VALUE items (${presets})`)
  const parts = trimmed.split(',').map(s => s.trim())
  const empty = parts.findIndex(s => s === '')
  if (empty >= 0) fail(null, `empty item ${empty + 1} in "${trimmed}"; items are separated by single commas`)
  let preset = null
  if (!parts[0].includes('=')) {
    preset = presetByName(parts[0])
    if (!preset && KNOWN_KEYS.includes(parts[0].toLowerCase())) fail(parts[0], `"${parts[0]}" is a key without a value; write ${parts[0]}=VALUE`)
    if (!preset) fail('preset', `unknown preset "${parts[0]}"; ${presets}; or give KEY=VALUE items`)
    parts.shift()
  }
  if (!traces) {
    const traced = parts.find(item => /^trace(\.(up|down))?\s*=/i.test(item))
    if (traced) fail(traced.split('=')[0].trim(), 'a trace file can only be given on the command line (h2bench-link, --link), not from the page')
  }
  const layers = [layer(parts.map(item => parseItem(item, cwd, null)))]
  if (preset) {
    const items = preset.spec ? preset.spec.split(',').map(item => parseItem(item.trim(), cwd, preset.name)) : []
    layers.push(layer(items))
  }
  const link = {
    name: preset ? preset.name : null,
    text: trimmed,
    description: '',
    up: resolveDirection(layers, 'up'),
    down: resolveDirection(layers, 'down')
  }
  link.description = describeLink(link)
  return link
}

// ---- human text -------------------------------------------------------------

function fmtTime (us) {
  if (us === 0) return '0 ms'
  if (us < 1000) return `${us} µs`
  return `${num(us / 1000)} ms`
}

function fmtRate (bps) {
  for (const [unit, mult] of [['Gbit/s', 1e9], ['Mbit/s', 1e6], ['kbit/s', 1e3]]) {
    if (bps >= mult) return `${Number((bps / mult).toPrecision(4))} ${unit}`
  }
  return `${bps} bit/s`
}

function fmtQueue (queue) {
  if (queue === null) return 'unlimited'
  if (queue.packets) return `${queue.packets} packet${queue.packets === 1 ? '' : 's'}`
  for (const [unit, mult] of [['MiB', 1024 ** 2], ['MB', 1e6], ['KiB', 1024], ['KB', 1e3]]) {
    if (queue.bytes % mult === 0) return `${queue.bytes / mult} ${unit}`
  }
  return `${queue.bytes} bytes`
}

const fmtPercent = fraction => `${num(fraction * 100)} %`
const hasBottleneck = d => d.rateBps !== null || d.trace !== null
const bottleneck = d => d.trace
  ? `trace ${path.basename(d.trace.path)} (${fmtRate(d.trace.meanBitsPerSecond)} mean)`
  : d.rateBps !== null ? fmtRate(d.rateBps) : 'unlimited'

// "X" when both directions say X, else "X down, Y up" over the directions
// where `shown` holds.
function perDirection (link, text, shown = () => true) {
  const down = text(link.down)
  const up = text(link.up)
  if (shown(link.down) && shown(link.up) && down === up) return down
  return [['down', link.down, down], ['up', link.up, up]].filter(([, d]) => shown(d)).map(([dir, , t]) => `${t} ${dir}`).join(', ')
}

function isUnimpaired (link) {
  return DIRECTIONS.every(dir => {
    const d = link[dir]
    return d.delayUs === 0 && d.jitterUs === 0 && !hasBottleneck(d) && d.loss === 0 && d.dup === 0 && d.corrupt === 0 && d.reorder === 0
  })
}

// "Regular 3G: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, queue 1000 packets"
function describeLink (link) {
  let prefix = ''
  if (link.name) {
    const overrides = link.text ? link.text.split(',').slice(1).map(s => s.trim()).join(', ') : ''
    prefix = `${link.name}${overrides ? ` with ${overrides}` : ''}: `
  }
  if (isUnimpaired(link)) return `${prefix}nothing emulated (no delay, rate limit or loss)`
  const parts = []
  const { up, down } = link
  if (!hasBottleneck(up) && !hasBottleneck(down)) parts.push('unlimited rate')
  else if (bottleneck(up) === bottleneck(down)) parts.push(`${bottleneck(down)} each way`)
  else parts.push(`${bottleneck(down)} down, ${bottleneck(up)} up`)
  if (up.delayUs === down.delayUs && up.jitterUs === down.jitterUs) {
    if (up.delayUs > 0) parts.push(`${fmtTime(2 * up.delayUs)} RTT${up.jitterUs ? ` (±${fmtTime(up.jitterUs)} jitter each way)` : ''}`)
  } else {
    parts.push(`delay ${perDirection(link, d => fmtTime(d.delayUs) + (d.jitterUs ? ` ±${fmtTime(d.jitterUs)}` : ''), d => d.delayUs > 0)}`)
  }
  if (hasBottleneck(up) || hasBottleneck(down)) parts.push(`queue ${perDirection(link, d => fmtQueue(d.queue), hasBottleneck)}`)
  for (const what of ['loss', 'dup', 'corrupt', 'reorder']) {
    if (up[what] > 0 || down[what] > 0) parts.push(`${what} ${perDirection(link, d => fmtPercent(d[what]), d => d[what] > 0)}`)
  }
  return prefix + parts.join(', ')
}

// ---- the forwarder's control lines ------------------------------------------

// One `set` line per direction for the forwarder's stdin (see the header of
// link/forwarder/forwarder.c): rate_bps=0 is no limit, queue_packets and
// queue_bytes both 0 an unlimited queue, fractions 0…1, trace=- none.
function forwarderCommands (link) {
  return DIRECTIONS.map(dir => {
    const d = link[dir]
    if (d.trace && /[\s=]/.test(d.trace.path)) {
      throw new LinkSpecError(`trace.${dir}: trace path must not contain spaces or "=": ${JSON.stringify(d.trace.path)}`, { param: `trace.${dir}` })
    }
    const q = d.queue || {}
    const fields = {
      delay_us: d.delayUs,
      jitter_us: d.jitterUs,
      rate_bps: d.rateBps || 0,
      queue_packets: q.packets || 0,
      queue_bytes: q.bytes || 0,
      loss: num(d.loss),
      dup: num(d.dup),
      corrupt: num(d.corrupt),
      reorder: num(d.reorder),
      trace: d.trace ? d.trace.path : '-'
    }
    return `set ${dir} ${Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(' ')}`
  })
}

module.exports = { parseLinkSpec, describeLink, forwarderCommands, isUnimpaired, LinkSpecError, KNOWN_KEYS, DEFAULT_QUEUE_PACKETS }
