'use strict'

// The setup the `site --link` tests share (the origin reached by NAT from the
// link's namespace: harness/site-nat.js): the runner run as from a shell starts
// itself in a namespace of its own (the test's namespace marks left out of its
// environment), and slirp4netns gives that namespace a way out to this one,
// where the servers listen on loopback: seen from there, this namespace's
// loopback is slirp4netns's 10.0.2.2. Used by test/bench/slow/runner-site,
// site-link-splice and replay-fidelity-link.
const { findChrome } = require('../../harness/chromium')
const { unavailableReason } = require('../../link/namespace')
const { natUnavailableReason } = require('../../harness/site-nat')
const { startStaticSite } = require('./static-site')

// This namespace's loopback as the link's namespace reaches it.
const NAT_HOST = '10.0.2.2'

// A URL on 127.0.0.1 as the link's namespace reaches it.
const throughNat = url => url.replace('127.0.0.1', NAT_HOST)

// The environment to run the runner with so that it starts itself in a namespace of its own, as from a shell.
function outsideNamespaceEnv (env = process.env) {
  const out = { ...env }
  delete out.H2BENCH_PRIVATE_NETNS
  delete out.H2BENCH_LINK_USERNS
  return out
}

function skip (ctx, why) {
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

// A mocha before()'s start: skips the suite, saying why, where there is no Chromium, no link, no NAT, `why` (the
// test's own further reason, or null) or a server missing; else the site `start(options)` makes (the static site,
// startStaticSite, unless told: test/support/third-party-site.js's startThirdPartySite, say), its leaves also for
// NAT_HOST.
async function startSiteBehindNat (ctx, options = {}, why = null, start = startStaticSite) {
  const reason = !findChrome() ? 'no Chromium' : unavailableReason() || natUnavailableReason() || why
  if (reason) skip(ctx, reason)
  try {
    return await start({ ...options, ips: [NAT_HOST, ...(options.ips || [])] })
  } catch (err) {
    if (!err.missing) throw err
    skip(ctx, err.message)
  }
}

module.exports = { startSiteBehindNat, outsideNamespaceEnv, throughNat, NAT_HOST }
