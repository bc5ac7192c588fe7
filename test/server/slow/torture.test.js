'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
// The Node lanes; the edge lanes (h3, h2e) on the page: page-h3.test.js.
const NODE_LANES = LANES.filter(l => !l.edge)
const { launchBrowser } = require('../../support/browser')

const MIB = 1024 * 1024
// Sizes 0 B … 16 MiB, weighted towards the small so a round stays quick;
// delays 0 … 50 ms. A fixed seed keeps the mix the same on every run.
const SIZES = [0, 1, 100, 1000, 16 * 1024, 64 * 1024 + 1, 100 * 1024, 512 * 1024, MIB, 4 * MIB, 16 * MIB]
const WEIGHTS = [30, 30, 40, 40, 40, 40, 40, 20, 10, 4, 1]
const PER_BATCH = 150

function workload (seed) {
  let x = seed
  const rand = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648 }
  const total = WEIGHTS.reduce((a, b) => a + b)
  return Array.from({ length: PER_BATCH }, () => {
    let r = rand() * total
    let i = 0
    while ((r -= WEIGHTS[i]) > 0) i++
    return { size: SIZES[i], delay: Math.floor(rand() * 51) }
  })
}

// The heavy batch (issue: HTTP/2 lanes failing under heavy load): 300
// requests, 6 of 16 MiB and 40 of 1–4 MiB among small ones, about 220 MB,
// all fired at once (Chromium keeps up to 256 streams open per h2
// connection). node:http2 refused new streams with ENHANCE_YOUR_CALM once
// the queued bodies passed its 10 MB session memory (55–60 % failed); spdy
// sent DATA beyond the connection window.
function heavyWorkload (seed) {
  let x = seed
  const rand = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648 }
  const sizes = [...Array(6).fill(16 * MIB), ...Array.from({ length: 40 }, () => (1 + Math.floor(rand() * 4)) * MIB)]
  const small = [0, 100, 1000, 16 * 1024, 100 * 1024, 256 * 1024]
  while (sizes.length < 300) sizes.push(small[Math.floor(rand() * small.length)])
  return sizes.map(size => ({ size, delay: Math.floor(rand() * 30) }))
}

// In the page: fire every request at once, check each body, count failures.
function fireAll ({ origin, items, tag }) {
  return Promise.all(items.map(({ size, delay }, i) =>
    fetch(`${origin}/option?size=${size}&delay=${delay}&t=${tag}-${i}`)
      .then(async res => {
        const body = await res.arrayBuffer()
        if (res.status !== 200) return `status ${res.status} for size ${size}`
        if (body.byteLength !== size) return `got ${body.byteLength} of ${size} bytes`
        return null
      })
      .catch(err => `size ${size}: ${err.message}`)
  )).then(results => results.filter(Boolean))
}

// Chrome refuses push (SETTINGS_ENABLE_PUSH=0): the page must still load
// every script by request.
async function loadPushPage (page, origin) {
  const res = await page.goto(`${origin}/push?assets=20&size=290kb`)
  await page.waitForFunction(() => document.getElementById('loaded').textContent === '20', { timeout: 20000 })
  return res.headers()['x-h2bench-push']
}

describe('torture: Chromium against every lane', function () {
  this.timeout(240000)
  const servers = useServers({ lanes: NODE_LANES })

  it('serves ≥ 1,000 mixed requests with zero failures, on fresh and warm connections, plus the push page', async () => {
    let requests = 0
    const failures = []
    for (const round of [1, 2]) {
      const browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
      try {
        const page = await browser.context.newPage()
        await page.goto(`${servers.running.page.url}/`)
        for (const lane of servers.running.lanes) {
          for (const warmth of ['fresh', 'warm']) {
            const items = workload(round * 100 + (warmth === 'warm' ? 1 : 0))
            const errors = await page.evaluate(fireAll, { origin: lane.url, items, tag: `${round}${warmth}` })
            requests += items.length
            failures.push(...errors.map(e => `${lane.name} round ${round} ${warmth}: ${e}`))
          }
        }
        for (const lane of servers.running.lanes) {
          const outcome = await loadPushPage(page, lane.url)
          assert.equal(outcome, lane.protocol === 'h2' ? 'refused-by-client' : 'unsupported-by-lane')
        }
      } finally {
        await browser.close()
      }
    }
    assert.ok(requests >= 1000, `only ${requests} requests`)
    assert.deepEqual(failures, [])
  })

  it('serves 300 concurrent requests with ≥ 150 MB in flight per lane, fresh and warm, with zero failures', async () => {
    const failures = []
    const failedByBrowser = {}
    const browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    try {
      const page = await browser.context.newPage()
      // What Chromium itself says (net::ERR_…), per lane port.
      page.on('requestfailed', r => {
        const key = `${new URL(r.url()).port} ${r.failure().errorText}`
        failedByBrowser[key] = (failedByBrowser[key] || 0) + 1
      })
      await page.goto(`${servers.running.page.url}/`)
      for (const lane of servers.running.lanes) {
        for (const [i, warmth] of ['fresh', 'warm'].entries()) {
          const items = heavyWorkload(7 + i)
          const bytes = items.reduce((n, it) => n + it.size, 0)
          assert.ok(bytes >= 150e6, `only ${bytes} bytes`)
          const errors = await page.evaluate(fireAll, { origin: lane.url, items, tag: `heavy-${warmth}` })
          failures.push(...errors.map(e => `${lane.name} ${warmth}: ${e}`))
        }
      }
    } finally {
      await browser.close()
    }
    assert.deepEqual({ failures: failures.slice(0, 10), count: failures.length, failedByBrowser }, { failures: [], count: 0, failedByBrowser: {} })
  })
})
