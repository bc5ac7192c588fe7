'use strict'

// Seed 004: h2load -t 10 -c 100 -n 1000 -m 100 against HTTP/1.1 and HTTP/3
// (nginx-quic, its 612-byte index page) on a LAN, with netem on the server
// adding latency, loss, duplication and corruption; its table and six
// conclusions. Here: the same workload on every lane (h2load for HTTP/1.1
// and HTTP/2, oha for HTTP/3), through the packet-level link with the same
// impairments on the server → client direction (link presets "QUIC article:
// …"), the clean row too, so every row crosses the same forwarder. Each cell
// runs a second variant (mode "oha"): oha on h1 and h2e too, so HTTP/3 is
// also compared with the same tool on both sides, as the source's h2load was
// (oha shares one queue of requests between its connections, h2load gives
// each its share: under loss that alone changes totals); on the clean link
// oha runs on every HTTP/2 lane, against h2load there: is the HTTP/3 client
// the bottleneck?
const { verdict, engineVerdict, verdictCounts, slowdownComparison } = require('../runner/conclusions')
const { workloadOf } = require('../runner/compare-rows')
const { compareWorkload } = require('../../client/js/verdict')
const { loadPreset, NETEM_ROWS } = require('../../load/presets')

// The source's workload per protocol, as its table shows it: every row's time
// × req/s is 10,000 requests (406.49 ms × 24,601 req/s; 33.64 s × 297.28),
// not the 1,000 its command line says, on 100 connections with -m 100: 100
// streams a connection on HTTP/3, 100 requests pipelined on HTTP/1.1 (h2load's
// -m with --h1). Pipelining must match for an h1 ÷ h3 verdict to mean what the
// source's did: without it HTTP/1.1 pays a round trip per request, where the
// source's paid one per connection. Other differences are named.
const SOURCE_WORKLOAD = {
  'http/1.1': { tool: 'h2load', connections: 100, streams: 1, pipelining: 100, requests: 10000 },
  h3: { tool: 'h2load', connections: 100, streams: 100, pipelining: 1, requests: 10000 }
}
const MUST_MATCH = ['pipelining']

// Our h1 and h3 rows' workloads against the source's: → { comparable, differences: ['h1 pipelining: 1 here, 100 in the source', …] }.
function workloadAgainstSource (rows) {
  const out = { comparable: true, differences: [] }
  for (const row of rows.filter(Boolean)) {
    const ours = workloadOf(row)
    const theirs = SOURCE_WORKLOAD[/^http\/1/.test(row.protocol || '') ? 'http/1.1' : 'h3']
    if (!ours) continue
    const c = compareWorkload(ours, theirs, MUST_MATCH)
    out.comparable = out.comparable && c.comparable
    out.differences.push(...c.differences.map(d => `${row.lane}${row.mode ? ` (${row.mode})` : ''} ${d}`))
  }
  out.differences = [...new Set(out.differences)]
  return out
}

const PRESET = loadPreset('h2load-netem-table')
const SMOKE = { requests: 100, connections: 10, muxConnections: 10, streams: 10, pipeline: 10, threads: 2, size: 612, delay: 0 }

const CLEAN = NETEM_ROWS[0].label
const MAIN = { mode: null }
const SAME_TOOL = lanes => ({ mode: 'oha', tools: { 'http/1.1': 'oha', h2: 'oha' }, lanes })
const variantsOf = row => [MAIN, SAME_TOOL(row.link === 'none' ? ['h1', 'h2', 'h2n', 'h2e'] : ['h1', 'h2e'])]

const cellOf = (row, workload = PRESET.workload, extra = {}) => ({
  preset: row.label,
  link: row.link,
  requests: workload.requests,
  size: String(workload.size),
  delay: 0,
  // A row the source could not finish (h1 under loss + corruption) may take minutes.
  timeoutS: row.link === 'none' || row.link === 'quic-dup' ? 60 : 180,
  workload: { ...workload, muxConnections: workload.muxConnections ?? workload.connections },
  ...extra
})

