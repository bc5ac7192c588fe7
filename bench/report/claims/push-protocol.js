'use strict'

// Push where it still works: Node's http2 client, which accepts pushes; no DevTools.
const { faster } = require('./forms')

module.exports = [
  // Like with like: the source's server added no delay; with one, the requested asset waits it a second time
  // and the pushed one does not, so the ratio tends to 2× whatever the protocol does. The claim rests on delay 0.
  faster({ lane: '*', mode: 'push' }, { lane: '*', mode: 'request' }, {
    text: 'Without DevTools in the way, push is faster than request (no server delay, as in the source)',
    where: r => r.params.delayMs === 0,
    source: { figure: 'request 56 ms, push 18 ms in total, unthrottled', where: 'seed 000 (000_2f4494c122b7de5e.txt), section 五, the No Throttling table (客户端请求总耗时 56 ms, 服务端推送总耗时 18 ms)' }
  })
]
