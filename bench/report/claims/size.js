'use strict'

// Seed 000, section 四.3: 30 requests at 10 ms delay, 0.2 … 2.0 MB each.
const { faster, near, all } = require('./forms')

// The source's figure: h2 ÷ h1 per size from its table, median of the ten (1.19, 1.22, 1.03, 1.22, 1.07, 1.18, 0.91,
// 1.06, 1.18, 1.18). "Slightly": within ×1.25 of it either way, about the spread of those ten ratios.
const SOURCE_RATIO = 1.18

module.exports = [
  all([
    faster('h1', 'h2', { text: 'HTTP/1.1 faster than HTTP/2' }),
    near('h2', 'h1', SOURCE_RATIO, 0.25, { text: 'by about the source\'s 1.18×' })
  ], {
    text: 'For larger responses (30 requests, 0.2-2 MB) HTTP/2 is slightly slower than HTTP/1.1',
    source: { figure: 'h2 takes 1.18× h1\'s time (median of its per-size ratios; h1 0.21 … 1.13 s, h2 0.25 … 1.33 s)', where: 'seed 000 (000_2f4494c122b7de5e.txt), section 四.3, table "资源体积对性能的影响" (the words "slightly slower" are h2bench\'s reading of that table, not the article\'s)' }
  })
]
