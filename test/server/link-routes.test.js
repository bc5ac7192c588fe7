'use strict'

const assert = require('node:assert/strict')
const request = require('supertest')
const { createPageApp } = require('../../server/page')
const { parseLinkSpec } = require('../../link/spec')
const { LINK_PRESETS } = require('../../link/presets')
const { SPEC_KEYS } = require('../../link/spec-keys')
const { addEffect } = require('../../client/js/link-effects')

// GET /link.json and POST /link (server/routes/link.js) through the page
// app, with a fake link control: the real spec parser, no forwarder.
function fakeControl (first = 'rtt=40ms') {
  const record = l => ({ mode: 'packet', name: l.name, text: l.text, description: l.description, up: l.up, down: l.down })
  let current = parseLinkSpec(first)
  const changes = []
  return {
    changes,
    current: () => record(current),
    async change (text) {
      const next = parseLinkSpec(text, { traces: false }) // as harness/link-session.js's linkControl: LinkSpecError (an InputError) is a 400
      changes.push(text)
      current = next
      return record(next)
    }
  }
}

const LANES = [{ name: 'h1', label: 'HTTP/1.1', protocol: 'http/1.1', url: 'https://127.0.0.1:1' }]

function appWith (link) {
  return createPageApp({ lanes: LANES, spki: 'AAAA', link })
}

// An error answer as the page server gives every one: JSON with a message.
function assertErrorBody (res, status) {
  assert.equal(res.status, status, JSON.stringify(res.body))
  assert.match(res.headers['content-type'], /application\/json/)
  assert.equal(typeof res.body.error, 'string')
  assert.ok(res.body.error.length > 10, res.body.error)
}

