'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { laneByName } = require('../../../server/lanes')
const { runPushProtocol, assetPaths } = require('../../../bench/cells/push-protocol')

// Server test of bench/cells/push-protocol.js: real lanes, tiny loads.
describe('push at the protocol level (bench/cells/push-protocol.js)', function () {
  const servers = useServers({ lanes: [laneByName('h2'), laneByName('h2n')] })
  const lanes = () => servers.running.lanes.map(({ name, url }) => ({ name, url }))

  it('times push against request for every lane, delay and mode', async function () {
    this.timeout(30000)
    const progress = []
    const rows = await runPushProtocol({
      lanes: lanes(), delays: [0, 20], assets: 3, size: 10 * 1024, repeats: 1, onProgress: p => progress.push(p)
    })
    assert.deepEqual(rows.map(r => `${r.lane} ${r.delay} ${r.mode}`).sort(), [
      'h2 0 push', 'h2 0 request', 'h2 20 push', 'h2 20 request',
      'h2n 0 push', 'h2n 0 request', 'h2n 20 push', 'h2n 20 request'])
    assert.equal(progress.length, 8)
    assert.equal(progress.at(-1).done, 8)
    for (const r of rows) {
      const where = `${r.lane} delay ${r.delay} ${r.mode}`
      assert.equal(r.experiment, 'push-protocol')
      assert.equal(r.failures, 0, where)
      assert.equal(r.samples.length, 1, where)
      assert.equal(r.summary.median, r.samples[0], where)
      assert.equal(r.assets, 3)
      assert.equal(r.size, 10240)
      assert.equal(r.pushed, r.mode === 'push' ? 3 : 0, where)
      // Request: the page, then the assets, each after the delay; push:
      // only the page waits.
      if (r.delay === 20) assert.ok(r.samples[0] >= (r.mode === 'request' ? 40 : 20), `${where}: ${r.samples[0]} ms`)
    }
  })

  it('a REST collection of 1,000 items: every item pushed with it (Node\'s client reserves 200 pushes unless told more)', async function () {
    this.timeout(60000)
    const { runRestProtocol } = require('../../../bench/cells/rest-protocol')
    const rows = await runRestProtocol({ lanes: lanes(), items: 1000, size: 512, repeats: 1 })
    assert.deepEqual(rows.map(r => `${r.lane} ${r.mode}`).sort(), ['h2 push-protocol', 'h2 separate-protocol', 'h2n push-protocol', 'h2n separate-protocol'])
    for (const r of rows) {
      assert.equal(r.failures, 0, `${r.lane} ${r.mode}: ${r.note}`)
      assert.equal(r.pushed, r.mode === 'push-protocol' ? 1000 : 0, `${r.lane} ${r.mode}`)
      assert.equal(r.requests, r.mode === 'push-protocol' ? 1 : 1001, `${r.lane} ${r.mode}`)
    }
  })

  it('refuses an HTTP/1.1 lane, saying why', async () => {
    await assert.rejects(runPushProtocol({ lanes: [{ name: 'h1', url: 'https://127.0.0.1:1' }], repeats: 1 }),
      /lane h1 is not an HTTP\/2 lane .*push exists only in HTTP\/2/)
  })

  it('reads the asset URLs from the page, unescaping &amp;', () => {
    assert.deepEqual(assetPaths('<script src="/asset/0.js?size=1&amp;delay=5" onload="x"></script>\n<script src="/asset/1.js?size=1"></script>'),
      ['/asset/0.js?size=1&delay=5', '/asset/1.js?size=1'])
  })
})
