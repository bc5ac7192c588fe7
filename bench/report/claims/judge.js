'use strict'

// A claim's status from the verdict engine's verdicts on the cells it names,
// by ONE rule for every claim of every experiment (docs/verdict.md, "How a claim
// is judged" says it in words):
//   1. each cell the claim rests on gets the engine's verdict (shared/verdict.js),
//      read by the claim's form as for the claim, against it, unsure
//      (inconclusive) or missing (not measured, not comparable);
//   2. no cell, a part of the claim (an all's) without a measured cell, or more
//      than half of the cells missing: "not measured";
//   3. every measured cell for: "reproduced";
//   4. none for and none against: "inconclusive";
//   5. more cells for than against: "partly reproduced";
//   6. otherwise: "not reproduced".
// h2bench's own hypotheses say "holds", "partly holds", "does not hold" for 3, 5, 6.
// The sentence is built here from the claim and those verdicts, with every
// cell, its verdict, ratio and interval, and the flags of the rows it rests on
// (drift, CPU-shaped). Experiments write no status word and no threshold.
const stats = require('../../../shared/stats')
const { compareRows, compareRowSlowdowns } = require('../runner/compare-rows')
const { RULES } = require('../../../shared/verdict')
const { paramOf } = require('../../cells/helpers')

const STATUS = {
  source: { all: 'reproduced', some: 'partly reproduced', none: 'not reproduced' },
  hypothesis: { all: 'holds', some: 'partly holds', none: 'does not hold' }
}
const NOT_MEASURED = 'not measured'
const INCONCLUSIVE = 'inconclusive'
const STATUS_WORDS = [...new Set([...Object.values(STATUS.source), ...Object.values(STATUS.hypothesis), NOT_MEASURED, INCONCLUSIVE])]

const RULE_TEXT = 'One rule for every claim: each cell it names gets the verdict engine\'s verdict, read by the claim\'s form as for, against, unsure (inconclusive) or missing (not measured, not comparable); ' +
  'no cell, a part without a measured cell, or more than half missing: not measured; every measured cell for: reproduced (holds); none for and none against: inconclusive; more for than against: partly reproduced (partly holds); otherwise not reproduced (does not hold).'

// How each form reads the engine's verdict of a cell (b against a: 'faster' means b is faster).
const MISSING = { 'not measured': 'missing', 'not comparable': 'missing' }
const READ = {
  faster: { faster: 'for', slower: 'against', 'no difference': 'against', inconclusive: 'unsure', ...MISSING },
  notFaster: { faster: 'against', slower: 'for', 'no difference': 'for', inconclusive: 'unsure', ...MISSING },
  same: { faster: 'against', slower: 'against', 'no difference': 'for', inconclusive: 'unsure', ...MISSING },
  // grows: b is the row at `to` against a at `from`: slower there is growth.
  grows: { faster: 'against', slower: 'for', 'no difference': 'against', inconclusive: 'unsure', ...MISSING },
  flat: { faster: 'against', slower: 'against', 'no difference': 'for', inconclusive: 'unsure', ...MISSING },
  // suffersLess: the engine on the slowdowns, 'faster' meaning the change hurts b less.
  suffersLess: { faster: 'for', slower: 'against', 'no difference': 'against', inconclusive: 'unsure', ...MISSING }
}

const browserOf = r => r.browser || 'chromium'
// A side's lane or mode '*' matches any, and pairs a row with the other side's row of the same lane or mode.
const matches = (row, side) => (side.lane === '*' || row.lane === side.lane) && (side.mode === '*' || (row.mode ?? null) === side.mode)
const sameSlot = (side, a, r) => (side.lane !== '*' || r.lane === a.lane) && (side.mode !== '*' || (r.mode ?? null) === (a.mode ?? null))
const partners = (claim, a, r) => sameSlot(claim.b, a, r)
// Rows of one cell: the same experiment, cell, network and browser.
const sameCell = (a, b) => a.experiment === b.experiment && a.cell === b.cell && a.network === b.network && browserOf(a) === browserOf(b)
const fmt = v => Number.isFinite(v) ? `${v >= 10 ? v.toFixed(0) : v.toFixed(2)}×` : '–'

// Fields of the two rows' workloads that differ where the claim says they must match.
function mismatch (claim, a, b) {
  if (!claim.match || !a.workload || !b.workload) return []
  return claim.match.filter(f => a.workload[f] !== b.workload[f]).map(f => `${f}: ${a.workload[f]} and ${b.workload[f]}`)
}

