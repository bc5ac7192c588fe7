'use strict'

// Seed 004: nginx-quic, `h2load -t 10 -c 100 -m 100` (10,000 requests by its table) on HTTP/1.1 (pipelined 100
// deep) and HTTP/3, netem on the server; the six conclusions it lists under its table, and h2bench's own check of
// its HTTP/3 client. The rows: bench/experiments/h2load-netem.js, one cell per impairment (its preset the label of
// load/presets.js NETEM_ROWS); h1 is h2load's row (mode null), h3 oha's (the HTTP/3 client h2bench has).
//
// Like with like: the h1 and h3 sides share connections and requests (`match`, where the engine compares the two
// rows directly; the slowdown forms do not read it), but NOT the tool: h2load on h1, oha on h3 is this study's
// design (no h2load here speaks HTTP/3), so `match` leaves 'tool' out on purpose and each sentence names that
// difference (explain). A side whose workload differs from the source's where it must
// not (h1 not pipelined: it would pay a round trip per request where the source's paid one per connection)
// measured something else: `invalid`.
const { faster, notFaster, suffersLess, suffersAlike, near, atLeast, all } = require('./forms')
const { loadWorkload } = require('../runner/compare-rows')
const { compareWorkload } = require('../../../shared/verdict')
const { NETEM_ROWS } = require('../../../load/presets')
const { sourceWorkload: SOURCE_WORKLOAD } = require('../../experiments/h2load-netem')

const SEED = 'seed 004 (004_f16199259727fd5b.txt)'
const labelOf = slug => NETEM_ROWS.find(r => r.link === slug).label
const CLEAN = labelOf('none')
const DELAY = labelOf('quic-delay')
const LOSS = labelOf('quic-loss')
const DUP = labelOf('quic-dup')
const CORRUPT = labelOf('quic-corrupt')
const DELAY_LOSS = labelOf('quic-delay-loss')
const LOSS_DUP = labelOf('quic-loss-dup')

const H1 = { lane: 'h1', mode: null, name: 'h1 (h2load)' }
const H3 = { lane: 'h3', mode: null, name: 'h3 (oha)' }
const SAME = ['connections', 'requests']

const at = label => r => r.preset === label
// baseOf for suffersLess/suffersAlike: the cell of the same experiment at `label`.
const cellAt = label => (row, pool) => {
  const r = pool.find(q => q.preset === label && q.experiment === row.experiment)
  return r ? r.cell : null
}

// Our row's workload against the source's, for h1 or h3: → { comparable, differences }.
const MUST_MATCH = ['pipelining']
function againstSource (row) {
  const ours = row.load && row.load.command ? loadWorkload(row) : null
  return compareWorkload(ours, SOURCE_WORKLOAD[/^http\/1/.test(row.protocol || '') ? 'http/1.1' : 'h3'], MUST_MATCH)
}
function unlikeSource (row) {
  if (!['h1', 'h3'].includes(row.lane) || row.mode) return ''
  const c = againstSource(row)
  return c.comparable ? '' : `${row.lane}'s workload differs from the source's where it must not: ${c.differences.filter(d => MUST_MATCH.some(f => d.startsWith(`${f}:`))).join('; ')}`
}

// Figures of the cells at `labels`: h1 (h2load) and h3 (oha), h1 ÷ h3, oha's h1 beside it, the source's h1 ÷ h3,
// the tools of the two sides and every way our workload differs from the source's.
const s = ms => `${(ms / 1000).toFixed(2)} s`
const x = v => Number.isFinite(v) ? `${v.toFixed(2)}×` : '–'
const find = (rows, lane, label, mode = null) => rows.find(r => r.lane === lane && r.preset === label && (r.mode ?? null) === mode) || null
const timeOf = r => !r ? 'not run' : r.samples.length ? `${s(r.median)}${r.failures ? ` (${r.failures} run${r.failures === 1 ? '' : 's'} with failed requests left out)` : ''}` : 'did not finish'
function sourceRatio (label) {
  const r = NETEM_ROWS.find(q => q.label === label)
  return r.h1 ? `${x(r.h1.totalMs / r.h3.totalMs)}` : 'h1 too slow to finish'
}
function cellText (rows, label) {
  const h1 = find(rows, 'h1', label)
  const h3 = find(rows, 'h3', label)
  const oha = find(rows, 'h1', label, 'oha')
  const ratio = (a, b) => a && b && a.samples.length && b.samples.length ? x(a.median / b.median) : '–'
  const withOha = !oha ? '' : `; with oha on h1 ${oha.samples.length ? ratio(oha, h3) : `–, oha's h1 ${timeOf(oha)}`}`
  return `${label}: h1 ${timeOf(h1)}, h3 ${timeOf(h3)} (h1 ÷ h3 ${ratio(h1, h3)}${withOha}; source ${sourceRatio(label)})`
}
const figuresAt = labels => rows => {
  const used = rows.filter(r => labels.includes(r.preset) && ['h1', 'h3'].includes(r.lane) && !r.mode)
  if (!used.length) return ''
  const differences = [...new Set(used.flatMap(r => againstSource(r).differences.map(d => `${r.lane} ${d}`)))]
  return `${labels.map(l => cellText(rows, l)).join('; ')}; the sides differ in tool by design: h2load on h1, oha on h3` +
    (differences.length ? `; workload against the source's: ${differences.join('; ')}` : '')
}

