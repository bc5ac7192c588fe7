'use strict'

// Seed 000, section 四.4: 30 requests of 0.1 MB at 10 ms delay under the 2016 DevTools presets.
const { faster } = require('./forms')

module.exports = [
  faster('h2', 'h1', {
    text: 'On poor networks (DevTools presets) HTTP/2 is faster than HTTP/1.1',
    where: r => r.preset !== 'WiFi',
    source: { figure: 'h1 222.66, 116.64, 67.37, 32.82, 11.89 s against h2 138.06, 71.02, 40.77, 20.82, 7.70 s from Regular 2G to Regular 4G (1.54–1.65×)', where: 'seed 000 (000_2f4494c122b7de5e.txt), section 四.4, table "网络环境对性能的影响"; section 六: "对于网络状况较差的环境,http2的性能也高于http1.x"' }
  })
]
