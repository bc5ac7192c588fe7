'use strict'

// The claims of the command-line experiments (bench/report/claims/h2load-netem.js, ab-vs-nghttp.js, interop.js) on
// constructed rows, judged as the report judges them (bench/report/runner/report-verdicts.js): per claim a case that
// holds, one that does not, and one not measured.
const assert = require('node:assert/strict')
const stats = require('../../shared/stats')
const { experimentById } = require('../../bench/experiments')
const { verdicts } = require('../../bench/report/runner/report-verdicts')
const { CASES, specOf } = require('../../bench/experiments/interop-cases')
const { NETEM_ROWS } = require('../../load/presets')

// Five runs around `median` ms, tight (±1 %), in no trend.
const runs = median => [1, -1, 0.5, -0.5, 0].map(d => median * (1 + d / 100))
const PROTOCOL = { h1: 'http/1.1', h3: 'h3' }

// A load row as bench/cells/load.js makes it, with what the claims read; `ms` one median (five runs around it) or a list.
function row (id, { preset, lane, mode = null, ms = null, failures = 0, load = {}, workload = null, params = {} }) {
  const e = experimentById(id)
  const samples = ms === null ? [] : Array.isArray(ms) ? ms : runs(ms)
  return {
    experiment: id,
    cell: e.cells.findIndex(c => c.preset === preset),
    network: 'link',
    preset,
    lane,
    mode,
    protocol: PROTOCOL[lane] || 'h2',
    params: { requests: 100, sizeBytes: 612, ...params },
    samples,
    failures,
    median: samples.length ? stats.median(samples) : null,
    linkSpec: null,
    load: { tool: null, command: null, reqPerSec: null, connections: null, requestsPerConnection: null, ...load },
    ...(workload ? { workload } : {})
  }
}
const judged = (id, text, rows) => verdicts(experimentById(id), rows).find(v => v.text.startsWith(text))

