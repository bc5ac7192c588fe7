'use strict'

const express = require('express')
const { requireToken } = require('../access')

// GET /cpu.json: the CPU the browser that asks and the lanes' servers have
// used so far (server/cpu.js): { at, tickMs, machine: { busyMs, cpus } | null, browser: { name, root, found,
// cpuMs, pids, processes: [{ pid, type, cpuMs }] } | { cpuMs: null, reason },
// servers: { node, caddy, reason } }. The page asks at a batch's start and
// end (client/js/cpu.js). It never fails a run: what cannot be read is null
// with the reason. Beyond loopback it needs the token (server/access.js): it
// names this machine's processes.
function cpuRoutes ({ meter, token = null }) {
  const router = express.Router()
  router.get('/cpu.json', requireToken(token, 'the CPU readings of this machine\'s processes'), (req, res) => {
    res.set('Cache-Control', 'no-store')
    res.json(meter.read(req.socket))
  })
  return router
}

module.exports = { cpuRoutes }
