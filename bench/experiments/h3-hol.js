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
const { verdict, engineVerdict, verdictCounts, statusOf, slowdownComparison } = require('../runner/conclusions')

const LOSSES = [0, 1, 2, 5]
const linkOf = loss => `rtt=50ms,down=20mbit,up=20mbit,loss=${loss}%`

const ok = r => r && r.samples.length > 0 && r.failures === 0 && r.hol && r.hol.p10 !== null
const at = (rows, lane, loss) => rows.find(r => r.lane === lane && r.hol && r.hol.lossPct === loss && ok(r)) || null
const s = v => v === null || v === undefined ? '–' : `${(v / 1000).toFixed(2)} s`
const x = v => `${v.toFixed(2)}×`

// Mathis et al.'s estimate (a model, not a bound: real senders beat it and fall short of it) for a Reno-like sender at random loss: the batch's bytes at MSS ÷ RTT × 1.22 ÷ √p.
function mathisMs (row, lossPct) {
  const bytes = row.params.requests * row.params.sizeBytes
  const rate = 1460 / (row.hol.rttMs / 1000) * 1.22 / Math.sqrt(lossPct / 100)
  return bytes / rate * 1000
}

// Per lossy cell, how many times longer the TCP lane took than h3, and how
// much each lane's early finishers (p10) were delayed by the loss.
function compare (rows, tcp) {
  const out = []
  for (const loss of [...new Set(rows.filter(r => r.hol).map(r => r.hol.lossPct))].filter(l => l > 0).sort((a, b) => a - b)) {
    const a = at(rows, tcp, loss)
    const b = at(rows, 'h3', loss)
    if (!a || !b) continue
    const a0 = at(rows, tcp, 0)
    const b0 = at(rows, 'h3', 0)
    out.push({
      loss,
      ratio: a.median / b.median,
      p10Tcp: a0 ? a.hol.p10 / a0.hol.p10 : null,
      p10H3: b0 ? b.hol.p10 / b0.hol.p10 : null,
      spreadTcp: a.hol.spreadMs / a.hol.p50,
      spreadH3: b.hol.spreadMs / b.hol.p50,
      a,
      b
    })
  }
  return out
}

// The algorithm names of a row's ccSeen ("bbr ×3" → ['bbr']).
const ccNames = row => row && row.ccSeen ? [...new Set(row.ccSeen.split(', ').map(v => v.split(' ')[0]))] : []

// How the times compare with what a loss-driven sender can do, from the
// figures: h3 (quic-go's CUBIC) against Mathis's estimate, and which TCP
// congestion control the h2e sockets used (ss -ti).
function congestionNote (c) {
  const vsMathis = c.map(p => ({ loss: p.loss, estimate: mathisMs(p.b, p.loss), r: p.b.median / mathisMs(p.b, p.loss) }))
  const matches = vsMathis.every(v => v.r >= 0.6 && v.r <= 1.7)
  const tcp = ccNames(c[0].a)
  const tcpText = tcp.length ? tcp.join(', ') : 'ccSeen' in c[0].a ? 'not seen on the sockets' : 'not recorded in this run'
  const tcpFaster = c.filter(p => engineVerdict(p.a, p.b) === 'slower')
  let out = `an ESTIMATE, not a bound, of a loss-driven (Reno-like) sender's time for these bytes (Mathis's model: MSS ÷ RTT × 1.22 ÷ √p): ${vsMathis.map(v => `${s(v.estimate)} at ${v.loss} % (h3 ${x(v.r)})`).join(', ')}` +
    `; h2e's TCP congestion control (ss -ti on the server's sockets): ${tcpText}`
  if (matches) out += "; h3's times, within 0.6–1.7× of the estimate at every loss, are those of a sender that cuts its window at every random loss"
  if (tcpFaster.length && tcp.includes('bbr')) {
    out += `; h2e with BBR, which does not back off on random loss, is the faster at ${tcpFaster.map(p => `${p.loss} %`).join(', ')}: ` +
      'there congestion control, not head-of-line blocking, decides this comparison (the source names the same confound: BBR for its HTTP/2, CUBIC for its HTTP/3; h3-cc runs CUBIC on both)'
  }
  return out
}