// h2load and oha on the same HTTP/2 lanes, clean link: their rates (req/s).
function clientRates (rows) {
  const pairs = rows.filter(r => r.mode === 'oha' && r.preset === CLEAN && r.protocol === 'h2' && r.load && r.load.reqPerSec)
    .map(r => ({ lane: r.lane, oha: r.load.reqPerSec, h2load: ((find(rows, r.lane, CLEAN) || {}).load || {}).reqPerSec }))
    .filter(p => p.h2load)
  const h3 = find(rows, 'h3', CLEAN)
  if (!pairs.length) return ''
  return `oha against h2load on the same lanes, req/s: ${pairs.map(p => `${p.lane} ${Math.round(p.oha)} vs ${Math.round(p.h2load)} (${x(p.oha / p.h2load)})`).join(', ')}` +
    (h3 && h3.load && h3.load.reqPerSec ? `; oha on h3 ${Math.round(h3.load.reqPerSec)} req/s` : '') +
    '; on the same requests and connections (a cell where they differ is not comparable) the time ratio is the rate ratio inverted (a check of this tool, not a claim of the source)'
}

// The h1-vs-h3 options every source claim shares.
const sides = labels => ({ invalid: unlikeSource, explain: figuresAt(labels) })

// An impairment that grows HTTP/3's advantage: h3 faster under it, and it slows h3 down less than h1 (against clean).
const advantageGrows = (label, what, options) => all([
  faster(H3, H1, { text: `HTTP/3 faster than HTTP/1.1 under ${what}`, where: at(label), match: SAME }),
  suffersLess(H3, H1, { changed: at(label), baseOf: cellAt(CLEAN) }, { text: `${what} slows HTTP/3 down less than HTTP/1.1` })
], { ...options, ...sides([CLEAN, label]) })