describe('claims: h2load-netem (seed 004)', () => {
  const label = slug => NETEM_ROWS.find(r => r.link === slug).label
  const [CLEAN, DELAY, LOSS, DUP, CORRUPT, DELAY_LOSS, LOSS_DUP] = ['none', 'quic-delay', 'quic-loss', 'quic-dup', 'quic-corrupt', 'quic-delay-loss', 'quic-loss-dup'].map(label)
  const H1_COMMAND = 'h2load -t 10 -c 100 -n 10000 -m 100 --h1 https://x/option?size=612'
  const H3_COMMAND = 'oha --no-tui --output-format csv --insecure --http-version 3 -n 10000 -c 100 -t 60s -p 100 https://x/option?size=612'
  const h1 = (preset, ms, extra = {}) => row('h2load-netem', { preset, lane: 'h1', ms, load: { tool: 'h2load', command: H1_COMMAND }, ...extra })
  const h3 = (preset, ms, extra = {}) => row('h2load-netem', { preset, lane: 'h3', ms, load: { tool: 'oha', command: H3_COMMAND }, ...extra })
  // h1 and h3 at each [preset, h1 ms, h3 ms].
  const cells = (...list) => list.flatMap(([preset, a, b]) => [h1(preset, a), h3(preset, b)])
  const status = (text, rows) => judged('h2load-netem', text, rows).status

  describe('The HTTP/3 load client (oha) reaches at least 80 % of h2load\'s rate on the HTTP/2 lanes (h2bench\'s own)', () => {
    const text = 'The HTTP/3 load client (oha)'
    const W = { tool: 'x', connections: 100, streams: 100, requests: 10000 }
    const pair = (lane, h2load, oha, ohaWorkload = W) => [
      row('h2load-netem', { preset: CLEAN, lane, ms: h2load, load: { tool: 'h2load', reqPerSec: 10000 / h2load * 1000 }, workload: { ...W, tool: 'h2load' } }),
      row('h2load-netem', { preset: CLEAN, lane, mode: 'oha', ms: oha, load: { tool: 'oha', reqPerSec: 10000 / oha * 1000 }, workload: { ...ohaWorkload, tool: 'oha' } })
    ]

    it('holds when oha\'s time is at most h2load\'s ÷ 0.8 on every lane (the interval too); the rates are in the sentence', () => {
      const v = judged('h2load-netem', text, [...pair('h2', 300, 330), ...pair('h2e', 300, 310)])
      assert.equal(v.status, 'holds')
      assert.match(v.detail, /for: oha at least 80 % of h2load's speed \(time ratio at most 1\.25×\)/)
      assert.match(v.detail, /oha against h2load on the same lanes, req\/s: h2 30303 vs 33333 \(0\.91×\), h2e 32258 vs 33333 \(0\.97×\)/)
    })

    it('does not hold when oha takes 1.5× h2load\'s time (67 % of its rate)', () => {
      assert.equal(status(text, pair('h2', 300, 450)), 'does not hold')
      assert.equal(status(text, [...pair('h2', 300, 330), ...pair('h2e', 300, 450)]), 'does not hold') // one for, one against
    })

    it('not measured without oha on an HTTP/2 lane, or when oha ran another workload (not comparable)', () => {
      assert.equal(status(text, pair('h2', 300, 330).slice(0, 1)), 'not measured')
      const other = judged('h2load-netem', text, pair('h2', 300, 330, { ...W, connections: 10 }))
      assert.equal(other.status, 'not measured')
      assert.match(other.detail, /not comparable \(workloads differ: connections: 10 and 100\)/)
    })
  })

  describe('On a clean link HTTP/1.1 beats HTTP/3', () => {
    const text = 'On a clean link'
    it('reproduced when the engine finds h1 faster; the sentence names the tools (by design) and the source\'s figures', () => {
      const v = judged('h2load-netem', text, cells([CLEAN, 400, 600]))
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /clean: h1 0\.40 s, h3 0\.60 s \(h1 ÷ h3 0\.67×; source 0\.66×\); the sides differ in tool by design: h2load on h1, oha on h3; workload against the source's: h3 tool: oha here, h2load in the source/)
      assert.match(v.detail, /source: HTTP1\.1 总耗时406\.49ms .*seed 004 \(004_f16199259727fd5b\.txt\)/)
    })
    it('not reproduced when h3 is faster, or no difference', () => {
      assert.equal(status(text, cells([CLEAN, 600, 400])), 'not reproduced')
      assert.equal(status(text, cells([CLEAN, 600, 601])), 'not reproduced')
    })
    it('not measured without h3, with too few runs, or with h1 not pipelined as the source\'s (it measured something else)', () => {
      assert.equal(status(text, [h1(CLEAN, 400)]), 'not measured')
      assert.equal(status(text, [h1(CLEAN, [400, 410, 420]), h3(CLEAN, [600, 610, 620])]), 'not measured')
      const unpipelined = h1(CLEAN, 400, { load: { tool: 'h2load', command: 'h2load -t 10 -c 100 -n 10000 -m 1 --h1 https://x/' } })
      const v = judged('h2load-netem', text, [unpipelined, h3(CLEAN, 600)])
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /h1's workload differs from the source's where it must not: pipelining: 1 here, 100 in the source/)
    })
  })

  describe('Latency alone never makes HTTP/3 faster than HTTP/1.1', () => {
    const text = 'Latency alone'
    it('reproduced when h3 is slower or takes the same time', () => {
      assert.equal(status(text, cells([DELAY, 2000, 4000])), 'reproduced')
      assert.equal(status(text, cells([DELAY, 2000, 2010])), 'reproduced')
    })
    it('not reproduced when h3 is faster', () => assert.equal(status(text, cells([DELAY, 4000, 2000])), 'not reproduced'))
    it('not measured with a failed run on a side', () => assert.equal(status(text, [h1(DELAY, 2000), h3(DELAY, 4000, { failures: 1 })]), 'not measured'))
  })

  describe('Loss makes HTTP/3\'s advantage over HTTP/1.1 grow markedly (and corruption alike)', () => {
    for (const [text, impaired] of [['Loss makes', LOSS], ['Corruption alone', CORRUPT]]) {
      it(`${text}: reproduced when h3 is ahead after the change and the change hurt h1 more`, () => {
        const v = judged('h2load-netem', text, cells([CLEAN, 400, 600], [impaired, 9000, 1000]))
        assert.equal(v.status, 'reproduced')
        assert.match(v.detail, /h1 \(h2load\)'s slowdown is 14× h3 \(oha\)'s/)
      })
      it(`${text}: not reproduced when h3 stays behind and both slow down alike`, () => {
        assert.equal(status(text, cells([CLEAN, 400, 600], [impaired, 800, 1200])), 'not reproduced')
      })
      it(`${text}: partly reproduced when h3 pulls level but not ahead (one part for, one unsure)`, () => {
        const wide = [h1(impaired, [900, 1300, 1000, 1200, 1100]), h3(impaired, [1000, 1150, 1050, 1250, 950])]
        assert.equal(status(text, [...cells([CLEAN, 400, 600]), ...wide]), 'partly reproduced')
      })
      it(`${text}: not measured without the clean cell (a part without a measured cell)`, () => {
        assert.equal(status(text, cells([impaired, 9000, 1000])), 'not measured')
      })
    }
  })

  describe('Duplication alone gives HTTP/3 only a slight advantage', () => {
    const text = 'Duplication alone'
    it('reproduced when h3 is faster by about the source\'s margin (its time 0.90–1.00× h1\'s)', () => {
      const v = judged('h2load-netem', text, cells([DUP, 1000, 920]))
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /for: the interval of h3 \(oha\) ÷ h1 \(h2load\) within 0\.90×–1\.00×/)
    })
    it('not reproduced when h3 is far ahead (twice as fast: not slight) or behind', () => {
      assert.equal(status(text, cells([DUP, 1000, 500])), 'not reproduced')
      assert.equal(status(text, cells([DUP, 1000, 2000])), 'not reproduced')
    })
    it('not measured without h1', () => assert.equal(status(text, [h3(DUP, 920)]), 'not measured'))
  })

  describe('Latency together with loss changes the result little', () => {
    const text = 'Latency together with loss'
    it('reproduced when adding latency to loss slows h1 and h3 alike (within 1.5× either way)', () => {
      assert.equal(status(text, cells([LOSS, 9000, 1000], [DELAY_LOSS, 10000, 1000])), 'reproduced')
    })
    it('not reproduced when it slows h1 3× more than h3', () => {
      assert.equal(status(text, cells([LOSS, 9000, 1000], [DELAY_LOSS, 30000, 1000])), 'not reproduced')
    })
    it('not measured when h3 had failed runs (as the study\'s h3 under latency and loss)', () => {
      const v = judged('h2load-netem', text, [...cells([LOSS, 9000, 1000]), h1(DELAY_LOSS, 10000), h3(DELAY_LOSS, [8000, 8100, 7900], { failures: 2 })])
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /h3 had 2 failed requests/)
      assert.match(v.detail, /h3 8\.00 s \(2 runs with failed requests left out\)/)
    })
  })

  describe('Duplication offsets loss, tilting the result back towards HTTP/1.1', () => {
    const text = 'Duplication offsets loss'
    it('reproduced when h1 is ahead again under loss with duplication, duplication having helped it more', () => {
      assert.equal(status(text, cells([LOSS, 8000, 1000], [LOSS_DUP, 600, 1000])), 'reproduced')
    })
    it('not reproduced when h3 keeps its lead (its lead only shrinking: one part for, one against)', () => {
      assert.equal(status(text, cells([LOSS, 8000, 1000], [LOSS_DUP, 6000, 1000])), 'not reproduced')
      assert.equal(status(text, cells([LOSS, 8000, 1000], [LOSS_DUP, 7900, 1000])), 'not reproduced')
    })
    it('not measured without the loss-with-duplication cell', () => assert.equal(status(text, cells([LOSS, 8000, 1000])), 'not measured'))
  })
})