// The row as the engine sees it under the claim's metric (its own samples by default).
const measuredBy = (claim, row) => claim.metric ? { ...row, samples: claim.metric.samples(row) || [] } : row

// Why a row cannot be used, or ''.
const unusable = (claim, r) => (claim.invalid && claim.invalid(r)) || unmeasured(r)
const unmeasured = r => !r.samples.length || r.median === null ? `${describe(r)} has no good run` : r.failures ? `${describe(r)} had ${r.failures} failed request${r.failures === 1 ? '' : 's'}` : ''

// The ratio of the medians as the claim states it (see shown): b over a, or a over b for near, atLeast and atMost.
const medianRatio = (claim, a, b) => {
  const ratio = stats.median(a.samples) / stats.median(b.samples)
  return AS_STATED.has(claim.form) ? ratio : 1 / ratio
}

// One cell: the engine on a (the base) against b.
function item (claim, label, a, b) {
  if (!a || !b) return { label, verdict: NOT_MEASURED, why: `no ${describe(!a || !claim.b ? claim.a : claim.b)} row${claim.to !== undefined ? ` at ${claim.to}` : ''}` }
  const why = [a, b].map(r => unusable(claim, r)).filter(Boolean).join(', ')
  if (why) return { label, verdict: NOT_MEASURED, why }
  const differs = mismatch(claim, a, b)
  if (differs.length) return { label, verdict: 'not comparable', why: `workloads differ: ${differs.join('; ')}`, rows: [a, b] }
  const [ma, mb] = [measuredBy(claim, a), measuredBy(claim, b)]
  const c = compareRows(ma, mb)
  // Too few runs for an interval: the medians are still figures, said as such.
  if (c.verdict === NOT_MEASURED) return { label, verdict: NOT_MEASURED, why: `${c.n[0]} and ${c.n[1]} runs, at least ${RULES.minRuns} needed; medians only: ${fmt(medianRatio(claim, ma, mb))}`, rows: [a, b] }
  return { label, verdict: c.verdict, ratio: c.ratio, low: c.low, high: c.high, rows: [a, b] }
}

// A side's or a row's name: "h2", "h2 push".
const describe = side => side.name || (side.lane === '*' ? (side.mode && side.mode !== '*' ? side.mode : 'any lane') : `${side.lane}${side.mode && side.mode !== '*' ? ` ${side.mode}` : ''}`)
// A cell's label, with the row's lane and mode where the side takes any.
const labelOf = (label, side, row) => `${label(row)}${side.lane === '*' ? `, ${row.lane}` : ''}${side.mode === '*' && row.mode ? `, ${row.mode}` : ''}`

