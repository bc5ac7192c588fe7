'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseLinkSpec } = require('../../link/spec')
const { describeLink, isUnimpaired } = require('../../link/describe')
const { forwarderCommands } = require('../../link/forwarder-commands')
const { LinkSpecError } = require('../../link/spec-error')
const { LINK_PRESETS, presetByName } = require('../../link/presets')
const { listPresets } = require('../../link/preset-list')
const { InputError } = require('../../common/errors')
const bench = require('../../link/devtools-presets')

// A direction with nothing set, to compare whole objects against.
const CLEAN = { delayUs: 0, jitterUs: 0, rateBps: null, trace: null, queue: { packets: 1000 }, loss: 0, dup: 0, corrupt: 0, reorder: 0 }

// Asserts that parsing `text` throws a LinkSpecError with this param and a
// message matching every pattern.
function rejects (text, param, ...patterns) {
  let error = null
  try {
    parseLinkSpec(text, { cwd: dir })
  } catch (err) {
    error = err
  }
  assert.ok(error, `"${text}" was accepted`)
  assert.ok(error instanceof LinkSpecError, error.stack)
  assert.ok(error instanceof InputError)
  assert.equal(error.param, param, error.message)
  for (const p of patterns) assert.match(error.message, p)
  return error
}

let dir
before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-link-')) })
after(() => fs.rmSync(dir, { recursive: true, force: true }))

function traceFile (name, text) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

describe('link presets', () => {
  it('every preset parses, by name and by slug, to the same link', () => {
    assert.equal(LINK_PRESETS.length, 20)
    for (const p of LINK_PRESETS) {
      const byName = parseLinkSpec(p.name)
      const bySlug = parseLinkSpec(p.slug)
      assert.equal(byName.name, p.name)
      assert.deepEqual(bySlug.up, byName.up)
      assert.deepEqual(bySlug.down, byName.down)
      assert.ok(p.what && !p.what.includes('\n'), p.name)
    }
  })

  it('names and slugs are unique, groups are the four of the brief', () => {
    assert.equal(new Set(LINK_PRESETS.map(p => p.slug)).size, LINK_PRESETS.length)
    assert.equal(new Set(LINK_PRESETS.map(p => p.name.toLowerCase())).size, LINK_PRESETS.length)
    assert.deepEqual([...new Set(LINK_PRESETS.map(p => p.group))], ['devtools-2016', 'devtools-current', 'quic-article', 'basic'])
  })

  it('the DevTools presets are built from link/devtools-presets.js, No throttling excluded', () => {
    const fromBench = bench.PRESETS.filter(p => p.set !== null).map(p => p.name)
    assert.deepEqual(LINK_PRESETS.filter(p => p.group.startsWith('devtools')).map(p => p.name), fromBench)
    assert.equal(presetByName('No throttling'), null)
    for (const p of bench.PRESETS.filter(p => p.set !== null)) {
      const link = parseLinkSpec(p.name)
      const bits = bench.SETS[p.set].bitsPerKbit
      assert.equal(link.down.rateBps, p.downloadKbps * bits, p.name)
      assert.equal(link.up.rateBps, p.uploadKbps * bits, p.name)
      assert.equal(link.up.delayUs, p.latencyMs * 500, p.name)
      assert.equal(link.down.delayUs, p.latencyMs * 500, p.name)
    }
  })

  it('Regular 3G: 768000 bit/s down, 256000 up, 50 ms each way, 1000-packet queues', () => {
    const link = parseLinkSpec('Regular 3G')
    assert.deepEqual(link, {
      name: 'Regular 3G',
      text: 'Regular 3G',
      description: 'Regular 3G: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, queue 1000 packets',
      up: { ...CLEAN, delayUs: 50000, rateBps: 256000 },
      down: { ...CLEAN, delayUs: 50000, rateBps: 768000 }
    })
    assert.equal(presetByName('Regular 3G').spec, 'rtt=100ms,down=768000bit,up=256000bit')
  })

  it('Slow 4G (kbit = 1000 bits): 1,440,000 bit/s down, 675,000 up, 281250 µs each way', () => {
    const link = parseLinkSpec('Slow 4G')
    assert.deepEqual(link.down, { ...CLEAN, delayUs: 281250, rateBps: 1440000 })
    assert.deepEqual(link.up, { ...CLEAN, delayUs: 281250, rateBps: 675000 })
    assert.match(presetByName('slow-4g').what, /per request.*RTT/)
  })

  it('GPRS, WiFi and 3G numbers', () => {
    assert.equal(parseLinkSpec('GPRS').down.rateBps, 51200)
    assert.equal(parseLinkSpec('GPRS').up.delayUs, 250000)
    assert.equal(parseLinkSpec('WiFi').down.rateBps, 31457280)
    assert.equal(parseLinkSpec('3G').up.rateBps, 400000)
    assert.equal(parseLinkSpec('3G').up.delayUs, 1000000)
  })

  it('QUIC article presets impair the down direction only', () => {
    const expect = {
      'quic-delay': { delayUs: 100000, jitterUs: 10000 },
      'quic-loss': { loss: 0.3 },
      'quic-dup': { dup: 0.7 },
      'quic-corrupt': { corrupt: 0.2 },
      'quic-delay-loss': { delayUs: 100000, jitterUs: 10000, loss: 0.3 },
      'quic-loss-dup': { loss: 0.3, dup: 0.7 },
      'quic-loss-corrupt': { loss: 0.3, corrupt: 0.2 }
    }
    const quic = LINK_PRESETS.filter(p => p.group === 'quic-article')
    assert.deepEqual(quic.map(p => p.slug), Object.keys(expect))
    for (const p of quic) {
      const link = parseLinkSpec(p.slug)
      assert.deepEqual(link.up, CLEAN, p.slug)
      assert.deepEqual(link.down, { ...CLEAN, ...expect[p.slug] }, p.slug)
      assert.ok(p.name.startsWith('QUIC article: '))
    }
    assert.equal(parseLinkSpec('quic-delay').name, 'QUIC article: 100±10 ms')
  })

  it('none emulates nothing, LAN is 1 ms RTT', () => {
    const none = parseLinkSpec('none')
    assert.deepEqual(none.up, CLEAN)
    assert.deepEqual(none.down, CLEAN)
    assert.equal(isUnimpaired(none), true)
    assert.equal(none.description, 'none: nothing emulated (no delay, rate limit or loss)')
    const lan = parseLinkSpec('LAN')
    assert.equal(lan.up.delayUs, 500)
    assert.equal(isUnimpaired(lan), false)
    assert.equal(isUnimpaired(parseLinkSpec('quic-loss')), false)
    assert.equal(isUnimpaired(parseLinkSpec('down=1gbit')), false)
  })

  it('presetByName: any case, slug or a name slugified', () => {
    for (const name of ['Regular 3G', 'regular 3g', 'REGULAR 3G', 'regular-3g', 'Regular_3G', '  regular-3g ']) {
      assert.equal(presetByName(name).name, 'Regular 3G', name)
    }
    assert.equal(presetByName('quic article: loss 30 % + dup 70 %').slug, 'quic-loss-dup')
    assert.equal(presetByName('Regular 5G'), null)
    assert.equal(presetByName(''), null)
    assert.equal(presetByName(null), null)
  })

  it('listPresets prints a row per preset with its numbers and group', () => {
    const lines = listPresets().trimEnd().split('\n')
    assert.equal(lines.length, LINK_PRESETS.length + 1)
    assert.match(lines[0], /^name +slug +link +group$/)
    assert.match(lines.find(l => l.startsWith('Regular 3G ')), /^Regular 3G +regular-3g +768 kbit\/s down, 256 kbit\/s up, 100 ms RTT, queue 1000 packets +devtools-2016$/)
    assert.match(lines.find(l => l.startsWith('QUIC article: loss 30 % ')), /quic-loss +unlimited rate, loss 30 % down +quic-article$/)
  })
})

