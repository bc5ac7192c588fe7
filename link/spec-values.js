'use strict'

// The value grammar of link specs (link/spec.js): times, rates, queue
// limits and percentages, each read and checked against its limits into
// the unit a link holds (µs, bits per second, packets or bytes, a
// fraction 0…1). Also a link's two directions and the numbers' short text.

const { fail } = require('./spec-error')

// "up" is client → server, "down" is server → client.
const DIRECTIONS = ['up', 'down']
const MAX_DELAY_US = 60e6 // one way; an RTT may be twice that
const MAX_RATE_BPS = 100e9
const MTU_BYTES = 1500

// Units. Rates are bits per second with SI (×1000) or binary (×1024)
// prefixes; a "b" alone (kbps, MB/s) could be bits or bytes, so it is refused.
const TIME_UNITS = { us: 1, µs: 1, ms: 1e3, s: 1e6 }
const RATE_UNITS = { bit: 1, kbit: 1e3, mbit: 1e6, gbit: 1e9, kibit: 1024, mibit: 1024 ** 2, gibit: 1024 ** 3 }
const QUEUE_BYTE_UNITS = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2 }
const RATE_HELP = 'units: bit, kbit, mbit, gbit (×1000), kibit, mibit, gibit (×1024), "/s" optional; or unlimited'
const QUEUE_HELP = 'allowed: a packet count (100, 100p, 100packets), bytes ≥ 1500 (B, KB = 1000 B, KiB, MB, MiB), or unlimited'
const PERCENT_HELP = 'allowed: 0…100 %'

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

// Gilbert-Elliott loss as netem writes it (tc-netem(8): loss gemodel p [r [1-h [1-k]]]):
// p, the chance a packet moves the link from good to bad; r, from bad to good;
// 1-h, the loss in bad; 1-k, the loss in good. netem's defaults: r 100 %,
// 1-h 100 %, 1-k 0 % (iproute2's q_netem.c). Slashes separate them, as a
// spec's commas separate items: gemodel.down=1%/30%. → { p, r, badLoss, goodLoss }.
const GEMODEL_HELP = 'write gemodel=P[/R[/1-H[/1-K]]] in percent, as netem\'s loss gemodel: P good → bad, R bad → good (default 100%), 1-H the loss in bad (default 100%), 1-K the loss in good (default 0%)'
function parseGemodel (key, raw) {
  const parts = raw.split('/').map(s => s.trim())
  if (parts.length > 4 || parts.some(s => s === '')) fail(key, `"${raw}" is not P[/R[/1-H[/1-K]]]; ${GEMODEL_HELP}`)
  const [p, r = '100%', bad = '100%', good = '0%'] = parts
  const out = { p: parsePercent(key, p), r: parsePercent(key, r), badLoss: parsePercent(key, bad), goodLoss: parsePercent(key, good) }
  if (out.p === 0 && out.goodLoss === 0) fail(key, `"${raw}" never loses a packet (P 0 %: the link never turns bad); ${GEMODEL_HELP}`)
  if (out.r === 0 && out.p > 0) fail(key, `"${raw}" never leaves the bad state (R 0 %); ${GEMODEL_HELP}`)
  return out
}

// A Gilbert-Elliott model's long-run loss and mean burst (losses in a row, when bad loses every packet and good none):
// the chain's share of bad packets p ÷ (p + r) times their loss, plus the good ones'; a bad spell lasts 1 ÷ r packets.
function gemodelMeans ({ p, r, badLoss, goodLoss }) {
  const bad = p / (p + r)
  return { loss: bad * badLoss + (1 - bad) * goodLoss, badShare: bad, meanBadPackets: 1 / r }
}

// Scheduled drops: drop=N-M, the packets of index N to M (inclusive; counted from 0 in each direction since the
// link started or its seed was set), as the QUIC interop runner drops chosen packets. → { from, count }.
function parseDropRange (key, raw) {
  const m = /^(\d{1,12})\s*-\s*(\d{1,12})$/.exec(raw)
  if (!m) fail(key, `"${raw}" is not a range of packets; write ${key}=N-M (packet indexes from 0, N ≤ M), e.g. ${key}=0-2`)
  const [from, to] = [Number(m[1]), Number(m[2])]
  if (to < from) fail(key, `"${raw}": the range ends before it starts; write N-M with N ≤ M`)
  return { from, count: to - from + 1 }
}