const ok = r => r && r.samples.length > 0 && r.failures === 0
const find = (rows, lane, label, mode = null) => rows.find(r => r.lane === lane && r.preset === label && (r.mode || null) === mode) || null
const s = v => v === null || v === undefined ? '–' : (v / 1000).toFixed(2)
const x = v => v === null || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`
// h1's time over h3's in a cell: > 1 means HTTP/3 ahead (the source's sense
// of "advantage"). h2load's h1 (pipelined, as the source's h2load --h1 -m 100
// was) against oha's h3; oha on h1 too (one tool on both sides, but oha does
// not pipeline) beside it when that variant ran, and in its place when
// h2load's h1 did not run.
function edge (rows, label) {
  const h3 = find(rows, 'h3', label)
  if (!h3 || !ok(h3)) return null
  // Runs with a failed request are not samples (bench/cells/load.js): a row
  // with samples counts, its failed runs are said; one with none did not finish.
  const ratioOf = h1 => !h1 ? null : h1.samples.length ? h1.median / h3.median : h1.failures ? Infinity : null
  const same = find(rows, 'h1', label, 'oha')
  const h2l = find(rows, 'h1', label)
  const ratio = ratioOf(h2l) ?? ratioOf(same)
  if (ratio === null) return null
  const h1 = ratioOf(h2l) !== null ? h2l : same
  return { ratio, byOha: h1 === same, ohaRatio: h1 === same ? null : ratioOf(same), h1: h1.samples.length ? h1.median : null, h1Failed: h1.failures, h3: h3.median, h1Row: h1, h3Row: h3 }
}
const say = (label, e) => e ? `${label}: h1 ${e.h1 === null ? 'did not finish' : `${s(e.h1)} s${e.h1Failed ? ` (${e.h1Failed} runs with failed requests left out)` : ''}`}, h3 ${s(e.h3)} s (h1 ÷ h3 ${x(e.ratio)}` +
  `${e.byOha ? ', oha on both' : `, h2load on h1, oha on h3${e.ohaRatio !== null ? `; with oha on h1 ${x(e.ohaRatio)}` : ''}`})` : `${label}: not measured`
const src = label => {
  const r = NETEM_ROWS.find(q => q.label === label)
  return r && r.h3 ? (r.h1 ? r.h1.totalMs / r.h3.totalMs : Infinity) : null
}
const labelOf = slug => NETEM_ROWS.find(r => r.link === slug).label

// The verdict engine on the cells a conclusion reads (e: their edges):
// h3(i), HTTP/3 against HTTP/1.1 in cell i ('faster': HTTP/3 ahead; an h1
// that never finished is behind); moves(i, j), how HTTP/3's advantage moves
// from cell i to cell j: the engine's compareSlowdowns of h1 and h3 from i to
// j ('faster': the change hurts h1 more, HTTP/3's advantage grows; 'slower':
// it shrinks), with its ratio and interval.
function engineOn (e) {
  const done = v => v.h1Row.samples.length > 0
  return {
    h3: i => done(e[i]) ? engineVerdict(e[i].h1Row, e[i].h3Row) : 'faster',
    moves (i, j) {
      if (!done(e[j]) && done(e[i])) return { verdict: 'faster', ratio: Infinity, low: Infinity, high: Infinity, sentence: 'h1 never finished after the change' }
      return slowdownComparison(e[i].h1Row, e[j].h1Row, e[i].h3Row, e[j].h3Row)
    }
  }
}

// One conclusion: the cells it reads, and a test of the engine's verdicts on
// them (engineOn) and their h1 ÷ h3 ratios → a status. `rule` says the test in words.
function conclusion (text, labels, test, rule) {
  return {
    text,
    check (rows) {
      const e = labels.map(l => edge(rows, labelOf(l)))
      if (e.some(v => !v)) return verdict('not measured', `needs lanes h1 and h3 at ${labels.map(labelOf).join(', ')}`)
      const w = workloadAgainstSource(e.flatMap(v => [v.h1Row, v.h3Row]))
      const en = engineOn(e)
      const vs = e.map((v, i) => en.h3(i))
      const moved = labels.length === 2 ? en.moves(0, 1) : null
      const figures = `${e.map((v, i) => say(labelOf(labels[i]), v)).join('; ')}` +
        `; source ${labels.map(l => `${labelOf(l)} ${x(src(labelOf(l)))}`).join(', ')}` +
        `; by the verdict engine h3 against h1 is ${verdictCounts(vs, 'cells')}` +
        (moved ? `; from ${labelOf(labels[0])} to ${labelOf(labels[1])} (the engine on the slowdowns: h1's over h3's; 'faster': HTTP/3's advantage grows): ${moved.verdict}, ${moved.sentence}` : '') +
        `; ${rule}`
      if (!w.comparable) return verdict('not comparable', `the workload differs from the source's where it must not: ${w.differences.join('; ')}; the figures: ${figures}`)
      if (vs.includes('not measured') || (moved && moved.verdict === 'not measured')) return verdict('not measured', `fewer than 5 good runs a side in a cell it rests on; the figures: ${figures}`)
      return verdict(test(en, e.map(v => v.ratio), moved), figures +
        (w.differences.length ? `; workload differs from the source: ${w.differences.join('; ')}` : ''))
    }
  }
}