describe('link spec grammar', () => {
  it('key=value items, whitespace ignored, keys in any case', () => {
    const link = parseLinkSpec('  rtt = 40ms , DOWN=1.6Mbit/s,  up=500kibit , loss=0.5%  ')
    assert.equal(link.name, null)
    assert.equal(link.text, 'rtt = 40ms , DOWN=1.6Mbit/s,  up=500kibit , loss=0.5%')
    assert.deepEqual(link.down, { ...CLEAN, delayUs: 20000, rateBps: 1600000, loss: 0.005 })
    assert.deepEqual(link.up, { ...CLEAN, delayUs: 20000, rateBps: 512000, loss: 0.005 })
  })

  it('time units us, ms, s; 0 allowed; 60 s one way at most', () => {
    assert.equal(parseLinkSpec('delay=250us').up.delayUs, 250)
    assert.equal(parseLinkSpec('delay=1.5s').down.delayUs, 1500000)
    assert.equal(parseLinkSpec('delay=0ms').down.delayUs, 0)
    assert.equal(parseLinkSpec('delay=60s').down.delayUs, 60000000)
    assert.equal(parseLinkSpec('rtt=120s').down.delayUs, 60000000)
    rejects('delay=61s', 'delay', /61s is above 60 s/, /allowed: 0…60 s/)
    rejects('rtt=121s', 'rtt', /above 120 s/)
    rejects('delay=5min', 'delay', /unknown time unit "min"/, /us, ms or s/)
  })

  it('rate units: SI and binary prefixes, /s optional, any case, unlimited', () => {
    const rate = v => parseLinkSpec(`down=${v}`).down.rateBps
    assert.equal(rate('1bit'), 1)
    assert.equal(rate('5kbit'), 5000)
    assert.equal(rate('1.6Mbit/s'), 1600000)
    assert.equal(rate('2GBIT'), 2e9)
    assert.equal(rate('1kibit'), 1024)
    assert.equal(rate('1mibit/s'), 1048576)
    assert.equal(rate('1gibit'), 1073741824)
    assert.equal(rate('100gbit'), 100e9)
    assert.equal(rate('0.5kbit'), 500)
    assert.equal(rate('unlimited'), null)
    assert.equal(parseLinkSpec('down=1mbit').up.rateBps, null)
  })

  it('queue: packets, bytes with SI and binary units, unlimited, default 1000 packets', () => {
    const queue = v => parseLinkSpec(`down=1mbit,queue=${v}`).down.queue
    assert.deepEqual(queue('50'), { packets: 50 })
    assert.deepEqual(queue('50p'), { packets: 50 })
    assert.deepEqual(queue('50packets'), { packets: 50 })
    assert.deepEqual(queue('1500B'), { bytes: 1500 })
    assert.deepEqual(queue('64KB'), { bytes: 64000 })
    assert.deepEqual(queue('64kB'), { bytes: 64000 })
    assert.deepEqual(queue('64KiB'), { bytes: 65536 })
    assert.deepEqual(queue('1.5MB'), { bytes: 1500000 })
    assert.deepEqual(queue('1MiB'), { bytes: 1048576 })
    assert.equal(queue('unlimited'), null)
    const link = parseLinkSpec('down=1mbit,queue.up=10,queue.down=unlimited')
    assert.deepEqual(link.up.queue, { packets: 10 })
    assert.equal(link.down.queue, null)
  })

  it('percentages with or without %, stored as fractions', () => {
    const link = parseLinkSpec('loss=1,dup=0.5%,corrupt=100%,reorder=2.5 %,delay=10ms')
    assert.deepEqual(link.up, { ...CLEAN, delayUs: 10000, loss: 0.01, dup: 0.005, corrupt: 1, reorder: 0.025 })
    assert.equal(parseLinkSpec('loss=1.1%').down.loss, 0.011)
    assert.equal(parseLinkSpec('loss=0').down.loss, 0)
  })

  it('per-direction keys, and KEY.dir wins over KEY whatever the order', () => {
    const link = parseLinkSpec('loss.down=5%,loss=1%,delay.up=20ms,rtt=100ms,jitter.down=3ms')
    assert.equal(link.down.loss, 0.05)
    assert.equal(link.up.loss, 0.01)
    assert.equal(link.up.delayUs, 20000)
    assert.equal(link.down.delayUs, 50000)
    assert.equal(link.down.jitterUs, 3000)
    assert.equal(link.up.jitterUs, 0)
  })

  it('a preset with overrides: the user\'s keys win over the preset\'s', () => {
    const link = parseLinkSpec('Regular 3G,loss=1%')
    assert.equal(link.name, 'Regular 3G')
    assert.deepEqual(link.down, { ...CLEAN, delayUs: 50000, rateBps: 768000, loss: 0.01 })
    assert.equal(link.description, 'Regular 3G with loss=1%: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, queue 1000 packets, loss 1 %')

    const over = parseLinkSpec('regular-3g, down=2mbit, rtt=20ms, delay.up=30ms, queue.down=30KB')
    assert.deepEqual(over.down, { ...CLEAN, delayUs: 10000, rateBps: 2000000, queue: { bytes: 30000 } })
    assert.deepEqual(over.up, { ...CLEAN, delayUs: 30000, rateBps: 256000 })

    // The user's KEY beats the preset's KEY.dir: user over preset comes first.
    const quic = parseLinkSpec('quic-delay,delay=200ms,loss=0')
    assert.deepEqual(quic.down, { ...CLEAN, delayUs: 200000, jitterUs: 10000 })
    assert.deepEqual(quic.up, { ...CLEAN, delayUs: 200000 })
  })

  it('a user trace replaces a preset rate in that direction', () => {
    const file = traceFile('over.trace', '0\n10\n')
    const link = parseLinkSpec(`Regular 3G,trace.down=${file}`)
    assert.equal(link.down.rateBps, null)
    assert.equal(link.down.trace.path, file)
    assert.equal(link.up.rateBps, 256000)
  })
})