// Outages: outage=ON/OFF[/COUNT], the link up for ON, then dark for OFF (every packet dropped), from when it was
// set, COUNT times (then up for good) or repeating without a count: the QUIC interop runner's blackhole is
// outage=5s/2s/1 (its simulator's --repeat defaults to 1). → { onUs, offUs, count (0: repeating) }.
const OUTAGE_HELP = 'write outage=ON/OFF[/COUNT], e.g. outage=5s/2s (up 5 s, then dark 2 s, repeating) or outage=5s/2s/1 (one outage, the interop runner\'s blackhole)'
function parseOutage (key, raw) {
  const parts = raw.split('/').map(t => t.trim())
  if (parts.length < 2 || parts.length > 3 || parts.some(t => !t)) fail(key, `"${raw}" is not ON/OFF[/COUNT]; ${OUTAGE_HELP}`)
  const onUs = parseTime(key, parts[0], 3600e6)
  const offUs = parseTime(key, parts[1], 3600e6)
  if (onUs === 0 || offUs === 0) fail(key, `"${raw}": both periods must be longer than 0 (up, then dark); ${OUTAGE_HELP}`)
  let count = 0
  if (parts[2] !== undefined) {
    if (!/^\d{1,6}$/.test(parts[2]) || Number(parts[2]) < 1) fail(key, `"${raw}": the count ${parts[2]} is not a whole number of outages ≥ 1; ${OUTAGE_HELP}`)
    count = Number(parts[2])
  }
  return { onUs, offUs, count }
}

// Active queue management of a bottleneck, with Linux's defaults (sch_codel.c, sch_fq_codel.c, sch_pie.c; tc-codel(8),
// tc-fq_codel(8), tc-pie(8)): CoDel target 5 ms, interval 100 ms; FQ-CoDel the same per flow, 1024 flow queues,
// a quantum of 1514 bytes; PIE a 15 ms target delay, updated every 15 ms (alpha 0.125, beta 1.25). mahimahi's CoDel
// and PIE use the same targets. aqm=codel[/TARGET[/INTERVAL]], fq_codel[/TARGET[/INTERVAL]], pie[/TARGET], droptail.
const AQM_DEFAULTS = {
  droptail: {},
  codel: { targetUs: 5000, intervalUs: 100000 },
  fq_codel: { targetUs: 5000, intervalUs: 100000 },
  pie: { targetUs: 15000 }
}
// Linux's default limit of each queue, in packets (the queue key overrides it).
const AQM_LIMITS = { droptail: 1000, codel: 1000, fq_codel: 10240, pie: 1000 }
const AQM_HELP = 'write aqm=droptail, codel[/TARGET[/INTERVAL]] (Linux: 5ms/100ms), fq_codel[/TARGET[/INTERVAL]] (5ms/100ms) or pie[/TARGET] (15ms)'
function parseAqm (key, raw) {
  const [name, ...params] = raw.split('/').map(t => t.trim())
  const kind = name.toLowerCase().replace('-', '_')
  if (!(kind in AQM_DEFAULTS)) fail(key, `unknown queue discipline "${name}"; ${AQM_HELP}`)
  const names = kind === 'pie' ? ['targetUs'] : kind === 'droptail' ? [] : ['targetUs', 'intervalUs']
  if (params.some(t => !t)) fail(key, `"${raw}" has an empty parameter; ${AQM_HELP}`)
  if (params.length > names.length) fail(key, `"${raw}" has ${params.length} parameter${params.length === 1 ? '' : 's'}, ${name} takes ${names.length ? `at most ${names.length}` : 'none'}; ${AQM_HELP}`)
  const out = { kind, ...AQM_DEFAULTS[kind] }
  params.forEach((t, i) => {
    out[names[i]] = parseTime(key, t, 10e6)
    if (out[names[i]] === 0) fail(key, `"${raw}": a ${names[i] === 'targetUs' ? 'target' : 'interval'} of 0 is not allowed; ${AQM_HELP}`)
  })
  return out
}

function parseSwitch (key, raw) {
  const t = raw.toLowerCase()
  if (t === 'on' || t === '1' || t === 'true') return true
  if (t === 'off' || t === '0' || t === 'false') return false
  fail(key, `"${raw}" is not on or off; write ${key}=on or ${key}=off`)
}

