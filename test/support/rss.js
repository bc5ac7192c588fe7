'use strict'

// The servers' memory, for the tests that must keep it bounded (abuse, fuzz, request bodies).
const fs = require('node:fs')

// Resident memory of a process of ours, from /proc (Linux); 0 once it is gone.
function rssOf (pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024
  } catch {
    return 0
  }
}

// Peak RSS of this process above what it was when watching started; with
// `edgePid`, of this process and Caddy together (an edge lane's connections,
// buffers and streams live in Caddy, its app in this process).
function watchRss (edgePid = null) {
  const now = () => process.memoryUsage().rss + (edgePid ? rssOf(edgePid) : 0)
  const start = now()
  let peak = start
  const sample = () => { peak = Math.max(peak, now()) }
  const timer = setInterval(sample, 10)
  timer.unref() // a test that failed before stop() must not keep mocha alive
  return {
    stop () {
      clearInterval(timer)
      sample()
      return peak - start
    }
  }
}

module.exports = { rssOf, watchRss }