// The cells of a claim: → [{ label, verdict, reading, ratio, low, high, why, rows, part }].
function cellsOf (claim, rows, label) {
  const pool = claim.where ? rows.filter(claim.where) : rows
  const cells = []
  if (['faster', 'notFaster', 'same', 'near', 'atLeast', 'atMost'].includes(claim.form)) {
    for (const a of pool.filter(r => matches(r, claim.a))) {
      const b = pool.find(r => matches(r, claim.b) && sameCell(r, a) && partners(claim, a, r))
      const it = item(claim, labelOf(label, claim.a, a), a, b || null)
      cells.push(readOf(claim, it))
    }
  } else if (claim.form === 'grows' || claim.form === 'flat') {
    const froms = pool.filter(r => matches(r, claim.a) && paramOf(r, claim.param) === claim.from)
    for (const a of froms) {
      const b = pool.find(r => r.lane === a.lane && (r.mode ?? null) === (a.mode ?? null) && paramOf(r, claim.param) === claim.to &&
        r.network === a.network && browserOf(r) === browserOf(a) && r.experiment === a.experiment)
      cells.push(readOf(claim, item(claim, `${labelOf(label, claim.a, a)} → ${claim.to}`, a, b || null)))
    }
  } else if (claim.form === 'meets') {
    for (const a of pool.filter(r => matches(r, claim.a))) {
      const invalid = claim.invalid && claim.invalid(a)
      if (invalid) {
        cells.push({ label: labelOf(label, claim.a, a), verdict: NOT_MEASURED, reading: 'missing', why: invalid })
        continue
      }
      const { met, why } = claim.criterion.test(a)
      cells.push({ label: labelOf(label, claim.a, a), verdict: met === null ? NOT_MEASURED : met ? 'met' : 'not met', reading: met === null ? 'missing' : met ? 'for' : 'against', why, rows: [a] })
    }
  } else if (claim.form === 'suffersLess' || claim.form === 'suffersAlike') {
    for (const a of pool.filter(r => matches(r, claim.a) && claim.changed(r))) {
      const b = pool.find(r => matches(r, claim.b) && sameCell(r, a) && partners(claim, a, r))
      const baseCell = claim.baseOf(a, pool)
      const at = side => baseCell === null
        ? null
        : pool.find(r => matches(r, side) && sameSlot(side, a, r) && r.cell === baseCell && r.network === a.network && browserOf(r) === browserOf(a)) || null
      const a0 = at(claim.a)
      const b0 = at(claim.b)
      if (!b || !a0 || !b0) {
        cells.push({ label: labelOf(label, claim.a, a), verdict: NOT_MEASURED, reading: 'missing', why: `needs ${describe(claim.b)} here and both sides without the change` })
        continue
      }
      const why = [a0, a, b0, b].map(r => unusable(claim, r)).filter(Boolean).join(', ')
      if (why) {
        cells.push({ label: labelOf(label, claim.a, a), verdict: NOT_MEASURED, reading: 'missing', why })
        continue
      }
      const c = compareRowSlowdowns([a0, a], [b0, b], claim.metric ? claim.metric.samples : undefined)
      cells.push(readOf(claim, { label: labelOf(label, claim.a, a), verdict: c.verdict, ratio: c.ratio, low: c.low, high: c.high, rows: [a0, a, b0, b] }))
    }
  } else if (claim.form === 'all') {
    // The parts rest on the rows the whole claim rests on, and inherit what it says makes a row invalid.
    claim.parts.forEach((part, i) => cells.push(...cellsOf(claim.invalid && !part.invalid ? { ...part, invalid: claim.invalid } : part, pool, label)
      .map(c => ({ ...c, part: i }))))
  }
  return cells
}

// A form's reading of one cell's verdict. near, atLeast and atMost read the interval of
// a's median over b's (compare-rows: the ratio is base over row, so a is the base).
function readOf (claim, it) {
  if (it.verdict === NOT_MEASURED || it.verdict === 'not comparable') return { ...it, reading: 'missing' }
  if (READ[claim.form]) return { ...it, reading: READ[claim.form][it.verdict] }
  if (claim.form === 'near' || claim.form === 'suffersAlike') {
    const figure = claim.form === 'near' ? claim.figure : 1
    const lo = figure / (1 + claim.tolerance)
    const hi = figure * (1 + claim.tolerance)
    return { ...it, reading: it.low >= lo && it.high <= hi ? 'for' : it.high < lo || it.low > hi ? 'against' : 'unsure' }
  }
  if (claim.form === 'atLeast') {
    // Times: a reaches `fraction` of b's speed when its time is at most b's ÷ fraction.
    const most = 1 / claim.fraction
    return { ...it, reading: it.high <= most ? 'for' : it.low > most ? 'against' : 'unsure' }
  }
  if (claim.form === 'atMost') {
    // a ÷ b at most the figure: the interval's upper end at or below it for, its lower end above it against.
    return { ...it, reading: it.high <= claim.figure ? 'for' : it.low > claim.figure ? 'against' : 'unsure' }
  }
  throw new TypeError(`no reading for form ${claim.form}`)
}

// The one rule: → the status word.
// `parts`: how many parts the claim has (an all's); each needs a measured cell.
function statusOf (cells, hypothesis = false, parts = 1) {
  const words = hypothesis ? STATUS.hypothesis : STATUS.source
  const n = k => cells.filter(c => c.reading === k).length
  const measuredCells = cells.length - n('missing')
  const partMissing = parts > 1 && Array.from({ length: parts }, (_, i) => i).some(i => !cells.some(c => c.part === i && c.reading !== 'missing'))
  if (!cells.length || partMissing || n('missing') * 2 > cells.length) return NOT_MEASURED
  if (n('for') === measuredCells) return words.all
  if (!n('for') && !n('against')) return INCONCLUSIVE
  return n('for') > n('against') ? words.some : words.none
}