describe('page server /link routes', () => {
  describe('with a packet-level link', () => {
    let control = null
    let app = null
    beforeEach(() => {
      control = fakeControl('rtt=40ms')
      app = appWith(control)
    })

    it('GET /link.json: active, the link record and the presets, not cached', async () => {
      const res = await request(app).get('/link.json').expect(200)
      assert.equal(res.headers['cache-control'], 'no-store')
      assert.equal(res.body.active, true)
      const link = res.body.link
      assert.equal(link.mode, 'packet')
      assert.equal(link.name, null)
      assert.equal(link.text, 'rtt=40ms')
      assert.equal(link.description, 'unlimited rate, 40 ms RTT')
      for (const dir of ['up', 'down']) {
        assert.equal(link[dir].delayUs, 20000, dir)
        assert.equal(link[dir].rateBps, null, dir)
        assert.deepEqual(Object.keys(link[dir]).sort(), ['corrupt', 'delayUs', 'dup', 'jitterUs', 'loss', 'queue', 'rateBps', 'reorder', 'trace'])
      }
      assert.equal(res.body.presets.length, LINK_PRESETS.length)
      for (const p of res.body.presets) assert.deepEqual(Object.keys(p).sort(), ['group', 'name', 'slug', 'spec', 'what'])
      const regular = res.body.presets.find(p => p.name === 'Regular 3G')
      assert.deepEqual(regular, { name: 'Regular 3G', slug: 'regular-3g', group: 'devtools-2016', spec: 'rtt=100ms,down=768000bit,up=256000bit', what: regular.what })
      assert.deepEqual([...new Set(res.body.presets.map(p => p.group))], ['devtools-2016', 'devtools-current', 'quic-article', 'basic'])
    })

    it('GET /link.json: the spec\'s keys for "Add an effect", as h2bench-link --list has them, trace left out', async () => {
      const { body } = await request(app).get('/link.json').expect(200)
      assert.deepEqual(body.keys.map(k => k.name), SPEC_KEYS.filter(k => k.name !== 'trace').map(k => k.name))
      for (const k of body.keys) {
        assert.deepEqual(Object.keys(k).sort(), ['clears', 'default', 'example', 'group', 'name', 'needs', 'usage', 'values', 'what', 'whose'])
      }
      const aqm = body.keys.find(k => k.name === 'aqm')
      assert.equal(aqm.usage, 'aqm[.up|.down]')
      assert.equal(aqm.default, 'droptail; codel 5ms/100ms, fq_codel 5ms/100ms, pie 15ms')
      assert.deepEqual(aqm.needs, [{ keys: ['down', 'trace', 'trace.down'], item: 'down=10mbit' }])
    })

    it('POST /link with each key added as the page adds it: 200, the link has it', async () => {
      const { body } = await request(app).get('/link.json').expect(200)
      for (const k of body.keys) {
        const spec = addEffect('rtt=40ms', k, body.presets)
        const res = await request(app).post('/link').send({ spec }).expect(200)
        assert.equal(res.body.link.text, spec)
        assert.notEqual(res.body.link.description, 'unlimited rate, 40 ms RTT', `${spec} changed nothing`)
      }
      assert.equal(control.changes.length, body.keys.length)
    })

    it('POST /link with a preset: 200, the new link, and GET /link.json then says so', async () => {
      const res = await request(app).post('/link').send({ spec: 'Regular 3G' }).expect(200)
      assert.equal(res.body.active, true)
      assert.equal(res.body.link.name, 'Regular 3G')
      assert.equal(res.body.link.text, 'Regular 3G')
      assert.equal(res.body.link.down.rateBps, 768000)
      assert.equal(res.body.link.up.rateBps, 256000)
      assert.match(res.body.link.description, /^Regular 3G: 768 kbit\/s down, 256 kbit\/s up, 100 ms RTT/)
      const now = await request(app).get('/link.json').expect(200)
      assert.deepEqual(now.body.link, res.body.link)
      assert.deepEqual(control.changes, ['Regular 3G'])
    })

    it('POST /link with custom items and a preset with overrides', async () => {
      const custom = await request(app).post('/link').send({ spec: 'rtt=100ms,down=1.6mbit,loss=1%' }).expect(200)
      assert.equal(custom.body.link.name, null)
      assert.equal(custom.body.link.down.rateBps, 1600000)
      assert.equal(custom.body.link.down.loss, 0.01)
      assert.equal(custom.body.link.up.loss, 0.01)
      const over = await request(app).post('/link').send({ spec: 'Regular 3G,loss=1%' }).expect(200)
      assert.equal(over.body.link.name, 'Regular 3G')
      assert.match(over.body.link.description, /^Regular 3G with loss=1%: /)
    })

    const bad = [
      ['loss above 100 %', 'loss=130%', 'loss', /loss: 130% is above 100%; allowed: 0…100 %/],
      ['an unknown key, with a suggestion', 'rtt=40ms,los=1%', 'los', /unknown key "los"; did you mean "loss"\?/],
      ['a time without a unit', 'rtt=40', 'rtt', /rtt: "40" has no unit; write 40ms/],
      ['an ambiguous rate', 'down=1mb', 'down', /down: "1mb" is ambiguous \(bits or bytes per second\?\)/],
      ['an unknown preset', 'Regular 5G', 'preset', /unknown preset "Regular 5G"; presets: gprs, .*regular-3g/],
      ['jitter above the delay', 'rtt=10ms,jitter=20ms', 'jitter', /jitter 20 ms is above the up delay of 5 ms/],
      ['an empty item', 'rtt=40ms,,loss=1%', null, /empty item 2/],
      ['a trace file (files on the server are named on its command line only)', 'trace=/etc/shadow', 'trace', /trace: a trace file can only be given on the command line/],
      ['a trace file for one direction', 'Regular 3G,trace.down=/etc/passwd', 'trace.down', /trace\.down: a trace file can only be given on the command line/]
    ]
    for (const [what, spec, param, message] of bad) {
      it(`POST /link with ${what}: 400 naming ${param || 'the item'}, the link unchanged`, async () => {
        const before = control.current()
        const res = await request(app).post('/link').send({ spec })
        assertErrorBody(res, 400)
        assert.equal(res.body.param, param)
        assert.equal(res.body.code, 'H2B_BAD_LINK')
        assert.match(res.body.error, message)
        if (param) assert.ok(res.body.error.includes(param), `the message names ${param}: ${res.body.error}`)
        assert.deepEqual(control.current(), before)
        assert.deepEqual(control.changes, [])
      })
    }

    const missing = [
      ['no body', null],
      ['an empty object', {}],
      ['an empty spec', { spec: '' }],
      ['a blank spec', { spec: '   ' }],
      ['a number', { spec: 42 }],
      ['an array', { spec: ['rtt=40ms'] }],
      ['null', { spec: null }],
      ['a JSON array body', ['rtt=40ms']]
    ]
    for (const [what, body] of missing) {
      it(`POST /link with ${what}: 400, param spec, saying what a spec is`, async () => {
        const req = request(app).post('/link')
        const res = body === null ? await req : await req.send(body)
        assertErrorBody(res, 400)
        assert.equal(res.body.param, 'spec')
        assert.equal(res.body.code, 'H2B_BAD_INPUT')
        assert.match(res.body.error, /spec is required: a preset name or key=value items, e\.g\. "Regular 3G"/)
        assert.deepEqual(control.changes, [])
      })
    }

    it('POST /link with a body that is not JSON: 400, never a 500', async () => {
      const broken = await request(app).post('/link').set('Content-Type', 'application/json').send('{"spec": "rtt=40ms"')
      assertErrorBody(broken, 400)
      // A form or plain-text body is not read as JSON at all: no spec.
      const text = await request(app).post('/link').set('Content-Type', 'text/plain').send('rtt=40ms')
      assertErrorBody(text, 400)
      assert.equal(text.body.param, 'spec')
      const form = await request(app).post('/link').type('form').send({ spec: 'rtt=40ms' })
      assertErrorBody(form, 400)
      assert.equal(form.body.param, 'spec')
      // JSON that is not an object or array (express.json's strict mode).
      const scalar = await request(app).post('/link').set('Content-Type', 'application/json').send('"rtt=40ms"')
      assertErrorBody(scalar, 400)
      assert.deepEqual(control.changes, [])
    })

    it('POST /link with an oversized body: 413, not a 500', async () => {
      const res = await request(app).post('/link').send({ spec: `rtt=40ms,${'loss=1%,'.repeat(1000)}` })
      assertErrorBody(res, 413)
      assert.deepEqual(control.changes, [])
    })

    it('never answers bad input with a 500', async () => {
      const inputs = ['rtt=-5ms', 'rtt=1e3ms', 'queue=0', 'queue=1kb', 'down=0bit', 'reorder=5%', 'rtt=200s', 'delay.sideways=1ms',
        'rtt.up=5ms', '=5', 'loss', 'rate=1mbit', 'Regular 3G,Regular 3G', 'rtt=40ms,rtt=50ms', 'loss=abc', 'trace=/etc', '\u0000', 'x'.repeat(3000)]
      for (const spec of inputs) {
        const res = await request(app).post('/link').send({ spec })
        assert.equal(res.status, 400, `${JSON.stringify(spec.slice(0, 40))} → ${res.status} ${JSON.stringify(res.body)}`)
        assert.equal(typeof res.body.error, 'string')
      }
      assert.deepEqual(control.changes, [])
    })

    it('a failure to apply a good spec is a 500 with the reason (not the client\'s fault)', async () => {
      const broken = { current: control.current, change: async () => { throw new Error('the forwarder is not running') } }
      const original = console.error
      const logged = []
      console.error = line => logged.push(line)
      try {
        const res = await request(appWith(broken)).post('/link').send({ spec: 'rtt=10ms' })
        assertErrorBody(res, 500)
        assert.match(res.body.error, /the page server failed: the forwarder is not running/)
      } finally {
        console.error = original
      }
      assert.equal(logged.length, 1)
    })
  })

  describe('without a link', () => {
    const app = appWith(null)

    it('GET /link.json: not active, why, and the presets', async () => {
      const res = await request(app).get('/link.json').expect(200)
      assert.equal(res.headers['cache-control'], 'no-store')
      assert.equal(res.body.active, false)
      assert.equal(res.body.link, undefined)
      assert.match(res.body.why, /started without --link \(npm run chrome -- --link <spec>\)/)
      assert.equal(res.body.presets.length, LINK_PRESETS.length)
      assert.equal(res.body.keys.length, SPEC_KEYS.length - 1)
    })

    it('GET /link.json gives the reason the link cannot run, when there is one', async () => {
      const res = await request(createPageApp({ lanes: LANES, spki: 'AAAA', linkUnavailable: 'the packet-level link needs root' })).get('/link.json').expect(200)
      assert.equal(res.body.active, false)
      assert.equal(res.body.why, 'the packet-level link needs root')
    })

    it('POST /link: 409 saying how to start one, for a good spec and a bad one alike', async () => {
      for (const body of [{ spec: 'Regular 3G' }, { spec: 'loss=130%' }, {}]) {
        const res = await request(app).post('/link').send(body)
        assertErrorBody(res, 409)
        assert.equal(res.body.code, 'H2B_NO_LINK')
        assert.equal(res.body.param, 'spec')
        assert.match(res.body.error, /no packet-level link is active: start h2bench with --link <spec\|preset> \(npm run chrome -- --link "Regular 3G"\)/)
      }
    })

    it('other methods and paths: 404 JSON, not a 500', async () => {
      const res = await request(app).put('/link').send({ spec: 'rtt=1ms' })
      assertErrorBody(res, 404)
      const get = await request(app).get('/link')
      assertErrorBody(get, 404)
    })
  })
})

// The control the real page server uses (harness/link-session.js): what the page may
// not do, it refuses before the forwarder hears of it.
describe('link control of a running link', () => {
  const { linkControl } = require('../../harness/link-session')
  it('never reads a file for the page: a trace spec is refused, the file untouched', async () => {
    const sent = []
    const control = linkControl({ configure: async lines => { sent.push(...lines) } }, parseLinkSpec('none'))
    await assert.rejects(control.change('trace=/etc/shadow'), err => err.status === 400 && err.param === 'trace' && !/root/.test(err.message))
    assert.deepEqual(sent, [])
    assert.equal((await control.change('rtt=20ms')).text, 'rtt=20ms')
    assert.equal(sent.length, 2)
  })
})
