'use strict'

// The servers under benchmark, in a process of their own so that its RSS is
// theirs alone. Started by server-bench.js with fork(); reports its ports.
const { startAll } = require('../../server/start')
const { laneByName } = require('../../server/lanes')
const { generateCertificate } = require('../../server/certs')

async function main () {
  const lanes = process.argv[2].split(',').map(laneByName)
  const tls = await generateCertificate()
  const config = { host: '127.0.0.1', port: 0 }
  for (const lane of lanes) config[`${lane.name}Port`] = 0
  const running = await startAll(config, tls, { lanes })
  // Caddy's pid (the edge lanes), so the benchmark can read its CPU time beside this process's.
  process.send({
    ready: true,
    lanes: running.lanes.map(l => ({ name: l.name, label: l.label, protocol: l.protocol, url: l.url })),
    edgePid: running.edge ? running.edge.pid : null
  })
  process.on('message', msg => {
    if (msg === 'rss') process.send({ rss: process.memoryUsage.rss() })
    if (msg === 'gc' && global.gc) { global.gc(); process.send({ gc: true }) }
  })
  process.on('disconnect', () => running.close().then(() => process.exit(0)))
}

main().catch(err => { console.error(err); process.exit(1) })
