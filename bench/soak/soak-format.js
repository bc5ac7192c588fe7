'use strict'

// How the soak writes its numbers (report, chart and progress lines): one
// decimal, a sign, thousands, m:ss.

const f = (x, d = 1) => x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d)
const signed = (x, d = 1) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(d)}`
const int = n => n.toLocaleString('en-US')
const clock = s => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`

module.exports = { f, signed, int, clock }
