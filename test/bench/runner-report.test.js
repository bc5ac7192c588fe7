'use strict'

const assert = require('node:assert/strict')
const { claimsOf } = require('../../bench/report/claims')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { toMarkdown, toHtml, toCsv, svgChart, writeOutputs, CSV_COLUMNS } = require('../../bench/report/runner/report')
const { select, experimentById } = require('../../bench/experiments')
const { validateResults } = require('../../bench/report/runner/results-schema')
const { fabricate, around } = require('../support/result-rows')

const s = x => around(x * 1000)
const ENV = {
  node: 'v20.20.2', chromium: 'Chromium 156.0.8078.79', userAgent: 'Mozilla/5.0 HeadlessChrome/156', playwrightCore: '1.65.1',
  h2bench: '0.1.0 abc1234', cpu: 'AMD EPYC', cpus: 2, memoryGiB: 23.5, os: 'Linux 6.1 x64', date: '2026-11-23T02:00:00.000Z',
  durationSeconds: 1800, lanes: ['h1', 'h2', 'h2n'], repeats: 10, budgetSeconds: 120, smoke: false, command: 'npm run bench -- all'
}

// Every experiment, with figures like the source's where it has some.
function allRows () {
  const src = id => experimentById(id).source
  const page = id => {
    const e = experimentById(id)
    const h1 = e.source ? e.source.h1 : e.cells.map(() => 1)
    const h2 = e.source ? e.source.h2 : e.cells.map(() => 0.8)
    return fabricate(id, { h1: h1.map(s), h2: h2.map(s), h2n: h2.map(v => s(v * 0.9)) })
  }
  return [
    ...page('delay'), ...page('count-10ms'), ...page('count-30ms'), ...page('size'),
    ...fabricate('network', { h1: src('network').h1.map(s), h2: src('network').h2.map(s) }, { asked: 10, note: '1 of 10 repeats: the first took 300.0 s and the budget is 2 min per cell' }),
    ...page('network-current'),
    ...fabricate('push', { 'h2 push': [9, 5, 3, 1.5, 0.6, 0.1, 0.05].map(s), 'h2 none': [9, 5, 3, 1.5, 0.6, 0.1, 0.05].map(s) }, { outcome: 'refused by the browser' }),
    ...fabricate('push-protocol', { 'h2 push': [5, 15, 35, 105].map(ms => s(ms / 1000)), 'h2 request': [8, 30, 70, 210].map(ms => s(ms / 1000)) })
  ]
}

