'use strict'

// The keys of a link spec (link/spec.js), one entry each: its value form,
// its default and whose that default is, what it emulates, and an example
// item. One list for every place that explains the spec, so they cannot
// disagree: h2bench-link --help and --list (link/preset-list.js), the page's
// "Add an effect" menu (GET /link.json, client/js/link-effects.js) and the
// spec table of docs/link.md (test/link/spec-keys.test.js holds it to this list).
//
// Defaults are read from the parsers where they live (a parse of the bare
// value), not retyped. `needs`: items an example depends on, added by the
// page when the spec lacks all of `keys` (an AQM needs a rate to queue at).
// `clears`: items that turn off what an example cannot stand beside, added when
// the spec has any of `keys` (a direction takes one loss model).
// `page: false`: a key the page may not send (a trace names a file).

const { parseAqm, parseGemodel, AQM_LIMITS } = require('./spec-values')
const { DEFAULT_QUEUE_PACKETS } = require('./spec')
const { fmtTime } = require('./describe')

const RATE_DOWN = { keys: ['down', 'trace', 'trace.down'], item: 'down=10mbit' }
const DELAY = { keys: ['rtt', 'delay', 'delay.down'], item: 'rtt=40ms' }
const AQM_DOWN = { keys: ['aqm', 'aqm.down'], item: 'aqm.down=codel' }

const pct = fraction => `${Number((fraction * 100).toPrecision(6))}%`
const aqm = kind => {
  const a = parseAqm('aqm', kind)
  return `${kind} ${[a.targetUs, a.intervalUs].filter(Boolean).map(us => fmtTime(us).replace(' ', '')).join('/')}`
}
const ge = parseGemodel('gemodel', '1%')
// "1000 packets (fq_codel 10240)": droptail's limit (netem's, Linux's txqueuelen), and each AQM's where Linux's differs.
const queueDefault = () => {
  const other = Object.entries(AQM_LIMITS).filter(([, n]) => n !== DEFAULT_QUEUE_PACKETS).map(([kind, n]) => `${kind} ${n}`)
  return `${DEFAULT_QUEUE_PACKETS} packets${other.length ? ` (${other.join(', ')})` : ''}`
}