describe('link spec errors', () => {
  it('is a LinkSpecError, an InputError with the key at fault', () => {
    const err = rejects('loss.down=130%', 'loss.down')
    assert.equal(err.name, 'LinkSpecError')
    assert.equal(err.message, 'loss.down: 130% is above 100%; allowed: 0…100 %')
    assert.equal(err.status, 400)
  })

  it('unknown key, with the known keys and a suggestion', () => {
    const err = rejects('lost=1%', 'lost', /unknown key "lost"/, /did you mean "loss"/)
    assert.match(err.message, /known keys: rtt, delay, jitter, down, up, rebind, queue, aqm, ecn, loss, gemodel, drop, dropflow, outage, step, dup, corrupt, reorder, trace, cross \(all but rtt, down, up and rebind also as KEY\.up \/ KEY\.down\)/)
    rejects('aqn.down=codel', 'aqn.down', /did you mean "aqm.down"/)
    rejects('steps=1s/1mbit', 'steps', /did you mean "step"/)
    rejects('rate=1mbit', 'rate', /down=<rate>/, /up=<rate>/)
    rejects('rate.down=1mbit', 'rate.down', /down=<rate>/)
    rejects('down.up=1mbit', 'down.up', /unknown key/)
    rejects('loss.sideways=1%', 'loss.sideways', /unknown direction "sideways"/, /loss\.up/, /loss\.down/)
    rejects('loss', 'loss', /key without a value/, /loss=VALUE/)
    rejects('Regular 3G,Regular 2G', null, /"Regular 2G" is not KEY=VALUE/, /preset name can only come first/)
  })

  it('unknown preset, listing the presets', () => {
    rejects('Regular 5G', 'preset', /unknown preset "Regular 5G"/, /regular-3g/, /quic-loss/)
  })

  it('duplicate keys in the user\'s part', () => {
    rejects('loss=1%,loss=2%', 'loss', /duplicate key "loss" \(loss=1% and loss=2%\)/)
    rejects('Regular 3G,down=1mbit,down=2mbit', 'down', /duplicate key "down"/)
    rejects('rtt=10ms,delay=3ms', 'delay', /rtt=10ms and delay=3ms both set the delay of both directions/)
  })

  it('empty spec, empty item, empty value', () => {
    rejects('', null, /empty link spec/, /presets:/)
    rejects('   ', null, /empty link spec/)
    rejects('loss=1%,,dup=1%', null, /empty item 2/)
    rejects('Regular 3G,', null, /empty item 2/)
    rejects('loss=', 'loss', /empty value/)
    rejects('=5', null, /no key/)
    assert.throws(() => parseLinkSpec(42), LinkSpecError)
  })

  it('rates: negative, zero, ambiguous kbps / MB/s, missing or unknown unit, above 100 Gbit', () => {
    rejects('down=-1mbit', 'down', /"-1mbit" is negative/, /allowed/)
    rejects('up=0kbit', 'up', /a rate of 0 delivers nothing/, /unlimited/)
    const kbps = rejects('down=500kbps', 'down', /ambiguous/)
    assert.match(kbps.message, /500kbit for 500 kbit\/s, or 4000kbit if you meant 500 kbytes\/s/)
    rejects('down=2MB/s', 'down', /ambiguous/, /2mbit/, /16mbit/)
    rejects('down=100B/s', 'down', /ambiguous/, /800bit/)
    rejects('down=1Mbps', 'down', /ambiguous/)
    rejects('down=768', 'down', /"768" has no unit/, /768kbit/)
    rejects('down=5furlongs', 'down', /unknown rate unit "furlongs"/, /kbit/)
    rejects('down=fast', 'down', /not a rate/)
    rejects('down=101gbit', 'down', /above 100 gbit\/s/)
    rejects('down=0.1bit', 'down', /below 1 bit\/s/)
  })

  it('times: missing unit, negative', () => {
    rejects('delay=100', 'delay', /"100" has no unit/, /100ms/)
    rejects('rtt=-5ms', 'rtt', /negative/)
    rejects('jitter.up=soon', 'jitter.up', /not a time/)
  })

  it('percentages: above 100, negative, not a number', () => {
    rejects('loss=101', 'loss', /101% is above 100%/)
    rejects('dup.up=-1%', 'dup.up', /negative/, /0…100 %/)
    rejects('corrupt=lots', 'corrupt', /not a percentage/)
    rejects('loss=5 percent', 'loss', /not a percentage/)
  })

  it('jitter above the delay names both numbers, and the preset it came from', () => {
    rejects('delay=10ms,jitter=20ms', 'jitter', /jitter 20 ms is above the up delay of 10 ms \(delay=10ms\)/, /allowed: 0…10 ms/)
    rejects('jitter.down=1ms', 'jitter.down', /above the down delay of 0 ms \(none set\)/)
    rejects('quic-delay,delay=5ms', 'jitter.down', /^jitter\.down \(from preset "QUIC article: 100±10 ms"\): jitter 10 ms is above the down delay of 5 ms/)
    assert.equal(parseLinkSpec('delay=10ms,jitter=10ms').up.jitterUs, 10000)
  })

  it('reorder needs a delay in the same direction', () => {
    rejects('reorder=1%', 'reorder', /needs a delay > 0 in the up direction/, /delay\.up=/)
    rejects('delay.up=10ms,reorder.down=1%', 'reorder.down', /down direction/)
    assert.equal(parseLinkSpec('delay.down=10ms,reorder.down=1%').down.reorder, 0.01)
    assert.equal(parseLinkSpec('reorder=0').up.reorder, 0)
  })

  it('rtt has no direction: rtt.up suggests delay.up', () => {
    rejects('rtt.up=10ms', 'rtt.up', /delay\.up=/)
    rejects('rtt.down=10ms', 'rtt.down', /delay\.down=/)
  })

  it('queue: bytes below one packet, zero or fractional packets, unknown unit', () => {
    rejects('queue=1000B', 'queue', /1000 bytes cannot hold one full packet \(1500 bytes\)/)
    rejects('queue.down=1KB', 'queue.down', /cannot hold one full packet/)
    rejects('queue=0', 'queue', /whole number of packets ≥ 1/)
    rejects('queue=2.5', 'queue', /whole number of packets/)
    rejects('queue=1.0005KB', 'queue', /not a whole number of bytes/)
    rejects('queue=10furlongs', 'queue', /unknown queue unit/)
  })

  it('a trace and a rate in one direction', () => {
    const file = traceFile('ok.trace', '5\n10\n')
    rejects(`trace.down=${file},down=1mbit`, 'trace.down', /down direction cannot have both a trace and a rate \(down=1mbit\)/)
    rejects(`trace=${file},up=1mbit`, 'trace', /up direction/)
    rejects(`down=unlimited,trace.down=${file}`, 'trace.down', /both a trace and a rate/)
    assert.equal(parseLinkSpec(`trace.down=${file},up=1mbit`).up.rateBps, 1000000)
  })
})

