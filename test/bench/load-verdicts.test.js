'use strict'

const assert = require('node:assert/strict')
const { experimentById } = require('../../bench/experiments')
const { verdicts } = require('../../bench/report/runner/report-verdicts')

// Rows as bench/cells/load.js makes them, reduced to what the verdicts read.
// One time stands for five runs around it (the verdict engine needs 5 good runs a side); its median stays.
function row ({ id = 'h2load-netem', lane, preset, mode = null, ms = [], failures = 0, load = {}, linkSpec = null }) {
  if (ms.length === 1) ms = [0.99, 0.995, 1, 1.005, 1.01].map(f => ms[0] * f)
  const sorted = [...ms].sort((a, b) => a - b)
  return {
    experiment: id,
    cell: experimentById(id).cells.findIndex(c => c.preset === preset),
    network: 'link',
    lane,
    preset,
    mode,
    protocol: lane === 'h1' ? 'http/1.1' : lane === 'h3' ? 'h3' : 'h2',
    linkSpec,
    samples: ms,
    failures,
    median: sorted.length ? sorted[Math.floor(sorted.length / 2)] : null,
    params: { requests: 100 },
    load: { reqPerSec: null, connections: null, requestsPerConnection: null, ...load }
  }
}
// The claim whose text starts with `text`, judged as the report judges it (bench/report/claims/<id>.js, bench/report/claims/judge.js).
const check = (id, text, rows) => verdicts(experimentById(id), rows).find(c => c.text.startsWith(text))

