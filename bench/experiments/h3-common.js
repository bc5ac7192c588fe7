'use strict'

// What h3-pages and h3-cc share: the link (Cloudflare's test did not publish
// its path; these numbers make a 15 KB page a few round trips and a 1 MB page
// mostly bandwidth, as their 443 ms and 2.3 s suggest), the source's figures,
// and helpers to read a row's page size, loss and congestion control.
//
// rtt=100ms: a long-haul or mobile path (Cloudflare's 443 ms for 15 KB is
//   about four round trips of 100 ms);
// down=20mbit, up=5mbit: a common broadband/4G line; 1 MiB takes ≥ 0.44 s of
//   it on the wire, so the 1 MB page is bandwidth- and slow-start-bound;
// queue=170: one bandwidth-delay product (20 Mbit/s × 100 ms ≈ 170 packets of
//   1,500 B) at the bottleneck, the classic buffer size: a sender that
//   overshoots loses packets, as on a real path, without seconds of bufferbloat;
// loss: random, in both directions (data, ACKs, handshakes), 0.5, 2 and 5 %.
const { headerBytesOf, WIRE } = require('../kinds/bound-form')

const LINK = 'rtt=100ms,down=20mbit,up=5mbit,queue=170'
const RTT_MS = 100
const DOWN_BPS = 20e6
const LOSSES = [0, 0.5, 2, 5]
const PAGES = [{ size: '15kb', label: '15 KB' }, { size: '1mb', label: '1 MB' }]

const linkWithLoss = loss => loss ? `${LINK},loss=${loss}%` : LINK
const lossLabel = loss => loss ? `${loss} % loss` : 'no loss'
// A cell's name, short enough for the chart's axis: "15 KB 0.5%", "cubic 2%".
const cellLabel = (what, loss) => `${what} ${loss}%`

// Cloudflare's published page loads (s): HTTP/3 and HTTP/2, per page.
const CLOUDFLARE = { '15 KB': { h3: 0.443, h2: 0.458 }, '1 MB': { h3: 2.33, h2: 2.30 } }

const lossOf = row => {
  const m = /loss=([\d.]+)%/.exec(row.linkSpec || '')
  return m ? Number(m[1]) : 0
}
const pageOf = row => row.params.sizeBytes >= 1048576 ? '1 MB' : `${Math.round(row.params.sizeBytes / 1024)} KB`
const ok = r => r && r.samples.length > 0 && r.failures === 0 && r.median !== null

// The physical lower bound of a page load on the link: two round trips (the
// document, then its subresources; handshakes taken as free, 0-RTT) plus every
// byte of the page through the downlink (per response the fewest header bytes
// any protocol can send, as the bound is every lane's, and TCP/IP + TLS
// overhead of 1,500-byte packets).
function pageBoundMs (sizeBytes, resources) {
  const bytes = (sizeBytes + resources * headerBytesOf(null)) * WIRE
  return 2 * RTT_MS + bytes * 8 / DOWN_BPS * 1000
}

// median(a) / median(b) of the rows of two lanes in the same cell.
function pairRatio (rows, a, b, cell) {
  const ra = rows.find(r => r.lane === a && r.cell === cell && ok(r))
  const rb = rows.find(r => r.lane === b && r.cell === cell && ok(r))
  return ra && rb ? ra.median / rb.median : null
}

const x = v => v === null ? '–' : `${v.toFixed(2)}×`
const ms = v => `${Math.round(v)} ms`

module.exports = { LINK, RTT_MS, DOWN_BPS, LOSSES, PAGES, CLOUDFLARE, linkWithLoss, lossLabel, cellLabel, lossOf, pageOf, ok, pageBoundMs, pairRatio, x, ms }
