'use strict'

const assert = require('node:assert/strict')
const { experimentById } = require('../../bench/experiments')

// Rows as bench/cells/load.js makes them, reduced to what the verdicts read.
// One time stands for five runs around it (the verdict engine needs 5 good runs a side); its median stays.
function row ({ lane, preset, mode = null, ms = [], failures = 0, load = {}, linkSpec = null }) {
  if (ms.length === 1) ms = [0.99, 0.995, 1, 1.005, 1.01].map(f => ms[0] * f)
  const sorted = [...ms].sort((a, b) => a - b)
  return {
    lane,
    preset,
    mode,
    linkSpec,
    samples: ms,
    failures,
    median: sorted.length ? sorted[Math.floor(sorted.length / 2)] : null,
    params: { requests: 100 },
    load: { reqPerSec: null, connections: null, requestsPerConnection: null, ...load }
  }
}
const check = (id, text, rows) => experimentById(id).conclusions.find(c => c.text.startsWith(text)).check(rows)

describe('runner: verdicts of the load experiments', () => {
  describe('h2load-netem', () => {
    const netem = (h1, h3, extra = []) => [
      row({ lane: 'h1', preset: 'clean', ms: [400] }), row({ lane: 'h3', preset: 'clean', ms: [600] }),
      row({ lane: 'h1', preset: 'loss 30 %', ...h1 }), row({ lane: 'h3', preset: 'loss 30 %', ...h3 }), ...extra
    ]

    it('h1 ÷ h3 with h2load\'s h1 (pipelined, as the source\'s), oha on h1 beside it; oha on both only without h2load\'s h1', () => {
      const rows = netem({ ms: [9000] }, { ms: [1000] }, [row({ lane: 'h1', preset: 'loss 30 %', mode: 'oha', ms: [8000] })])
      const v = check('h2load-netem', 'Loss makes', rows)
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /loss 30 %: h1 9\.00 s, h3 1\.00 s \(h1 ÷ h3 9\.00×, h2load on h1, oha on h3; with oha on h1 8\.00×\)/)
      const ohaOnly = check('h2load-netem', 'Loss makes', rows.filter(r => !(r.lane === 'h1' && r.preset === 'loss 30 %' && !r.mode)))
      assert.match(ohaOnly.detail, /loss 30 %: h1 8\.00 s, h3 1\.00 s \(h1 ÷ h3 8\.00×, oha on both\)/)
    })

    it('a row with some failed runs counts by its good ones and says so; one with none did not finish', () => {
      const some = check('h2load-netem', 'Loss makes', netem({ ms: [5000], failures: 2 }, { ms: [1000] }))
      assert.match(some.detail, /h1 5\.00 s \(2 runs with failed requests left out\)/)
      const none = check('h2load-netem', 'Loss makes', netem({ ms: [], failures: 3 }, { ms: [1000] }))
      assert.match(none.detail, /h1 did not finish/)
      assert.equal(none.status, 'reproduced') // HTTP/3 finished where HTTP/1.1 could not
    })

    // Seed 004's h1 was pipelined (h2load -m 100 with --h1): time × req/s is 10,000 requests in every row of its table.
    it('not comparable when h1 is not pipelined as the source\'s was, naming the difference; other differences named', () => {
      const h1 = (command, ms) => row({ lane: 'h1', preset: 'loss 30 %', ms, load: { tool: 'h2load', command } })
      const h3 = row({ lane: 'h3', preset: 'loss 30 %', ms: [1000], load: { tool: 'oha', command: 'oha --no-tui --output-format csv --insecure --http-version 3 -n 1000 -c 100 -t 60s -p 10 https://x/option?size=612' } })
      const clean = [row({ lane: 'h1', preset: 'clean', ms: [400] }), row({ lane: 'h3', preset: 'clean', ms: [600] })]
      for (const r of [...clean, h3]) r.protocol = r.lane === 'h1' ? 'http/1.1' : 'h3'
      const unpipelined = h1('h2load -t 10 -c 100 -n 1000 -m 1 --h1 https://x/option?size=612', [9000])
      unpipelined.protocol = 'http/1.1'
      const v = check('h2load-netem', 'Loss makes', [...clean, unpipelined, h3])
      assert.equal(v.status, 'not comparable')
      assert.match(v.detail, /^the workload differs from the source's where it must not: h1 pipelining: 1 here, 100 in the source; h1 requests: 1000 here, 10000 in the source; h3 tool: oha here, h2load in the source; h3 streams: 10 here, 100 in the source; h3 requests: 1000 here, 10000 in the source; the figures: .*loss 30 %: h1 9\.00 s/)
      const pipelined = h1('h2load -t 10 -c 100 -n 10000 -m 100 --h1 https://x/option?size=612', [3000])
      pipelined.protocol = 'http/1.1'
      const w = check('h2load-netem', 'Loss makes', [...clean, pipelined, h3])
      assert.equal(w.status, 'reproduced')
      assert.match(w.detail, /; workload differs from the source: h3 tool: oha here, h2load in the source; h3 streams: 10 here, 100 in the source; h3 requests: 1000 here, 10000 in the source$/)
    })

    it('not measured when a cell it rests on has fewer than 5 good runs a side (the study of 3 repeats)', () => {
      const three = [row({ lane: 'h1', preset: 'clean', ms: [400, 410, 420] }), row({ lane: 'h3', preset: 'clean', ms: [600, 610, 620] })]
      const v = check('h2load-netem', 'On a clean link', three)
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /by the verdict engine h3 against h1 is not measured in 1 of 1 cells/)
    })

    it('"markedly" and "little" by the engine on the slowdowns: grown at least 1.5× with h3 ahead; the interval of the change within 1.5× either way', () => {
      const cells = (a, b, [h1a, h3a], [h1b, h3b]) => [
        row({ lane: 'h1', preset: a, ms: [h1a] }), row({ lane: 'h3', preset: a, ms: [h3a] }),
        row({ lane: 'h1', preset: b, ms: [h1b] }), row({ lane: 'h3', preset: b, ms: [h3b] })
      ]
      const grow = 'Loss makes'
      assert.equal(check('h2load-netem', grow, cells('clean', 'loss 30 %', [400, 600], [9000, 1000])).status, 'reproduced')
      // h3 ahead under loss, but h1's loss hurt it only 1.2× more than h3's: partly.
      const partly = check('h2load-netem', grow, cells('clean', 'loss 30 %', [400, 300], [4800, 3000]))
      assert.equal(partly.status, 'partly reproduced')
      assert.match(partly.detail, /from clean to loss 30 % \(the engine on the slowdowns: h1's over h3's; 'faster': HTTP\/3's advantage grows\): faster, the change hurts h3 1\.\d+× less than h1/)
      assert.equal(check('h2load-netem', grow, cells('clean', 'loss 30 %', [400, 600], [800, 1200])).status, 'not reproduced')
      const little = 'Latency together with loss'
      assert.equal(check('h2load-netem', little, cells('loss 30 %', '100±10 ms + loss 30 %', [9000, 1000], [10000, 1000])).status, 'reproduced')
      assert.equal(check('h2load-netem', little, cells('loss 30 %', '100±10 ms + loss 30 %', [9000, 1000], [30000, 1000])).status, 'not reproduced')
    })

    it('not measured without h3, naming the cells', () => {
      const v = check('h2load-netem', 'Loss makes', [row({ lane: 'h1', preset: 'clean', ms: [400] })])
      assert.deepEqual(v, { status: 'not measured', detail: 'needs lanes h1 and h3 at clean, loss 30 %' })
    })

    it('duplication offsetting loss: reproduced only when HTTP/1.1 is ahead again, partly when HTTP/3\'s lead shrinks', () => {
      const with2 = (lossH1, dupH1) => [
        row({ lane: 'h1', preset: 'loss 30 %', ms: [lossH1] }), row({ lane: 'h3', preset: 'loss 30 %', ms: [1000] }),
        row({ lane: 'h1', preset: 'loss 30 % + dup 70 %', ms: [dupH1] }), row({ lane: 'h3', preset: 'loss 30 % + dup 70 %', ms: [1000] })
      ]
      const text = 'Duplication offsets loss'
      assert.equal(check('h2load-netem', text, with2(8000, 600)).status, 'reproduced')
      assert.equal(check('h2load-netem', text, with2(8000, 6000)).status, 'partly reproduced')
      assert.equal(check('h2load-netem', text, with2(8000, 7900)).status, 'not reproduced')
    })

    it('oha against h2load on the same HTTP/2 lanes: holds at ≥ 80 % of h2load\'s rate', () => {
      const rows = [
        row({ lane: 'h2n', preset: 'clean', ms: [300], load: { reqPerSec: 3000 } }),
        { ...row({ lane: 'h2n', preset: 'clean', mode: 'oha', ms: [330], load: { reqPerSec: 2500 } }), protocol: 'h2' }
      ]
      assert.equal(check('h2load-netem', 'The HTTP/3 load client', rows).status, 'holds')
      rows[1].load.reqPerSec = 2000
      assert.equal(check('h2load-netem', 'The HTTP/3 load client', rows).status, 'does not hold')
    })
  })

  describe('ab-vs-nghttp', () => {
    const abn = (h1Conns, h2Conns) => [
      row({ lane: 'h1', preset: 'rtt=500ms', linkSpec: 'rtt=500ms', ms: [22000], load: { connections: h1Conns, requestsPerConnection: 1 } }),
      row({ lane: 'h2', preset: 'rtt=500ms', linkSpec: 'rtt=500ms', ms: [2200], load: { connections: h2Conns, requestsPerConnection: 100 / h2Conns } })
    ]

    it('the time ratio at the longest RTT decides, with every RTT listed', () => {
      const v = check('ab-vs-nghttp', 'HTTP/2 on one connection', abn(100, 1))
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /at 500 ms RTT ab took 22\.00 s, nghttp h2 2\.20 s: 10\.0×/)
    })

    it('one connection for the multiplexed lane and one per request for ab, by the server\'s ledger', () => {
      assert.equal(check('ab-vs-nghttp', 'nghttp sends', abn(100, 1)).status, 'reproduced')
      assert.equal(check('ab-vs-nghttp', 'nghttp sends', abn(10, 1)).status, 'not reproduced') // ab kept connections alive
      assert.equal(check('ab-vs-nghttp', 'nghttp sends', abn(100, 2)).status, 'not reproduced')
    })
  })
})
