'use strict'

// Kind `replay` (experiment replay): a recorded page (--har) replayed by server/replay over one protocol per
// run, each load in a browser of the cell's own sent to the replay: Chromium by --host-resolver-rules, Firefox
// by a hosts file over /etc/hosts in a mount namespace of its own (bench/cells/replay.js). The replay binds the
// recorded ports (443) on 127.0.1.x: it runs in the runner's private network namespace (privateNamespace;
// bench/runner/run.js prepare), never the host's. No lane, no shared browser.
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/replay')
const siteUrl = require('./site-url')

module.exports = {
  kind: 'replay',
  needs: { browser: true, ownServers: true, ownBrowser: true, browsers: ['chromium', 'firefox'], privateNamespace: true },
  async run (ctx) {
    const rows = await cells().runReplayCell(ctx)
    ctx.onBrowser((rows.find(r => r.browserVersion) || {}).browserVersion || null)
    return rows
  },
  estimateMs: null, // its experiment's own
  // As site's (its rows are site's): the document's first byte no sooner than the round trips a new connection
  // cannot avoid, at the shortest TCP connect measured to the replay's address.
  bound: siteUrl.bound
}
