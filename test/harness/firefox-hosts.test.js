'use strict'

// Firefox sent to the replay by a hosts file of its own (harness/firefox/hosts.js, bench/cells/replay-firefox.js):
// the file's exact text for the replay of test/server/replay/har-fixture.js's three origins (a.example and
// b.example on one address, c.example on another), what a hosts file cannot say refused with the reason, the
// command that bind-mounts it over /etc/hosts in a mount namespace of Firefox's own (nothing run here: the slow
// test runner-replay-firefox.test.js runs it), and Firefox's preferences per forced protocol.
const assert = require('node:assert/strict')
const { hostsFileText, withHostsFile } = require('../../harness/firefox/hosts')
const { replayHosts, replayFirefoxPrefs, hostsRefusal } = require('../../bench/cells/replay-firefox')
const { archiveFromHar } = require('../../server/replay/archive')
const { planReplay } = require('../../server/replay/origins')
const { h2benchHar } = require('../server/replay/har-fixture')

// A started replay's shape (server/replay/serve.js startReplay): its origins and its plan.
function replayOf (options = {}) {
  const plan = planReplay(archiveFromHar(h2benchHar(), { file: 'site.har' }), options)
  return { origins: plan.origins.map(o => ({ origin: o.origin, host: o.host, address: o.address, port: o.port })), plan }
}

describe('Firefox\'s hosts file for the replay', () => {
  it('the recorded names at the replay\'s addresses, one line per address, localhost first', () => {
    const hosts = replayHosts(replayOf())
    assert.deepEqual(hosts, [{ address: '127.0.1.1', names: ['a.example', 'b.example'] }, { address: '127.0.1.2', names: ['c.example'] }])
    assert.equal(hostsFileText(hosts), [
      '127.0.0.1\tlocalhost',
      '::1\tlocalhost ip6-localhost ip6-loopback',
      '127.0.1.1\ta.example b.example',
      '127.0.1.2\tc.example',
      ''
    ].join('\n'))
  })

  it('behind a link: the link\'s addresses instead, the names the same', () => {
    const hosts = replayHosts(replayOf({ addresses: ['100.64.0.10', '100.64.0.11'] }))
    assert.match(hostsFileText(hosts), /\n100\.64\.0\.10\ta\.example b\.example\n100\.64\.0\.11\tc\.example\n$/)
  })

  it('refuses what a hosts file would get wrong or skip: a name twice, a bad address or name, localhost', () => {
    for (const [entries, message] of [
      [[{ address: '127.0.1.1', names: ['a.example'] }, { address: '127.0.1.2', names: ['A.example'] }], /A\.example given twice \(127\.0\.1\.1 and 127\.0\.1\.2\)/],
      [[{ address: '127.0.1.1', names: ['a.example', 'a.example.'] }], /given twice/],
      [[{ address: 'a.example', names: ['b.example'] }], /"a\.example" is not an IP address/],
      [[{ address: '127.0.1.1', names: ['a example'] }], /"a example" is not a host name/],
      [[{ address: '127.0.1.1', names: ['a.example#x'] }], /is not a host name/],
      [[{ address: '127.0.1.1', names: [] }], /127\.0\.1\.1 has no names/],
      [[{ address: '127.0.1.1', names: ['localhost'] }], /localhost is always/]
    ]) assert.throws(() => hostsFileText(entries), err => err instanceof TypeError && message.test(err.message))
    assert.match(hostsFileText([{ address: '::1', names: ['v6.example'] }]), /\n::1\tv6\.example\n$/)
  })

  it('refuses a replay a hosts file cannot express: a moved port, a name at two addresses, an IP address', () => {
    assert.equal(hostsRefusal(replayOf()), null)
    const moved = replayOf({ ports: { 'https://c.example:8443': 9443 } })
    assert.match(hostsRefusal(moved).message, /https:\/\/c\.example:8443 is replayed on port 9443: a hosts file cannot move a port/)
    assert.throws(() => replayHosts(moved), /cannot move a port/)
    const split = replayOf()
    split.plan.origins.push({ origin: 'https://c.example:9000', host: 'c.example', address: '127.0.1.3', port: 9000, recordedPort: 9000 })
    assert.match(hostsRefusal(split).message, /https:\/\/c\.example:8443 and https:\/\/c\.example:9000 are replayed at two addresses/)
    const literal = replayOf()
    literal.plan.origins.push({ origin: 'https://192.0.2.7', host: '192.0.2.7', address: '127.0.1.3', port: 443, recordedPort: 443 })
    assert.match(hostsRefusal(literal).message, /https:\/\/192\.0\.2\.7 is an IP address/)
  })

  it('Firefox started by unshare and sh: the file bound over /etc/hosts in a private mount namespace, then exec\'d', () => {
    const [cmd, args] = withHostsFile('/tmp/p/h2bench-hosts', '/usr/bin/firefox', ['--headless', 'about:blank'])
    assert.equal(cmd, 'unshare')
    const dash = args.indexOf('--')
    const isRoot = process.getuid() === 0
    assert.deepEqual(args.slice(0, dash), [...(isRoot ? [] : ['--user', '--map-root-user']), '--mount', '--propagation', 'private'])
    assert.deepEqual(args.slice(dash + 1), ['sh', '-c', 'mount --bind "$1" /etc/hosts && shift && exec "$@"', 'h2bench-hosts', '/tmp/p/h2bench-hosts', '/usr/bin/firefox', '--headless', 'about:blank'])
  })
})

describe('Firefox\'s preferences for the replay', () => {
  const url = 'https://a.example/'
  it('h1 and h2: force-protocol\'s, HTTP/3 off', () => {
    assert.deepEqual(replayFirefoxPrefs('h1', url, replayOf()), { 'network.http.http2.enabled': false, 'network.http.http3.enable': false })
    assert.deepEqual(replayFirefoxPrefs('h2', url, replayOf()), { 'network.http.http2.enabled': true, 'network.http.http3.enable': false })
  })
  it('h3: every recorded origin mapped to QUIC on its port, HTTP/3 kept on beside the replay\'s CA', () => {
    assert.deepEqual(replayFirefoxPrefs('h3', url, replayOf()), {
      'network.http.http2.enabled': true,
      'network.http.http3.enable': true,
      'network.http.http3.alt-svc-mapping-for-testing': 'a.example;h3=:443,b.example;h3=:443,c.example;h3=:8443',
      'network.http.http3.disable_when_third_party_roots_found': false
    })
  })
})