// "b takes 0.82× a's time (median over 4 cells; 0.71–0.95×)": the figures of the claim's cells.
function figures (claim, cells) {
  if (claim.form === 'all') return claim.parts.map((p, i) => figures(p, cells.filter(c => c.part === i))).filter(Boolean).join('; ')
  const ratios = cells.filter(c => Number.isFinite(c.ratio)).map(c => AS_STATED.has(claim.form) ? c.ratio : 1 / c.ratio)
  if (!ratios.length) return ''
  const m = stats.median(ratios)
  const span = ratios.length > 1 ? `; ${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))}` : ''
  const over = `median over ${ratios.length} cell${ratios.length === 1 ? '' : 's'}${span}`
  if (claim.form === 'suffersLess' || claim.form === 'suffersAlike') return `${describe(claim.a)}'s slowdown is ${fmt(m)} ${describe(claim.b)}'s (${over})`
  if (claim.form === 'grows' || claim.form === 'flat') return `${describe(claim.a)} at ${claim.to} takes ${fmt(m)} its time at ${claim.from} (${over})`
  if (claim.form === 'near' || claim.form === 'atLeast') return `${describe(claim.a)} takes ${fmt(m)} ${describe(claim.b)}'s time (${over})`
  if (claim.form === 'atMost') return `${describe(claim.a)} is ${fmt(m)} ${describe(claim.b)}'s${claim.metric ? ` ${claim.metric.name}` : ''} (${over})`
  return `${describe(claim.b)} takes ${fmt(m)} ${describe(claim.a)}'s time (${over})`
}

const READING_WORDS = { for: 'for', against: 'against', unsure: 'unsure', missing: 'missing' }
// A cell's figure as the claim states it: b's time over a's for the comparisons (for grows and flat: at `to` over
// at `from`), a's slowdown over b's for suffersLess, a's time over b's for near, atLeast and atMost; with its interval.
const AS_STATED = new Set(['suffersLess', 'suffersAlike', 'near', 'atLeast', 'atMost'])
function shown (form, c) {
  return AS_STATED.has(form) ? { v: c.ratio, lo: c.low, hi: c.high } : { v: 1 / c.ratio, lo: 1 / c.high, hi: 1 / c.low }
}
// The figures a form reads an interval against (readOf's): an end is said against them.
function boundsOf (claim) {
  if (claim.form === 'atMost') return [claim.figure]
  if (claim.form === 'atLeast') return [1 / claim.fraction]
  if (claim.form === 'near' || claim.form === 'suffersAlike') {
    const figure = claim.form === 'near' ? claim.figure : 1
    return [figure / (1 + claim.tolerance), figure * (1 + claim.tolerance)]
  }
  return []
}
// An interval's end as the sentence says it: to three decimals where two would show it equal to a bound it is not
// (1.1024 against "at most 1.10": "1.102×", so the reading "unsure" is seen in the figures).
const fmtEnd = (x, bounds) => bounds.some(b => x !== b && fmt(x) === fmt(b)) ? `${x.toFixed(3)}×` : fmt(x)
const interval = (claim, c) => {
  if (!Number.isFinite(c.low)) return ''
  const { v, lo, hi } = shown(claim.form, c)
  const bounds = boundsOf(claim)
  return ` ${fmt(v)}, ${Math.round(RULES.confidence * 100)} % interval ${fmtEnd(lo, bounds)}–${fmtEnd(hi, bounds)}`
}

// Each cell: "label: verdict (ratio, interval) → for".
// near, atLeast, atMost and suffersAlike read the interval against their own figure, not the engine's word: only the interval is said.
const BY_INTERVAL = new Set(['near', 'atLeast', 'atMost', 'suffersAlike'])
const cellText = (claim, c) => BY_INTERVAL.has(claim.form) && Number.isFinite(c.low)
  ? `${c.label}:${interval(claim, c)} → ${READING_WORDS[c.reading]}`
  : `${c.label}: ${c.verdict}${c.why ? ` (${c.why})` : interval(claim, c) ? ` (${interval(claim, c).trim()})` : ''} → ${READING_WORDS[c.reading]}`

