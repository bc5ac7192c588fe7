'use strict'

const express = require('express')
const { InputError } = require('../../common/errors')
const { requireToken } = require('../access')

// The page's view of the network: GET /link.json tells which packet-level link
// is active (or that none is: request-level DevTools throttling is then the
// only network emulation), POST /link changes it while it runs.
// `control` is harness/link-session.js's linkControl, or null when the page server
// was started without --link; `keys` the spec's keys the page may offer (link/spec-keys.js).
// `token`: set when the page server listens beyond loopback: changing the link needs it (server/access.js).
function linkRoutes ({ control, presets, keys = [], unavailable, token = null }) {
  const router = express.Router()
  router.get('/link.json', (req, res) => {
    res.set('Cache-Control', 'no-store')
    res.json(control
      ? { active: true, link: control.current(), presets, keys }
      : { active: false, why: unavailable || 'the page server was started without --link (npm run chrome -- --link <spec>)', presets, keys })
  })
  router.post('/link', requireToken(token, 'changing the link'), express.json({ limit: '4kb' }), async (req, res, next) => {
    try {
      if (!control) {
        throw new InputError('no packet-level link is active: start h2bench with --link <spec|preset> (npm run chrome -- --link "Regular 3G")',
          { status: 409, param: 'spec', code: 'H2B_NO_LINK' })
      }
      const spec = req.body && req.body.spec
      if (typeof spec !== 'string' || !spec.trim()) {
        throw new InputError('spec is required: a preset name or key=value items, e.g. "Regular 3G" or "rtt=100ms,down=1.6mbit"', { param: 'spec' })
      }
      res.json({ active: true, link: await control.change(spec) })
    } catch (err) {
      next(err)
    }
  })
  return router
}

module.exports = { linkRoutes }