describe('runner: verdicts of the load experiments', () => {
  describe('h2load-netem', () => {
    const netem = (h1, h3, extra = []) => [
      row({ lane: 'h1', preset: 'clean', ms: [400] }), row({ lane: 'h3', preset: 'clean', ms: [600] }),
      row({ lane: 'h1', preset: 'loss 30 %', ...h1 }), row({ lane: 'h3', preset: 'loss 30 %', ...h3 }), ...extra
    ]

    it('h1 ÷ h3 with h2load\'s h1 (pipelined, as the source\'s), oha on h1 beside it; oha\'s h1 is no side (it does not pipeline)', () => {
      const rows = netem({ ms: [9000] }, { ms: [1000] }, [row({ lane: 'h1', preset: 'loss 30 %', mode: 'oha', ms: [8000] })])
      const v = check('h2load-netem', 'Loss makes', rows)
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /loss 30 %: h1 9\.00 s, h3 1\.00 s \(h1 ÷ h3 9\.00×; with oha on h1 8\.00×; source 1\.70×\); the sides differ in tool by design: h2load on h1, oha on h3/)
      const ohaOnly = check('h2load-netem', 'Loss makes', rows.filter(r => !(r.lane === 'h1' && r.preset === 'loss 30 %' && !r.mode)))
      assert.equal(ohaOnly.status, 'not measured')
      assert.match(ohaOnly.detail, /loss 30 %: h1 not run, h3 1\.00 s \(h1 ÷ h3 –; with oha on h1 8\.00×; source 1\.70×\)/)
    })

    it('a row with failed runs is not measured, and says so; its good runs\' time and one that did not finish are said', () => {
      const some = check('h2load-netem', 'Loss makes', netem({ ms: [5000], failures: 2 }, { ms: [1000] }))
      assert.equal(some.status, 'not measured')
      assert.match(some.detail, /loss 30 %: not measured \(h1 had 2 failed requests\) → missing/)
      assert.match(some.detail, /h1 5\.00 s \(2 runs with failed requests left out\)/)
      const none = check('h2load-netem', 'Loss makes', netem({ ms: [], failures: 3 }, { ms: [1000] }))
      assert.match(none.detail, /h1 did not finish/)
      assert.equal(none.status, 'not measured') // one verdict rule: a row with failed runs is not a side, even an h1 that never finished
    })

    // Seed 004's h1 was pipelined (h2load -m 100 with --h1): time × req/s is 10,000 requests in every row of its table.
    it('not measured when h1 is not pipelined as the source\'s was, naming the difference; other differences named', () => {
      const h1 = (command, ms) => row({ lane: 'h1', preset: 'loss 30 %', ms, load: { tool: 'h2load', command } })
      const h3 = row({ lane: 'h3', preset: 'loss 30 %', ms: [1000], load: { tool: 'oha', command: 'oha --no-tui --output-format csv --insecure --http-version 3 -n 1000 -c 100 -t 60s -p 10 https://x/option?size=612' } })
      const clean = [row({ lane: 'h1', preset: 'clean', ms: [400] }), row({ lane: 'h3', preset: 'clean', ms: [600] })]
      const unpipelined = h1('h2load -t 10 -c 100 -n 1000 -m 1 --h1 https://x/option?size=612', [9000])
      const v = check('h2load-netem', 'Loss makes', [...clean, unpipelined, h3])
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /loss 30 %: not measured \(h1's workload differs from the source's where it must not: pipelining: 1 here, 100 in the source\) → missing/)
      assert.match(v.detail, /workload against the source's: h1 pipelining: 1 here, 100 in the source; h1 requests: 1000 here, 10000 in the source; h3 tool: oha here, h2load in the source; h3 streams: 10 here, 100 in the source; h3 requests: 1000 here, 10000 in the source/)
      const pipelined = h1('h2load -t 10 -c 100 -n 10000 -m 100 --h1 https://x/option?size=612', [3000])
      const w = check('h2load-netem', 'Loss makes', [...clean, pipelined, h3])
      assert.equal(w.status, 'reproduced')
      assert.match(w.detail, /workload against the source's: h3 tool: oha here, h2load in the source; h3 streams: 10 here, 100 in the source; h3 requests: 1000 here, 10000 in the source(;|$)/)
    })

    it('not measured when a cell it rests on has fewer than 5 good runs a side (the study of 3 repeats)', () => {
      const three = [row({ lane: 'h1', preset: 'clean', ms: [400, 410, 420] }), row({ lane: 'h3', preset: 'clean', ms: [600, 610, 620] })]
      const v = check('h2load-netem', 'On a clean link', three)
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /clean: not measured \(3 and 3 runs, at least 5 needed; medians only: 0\.67×\) → missing/)
    })

    it('"markedly" and "little" by the engine on the slowdowns: h3 ahead and the change hurting h1 more; the interval of the change within 1.5× either way', () => {
      const cells = (a, b, [h1a, h3a], [h1b, h3b]) => [
        row({ lane: 'h1', preset: a, ms: [h1a] }), row({ lane: 'h3', preset: a, ms: [h3a] }),
        row({ lane: 'h1', preset: b, ms: [h1b] }), row({ lane: 'h3', preset: b, ms: [h3b] })
      ]
      const grow = 'Loss makes'
      assert.equal(check('h2load-netem', grow, cells('clean', 'loss 30 %', [400, 600], [9000, 1000])).status, 'reproduced')
      // h3 ahead under loss, and the loss hurt h1 1.2× more than h3 by the engine (its interval clear of 1): both parts for.
      const modest = check('h2load-netem', grow, cells('clean', 'loss 30 %', [400, 300], [4800, 3000]))
      assert.equal(modest.status, 'reproduced')
      assert.match(modest.detail, /loss slows HTTP\/3 down less than HTTP\/1\.1 \(for: the change hurts h3 \(oha\) less than h1 \(h2load\)\), by the verdict engine, per impairment \(server → client\): loss 30 %: faster \(1\.\d+×, 95 % interval/)
      assert.equal(check('h2load-netem', grow, cells('clean', 'loss 30 %', [400, 600], [800, 1200])).status, 'not reproduced')
      const little = 'Latency together with loss'
      assert.equal(check('h2load-netem', little, cells('loss 30 %', '100±10 ms + loss 30 %', [9000, 1000], [10000, 1000])).status, 'reproduced')
      assert.equal(check('h2load-netem', little, cells('loss 30 %', '100±10 ms + loss 30 %', [9000, 1000], [30000, 1000])).status, 'not reproduced')
    })

    it('not measured without h3, naming the cells', () => {
      const v = check('h2load-netem', 'Loss makes', [row({ lane: 'h1', preset: 'clean', ms: [400] })])
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /HTTP\/3 faster than HTTP\/1\.1 under loss \(for: h3 \(oha\) faster than h1 \(h2load\)\), by the verdict engine, per impairment \(server → client\): no h1 \(h2load\) row/)
      assert.match(v.detail, /clean: h1 0\.40 s, h3 not run \(h1 ÷ h3 –; source 0\.66×\); loss 30 %: h1 not run, h3 not run/)
    })

    it('duplication offsetting loss: reproduced only when HTTP/1.1 is ahead again, not when HTTP/3\'s lead only shrinks', () => {
      const with2 = (lossH1, dupH1) => [
        row({ lane: 'h1', preset: 'loss 30 %', ms: [lossH1] }), row({ lane: 'h3', preset: 'loss 30 %', ms: [1000] }),
        row({ lane: 'h1', preset: 'loss 30 % + dup 70 %', ms: [dupH1] }), row({ lane: 'h3', preset: 'loss 30 % + dup 70 %', ms: [1000] })
      ]
      const text = 'Duplication offsets loss'
      assert.equal(check('h2load-netem', text, with2(8000, 600)).status, 'reproduced')
      assert.equal(check('h2load-netem', text, with2(8000, 6000)).status, 'not reproduced') // tilted, but h3 still ahead: one part for, one against
      assert.equal(check('h2load-netem', text, with2(8000, 7900)).status, 'not reproduced')
    })

    it('oha against h2load on the same HTTP/2 lanes: holds while oha takes at most h2load\'s time ÷ 0.8 (80 % of its rate)', () => {
      const rows = [
        row({ lane: 'h2n', preset: 'clean', ms: [300], load: { reqPerSec: 3000 } }),
        row({ lane: 'h2n', preset: 'clean', mode: 'oha', ms: [330], load: { reqPerSec: 2500 } })
      ]
      const v = check('h2load-netem', 'The HTTP/3 load client', rows)
      assert.equal(v.status, 'holds')
      assert.match(v.detail, /oha against h2load on the same lanes, req\/s: h2n 2500 vs 3000 \(0\.83×\)/)
      rows[1] = row({ lane: 'h2n', preset: 'clean', mode: 'oha', ms: [450], load: { reqPerSec: 2000 } })
      assert.equal(check('h2load-netem', 'The HTTP/3 load client', rows).status, 'does not hold')
    })
  })

  describe('ab-vs-nghttp', () => {
    const abn = (h1Conns, h2Conns, preset = 'rtt=500ms', lanes = ['h2']) => [
      row({ id: 'ab-vs-nghttp', lane: 'h1', preset, linkSpec: preset, ms: [22000], load: { tool: 'ab', connections: h1Conns, requestsPerConnection: 100 / h1Conns } }),
      ...lanes.map(lane => row({ id: 'ab-vs-nghttp', lane, preset, linkSpec: preset, ms: [2200], load: { tool: 'nghttp', connections: h2Conns, requestsPerConnection: 100 / h2Conns } }))
    ]
    const ALL = ['h2', 'h2n', 'h2e']

    it('every RTT\'s cell by the verdict engine, the ratios per link and the times at the source\'s path said', () => {
      const v = check('ab-vs-nghttp', 'HTTP/2 on one connection', [...abn(100, 1, 'rtt=50ms', ALL), ...abn(100, 1, 'rtt=500ms', ALL)])
      assert.equal(v.status, 'reproduced')
      // Each HTTP/2 lane is a part: one that did not run leaves its part without a cell.
      assert.equal(check('ab-vs-nghttp', 'HTTP/2 on one connection', abn(100, 1)).status, 'not measured')
      assert.match(v.detail, /rtt=50ms: faster \(0\.10×, 95 % interval [\d.]+×–[\d.]+×\) → for; rtt=500ms: faster/)
      assert.match(v.detail, /at rtt=500ms \(the source's path\) ab took 22\.00 s, nghttp h2 2\.20 s, h2n 2\.20 s, h2e 2\.20 s/)
    })

    it('one connection for the multiplexed lane and one per request for ab, by the server\'s ledger', () => {
      assert.equal(check('ab-vs-nghttp', 'nghttp sends', abn(100, 1)).status, 'reproduced')
      assert.equal(check('ab-vs-nghttp', 'nghttp sends', abn(10, 1)).status, 'not reproduced') // ab kept connections alive
      assert.equal(check('ab-vs-nghttp', 'nghttp sends', abn(100, 2)).status, 'not reproduced')
    })
  })
})
