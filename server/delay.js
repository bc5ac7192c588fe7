'use strict'

// Runs `send` after `delay` ms of server think time, unless the client went
// away meanwhile (a pending timer must not hold a dead response). No delay:
// at once. Every delayed route of the app waits through this.
function afterDelay (res, delay, send) {
  if (delay === 0) return send()
  const timer = setTimeout(() => {
    res.off('close', cancel)
    if (!res.destroyed) send()
  }, delay)
  function cancel () { clearTimeout(timer) }
  res.once('close', cancel)
}

module.exports = { afterDelay }
