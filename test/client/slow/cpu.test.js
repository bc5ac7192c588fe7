'use strict'

// The CPU the browser and the lanes' servers use during each batch, in a real
// headless Chromium (and Firefox, where it is installed): the page server
// finds the browser's processes from the page's own connection
// (server/cpu.js), they are the browser's (harness/cell-costs.js finds
// Chromium's root by its --user-data-dir), every batch records them
// (client/js/cpu.js), and when the verdict engine's rule is met
// (shared/verdict.js cpuLoad, restsOnCpu) the card and the comparison say
// so. No time is asserted: a reading is only checked to be there and > 0.
const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
const { launchBrowser } = require('../../support/browser')
const { openPage, text, visible, texts } = require('../../support/page')
const { chromiumRoots } = require('../../../harness/cell-costs')
const { treeOf, processTable } = require('../../../common/proc')
const { launchFirefox, firefoxUnavailableReason } = require('../../../harness/firefox')
const { startLinkSession } = require('../../../harness/link-session')
const { unavailableReason } = require('../../../link/namespace')
const { startAll } = require('../../../server/start')
const { parseConfig } = require('../../../server/config')
const { testCertificate } = require('../../support/certificate')

const NODE_LANES = LANES.filter(l => l.name === 'h1' || l.name === 'h2n')
const RUN = { requests: 50, size: '100kb', delay: 0, repeats: 2, lanes: ['h1', 'h2n'] }

function assertMeasured (result, rootPid, name) {
  for (const lane of result.lanes) {
    assert.equal(lane.batches.length, 2, lane.lane)
    for (const b of lane.batches) {
      const c = b.cpu
      assert.equal(c.reason, null, `${lane.lane}: ${c.reason}`)
      assert.equal(c.browser, name)
      assert.equal(c.browserPid, rootPid, c.source)
      assert.ok(c.browserCpuMs >= 0 && c.browserCores >= 0 && c.wallMs > 0, JSON.stringify(c))
      assert.ok(c.serverCpuMs >= 0 && c.nodeCores >= 0, JSON.stringify(c))
      assert.ok(c.processes >= 1)
      assert.match(c.source, new RegExp(`^the page server's /proc \\(\\d+ ms ticks\\): the page's connection from .* is held by ${name}'s .*${rootPid}`))
    }
    // 100 × 100 KB through the browser cost it some CPU; a 10 ms tick may miss a little of it, never all of it.
    assert.ok(lane.batches.reduce((n, b) => n + b.cpu.browserCpuMs, 0) > 0, lane.lane)
    assert.equal(lane.cpu.batches, 2)
    assert.equal(typeof lane.cpu.browserCores, 'number')
    assert.equal(typeof lane.cpu.rests, 'boolean')
  }
}