describe('claims: ab-vs-nghttp (seed 002)', () => {
  const AB = { tool: 'ab', command: 'ab -s 300 -n 100 -c 10 https://x/option?size=160' }
  const NGHTTP = { tool: 'nghttp', command: 'nghttp -n -s -m 100 https://x/option?size=160' }
  const at = (preset, ab, nghttp, { abLoad = {}, ngLoad = {}, lanes = ['h2', 'h2n', 'h2e'] } = {}) => [
    row('ab-vs-nghttp', { preset, lane: 'h1', ms: ab, load: { ...AB, connections: 100, requestsPerConnection: 1, ...abLoad } }),
    ...lanes.map(lane => row('ab-vs-nghttp', { preset, lane, ms: nghttp, load: { ...NGHTTP, connections: 1, requestsPerConnection: 100, ...ngLoad } }))
  ]

  describe('HTTP/2 on one connection finishes the 100 requests far sooner than HTTP/1.1 with 10', () => {
    const text = 'HTTP/2 on one connection'
    it('reproduced when nghttp is faster than ab on every HTTP/2 lane at every RTT; the per-link ratios and the source\'s figures said', () => {
      const v = judged('ab-vs-nghttp', text, [...at('rtt=50ms', 2200, 300), ...at('rtt=500ms', 22000, 2200)])
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /per link: rtt=50ms 7\.3×, rtt=500ms 10\.0×; at rtt=500ms \(the source's path\) ab took 22\.00 s, nghttp h2 2\.20 s, h2n 2\.20 s, h2e 2\.20 s/)
      assert.match(v.detail, /source: ab -n 100 -c 10: 22\.536 s; nghttp -n -m 100: 2\.626 s \(seed 002/)
    })
    it('not reproduced when nghttp is slower', () => assert.equal(judged('ab-vs-nghttp', text, at('rtt=500ms', 2200, 22000)).status, 'not reproduced'))
    it('not measured without ab, or when h1 ran another tool than the source\'s ab', () => {
      assert.equal(judged('ab-vs-nghttp', text, at('rtt=500ms', 22000, 2200).slice(1)).status, 'not measured')
      const v = judged('ab-vs-nghttp', text, at('rtt=500ms', 22000, 2200, { abLoad: { tool: 'h2load' } }))
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /h1 ran h2load, the source's HTTP\/1\.1 side was ab/)
    })
  })

  describe('nghttp sends the 100 requests as streams of one connection, where ab opens one per request', () => {
    const text = 'nghttp sends'
    it('reproduced by the server\'s ledger: ab 100 connections, nghttp 1 carrying the 100', () => {
      const v = judged('ab-vs-nghttp', text, at('rtt=500ms', 22000, 2200))
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /rtt=500ms: met \(100 connections for 100 requests \(1 a connection\)\) → for/)
      assert.match(v.detail, /rtt=500ms, h2: met \(1 connection for 100 requests \(100 a connection\)\) → for/)
    })
    it('not reproduced when ab kept its connections alive, or nghttp used two', () => {
      const lanes = ['h2']
      assert.equal(judged('ab-vs-nghttp', text, at('rtt=500ms', 22000, 2200, { lanes, abLoad: { connections: 10, requestsPerConnection: 10 } })).status, 'not reproduced')
      assert.equal(judged('ab-vs-nghttp', text, at('rtt=500ms', 22000, 2200, { lanes, ngLoad: { connections: 2, requestsPerConnection: 50 } })).status, 'not reproduced')
    })
    it('not measured without the server\'s connection counts', () => {
      const v = judged('ab-vs-nghttp', text, at('rtt=500ms', 22000, 2200, { abLoad: { connections: null }, ngLoad: { connections: null } }))
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /no connection count \(no server ledger\)/)
    })
  })
})

