'use strict'

const assert = require('node:assert/strict')
const http2 = require('node:http2')
const { SendBudget, connectionBudget } = require('../../server/send-body')
const { laneByName } = require('../../server/lanes')

// The per-connection send budget that keeps node:http2 under its session
// memory (server/lanes/h2-native.js).
describe('send budget of a connection', () => {
  it('grants at once what fits and queues the rest, first come first served', () => {
    const b = new SendBudget(100)
    const order = []
    const gives = {}
    for (const [name, bytes] of [['a', 60], ['b', 40], ['c', 30], ['d', 10]]) {
      b.take(bytes, give => { order.push(name); gives[name] = give })
    }
    assert.deepEqual(order, ['a', 'b'])
    assert.equal(b.outstanding, 100)
    gives.b() // 40 back: c (30) fits, and d (10) behind it
    assert.deepEqual(order, ['a', 'b', 'c', 'd'])
    assert.equal(b.outstanding, 100)
  })

  it('never lets a small take overtake a waiting large one', () => {
    const b = new SendBudget(100)
    const order = []
    let giveA
    b.take(90, give => { order.push('a'); giveA = give })
    b.take(50, () => order.push('big'))
    b.take(5, () => order.push('small')) // would fit, but waits behind 'big'
    assert.deepEqual(order, ['a'])
    giveA()
    assert.deepEqual(order, ['a', 'big', 'small'])
  })

  it('lets a take larger than the limit go when nothing else is outstanding', () => {
    const b = new SendBudget(100)
    const order = []
    let give1
    b.take(10, give => { order.push(1); give1 = give })
    b.take(500, () => order.push(2))
    assert.deepEqual(order, [1])
    give1()
    assert.deepEqual(order, [1, 2])
    assert.equal(b.peak, 500)
  })

  it('counts a give once however often it is called', () => {
    const b = new SendBudget(100)
    let give
    b.take(70, g => { give = g })
    b.take(70, () => {})
    give()
    give()
    assert.equal(b.outstanding, 70)
  })

  it('is one budget per connection', () => {
    const s1 = {}
    const s2 = {}
    assert.equal(connectionBudget(s1, 10), connectionBudget(s1, 10))
    assert.notEqual(connectionBudget(s1, 10), connectionBudget(s2, 10))
  })

  it('h2n: a body for a stream the client already reset is dropped, not thrown (it has no session left)', async () => {
    const h2n = laneByName('h2n')
    let outcome = null
    const server = http2.createServer((req, res) => {
      req.stream.destroy()
      setImmediate(() => {
        try {
          h2n.sendBody(res, Buffer.alloc(1 << 20))
          outcome = 'dropped'
        } catch (err) {
          outcome = err.message
        }
      })
    })
    await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
    const client = http2.connect(`http://127.0.0.1:${server.address().port}`)
    const req = client.request({ ':path': '/' })
    req.on('error', () => {})
    await new Promise(resolve => req.on('close', resolve))
    await new Promise(resolve => setTimeout(resolve, 50))
    client.close()
    server.close()
    assert.equal(outcome, 'dropped')
  })
})