describe('the CPU of each batch, read by the page server (Chromium)', function () {
  this.timeout(120000)
  const servers = useServers({ lanes: NODE_LANES })
  let launched = null
  let page = null
  let errors = null
  before(async () => { launched = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes }) })
  after(async () => { if (launched) await launched.close() })
  beforeEach(async () => { ({ page, errors } = await openPage(launched, `${servers.running.page.url}/`)) })
  afterEach(async () => {
    if (page) await page.close()
    assert.deepEqual(errors, [], 'no console errors')
  })

  it('finds Chromium\'s own process tree from the page\'s connection, and records its CPU in every batch', async () => {
    const [root] = chromiumRoots(launched.userDataDir)
    assert.ok(root, 'Chromium\'s browser process, by its --user-data-dir')
    // The page server's reading, asked by the page: the tree is the one under Chromium's browser process.
    const reading = await page.evaluate(() => fetch('/cpu.json').then(r => r.json()))
    assert.equal(reading.browser.root, root, reading.browser.found)
    assert.equal(reading.browser.name, 'Chromium')
    const tree = treeOf([root], processTable())
    assert.ok(reading.browser.pids.every(pid => tree.includes(pid)), `${reading.browser.pids} within ${tree}`)
    assert.ok(reading.browser.pids.length >= 3, 'the browser process, its network service, a renderer …')
    const types = reading.browser.processes.map(p => p.type)
    assert.ok(types.includes('browser process') && types.includes('renderer'), types.join(', '))
    assert.match(reading.browser.found, /is held by Chromium's network service \(pid \d+\), under its browser process \d+$/)

    const result = await page.evaluate(o => window.h2bench.run(o), RUN)
    assert.equal(result.state, 'done')
    assert.equal(result.cores, await page.evaluate(() => navigator.hardwareConcurrency))
    assertMeasured(result, root, 'Chromium')
    // The card shows it: "Chromium 0.62 · servers 0.08 · machine 1.4 of 2 cores", "Chromium: 420 ms of CPU a batch".
    for (const lane of result.lanes) {
      assert.match(await text(page, `.card[data-lane="${lane.lane}"] .cpu .cores`), /^Chromium [\d.]+ · servers [\d.]+ · machine [\d.]+ of \d+ cores$/)
      assert.equal(await text(page, `.card[data-lane="${lane.lane}"] .cpu .ms`), `Chromium: ${Math.round(lane.cpu.browserCpuMs)} ms of CPU a batch`)
    }
  })

  it('flags the card and the comparison when the verdict engine\'s rule is met (a CPU reading injected)', async () => {
    const cores = await page.evaluate(() => navigator.hardwareConcurrency)
    // Readings one second apart in which Chromium used 95 % of every core, in 2 processes a core (none near a full core).
    await page.evaluate(n => {
      let k = 0
      const pids = Array.from({ length: 2 * n }, (_, i) => 4241 + i)
      window.h2benchCpu.read = () => {
        k++
        return Promise.resolve({
          at: k * 1000,
          tickMs: 10,
          machine: { busyMs: k * 1000 * n, cpus: n },
          browser: {
            name: 'Chromium', root: 4241, found: 'injected', cpuMs: k * 950 * n, pids,
            processes: pids.map((pid, i) => ({ pid, type: i ? 'renderer' : 'browser process', cpuMs: k * 475 }))
          },
          servers: { node: k * 30, caddy: null, reason: 'no Caddy (no edge lane)' }
        })
      }
    }, cores)
    const result = await page.evaluate(() => window.h2bench.run({ requests: 5, size: 0, delay: 0, repeats: 5, lanes: ['h1', 'h2n'] }))
    for (const lane of result.lanes) {
      assert.equal(lane.cpu.browserCores, 0.95 * cores)
      assert.equal(lane.cpu.rests, true)
      assert.equal(lane.cpu.flag, `Rests on this machine's CPU: during these batches Chromium used ${0.95 * cores >= 1 ? (0.95 * cores).toFixed(1) : (0.95 * cores).toFixed(2)} of its ${cores} cores.`)
      const card = `.card[data-lane="${lane.lane}"]`
      assert.equal(await visible(page, `${card} .cpu-flag`), true)
      assert.equal(await text(page, `${card} .cpu-flag`), lane.cpu.flag)
    }
    const [c] = result.comparisons
    assert.equal(c.cpu.rests, true)
    assert.match(c.cpu.sentence, /^(this verdict|these times) rest(s)? on this machine's CPU: Chromium used [\d.]+ of its \d+ cores during both lanes' batches; Chromium spent \d+ ms of CPU a batch on/)
    const sentences = await texts(page, '#ratios .ratio .cpu-flag')
    assert.equal(sentences.length, 1)
    assert.equal(sentences[0], c.cpu.sentence.charAt(0).toUpperCase() + c.cpu.sentence.slice(1) + '.')
  })

  it('a run on a page server that cannot read the browser says why in every batch, and runs on', async () => {
    await page.evaluate(() => { window.h2benchCpu.read = () => Promise.resolve({ error: 'GET /cpu.json: HTTP 404' }) })
    const result = await page.evaluate(() => window.h2bench.run({ requests: 5, size: 0, delay: 0, repeats: 1, lanes: ['h1'] }))
    assert.equal(result.state, 'done')
    const c = result.lanes[0].batches[0].cpu
    assert.deepEqual([c.browserCores, c.serverCores, c.reason], [null, null, 'GET /cpu.json: HTTP 404'])
    assert.equal(result.lanes[0].cpu.rests, false)
    assert.equal(await text(page, '.card[data-lane="h1"] .cpu .cores'), 'browser not measured')
    assert.equal(await visible(page, '.card[data-lane="h1"] .cpu-flag'), false)
  })
})

describe('the CPU of each batch, read by the page server (Firefox)', function () {
  this.timeout(120000)
  const servers = useServers({ lanes: NODE_LANES })

  it('finds Firefox\'s parent process from the page\'s connection, and records its tree\'s CPU', async function () {
    const why = firefoxUnavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    const firefox = await launchFirefox({ ca: servers.tls.ca, lanes: servers.running.lanes })
    try {
      const page = firefox.page
      await page.goto(`${servers.running.page.url}/`)
      await page.waitForFunction(() => window.h2bench && window.h2bench.run)
      const reading = await page.evaluate(() => fetch('/cpu.json').then(r => r.json()))
      assert.equal(reading.browser.root, firefox.pid, reading.browser.found)
      assert.equal(reading.browser.name, 'Firefox')
      assert.ok(reading.browser.processes.some(p => p.type === 'content process'), JSON.stringify(reading.browser.processes))
      const result = await page.evaluate(o => window.h2bench.run(o), RUN)
      assertMeasured(result, firefox.pid, 'Firefox')
    } finally {
      await firefox.close()
    }
  })
})

describe('the CPU of each batch with Chromium behind a packet-level link (in the link\'s network namespace)', function () {
  this.timeout(120000)

  it('finds Chromium through the other namespace\'s sockets', async function () {
    const why = unavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    const tls = await testCertificate()
    const session = await startLinkSession({ spec: 'rtt=2ms', config: parseConfig([], {}), tls, startAll, lanes: NODE_LANES })
    let launched = null
    try {
      launched = await launchBrowser({ spki: tls.spki, link: session.opened, lanes: session.running.lanes })
      const { page, errors } = await openPage(launched, `${session.running.page.url}/`)
      const [root] = chromiumRoots(launched.userDataDir)
      const reading = await page.evaluate(() => fetch('/cpu.json').then(r => r.json()))
      assert.equal(reading.browser.root, root, JSON.stringify(reading.browser))
      assert.match(reading.browser.found, /\(another \(net:\[\d+\]\) network namespace\) is held by Chromium's network service/)
      const result = await page.evaluate(o => window.h2bench.run(o), { ...RUN, repeats: 1 })
      for (const lane of result.lanes) assert.equal(lane.batches[0].cpu.browserPid, root, lane.batches[0].cpu.reason)
      assert.deepEqual(errors, [])
    } finally {
      if (launched) await launched.close()
      await session.close()
    }
  })
})