describe('mahimahi traces', () => {
  it('parses opportunities, period and mean rate; relative paths against cwd; blank lines skipped', () => {
    traceFile('good.trace', '0\n0\n\n4\n  7 \r\n10\n\n')
    const link = parseLinkSpec('trace.down=good.trace', { cwd: dir })
    assert.deepEqual(link.down.trace, { path: path.join(dir, 'good.trace'), opportunities: 5, periodMs: 10, meanBitsPerSecond: 6016000 })
    assert.equal(link.down.rateBps, null)
    assert.equal(link.up.trace, null)
    assert.match(link.description, /^trace good\.trace \(6\.016 Mbit\/s mean\) down, unlimited up, queue 1000 packets down$/)
  })

  it('a 12 Mbit/s trace: one 1504-byte opportunity per ms', () => {
    const file = traceFile('12mbit.trace', Array.from({ length: 1000 }, (_, i) => i + 1).join('\n') + '\n')
    const link = parseLinkSpec(`trace=${file}`)
    assert.deepEqual(link.up.trace, { path: file, opportunities: 1000, periodMs: 1000, meanBitsPerSecond: 12032000 })
    assert.deepEqual(link.down.trace, link.up.trace)
  })

  it('bad files: not an integer, decreasing, empty, last timestamp 0, unreadable', () => {
    const bad = traceFile('bad.trace', '1\n2\n\n3.5\n')
    rejects(`trace=${bad}`, 'trace', /bad\.trace line 4 is not an integer/)
    rejects(`trace=${traceFile('neg.trace', '1\n-2\n')}`, 'trace', /line 2 is not an integer/)
    rejects(`trace=${traceFile('word.trace', 'abc\n')}`, 'trace', /line 1/)
    rejects(`trace.up=${traceFile('down.trace', '1\n5\n\n4\n')}`, 'trace.up', /down\.trace line 4: 4 is less than 5 on line 2; timestamps must not decrease/)
    rejects(`trace=${traceFile('empty.trace', '\n\n')}`, 'trace', /empty\.trace is empty/)
    rejects(`trace=${traceFile('zero.trace', '0\n0\n')}`, 'trace', /zero\.trace: its last timestamp .* is 0/)
    rejects('trace.down=missing.trace', 'trace.down', /cannot read trace missing\.trace \(.*missing\.trace\): no such file/)
    rejects(`trace=${dir}`, 'trace', /it is a directory/)
  })

  it('paths with spaces or "=" are refused (the forwarder reads space-separated key=value)', () => {
    const spaced = path.join(dir, 'with space')
    fs.mkdirSync(spaced)
    traceFile('with space/t.trace', '1\n')
    traceFile('a=b.trace', '1\n')
    rejects('trace=a=b.trace', 'trace', /must not contain spaces or "="/)
    assert.throws(() => parseLinkSpec('trace=t.trace', { cwd: spaced }), /must not contain spaces/)
    const link = parseLinkSpec('none')
    link.down.trace = { path: '/tmp/a=b.trace', opportunities: 1, periodMs: 1, meanBitsPerSecond: 12032000 }
    assert.throws(() => forwarderCommands(link), err => err instanceof LinkSpecError && err.param === 'trace.down' && /must not contain spaces/.test(err.message))
  })
})

