'use strict'

// server/replay/schedule.js with fake writers: the orders the fifo and
// rfc9218 rules give for given arrivals, urgencies and incremental flags;
// the Priority header parsed as RFC 9218 says (bad values → defaults); at
// most one chunk in flight per connection (nothing more is written until the
// writer takes the last one); and a client gone mid-body releasing its
// connection's queue. The scheduler's `defer` and each write's completion
// are queued here and run by drain(), so every order is the rule's, not the
// event loop's.
const assert = require('node:assert/strict')
const { createScheduler, parsePriority, CHUNK } = require('../../../server/replay/schedule')

// A scheduler whose deferred pumps and write completions run only in drain().
function harness (rule, { chunk = 4 } = {}) {
  const pending = []
  const log = [] // [name, bytes, 'end'?] per write
  let inFlight = 0
  let maxInFlight = 0
  const scheduler = createScheduler(rule, { chunk, defer: fn => pending.push(fn) })
  // A response writer; `stuck`: never takes a chunk (its done is kept, not called).
  function writer (name, { stuck = false } = {}) {
    const w = { closed: false, held: [] }
    const take = (piece, done, end) => {
      log.push(end ? [name, piece ? piece.length : 0, 'end'] : [name, piece.length])
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      const complete = () => { inFlight--; done() }
      if (stuck) w.held.push(complete)
      else pending.push(complete)
    }
    w.write = (piece, done) => take(piece, done, false)
    w.end = (piece, done) => take(piece, done, true)
    return { writer: { write: w.write, end: w.end, closed: () => w.closed }, w }
  }
  const drain = () => { while (pending.length) pending.shift()() }
  const step = () => pending.length && pending.shift()()
  const names = () => log.map(([name]) => name)
  return { scheduler, writer, drain, step, log, names, maxInFlight: () => maxInFlight }
}
const body = n => Buffer.alloc(n, 'x')
// 'aaabbb' from ['a','a','a','b','b','b']
const seq = list => list.join('')

describe('server/replay/schedule.js: parsePriority (RFC 9218 §4 as a Structured Field dictionary)', () => {
  const cases = [
    [undefined, 3, false],
    ['', 3, false],
    ['u=1', 1, false],
    ['u=0, i', 0, true],
    ['i, u=7', 7, true],
    ['u=5;foo=1, i=?1', 5, true], // a member's parameters are ignored
    ['i=?0', 3, false],
    ['u=8', 3, false], // out of range: the default urgency
    ['u=-1, i', 3, true],
    ['u=1.5', 3, false], // a decimal is no integer
    ['u="1"', 3, false], // a string neither
    ['u=2, i=1', 2, false], // i not a boolean: its default
    ['u=2, u=6', 6, false], // a key repeated: the last wins
    ['u=1, other="a,b", i', 1, true], // a comma inside a string
    ['u=1,', 3, false], // a trailing comma: no dictionary, both defaults
    ['u=1, i, ;;;', 3, false],
    ['U=1', 3, false], // keys are lower-case
    [['u=1', 'i'], 1, true] // repeated header lines joined
  ]
  for (const [header, urgency, incremental] of cases) {
    it(`${JSON.stringify(header)} → u=${urgency}${incremental ? ', i' : ''}`, () => {
      assert.deepEqual(parsePriority(header), { urgency, incremental })
    })
  }
})

