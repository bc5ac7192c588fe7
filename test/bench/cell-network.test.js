'use strict'

// A cell's network on the runner's DevTools session (bench/cells/helpers.js applyNetwork): the Network domain on only
// while a DevTools preset throttles, with no body kept, off again for 'No throttling' and behind the packet link;
// left on where the session's owner keeps it for its own use. A constructed session records what was sent.
const assert = require('node:assert/strict')
const { applyNetwork } = require('../../bench/cells/helpers')

function session () {
  const sent = []
  return { sent, send: async (method, params) => { sent.push(params === undefined ? [method] : [method, params]) } }
}
const link = { control: { change: async spec => ({ description: `link ${spec}`, text: spec }) } }

describe('a cell\'s network on the runner\'s DevTools session', () => {
  it('a throttling preset turns the Network domain on (no body buffers), once; "No throttling" turns it off', async () => {
    const cdp = session()
    assert.deepEqual(await applyNetwork(cdp, 'Regular 3G', null), { network: 'devtools', link: null, linkSpec: null })
    await applyNetwork(cdp, 'Good 3G', null)
    assert.deepEqual(cdp.sent.map(([m]) => m), ['Network.enable', 'Network.emulateNetworkConditions', 'Network.emulateNetworkConditions'])
    assert.deepEqual(cdp.sent[0][1], { maxTotalBufferSize: 0, maxResourceBufferSize: 0 })
    assert.ok(cdp.sent[1][1].latency > 0)
    cdp.sent.length = 0
    await applyNetwork(cdp, 'No throttling', null)
    assert.deepEqual(cdp.sent.map(([m]) => m), ['Network.emulateNetworkConditions', 'Network.disable'])
    assert.deepEqual(cdp.sent[0][1], { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  })

  it('unthrottled from the start, or behind the packet link, the domain is never turned on', async () => {
    const cdp = session()
    await applyNetwork(cdp, 'No throttling', null)
    const r = await applyNetwork(cdp, 'Regular 3G', link)
    assert.equal(r.network, 'link')
    assert.deepEqual(cdp.sent, [])
  })

  it('a session whose owner keeps the domain on (site-page) gets the conditions, never enable or disable', async () => {
    const cdp = session()
    await applyNetwork(cdp, 'Regular 3G', null, null, { keepsNetwork: true })
    await applyNetwork(cdp, 'No throttling', link, null, { keepsNetwork: true })
    assert.deepEqual(cdp.sent.map(([m]) => m), ['Network.emulateNetworkConditions', 'Network.emulateNetworkConditions'])
  })
})
