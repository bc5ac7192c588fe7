'use strict'

// The runner's plan (bench/runner/plan.js) on constructed options: what a run
// measures, where and in which order, before it measures anything.
const assert = require('node:assert/strict')
const { planRun } = require('../../bench/runner/plan')
const { select, EXPERIMENTS } = require('../../bench/experiments')
const { KINDS, kindOf } = require('../../bench/kinds')
const { UserError } = require('../../common/errors')

const LANES = ['h1', 'h2', 'h2n', 'h3', 'h2e']
// run-args.js's options, as a command line would give them.
const optionsOf = (over = {}) => ({
  repeats: 2, budgetMs: 120000, lanes: LANES, networks: ['devtools'], browsers: ['chromium'],
  seeding: { seed: 1, paired: true }, cells: null, shard: null, lanesAt: null, site: null, smoke: true, ...over
})
const planOf = (ids, over = {}) => planRun(optionsOf(over), select(ids, { smoke: true, site: over.site || null }))
const where = c => `${c.entry.experiment.id}#${c.entry.index} ${c.entry.network} ${c.entry.browser}`

describe('runner: the plan (bench/runner/plan.js)', () => {
  it('plans every asked cell on each network it runs on, network by network, numbered in order', () => {
    const p = planOf(['delay', 'push-link'], { networks: ['devtools', 'link'] })
    assert.deepEqual(p.plan.map(e => `${e.experiment.id} ${e.network}`), [
      ...Array(5).fill('delay devtools'), ...Array(5).fill('delay link'), ...Array(2).fill('push-link link')
    ])
    assert.deepEqual(p.plan.map(e => e.planned), [...p.plan.keys()])
    assert.deepEqual(p.cells.map(c => c.entry), p.plan) // no shard: all of it
    assert.deepEqual(p.passes.map(x => [x.network, x.browser, x.cells.length, x.needsBrowser]), [['devtools', 'chromium', 5, true], ['link', 'chromium', 7, true]])
    assert.deepEqual(p.passes.flatMap(x => x.cells), p.cells) // the passes run the cells in the plan's order
    for (const c of p.cells) {
      assert.equal(c.kind, kindOf(c.entry.experiment.kind))
      assert.ok(c.estimateMs > 0, where(c))
      assert.equal(c.firstBrowser, true)
      assert.equal(c.skipped, null)
    }
    assert.deepEqual(p.cells.filter(c => c.entry.experiment.id === 'push-link').map(c => c.lanes), [['h2', 'h2n'], ['h2', 'h2n']])
    assert.deepEqual(p.lines, [])
    assert.equal(p.summary, '12 cells (devtools and link), 2 repeats each, budget 2 min per cell')
    assert.deepEqual({ ...p.needs, preflight: p.needs.preflight.length }, { chromium: true, firefox: false, edge: true, preflight: 0 })
    assert.equal(p.refusal, null)
  })

  it('shards partition the plan: each cell in exactly one shard, cell k in shard k mod n, the plan the same in all', () => {
    const over = { networks: ['devtools', 'link'], browsers: ['chromium', 'firefox'] }
    const whole = planOf(['all'], over)
    assert.ok(whole.plan.length > 40, String(whole.plan.length))
    const shards = [1, 2, 3].map(index => planOf(['all'], { ...over, shard: { index, count: 3 } }))
    for (const [i, s] of shards.entries()) {
      assert.deepEqual(s.plan.map(e => e.planned), whole.plan.map(e => e.planned))
      assert.ok(s.cells.every(c => c.entry.planned % 3 === i), `shard ${i + 1}`)
      assert.equal(s.lines[0], `shard ${i + 1} of 3: ${s.cells.length} of the plan's ${whole.plan.length} cells`)
      assert.equal(s.summary.split(' ')[0], String(s.cells.length))
    }
    const got = shards.flatMap(s => s.cells.map(c => c.entry.planned)).sort((a, b) => a - b)
    assert.deepEqual(got, whole.plan.map(e => e.planned))
    // A cell keeps its estimate, its lanes and its first browser whatever shard runs it.
    const byPlanned = new Map(whole.cells.map(c => [c.entry.planned, c]))
    for (const c of shards.flatMap(s => s.cells)) {
      const w = byPlanned.get(c.entry.planned)
      assert.deepEqual([c.estimateMs, c.lanes, c.firstBrowser, where(c)], [w.estimateMs, w.lanes, w.firstBrowser, where(w)])
    }
  })

  it('--cells keeps the cells named, as the report names them, and refuses a name that matches none', () => {
    const p = planOf(['h2load-netem', 'delay'], { networks: ['link'], cells: ['clean', '20'] })
    assert.deepEqual(p.cells.map(c => `${c.entry.experiment.id}#${c.entry.index}`), ['delay#2', 'h2load-netem#0'])
    assert.deepEqual(p.entries.map(e => e.index), [2, 0])
    assert.throws(() => planOf(['h2load-netem'], { networks: ['link'], cells: ['clean', 'nope'] }),
      err => err instanceof UserError && /^--cells: no cell named "nope" in these experiments; their cells are "clean", "dup 70 %"$/.test(err.message))
  })

  it('skips an experiment on none of the asked networks, with one line naming the network to add', () => {
    const p = planOf(['push-link', 'h3-ttfb', 'rest', 'delay'], { networks: ['devtools'] })
    assert.deepEqual(p.lines, [
      'push-link: skipped, it runs only with --network link',
      'h3-ttfb: skipped, it runs only with --network link',
      'rest: skipped, it runs only with --network link'
    ])
    assert.deepEqual([...new Set(p.cells.map(c => c.entry.experiment.id))], ['delay'])
    // Nothing left to run: no cell, no browser to open, no Caddy to build.
    const none = planOf(['push-link'], { networks: ['devtools'] })
    assert.deepEqual([none.cells, none.passes, none.needs.firefox, none.needs.edge], [[], [], false, false])
    assert.equal(none.summary, '0 cells (devtools), 2 repeats each, budget 2 min per cell')
  })

  it('runs in Firefox only the kinds that run there: rest, and the page behind the link; a kind without a browser once, in the first pass', () => {
    const both = { browsers: ['chromium', 'firefox'] }
    const p = planOf(['delay', 'push', 'push-protocol', 'rest'], { ...both, networks: ['devtools', 'link'] })
    const inFirefox = [...new Set(p.cells.filter(c => c.entry.browser === 'firefox').map(c => `${c.entry.experiment.id} ${c.entry.network}`))]
    assert.deepEqual(inFirefox, ['delay link', 'rest link'])
    assert.deepEqual(p.passes.map(x => `${x.network} ${x.browser}`), ['devtools chromium', 'link chromium', 'link firefox'])
    assert.deepEqual(p.lines, ["push: not in firefox (it needs Chromium's DevTools protocol)"])
    // What needs no browser (push-protocol's client, rest's protocol-level rows) goes with the first browser that runs the cell.
    const push = p.cells.filter(c => c.entry.experiment.id === 'push-protocol')
    assert.ok(push.length && push.every(c => c.entry.browser === 'chromium' && c.firstBrowser))
    const rest = p.cells.filter(c => c.entry.experiment.id === 'rest')
    assert.deepEqual(rest.map(c => [c.entry.browser, c.firstBrowser]), [['chromium', true], ['firefox', false]])
    assert.equal(p.needs.firefox, true)
    // Firefox alone: push-protocol moves to its pass; on DevTools the page is not in Firefox, and the line says where it is.
    const ff = planOf(['delay', 'push-protocol'], { browsers: ['firefox'], networks: ['devtools'] })
    assert.deepEqual([...new Set(ff.cells.map(c => `${c.entry.experiment.id} ${c.entry.browser}`))], ['push-protocol firefox'])
    assert.deepEqual(ff.lines, ["delay: not in firefox (it needs Chromium's DevTools protocol, or --network link)"])
    assert.deepEqual([ff.needs.chromium, ff.needs.firefox], [false, true])
    assert.equal(planOf(['delay'], { networks: ['link'] }).needs.firefox, false)
  })

  it('says when a cell has none of its lanes, and refuses --lanes-at for kinds that start their own servers', () => {
    const p = planOf(['push', 'delay'], { lanes: ['h1'] })
    assert.deepEqual([...new Set(p.cells.map(c => `${c.entry.experiment.id} ${c.skipped}`))], ['delay null', 'push   skipped: needs lane h2 or h2n'])
    const load = planOf(['ab-vs-nghttp'], { networks: ['link'], lanesAt: 'https://lanes.example:8443' })
    assert.ok(load.refusal instanceof UserError)
    assert.equal(load.refusal.message, '--lanes-at: ab-vs-nghttp starts servers of its own and cannot measure lanes elsewhere; for the load tools use h2bench load --lanes-at')
    assert.equal(planOf(['delay'], { lanesAt: 'https://lanes.example:8443' }).refusal, null)
  })

  it("a site of the user's: no lane, no Caddy, its origins checked before any browser starts", () => {
    const site = { urls: ['https://a.example/', 'https://b.example/'], protocols: ['h2', 'h3'], ca: null }
    const p = planOf(['site'], { site, browsers: ['chromium', 'firefox'] })
    assert.deepEqual(p.cells.map(c => `${c.entry.cell.url} ${c.entry.browser} ${c.skipped}`), [
      'https://a.example/ chromium null', 'https://b.example/ chromium null', 'https://a.example/ firefox null', 'https://b.example/ firefox null'
    ])
    assert.equal(p.needs.edge, false)
    assert.deepEqual(p.needs.preflight.map(x => [x.kind.kind, x.cells.map(c => c.url)]), [['site-url', site.urls.concat(site.urls)]])
  })

  it('is pure: the options and experiments come back as they went in', () => {
    const opts = optionsOf({ browsers: undefined })
    const experiments = select(['delay', 'rest'], { smoke: true })
    const before = JSON.stringify([opts, experiments])
    const p = planRun(opts, experiments)
    assert.equal(JSON.stringify([opts, experiments]), before)
    assert.deepEqual(p.passes.map(x => x.browser), ['chromium']) // browsers: chromium unless asked
  })
})