describe('runner: report', () => {
  const report = { environment: ENV, results: allRows(), experiments: select(['all']) }

  it('names the lanes asked, and beside them the lanes in the results where those differ (a replay runs its protocols)', () => {
    const rows = fabricate('delay', { h1: [[1000, 1001, 999, 1002, 998]], h2: [[900, 901, 899, 902, 898]] })
    const md = toMarkdown({ environment: { ...ENV, lanes: ['h1', 'h2'] }, results: rows, experiments: select(['delay']) })
    assert.match(md, /\n- Lanes h1, h2; 10 repeats asked per cell/)
    const fewer = toMarkdown({ environment: ENV, results: rows, experiments: select(['delay']) })
    assert.match(fewer, /\n- Lanes h1, h2 in the results \(asked: h1, h2, h2n\); 10 repeats asked per cell/)
    assert.match(toHtml({ environment: ENV, results: rows, experiments: select(['delay']) }), /Lanes h1, h2 in the results \(asked: h1, h2, h2n\)/)
  })

  it('the fabricated rows are valid results.json rows (the checker the e2e test uses)', () => {
    assert.deepEqual(validateResults({ environment: ENV, results: report.results }), [])
    const broken = { environment: { ...ENV, cpus: 'two' }, results: [{ ...report.results[0], samples: [1, 2], extra: 1 }] }
    assert.deepEqual(validateResults(broken), [
      'results.json.environment.cpus: expected integer, got "two"',
      'results[0].extra: not in the schema'
    ])
    assert.match(validateResults({ environment: ENV, results: [{ ...report.results[0], samples: [1, 2] }] })[0], /repeatsGot 5 but 2 samples/)
  })

  describe('cells whose runs drift (the verdict engine\'s trend test, Mann-Kendall)', () => {
    // Per cell of the delay sweep: h1 slower each run at the first, steady at the second; h2 steady, then faster each run.
    const rows = fabricate('delay', { h1: [[1000, 1100, 1200, 1300, 1400], [1000, 1020, 990, 1010, 1000]], h2: [[900, 905, 895, 902, 898], [800, 700, 600, 500, 400]] })
    const md = toMarkdown({ environment: ENV, results: rows, experiments: select(['delay']) })
    const html = toHtml({ environment: ENV, results: rows, experiments: select(['delay']) })

    it('lists every drifting row once, its runs in the order they ran and the test\'s p, above the verdicts; no steady row', () => {
      const section = md.split('## Cells whose runs drift')[1].split('## Verdicts')[0]
      const lines = section.split('\n').filter(l => l.startsWith('- '))
      assert.equal(lines.length, 2, section)
      assert.match(lines[0], /^- delay, .* 0, h1: each run slower than the last \(1\.000, 1\.100, 1\.200, 1\.300, 1\.400 s, in the order they ran, \+40 % from the first to the last; Mann-Kendall p = 0\.027\)$/)
      assert.match(lines[1], /^- delay, .*, h2: each run faster than the last \(0\.800, 0\.700, 0\.600, 0\.500, 0\.400 s, in the order they ran, -50 % from the first to the last; Mann-Kendall p = 0\.027\)$/)
      assert.ok(html.includes('<h2>Cells whose runs drift'), 'the HTML report has the list too')
    })

    it('has no such list when no row drifts', () => {
      const steady = fabricate('delay', { h1: [[1000, 1020, 990, 1010, 1000]], h2: [[900, 905, 895, 902, 898]] })
      assert.ok(!toMarkdown({ environment: ENV, results: steady, experiments: select(['delay']) }).includes('Cells whose runs drift'))
    })
  })

  describe('report.md', () => {
    const md = toMarkdown(report)

    it('names the machine and the software it ran on', () => {
      assert.match(md, /Machine: AMD EPYC × 2 cores, 23\.5 GiB, Linux 6\.1 x64/)
      assert.match(md, /Node v20\.20\.2, Chromium 156\.0\.8078\.79, playwright-core 1\.65\.1, h2bench 0\.1\.0 abc1234/)
    })

    it('names the browser driver a run recorded: puppeteer-core since it drives Chromium, playwright-core before; one of them, never both', () => {
      const rest = { ...ENV }
      delete rest.playwrightCore
      const now = { ...report, environment: { ...rest, puppeteerCore: '24.43.1' } }
      assert.match(toMarkdown(now), /Chromium 156\.0\.8078\.79, puppeteer-core 24\.43\.1, h2bench/)
      const envProblems = json => validateResults(json).filter(p => p.startsWith('results.json.environment'))
      assert.deepEqual(envProblems({ environment: now.environment, results: [] }), [])
      assert.deepEqual(envProblems({ environment: { ...ENV, puppeteerCore: '24.43.1' }, results: [] }), ['results.json.environment: one of puppeteerCore, playwrightCore expected, got puppeteerCore and playwrightCore'])
      assert.deepEqual(envProblems({ environment: rest, results: [] }), ['results.json.environment: one of puppeteerCore, playwrightCore expected, got neither'])
    })

    it('has a section per experiment with our table beside the source\'s', () => {
      for (const e of select(['all'])) assert.ok(md.includes(`## ${e.id}: ${e.title}`), e.id)
      assert.ok(md.includes('| server delay (ms) | h1 (s) | h2 (s) | h2n (s) | h2/h1 | h2n/h1 | source h1 (s) | source h2 (s) | source h2/h1 |'))
      // delay 40: h1 0.94 s, h2 0.50 s (quartiles in brackets), ratio, source.
      assert.match(md, /\| 40 \| 0\.940 \(0\.936–0\.944\) \| 0\.500 \(0\.498–0\.502\) \| 0\.450 \(0\.448–0\.452\) \| 0\.53× \| 0\.48× \| 0\.94 \| 0\.5 \| 0\.53× \|/)
      assert.ok(md.includes('| network preset | h2 push (s) | h2 request (s) | h2 push/h2 request | source request (total) (s) | source push (total) (s) | source push/request |'))
    })

    it('gives one sentence per claim, with its status, figures, cells and source, under the one rule', () => {
      // The source's own h2 grew 4 % (0.48 → 0.50 s): over tight runs a clear difference, so not "flat".
      assert.match(md, /- \*\*HTTP\/1\.1 time grows with server delay while HTTP\/2 stays flat \(100 requests\)\*\*: not reproduced, h1 at 40 takes 2\.47× its time at 0 .* → for; .*HTTP\/2 stays flat .*: 0 → 40: slower .* → against; source: h1 0\.38 → 0\.94 s/)
      assert.match(md, /\*\*Server push looks slower under DevTools throttling but much faster unthrottled\*\*: not measured, .*not measured \(push refused by the browser/)
      assert.match(md, /## Verdicts\n\nOne rule for every claim: .*\nEach claim's cells, their verdicts and its source are in its experiment's section\.\n\n- delay: \*\*HTTP\/1\.1 time grows[^\n]*\*\*: not reproduced\.\n/)
      const verdicts = md.split('## delay')[0].match(/^- [\w-]+: \*\*/gm)
      assert.equal(verdicts.length, select(['all']).reduce((n, e) => n + claimsOf(e.id).length, 0))
    })

    it('says which cells got fewer repeats and why, and what each preset is', () => {
      assert.match(md, /At network preset Regular 2G: 1 of 10 repeats: the first took 300\.0 s and the budget is 2 min per cell\./)
      assert.match(md, /\| Regular 2G \| 222\.66 \(221\.77–223\.55\) n=5 \| 138\.06 \(137\.51–138\.61\) n=5 \| 0\.62× \| 222\.66 \| 138\.06 \| 0\.62× \|/)
      assert.match(md, /Network \(CDP, per request\): Regular 2G = 250 kbit\/s down, 50 kbit\/s up, 300 ms per request; Good 2G/)
      assert.match(md, /Push outcome: h2 push: refused by the browser\./)
    })

    it('shows rows with failed requests, says how many, and leaves them out of ratios', () => {
      const rows = fabricate('count-30ms', { h1: [0.1, 0.2, 1, 5, 14].map(s), h2: [0.1, 0.2, 1, 4, 9].map(s) },
        { failures: { h1: [0, 0, 0, 0, 4448], h2: [0, 0, 0, 0, 4309] }, note: null })
      const text = toMarkdown({ environment: ENV, experiments: select(['count-30ms']), results: rows })
      assert.match(text, /\| 3750 \| 14\.00 \(13\.94–14\.06\), 4448 failed \| 9\.000 \(8\.964–9\.036\), 4309 failed \| – \| 28\.82 \| 18\.78 \| 0\.65× \|/)
      assert.match(text, /- 8757 failed requests \(h1 at 3750: 4448, h2 at 3750: 4309\); a row with failures is left out of the ratios, chart and verdicts/)
    })

    it('leaves the source\'s column empty where our cell is not the source\'s (smoke runs)', () => {
      const smoke = { environment: { ...ENV, smoke: true }, experiments: select(['count-10ms'], { smoke: true }), results: [] }
      const text = toMarkdown(smoke)
      assert.match(text, /SMOKE RUN/)
      assert.match(text, /\| 2 \| – \| – \| – \|/)
    })
  })

  describe('report.html', () => {
    const html = toHtml(report)

    it('is self-contained: no scripts, stylesheets, images or fonts from anywhere', () => {
      assert.ok(!/<script|<link|<img|<iframe|@import|url\(/i.test(html))
      const urls = html.match(/https?:\/\/[^"'\s<)]+/g) || []
      assert.deepEqual([...new Set(urls)], ['http://www.w3.org/2000/svg']) // the SVG namespace, not a resource
    })

    it('has a chart and a table per experiment, and every verdict', () => {
      for (const e of select(['all'])) assert.ok(html.includes(`<section id="${e.id}">`), e.id)
      assert.equal((html.match(/<svg /g) || []).length, select(['all']).length)
      // one results table each, one against the physical bound for those with measured rows, one of the verdict engine's comparisons for those with baselines
      const bounds = (html.match(/Against the physical lower bound/g) || []).length
      const comparisons = (html.match(/Each series against its baseline in the same cell, by the verdict engine/g) || []).length
      assert.ok(bounds >= 1)
      assert.ok(comparisons >= 1)
      assert.equal((html.match(/<table>/g) || []).length, select(['all']).length + bounds + comparisons)
      assert.ok(html.includes('<strong>HTTP/1.1 time grows with server delay while HTTP/2 stays flat (100 requests)</strong>: <span class="v">not reproduced</span>'))
    })

    it('escapes what it shows', () => {
      const odd = toHtml({ ...report, environment: { ...ENV, cpu: '<b>&CPU</b>' } })
      assert.ok(odd.includes('&lt;b&gt;&amp;CPU&lt;/b&gt;'))
    })
  })

  describe('charts', () => {
    it('draw time against the swept parameter, one line per lane and the source dashed', () => {
      const e = experimentById('delay')
      const svg = svgChart(e, report.results.filter(r => r.experiment === 'delay'))
      assert.equal((svg.match(/<path /g) || []).length, 5) // h1, h2, h2n, source h1, source h2
      assert.equal((svg.match(/<path [^>]*stroke-dasharray="5 4"/g) || []).length, 2) // the source's lines
      assert.equal((svg.match(/<line [^>]*stroke-width="2"/g) || []).length, 5, 'a legend sample per line')
      // Each lane has its colour in every chart (h1 orange, h2 blue, h2n green).
      assert.match(svg, /<path d="[^"]*" fill="none" stroke="#c2571a" stroke-width="2"\/>/)
      assert.match(svg, /<text x="[\d.]+" y="[\d.]+" fill="#c2571a">h1<\/text>/)
      for (const x of ['0', '10', '20', '30', '40']) assert.ok(svg.includes(`text-anchor="middle">${x}</text>`), x)
      assert.ok(svg.includes('>server delay (ms)</text>'))
    })

    it('draw a lane\'s second mode in its colour, dotted; slant long or crowded tick labels', () => {
      const rows = report.results.filter(r => r.experiment === 'push')
      const svg = svgChart(experimentById('push'), rows)
      const modes = [...new Set(rows.filter(r => r.lane === 'h2').map(r => r.mode))]
      assert.equal(modes.length, 2)
      assert.match(svg, new RegExp(`fill="#2563a6">h2 ${modes[0]}</text>`))
      assert.match(svg, /stroke="#2563a6" stroke-width="2" stroke-dasharray="2 3"\/>/)
      assert.match(svg, /rotate\(-35\)" text-anchor="end">Regular 2G<\/text>/) // seven preset names do not fit side by side
    })

    it('use a log scale when times span more than 30× (request counts), linear otherwise', () => {
      const count = svgChart(experimentById('count-30ms'), report.results.filter(r => r.experiment === 'count-30ms'))
      assert.ok(count.includes('time on a log scale'))
      assert.ok(!svgChart(experimentById('delay'), report.results.filter(r => r.experiment === 'delay')).includes('log scale'))
    })

    it('say so when nothing was measured', () => {
      assert.match(svgChart(experimentById('push-protocol'), []), /no measurements/)
    })
  })

  it('results.csv: one line per row, the columns named in the header', () => {
    const csv = toCsv(report.results).trim().split('\n')
    assert.equal(csv[0], CSV_COLUMNS.join(','))
    assert.equal(csv.length, report.results.length + 1)
    const first = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, csv[1].split(',')[i]]))
    assert.deepEqual([first.experiment, first.requests, first.sizeBytes, first.delayMs, first.lane, first.preset], ['delay', '100', '104858', '0', 'h1', 'No throttling'])
    assert.ok(csv.some(l => l.endsWith(',1 of 10 repeats: the first took 300.0 s and the budget is 2 min per cell')))
  })

  it('writes the four files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-report-'))
    try {
      const json = writeOutputs(dir, report)
      assert.deepEqual(fs.readdirSync(dir).sort(), ['report.html', 'report.md', 'results.csv', 'results.json'])
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')), json)
      assert.deepEqual(Object.keys(json), ['environment', 'results'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
