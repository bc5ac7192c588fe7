'use strict'

// The spec's keys as one list (link/spec-keys.js) and every place that shows it: h2bench-link --list and --help
// (link/preset-list.js), the page's "Add an effect" menu (client/js/link-effects.js) and the spec table of docs/link.md.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { SPEC_KEYS, usage, pageKeys } = require('../../link/spec-keys')
const { parseLinkSpec, KNOWN_KEYS } = require('../../link/spec')
const { listKeys, listAll, keysHelp } = require('../../link/preset-list')
const { LINK_PRESETS } = require('../../link/presets')
const { addEffect } = require('../../client/js/link-effects')

const ROOT = path.join(__dirname, '..', '..')
const byName = name => SPEC_KEYS.find(k => k.name === name)
// What the page puts into the spec field, from `spec`, for a key.
const added = (spec, name) => addEffect(spec, pageKeys().find(k => k.name === name), LINK_PRESETS)

describe('the spec\'s keys (link/spec-keys.js)', () => {
  it('one entry a key the parser knows, no more', () => {
    const names = SPEC_KEYS.flatMap(k => k.dirs ? [k.name, `${k.name}.up`, `${k.name}.down`] : [k.name])
    assert.deepEqual([...names].sort(), [...KNOWN_KEYS].sort())
    for (const k of SPEC_KEYS) {
      for (const field of ['values', 'default', 'what', 'group']) assert.ok(k[field] && !k[field].includes('\n'), `${k.name}.${field}`)
    }
  })

  it('defaults as the parsers have them: Linux\'s AQM targets and limits, netem\'s queue limit and Gilbert-Elliott', () => {
    assert.equal(byName('aqm').default, 'droptail; codel 5ms/100ms, fq_codel 5ms/100ms, pie 15ms')
    assert.equal(byName('aqm').whose, 'Linux\'s')
    assert.equal(byName('queue').default, '1000 packets (fq_codel 10240)')
    assert.equal(byName('gemodel').default, 'R 100%, 1-H 100%, 1-K 0%')
    assert.equal(byName('gemodel').whose, 'netem\'s')
    assert.equal(byName('ecn').default, 'off')
    // The same numbers parsed.
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm.down=codel').down.aqm, { kind: 'codel', targetUs: 5000, intervalUs: 100000 })
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm.down=fq_codel').down.queue, { packets: 10240 })
    assert.deepEqual(parseLinkSpec('gemodel=1%').up.gemodel, { p: 0.01, r: 1, badLoss: 1, goodLoss: 0 })
    assert.deepEqual(parseLinkSpec('down=1mbit').down.queue, { packets: 1000 })
  })

  it('every example, with what it needs, is a valid spec from the page; trace is the page\'s only missing key', () => {
    assert.deepEqual(SPEC_KEYS.filter(k => !pageKeys().some(p => p.name === k.name)).map(k => k.name), ['trace'])
    for (const k of pageKeys()) {
      assert.equal(k.example.split('=')[0].split('.')[0], k.name, k.name)
      const spec = [...k.needs.map(n => n.item), k.example].join(',')
      assert.doesNotThrow(() => parseLinkSpec(spec, { traces: false }), spec)
      assert.deepEqual(JSON.parse(JSON.stringify(k)), k, `${k.name} goes out as JSON unchanged`)
    }
  })

  it('--list: the keys table, one line a key with its values, default and whose; after the presets', () => {
    const lines = listKeys().trimEnd().split('\n')
    assert.equal(lines.length, SPEC_KEYS.length + 1)
    assert.match(lines[0], /^key +values +default +whose$/)
    assert.match(lines.find(l => l.startsWith('aqm[.up|.down] ')), /droptail, codel\[\/TARGET\[\/INTERVAL\]\].* +droptail; codel 5ms\/100ms, fq_codel 5ms\/100ms, pie 15ms +Linux's$/)
    assert.match(lines.find(l => l.startsWith('rtt ')), /TIME: 40ms.* +0 +-$/)
    const all = listAll()
    assert.ok(all.indexOf('Regular 3G') < all.indexOf('Keys of a spec'))
    assert.ok(all.includes(listKeys()))
  })

  it('h2bench-link --help and --list print the same list', () => {
    const cli = args => execFileSync(process.execPath, [path.join(ROOT, 'bin', 'h2bench-link.js'), ...args], { encoding: 'utf8' })
    const help = cli(['--help'])
    assert.ok(help.includes(keysHelp()), 'the help holds keysHelp()')
    for (const k of SPEC_KEYS) assert.match(help, new RegExp(`^  ${usage(k).replace(/[.[\]|]/g, '\\$&')} +\\S`, 'm'), k.name)
    for (const line of keysHelp().split('\n')) assert.ok(line.length <= 100, line)
    const list = cli(['--list'])
    assert.ok(list.includes(listKeys()))
    assert.match(list, /^Regular 3G +regular-3g +768 kbit\/s down/m)
  })

  it('docs/link.md\'s spec table has a row a key: its values, default and whose as the list says', () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'link.md'), 'utf8')
    const rows = guide.split('\n').filter(l => /^\| `[a-z]+(\[\.up\\\|\.down\])?` \|/.test(l))
      .map(l => l.slice(2, -2).split(/ (?<!\\)\| /).map(c => c.replace(/\\\|/g, '|').replace(/`/g, '').trim()))
    assert.deepEqual(rows.map(r => r[0]), SPEC_KEYS.map(usage))
    for (const [key, values, dflt, whose] of rows) {
      const k = SPEC_KEYS.find(x => usage(x) === key)
      assert.deepEqual([values, dflt, whose], [k.values, k.default, k.whose || '—'], key)
    }
  })
})

describe('"Add an effect" (client/js/link-effects.js)', () => {
  const starts = ['rtt=60ms', '', 'none', 'down=2mbit,up=1mbit', 'regular-3g,loss=1%', ...LINK_PRESETS.map(p => p.name)]
  it('every key\'s item, from any preset or these specs, gives a spec the page server accepts', () => {
    for (const start of starts) {
      for (const k of pageKeys()) {
        const spec = added(start, k.name)
        assert.ok(spec.includes(k.example), spec)
        // One exception: 5 ms of jitter is more than the one-way delay of a preset's short RTT (LAN, WiFi, DSL); the server says so.
        if (k.name === 'jitter' && start && parseLinkSpec(start).down.delayUs > 0 && parseLinkSpec(start).down.delayUs < 5000) {
          assert.throws(() => parseLinkSpec(spec, { traces: false }), /jitter\.down: jitter 5 ms is above the down delay of [\d.]+ (ms|µs) \(rtt=\d+ms\)/)
          continue
        }
        assert.doesNotThrow(() => parseLinkSpec(spec, { traces: false }), `${start} + ${k.name} → ${spec}`)
      }
    }
  })

  it('appends the example and what it needs, only when missing; the preset\'s items count', () => {
    assert.equal(added('rtt=60ms', 'gemodel'), 'rtt=60ms,gemodel.down=2%/25%')
    assert.equal(added('rtt=60ms', 'aqm'), 'rtt=60ms,down=10mbit,aqm.down=codel')
    assert.equal(added('rtt=60ms', 'ecn'), 'rtt=60ms,down=10mbit,aqm.down=codel,ecn.down=on')
    assert.equal(added('down=1mbit,aqm.down=pie', 'ecn'), 'down=1mbit,aqm.down=pie,ecn.down=on')
    assert.equal(added('Regular 3G', 'aqm'), 'Regular 3G,aqm.down=codel')
    assert.equal(added('', 'reorder'), 'rtt=40ms,reorder.down=5%')
    assert.equal(added('Regular 3G', 'jitter'), 'Regular 3G,jitter.down=5ms')
  })

  it('bursty loss turns random loss off in its direction, the preset\'s too (one loss model a direction)', () => {
    assert.equal(added('rtt=60ms,loss.down=3%', 'gemodel'), 'rtt=60ms,loss.down=0,gemodel.down=2%/25%')
    assert.equal(added('loss=1%', 'gemodel'), 'loss=1%,loss.down=0,gemodel.down=2%/25%')
    assert.equal(added('quic-loss', 'gemodel'), 'quic-loss,loss.down=0,gemodel.down=2%/25%')
    assert.equal(parseLinkSpec(added('loss=1%', 'gemodel')).up.loss, 0.01)
  })

  it('replaces an item of the same key (rtt and delay are one) rather than repeating it', () => {
    assert.equal(added('rtt=60ms,loss.down=3%', 'loss'), 'rtt=60ms,loss.down=1%')
    assert.equal(added('delay=10ms,down=1mbit', 'rtt'), 'rtt=100ms,down=1mbit')
    assert.equal(added('rtt=60ms,ecn.down=off', 'ecn'), 'rtt=60ms,ecn.down=on,down=10mbit,aqm.down=codel')
    assert.equal(added('Regular 3G', 'rtt'), 'Regular 3G,rtt=100ms', 'a preset name is not an item to replace')
  })
})