describe('forwarderCommands', () => {
  it('Regular 3G', () => {
    assert.deepEqual(forwarderCommands(parseLinkSpec('Regular 3G')), [
      'set up delay_us=50000 jitter_us=0 rate_bps=256000 queue_packets=1000 queue_bytes=0 loss=0 dup=0 corrupt=0 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_count=0 steps=- rebind_kind=0 rebind_first_us=0 rebind_every_us=0 trace=-',
      'set down delay_us=50000 jitter_us=0 rate_bps=768000 queue_packets=1000 queue_bytes=0 loss=0 dup=0 corrupt=0 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_count=0 steps=- trace=-'
    ])
  })

  it('quic-loss-corrupt', () => {
    assert.deepEqual(forwarderCommands(parseLinkSpec('quic-loss-corrupt')), [
      'set up delay_us=0 jitter_us=0 rate_bps=0 queue_packets=1000 queue_bytes=0 loss=0 dup=0 corrupt=0 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_count=0 steps=- rebind_kind=0 rebind_first_us=0 rebind_every_us=0 trace=-',
      'set down delay_us=0 jitter_us=0 rate_bps=0 queue_packets=1000 queue_bytes=0 loss=0.3 dup=0 corrupt=0.2 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_count=0 steps=- trace=-'
    ])
  })

  it('bytes and unlimited queues, a trace, fractions to 6 significant digits', () => {
    const file = traceFile('cmd.trace', '1\n2\n')
    const link = parseLinkSpec(`rtt=30ms,jitter.down=2ms,up=1mbit,queue.up=64KiB,queue.down=unlimited,trace.down=${file},loss.up=0.1234567%,reorder.down=33.3333333%`)
    assert.deepEqual(forwarderCommands(link), [
      'set up delay_us=15000 jitter_us=0 rate_bps=1000000 queue_packets=0 queue_bytes=65536 loss=0.00123457 dup=0 corrupt=0 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_count=0 steps=- rebind_kind=0 rebind_first_us=0 rebind_every_us=0 trace=-',
      `set down delay_us=15000 jitter_us=2000 rate_bps=0 queue_packets=0 queue_bytes=0 loss=0 dup=0 corrupt=0 reorder=0.333333 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_count=0 steps=- trace=${file}`
    ])
  })
})

describe('describeLink', () => {
  it('symmetric and asymmetric text', () => {
    assert.equal(parseLinkSpec('Slow 4G').description, 'Slow 4G: 1.44 Mbit/s down, 675 kbit/s up, 562.5 ms RTT, queue 1000 packets')
    assert.equal(parseLinkSpec('3G').description, '3G: 400 kbit/s each way, 2000 ms RTT, queue 1000 packets')
    assert.equal(parseLinkSpec('quic-loss').description, 'QUIC article: loss 30 %: unlimited rate, loss 30 % down')
    assert.equal(parseLinkSpec('quic-delay-loss').description, 'QUIC article: 100±10 ms + loss 30 %: unlimited rate, delay 100 ms ±10 ms down, loss 30 % down')
    assert.equal(parseLinkSpec('rtt=40ms,jitter=5ms,loss.down=2%,loss.up=1%,dup=0.5%,corrupt.up=0.1%,reorder=1%').description,
      'unlimited rate, 40 ms RTT (±5 ms jitter each way), loss 2 % down, 1 % up, dup 0.5 %, corrupt 0.1 % up, reorder 1 %')
    assert.equal(parseLinkSpec('delay.down=30ms,delay.up=250us,down=10mbit,queue.down=30KB').description,
      '10 Mbit/s down, unlimited up, delay 30 ms down, 250 µs up, queue 30 KB down')
    assert.equal(describeLink({ ...parseLinkSpec('Regular 3G'), name: null }), '768 kbit/s down, 256 kbit/s up, 100 ms RTT, queue 1000 packets')
  })

  it('gemodel: netem\'s Gilbert-Elliott loss, P[/R[/1-H[/1-K]]] with netem\'s defaults; one loss model a direction', () => {
    const { forwarderCommands } = require('../../link/forwarder-commands')
    const l = parseLinkSpec('rtt=20ms,gemodel.down=1%/30%')
    assert.deepEqual(l.down.gemodel, { p: 0.01, r: 0.3, badLoss: 1, goodLoss: 0 })
    assert.equal(l.up.gemodel, undefined)
    assert.deepEqual(parseLinkSpec('gemodel=5%/20%/80%/1%').up.gemodel, { p: 0.05, r: 0.2, badLoss: 0.8, goodLoss: 0.01 })
    assert.match(l.description, /bursty loss \(Gilbert-Elliott: into bursts 1 %, out 30 %, lost in bursts 100 %, between 0 %; 3\.2\d* % on average, bursts of 3\.33 packets\) down/)
    assert.match(forwarderCommands(l)[1], / ge=1 ge_p=0\.01 ge_r=0\.3 ge_bad=1 ge_good=0/)
    assert.match(forwarderCommands(l)[0], / ge=0 drop_count=0 outage_off_us=0 /)
    assert.throws(() => parseLinkSpec('loss.down=1%,gemodel.down=1%'), /gemodel.down: the down direction has a random loss already \(loss.down=1%\); a direction takes one loss model/)
    assert.throws(() => parseLinkSpec('gemodel=1%/2%/3%/4%/5%'), /is not P\[\/R\[\/1-H\[\/1-K\]\]\]/)
    assert.throws(() => parseLinkSpec('gemodel=0%'), /never loses a packet/)
    assert.throws(() => parseLinkSpec('gemodel=1%/0%'), /never leaves the bad state/)
    assert.throws(() => parseLinkSpec('gemodel=1%/200%'), /200% is above 100%/)
  })

  it('drop=N-M (packets by index) and outage=ON/OFF (dark periods, repeating): in words and as forwarder lines', () => {
    const { forwarderCommands } = require('../../link/forwarder-commands')
    const l = parseLinkSpec('rtt=20ms,drop.down=100-199,outage.up=5s/2s')
    assert.deepEqual(l.down.drop, { from: 100, count: 100 })
    assert.deepEqual(l.up.outage, { onUs: 5e6, offUs: 2e6, count: 0 })
    assert.deepEqual(parseLinkSpec('outage=5s/2s/1').down.outage, { onUs: 5e6, offUs: 2e6, count: 1 })
    assert.match(parseLinkSpec('outage=5s/2s/3').description, /outages \(up 5 s, dark 2 s, 3 times\)/)
    assert.match(forwarderCommands(parseLinkSpec('outage.down=5s/2s/1'))[1], / outage_on_us=5000000 outage_count=1 outage_off_us=2000000 /)
    assert.throws(() => parseLinkSpec('outage=5s/2s/0'), /the count 0 is not a whole number of outages ≥ 1/)
    assert.match(l.description, /packets 100–199 dropped down, outages \(up 5 s, dark 2 s, repeating\) up/)
    const [up, down] = forwarderCommands(l)
    assert.match(down, / drop_from=100 drop_count=100 outage_off_us=0 /)
    assert.match(up, / drop_count=0 outage_on_us=5000000 outage_count=0 outage_off_us=2000000 /)
    assert.throws(() => parseLinkSpec('drop=5-2'), /the range ends before it starts/)
    assert.throws(() => parseLinkSpec('drop=abc'), /is not a range of packets; write drop=N-M/)
    assert.throws(() => parseLinkSpec('outage=5s'), /is not ON\/OFF\[\/COUNT\]; write outage=ON\/OFF\[\/COUNT\], e.g. outage=5s\/2s/)
    assert.throws(() => parseLinkSpec('outage=5s/0s'), /both periods must be longer than 0/)
  })
})

