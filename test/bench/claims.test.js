'use strict'

// Claims as data (bench/report/claims/): each form on constructed rows, the one
// status rule, the generated sentence, and no status word or threshold of
// an experiment's own.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { faster, notFaster, same, grows, flat, suffersLess, suffersAlike, near, atLeast, atMost, meets, all, FORMS } = require('../../bench/report/claims/forms')
const { judge, statusOf, STATUS_WORDS, RULE_TEXT } = require('../../bench/report/claims/judge')
const { tablesOf } = require('../../bench/report/tables')
const { claimsOf } = require('../../bench/report/claims')
const { EXPERIMENTS } = require('../../bench/experiments')

// Five runs around `median` ms, tight (±1 %), in no trend.
const runs = median => [1, -1, 0.5, -0.5, 0].map(d => median * (1 + d / 100))
const stats = require('../../shared/stats')
// A result row as the runner records it, with only what the claims read.
function row ({ lane, mode = null, cell = 0, samples, failures = 0, params = {}, preset = `cell ${cell}`, browser = 'chromium', network = 'link', experiment = 'constructed', rounds }) {
  const median = samples.length ? stats.median(samples) : null
  return { experiment, cell, network, browser, lane, mode, preset, params, samples, failures, median, ...(rounds ? { rounds } : {}) }
}
const TEXT = { text: 'a claim' }
const statusOn = (claim, rows) => judge(claim, rows).status

