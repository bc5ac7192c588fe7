'use strict'

// Seed 000, section 五: one 290 KB script pushed with its page or requested by it, in Chrome.
const { faster, all } = require('./forms')

const THROTTLED = r => r.preset !== 'No throttling'
// Today's Chrome refuses push (SETTINGS_ENABLE_PUSH=0): such a row loaded the script by request.
const refused = r => r.mode === 'push' && r.pushOutcome === 'refused by the browser' ? 'push refused by the browser (Chrome sends SETTINGS_ENABLE_PUSH=0): the script came by request; push-protocol measures push with a client that accepts it' : ''

const SOURCE = {
  figure: 'push ÷ request total 1.67–1.97× under the presets (request 9.59 … 0.12 s, push 18.83 … 0.20 s), 0.32× unthrottled (56 ms and 18 ms)',
  where: 'seed 000 (000_2f4494c122b7de5e.txt), section 五, the two tables (客户端请求总耗时, 服务端推送总耗时), and the paragraph after them: "在开启了网络节流以后(包括Wifi选项),服务端推送的速度都远远比不上普通的客户端请求,但是在关闭了网络节流后,服务端推送的速度优势非常明显"'
}

// The same claim over any push/request pair of modes (push-link.js: 'request' instead of 'none').
function pushClaim (requestMode, extra = {}) {
  const request = { lane: '*', mode: requestMode, name: 'request' }
  const push = { lane: '*', mode: 'push' }
  return all([
    faster(request, push, { text: 'request faster than push under throttling', where: THROTTLED }),
    faster(push, request, { text: 'push faster than request unthrottled', where: r => !THROTTLED(r) })
  ], { text: 'Server push looks slower under DevTools throttling but much faster unthrottled', source: SOURCE, invalid: refused, ...extra })
}

module.exports = [pushClaim('none')]
module.exports.pushClaim = pushClaim