describe('claims: interop (the QUIC interop runner\'s criterion, h2bench\'s hypothesis that every lane passes it)', () => {
  const caseOf = name => CASES.find(c => c.name === name)
  const lane = (preset, name, { ms = 2000, failures = 0, connections = 1 } = {}) => {
    const r = row('interop', { preset, lane: name, ms: ms === null ? null : ms, failures, params: { requests: 1, sizeBytes: caseOf(preset).size }, load: { tool: name === 'h3' ? 'oha' : 'h2load', connections, runs: 5, failedRequests: failures } })
    return { ...r, linkSpec: specOf(caseOf(preset)) }
  }
  const lanes = (preset, extra = {}) => ['h1', 'h2', 'h2e', 'h3'].map(l => lane(preset, l, extra[l]))

  it('holds when every lane passes the case\'s criterion; each lane\'s judgement and the case cited in the sentence', () => {
    const v = judged('interop', 'blackhole (B)', lanes('blackhole', { h3: { ms: 11000 } }))
    assert.equal(v.status, 'holds')
    assert.match(v.detail, /for: each lane meets the QUIC interop runner's criterion for blackhole \(testcases_quic\.py TestCaseBlackhole; blackhole\.cc main\(\)\)/)
    assert.match(v.detail, /blackhole, h1: met \(pass \(5 of 5 runs by its criterion\)\) → for/)
    assert.match(v.detail, /the case: testcases_quic\.py TestCaseBlackhole; blackhole\.cc main\(\), scenario "blackhole --delay=15ms --bandwidth=10Mbps --queue=25 --on=5s --off=2s"/)
  })

  it('partly holds when one lane of four fails; does not hold when half or more fail (a mixed lane counts as failing)', () => {
    const one = judged('interop', 'transferloss (L2)', lanes('transferloss', { h2: { ms: null, failures: 5 } }))
    assert.equal(one.status, 'partly holds')
    assert.match(one.detail, /transferloss, h2: not met \(FAIL \(0 of 5 runs by its criterion: 5 of 5 runs did not complete\)\) → against/)
    const two = lanes('transferloss', { h2: { ms: null, failures: 5 }, h3: { ms: [2000, 2100], failures: 3 } })
    assert.equal(judged('interop', 'transferloss (L2)', two).status, 'does not hold')
    // Two connections where the case wants one handshake: the server's ledger fails it.
    assert.equal(judged('interop', 'longrtt (LR)', ['h1', 'h2', 'h2e', 'h3'].map(l => lane('longrtt', l, { connections: 2 }))).status, 'does not hold')
  })

  it('not measured when no lane ran the case, or none has a run', () => {
    assert.equal(judged('interop', 'goodput (G)', lanes('blackhole')).status, 'not measured')
    assert.equal(judged('interop', 'goodput (G)', ['h1', 'h3'].map(l => lane('goodput', l, { ms: null }))).status, 'not measured')
  })
})