// Step changes of a direction's rate and delay at given times (a handover): step=AT/RATE[/DELAY], several joined by
// ";", times from when the link was set, increasing. RATE "-" keeps the rate; a DELAY left out keeps the delay.
// → [{ atUs, rateBps (undefined: kept; null: unlimited), delayUs (undefined: kept) }].
const STEP_HELP = 'write step=AT/RATE[/DELAY], several joined by ";" (e.g. step.down=5s/1mbit/150ms;10s/20mbit/20ms): at AT after the link starts, the rate (or - to keep it) and the one-way delay'
function parseSteps (key, raw) {
  const steps = raw.split(';').map(t => t.trim())
  if (steps.some(t => !t)) fail(key, `"${raw}" has an empty step; ${STEP_HELP}`)
  if (steps.length > 64) fail(key, `${steps.length} steps; at most 64`)
  let last = -1
  return steps.map(text => {
    const parts = text.split('/').map(t => t.trim())
    if (parts.length < 2 || parts.length > 3 || parts.some(t => !t)) fail(key, `"${text}" is not AT/RATE[/DELAY]; ${STEP_HELP}`)
    const atUs = parseTime(key, parts[0], 3600e6)
    if (atUs <= last) fail(key, `"${raw}": step times must increase (${parts[0]} comes after a later or equal one)`)
    last = atUs
    const step = { atUs }
    if (parts[1] !== '-') step.rateBps = parseRate(key, parts[1])
    if (parts[2] !== undefined) step.delayUs = parseTime(key, parts[2], MAX_DELAY_US)
    if (parts[1] === '-' && parts[2] === undefined) fail(key, `"${text}" changes nothing; ${STEP_HELP}`)
    return step
  })
}

// NAT rebinding, as the QUIC interop runner's rebind-port and rebind-addr: rebind=FIRST[/EVERY][/port|address], the
// client's NAT gives it a new source port (or address) FIRST after the link was set, then every EVERY (once without).
// → { firstUs, everyUs, kind }.
const REBIND_HELP = 'write rebind=FIRST[/EVERY][/port|address], e.g. rebind=1s (a new client port after 1 s), rebind=1s/5s/address (a new address after 1 s, then every 5 s)'
function parseRebind (key, raw) {
  const parts = raw.split('/').map(t => t.trim())
  if (parts.some(t => !t)) fail(key, `"${raw}" has an empty part; ${REBIND_HELP}`)
  let kind = 'port'
  if (['port', 'address'].includes(parts[parts.length - 1].toLowerCase())) kind = parts.pop().toLowerCase()
  if (parts.length < 1 || parts.length > 2) fail(key, `"${raw}" is not FIRST[/EVERY][/port|address]; ${REBIND_HELP}`)
  const firstUs = parseTime(key, parts[0], 3600e6)
  const everyUs = parts[1] === undefined ? 0 : parseTime(key, parts[1], 3600e6)
  if (firstUs === 0) fail(key, `"${raw}": the first rebinding must come after the link starts (FIRST > 0); ${REBIND_HELP}`)
  if (parts[1] !== undefined && everyUs < 1000) fail(key, `"${raw}": rebinding every ${parts[1]} is below 1 ms; ${REBIND_HELP}`)
  return { firstUs, everyUs, kind }
}

// Competing flows started beside the measured traffic, through the same bottleneck: cross=FLOW[+FLOW…], each FLOW a
// bulk TCP flow with a named congestion control (cubic, bbr, reno), a bulk QUIC flow (quic), or a web-like on/off flow
// (web). The direction is the way its data goes (cross.down: lanes → client). → ['cubic', 'quic', …].
const CROSS_FLOWS = ['cubic', 'bbr', 'reno', 'quic', 'web']
function parseCross (key, raw) {
  const flows = raw.split('+').map(t => t.trim().toLowerCase())
  if (flows.some(f => !f)) fail(key, `"${raw}" has an empty flow; write ${key}=FLOW[+FLOW…] with FLOW one of ${CROSS_FLOWS.join(', ')}`)
  for (const f of flows) {
    if (!CROSS_FLOWS.includes(f)) fail(key, `unknown flow "${f}"; write ${key}=FLOW[+FLOW…] with FLOW one of ${CROSS_FLOWS.join(', ')} (bulk TCP with that congestion control, bulk QUIC, web-like on/off)`)
  }
  if (flows.length > 8) fail(key, `${flows.length} flows; at most 8 a direction`)
  return flows
}

module.exports = {
  parseAqm, parseSwitch, parseSteps, parseCross, parseRebind, AQM_LIMITS, CROSS_FLOWS, parseTime, parseRate, parseQueue, parsePercent, parseGemodel,
  gemodelMeans, parseDropRange, parseOutage, num, DIRECTIONS, MAX_DELAY_US
}
