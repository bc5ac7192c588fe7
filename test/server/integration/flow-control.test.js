'use strict'

// HTTP/2 flow control at the frame level, on every h2 lane: a server must
// never send more DATA than the client's stream and connection windows allow
// (RFC 9113 6.9.1). spdy-transport sent a whole frame into whatever window
// was left, and Chromium closed the session with ERR_HTTP2_FLOW_CONTROL_ERROR
// (server/compat/spdy-send.js, fix 2). The raw client grants windows a few
// bytes at a time, which is what a browser whose renderer reads slowly does.
const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { forEachLane } = require('../../support/lanes')
const { connectRaw } = require('../../support/h2-frames')
const { LANES } = require('../../../server/lanes')

// Every HTTP/2 lane, h2e (Caddy's Go net/http) included: RFC 9113's flow
// control binds any server, and Caddy passes these as they are.
const H2_LANES = LANES.filter(l => l.protocol === 'h2')
const CONNECTION_WINDOW = 65535 // RFC 9113 6.9.2: the initial connection window, changed only by WINDOW_UPDATE

describe('HTTP/2 flow control, frame by frame', function () {
  this.timeout(30000)
  const servers = useServers({ lanes: H2_LANES })

  forEachLane(laneDef => {
    let client
    const open = settings => connectRaw(servers.lane(laneDef.name).url, { settings, ca: servers.tls.cert })
      .then(c => { client = c; return c })
    afterEach(() => client && client.close())

    it('sends no DATA beyond the connection window, however small the WINDOW_UPDATE', async () => {
      const c = await open({ INITIAL_WINDOW_SIZE: 1 << 20 })
      const id = c.request('/option?size=200000')
      await c.until(() => c.dataBytes.total >= CONNECTION_WINDOW, 'the first 65,535 bytes')
      await c.settle()
      assert.equal(c.dataBytes.total, CONNECTION_WINDOW, 'more DATA than the initial connection window')
      let allowed = CONNECTION_WINDOW
      for (const grant of [1000, 7, 5779, 16385]) {
        c.windowUpdate(0, grant)
        allowed += grant
        await c.until(() => c.dataBytes.total >= allowed, `DATA up to ${allowed}`)
        await c.settle(150)
        assert.equal(c.dataBytes.total, allowed, `after a WINDOW_UPDATE of ${grant}: ${c.dataBytes.total - allowed} bytes beyond the window`)
      }
      assert.equal(c.dataBytes[id], allowed)
      assert.equal(c.framesOf('GOAWAY').length, 0)
    })

    it('sends no DATA beyond a stream window, however small the WINDOW_UPDATE', async () => {
      const c = await open({ INITIAL_WINDOW_SIZE: 1000 })
      c.windowUpdate(0, 1 << 20) // the connection window is not the limit here
      const id = c.request('/option?size=100000')
      await c.until(() => c.dataBytes[id] >= 1000, 'the first 1,000 bytes')
      await c.settle()
      assert.equal(c.dataBytes[id], 1000, 'more DATA than the stream window')
      let allowed = 1000
      for (const grant of [100, 1, 3000, 16385]) {
        c.windowUpdate(id, grant)
        allowed += grant
        await c.until(() => c.dataBytes[id] >= allowed, `DATA up to ${allowed}`)
        await c.settle(150)
        assert.equal(c.dataBytes[id], allowed, `after a stream WINDOW_UPDATE of ${grant}: ${c.dataBytes[id] - allowed} bytes beyond the window`)
      }
    })

    it('shares a small connection window among many streams without overrunning it', async () => {
      const c = await open({ INITIAL_WINDOW_SIZE: 1 << 20 })
      const ids = Array.from({ length: 40 }, () => c.request('/option?size=50000'))
      await c.until(() => c.dataBytes.total >= CONNECTION_WINDOW, 'the first 65,535 bytes')
      let allowed = CONNECTION_WINDOW
      // Odd increments, as a browser's reader frees them.
      while (allowed < ids.length * 50000) {
        await c.settle(20)
        assert.ok(c.dataBytes.total <= allowed, `${c.dataBytes.total - allowed} bytes beyond the connection window`)
        const grant = 4093 + (allowed % 9000)
        c.windowUpdate(0, grant)
        allowed += grant
      }
      await c.until(() => ids.every(id => c.dataBytes[id] === 50000), 'every body')
      assert.equal(c.framesOf('GOAWAY').length, 0)
    })
  }, H2_LANES)
})
