'use strict'

// The test tiers, named for what they need (test/run.js --tier):
//   unit         nothing but this Node: no external program (no Caddy, h3get,
//                oha, h2load, nginx, openssl, git, browser; no Go or cargo
//                build), no network namespace, no TLS lane. Every test file
//                outside the slow/ and integration/ folders, but IN_PLACE.
//   integration  the lanes (TLS servers), Caddy, the load tools, the page
//                server, other real programs (nginx, openssl, git, unshare):
//                the files in an integration/ folder beside the room's unit
//                tests, and IN_PLACE.
//   slow         browsers, the packet-level link, the studies' smoke forms,
//                the Node matrix's other majors: the files in a slow/ folder.
// A test file's folder says its tier; a unit test that needs a server or a
// program moves to its room's integration/ folder (requires one level deeper).

const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..')
const TIERS = ['unit', 'integration', 'slow']

// Integration tests left where they are (test/bench/ is another's to move):
// both make git repositories of their own with the git command.
const IN_PLACE = new Set([
  'test/bench/studies.test.js',
  'test/bench/studies-index.test.js'
])

// The support modules a unit test must not require, and what each needs.
const NEEDS = {
  'test/support/servers.js': 'the lanes (TLS servers, Caddy)',
  'test/support/clients.js': 'TLS lanes to talk to, and h3get',
  'test/support/certificate.js': 'a TLS server to use it',
  'test/support/h2-frames.js': 'a TLS lane to talk to',
  'test/support/lanes.js': 'the lanes (test/support/servers.js)',
  'test/support/plain-server.js': 'a TLS server',
  'test/support/static-site.js': 'nginx and Caddy',
  'test/support/nginx.js': 'nginx',
  'test/support/browser.js': 'a browser',
  'test/support/page.js': 'a browser',
  'test/support/link-tests.js': 'the packet-level link',
  'test/support/link-probe.js': 'the packet-level link',
  'test/support/node-versions.js': 'other Node majors from the npm registry'
}

// 'test/…/x.test.js' (with /) → 'unit' | 'integration' | 'slow'
function tierOf (file) {
  const parts = file.split('/')
  if (parts.includes('slow')) return 'slow'
  if (parts.includes('integration') || IN_PLACE.has(file)) return 'integration'
  return 'unit'
}

// Every test file under test/, relative to the checkout, with /, sorted.
function testFiles (root = ROOT) {
  const out = []
  const walk = dir => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(rel)
      else if (entry.name.endsWith('.test.js')) out.push(rel)
    }
  }
  walk('test')
  return out.sort()
}

// The files of the tiers named (['unit', 'integration'] …).
function filesOf (tiers, root = ROOT) {
  return testFiles(root).filter(f => tiers.includes(tierOf(f)))
}

module.exports = { TIERS, IN_PLACE, NEEDS, tierOf, testFiles, filesOf }
