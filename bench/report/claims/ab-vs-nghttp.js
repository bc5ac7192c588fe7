'use strict'

// Seed 002: `ab -n 100 -c 10` (HTTP/1.1) against `nghttp -n -m 100` (HTTP/2) on one 160-byte URL of nghttp2.org,
// and `nghttp -v` showing requests share one connection. The rows (bench/experiments/ab-vs-nghttp.js): one cell per
// link RTT; each lane runs its protocol's tool from load/presets.js (row.load.tool): ab on h1, nghttp on the HTTP/2
// lanes h2, h2n and h2e (oha on h3, no side of the source's).
const { faster, meets, all } = require('./forms')
const stats = require('../../../shared/stats')

const SEED = 'seed 002 (002_517836d33c70c03d.txt)'
const NGHTTP_LANES = ['h2', 'h2n', 'h2e']
const SOURCE_PATH = 'rtt=500ms'
const AB = { lane: 'h1', mode: null, name: 'h1 (ab)' }
const nghttpOn = lane => ({ lane, mode: null, name: `${lane} (nghttp)` })
// The source's tool per protocol: a row of another tool measured something else.
const SOURCE_TOOL = { 'http/1.1': 'ab', h2: 'nghttp' }
const otherTool = r => {
  const want = SOURCE_TOOL[r.protocol]
  return want && r.load && r.load.tool !== want ? `${r.lane} ran ${r.load.tool}, the source's ${r.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'} side was ${want}` : ''
}
const toolIs = tool => r => Boolean(r.load && r.load.tool === tool)

const secs = ms => `${(ms / 1000).toFixed(2)} s`
// h1's time over each nghttp lane's, per link (the cell's preset): the median over the lanes, and the absolute times at the longest RTT.
function timesPerLink (rows) {
  const good = r => r && r.samples.length && !r.failures
  const links = [...new Set(rows.map(r => r.preset))]
  const per = links.map(link => {
    const ab = rows.find(r => r.preset === link && r.lane === 'h1' && toolIs('ab')(r))
    const ng = rows.filter(r => r.preset === link && NGHTTP_LANES.includes(r.lane) && toolIs('nghttp')(r) && good(r))
    return good(ab) && ng.length ? { link, ab, ng, ratio: stats.median(ng.map(r => ab.median / r.median)) } : null
  }).filter(Boolean)
  if (!per.length) return ''
  // The source's path was about 500 ms RTT (load/presets.js says why): its times beside the source's; else the longest RTT's.
  const there = per.find(p => p.link === SOURCE_PATH) || per[per.length - 1]
  return `ab's time over nghttp's (median over the HTTP/2 lanes) per link: ${per.map(p => `${p.link} ${p.ratio.toFixed(1)}×`).join(', ')}; ` +
    `at ${there.link}${there.link === SOURCE_PATH ? ' (the source\'s path)' : ''} ab took ${secs(there.ab.median)}, nghttp ${there.ng.map(r => `${r.lane} ${secs(r.median)}`).join(', ')}`
}

// The server's connection ledger: each lane's server counts the connections and the requests on each (the URL's
// ?ledger=…, load/load.js), bench/cells/load.js keeps the median over the good runs as row.load.connections and
// row.load.requestsPerConnection; row.params.requests is the requests asked of the tool.
const counted = r => r.load && r.load.connections !== null && r.load.connections !== undefined
const CONNECTION_PER_REQUEST = {
  name: 'a connection per request by the server\'s ledger',
  test: r => !counted(r) ? { met: null, why: 'no connection count (no server ledger)' }
    : { met: r.load.connections >= r.params.requests, why: `${r.load.connections} connections for ${r.params.requests} requests (${r.load.requestsPerConnection ?? '–'} a connection)` }
}
const ONE_CONNECTION = {
  name: 'one connection carrying every request by the server\'s ledger',
  test: r => !counted(r) ? { met: null, why: 'no connection count (no server ledger)' }
    : { met: r.load.connections === 1 && r.load.requestsPerConnection === r.params.requests, why: `${r.load.connections} connection${r.load.connections === 1 ? '' : 's'} for ${r.params.requests} requests (${r.load.requestsPerConnection ?? '–'} a connection)` }
}

module.exports = [
  // Like with like: both sides ask the same 100 requests (match); their connections differ, as the claim says.
  all(NGHTTP_LANES.map(lane => faster(nghttpOn(lane), AB, { text: `nghttp on ${lane} faster than ab on h1`, match: ['requests'] })), {
    text: 'HTTP/2 on one connection finishes the 100 requests far sooner than HTTP/1.1 with 10',
    invalid: otherTool,
    explain: timesPerLink,
    source: {
      figure: 'ab -n 100 -c 10: 22.536 s; nghttp -n -m 100: 2.626 s',
      where: `${SEED}, section "HTTP/1.1": ab's "Time taken for tests:   22.536 seconds", "并发10发送100个请求总共花了\`22.5\`秒"; section "HTTP/2": \`time nghttp -n -m 100\` "real 0m2.626s", "100个请求花了\`2.6\`秒，完胜http/1.1！"`
    }
  }),
  all([
    meets(AB, CONNECTION_PER_REQUEST, { text: 'ab opens a connection for every request', where: toolIs('ab') }),
    meets({ lane: '*', mode: null, name: 'nghttp' }, ONE_CONNECTION, { text: 'nghttp sends every request on one connection', where: r => NGHTTP_LANES.includes(r.lane) && toolIs('nghttp')(r) })
  ], {
    text: 'nghttp sends the 100 HTTP/2 requests as 100 streams of one connection, where ab opens a connection (and a TLS handshake) for every request',
    explain: () => '`h2bench load --preset ab-vs-nghttp --trace` prints the frames',
    source: {
      figure: 'nghttp -v -m 2: one connection ("Connected" once) carrying streams 13 and 15, the second sent before the first was answered; ab: "Connect:" 1454–3351 ms (mean 1588) per request',
      where: `${SEED}, section "Bonus": "从输出可以看到，发送两个请求，用http2只打开一个连接，并且第二个请求并没有等第一个完成之后再发送，而是同步地发送。"; section "HTTP/1.1": ab's "Connection Times (ms)" table`
    }
  })
]