const SPEC_KEYS = [
  // Delay and rate
  { name: 'rtt', dirs: false, group: 'delay and rate',
    values: 'TIME: 40ms, 1.5s, 800us', default: '0', whose: '',
    what: 'round-trip propagation delay, half each way', example: 'rtt=100ms' },
  { name: 'delay', dirs: true, group: 'delay and rate',
    values: 'TIME', default: '0', whose: '',
    what: 'one-way propagation delay', example: 'delay.down=50ms' },
  { name: 'jitter', dirs: true, group: 'delay and rate',
    values: 'TIME, at most the delay', default: '0', whose: '',
    what: '± uniform around the delay; packets keep their order', example: 'jitter.down=5ms', needs: [DELAY] },
  { name: 'down', dirs: false, group: 'delay and rate',
    values: 'RATE: kbit, mbit, gbit (×1000), kibit, mibit (×1024); unlimited', default: 'unlimited', whose: '',
    what: 'bottleneck rate, lanes → client', example: 'down=10mbit' },
  { name: 'up', dirs: false, group: 'delay and rate',
    values: 'RATE', default: 'unlimited', whose: '',
    what: 'bottleneck rate, client → lanes', example: 'up=2mbit' },
  { name: 'trace', dirs: true, group: 'delay and rate',
    values: 'FILE', default: 'none', whose: '',
    what: 'a mahimahi packet-delivery trace instead of a rate (command line only)', example: null, page: false },
  { name: 'step', dirs: true, group: 'time schedule',
    values: 'AT/RATE[/DELAY][;AT/RATE[/DELAY]…], RATE - keeps it', default: 'none', whose: '',
    what: 'rate and one-way delay changed at given times: a handover', example: 'step.down=5s/1mbit/150ms;10s/-/20ms' },
  { name: 'outage', dirs: true, group: 'time schedule',
    values: 'ON/OFF[/COUNT]', default: 'none', whose: '',
    what: 'up for ON, then dark for OFF, COUNT times or repeating: 5s/2s/1 is the QUIC interop runner\'s blackhole', example: 'outage.down=5s/2s' },
  // Queue
  { name: 'queue', dirs: true, group: 'queue',
    values: 'PACKETS (100) or BYTES (64KB); unlimited', default: queueDefault(), whose: 'netem\'s, Linux\'s',
    what: 'the bottleneck\'s queue limit', example: 'queue.down=100', needs: [RATE_DOWN] },
  { name: 'aqm', dirs: true, group: 'queue',
    values: 'droptail, codel[/TARGET[/INTERVAL]], fq_codel[/TARGET[/INTERVAL]], pie[/TARGET]', default: `droptail; ${aqm('codel')}, ${aqm('fq_codel')}, ${aqm('pie')}`, whose: 'Linux\'s',
    what: 'the bottleneck\'s queue discipline (FQ-CoDel: 1024 flows, quantum 1514 B); needs a rate', example: 'aqm.down=codel', needs: [RATE_DOWN] },
  { name: 'ecn', dirs: true, group: 'queue',
    values: 'on, off', default: 'off', whose: '',
    what: 'the AQM marks ECN-capable packets CE instead of dropping them; needs an aqm', example: 'ecn.down=on', needs: [RATE_DOWN, AQM_DOWN] },
  // Loss
  { name: 'loss', dirs: true, group: 'loss',
    values: 'PERCENT 0…100', default: '0', whose: '',
    what: 'random (Bernoulli) loss on arrival', example: 'loss.down=1%' },
  { name: 'gemodel', dirs: true, group: 'loss',
    values: 'P[/R[/1-H[/1-K]]] in percent', default: `R ${pct(ge.r)}, 1-H ${pct(ge.badLoss)}, 1-K ${pct(ge.goodLoss)}`, whose: 'netem\'s',
    what: 'bursty loss, Gilbert–Elliott: P into bursts, R out, 1-H lost in them, 1-K between; instead of loss', example: 'gemodel.down=2%/25%', clears: [{ keys: ['loss', 'loss.down'], item: 'loss.down=0' }] },
  { name: 'drop', dirs: true, group: 'loss',
    values: 'N-M', default: 'none', whose: '',
    what: 'the packets of index N to M of the direction dropped (from 0)', example: 'drop.down=10-12' },
  { name: 'dropflow', dirs: true, group: 'loss',
    values: 'N-M', default: 'none', whose: '',
    what: 'packets N to M of every flow (5-tuple) dropped: its first flight, as the QUIC interop runner does', example: 'dropflow.up=0-2' },
  { name: 'dup', dirs: true, group: 'loss',
    values: 'PERCENT', default: '0', whose: '',
    what: 'duplicates, each right after its original', example: 'dup.down=1%' },
  { name: 'corrupt', dirs: true, group: 'loss',
    values: 'PERCENT', default: '0', whose: '',
    what: 'one bit flipped after the IP header (the receiver\'s checksum drops it)', example: 'corrupt.down=1%' },
  { name: 'reorder', dirs: true, group: 'loss',
    values: 'PERCENT', default: '0', whose: '',
    what: 'a packet skips the delay and overtakes those in flight (netem\'s); needs a delay', example: 'reorder.down=5%', needs: [DELAY] },
  // The client's NAT
  { name: 'rebind', dirs: false, group: 'address changes',
    values: 'FIRST[/EVERY][/port|address]', default: 'none', whose: '',
    what: 'NAT rebinding, as the QUIC interop runner\'s rebind-port and rebind-addr: the client\'s source port (or address) changes FIRST after the link starts, then every EVERY; packets to an old binding are dropped', example: 'rebind=2s', needs: [DELAY] },
  // Competing traffic
  { name: 'cross', dirs: true, group: 'cross traffic',
    values: 'FLOW[+FLOW…], FLOW cubic, bbr, reno, quic (down only) or web', default: 'none', whose: '',
    what: 'competing flows through the bottleneck: bulk TCP with that congestion control, bulk QUIC, web-like on/off', example: 'cross.down=cubic', needs: [RATE_DOWN] }
]

// "aqm[.up|.down]", "rtt".
const usage = k => k.dirs ? `${k.name}[.up|.down]` : k.name

// The keys the page may offer, with what it shows (no functions: it goes out as JSON).
const pageKeys = () => SPEC_KEYS.filter(k => k.page !== false).map(k => ({
  name: k.name, usage: usage(k), group: k.group, values: k.values, default: k.default, whose: k.whose, what: k.what, example: k.example,
  needs: k.needs || [], clears: k.clears || []
}))

module.exports = { SPEC_KEYS, usage, pageKeys }