// Without loss, where in the batch the first tenth finished on each lane:
// how the servers interleave their streams, before any loss.
function cleanOrder (rows) {
  const a = at(rows, 'h2e', 0)
  const b = at(rows, 'h3', 0)
  if (!a || !b) return ''
  const f = r => r.hol.p10 / r.median
  return `; without loss the first tenth already finished at ${f(b).toFixed(2)} of the batch time on h3 and ${f(a).toFixed(2)} on h2e ` +
    `(${s(b.hol.p10)} vs ${s(a.hol.p10)}): ${f(b) > f(a) * 1.5 ? 'h3 interleaves its streams more evenly, so its p10 follows the batch\'s rate and ' : ''}the loss's effect on p10 is ` +
    'the lane\'s sending rate as much as head-of-line blocking'
}

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
  source: null,
  conclusions: [{
    text: 'Under packet loss HTTP/3 completes a batch of parallel requests faster than HTTP/2 over one TCP connection (a lost packet stalls only its own stream)',
    check (rows) {
      const c = compare(rows, 'h2e')
      if (!c.length) return verdict('not measured', 'needs lanes h2e and h3 at a loss above 0 %')
      // By the verdict engine, per loss: h3's batch against h2e's at the same edge (spdy's told beside it).
      const verdicts = c.map(p => engineVerdict(p.a, p.b))
      const spdy = compare(rows, 'h2')
      return verdict(statusOf(verdicts), `h2e (same Caddy, TCP) takes ${c.map(p => `${x(p.ratio)} h3's time at ${p.loss} % loss (${s(p.a.median)} vs ${s(p.b.median)})`).join(', ')}` +
        `; by the verdict engine h3 is ${verdictCounts(verdicts, 'losses')}` +
        (spdy.length ? `; h2 (spdy): ${spdy.map(p => `${x(p.ratio)} at ${p.loss} %`).join(', ')}, h3 ${verdictCounts(spdy.map(p => engineVerdict(p.a, p.b)), 'losses')}` : '') +
        '; ' + congestionNote(c))
    }
  }, {
    text: "HTTP/3's streams finish more independently under loss: a lost packet does not hold back the requests that were not in it",
    check (rows) {
      const c = compare(rows, 'h2e').filter(p => p.p10Tcp !== null && p.p10H3 !== null)
      if (!c.length) return verdict('not measured', 'needs lanes h2e and h3 at 0 % and at a loss above 0 %')
      // By the verdict engine, per loss: how much the loss delays h3's p10 against how much it delays h2e's,
      // each against its own batches without loss (every batch's p10 a sample).
      const p10s = r => r.hol.p10Samples
      const compared = c.map(p => slowdownComparison(at(rows, 'h2e', 0), p.a, at(rows, 'h3', 0), p.b, p10s))
      const unrecorded = !c.every(p => p10s(p.a) && p10s(p.b))
      const verdicts = compared.map(v => v && v.verdict)
      return verdict(statusOf(verdicts), `the first tenth of the requests (p10 of completion times in a batch) is delayed by the loss ${c.map(p => `${x(p.p10Tcp)} on h2e, ${x(p.p10H3)} on h3 at ${p.loss} %`).join('; ')}; ` +
        `by the verdict engine on the loss's slowdown of p10 (faster: the loss delays h3's early requests less than h2e's): ${verdictCounts(verdicts, 'losses')}` +
        (unrecorded ? " (this run did not record each batch's p10: not measured)" : '') + '; ' +
        `spread p90−p10 over the median completion: ${c.map(p => `${p.spreadTcp.toFixed(2)} vs ${p.spreadH3.toFixed(2)} at ${p.loss} %`).join(', ')} (h2e vs h3)` +
        cleanOrder(rows))
    }
  }],
  extraTables (rows) {
    const body = rows.filter(ok).sort((a, b) => a.hol.lossPct - b.hol.lossPct || a.lane.localeCompare(b.lane)).map(r => [
      `${r.hol.lossPct} %`, r.lane, r.protocol || '–', s(r.median), s(r.hol.firstMs), s(r.hol.p10), s(r.hol.p50), s(r.hol.p90), s(r.hol.spreadMs), String(r.hol.batches), r.ccSeen || '–'])
    return [{
      title: 'Completion times of the requests within a batch (medians over the batches; from the batch start)',
      head: ['loss', 'lane', 'protocol', 'batch time', 'first request done', 'p10', 'p50', 'p90', 'p90 − p10', 'batches', 'congestion control (server sockets)'],
      body
    }]
  }
}
