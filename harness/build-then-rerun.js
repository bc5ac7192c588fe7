'use strict'

// A command that measures behind a packet-level link runs in a private
// network namespace (harness/private-netns.js), which has no network for Go's
// module proxy or cargo's registry. So before it starts itself again in
// there, the programs its run will use are built out here: the pinned Caddy
// when an edge lane is asked for (harness/start-lanes.js ensureEdge), oha
// when a lane will be loaded with it, h3get when the link's cross traffic has
// a QUIC flow. Only those, and each build says so in a line (it takes minutes
// the first time, and a terminal shows nothing else).
const fs = require('node:fs')
const { ensureEdge, BUILD_ENV } = require('./start-lanes')
const { ensureOha } = require('../tools/oha/build')
const { ensureH3get } = require('../tools/h3get/build')
const { rerunInPrivateNamespace } = require('./private-netns')

// → the exit code of the command run again in its namespace.
// `lanes`: the lane names it will start; `oha`: whether any of them is loaded with oha;
// `h3get`: whether the link runs a QUIC cross flow (harness/cross-traffic/quic.js fetches with h3get);
// `entry`, `argv`: the script to start again and its arguments; `log`: one line at a time.
// `nat`: the namespace gets a way out (a site of the user's behind the link: harness/site-nat.js).
async function buildThenRerun ({ lanes, oha = false, h3get = false, nat = false, entry, argv, log }) {
  process.env[BUILD_ENV] = (await ensureEdge(lanes, log)) || 'ok'
  if (oha) await ensureOha({ log }).catch(err => log(`oha: ${err.message}`)) // the run says it again, with the lane it leaves unmeasured
  if (h3get) {
    if (!fs.existsSync(ensureH3get.binaryPath())) log('h3get: building tools/h3get for the QUIC cross flow (once, with Go)…')
    await ensureH3get().catch(err => log(`h3get: ${err.message.split('\n')[0]}`)) // the link says it again when it starts the flow
  }
  return rerunInPrivateNamespace(entry, argv, { nat })
}

module.exports = { buildThenRerun }
