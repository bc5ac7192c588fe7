'use strict'

// npm run bench:page's arguments and figures (bench/page-cost/page-cost.js, bench/report/page-cost/report.js) on
// constructed batches; the real command: test/bench/slow/page-cost.test.js.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parsePageCostArgs, TOOL } = require('../../bench/page-cost/page-cost')
const { summarise, aims, rowsOf, formatPageCost, reportMarkdown, readStudy, writeStudy } = require('../../bench/report/page-cost/report')

describe('npm run bench:page: arguments and figures', () => {
  it('defaults, --smoke, and one line naming what is wrong and what is allowed', () => {
    const d = parsePageCostArgs([])
    assert.deepEqual([d.requests, d.size, d.sizeBytes, d.pairs], [100, '100kb', 102400, 5])
    assert.deepEqual(d.lanes, ['h1', 'h2', 'h2n', 'h3', 'h2e'])
    assert.deepEqual(d.sides, ['page', 'bare', 'jquery', 'xhr', 'devtools', 'undrawn'])
    // --sides: in the tool's order whatever the order given; bare always (every ratio is to it), the page with DevTools.
    assert.deepEqual(parsePageCostArgs(['--sides', 'bare,page']).sides, ['page', 'bare'])
    assert.throws(() => parsePageCostArgs(['--sides', 'page,jquery']), /--sides: every ratio is to the bare fetch: include bare/)
    assert.throws(() => parsePageCostArgs(['--sides', 'bare,devtools']), /--sides: devtools is measured against the page: include page/)
    assert.throws(() => parsePageCostArgs(['--sides', 'bare,devtools,undrawn']), /--sides: devtools and undrawn are measured against the page: include page/)
    assert.deepEqual(parsePageCostArgs(['--sides', 'undrawn,bare,page']).sides, ['page', 'bare', 'undrawn'])
    assert.throws(() => parsePageCostArgs(['--sides', 'bare,fast']), /--sides: unknown fast; allowed: page, bare, jquery, xhr, devtools, undrawn/)
    assert.throws(() => parsePageCostArgs(['--sides', ',']), /--sides: name at least one/)
    assert.throws(() => parsePageCostArgs(['--from', 'd/results.json', '--sides', 'page,bare']), /--from measures nothing: leave out --sides/)
    const s = parsePageCostArgs(['--smoke', '--lanes', 'h1,h3'])
    assert.deepEqual([s.requests, s.pairs, s.lanes], [20, 1, ['h1', 'h3']])
    assert.throws(() => parsePageCostArgs(['--requests', '0']), /--requests must be a whole number 1…1000; got "0"/)
    assert.throws(() => parsePageCostArgs(['--pairs', 'x']), /--pairs must be a whole number 1…200; got "x"/)
    assert.equal(parsePageCostArgs(['--pairs', '200']).pairs, 200)
    assert.throws(() => parsePageCostArgs(['--pairs', '201']), /1…200/)
    assert.throws(() => parsePageCostArgs(['--size', 'huge']), /--size: /)
    assert.throws(() => parsePageCostArgs(['--smoke', '--pairs', '3']), /--smoke sets the workload/)
    assert.throws(() => parsePageCostArgs(['--lanes', 'h9']), /h9/)
    assert.throws(() => parsePageCostArgs(['--bogus']), /bogus/)
  })

  it('--out and --from: a study written, or written again from its results.json, measuring nothing', () => {
    assert.equal(parsePageCostArgs(['--out', 'docs/studies/page-cost']).out, 'docs/studies/page-cost')
    assert.equal(parsePageCostArgs([]).out, null)
    assert.deepEqual(parsePageCostArgs(['--from', 'd/results.json']), { help: false, from: 'd/results.json', out: 'd', json: false })
    assert.throws(() => parsePageCostArgs(['--from', 'd/results.json', '--pairs', '3']), /--from measures nothing: leave out --pairs/)
    assert.throws(() => parsePageCostArgs(['--out', '']), /--out: name a folder/)
  })

  it('per lane: the medians of each side, each ratio the median of the rounds\' ratios with their range, DevTools over the page', () => {
    const b = (lane, side, pair, cpu) => ({ lane, protocol: 'h2', side, pair, ok: 10, bytes: 1000, ms: 50 + pair, wallMs: 60, browserCpuMs: cpu, serverCpuMs: 20, pageTaskMs: 5 })
    const record = {
      tool: TOOL,
      environment: { node: 'v20', cpu: 'X', cpus: 2, os: 'Linux', h2bench: '0.1.0 abc', command: 'npm run bench:page', date: '2026-11-27T00:00:00.000Z' },
      settings: { lanes: ['h1', 'h2'], requests: 10, size: '100b', pairs: 3 },
      batches: [b('h2', 'page', 0, 120), b('h2', 'bare', 0, 100), b('h2', 'bare', 1, 100), b('h2', 'page', 1, 150), b('h2', 'page', 2, 110), b('h2', 'bare', 2, 100)]
    }
    const [h2] = summarise(record)
    assert.equal(h2.lane, 'h2') // h1 has no batches: no row
    assert.equal(h2.pairs, 3)
    assert.deepEqual([h2.sides.page.cpuMs, h2.sides.bare.cpuMs], [120, 100])
    assert.deepEqual(h2.ratios.page, { n: 3, median: 1.2, min: 1.1, max: 1.5 })
    assert.deepEqual([h2.sides.page.ok, h2.sides.page.asked], [30, 30])
    assert.deepEqual(Object.keys(h2.ratios), ['page']) // a record with two sides: one ratio
    const all = { ...record, batches: [...record.batches, b('h2', 'jquery', 0, 105), b('h2', 'jquery', 1, 100), b('h2', 'jquery', 2, 110),
      b('h2', 'xhr', 0, 130), b('h2', 'xhr', 1, 125), b('h2', 'xhr', 2, 140), b('h2', 'devtools', 0, 180), b('h2', 'devtools', 1, 150), b('h2', 'devtools', 2, 165)] }
    const [j] = summarise(all)
    assert.equal(j.sides.jquery.cpuMs, 105)
    assert.deepEqual(j.ratios.jquery, { n: 3, median: 1.05, min: 1, max: 1.1 })
    assert.deepEqual(j.ratios.xhr, { n: 3, median: 1.3, min: 1.25, max: 1.4 })
    assert.deepEqual(j.ratios.devtools, { n: 3, median: 1.5, min: 1, max: 1.5 }) // over the page: 180/120, 150/150, 165/110
    // Undrawn, over the page too: 108/120, 135/150, 110/110.
    const undrawn = summarise({ ...all, batches: [...all.batches, b('h2', 'undrawn', 0, 108), b('h2', 'undrawn', 1, 135), b('h2', 'undrawn', 2, 110)] })[0]
    assert.deepEqual(undrawn.ratios.undrawn, { n: 3, median: 0.9, min: 0.9, max: 1 })
    const text = formatPageCost(all)
    assert.match(text, /^h2bench page cost: 10 × 100b a batch, 3 rounds a lane/)
    assert.match(text, /\nh2 +120 +100 +105 +130 +165 +1\.20× \(1\.10–1\.50\) +1\.05× \(1\.00–1\.10\) +1\.30× \(1\.25–1\.40\) +1\.50× \(1\.00–1\.50\)/)
    assert.match(formatPageCost(record), /\nh2 +120 +100 +1\.20× \(1\.10–1\.50\)/)
    const md = reportMarkdown(all)
    assert.match(md, /\| h2 \| 120 \| 100 \| 105 \| 130 \| 165 \| 1\.20× \(1\.10–1\.50\) \|/)
    assert.match(md, /DevTools ÷ page: the page with a DevTools Network domain on/)
  })

  it('the renderer\'s share: page ÷ bare and jQuery ÷ bare in the renderer process alone, where the batches record it', () => {
    const b = (side, pair, cpu, rendererMs) => ({ lane: 'h3', protocol: 'h3', side, pair, ok: 10, bytes: 1000, ms: 50, wallMs: 60, browserCpuMs: cpu, serverCpuMs: 20, pageTaskMs: 5, browserCpuByType: { browser: 10, renderer: rendererMs, network: cpu - rendererMs - 10, gpu: 0, other: 0 } })
    const record = {
      tool: TOOL,
      environment: { node: 'v20', cpu: 'X', cpus: 2, os: 'Linux', h2bench: '0.1.0 abc', command: 'npm run bench:page', date: '2026-11-27T00:00:00.000Z' },
      settings: { lanes: ['h3'], requests: 10, size: '100b', pairs: 2 },
      batches: [b('page', 0, 300, 150), b('bare', 0, 250, 100), b('jquery', 0, 280, 120), b('page', 1, 260, 130), b('bare', 1, 240, 100), b('jquery', 1, 250, 110)]
    }
    const [h3] = summarise(record)
    assert.deepEqual(h3.ratios.pageRenderer, { n: 2, median: 1.4, min: 1.3, max: 1.5 })
    assert.deepEqual(h3.ratios.jqueryRenderer, { n: 2, median: 1.15, min: 1.1, max: 1.2 })
    const md = reportMarkdown(record)
    assert.match(md, /\| renderer: page ÷ bare \| renderer: jQuery ÷ bare \|/)
    assert.match(md, /renderer: page ÷ bare: page ÷ bare in Chromium's renderer process alone/)
    // An older record (no browserCpuByType): no renderer column.
    const old = { ...record, batches: record.batches.map(({ browserCpuByType, ...rest }) => rest) }
    assert.deepEqual(Object.keys(summarise(old)[0].ratios), ['page', 'jquery'])
    assert.doesNotMatch(reportMarkdown(old), /renderer:/)
  })

  it('the aim (page ≤ 1.1× bare) judged by the verdict engine per lane: held, not held, unsure, not measured', () => {
    const b = (lane, side, pair, cpu, ok = 10) => ({ lane, protocol: 'h2', side, pair, ok, bytes: 1000, ms: 50, wallMs: 60, browserCpuMs: cpu, serverCpuMs: 20, pageTaskMs: 5 })
    const env = { node: 'v20', cpu: 'X', cpus: 2, os: 'Linux', h2bench: '0.1.0 abc', command: 'npm run bench:page', date: 'd' }
    const jitter = [0, 2, -2, 1, -1, 3, -3]
    const record = (ratioOf, { pairs = 7, ok = () => 10 } = {}) => ({
      tool: TOOL,
      environment: env,
      settings: { lanes: ['h1', 'h2'], requests: 10, size: '100b', pairs, sides: ['page', 'bare'] },
      batches: ['h1', 'h2'].flatMap(lane => Array.from({ length: pairs }, (_, p) => [
        b(lane, 'page', p, Math.round(ratioOf(lane) * 1000) + jitter[p % jitter.length], ok(lane, p)), b(lane, 'bare', p, 1000 + jitter[(p + 3) % jitter.length])]).flat())
    })
    const statusOf = r => aims(r).map(a => a.status)
    // Each lane's page at 1.02× bare, its interval well under 1.1: holds.
    assert.deepEqual(statusOf(record(() => 1.02)), ['holds'])
    // One lane at 1.3×: against on that lane, for on the other; as many against as for: the rule's "does not hold".
    assert.deepEqual(statusOf(record(lane => lane === 'h2' ? 1.3 : 1.02)), ['does not hold'])
    assert.deepEqual(statusOf(record(() => 1.3)), ['does not hold'])
    // Fewer than the engine's 5 rounds: not measured; a batch with a request that failed leaves its lane not measured
    // (said), the other lane's for.
    assert.deepEqual(statusOf(record(() => 1.02, { pairs: 3 })), ['not measured'])
    const failed = aims(record(() => 1.02, { ok: (lane, p) => lane === 'h1' && p === 2 ? 9 : 10 }))[0]
    assert.equal(failed.status, 'holds')
    assert.match(failed.detail, /10 × 100b, h1: not measured \(h1 page had 1 failed request\) → missing; 10 × 100b, h2: 1\.02×/)
    const rows = rowsOf(record(() => 1.02))
    assert.deepEqual(rows.map(r => `${r.lane} ${r.mode} ${r.samples.length}`), ['h1 page 7', 'h1 bare 7', 'h2 page 7', 'h2 bare 7'])
    // Printed and in the report, with the engine's cells and the rule.
    const held = record(() => 1.02)
    assert.match(formatPageCost(held), /\nholds: The page's measuring path .* at most 1\.1× the CPU of a bare fetch\(\) .*; by the verdict engine: 10 × 100b, h1: 1\.02×, 95 % interval 1\.0\d×–1\.0\d× → for; 10 × 100b, h2: /)
    const md = reportMarkdown(held)
    assert.match(md, /## The aim, judged by the verdict engine\n\nOne rule for every claim/)
    assert.match(md, /\n- \*\*holds\*\*: The page's measuring path/)
  })

  it('a study written and read back gives the same report; a file of another tool is refused by name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-page-cost-'))
    try {
      const record = { tool: TOOL, environment: { node: 'v20', cpu: 'X', cpus: 2, os: 'Linux', h2bench: 'x', command: 'npm run bench:page', date: 'd' }, settings: { lanes: ['h1'], requests: 1, size: '1b', pairs: 1 }, batches: [] }
      const [json, md] = writeStudy(dir, record)
      assert.equal(reportMarkdown(readStudy(json)), fs.readFileSync(md, 'utf8'))
      fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ tool: 'h2bench qlog cost' }))
      assert.throws(() => readStudy(path.join(dir, 'other.json')), /is not a results\.json of bench:page \(tool "h2bench qlog cost"; missing environment, settings, batches\)/)
      assert.throws(() => readStudy(path.join(dir, 'none.json')), /no such file/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
