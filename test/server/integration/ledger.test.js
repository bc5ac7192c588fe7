'use strict'

const assert = require('node:assert/strict')
const https = require('node:https')
const { useServers } = require('../../support/servers')
const { forEachLane } = require('../../support/lanes')
const { h2Session, h3get, laneGet, useH3Client } = require('../../support/clients')
const { getJson } = require('../../../load/run-tool')
const { newLedgers, MAX_LEDGERS } = require('../../../server/ledger')
const { EDGE_CLIENT_HEADER } = require('../../../server/edge/caddy')

let serial = 0
const newId = name => `t-${name}-${process.pid}-${++serial}`

// HTTP/1.1 GETs on one keep-alive connection of its own.
async function h1OnOneConnection (url, n, { ca, headers = {} }) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca })
  const statuses = []
  try {
    for (let i = 0; i < n; i++) {
      statuses.push(await new Promise((resolve, reject) => {
        https.get(url, { agent, headers: typeof headers === 'function' ? headers(i) : headers }, res => {
          res.resume()
          res.on('end', () => resolve(res.statusCode))
        }).on('error', reject)
      }))
    }
  } finally {
    agent.destroy()
  }
  return statuses
}

// `n` GETs of `path` on one new connection of the lane, in its protocol;
// headers: an object, or i → object (not for h3: h3get sends the same on every request).
async function onOneConnection (lane, path, n, { ca, headers = {} }) {
  if (lane.protocol === 'http/1.1') return h1OnOneConnection(lane.url + path, n, { ca, headers })
  if (lane.protocol === 'h2') {
    const s = h2Session(lane.url, { ca })
    try {
      const statuses = []
      for (let i = 0; i < n; i++) statuses.push((await s.get(path, typeof headers === 'function' ? headers(i) : headers)).status)
      return statuses
    } finally {
      await s.close()
    }
  }
  assert.equal(typeof headers, 'object', 'h3get sends the same headers on every request')
  const r = await h3get(lane.url + path, ['--repeat', String(n)], { ca, headers })
  assert.ok(!r.error && r.failed === 0, JSON.stringify(r))
  assert.equal(r.connections, 1, `h3get --repeat ${n}: one QUIC connection`)
  return Object.entries(r.statuses).flatMap(([status, count]) => Array(count).fill(Number(status)))
}

// GET /ledger/<id> over TCP (the h3 lane answers it on its TCP fallback; the
// Node HTTP/2 lanes speak nothing but h2): what h2bench load reads.
const readLedger = (lane, id) => getJson(lane.url, `/ledger/${id}`, { h2: lane.protocol === 'h2' && !lane.edge })

