'use strict'

// The request-count claims of seed 000 (section 四.2 and 六), at one server delay: count-10ms.js, count-30ms.js.
const { same, faster, notFaster } = require('./forms')

const WHERE = 'seed 000 (000_2f4494c122b7de5e.txt)'
const TABLES = {
  10: { few: 'h1 0.04 and 0.16 s, h2 0.04 and 0.16 s at 6 and 30 requests', many: 'h1 0.63, 3.03, 20.72 s against h2 0.71, 3.28, 19.34 s at 150, 750, 3750 requests', table: 'section 四.2, first table (延迟时间 10 ms)' },
  30: { few: 'h1 0.07 and 0.24 s, h2 0.07 and 0.17 s at 6 and 30 requests', many: 'h1 1.32, 5.63, 28.82 s against h2 0.78, 3.81, 18.78 s at 150, 750, 3750 requests', table: 'section 四.2, second table (延迟时间 30 ms)' }
}
const SAID_FEW = 'section 六: "对于请求数目较少(约小于30个)的情况下,http1.x和http2的性能差异不大"'
const SAID_MANY = 'section 六: "在请求数目较多且延迟大于30ms的情况下,才能体现http2的性能优势"'

module.exports = delay => [
  same('h1', 'h2', {
    text: 'Below about 30 requests HTTP/1.1 and HTTP/2 perform about the same',
    where: r => r.params.requests <= 30,
    source: { figure: TABLES[delay].few, where: `${WHERE}, ${TABLES[delay].table}; ${SAID_FEW}` }
  }),
  // At 30 ms the source found HTTP/2 ahead with many requests; at 10 ms it did not, and says the advantage needs 30 ms.
  delay >= 30
    ? faster('h2', 'h1', {
      text: "HTTP/2's advantage appears with many requests and latency of 30 ms or more",
      where: r => r.params.requests >= 150,
      source: { figure: TABLES[delay].many, where: `${WHERE}, ${TABLES[delay].table}; ${SAID_MANY}` }
    })
    : notFaster('h2', 'h1', {
      text: `With many requests but only ${delay} ms of latency, HTTP/2 has no advantage (the source: it needs 30 ms or more)`,
      where: r => r.params.requests >= 150,
      source: { figure: TABLES[delay].many, where: `${WHERE}, ${TABLES[delay].table}; ${SAID_MANY}` }
    })
]
