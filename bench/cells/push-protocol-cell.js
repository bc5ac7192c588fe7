'use strict'

// Cells of kind `push-protocol` (push-protocol, push-link): no browser; the
// client is push-protocol.js, in the link's namespace when there is one.
const { parseSize } = require('../../server/payload')
const { runInside } = require('../../harness/in-namespace')
const { applyNetwork, row } = require('./helpers')

// A push-protocol cell: page + scripts by push and by request with Node's
// http2 client, on the lanes given (HTTP/2 ones); behind a link, the client
// runs in the link's namespace (harness/in-namespace.js).
async function runPushProtocolCell ({ entry, laneInfo, repeats, link }) {
  const { cell } = entry
  const args = {
    lanes: laneInfo.map(l => ({ name: l.name, url: l.url, protocol: l.protocol })),
    delays: [cell.delay],
    assets: cell.assets,
    size: parseSize(cell.size),
    repeats
  }
  let rows, network
  if (link) {
    network = await applyNetwork(null, cell.preset, link, cell.link)
    rows = await runInside(link.opened.spawnInside, require.resolve('./push-protocol'), 'runPushProtocol', args)
  } else {
    if (cell.preset !== 'No throttling') throw new Error(`push-protocol cells run without DevTools (no browser): preset ${cell.preset} needs --network link`)
    network = { network: 'devtools', link: null, linkSpec: null }
    rows = await require('./push-protocol').runPushProtocol(args)
  }
  return rows.map(r => row({
    entry, lane: r.lane, mode: r.mode, samples: r.samples, failures: r.failures,
    protocol: 'h2', asked: repeats, note: null,
    extra: { ...network, pushOutcome: r.mode === 'push' ? `${r.pushed} of ${cell.assets} scripts pushed` : 'requested after the page', pushed: r.pushed }
  }))
}

module.exports = { runPushProtocolCell }