describe('claims: the forms, judged by one rule', () => {
  it('the rule: not measured past half missing; all for: reproduced; none for or against: inconclusive; more for: partly; else not', () => {
    const c = readings => readings.map(reading => ({ reading }))
    assert.equal(statusOf(c([])), 'not measured')
    assert.equal(statusOf(c(['for', 'missing', 'missing'])), 'not measured')
    assert.equal(statusOf(c(['for', 'missing'])), 'reproduced')
    assert.equal(statusOf(c(['for', 'for'])), 'reproduced')
    assert.equal(statusOf(c(['unsure', 'unsure'])), 'inconclusive')
    assert.equal(statusOf(c(['for', 'for', 'unsure', 'against'])), 'partly reproduced')
    assert.equal(statusOf(c(['for', 'unsure', 'against'])), 'not reproduced') // a tie is not more for
    assert.equal(statusOf(c(['for', 'unsure'])), 'partly reproduced')
    assert.equal(statusOf(c(['for', 'against'])), 'not reproduced')
    assert.equal(statusOf(c(['against', 'unsure'])), 'not reproduced')
    assert.equal(statusOf(c(['for', 'for']), true), 'holds')
    assert.equal(statusOf(c(['for', 'unsure']), true), 'partly holds')
    assert.equal(statusOf(c(['against']), true), 'does not hold')
    assert.match(RULE_TEXT, /more than half missing: not measured/)
  })

  it('faster: b faster than a in every cell (the engine\'s interval clear of 1); no difference speaks against it', () => {
    const claim = faster('h2', 'h1', TEXT)
    const rows = [0, 1].flatMap(cell => [row({ lane: 'h1', cell, samples: runs(200) }), row({ lane: 'h2', cell, samples: runs(100) })])
    const j = judge(claim, rows)
    assert.equal(j.status, 'reproduced')
    assert.match(j.detail, /^h2 takes 0\.50× h1's time \(median over 2 cells; 0\.50×–0\.50×\); for: h2 faster than h1; by the verdict engine: cell 0: faster \(0\.50×, 95 % interval/)
    const even = [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(100) })]
    assert.equal(statusOn(claim, even), 'not reproduced')
    const wide = [row({ lane: 'h1', samples: [100, 60, 140, 90, 120] }), row({ lane: 'h2', samples: [95, 50, 150, 80, 130] })]
    assert.equal(statusOn(claim, wide), 'inconclusive')
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: runs(200) })]), 'not measured')
    assert.match(judge(claim, [row({ lane: 'h1', samples: runs(200) })]).detail, /cell 0: not measured \(no h2 row\) → missing/)
  })

  it('a row with failed requests or too few runs is not measured, and the sentence says why', () => {
    const claim = faster('h2', 'h1', TEXT)
    const j = judge(claim, [row({ lane: 'h1', samples: runs(200) }), row({ lane: 'h2', samples: runs(100), failures: 3 })])
    assert.equal(j.status, 'not measured')
    assert.match(j.detail, /not measured \(h2 had 3 failed requests\)/)
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: [200, 200] }), row({ lane: 'h2', samples: [100, 100] })]), 'not measured')
  })

  it('notFaster: slower or no difference is for it; faster against', () => {
    const claim = notFaster('h2', 'h1', TEXT)
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(100) })]), 'reproduced')
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(150) })]), 'reproduced')
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(50) })]), 'not reproduced')
  })

  it('same needs "no difference" (±5 %): a clear difference is against it, a wide interval unsure', () => {
    const claim = same('h1', 'h2', TEXT)
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(101) })]), 'reproduced')
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(80) })]), 'not reproduced')
    assert.equal(statusOn(claim, [row({ lane: 'h1', samples: [100, 60, 140, 90, 120] }), row({ lane: 'h2', samples: [95, 50, 150, 80, 130] })]), 'inconclusive')
  })

  it('grows and flat: one lane between two values of a parameter', () => {
    const at = (lane, delayMs, median) => row({ lane, cell: delayMs, params: { delayMs }, samples: runs(median) })
    const rows = [at('h1', 0, 100), at('h1', 40, 250), at('h2', 0, 100), at('h2', 40, 101)]
    assert.equal(statusOn(grows('h1', 'delayMs', 0, 40, TEXT), rows), 'reproduced')
    assert.equal(statusOn(flat('h2', 'delayMs', 0, 40, TEXT), rows), 'reproduced')
    assert.equal(statusOn(grows('h2', 'delayMs', 0, 40, TEXT), rows), 'not reproduced')
    assert.equal(statusOn(flat('h1', 'delayMs', 0, 40, TEXT), rows), 'not reproduced')
    const both = all([grows('h1', 'delayMs', 0, 40, { text: 'h1 grows' }), flat('h2', 'delayMs', 0, 40, { text: 'h2 flat' })], TEXT)
    const j = judge(both, rows)
    assert.equal(j.status, 'reproduced')
    assert.match(j.detail, /h1 at 40 takes 2\.50× its time at 0 .*h1 grows \(for: h1 slower at 40 than at 0\), by the verdict engine: cell 0 → 40: slower/)
    // One part against: the pooled cells are one for, one against.
    assert.equal(statusOn(both, [at('h1', 0, 100), at('h1', 40, 250), at('h2', 0, 100), at('h2', 40, 200)]), 'not reproduced')
  })

  it('suffersLess and suffersAlike: the change\'s slowdown of each side against its own row without it', () => {
    const at = (lane, loss, median) => row({ lane, cell: loss, params: { loss }, samples: runs(median) })
    const opts = { changed: r => r.params.loss > 0, baseOf: () => 0 }
    const rows = [at('h2e', 0, 100), at('h3', 0, 100), at('h2e', 5, 400), at('h3', 5, 150)]
    assert.equal(statusOn(suffersLess('h3', 'h2e', opts, TEXT), rows), 'reproduced')
    assert.equal(statusOn(suffersLess('h2e', 'h3', opts, TEXT), rows), 'not reproduced')
    assert.equal(statusOn(suffersAlike('h2e', 'h3', opts, 0.5, TEXT), rows), 'not reproduced')
    const alike = [at('h2e', 0, 100), at('h3', 0, 100), at('h2e', 5, 200), at('h3', 5, 180)]
    assert.equal(statusOn(suffersAlike('h2e', 'h3', opts, 0.5, TEXT), alike), 'reproduced')
    assert.equal(statusOn(suffersLess('h3', 'h2e', opts, TEXT), [at('h2e', 5, 400), at('h3', 5, 150)]), 'not measured')
  })

  it('suffersLess with sides of any lane: each lane against its own row without the change', () => {
    const at = (lane, loss, median) => row({ lane, mode: 'x', cell: loss, params: { loss }, samples: runs(median) })
    const opts = { changed: r => r.params.loss > 0, baseOf: () => 0 }
    const claim = suffersLess({ lane: '*', mode: 'x' }, { lane: '*', mode: 'x' }, opts, TEXT)
    // h2 slowed 4×, h3 1.5×: each is its own base, so no lane's slowdown is read against another lane's clean row.
    const rows = [at('h2', 0, 100), at('h3', 0, 50), at('h2', 5, 400), at('h3', 5, 75)]
    const j = judge(claim, rows)
    assert.equal(j.cells.length, 2)
    assert.ok(j.cells.every(c => c.verdict === 'no difference'), JSON.stringify(j.cells.map(c => c.verdict)))
  })

  it('near and atLeast read the interval of a\'s time over b\'s', () => {
    const rows = [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(118) })]
    assert.equal(statusOn(near('h2', 'h1', 1.18, 0.1, TEXT), rows), 'reproduced')
    assert.equal(statusOn(near('h2', 'h1', 2, 0.1, TEXT), rows), 'not reproduced')
    assert.equal(statusOn(near('h2', 'h1', 1.35, 0.1, { text: 'wide' }), [row({ lane: 'h1', samples: [100, 70, 130, 90, 110] }), row({ lane: 'h2', samples: [118, 90, 150, 100, 130] })]), 'inconclusive')
    // h2 takes 1.18× h1's time: 85 % of its speed, at least 80 %, not 90 %.
    assert.equal(statusOn(atLeast('h2', 'h1', 0.8, TEXT), rows), 'reproduced')
    assert.equal(statusOn(atLeast('h2', 'h1', 0.9, TEXT), rows), 'not reproduced')
  })

  it('atMost reads the interval of a ÷ b against its figure: at or below it for, above it against, across it unsure', () => {
    const rows = [row({ lane: 'h1', samples: runs(100) }), row({ lane: 'h2', samples: runs(118) })]
    assert.equal(statusOn(atMost('h2', 'h1', 1.2, TEXT), rows), 'reproduced')
    assert.equal(statusOn(atMost('h2', 'h1', 1.1, TEXT), rows), 'not reproduced')
    // Spread samples: an interval across 1.2 says nothing either way.
    const wide = [row({ lane: 'h1', samples: [100, 70, 130, 90, 110] }), row({ lane: 'h2', samples: [118, 90, 150, 100, 130] })]
    assert.equal(statusOn(atMost('h2', 'h1', 1.2, TEXT), wide), 'inconclusive')
    // The sentence names the metric and the figure, and each cell's interval of a ÷ b.
    const cpu = { name: 'browser CPU a batch', samples: r => r.samples }
    const j = judge(atMost('h2', 'h1', 1.2, { ...TEXT, metric: cpu }), rows)
    assert.match(j.detail, /^h2 is 1\.1[78]× h1's browser CPU a batch \(median over 1 cell\); for: the interval of h2 ÷ h1 \(browser CPU a batch\) at most 1\.20×; by the verdict engine: cell 0: 1\.1[78]×, 95 % interval 1\.\d\d\d?×–1\.\d\d\d?× → for/)
  })

  it('rows that name their rounds are judged paired, and an interval end two decimals would show on the figure is said to three', () => {
    // Rounds whose machine state moves both sides alike: a's ratio to b is 1.06–1.1025 in every round.
    const factor = [1, 1.4, 0.8, 1.2, 0.9, 1.3, 1.1, 0.7, 1.5, 1]
    const own = [1.06, 1.08, 1.07, 1.1025, 1.09, 1.065, 1.075, 1.085, 1.1025, 1.1]
    const rounds = factor.map((f, i) => i)
    const rows = [row({ lane: 'h1', samples: factor.map(f => 1000 * f), rounds }), row({ lane: 'h2', samples: factor.map((f, i) => 1000 * f * own[i]), rounds })]
    const j = judge(atMost('h2', 'h1', 1.1, TEXT), rows)
    // Ten rounds: between the 2nd smallest and 2nd largest ratio, 1.065–1.1025, across 1.1: unsure, and said so.
    assert.equal(j.cells[0].reading, 'unsure')
    assert.match(j.detail, /cell 0: 1\.08×, 95 % interval 1\.0[67]×–1\.10[23]× → unsure/)
    // Apart, the factor's spread (0.7–1.5) would hide a difference of a few per cent altogether.
    const apart = judge(atMost('h2', 'h1', 1.1, TEXT), rows.map(r => ({ ...r, rounds: undefined })))
    assert.ok(apart.cells[0].high - apart.cells[0].low > 0.3, JSON.stringify(apart.cells[0]))
  })

  it('meets: a declared criterion per row (met, not met, or not measured)', () => {
    const criterion = { name: 'one connection', test: r => r.connections === undefined ? { met: null, why: 'not counted' } : { met: r.connections === 1, why: `${r.connections} connections` } }
    const rows = [{ ...row({ lane: 'h2', samples: runs(1) }), connections: 1 }, { ...row({ lane: 'h2', cell: 1, samples: runs(1) }), connections: 3 }]
    assert.equal(statusOn(meets('h2', criterion, TEXT), rows.slice(0, 1)), 'reproduced')
    assert.equal(statusOn(meets('h2', criterion, TEXT), rows), 'not reproduced')
    assert.match(judge(meets('h2', criterion, TEXT), rows).detail, /cell 1: not met \(3 connections\) → against/)
  })

  it('like with like: sides whose workloads differ in a field the claim names are not comparable, and the sentence says which', () => {
    const claim = faster('h3', 'h2e', { text: 'a claim', match: ['state'] })
    const rows = [{ ...row({ lane: 'h2e', samples: runs(200) }), workload: { state: 'cold' } }, { ...row({ lane: 'h3', samples: runs(100) }), workload: { state: 'resumed' } }]
    const j = judge(claim, rows)
    assert.equal(j.status, 'not measured')
    assert.match(j.detail, /not comparable \(workloads differ: state: cold and resumed\)/)
  })

  it('like with like on rows as the runner records them: ttfb rows carry cold or resumed, hol batches their connections, site-page loads resumed', () => {
    const { workloadOf } = require('../../bench/report/runner/compare-rows')
    const { withRatios } = require('../../bench/report/runner/conclusions')
    const ttfb = (lane, mode) => ({ ...row({ lane, mode, samples: runs(lane === 'h3' ? 100 : 200) }), ttfb: { rttMs: 100 } })
    assert.equal(workloadOf(ttfb('h3', 'cold')).state, 'cold')
    assert.equal(workloadOf(ttfb('h3', 'repeat')).state, 'resumed')
    const claim = faster({ lane: 'h3', mode: 'repeat' }, { lane: 'h2e', mode: 'cold' }, { text: 'a claim', match: ['state'] })
    const j = judge(claim, withRatios([ttfb('h2e', 'cold'), ttfb('h3', 'repeat')]))
    assert.equal(j.status, 'not measured')
    assert.match(j.detail, /not comparable \(workloads differ: state: cold and resumed\)/)
    assert.equal(statusOn(faster({ lane: 'h3', mode: 'cold' }, { lane: 'h2e', mode: 'cold' }, { text: 'a claim', match: ['state'] }), withRatios([ttfb('h2e', 'cold'), ttfb('h3', 'cold')])), 'reproduced')
    const hol = lane => ({ ...row({ lane, params: { requests: 100, sizeBytes: 20480 }, samples: runs(100) }), protocol: lane === 'h1' ? 'http/1.1' : lane === 'h3' ? 'h3' : 'h2', hol: { p10: 1 } })
    assert.deepEqual([workloadOf(hol('h1')).connections, workloadOf(hol('h3')).connections], [6, 1])
    const page = { ...row({ lane: 'h3', params: { sizeBytes: 15360 }, samples: runs(100) }), resources: [], responseStartMedian: 50 }
    assert.equal(workloadOf(page).state, 'resumed')
    assert.equal(workloadOf(page).bytes, 15360)
  })

  it('a side of any lane pairs rows of the same lane; invalid rows (push refused) count as not measured', () => {
    const claim = faster({ lane: '*', mode: 'push' }, { lane: '*', mode: 'request', name: 'request' }, { text: 'push faster', invalid: r => r.mode === 'push' && r.refused ? 'push refused' : '' })
    const rows = ['h2', 'h2n'].flatMap(lane => [row({ lane, mode: 'request', samples: runs(200) }), row({ lane, mode: 'push', samples: runs(100) })])
    const j = judge(claim, rows)
    assert.equal(j.status, 'reproduced')
    assert.match(j.detail, /cell 0, h2: faster .*cell 0, h2n: faster/)
    assert.equal(statusOn(claim, rows.map(r => ({ ...r, refused: true }))), 'not measured')
  })

  it('flags of the rows a claim rests on (drift, CPU-shaped) are in its sentence', () => {
    const j = judge(faster('h2', 'h1', TEXT), [row({ lane: 'h1', samples: runs(200) }), row({ lane: 'h2', samples: runs(100) })], { flagsOf: r => r.lane === 'h2' ? [{ kind: 'CPU-shaped', detail: '' }] : [] })
    assert.match(j.detail, /FLAGGED, rows it rests on: CPU-shaped: cell 0 h2$/)
  })

  it('a claim needs its text, and a source its figure and where it is; forms are a closed set', () => {
    assert.throws(() => faster('h2', 'h1', {}), /needs its text/)
    assert.throws(() => faster('h2', 'h1', { text: 'x', source: { figure: '1.5×' } }), /figure and where/)
    assert.deepEqual(FORMS, ['faster', 'notFaster', 'same', 'grows', 'flat', 'suffersLess', 'suffersAlike', 'near', 'atLeast', 'atMost', 'meets', 'all'])
  })
})