// The keys of issue 22 (link/spec.js, link/spec-values.js): queue disciplines with Linux's defaults, ECN marking,
// step changes, drops of every flow's first packets and cross traffic; values, errors, forwarder lines and words.
describe('aqm: queue disciplines with Linux\'s defaults', () => {
  it('codel, fq_codel, pie: Linux\'s target, interval and limit (sch_codel.c, sch_fq_codel.c, sch_pie.c)', () => {
    const codel = parseLinkSpec('down=10mbit,aqm.down=codel')
    assert.deepEqual(codel.down, { ...CLEAN, rateBps: 10e6, aqm: { kind: 'codel', targetUs: 5000, intervalUs: 100000 } })
    assert.deepEqual(codel.up, CLEAN)
    const fq = parseLinkSpec('down=10mbit,aqm.down=fq_codel').down
    assert.deepEqual(fq.aqm, { kind: 'fq_codel', targetUs: 5000, intervalUs: 100000 })
    assert.deepEqual(fq.queue, { packets: 10240 })
    const pie = parseLinkSpec('down=10mbit,aqm.down=pie').down
    assert.deepEqual(pie.aqm, { kind: 'pie', targetUs: 15000 })
    assert.deepEqual(pie.queue, { packets: 1000 })
  })

  it('parameters override the defaults; the queue key the limit; any case, FQ-CoDel with a dash', () => {
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm.down=codel/10ms/200ms').down.aqm, { kind: 'codel', targetUs: 10000, intervalUs: 200000 })
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm.down=fq_codel/2ms').down.aqm, { kind: 'fq_codel', targetUs: 2000, intervalUs: 100000 })
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm.down=PIE/20ms').down.aqm, { kind: 'pie', targetUs: 20000 })
    assert.equal(parseLinkSpec('down=1mbit,aqm.down=FQ-CoDel').down.aqm.kind, 'fq_codel')
    const limited = parseLinkSpec('down=1mbit,aqm.down=fq_codel,queue.down=500').down
    assert.deepEqual(limited.queue, { packets: 500 })
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm.down=codel,queue.down=64KB').down.queue, { bytes: 64000 })
  })

  it('droptail is the default and sets nothing; both directions, a preset, a trace or a step\'s rate are bottlenecks enough', () => {
    assert.deepEqual(parseLinkSpec('down=1mbit,aqm=droptail').down, { ...CLEAN, rateBps: 1e6 })
    assert.equal(isUnimpaired(parseLinkSpec('aqm=droptail')), true)
    const both = parseLinkSpec('Regular 3G,aqm=codel')
    assert.equal(both.up.aqm.kind, 'codel')
    assert.equal(both.down.aqm.kind, 'codel')
    const file = traceFile('aqm.trace', '1\n2\n')
    assert.equal(parseLinkSpec(`trace.down=${file},aqm.down=pie`).down.aqm.kind, 'pie')
    assert.equal(parseLinkSpec('step.down=1s/1mbit,aqm.down=codel').down.aqm.kind, 'codel')
  })

  it('refused without a rate in that direction, naming the direction', () => {
    rejects('aqm.down=codel', 'aqm.down', /a queue discipline needs a bottleneck where packets queue, and the down direction has no rate; add down=<rate> \(or a trace\)/)
    rejects('down=1mbit,aqm=fq_codel', 'aqm', /the up direction has no rate; add up=<rate>/)
    rejects('quic-loss,aqm.down=pie', 'aqm.down', /down direction has no rate/)
    rejects('step.down=1s/-/10ms,aqm.down=codel', 'aqm.down', /no rate/)
    rejects('step.down=1s/unlimited,aqm.down=codel', 'aqm.down', /no rate/) // a step to unlimited makes no bottleneck
  })

  it('an unknown discipline, too many parameters, an empty or zero one', () => {
    rejects('down=1mbit,aqm=red', 'aqm', /unknown queue discipline "red"; write aqm=droptail, codel\[\/TARGET\[\/INTERVAL\]\] \(Linux: 5ms\/100ms\), fq_codel\[\/TARGET\[\/INTERVAL\]\] \(5ms\/100ms\) or pie\[\/TARGET\] \(15ms\)/)
    rejects('down=1mbit,aqm=pie/10ms/100ms', 'aqm', /"pie\/10ms\/100ms" has 2 parameters/)
    rejects('down=1mbit,aqm=codel/1ms/2ms/3ms', 'aqm', /has 3 parameters/)
    rejects('down=1mbit,aqm=droptail/5ms', 'aqm', /"droptail\/5ms" has 1 parameter, droptail takes none;/)
    rejects('down=1mbit,aqm=codel//100ms', 'aqm', /"codel\/\/100ms" has an empty parameter/)
    rejects('down=1mbit,aqm=codel/0ms', 'aqm', /a target of 0 is not allowed/)
    rejects('down=1mbit,aqm=codel/5ms/0ms', 'aqm', /an? interval of 0 is not allowed/)
    rejects('down=1mbit,aqm=codel/5', 'aqm', /"5" has no unit/)
    rejects('down=1mbit,aqm=codel/11s', 'aqm', /above 10 s/)
  })
})

