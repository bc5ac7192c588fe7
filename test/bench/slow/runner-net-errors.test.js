'use strict'

// The runner's report names what the browser said about each failed
// request, per lane (the page itself only learns "status 0").
const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
// The Node lanes; the edge lanes (h3, h2e) on the page: page-h3.test.js.
const NODE_LANES = LANES.filter(l => !l.edge)
const { launchBrowser } = require('../../support/browser')
const { failRequests } = require('../../support/page')
const { runPageCell } = require('../../../bench/cells/page')

describe('runner: failed requests reach the report by lane and net::ERR name', function () {
  this.timeout(60000)
  const servers = useServers({ lanes: NODE_LANES })

  it('notes net::ERR_CONNECTION_RESET (2×) on each lane whose requests the browser failed', async () => {
    const browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    try {
      const page = await browser.context.newPage()
      await page.goto(`${servers.running.page.url}/`)
      const cdp = await page.createCDPSession()
      // The browser fails the 4th request of every h2n batch, as a dropped connection would.
      const h2n = servers.lane('h2n')
      await failRequests(page, url => url.href.startsWith(h2n.url) && /\/option\?.*&r=.*-3$/.test(url.href), 'connectionreset')
      const entry = { experiment: { id: 'net-errors' }, index: 0, cell: { requests: 6, size: '1kb', delay: 0, preset: 'No throttling' } }
      const rows = await runPageCell({ page, cdp, entry, lanes: ['h1', 'h2n'], laneInfo: servers.running.lanes, repeats: 2, budgetMs: 60000 })
      const byLane = Object.fromEntries(rows.map(r => [r.lane, r]))
      assert.equal(byLane.h2n.failures, 2)
      assert.match(byLane.h2n.note, /the browser failed requests with net::ERR_CONNECTION_RESET \(2×\)/)
      assert.equal(byLane.h1.failures, 0)
      assert.doesNotMatch(byLane.h1.note || '', /net::ERR/)
    } finally {
      await browser.close()
    }
  })
})