describe('the connection ledger (?ledger=ID, GET /ledger/ID)', function () {
  this.timeout(30000)
  useH3Client()
  const servers = useServers()
  const ca = () => servers.tls.cert

  forEachLane(laneDef => {
    const lane = () => servers.lane(laneDef.name)

    it('counts requests per client connection: 2 connections × 3 requests', async () => {
      const id = newId(laneDef.name)
      for (let c = 0; c < 2; c++) {
        assert.deepEqual(await onOneConnection(lane(), `/option?size=64&ledger=${id}`, 3, { ca: ca() }), [200, 200, 200])
      }
      const r = await readLedger(lane(), id)
      assert.equal(r.status, 200)
      assert.deepEqual(r.json, { lane: laneDef.name, ledger: id, requests: 6, connections: 2, perConnection: { min: 3, median: 3, max: 3 }, truncated: false })
    })

    it('an id no request carried: zeros', async () => {
      const id = newId('never')
      const r = await readLedger(lane(), id)
      assert.equal(r.status, 200)
      assert.deepEqual(r.json, { lane: laneDef.name, ledger: id, requests: 0, connections: 0, perConnection: null, truncated: false })
    })

    it('a bad id, in the route or in ?ledger=: 400 JSON naming param ledger', async () => {
      for (const path of ['/ledger/a%20b', `/option?size=64&ledger=${'x'.repeat(65)}`, '/option?size=64&ledger=', '/option?size=64&ledger=a.b']) {
        const res = await laneGet(lane(), path, { ca: ca() })
        assert.equal(res.status, 400, path)
        const body = JSON.parse(res.body)
        assert.equal(body.param, 'ledger', path)
        assert.equal(body.code, 'H2B_BAD_INPUT')
        assert.match(body.error, /is not a ledger id; allowed: 1…64 letters, digits, "-" or "_"/)
      }
      // The longest id allowed: 64 characters.
      const longest = `${newId('l')}-`.padEnd(64, 'y')
      assert.equal((await laneGet(lane(), `/option?size=64&ledger=${longest}`, { ca: ca() })).status, 200)
      assert.equal((await readLedger(lane(), longest)).json.requests, 1)
    })

    if (laneDef.edge) {
      // The edge sets the header from the connection it accepted, over
      // whatever the client sent: a client cannot make its connections one.
      it(`a client's own ${EDGE_CLIENT_HEADER} header cannot fake a connection`, async () => {
        const headers = { [EDGE_CLIENT_HEADER]: '1.2.3.4:5' }
        if (laneDef.protocol === 'h2') {
          // Two requests on one connection claiming different clients: one connection.
          const one = newId('fake1')
          await onOneConnection(lane(), `/option?size=64&ledger=${one}`, 2, { ca: ca(), headers: i => ({ [EDGE_CLIENT_HEADER]: `1.2.3.${i}:5` }) })
          assert.deepEqual((await readLedger(lane(), one)).json.perConnection, { min: 2, median: 2, max: 2 })
          assert.equal((await readLedger(lane(), one)).json.connections, 1)
        }
        // Two connections claiming the same client: two connections.
        const two = newId('fake2')
        for (let c = 0; c < 2; c++) await onOneConnection(lane(), `/option?size=64&ledger=${two}`, 2, { ca: ca(), headers })
        const r = (await readLedger(lane(), two)).json
        assert.equal(r.requests, 4)
        assert.equal(r.connections, 2)
      })
    } else {
      it(`a client's ${EDGE_CLIENT_HEADER} header means nothing here: the socket is the connection`, async () => {
        const id = newId('nodefake')
        await onOneConnection(lane(), `/option?size=64&ledger=${id}`, 2, { ca: ca(), headers: i => ({ [EDGE_CLIENT_HEADER]: `1.2.3.${i}:5` }) })
        await onOneConnection(lane(), `/option?size=64&ledger=${id}`, 1, { ca: ca(), headers: { [EDGE_CLIENT_HEADER]: '1.2.3.0:5' } })
        const r = (await readLedger(lane(), id)).json
        assert.equal(r.connections, 2)
        assert.deepEqual(r.perConnection, { min: 1, median: 1, max: 2 })
      })
    }
  })

  describe(`more than ${MAX_LEDGERS} ledgers: the oldest is forgotten`, () => {
    for (const name of ['h1', 'h2n']) {
      it(`on lane ${name}`, async () => {
        const lane = servers.lane(name)
        const ids = Array.from({ length: MAX_LEDGERS + 1 }, () => newId('many'))
        // One request per ledger, in order.
        const paths = ids.map(id => `/option?size=1&ledger=${id}`)
        if (lane.protocol === 'h2') {
          const s = h2Session(lane.url, { ca: ca() })
          for (const p of paths) assert.equal((await s.get(p)).status, 200)
          await s.close()
        } else {
          for (const p of paths) assert.deepEqual(await h1OnOneConnection(lane.url + p, 1, { ca: ca() }), [200])
        }
        assert.equal((await readLedger(lane, ids[0])).json.requests, 0, 'the oldest, forgotten')
        assert.equal((await readLedger(lane, ids[1])).json.requests, 1, 'the second oldest, kept')
        assert.equal((await readLedger(lane, ids[ids.length - 1])).json.requests, 1, 'the newest, kept')
      })
    }

    it('in the ledger itself: a new id past the limit forgets the first, not the busiest', () => {
      const l = newLedgers()
      for (let i = 0; i < MAX_LEDGERS; i++) l.record(`id${i}`, 'a:1')
      l.record('id0', 'a:2') // the first, used again: still the oldest created
      l.record('new', 'a:1')
      assert.equal(l.summary('id0').requests, 0)
      assert.equal(l.summary('id1').requests, 1)
      assert.deepEqual(l.summary('new'), { requests: 1, connections: 1, perConnection: { min: 1, median: 1, max: 1 }, truncated: false })
    })
  })
})
