'use strict'

// Seed 003 (Cloudflare, "Comparing HTTP/3 vs HTTP/2 performance"), its words on head-of-line blocking, asked of
// one batch of 100 parallel 20 KB requests on one connection: HTTP/3 against HTTP/2 at the same edge (h3 against
// h2e: the same Caddy, QUIC against TCP), each batch from a warm connection (the page's warm-up), without and with loss.
const { faster, suffersLess } = require('./forms')

const SEED = 'seed 003 (003_fbb697946b0f444f.txt), Cloudflare, "Comparing HTTP/3 vs HTTP/2 performance", section 优点'
const SAID = '"HTTP/3的主要优点之一是提高了性能,特别是同时获取多个对象。使用HTTP/2,TCP连接中的任何中断(包丢失)都会阻塞所有流(行首阻塞)。因为HTTP/3是基于UDP的,如果一个数据包被丢弃,它只会中断一个流,而不是所有的流。"'
const SOURCE = { figure: 'none (a statement, no measurement)', where: `${SEED}: ${SAID}` }
const LIKE = ['state', 'connections']
const P10 = { name: 'p10 of the completion times in a batch', samples: r => r.hol ? r.hol.p10Samples : [] }

const lossy = r => Boolean(r.hol) && r.hol.lossPct > 0
const ok = r => r && r.samples.length > 0 && r.failures === 0 && r.hol && r.hol.p10 !== null
const at = (rows, lane, loss) => rows.find(r => r.lane === lane && r.hol && r.hol.lossPct === loss && ok(r)) || null
const lossesOf = rows => [...new Set(rows.filter(lossy).map(r => r.hol.lossPct))].sort((a, b) => a - b)
const s = v => `${(v / 1000).toFixed(2)} s`
const x = v => `${v.toFixed(2)}×`

// The cell of the batch without loss, or null.
function cleanCell (row, rows) {
  const base = rows.find(r => r.hol && r.hol.lossPct === 0)
  return base ? base.cell : null
}

// Mathis et al.'s estimate (a model, not a bound) of a Reno-like sender's time for the batch's bytes at random
// loss p: bytes ÷ (MSS ÷ RTT × 1.22 ÷ √p), MSS 1,460 B.
function mathisMs (row, lossPct) {
  const bytes = row.params.requests * row.params.sizeBytes
  const rate = 1460 / (row.hol.rttMs / 1000) * 1.22 / Math.sqrt(lossPct / 100)
  return bytes / rate * 1000
}

// The algorithm names of a row's ccSeen ("bbr ×3" → ['bbr']).
const ccNames = row => row && row.ccSeen ? [...new Set(row.ccSeen.split(', ').map(v => v.split(' ')[0]))] : []

// Per loss, each TCP lane's batch time against h3's; h3 against Mathis's estimate; h2e's congestion control.
function batchTimes (rows) {
  const losses = lossesOf(rows).filter(loss => at(rows, 'h2e', loss) && at(rows, 'h3', loss))
  if (!losses.length) return ''
  const vs = lane => losses.map(loss => [loss, at(rows, lane, loss), at(rows, 'h3', loss)]).filter(([, a]) => a)
  const spdy = vs('h2')
  const tcp = ccNames(at(rows, 'h2e', losses[0]))
  return `h2e (same Caddy, TCP) takes ${vs('h2e').map(([loss, a, b]) => `${x(a.median / b.median)} h3's time at ${loss} % loss (${s(a.median)} vs ${s(b.median)})`).join(', ')}` +
    (spdy.length ? `; h2 (spdy): ${spdy.map(([loss, a, b]) => `${x(a.median / b.median)} at ${loss} %`).join(', ')}` : '') +
    `; an ESTIMATE, not a bound, of a loss-driven (Reno-like) sender's time for these bytes (Mathis's model: MSS ÷ RTT × 1.22 ÷ √p): ${losses.map(loss => {
      const h3 = at(rows, 'h3', loss)
      return `${s(mathisMs(h3, loss))} at ${loss} % (h3 ${x(h3.median / mathisMs(h3, loss))})`
    }).join(', ')}` +
    `; h2e's TCP congestion control (ss -ti on the server's sockets): ${tcp.length ? tcp.join(', ') : 'not seen'}, h3's quic-go CUBIC` +
    (tcp.includes('bbr') ? '; BBR does not back off on random loss, CUBIC does: the source names the same confound (BBR for its HTTP/2, CUBIC for its HTTP/3), and h3-cc runs CUBIC on both' : '')
}

// Per loss, how much the loss delayed each lane's first tenth, and the spread of the completions; where the first
// tenth finished without loss.
function spread (rows) {
  const a0 = at(rows, 'h2e', 0)
  const b0 = at(rows, 'h3', 0)
  const losses = lossesOf(rows).filter(loss => at(rows, 'h2e', loss) && at(rows, 'h3', loss))
  if (!losses.length) return ''
  const pair = loss => [at(rows, 'h2e', loss), at(rows, 'h3', loss)]
  const f = r => r.hol.p10 / r.median
  return `compared: ${P10.name}, one sample a batch` +
    (a0 && b0 ? `; the loss delays p10 ${losses.map(loss => { const [a, b] = pair(loss); return `${x(a.hol.p10 / a0.hol.p10)} on h2e, ${x(b.hol.p10 / b0.hol.p10)} on h3 at ${loss} %` }).join('; ')}` : '') +
    `; spread p90 − p10 over the median completion (h2e vs h3): ${losses.map(loss => { const [a, b] = pair(loss); return `${(a.hol.spreadMs / a.hol.p50).toFixed(2)} vs ${(b.hol.spreadMs / b.hol.p50).toFixed(2)} at ${loss} %` }).join(', ')}` +
    (a0 && b0 ? `; without loss the first tenth finished at ${f(b0).toFixed(2)} of the batch time on h3 and ${f(a0).toFixed(2)} on h2e (${s(b0.hol.p10)} vs ${s(a0.hol.p10)}): p10 follows the lane's sending rate as well as head-of-line blocking` : '')
}

module.exports = [
  faster('h3', 'h2e', {
    text: 'Under packet loss HTTP/3 completes a batch of parallel requests faster than HTTP/2 over one TCP connection (a lost packet stalls only its own stream)',
    where: lossy,
    match: LIKE,
    source: SOURCE,
    explain: batchTimes
  }),
  suffersLess('h3', 'h2e', { changed: lossy, baseOf: cleanCell }, {
    text: "HTTP/3's streams finish more independently under loss: a lost packet does not hold back the requests that were not in it (the loss delays the first tenth of the batch less)",
    match: LIKE,
    metric: P10,
    source: SOURCE,
    explain: spread
  })
]