// What the claim demands of each cell, in words, for the sentence.
function demand (claim) {
  const a = claim.a ? describe(claim.a) : ''
  const b = claim.b ? describe(claim.b) : ''
  switch (claim.form) {
    case 'faster': return `for: ${b} faster than ${a}`
    case 'notFaster': return `for: ${b} slower than ${a} or no difference`
    case 'same': return `for: no difference between ${a} and ${b} (±${Math.round(RULES.tolerance * 100)} %)`
    case 'grows': return `for: ${a} slower at ${claim.to} than at ${claim.from}`
    case 'flat': return `for: no difference for ${a} between ${claim.from} and ${claim.to} (±${Math.round(RULES.tolerance * 100)} %)`
    case 'suffersLess': return `for: the change hurts ${b} less than ${a}`
    case 'near': return `for: the interval of ${a} ÷ ${b} within ${fmt(claim.figure / (1 + claim.tolerance))}–${fmt(claim.figure * (1 + claim.tolerance))}`
    case 'suffersAlike': return `for: the interval of ${a}'s slowdown ÷ ${b}'s within ${fmt(1 / (1 + claim.tolerance))}–${fmt(1 + claim.tolerance)}`
    case 'meets': return `for: ${a} meets ${claim.criterion.name}`
    case 'atMost': return `for: the interval of ${a} ÷ ${b}${claim.metric ? ` (${claim.metric.name})` : ''} at most ${fmt(claim.figure)}`
    case 'atLeast': return `for: ${a} at least ${Math.round(claim.fraction * 100)} % of ${b}'s speed (time ratio at most ${fmt(1 / claim.fraction)})`
    case 'all': return 'for: every part for'
  }
}

// The engine's verdicts, part by part: "for: h1 faster than h2; by the verdict engine, per size: 0.2: inconclusive (…) → unsure; …".
function verdictText (claim, cells, axis) {
  const per = axis ? `, per ${axis}` : ''
  // A reason the cell before gave too is said once: "(the same)".
  const list = (c0, cs) => cs.length ? cs.map((c, i) => i && c.why && c.why === cs[i - 1].why ? cellText(c0, { ...c, why: 'the same' }) : cellText(c0, c)).join('; ') : `no ${c0.a ? describe(c0.a) : 'matching'} row`
  const by = c => c.form === 'meets' ? `by the criterion (${c.criterion.name})` : 'by the verdict engine'
  if (claim.form !== 'all') return `${demand(claim)}; ${by(claim)}${per}: ${list(claim, cells)}`
  return claim.parts.map((p, i) => `${p.text} (${demand(p)}), ${by(p)}${per}: ${list(p, cells.filter(c => c.part === i))}`).join('; ')
}

// The flags of the rows the claim rests on, by kind: "CPU-shaped: 0.2 h1, 0.2 h2; drifts: 40 h2 (each slower, p = 0.027)".
function flagText (cells, label, flagsOf) {
  const byKind = new Map()
  for (const r of new Set(cells.flatMap(c => c.rows || []))) {
    for (const f of flagsOf(r)) {
      const name = `${label(r)} ${r.lane}${r.mode ? ` ${r.mode}` : ''}${f.detail ? ` (${f.detail})` : ''}`
      byKind.set(f.kind, [...(byKind.get(f.kind) || []), name])
    }
  }
  return [...byKind].map(([kind, names]) => `${kind}: ${names.join(', ')}`).join('; ')
}

// → { text, status, detail, cells, claim }: the claim judged on `rows`.
// `label(row)`: a cell's name in the sentence (the sweep's value), `axis`: what that value is;
// `flagsOf(row)`: the row's flags, [{ kind ('CPU-shaped', 'drifts'), detail }].
function judge (claim, rows, { label = r => `cell ${r.cell}`, axis = '', flagsOf = () => [] } = {}) {
  const cells = cellsOf(claim, rows, label)
  const status = statusOf(cells, claim.hypothesis, claim.form === 'all' ? claim.parts.length : 1)
  const parts = []
  const fig = figures(claim, cells)
  if (fig) parts.push(fig)
  parts.push(verdictText(claim, cells, axis))
  if (claim.source) parts.push(`source: ${claim.source.figure} (${claim.source.where})`)
  if (claim.explain) {
    const more = claim.explain(rows)
    if (more) parts.push(more)
  }
  const flags = flagText(cells, label, flagsOf)
  if (flags) parts.push(`FLAGGED, rows it rests on: ${flags}`)
  return { text: claim.text, status, detail: parts.join('; '), cells, claim }
}

module.exports = { judge, statusOf, cellsOf, RULE_TEXT, STATUS_WORDS, STATUS, READ }