describe('claims: every experiment declares its conclusions as claims, and writes no status of its own', () => {
  const ROOT = path.join(__dirname, '..', '..')
  const files = dir => fs.readdirSync(path.join(ROOT, dir)).filter(f => f.endsWith('.js')).map(f => path.join(dir, f))
  // A status word as a string literal: what only bench/report/claims/judge.js may write.
  const literal = new RegExp(`['"\`](${STATUS_WORDS.join('|')}|cannot be reproduced[^'"\`]*)['"\`]`)

  for (const file of [...files('bench/experiments'), ...files('bench/report/claims').filter(f => !f.endsWith('judge.js'))]) {
    it(`${file} holds no status literal`, () => {
      const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')
      const found = lines.map((l, i) => literal.test(l) ? `${i + 1}: ${l.trim()}` : null).filter(Boolean)
      assert.deepEqual(found, [], `${file} writes a status word of its own; declare a claim (bench/report/claims/forms.js) and let judge.js decide`)
    })
  }

  it('every experiment has claims in bench/report/claims/, and none keeps a check() of its own', () => {
    for (const e of EXPERIMENTS) {
      assert.ok(!e.conclusions, `${e.id} still has conclusions with a check() of its own`)
      const claims = claimsOf(e.id)
      assert.ok(Array.isArray(claims) && claims.length >= 1, `${e.id}: no claims in bench/report/claims/${e.id}.js`)
      for (const c of claims) assert.ok(FORMS.includes(c.form), `${e.id}: ${c.text}`)
    }
  })

  it('no experiment keeps tables of its own: an experiment says what to measure, bench/report/tables/<id>.js how to show it', () => {
    const fs = require('node:fs')
    const path = require('node:path')
    const dir = path.join(__dirname, '..', '..', 'bench', 'report', 'tables')
    for (const e of EXPERIMENTS) assert.equal(e.extraTables, undefined, `${e.id} still has extraTables`)
    const ids = EXPERIMENTS.map(e => e.id)
    for (const file of fs.readdirSync(dir).filter(f => f !== 'index.js')) {
      const id = file.replace(/\.js$/, '')
      assert.ok(ids.includes(id), `bench/report/tables/${file} names no experiment`)
      assert.equal(typeof tablesOf(id), 'function', id)
    }
    assert.equal(tablesOf('delay'), null)
    assert.equal(tablesOf('../claims/index'), null)
  })
})
