'use strict'

// server/replay/origins.js (the plan: which leaf and loopback address each
// recorded origin gets, and Chromium's host-resolver rules), server/replay/
// ca.js (the replay's CA and leaves, and their SPKI hashes) and
// serve.js's refusal to bind recorded ports in the host's namespace.
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const { archiveFromHar } = require('../../../server/replay/archive')
const { planReplay, replayAddress, addressCount, hostResolverRules } = require('../../../server/replay/origins')
const { makeReplayCertificates } = require('../../../server/replay/ca')
const { namespaceRefusal } = require('../../../server/replay/serve')
const { spkiHash } = require('../../../server/certs')
const { h2benchHar, devtoolsHar } = require('./har-fixture')

describe('server/replay/origins.js: the plan', () => {
  const plan = planReplay(archiveFromHar(h2benchHar()))

  it('one leaf per recorded certificate, naming every name of the origins that used it', () => {
    assert.deepEqual(plan.certs.map(c => [c.certIndex, c.names, c.origins]), [
      [0, ['a.example', 'b.example', '*.cdn.example'], ['https://a.example', 'https://b.example']],
      [1, ['c.example'], ['https://c.example:8443']]
    ])
  })

  it('one loopback address per recorded address (never 127.0.0.1): origins that shared address and certificate share both', () => {
    assert.deepEqual(plan.origins.map(o => [o.origin, o.address, o.port, o.certIndex]), [
      ['https://a.example', '127.0.1.1', 443, 0], ['https://b.example', '127.0.1.1', 443, 0], ['https://c.example:8443', '127.0.1.2', 8443, 1]
    ])
    assert.deepEqual(plan.listeners, [
      { address: '127.0.1.1', port: 443, names: ['a.example', 'b.example'], origins: ['https://a.example', 'https://b.example'], certIndex: 0 },
      { address: '127.0.1.2', port: 8443, names: ['c.example'], origins: ['https://c.example:8443'], certIndex: 1 }
    ])
    assert.equal(plan.hostResolverRules, 'MAP a.example 127.0.1.1, MAP b.example 127.0.1.1, MAP c.example 127.0.1.2')
  })

  it('behind a link: the given addresses in order instead of loopback (addressCount of them), recorded ports kept, the rules follow', () => {
    const archive = archiveFromHar(h2benchHar())
    assert.equal(addressCount(archive), 2)
    assert.equal(addressCount(archiveFromHar(devtoolsHar())), 3)
    const p = planReplay(archive, { addresses: ['100.64.0.128', '100.64.0.129', '100.64.0.130'] })
    assert.deepEqual(p.listeners.map(l => [l.address, l.port, l.certIndex]), [['100.64.0.128', 443, 0], ['100.64.0.129', 8443, 1]])
    assert.deepEqual(p.origins.map(o => [o.origin, o.address, o.port]), [
      ['https://a.example', '100.64.0.128', 443], ['https://b.example', '100.64.0.128', 443], ['https://c.example:8443', '100.64.0.129', 8443]
    ])
    assert.equal(p.hostResolverRules, 'MAP a.example 100.64.0.128, MAP b.example 100.64.0.128, MAP c.example 100.64.0.129')
    assert.throws(() => planReplay(archive, { addresses: ['100.64.0.128'] }), /needs 2 addresses .* given 1/)
  })

  it('a DevTools HAR: a shared address is not taken for a shared certificate, so each origin gets its own leaf and address', () => {
    const p = planReplay(archiveFromHar(devtoolsHar()))
    assert.deepEqual(p.certs.map(c => c.names), [['a.example'], ['b.example'], ['c.example']])
    assert.deepEqual(p.origins.map(o => o.address), ['127.0.1.1', '127.0.1.2', '127.0.1.3'])
  })

  it('ports moved for a test: each listener on its given port, the rules mapping host:port to address:port', () => {
    const p = planReplay(archiveFromHar(h2benchHar()), { ports: { 'https://a.example': 20443, 'https://b.example': 20443, 'https://c.example:8443': 28443 } })
    assert.deepEqual(p.listeners.map(l => `${l.address}:${l.port}`), ['127.0.1.1:20443', '127.0.1.2:28443'])
    assert.equal(p.hostResolverRules, 'MAP a.example:443 127.0.1.1:20443, MAP b.example:443 127.0.1.1:20443, MAP c.example:8443 127.0.1.2:28443')
  })

  it('a name on two ports at two addresses is mapped port by port; addresses go on past 254', () => {
    assert.equal(hostResolverRules([{ host: 'x.example', port: 443, address: '127.0.1.1', servedPort: 443 }, { host: 'x.example', port: 8443, address: '127.0.1.2', servedPort: 8443 }]),
      'MAP x.example:443 127.0.1.1, MAP x.example:8443 127.0.1.2')
    assert.equal(replayAddress(0), '127.0.1.1')
    assert.equal(replayAddress(253), '127.0.1.254')
    assert.equal(replayAddress(254), '127.0.2.1')
  })
})

describe('server/replay/ca.js: the replay\'s CA and leaves', function () {
  this.timeout(60000)

  it('a CA (CA:TRUE) signing one leaf per certificate, covering its names (wildcards too), with the SPKI hashes Chromium takes', async () => {
    const plan = planReplay(archiveFromHar(h2benchHar()))
    const made = await makeReplayCertificates(plan.certs)
    const ca = new crypto.X509Certificate(made.caPem)
    assert.equal(ca.ca, true)
    assert.equal(made.leaves.length, 2)
    const [ab, c] = made.leaves.map(l => new crypto.X509Certificate(l.cert))
    for (const leaf of [ab, c]) assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey))
    assert.equal(ab.checkHost('a.example'), 'a.example')
    assert.equal(ab.checkHost('b.example'), 'b.example')
    assert.ok(ab.checkHost('img.cdn.example'))
    assert.equal(ab.checkHost('c.example'), undefined)
    assert.equal(c.checkHost('c.example'), 'c.example')
    assert.ok(crypto.createPrivateKey(made.leaves[0].key) && ab.checkPrivateKey(crypto.createPrivateKey(made.leaves[0].key)))
    assert.deepEqual(made.spki, made.leaves.map(l => spkiHash(l.cert)))
    assert.notEqual(made.spki[0], made.spki[1])
  })
})

describe('server/replay/serve.js: where the replay may bind', () => {
  const plan = planReplay(archiveFromHar(h2benchHar()))
  const moved = planReplay(archiveFromHar(h2benchHar()), { ports: () => 20443 })

  it('refuses the host\'s network namespace for the recorded ports, saying why and what to do', () => {
    assert.match(namespaceRefusal(plan, null, false), /refusing to replay in the host's network namespace: .*\(443, 8443\).*private namespace/)
    assert.match(namespaceRefusal(plan, null, false), /give every origin a port >= 1024/)
  })

  it('allows a private namespace, or the host\'s with every origin moved to a port >= 1024', () => {
    assert.equal(namespaceRefusal(plan, null, true), null)
    assert.equal(namespaceRefusal(moved, () => 20443, false), null)
  })
})
