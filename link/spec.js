'use strict'

// Link specs: what a user types for the packet-level link (the forwarder in
// link/forwarder/ between the client's network namespace and the servers),
// turned into a validated, normalised description of both directions.
// "up" is client → server, "down" is server → client.
//
//   SPEC  := PRESET | ITEM {, ITEM} | PRESET {, ITEM}
//   ITEM  := KEY=VALUE, KEY is rtt | up | down | NAME | NAME.up | NAME.down
//            with NAME one of delay jitter queue aqm ecn loss gemodel drop dropflow outage step dup corrupt
//            reorder trace cross
//
// A NAME without suffix sets both directions; within one layer (the preset's
// items, then the user's) NAME.up / NAME.down wins over NAME, whatever the
// order, and the user's items win over the preset's. The same setting twice in
// one layer is an error (rtt and delay count as the same setting).
//
// Here: the spec string → a link object (preset, items, layers). Its values
// are read by link/spec-values.js (times, rates, queues, percentages) and
// link/trace-file.js (trace=FILE), its errors are link/spec-error.js's
// LinkSpecError; link/describe.js puts a link into words and
// link/forwarder-commands.js into the forwarder's control lines.

const { LINK_PRESETS, presetByName } = require('./presets')
const { LinkSpecError, fail } = require('./spec-error')
const { parseTime, parseRate, parseQueue, parsePercent, parseGemodel, parseDropRange, parseOutage, parseAqm, parseSwitch, parseSteps, parseCross, parseRebind, AQM_LIMITS, DIRECTIONS, MAX_DELAY_US } = require('./spec-values')
const { parseTrace } = require('./trace-file')
const { describeLink, fmtTime } = require('./describe')

// Default droptail limit: 1000 packets, netem's default `limit` and Linux's
// default txqueuelen, so a rate here queues as a netem user expects. Only a
// rate or a trace builds a queue; without one the limit is unused.
const DEFAULT_QUEUE_PACKETS = 1000

const DIRECTIONAL = ['delay', 'jitter', 'queue', 'aqm', 'ecn', 'loss', 'gemodel', 'drop', 'dropflow', 'outage', 'step', 'dup', 'corrupt', 'reorder', 'trace', 'cross']
const KNOWN_KEYS = ['rtt', 'down', 'up', 'rebind', ...DIRECTIONAL.flatMap(k => [k, `${k}.up`, `${k}.down`])]
const KEYS_HELP = `known keys: rtt, delay, jitter, down, up, rebind, queue, aqm, ecn, loss, gemodel, drop, dropflow, outage, step, dup, corrupt, reorder, trace, cross (all but rtt, down, up and rebind also as KEY.up / KEY.down)`

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
  if (base === 'rebind') {
    // The client's NAT: it rewrites what the client sends, so it lives with the up direction (link/forwarder/nat.c).
    if (dir !== undefined) fail(key, 'a NAT rebinding changes the client\'s binding for both directions; write rebind=… without .up or .down')
    return { ...out, param: 'rebind', scope: 'up', value: parseRebind(key, raw) }
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
  else if (base === 'gemodel') value = parseGemodel(key, raw)
  else if (base === 'drop' || base === 'dropflow') value = parseDropRange(key, raw)
  else if (base === 'aqm') value = parseAqm(key, raw)
  else if (base === 'ecn') value = parseSwitch(key, raw)
  else if (base === 'step') value = parseSteps(key, raw)
  else if (base === 'cross') value = parseCross(key, raw)
  else if (base === 'outage') value = parseOutage(key, raw)
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
    queue: null,
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
  // The queue: droptail unless an AQM is named; its limit the queue key's, else the discipline's default (Linux's).
  const aqm = pick(layers, 'aqm', dir)
  const kind = aqm ? aqm.value.kind : 'droptail'
  out.queue = value('queue', { packets: kind === 'droptail' ? DEFAULT_QUEUE_PACKETS : AQM_LIMITS[kind] })
  if (aqm && kind !== 'droptail') out.aqm = aqm.value
  const steps = pick(layers, 'step', dir)
  if (steps) out.steps = steps.value
  const rateSteps = (out.steps || []).some(s => s.rateBps !== undefined)
  const limitingSteps = (out.steps || []).some(s => s.rateBps) // a step to a rate, not to unlimited
  if (out.aqm && out.rateBps === null && !out.trace && !limitingSteps) {
    failItem(aqm, `a queue discipline needs a bottleneck where packets queue, and the ${dir} direction has no rate; add ${dir}=<rate> (or a trace)`)
  }
  if (out.trace && rateSteps) {
    failItem(steps, `the ${dir} direction's rate is its trace (${out.trace.path}); a step may change its delay only (write AT/-/DELAY)`)
  }
  const ecn = pick(layers, 'ecn', dir)
  if (ecn && ecn.value) {
    if (!out.aqm) failItem(ecn, `ECN marking needs a queue that marks: codel, fq_codel or pie (aqm.${dir}=…); a droptail queue only drops`)
    out.ecn = true
  }
  const dropflow = pick(layers, 'dropflow', dir)
  if (dropflow) out.dropflow = dropflow.value
  const rebind = pick(layers, 'rebind', dir)
  if (rebind) out.rebind = rebind.value
  const cross = pick(layers, 'cross', dir)
  if (cross) out.cross = cross.value
  // The bulk QUIC flow is a download (harness/cross-traffic/quic.js): nothing on the lanes' side would receive and count an upload.
  if (dir === 'up' && cross && cross.value.includes('quic')) {
    failItem(cross, 'a quic cross flow runs down only (a download from the lanes\' side); write cross.down=quic, and for traffic up cubic, bbr, reno or web')
  }
  // One loss model a direction: random (loss) or bursty (gemodel), not both.
  const loss = pick(layers, 'loss', dir)
  const ge = pick(layers, 'gemodel', dir)
  if (loss && ge && loss.value > 0) {
    failItem(ge, `the ${dir} direction has a random loss already (${loss.key}=${loss.raw}); a direction takes one loss model, loss or gemodel, drop one`)
  }
  if (ge) out.gemodel = ge.value // only where set: a direction without one reads as it always has
  const drop = pick(layers, 'drop', dir)
  if (drop) out.drop = drop.value
  const outage = pick(layers, 'outage', dir)
  if (outage) out.outage = outage.value
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

// A parsed link's round trip (ms): its two one-way delays; `min` takes off the
// jitter (uniform ± around the delay, link/forwarder), the shortest round
// trip the link allows. The one place a round trip is read from a spec.
function rttMsOf (link, { min = false } = {}) {
  const way = d => d.delayUs - (min ? d.jitterUs : 0)
  return (way(link.up) + way(link.down)) / 1000
}

// The round trip of a spec's text, or null when it is no spec (a DevTools preset's name).
function rttMsOfSpec (text, options) {
  try {
    return rttMsOf(parseLinkSpec(text, { traces: false }), options)
  } catch {
    return null
  }
}

module.exports = { parseLinkSpec, rttMsOf, rttMsOfSpec, KNOWN_KEYS, DEFAULT_QUEUE_PACKETS }