describe('kinds of cell (bench/kinds/): one interface', () => {
  it('every kind declares what it needs, runs a cell, estimates a repeat (or leaves it to its experiments) and bounds a row', () => {
    assert.deepEqual(Object.keys(KINDS).sort(), ['hol', 'load', 'page', 'push-page', 'push-protocol', 'replay', 'rest', 'site-page', 'site-url', 'ttfb'])
    for (const [name, k] of Object.entries(KINDS)) {
      assert.equal(k.kind, name)
      for (const flag of ['browser', 'ownServers', 'ownBrowser']) assert.equal(typeof k.needs[flag], 'boolean', `${name}.needs.${flag}`)
      const { browsers } = k.needs
      if (k.needs.browser) assert.ok(Array.isArray(browsers) || typeof browsers === 'function', name)
      else assert.equal(browsers, null, `${name}: no browser, so no browsers to run in`)
      for (const network of ['devtools', 'link']) {
        const list = typeof browsers === 'function' ? browsers(network) : browsers || []
        assert.ok(list.every(b => ['chromium', 'firefox'].includes(b)), name)
      }
      if (k.needs.networks) assert.ok(k.needs.networks.every(n => ['devtools', 'link'].includes(n)), name)
      assert.equal(typeof k.run, 'function', name)
      assert.ok(k.estimateMs === null || typeof k.estimateMs === 'function', name)
      assert.equal(typeof k.bound, 'function', name)
    }
    assert.throws(() => kindOf('nope'), /no kind of cell named "nope" \(bench\/kinds\/\); kinds: page, push-page/)
  })

  it("every experiment's kind is one of them, and one whose kind gives no estimate gives its own", () => {
    for (const e of EXPERIMENTS) {
      const k = kindOf(e.kind)
      if (!k.estimateMs) assert.equal(typeof e.estimateMs, 'function', e.id)
    }
  })
})