describe('ecn: marking in place of drops', () => {
  it('on with an AQM, per direction; on, 1 and true alike; off sets nothing', () => {
    const l = parseLinkSpec('down=1mbit,aqm.down=codel,ecn.down=on')
    assert.equal(l.down.ecn, true)
    assert.equal(l.up.ecn, undefined)
    for (const on of ['1', 'true', 'ON']) assert.equal(parseLinkSpec(`down=1mbit,aqm.down=pie,ecn.down=${on}`).down.ecn, true, on)
    assert.deepEqual(parseLinkSpec('ecn=off').down, CLEAN)
    assert.equal(isUnimpaired(parseLinkSpec('ecn=0')), true)
  })

  it('refused without an AQM (droptail only drops), and for a word that is not on or off', () => {
    rejects('ecn.down=on', 'ecn.down', /ECN marking needs a queue that marks: codel, fq_codel or pie \(aqm\.down=…\); a droptail queue only drops/)
    rejects('down=1mbit,aqm.down=droptail,ecn.down=on', 'ecn.down', /needs a queue that marks/)
    rejects('down=1mbit,up=1mbit,aqm.down=codel,ecn=on', 'ecn', /\(aqm\.up=…\)/)
    rejects('ecn=maybe', 'ecn', /"maybe" is not on or off; write ecn=on or ecn=off/)
  })
})

