'use strict'

const fs = require('node:fs')

// Peak RSS of another process, tracked by the kernel: VmHWM in
// /proc/<pid>/status, reset by writing 5 to /proc/<pid>/clear_refs (Linux).
// Exact even when the process is too busy to sample itself.
function canTrackPeak (pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

function readKb (pid, field) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
  return m ? Number(m[1]) * 1024 : null
}

const rss = pid => readKb(pid, 'VmRSS')
const peakRss = pid => readKb(pid, 'VmHWM')
const resetPeak = pid => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5')

module.exports = { canTrackPeak, rss, peakRss, resetPeak }