module.exports = [
  // h2bench's own check: times compared (atLeast reads times: oha reaches 80 % of h2load's rate when its time is at
  // most h2load's ÷ 0.8), on the same requests and connections (match), so times stand for rates.
  atLeast({ lane: '*', mode: 'oha', name: 'oha' }, { lane: '*', mode: null, name: 'h2load' }, 0.8, {
    text: 'The HTTP/3 load client (oha) is not what limits the h3 lane: on the HTTP/2 lanes it reaches at least 80 % of h2load\'s rate',
    hypothesis: true,
    where: r => r.preset === CLEAN && r.protocol === 'h2',
    match: ['connections', 'streams', 'requests'],
    explain: clientRates
  }),
  faster(H1, H3, {
    text: 'On a clean link HTTP/1.1 beats HTTP/3',
    where: at(CLEAN),
    match: SAME,
    source: { figure: 'HTTP1.1 总耗时406.49ms (24601.15 req/s), HTTP3 总耗时611.90ms (16342.59 req/s), no netem', where: `${SEED}, the table's first two rows (延迟, 丢包率, 重复率, 包损毁率 all "-"); the closing paragraph: "常规情况下HTTP1.1的性能优势是不可视而不见的"` },
    ...sides([CLEAN])
  }),
  notFaster(H3, H1, {
    text: 'Latency alone never makes HTTP/3 faster than HTTP/1.1',
    where: at(DELAY),
    match: SAME,
    source: { figure: 'at 延迟 100ms+-10: HTTP1.1 总耗时1.90s (5275.52 req/s), HTTP3 总耗时3.65ms as printed (2740.22 req/s: 3.65 s)', where: `${SEED}, the table's 100ms+-10 rows; the first conclusion: "单独提高延迟并不会出现HTTP3性能优于HTTP1.1的情况。"` },
    ...sides([DELAY])
  }),
  advantageGrows(LOSS, 'loss', {
    text: 'Loss makes HTTP/3\'s advantage over HTTP/1.1 grow markedly',
    source: { figure: 'HTTP1.1 406.49ms → 33.64s, HTTP3 611.90ms → 19.82s from no netem to 丢包率 30%', where: `${SEED}, the table's first rows and its 30% loss rows; the second conclusion: "丢包率的增加会使得HTTP3对HTTP1.1的性能优势明显增加。"` }
  }),
  // "Slight" as the source measured it: h3's time 419.98 ÷ 443.55 = 0.947× h1's, within ×(1 ± 0.056), the source's
  // own margin (443.55 ÷ 419.98 = 1.056): h3 ahead by up to about twice the source's advantage, and ahead (faster).
  all([
    faster(H3, H1, { text: 'HTTP/3 faster than HTTP/1.1 under duplication', where: at(DUP), match: SAME }),
    near(H3, H1, 419.98 / 443.55, 443.55 / 419.98 - 1, { text: 'by about the source\'s margin only', where: at(DUP), match: SAME })
  ], {
    text: 'Duplication alone gives HTTP/3 only a slight advantage',
    source: { figure: 'at 重复率 70%: HTTP1.1 总耗时443.55ms (23065.39 req/s), HTTP3 总耗时419.98ms (23810.43 req/s)', where: `${SEED}, the table's 70% duplication rows; the third conclusion: "单独提升包重复率HTTP3对HTTP1.1的性能仅有微弱的优势。"` },
    ...sides([DUP])
  }),
  advantageGrows(CORRUPT, 'corruption', {
    text: 'Corruption alone clearly increases HTTP/3\'s advantage',
    source: { figure: 'HTTP1.1 406.49ms → 14.46s, HTTP3 611.90ms → 4.12s from no netem to 包损毁率 20%', where: `${SEED}, the table's first rows and its 20% corruption rows; the fourth conclusion: "单独提升包损毁率会明显提升HTTP3对HTTP1.1的性能优势。"` }
  }),
  // "Little": the interval of h1's slowdown over h3's within 1.5× either way, as this conclusion has been read.
  suffersAlike(H1, H3, { changed: at(DELAY_LOSS), baseOf: cellAt(LOSS) }, 0.5, {
    text: 'Latency together with loss changes the result little',
    source: { figure: 'HTTP1.1 33.64s → 30.64s, HTTP3 19.82s → 17.16s from 丢包率 30% to 延迟 100ms+-10 with 丢包率 30%', where: `${SEED}, the table's 30% loss rows and its 100ms+-10 with 30% loss rows; the fifth conclusion: "延迟与其他因素同时出现不会对整体结果造成更大的影响。"` },
    ...sides([LOSS, DELAY_LOSS])
  }),
  // Read as the source's outcome (HTTP/1.1 ahead under loss with duplication) and the move that tilts it (adding
  // duplication to loss helps HTTP/1.1 more than HTTP/3: its time falls further, its "slowdown" the smaller).
  all([
    faster(H1, H3, { text: 'HTTP/1.1 faster than HTTP/3 under loss with duplication', where: at(LOSS_DUP), match: SAME }),
    suffersLess(H1, H3, { changed: at(LOSS_DUP), baseOf: cellAt(LOSS) }, { text: 'adding duplication to loss favours HTTP/1.1 more than HTTP/3' })
  ], {
    text: 'Duplication offsets loss, tilting the result back towards HTTP/1.1',
    source: { figure: 'HTTP1.1 33.64s → 2.03s, HTTP3 19.82s → 3.06s from 丢包率 30% to 丢包率 30% with 重复率 70%', where: `${SEED}, the table's 30% loss rows and its 30% loss with 70% duplication rows; the sixth conclusion: "包重复率与损毁率(或丢包率)是一组对立项,丢包或损毁导致可用包减少,但重复率又填补了这一损失,导致结果倾向HTTP1.1更优。"` },
    ...sides([LOSS, LOSS_DUP])
  })
]