describe('step: rate and delay changed at given times', () => {
  it('AT/RATE[/DELAY] joined by ";", RATE - keeps it, unlimited lifts it', () => {
    const l = parseLinkSpec('rtt=40ms,step.down=5s/1mbit/150ms;10s/-/20ms;12.5s/unlimited')
    assert.deepEqual(l.down.steps, [{ atUs: 5e6, rateBps: 1e6, delayUs: 150000 }, { atUs: 10e6, delayUs: 20000 }, { atUs: 12.5e6, rateBps: null }])
    assert.equal(l.up.steps, undefined)
    assert.deepEqual(parseLinkSpec('step=250ms/2mbit').up.steps, [{ atUs: 250000, rateBps: 2e6 }])
    assert.deepEqual(parseLinkSpec('Regular 3G,step.down=10s/100kbit').down.steps, [{ atUs: 10e6, rateBps: 100000 }])
  })

  it('a trace keeps its rate: only a delay step beside it', () => {
    const file = traceFile('step.trace', '1\n2\n')
    rejects(`trace.down=${file},step.down=5s/1mbit`, 'step.down', /the down direction's rate is its trace \(.*step\.trace\); a step may change its delay only \(write AT\/-\/DELAY\)/)
    assert.deepEqual(parseLinkSpec(`trace.down=${file},step.down=5s/-/50ms`).down.steps, [{ atUs: 5e6, delayUs: 50000 }])
  })

  it('times must increase; a step must change something; the form AT/RATE[/DELAY]', () => {
    rejects('step=5s/1mbit;5s/2mbit', 'step', /step times must increase \(5s comes after a later or equal one\)/)
    rejects('step=5s/1mbit;2s/2mbit', 'step', /step times must increase/)
    rejects('step=5s/-', 'step', /"5s\/-" changes nothing/)
    rejects('step=5s', 'step', /"5s" is not AT\/RATE\[\/DELAY\]; write step=AT\/RATE\[\/DELAY\]/)
    rejects('step=5s/1mbit/1ms/2', 'step', /is not AT\/RATE\[\/DELAY\]/)
    rejects('step=5s/1mbit;', 'step', /has an empty step/)
    rejects('step=5/1mbit', 'step', /"5" has no unit/)
    rejects('step=1s/1mb', 'step', /ambiguous/)
    rejects(`step=${Array.from({ length: 65 }, (_, i) => `${i + 1}s/1mbit`).join(';')}`, 'step', /65 steps; at most 64/)
  })
})

describe('dropflow: packets N…M of every flow', () => {
  it('a range per direction, as drop=N-M', () => {
    const l = parseLinkSpec('dropflow.up=0-2')
    assert.deepEqual(l.up, { ...CLEAN, dropflow: { from: 0, count: 3 } })
    assert.equal(l.down.dropflow, undefined)
    assert.deepEqual(parseLinkSpec('dropflow=4-4').down.dropflow, { from: 4, count: 1 })
    rejects('dropflow=2-1', 'dropflow', /the range ends before it starts/)
    rejects('dropflow.up=first', 'dropflow.up', /"first" is not a range of packets; write dropflow\.up=N-M/)
  })
})

describe('cross: competing flows through the bottleneck', () => {
  it('FLOW[+FLOW…], any case, per direction', () => {
    const l = parseLinkSpec('down=10mbit,cross.down=cubic+web')
    assert.deepEqual(l.down.cross, ['cubic', 'web'])
    assert.equal(l.up.cross, undefined)
    assert.deepEqual(parseLinkSpec('cross=BBR + web + reno').up.cross, ['bbr', 'web', 'reno'])
    assert.deepEqual(parseLinkSpec('cross.down=quic+cubic').down.cross, ['quic', 'cubic'])
  })

  it('an unknown flow, more than 8, a QUIC flow up (it is a download)', () => {
    rejects('cross.up=quic', 'cross.up', /a quic cross flow runs down only \(a download from the lanes' side\); write cross\.down=quic/)
    rejects('cross=cubic+quic', 'cross', /runs down only/)
    rejects('cross=vegas', 'cross', /unknown flow "vegas"; write cross=FLOW\[\+FLOW…\] with FLOW one of cubic, bbr, reno, quic, web/)
    rejects('cross.down=cubic+', 'cross.down', /"cubic\+" has an empty flow/)
    rejects(`cross=${Array(9).fill('web').join('+')}`, 'cross', /9 flows; at most 8 a direction/)
  })
})

describe('the new keys as forwarder lines and in words', () => {
  it('aqm (0 droptail, 1 CoDel, 2 FQ-CoDel, 3 PIE) with its target and interval, ecn, flowdrop, steps', () => {
    const l = parseLinkSpec('down=10mbit,aqm.down=fq_codel/2ms/50ms,ecn.down=on,dropflow.up=0-2,step.down=5s/1mbit/150ms;10s/-/20ms;12s/unlimited')
    assert.deepEqual(forwarderCommands(l), [
      'set up delay_us=0 jitter_us=0 rate_bps=0 queue_packets=1000 queue_bytes=0 loss=0 dup=0 corrupt=0 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=0 ecn=0 flowdrop_from=0 flowdrop_count=3 steps=- rebind_kind=0 rebind_first_us=0 rebind_every_us=0 trace=-',
      'set down delay_us=0 jitter_us=0 rate_bps=10000000 queue_packets=10240 queue_bytes=0 loss=0 dup=0 corrupt=0 reorder=0 ge=0 drop_count=0 outage_off_us=0 aqm=2 aqm_target_us=2000 aqm_interval_us=50000 ecn=1 flowdrop_count=0 steps=5000000:1000000:150000;10000000:k:20000;12000000:0:k trace=-'
    ])
    assert.match(forwarderCommands(parseLinkSpec('down=1mbit,aqm.down=codel'))[1], / aqm=1 aqm_target_us=5000 aqm_interval_us=100000 ecn=0 /)
    assert.match(forwarderCommands(parseLinkSpec('down=1mbit,aqm.down=pie'))[1], / aqm=3 aqm_target_us=15000 aqm_interval_us=0 ecn=0 /)
  })

  it('the queue names its discipline; ECN, steps, per-flow drops and cross traffic in words', () => {
    const words = spec => parseLinkSpec(spec).description
    assert.equal(words('down=10mbit,aqm.down=codel,ecn.down=on'),
      '10 Mbit/s down, unlimited up, CoDel queue (target 5 ms, interval 100 ms, 1000 packets) down, ECN marking down')
    assert.equal(words('down=10mbit,up=1mbit,aqm.down=fq_codel/10ms/200ms,aqm.up=pie'),
      '10 Mbit/s down, 1 Mbit/s up, FQ-CoDel queue (target 10 ms, interval 200 ms, 10240 packets) down, PIE queue (target 15 ms, 1000 packets) up')
    assert.equal(words('Regular 3G,aqm=pie/20ms,queue.down=64KB,ecn=on'),
      'Regular 3G with aqm=pie/20ms, queue.down=64KB, ecn=on: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, PIE queue (target 20 ms, 64 KB) down, PIE queue (target 20 ms, 1000 packets) up, ECN marking')
    assert.equal(words('Regular 3G,aqm.down=codel'),
      'Regular 3G with aqm.down=codel: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, CoDel queue (target 5 ms, interval 100 ms, 1000 packets) down, droptail queue 1000 packets up')
    assert.equal(words('rtt=40ms,step.down=5s/1mbit/150ms;10s/-/20ms'),
      'unlimited rate, 40 ms RTT, queue 1000 packets down, steps down: at 5 s 1 Mbit/s 150 ms, at 10 s delay 20 ms')
    assert.equal(words('step=500ms/unlimited'), 'unlimited rate, steps each way: at 500 ms unlimited rate')
    assert.equal(words('step.up=1s/1mbit,aqm.up=codel'), 'unlimited rate, CoDel queue (target 5 ms, interval 100 ms, 1000 packets) up, steps up: at 1 s 1 Mbit/s')
    assert.equal(words('dropflow.up=0-2'), 'unlimited rate, packets 0–2 of every flow dropped up')
    assert.equal(words('dropflow=0-0,drop.down=7-7'), 'unlimited rate, packet 7 dropped down, packet 0 of every flow dropped')
    assert.equal(words('down=10mbit,cross.down=cubic+web'), '10 Mbit/s down, unlimited up, queue 1000 packets down, cross traffic down: CUBIC, web')
    assert.equal(words('cross=cubic+cubic+bbr'), 'unlimited rate, cross traffic each way: CUBIC ×2, BBR')
    assert.equal(words('cross.down=quic,cross.up=reno'), 'unlimited rate, cross traffic down: QUIC, cross traffic up: Reno')
  })

  it('isUnimpaired: false with any of the new effects, true for droptail and ecn=off alone', () => {
    for (const spec of ['dropflow=0-0', 'cross=web', 'step=1s/-/10ms', 'step.down=1s/1mbit', 'down=1mbit,aqm.down=codel', 'gemodel.up=1%', 'drop=0-0', 'outage=1s/1s']) {
      assert.equal(isUnimpaired(parseLinkSpec(spec)), false, spec)
    }
    for (const spec of ['aqm=droptail', 'ecn=off', 'aqm=droptail,ecn=off,loss=0']) {
      assert.equal(isUnimpaired(parseLinkSpec(spec)), true, spec)
      assert.equal(parseLinkSpec(spec).description, 'nothing emulated (no delay, rate limit or loss)')
    }
  })

  it('rebind=FIRST[/EVERY][/port|address]: the client\'s NAT, on the up line only, in words', () => {
    const l = parseLinkSpec('rtt=20ms,rebind=1s/5s/address')
    assert.deepEqual(l.up.rebind, { firstUs: 1e6, everyUs: 5e6, kind: 'address' })
    assert.equal(l.down.rebind, undefined)
    assert.deepEqual(parseLinkSpec('rebind=2s').up.rebind, { firstUs: 2e6, everyUs: 0, kind: 'port' })
    const [up, down] = forwarderCommands(l)
    assert.match(up, / rebind_kind=2 rebind_first_us=1000000 rebind_every_us=5000000 /)
    assert.doesNotMatch(down, /rebind/)
    assert.match(l.description, /NAT rebinding: the client's address changes at 1 s, then every 5 s/)
    rejects('rebind.up=1s', 'rebind.up', /changes the client's binding for both directions; write rebind=… without \.up or \.down/)
    rejects('rebind=0s', 'rebind', /the first rebinding must come after the link starts/)
    rejects('rebind=1s/0.1ms', 'rebind', /below 1 ms/)
    rejects('rebind=1s/2s/3s', 'rebind', /is not FIRST\[\/EVERY\]\[\/port\|address\]/)
    rejects('rebind=1s//port', 'rebind', /has an empty part/)
  })
})

describe('a link\'s round trip, read in one place (rttMsOf)', () => {
  const { rttMsOf, rttMsOfSpec } = require('../../link/spec')
  it('is the two one-way delays; min takes off their jitter; a DevTools preset\'s name is its link preset\'s', () => {
    assert.equal(rttMsOfSpec('rtt=100ms,down=20mbit'), 100)
    assert.equal(rttMsOfSpec('delay.up=5ms,delay.down=45ms'), 50)
    assert.equal(rttMsOf(parseLinkSpec('rtt=100ms,jitter=10ms')), 100)
    assert.equal(rttMsOf(parseLinkSpec('rtt=100ms,jitter=10ms'), { min: true }), 80)
    assert.equal(rttMsOfSpec('Regular 2G'), 300)
    assert.equal(rttMsOfSpec('none'), 0)
    assert.equal(rttMsOfSpec('not a spec=1'), null)
  })
})
