'use strict'

// Seed 001's h2-push scenario at the protocol level: browsers refuse push
// (SETTINGS_ENABLE_PUSH=0), Node's http2 client accepts it. Each sample, on
// a fresh session whose handshake is not timed (bench/cells/push-protocol.js's
// connect): the collection with Prefer-Push: item and every item the server
// pushed with it ("push-protocol"), or the collection and then every item
// requested ("separate-protocol"); ms until the last item's last byte.
const { loadWithPush, checkLanes } = require('./push-protocol')

function expectItem (res, path, size) {
  if (res.status !== 200) throw new Error(`${path}: status ${res.status}`)
  if (res.body.length !== size) throw new Error(`${path}: ${res.body.length} bytes, expected ${size}`)
}

async function sample (url, { mode, items, size, delay, tag }) {
  const headers = { ':path': `/api/items?count=${items}&size=${size}&delay=${delay}&tag=${tag}` }
  if (mode === 'push-protocol') headers['prefer-push'] = 'item'
  const s = await loadWithPush(url, {
    what: 'visit',
    headers,
    pathsOf (body) {
      const paths = JSON.parse(body)._links.item.map(l => l.href)
      if (paths.length !== items) throw new Error(`the collection links ${paths.length} items, expected ${items}`)
      return paths
    },
    check: (res, path) => expectItem(res, path, size)
  })
  return { ...s, requests: 1 + items - s.pushed }
}

const MODES = ['push-protocol', 'separate-protocol']

// → one row per lane and mode: { lane, mode, samples, failures, pushed, requests (medians), node, note }
async function runRestProtocol ({ lanes, items = 25, size = 512, delay = 0, repeats = 5 } = {}) {
  checkLanes(lanes)
  const rows = []
  const tag = `rp${Date.now().toString(36)}`
  for (const lane of lanes) {
    for (const mode of MODES) await sample(lane.url, { mode, items, size, delay: 0, tag: `${tag}w` }).catch(() => {}) // unrecorded: JIT, first costs
    const per = Object.fromEntries(MODES.map(m => [m, { samples: [], pushed: [], requests: [], failures: 0, errors: [] }]))
    for (let r = 0; r < repeats; r++) {
      for (const mode of r % 2 === 0 ? MODES : [...MODES].reverse()) {
        try {
          const s = await sample(lane.url, { mode, items, size, delay, tag: `${tag}-${r}` })
          per[mode].samples.push(s.ms)
          per[mode].pushed.push(s.pushed)
          per[mode].requests.push(s.requests)
        } catch (err) {
          per[mode].failures++
          per[mode].errors.push(err.message)
        }
      }
    }
    // Counts (items pushed, requests) recorded as whole numbers (results-schema: integer): the lower median, not stats.js's mean of the middle two.
    const median = xs => xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] : 0
    for (const mode of MODES) {
      const p = per[mode]
      rows.push({
        lane: lane.name, mode, samples: p.samples, failures: p.failures, pushed: median(p.pushed), requests: median(p.requests),
        node: process.version, note: p.errors.length ? `${p.errors.length} of ${repeats} visits failed: ${p.errors[0]}` : null
      })
    }
  }
  return rows
}

module.exports = { runRestProtocol, MODES }