describe('server/replay/schedule.js: the orders', () => {
  it('rejects a rule it does not know; chunks are 16 KiB by default', () => {
    assert.throws(() => createScheduler('lifo'), /scheduling rule "lifo" is not one of fifo, rfc9218/)
    assert.equal(CHUNK, 16384)
  })

  it('rfc9218: responses due together go lowest urgency first, each whole, whatever the arrival order', () => {
    const h = harness('rfc9218')
    const tickets = [['u5', 5], ['u1', 1], ['u3', 3]].map(([name, urgency]) => ({ name, t: h.scheduler.open('conn', { urgency }) }))
    for (const { name, t } of tickets) t.send(body(12), h.writer(name).writer)
    h.drain()
    assert.equal(seq(h.names()), 'u1u1u1u3u3u3u5u5u5')
    assert.deepEqual(h.log.filter(x => x[2] === 'end').map(x => x[0]), ['u1', 'u3', 'u5'])
    assert.equal(h.maxInFlight(), 1)
  })

  it('rfc9218: within one urgency the non-incremental ones one at a time in request order', () => {
    const h = harness('rfc9218')
    const a = h.scheduler.open('c', { urgency: 3 })
    const b = h.scheduler.open('c', { urgency: 3 })
    const c = h.scheduler.open('c', { urgency: 3 })
    c.send(body(8), h.writer('c').writer)
    b.send(body(8), h.writer('b').writer)
    a.send(body(8), h.writer('a').writer)
    h.drain()
    assert.equal(seq(h.names()), 'aabbcc')
  })

  it('rfc9218: incremental ones round-robin a chunk each; with non-incremental ones of the same urgency they take turns', () => {
    const h = harness('rfc9218')
    const x = h.scheduler.open('c', { urgency: 2, incremental: true })
    const y = h.scheduler.open('c', { urgency: 2, incremental: true })
    const late = h.scheduler.open('c', { urgency: 4 })
    late.send(body(4), h.writer('L').writer)
    x.send(body(12), h.writer('x').writer)
    y.send(body(8), h.writer('y').writer)
    h.drain()
    assert.equal(seq(h.names()), 'xyxyxL')

    const m = harness('rfc9218')
    const s1 = m.scheduler.open('c', { urgency: 3 })
    const i1 = m.scheduler.open('c', { urgency: 3, incremental: true })
    const s2 = m.scheduler.open('c', { urgency: 3 })
    for (const [t, name] of [[s1, 's'], [i1, 'i'], [s2, 'S']]) t.send(body(8), m.writer(name).writer)
    m.drain()
    assert.equal(seq(m.names()), 'isisSS')
  })

  it('rfc9218: a more urgent response that becomes due mid-body goes next, at the next chunk', () => {
    const h = harness('rfc9218')
    const a = h.scheduler.open('c', { urgency: 6 })
    const b = h.scheduler.open('c', { urgency: 0 })
    a.send(body(16), h.writer('a').writer)
    h.step() // the pump: a's first chunk written
    b.send(body(8), h.writer('b').writer)
    h.drain()
    assert.equal(seq(h.names()), 'abbaaa')
  })

  it('fifo: bodies in arrival order, strictly: a due response waits for an earlier one not due yet; urgency ignored', () => {
    const h = harness('fifo')
    const a = h.scheduler.open('c', { urgency: 7 })
    const b = h.scheduler.open('c', { urgency: 0 })
    const c = h.scheduler.open('c', { urgency: 1 })
    c.send(body(8), h.writer('c').writer)
    b.send(body(8), h.writer('b').writer)
    h.drain()
    assert.deepEqual(h.log, [], 'nothing before a is due')
    a.send(body(8), h.writer('a').writer)
    h.drain()
    assert.equal(seq(h.names()), 'aabbcc')
  })

  it('connections are independent: one connection\'s chunk in flight does not hold another\'s', () => {
    const h = harness('fifo')
    const a = h.scheduler.open('one')
    const b = h.scheduler.open('two')
    a.send(body(8), h.writer('a', { stuck: true }).writer)
    b.send(body(8), h.writer('b').writer)
    h.drain()
    assert.equal(seq(h.names()), 'abb')
    assert.equal(h.scheduler.stats().connections, 2)
  })

  it('a body-less response (HEAD, 304) ends at its turn with nothing written', () => {
    const h = harness('fifo')
    const t = h.scheduler.open('c')
    t.send(null, h.writer('head').writer)
    h.drain()
    assert.deepEqual(h.log, [['head', 0, 'end']])
  })
})

describe('server/replay/schedule.js: backpressure and clients that go away', () => {
  it('at most one chunk in flight per connection: while the writer holds one, nothing else is written', () => {
    const h = harness('rfc9218')
    const { writer, w } = h.writer('a', { stuck: true })
    const a = h.scheduler.open('c', { urgency: 1 })
    const b = h.scheduler.open('c', { urgency: 0 })
    a.send(body(16), writer)
    h.drain()
    b.send(body(8), h.writer('b').writer)
    h.drain()
    assert.deepEqual(h.names(), ['a'], 'b waits although more urgent: a\'s chunk is in flight')
    w.held.shift()() // a's first chunk taken
    h.drain()
    assert.equal(seq(h.names()), 'abba', 'then b (more urgent), then a again (and a holds again)')
    assert.equal(h.maxInFlight(), 1)
  })

  it('a client gone mid-body (its chunk never taken) releases the connection: the next response goes; a late completion is ignored', () => {
    const h = harness('fifo')
    const { writer, w } = h.writer('a', { stuck: true })
    const a = h.scheduler.open('c')
    const b = h.scheduler.open('c')
    a.send(body(16), writer)
    b.send(body(8), h.writer('b').writer)
    h.drain()
    assert.deepEqual(h.names(), ['a'])
    w.closed = true
    a.cancel() // the response's 'close'
    h.drain()
    assert.equal(seq(h.names()), 'abb')
    w.held.shift()() // the write's callback after all (an error callback, say)
    h.drain()
    assert.equal(seq(h.names()), 'abb', 'nothing more of a')
    const stats = h.scheduler.stats()
    assert.equal(stats.cancelled, 1)
    assert.equal(stats.open, 0, 'the connection\'s state is gone with its queue')
  })

  it('a writer found closed at its turn is skipped and its ticket dropped; a cancelled ticket never writes', () => {
    const h = harness('fifo')
    const a = h.scheduler.open('c')
    const b = h.scheduler.open('c')
    const c = h.scheduler.open('c')
    const closed = h.writer('a')
    closed.w.closed = true
    a.send(body(8), closed.writer)
    c.cancel()
    c.send(body(8), h.writer('c').writer)
    b.send(body(8), h.writer('b').writer)
    h.drain()
    assert.equal(seq(h.names()), 'bb')
    assert.equal(h.scheduler.stats().open, 0)
  })
})
