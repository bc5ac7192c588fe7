'use strict'

// Seed 003 (Cloudflare): "With HTTP/2, any interruption (packet loss) in the
// TCP connection blocks all streams (head-of-line blocking). Because HTTP/3
// is UDP-based, if a packet is dropped, it only interrupts one stream, not
// all of them." Here: one window.h2bench.run batch of 100 parallel 20 KB
// requests over one connection (HTTP/2 over TCP at the Caddy edge and at
// spdy, HTTP/3 over QUIC at the same Caddy) through a 20 mbit/s, 50 ms link
// losing 0, 1, 2 or 5 % of its packets each way; the batch time, and how
// the requests' completion times spread within a batch. Runner:
// bench/cells/h3-hol.js (kind hol).

const LOSSES = [0, 1, 2, 5]
const linkOf = loss => `rtt=50ms,down=20mbit,up=20mbit,loss=${loss}%`


module.exports = {
  id: 'h3-hol',
  title: 'Head-of-line blocking under packet loss: 100 parallel 20 KB requests on one connection, HTTP/3 (QUIC) vs HTTP/2 (TCP) (seed 003)',
  kind: 'hol',
  lanes: ['h2e', 'h2', 'h3'],
  networks: ['link'],
  sweep: { param: 'preset', label: 'link (50 ms RTT, 20 mbit/s each way)' },
  cells: LOSSES.map(loss => ({ requests: 100, size: '20kb', delay: 0, preset: `loss ${loss} %`, link: linkOf(loss) })),
  smokeCells: () => [{ requests: 20, size: '5kb', delay: 0, preset: 'loss 2 %', link: linkOf(2) }],
  // Per repeat and lane: the warm-up, the bytes at 20 mbit/s, a few RTTs, and the loss's retransmissions.
  estimateMs: (cell, { lanes }) => lanes * (cell.requests * 20 * 1024 * 8 / 20e3 * 1.5 + 500),
  source: null
}