// The status when the engine's verdict `v` is the one the conclusion wants, and when it is not.
const wants = (v, want) => v === want ? 'reproduced' : v === 'inconclusive' ? 'inconclusive' : 'not reproduced'
// "Markedly", "clearly": HTTP/3 ahead after the change, and its advantage grown by the engine, at least 1.5× (the point estimate).
const grows = (en, moved) => {
  const ahead = en.h3(1) === 'faster'
  const grown = moved.verdict === 'faster' && moved.ratio >= 1.5
  return ahead && grown ? 'reproduced' : ahead || moved.verdict === 'faster' ? 'partly reproduced' : moved.verdict === 'inconclusive' ? 'inconclusive' : 'not reproduced'
}

module.exports = {
  id: 'h2load-netem',
  title: 'h2load -t 10 -c 100 -n 10000 -m 100 (HTTP/1.1 pipelined 100 deep, HTTP/2) and oha -p 100 (HTTP/3) under the source\'s netem impairments, through the packet-level link (seed 004)',
  kind: 'load',
  networks: ['link'],
  tools: PRESET.tools,
  modes: [null, 'oha'],
  sweep: { param: 'preset', label: 'impairment (server → client)' },
  cells: NETEM_ROWS.map(r => cellOf(r, PRESET.workload, { variants: variantsOf(r) })),
  smokeCells: () => [cellOf(NETEM_ROWS[0], SMOKE, { variants: [MAIN, SAME_TOOL(['h1', 'h2n', 'h2e'])] }), cellOf(NETEM_ROWS.find(r => r.link === 'quic-dup'), SMOKE)],
  // Per lane run: seconds on a clean link, a minute and more under 30 % loss; each variant has its edge's 5 s idle close.
  estimateMs: (c, { lanes }) => (lanes + 2) * ({ none: 2000, 'quic-dup': 2000, 'quic-delay': 6000, 'quic-loss-dup': 8000 }[c.link] || 40000) + 10000,
  source: null,
  sourceRows: NETEM_ROWS,
  sourceWorkload: SOURCE_WORKLOAD,
  conclusions: [{
    text: 'The HTTP/3 load client (oha) is not what limits the h3 lane: on the HTTP/2 lanes it reaches at least 80 % of h2load\'s rate',
    check (rows) {
      const pairs = rows.filter(r => r.mode === 'oha' && r.preset === CLEAN && r.protocol === 'h2' && ok(r)).map(r => ({ lane: r.lane, oha: r.load.reqPerSec, h2load: (find(rows, r.lane, CLEAN) || {}).load }))
        .filter(p => p.h2load && p.h2load.reqPerSec && p.oha)
      if (!pairs.length) return verdict('not measured', 'needs the clean cell with h2load and with oha on an HTTP/2 lane')
      const worst = Math.min(...pairs.map(p => p.oha / p.h2load.reqPerSec))
      const h3 = find(rows, 'h3', CLEAN)
      return verdict(worst >= 0.8 ? 'holds' : 'does not hold', `oha ÷ h2load req/s on the same lanes: ${pairs.map(p => `${p.lane} ${Math.round(p.oha)} vs ${Math.round(p.h2load.reqPerSec)} (${x(p.oha / p.h2load.reqPerSec)})`).join(', ')}` +
        (ok(h3) ? `; oha on h3 ${Math.round(h3.load.reqPerSec)} req/s` : '') + ' (a check of this tool, not a claim of the source)')
    }
  },
  conclusion('On a clean link HTTP/1.1 beats HTTP/3 (source: 406 ms vs 612 ms)', ['none'], en => wants(en.h3(0), 'slower'),
    'reproduced when the engine finds h3 slower than h1'),
  conclusion('Latency alone never makes HTTP/3 faster than HTTP/1.1', ['quic-delay'], en => en.h3(0) === 'faster' ? 'not reproduced' : en.h3(0) === 'inconclusive' ? 'inconclusive' : 'reproduced',
    'reproduced when the engine finds h3 not faster than h1 (slower or no difference)'),
  conclusion('Loss makes HTTP/3\'s advantage over HTTP/1.1 grow markedly', ['none', 'quic-loss'], (en, r, moved) => grows(en, moved),
    'reproduced when h3 is faster than h1 under loss and the loss hurts h1 at least 1.5× more than h3 (its interval clear of 1); partly when one of the two'),
  conclusion('Duplication alone gives HTTP/3 only a slight advantage', ['quic-dup'], (en, [r]) => {
    const v = en.h3(0)
    return v === 'faster' ? (r <= 1.5 ? 'reproduced' : 'not reproduced') : v === 'no difference' ? 'partly reproduced' : v === 'inconclusive' ? 'inconclusive' : 'not reproduced'
  }, 'reproduced when the engine finds h3 faster by at most 1.5× (slight); partly when it finds no difference'),
  conclusion('Corruption alone clearly increases HTTP/3\'s advantage', ['none', 'quic-corrupt'], (en, r, moved) => grows(en, moved),
    'reproduced when h3 is faster than h1 under corruption and corruption hurts h1 at least 1.5× more than h3 (its interval clear of 1); partly when one of the two'),
  conclusion('Latency together with loss changes the result little', ['quic-loss', 'quic-delay-loss'], (en, r, moved) =>
    moved.low >= 1 / 1.5 && moved.high <= 1.5 ? 'reproduced' : moved.low > 1.5 || moved.high < 1 / 1.5 ? 'not reproduced' : 'inconclusive',
  'little: reproduced when the whole 95 % interval of the change in h1 ÷ h3 lies within 1.5× either way, not reproduced when it lies outside'),
  // The source's h1 ÷ h3 went from 1.70× to 0.66×: HTTP/1.1 ahead again.
  conclusion('Duplication offsets loss, tilting the result back towards HTTP/1.1', ['quic-loss', 'quic-loss-dup'],
    (en, r, moved) => en.h3(1) === 'slower' ? 'reproduced' : moved.verdict === 'slower' ? 'partly reproduced' : moved.verdict === 'inconclusive' ? 'inconclusive' : 'not reproduced',
    'reproduced when the engine finds HTTP/1.1 ahead again, partly when HTTP/3\'s lead only shrinks (the engine on the slowdowns: slower)')
  ],
  extraTables (rows) {
    const labels = NETEM_ROWS.map(r => r.label).filter(l => rows.some(q => q.preset === l))
    const lanes = [...new Set(rows.filter(r => !r.mode).map(r => r.lane))]
    const same = ['h1', 'h2e'].filter(l => rows.some(r => r.lane === l && r.mode === 'oha'))
    const cellText = r => !r ? '–' : ok(r) ? `${s(r.median)} s, ${Math.round(r.load.reqPerSec)} req/s, ${r.load.connections} conn` : r.samples.length ? `${s(r.median)} s, ${r.failures} runs failed` : `failed${r.note ? ` (${r.note.split(';')[0]})` : ''}`
    const srcText = v => v ? `${v.totalMs >= 1000 ? `${(v.totalMs / 1000).toFixed(2)} s` : `${v.totalMs} ms`}, ${Math.round(v.reqPerSec)} req/s, ${v.mbPerSec} MB/s` : 'too slow to finish'
    const table = {
      title: 'Per impairment: total time (median), req/s and the connections the server saw per lane (h2load on h1 and HTTP/2, oha on h3; "oha": oha on that lane too), h1 ÷ h3 (h2load\'s pipelined h1 over oha\'s h3; "oha h1" where only oha\'s h1 finished), and the source\'s h1 and h3 rows (h2load on both, nginx-quic on a LAN)',
      head: ['impairment', ...lanes, ...same.map(l => `${l} (oha)`), 'h1 ÷ h3', 'source h1', 'source h3', 'source h1 ÷ h3'],
      body: labels.map(label => {
        const e = edge(rows, label)
        const sr = NETEM_ROWS.find(r => r.label === label)
        return [label, ...lanes.map(l => cellText(find(rows, l, label))), ...same.map(l => cellText(find(rows, l, label, 'oha'))),
          e ? `${x(e.ratio)}${e.byOha ? ' (oha h1)' : ''}` : '–', srcText(sr.h1), srcText(sr.h3), x(src(label))]
      })
    }
    const cal = rows.filter(r => r.mode === 'oha' && r.preset === CLEAN && r.protocol === 'h2').map(r => {
      const base = find(rows, r.lane, CLEAN)
      return [r.lane, ok(base) ? s(base.median) : '–', ok(r) ? s(r.median) : '–', ok(base) && ok(r) ? x(base.median / r.median) : '–',
        ok(base) ? String(Math.round(base.load.reqPerSec)) : '–', ok(r) ? String(Math.round(r.load.reqPerSec)) : '–']
    })
    return cal.length
      ? [table, { title: 'The HTTP/3 client against h2load: oha and h2load with the same workload on the same HTTP/2 lanes, clean link (medians)', head: ['lane', 'h2load (s)', 'oha (s)', 'h2load ÷ oha', 'h2load req/s', 'oha req/s'], body: cal }]
      : [table]
  }
}
