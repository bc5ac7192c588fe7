'use strict'

// Seed 003 (Cloudflare, "Comparing HTTP/3 vs HTTP/2 performance"): a 15 KB and a 1 MB page, HTTP/3 against
// HTTP/2 at the same edge (h3 against h2e: the same Caddy, QUIC against TCP), without and with random loss.
// Every load of every lane is a returning visitor's on a new connection (bench/cells/site-page.js): the two
// sides share their state by construction, and `match` says it must be so.
const { faster, notFaster, suffersLess } = require('./forms')
const { CLOUDFLARE, RTT_MS, lossOf, pageOf, ok, pageBoundMs, x, ms } = require('../../experiments/h3-common')
const { composition } = require('../../../server/routes/site')

const SEED = 'seed 003 (003_fbb697946b0f444f.txt), Cloudflare, "Comparing HTTP/3 vs HTTP/2 performance"'
const LIKE = ['state']

const clean = page => r => pageOf(r) === page && lossOf(r) === 0
const rowOf = (rows, lane, pick) => rows.find(r => r.lane === lane && pick(r) && ok(r)) || null
const trips = v => (v / RTT_MS).toFixed(1)
const lead = v => `${ms(Math.abs(v))} ${v >= 0 ? 'ahead' : 'behind'}`
const cf = page => `Cloudflare: ${CLOUDFLARE[page].h3} s against ${CLOUDFLARE[page].h2} s, ${x(CLOUDFLARE[page].h3 / CLOUDFLARE[page].h2)}`

// The page's load and first byte on each lane, without loss.
function smallPage (rows) {
  const h3 = rowOf(rows, 'h3', clean('15 KB'))
  const h2e = rowOf(rows, 'h2e', clean('15 KB'))
  if (!h3 || !h2e) return ''
  const others = ['h2', 'h2n'].map(lane => [lane, rowOf(rows, lane, clean('15 KB'))]).filter(([, r]) => r)
  return `h3 ${ms(h3.median)}, h2e ${ms(h2e.median)}` + others.map(([lane, r]) => `, ${lane} ${ms(r.median)} (h3 ${x(h3.median / r.median)} its time)`).join('') +
    `; time to first byte on a new connection (Navigation Timing responseStart) h3 ${ms(h3.responseStartMedian)}, h2e ${ms(h2e.responseStartMedian)}: ` +
    `${trips(h3.responseStartMedian)} and ${trips(h2e.responseStartMedian)} round trips of ${RTT_MS} ms (QUIC needs 1 with 0-RTT, 2 without; TCP + TLS 1.3, resumed or not, 3); ${cf('15 KB')}`
}

// Where h3's lead at 1 MB comes from: before the first byte (handshakes) or after it (the transfer); and the page's bound.
function bigPage (rows) {
  const at = (lane, page) => rowOf(rows, lane, clean(page))
  const h3 = at('h3', '1 MB')
  const h2e = at('h2e', '1 MB')
  if (!h3 || !h2e) return ''
  const ahead = (a, b) => `${lead(b.median - a.median)} of h2e, ${lead(b.responseStartMedian - a.responseStartMedian)} at the first byte`
  const small = [at('h3', '15 KB'), at('h2e', '15 KB')]
  const bound = pageBoundMs(1048576, composition(1048576).length)
  return `h3 ${ms(h3.median)}, h2e ${ms(h2e.median)}: h3 ${ahead(h3, h2e)}` + (small[0] && small[1] ? ` (at 15 KB ${ahead(small[0], small[1])})` : '') +
    `; h3 against a lower bound of ${ms(bound)} (two round trips + 1 MiB at 20 Mbit/s); ${cf('1 MB')}`
}

// The cell of the same page without loss, or null.
function cleanCell (row, rows) {
  const base = rows.find(clean(pageOf(row)))
  return base ? base.cell : null
}

// Per lossy cell, each lane's time over its own without loss, and h2e's slowest load over its median without loss;
// and the TCP lanes' congestion control.
function underLoss (rows) {
  const lossy = [...new Set(rows.filter(r => lossOf(r) > 0).map(r => r.cell))].map(cell => rows.find(r => r.cell === cell))
  const parts = lossy.map(any => {
    const at = (lane, cell) => rowOf(rows, lane, r => r.cell === cell)
    const base = cleanCell(any, rows)
    const [h3, h3base, h2e, h2ebase] = [at('h3', any.cell), at('h3', base), at('h2e', any.cell), at('h2e', base)]
    if (!h3 || !h3base || !h2e || !h2ebase) return null
    return `${pageOf(any)} at ${lossOf(any)} %: h3 ×${(h3.median / h3base.median).toFixed(2)}, h2e ×${(h2e.median / h2ebase.median).toFixed(2)} ` +
      `(h2e's slowest load +${ms(Math.max(...h2e.samples) - h2ebase.median)}; h3 takes ${x(h3.median / h2e.median)} h2e's time)`
  }).filter(Boolean)
  if (!parts.length) return ''
  const ccs = [...new Set(rows.filter(r => r.lane === 'h2e' && lossOf(r) > 0 && ok(r)).map(r => r.cc || 'the default'))]
  return `the loss multiplies each lane's time without loss (same page) by: ${parts.join('; ')}` +
    ' (TCP\'s initial retransmission timeout, which a lost SYN or handshake packet costs, is 1 s: RFC 6298)' +
    (ccs.length ? `; the TCP lanes ran ${ccs.join(', ')}` + (ccs.includes('bbr') ? ", which does not back off on random loss while quic-go's CUBIC does: h3-cc compares with CUBIC on both" : '') : '')
}

module.exports = [
  faster('h3', 'h2e', {
    text: 'A small page (15 KB) loads faster over HTTP/3 than over HTTP/2',
    where: clean('15 KB'),
    match: LIKE,
    source: { figure: 'HTTP/3 443 ms, HTTP/2 458 ms on average (15 KB test page)', where: `${SEED}: "对于15KB的小测试页,HTTP/3平均需要443ms来加载,而HTTP/2则需要458ms"` },
    explain: smallPage
  }),
  notFaster('h3', 'h2e', {
    text: 'At 1 MB the advantage is gone: HTTP/3 about as fast as HTTP/2, or slightly slower',
    where: clean('1 MB'),
    match: LIKE,
    source: { figure: 'HTTP/3 2.33 s, HTTP/2 2.30 s (1 MB page)', where: `${SEED}: "一旦我们将页面大小增加到1MB,这种优势就消失了:在我们今天的网络上,HTTP/3的速度比HTTP/2稍慢,加载速度为2.33秒,而加载速度为2.30秒"` },
    explain: bigPage
  }),
  suffersLess('h3', 'h2e', { changed: r => lossOf(r) > 0, baseOf: cleanCell }, {
    text: 'Under packet loss HTTP/3 suffers less than HTTP/2 (one lost packet stalls one stream, not all: no TCP head-of-line blocking)',
    match: LIKE,
    source: { figure: 'none (a statement, no measurement)', where: `${SEED}, section 优点: "使用HTTP/2,TCP连接中的任何中断(包丢失)都会阻塞所有流(行首阻塞)。因为HTTP/3是基于UDP的,如果一个数据包被丢弃,它只会中断一个流,而不是所有的流。"` },
    explain: underLoss
  })
]
