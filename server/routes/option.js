'use strict'

const { performance } = require('node:perf_hooks')
const { parseOptionQuery, payload } = require('../payload')
const { afterDelay } = require('../delay')

// GET /option?size=&delay= : after `delay` ms, exactly `size` incompressible
// bytes: one view of the shared payload block (nothing allocated per request),
// which lane.sendBody writes in 256 KiB views paced by backpressure.
function optionRoute (lane) {
  return function option (req, res) {
    const { size, delay } = parseOptionQuery(req.query)
    const started = performance.now()
    afterDelay(res, delay, () => {
      const waited = performance.now() - started
      res.set({
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': String(size),
        'Server-Timing': `delay;dur=${waited.toFixed(1)};desc="server delay (asked ${delay} ms)"`
      })
      lane.sendBody(res, payload(size))
    })
  }
}

module.exports = { optionRoute }
